//! Connection time-outs for the HTTP server (slowloris protection).
//!
//! `axum::serve` runs hyper without a timer, so hyper applies no header-read or keep-alive time-out
//! of its own. [`TimedListener`] wraps every accepted socket in a [`TimedIo`] that knows what the
//! connection is doing, told by the [`track_requests`] middleware (through the connection's
//! [`ConnectInfo`]):
//!
//! - **waiting for a request head**: from accept (first request) or from the first byte of the next
//!   request, the whole head must arrive within [`HttpLimits::header_read_timeout`]; bytes trickled
//!   in slowly do not extend it;
//! - **idle between requests** (keep-alive): closed after [`HttpLimits::idle_timeout`] without a new
//!   request; while a response is still being written, each write that makes progress restarts it,
//!   so a reader that stops reading is dropped after the same time;
//! - **handling a request**: no deadline at this layer (handlers bound themselves, e.g. the analytics
//!   body read, [`HttpLimits::body_read_timeout`]);
//! - **upgraded to a WebSocket** (101): no deadline at this layer; the relay closes silent sockets
//!   itself ([`crate::relay::RelayConfig::idle_timeout`], with pings every 15 s).
//!
//! A connection whose deadline passes is closed (the read or write fails with `TimedOut`, hyper
//! drops the socket).

use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;

use axum::extract::connect_info::{ConnectInfo, Connected};
use axum::extract::Request;
use axum::http::StatusCode;
use axum::middleware::Next;
use axum::response::Response;
use axum::serve::{IncomingStream, Listener};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::time::{Instant, Sleep};

/// Time-outs of the HTTP layer. [`Default`] holds the values the demo backend uses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HttpLimits {
    /// The whole request head (request line and headers) must arrive within this time: from
    /// accept for the first request of a connection, from its first byte for later ones.
    pub header_read_timeout: Duration,
    /// A keep-alive connection without a new request (or a response write that makes no progress)
    /// for this long is closed.
    pub idle_timeout: Duration,
    /// A request body (`POST /e`) must arrive within this time, else 408.
    pub body_read_timeout: Duration,
}

impl Default for HttpLimits {
    fn default() -> Self {
        HttpLimits {
            header_read_timeout: Duration::from_secs(10),
            idle_timeout: Duration::from_secs(60),
            body_read_timeout: Duration::from_secs(10),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// Waiting for (the rest of) a request head until the deadline.
    Head(Instant),
    /// Between requests (or writing a response) until the deadline.
    Idle(Instant),
    /// A handler is running.
    Busy,
    /// Switched protocols (WebSocket): not ours to time.
    Upgraded,
}

/// What one connection is doing; shared by its [`TimedIo`] and the requests it carries.
#[derive(Debug)]
pub struct ConnPhase {
    limits: HttpLimits,
    phase: Mutex<Phase>,
}

impl ConnPhase {
    fn new(limits: HttpLimits) -> Self {
        let first_head = Instant::now() + limits.header_read_timeout;
        ConnPhase {
            limits,
            phase: Mutex::new(Phase::Head(first_head)),
        }
    }

    fn deadline(&self) -> Option<Instant> {
        match *self.phase.lock().unwrap() {
            Phase::Head(d) | Phase::Idle(d) => Some(d),
            Phase::Busy | Phase::Upgraded => None,
        }
    }

    /// Bytes arrived: on an idle connection they start the next request head.
    fn on_read(&self) {
        let mut p = self.phase.lock().unwrap();
        if let Phase::Idle(_) = *p {
            *p = Phase::Head(Instant::now() + self.limits.header_read_timeout);
        }
    }

    /// Bytes left: a response still being written keeps an idle connection alive.
    fn on_write(&self) {
        let mut p = self.phase.lock().unwrap();
        if let Phase::Idle(_) = *p {
            *p = Phase::Idle(Instant::now() + self.limits.idle_timeout);
        }
    }

    fn request_started(&self) {
        let mut p = self.phase.lock().unwrap();
        if *p != Phase::Upgraded {
            *p = Phase::Busy;
        }
    }

    fn request_finished(&self, upgraded: bool) {
        let mut p = self.phase.lock().unwrap();
        *p = if upgraded || *p == Phase::Upgraded {
            Phase::Upgraded
        } else {
            Phase::Idle(Instant::now() + self.limits.idle_timeout)
        };
    }
}

/// A TCP stream that fails its reads and writes once its connection's deadline has passed.
pub struct TimedIo {
    inner: TcpStream,
    phase: Arc<ConnPhase>,
    sleep: Pin<Box<Sleep>>,
    armed_for: Option<Instant>,
}

impl std::fmt::Debug for TimedIo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TimedIo")
            .field("phase", &self.phase)
            .finish_non_exhaustive()
    }
}

fn timed_out() -> io::Error {
    io::Error::new(io::ErrorKind::TimedOut, "connection time-out")
}

impl TimedIo {
    fn new(inner: TcpStream, limits: HttpLimits) -> Self {
        TimedIo {
            inner,
            phase: Arc::new(ConnPhase::new(limits)),
            sleep: Box::pin(tokio::time::sleep(Duration::ZERO)),
            armed_for: None,
        }
    }

    /// `Err` once the deadline has passed.
    fn expired(&self) -> io::Result<()> {
        match self.phase.deadline() {
            Some(d) if Instant::now() >= d => Err(timed_out()),
            _ => Ok(()),
        }
    }

    /// Makes sure the connection's task wakes up at the current deadline; true once it passed.
    ///
    /// Called after every read and write, whatever their outcome: the deadline moves when the
    /// request finishes (idle) or bytes flow, and hyper may not read again by itself (a read that
    /// returned `Pending` earlier leaves it waiting on the socket), so the timer must be re-armed
    /// with this task's waker whenever it changes.
    fn arm(&mut self, cx: &mut Context<'_>) -> bool {
        let Some(deadline) = self.phase.deadline() else {
            // No deadline (a handler runs, or a WebSocket): a stale timer only wakes the task once.
            return false;
        };
        if self.armed_for != Some(deadline) {
            self.sleep.as_mut().reset(deadline);
            self.armed_for = Some(deadline);
        }
        self.sleep.as_mut().poll(cx).is_ready()
    }

    /// `Pending` becomes a time-out error once the deadline has passed.
    fn finish<T>(&mut self, cx: &mut Context<'_>, r: Poll<io::Result<T>>) -> Poll<io::Result<T>> {
        let expired = self.arm(cx);
        match r {
            Poll::Pending if expired => Poll::Ready(Err(timed_out())),
            r => r,
        }
    }
}

impl AsyncRead for TimedIo {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        this.expired()?;
        let before = buf.filled().len();
        let r = Pin::new(&mut this.inner).poll_read(cx, buf);
        if matches!(r, Poll::Ready(Ok(()))) && buf.filled().len() > before {
            this.phase.on_read();
        }
        this.finish(cx, r)
    }
}

impl AsyncWrite for TimedIo {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        data: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        this.expired()?;
        let r = Pin::new(&mut this.inner).poll_write(cx, data);
        if matches!(r, Poll::Ready(Ok(n)) if n > 0) {
            this.phase.on_write();
        }
        this.finish(cx, r)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        this.expired()?;
        let r = Pin::new(&mut this.inner).poll_write_vectored(cx, bufs);
        if matches!(r, Poll::Ready(Ok(n)) if n > 0) {
            this.phase.on_write();
        }
        this.finish(cx, r)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let r = Pin::new(&mut this.inner).poll_flush(cx);
        this.finish(cx, r)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_shutdown(cx)
    }
}

/// A TCP listener whose connections carry [`HttpLimits`].
#[derive(Debug)]
pub struct TimedListener {
    inner: TcpListener,
    limits: HttpLimits,
}

impl TimedListener {
    pub fn new(inner: TcpListener, limits: HttpLimits) -> Self {
        TimedListener { inner, limits }
    }
}

impl Listener for TimedListener {
    type Io = TimedIo;
    type Addr = SocketAddr;

    async fn accept(&mut self) -> (Self::Io, Self::Addr) {
        let (stream, addr) = Listener::accept(&mut self.inner).await;
        // Small writes go at once (a relay push, a JSON answer): without it Nagle's algorithm and
        // the peer's delayed acknowledgement hold a frame for ~40 ms.
        let _ = stream.set_nodelay(true);
        (TimedIo::new(stream, self.limits.clone()), addr)
    }

    fn local_addr(&self) -> io::Result<Self::Addr> {
        self.inner.local_addr()
    }
}

/// Connection info of a [`TimedListener`] connection: the peer and the connection's phase.
#[derive(Debug, Clone)]
pub struct TimedConn {
    pub remote: SocketAddr,
    phase: Arc<ConnPhase>,
}

impl Connected<IncomingStream<'_, TimedListener>> for TimedConn {
    fn connect_info(stream: IncomingStream<'_, TimedListener>) -> Self {
        TimedConn {
            remote: *stream.remote_addr(),
            phase: stream.io().phase.clone(),
        }
    }
}

/// Marks the connection busy while a handler runs, then idle (or upgraded after a 101), and hands
/// handlers the peer as axum's `ConnectInfo<SocketAddr>` (see [`crate::client`]).
/// Requests not served through a [`TimedListener`] pass untouched.
pub async fn track_requests(mut req: Request, next: Next) -> Response {
    let Some(conn) = req
        .extensions()
        .get::<ConnectInfo<TimedConn>>()
        .map(|c| c.0.clone())
    else {
        return next.run(req).await;
    };
    req.extensions_mut().insert(ConnectInfo(conn.remote));
    let phase = conn.phase;
    /// Back to idle even when the handler's future is dropped.
    struct Guard(Arc<ConnPhase>, bool);
    impl Drop for Guard {
        fn drop(&mut self) {
            self.0.request_finished(self.1);
        }
    }
    phase.request_started();
    let mut guard = Guard(phase, false);
    let res = next.run(req).await;
    guard.1 = res.status() == StatusCode::SWITCHING_PROTOCOLS;
    res
}

/// Why [`read_body`] gave up.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BodyError {
    /// Larger than allowed (told by its Content-Length, or found while reading).
    TooLarge,
    /// Not received within the time-out: answer 408 and close the connection.
    TimedOut,
}

/// Reads a request body of at most `max` bytes within `timeout`, refusing it at once when its
/// Content-Length says it is larger. The one body reader of the POST routes; each API words its
/// own error.
pub async fn read_body(
    req: Request,
    max: usize,
    timeout: Duration,
) -> Result<axum::body::Bytes, BodyError> {
    let declared = req
        .headers()
        .get(axum::http::header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<usize>().ok());
    if declared.is_some_and(|n| n > max) {
        return Err(BodyError::TooLarge);
    }
    match tokio::time::timeout(timeout, axum::body::to_bytes(req.into_body(), max)).await {
        Ok(Ok(b)) => Ok(b),
        Ok(Err(_)) => Err(BodyError::TooLarge),
        Err(_) => Err(BodyError::TimedOut),
    }
}

/// Serves `app` on `listener` with the connection time-outs of `limits` until `shutdown` resolves.
pub async fn serve(
    listener: TcpListener,
    app: axum::Router,
    limits: HttpLimits,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> io::Result<()> {
    let app = app.layer(axum::middleware::from_fn(track_requests));
    axum::serve(
        TimedListener::new(listener, limits),
        app.into_make_service_with_connect_info::<TimedConn>(),
    )
    .with_graceful_shutdown(shutdown)
    .await
}
