//! A small SMTP client on tokio (RFC 5321): greeting, `EHLO` (`HELO` when refused), TLS
//! (implicit, RFC 8314, or `STARTTLS`, RFC 3207), `AUTH` (`PLAIN`, RFC 4616, else `LOGIN`),
//! `MAIL FROM`, `RCPT TO`, `DATA` (CRLF lines, dot-stuffed), `QUIT`. Every reply code is checked
//! and every step has a time-out. A password never travels in the clear: `STARTTLS` must be offered
//! when asked for (no fallback), and a login over a plain connection is only taken on loopback.

use std::fmt;
use std::io;
use std::net::IpAddr;
use std::time::Duration;

use base64::Engine;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::tls;

/// Longest reply line accepted (RFC 5321 says 512; extensions lists may be longer).
const MAX_LINE: usize = 2048;
/// Most lines of one (multi-line) reply.
const MAX_LINES: usize = 64;

/// How the connection to the mail server is protected.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Security {
    /// Plain TCP (`HOST:PORT`, `smtp://`): a relay on loopback or the private network.
    Plain,
    /// Plain, then `STARTTLS` before anything else (`smtp+starttls://`, port 587).
    StartTls,
    /// TLS from the first byte (`smtps://`, port 465).
    Tls,
}

/// The mail server (`--smtp`): where, how protected, and the login if it asks for one. Its
/// `Debug` never shows the password.
#[derive(Clone, PartialEq, Eq)]
pub struct MailServer {
    /// A host name or IP address (an IPv6 one without brackets).
    pub host: String,
    pub port: u16,
    pub security: Security,
    /// User and password for `AUTH`.
    pub login: Option<(String, String)>,
}

impl fmt::Debug for MailServer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MailServer")
            .field("host", &self.host)
            .field("port", &self.port)
            .field("security", &self.security)
            .field("user", &self.login.as_ref().map(|(u, _)| u))
            .finish()
    }
}

impl fmt::Display for MailServer {
    /// As configured, without the password.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let scheme = match self.security {
            Security::Plain => "smtp",
            Security::StartTls => "smtp+starttls",
            Security::Tls => "smtps",
        };
        let user = self.login.as_ref().map_or(String::new(), |(u, _)| format!("{}@", wm_core::service::url::encode_component(u)));
        write!(f, "{scheme}://{user}{}", self.addr())
    }
}

impl MailServer {
    /// `HOST:PORT` (plain, as the local sink), or `smtp://`, `smtp+starttls://` or `smtps://`
    /// `[USER@]HOST[:PORT]` (ports 25, 587 and 465 by default). The user is percent-encoded (an
    /// address's `@` is `%40`); its password is `password` (`$WM_SMTP_PASSWORD`), never in the URL.
    /// A login over plain SMTP is refused unless the host is a loopback address.
    pub fn parse(s: &str, password: Option<&str>) -> Result<MailServer, String> {
        // The URL as said back in errors: never a password someone put in it.
        let shown = match (s.rsplit_once('@'), s.split_once("://")) {
            (Some((_, host)), Some((scheme, _))) => format!("{scheme}://…@{host}"),
            (Some((_, host)), None) => format!("…@{host}"),
            (None, _) => s.to_string(),
        };
        let bad = |why: &str| format!("--smtp {shown:?}: {why}");
        if s.len() > 512 || s.chars().any(|c| c.is_whitespace() || c.is_control()) {
            return Err(bad("expected HOST:PORT or smtps://[USER@]HOST[:PORT] (no spaces, at most 512 characters)"));
        }
        let (security, rest, default_port) = if let Some(r) = s.strip_prefix("smtps://") {
            (Security::Tls, r, Some(465))
        } else if let Some(r) = s.strip_prefix("smtp+starttls://") {
            (Security::StartTls, r, Some(587))
        } else if let Some(r) = s.strip_prefix("smtp://") {
            (Security::Plain, r, Some(25))
        } else if s.contains("://") {
            return Err(bad("the scheme must be smtp://, smtp+starttls:// or smtps://"));
        } else {
            (Security::Plain, s, None)
        };
        let rest = rest.strip_suffix('/').unwrap_or(rest);
        if rest.contains(['/', '?', '#']) {
            return Err(bad("a mail server's URL has no path or query"));
        }
        let (user, hostport) = match rest.rsplit_once('@') {
            Some((u, h)) => (Some(u), h),
            None => (None, rest),
        };
        if default_port.is_none() && user.is_some() {
            return Err(bad("a login needs a URL: smtps://USER@HOST[:PORT] or smtp+starttls://USER@HOST[:PORT]"));
        }
        let user = match user {
            None => None,
            Some(u) if u.contains(':') => return Err(bad("put the password in $WM_SMTP_PASSWORD, not in the URL")),
            Some(u) => Some(wm_core::service::url::decode_component(u).filter(|u| !u.is_empty() && u.len() <= 256 && !u.chars().any(char::is_control)).ok_or_else(|| bad("the user is empty, too long or badly percent-encoded"))?),
        };
        let (host, port) = split_host_port(hostport).ok_or_else(|| bad("expected HOST:PORT, a host name, an IPv4 address or [IPv6]"))?;
        let port = match (port, default_port) {
            (Some(p), _) => p,
            (None, Some(p)) => p,
            (None, None) => return Err(bad("expected HOST:PORT")),
        };
        let login = match (user, password) {
            (Some(u), Some(p)) if !p.is_empty() => Some((u, p.to_string())),
            (Some(_), _) => return Err(bad("a login needs its password in $WM_SMTP_PASSWORD")),
            (None, Some(_)) => return Err(bad("$WM_SMTP_PASSWORD is set but the URL names no user (smtps://USER@HOST)")),
            (None, None) => None,
        };
        let loopback = host.eq_ignore_ascii_case("localhost") || host.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback());
        if login.is_some() && security == Security::Plain && !loopback {
            return Err(bad("a password would cross the network in the clear: use smtps:// or smtp+starttls://"));
        }
        if security != Security::Plain && rustls::pki_types::ServerName::try_from(host.clone()).is_err() {
            return Err(bad("the host is not a name a certificate can be checked for"));
        }
        Ok(MailServer { host, port, security, login })
    }

    /// `HOST:PORT` to connect to (`[IPv6]:PORT`).
    pub fn addr(&self) -> String {
        if self.host.contains(':') {
            format!("[{}]:{}", self.host, self.port)
        } else {
            format!("{}:{}", self.host, self.port)
        }
    }
}

/// `host:port`, `[v6]:port`, or either without the port; the host a name (labels of letters,
/// digits, inner `-` and `_`) or an IPv4 address. An IPv6 address needs its brackets: any other `:`
/// in the host is refused.
fn split_host_port(s: &str) -> Option<(String, Option<u16>)> {
    if let Some(r) = s.strip_prefix('[') {
        let (host, after) = r.split_once(']')?;
        host.parse::<std::net::Ipv6Addr>().ok()?;
        let port = match after {
            "" => None,
            a => Some(a.strip_prefix(':')?),
        };
        return Some((host.to_string(), parse_port(port)?));
    }
    let (host, port) = match s.split_once(':') {
        Some((h, p)) => (h, Some(p)),
        None => (s, None),
    };
    let label_ok = |l: &str| !l.is_empty() && l.len() <= 63 && l.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_') && !l.starts_with('-') && !l.ends_with('-');
    if host.len() > 253 || !host.split('.').all(label_ok) {
        return None;
    }
    Some((host.to_string(), parse_port(port)?))
}

/// `None` for a bad port; `Some(None)` when there is none.
fn parse_port(p: Option<&str>) -> Option<Option<u16>> {
    match p {
        None => Some(None),
        Some(p) if !p.is_empty() && p.len() <= 5 && p.bytes().all(|b| b.is_ascii_digit()) => p.parse::<u16>().ok().filter(|p| *p != 0).map(Some),
        Some(_) => None,
    }
}

pub struct SmtpConfig<'a> {
    pub server: &'a MailServer,
    /// Our name in `EHLO`.
    pub hello: &'a str,
    pub step_timeout: Duration,
}

/// The envelope: addresses already validated (no spaces, no line breaks, no angle brackets).
pub struct Envelope<'a> {
    pub from: &'a str,
    pub to: &'a str,
}

#[derive(Debug)]
pub enum SmtpError {
    /// The sink could not be reached.
    Connect(String, io::Error),
    /// A step did not finish in time.
    Timeout(&'static str),
    Io(&'static str, io::Error),
    /// The sink answered a code other than the one expected.
    Reply {
        step: &'static str,
        code: u16,
        text: String,
    },
    /// The sink's answer was not an SMTP reply.
    Protocol(&'static str, String),
    /// TLS could not be set up (the certificate, the handshake).
    Tls(String),
}

impl fmt::Display for SmtpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SmtpError::Connect(server, e) => {
                write!(f, "the mail server {server} is unreachable: {e}")
            }
            SmtpError::Timeout(step) => write!(f, "SMTP {step}: no answer in time"),
            SmtpError::Io(step, e) => write!(f, "SMTP {step}: {e}"),
            SmtpError::Reply { step, code, text } => {
                write!(f, "SMTP {step}: the server answered {code} {text}")
            }
            SmtpError::Protocol(step, msg) => write!(f, "SMTP {step}: {msg}"),
            SmtpError::Tls(e) => write!(f, "SMTP TLS: {e}"),
        }
    }
}

impl std::error::Error for SmtpError {}

/// The message as `DATA` carries it: lines ended by CRLF (bare LF or CR become CRLF), a leading dot
/// doubled, then the terminating `.` line.
pub fn dot_stuff(message: &str) -> Vec<u8> {
    let normalised = message.replace("\r\n", "\n").replace('\r', "\n");
    let mut out = Vec::with_capacity(normalised.len() + 64);
    for line in normalised
        .strip_suffix('\n')
        .unwrap_or(&normalised)
        .split('\n')
    {
        if line.starts_with('.') {
            out.push(b'.');
        }
        out.extend_from_slice(line.as_bytes());
        out.extend_from_slice(b"\r\n");
    }
    out.extend_from_slice(b".\r\n");
    out
}

/// One reply: its code and text (lines joined by a space).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reply {
    pub code: u16,
    pub text: String,
    /// Each line's text (`EHLO`'s are the extensions).
    pub lines: Vec<String>,
}

impl Reply {
    /// The extension `name`'s parameters when the `EHLO` reply lists it (`AUTH PLAIN LOGIN`, and
    /// the older `AUTH=PLAIN`), case-insensitively.
    pub fn extension(&self, name: &str) -> Option<Vec<String>> {
        self.lines.iter().skip(1).find_map(|l| {
            let mut words = l.split([' ', '=']);
            let first = words.next()?;
            first.eq_ignore_ascii_case(name).then(|| words.filter(|w| !w.is_empty()).map(|w| w.to_ascii_uppercase()).collect())
        })
    }
}

/// Parses one reply line: `(code, last line?, text)`.
pub fn parse_line(line: &str) -> Option<(u16, bool, &str)> {
    let b = line.as_bytes();
    if b.len() < 3 || !b[..3].iter().all(u8::is_ascii_digit) {
        return None;
    }
    let code: u16 = line[..3].parse().ok()?;
    if !(200..600).contains(&code) {
        return None;
    }
    match b.get(3) {
        None => Some((code, true, "")),
        Some(b' ') => Some((code, true, &line[4..])),
        Some(b'-') => Some((code, false, &line[4..])),
        _ => None,
    }
}

struct Conn {
    stream: tls::Stream,
    buf: Vec<u8>,
}

impl Conn {
    async fn read_line(&mut self, step: &'static str) -> Result<String, SmtpError> {
        loop {
            if let Some(pos) = self.buf.iter().position(|&b| b == b'\n') {
                let raw: Vec<u8> = self.buf.drain(..=pos).collect();
                let line = String::from_utf8_lossy(&raw);
                // What the server says may end up in the log: no control characters there.
                let line = line.trim_end_matches(['\r', '\n']).chars().map(|c| if c.is_control() { '?' } else { c });
                return Ok(line.collect());
            }
            if self.buf.len() > MAX_LINE {
                return Err(SmtpError::Protocol(step, "reply line too long".into()));
            }
            let mut chunk = [0u8; 1024];
            let n = self
                .stream
                .read(&mut chunk)
                .await
                .map_err(|e| SmtpError::Io(step, e))?;
            if n == 0 {
                return Err(SmtpError::Protocol(
                    step,
                    "the sink closed the connection".into(),
                ));
            }
            self.buf.extend_from_slice(&chunk[..n]);
        }
    }

    async fn reply(&mut self, step: &'static str) -> Result<Reply, SmtpError> {
        let mut text = Vec::new();
        let mut first_code = None;
        for _ in 0..MAX_LINES {
            let line = self.read_line(step).await?;
            let (code, last, t) = parse_line(&line)
                .ok_or_else(|| SmtpError::Protocol(step, format!("not an SMTP reply: {line:?}")))?;
            if first_code.is_some_and(|c| c != code) {
                return Err(SmtpError::Protocol(
                    step,
                    "reply codes differ between lines".into(),
                ));
            }
            first_code = Some(code);
            text.push(t.to_string());
            if last {
                return Ok(Reply {
                    code,
                    text: text.join(" "),
                    lines: text,
                });
            }
        }
        Err(SmtpError::Protocol(step, "reply has too many lines".into()))
    }

    /// Writes `data` (if any) and reads the reply, within `limit`; the code must be one of `expect`.
    async fn step(
        &mut self,
        step: &'static str,
        data: &[u8],
        expect: &[u16],
        limit: Duration,
    ) -> Result<Reply, SmtpError> {
        let reply = tokio::time::timeout(limit, async {
            if !data.is_empty() {
                self.stream
                    .write_all(data)
                    .await
                    .map_err(|e| SmtpError::Io(step, e))?;
            }
            self.reply(step).await
        })
        .await
        .map_err(|_| SmtpError::Timeout(step))??;
        if expect.contains(&reply.code) {
            Ok(reply)
        } else {
            Err(SmtpError::Reply {
                step,
                code: reply.code,
                text: reply.text,
            })
        }
    }
}

/// Sends one message to one recipient.
pub async fn send(
    cfg: &SmtpConfig<'_>,
    envelope: &Envelope<'_>,
    message: &str,
) -> Result<(), SmtpError> {
    let limit = cfg.step_timeout;
    let server = cfg.server;
    let addr = server.addr();
    let tcp = tokio::time::timeout(limit, TcpStream::connect(&addr))
        .await
        .map_err(|_| SmtpError::Timeout("connect"))?
        .map_err(|e| SmtpError::Connect(addr.clone(), e))?;
    let _ = tcp.set_nodelay(true);
    let tls_name = (server.security == Security::Tls).then_some(server.host.as_str());
    let stream = tokio::time::timeout(limit, tls::over(tcp, tls_name))
        .await
        .map_err(|_| SmtpError::Timeout("TLS handshake"))?
        .map_err(SmtpError::Tls)?;
    let mut c = Conn {
        stream,
        buf: Vec::new(),
    };
    c.step("greeting", b"", &[220], limit).await?;
    let mut caps = c.hello(cfg.hello, limit).await?;
    if server.security == Security::StartTls {
        if caps.extension("STARTTLS").is_none() {
            return Err(SmtpError::Protocol("STARTTLS", "the server does not offer STARTTLS: nothing is sent in the clear".into()));
        }
        c.step("STARTTLS", b"STARTTLS\r\n", &[220], limit).await?;
        // Anything the server sent past its 220 was sent before TLS: not to be trusted (RFC 3207 §6).
        if !c.buf.is_empty() {
            return Err(SmtpError::Protocol("STARTTLS", "the server sent data after its 220, before TLS".into()));
        }
        let plain = std::mem::replace(&mut c.stream, Box::new(tokio::io::duplex(1).0));
        c.stream = tokio::time::timeout(limit, tls::upgrade(plain, &server.host))
            .await
            .map_err(|_| SmtpError::Timeout("TLS handshake"))?
            .map_err(SmtpError::Tls)?;
        caps = c.hello(cfg.hello, limit).await?;
    }
    if let Some((user, password)) = &server.login {
        c.login(&caps, user, password, limit).await?;
    }
    let from = format!("MAIL FROM:<{}>\r\n", envelope.from);
    c.step("MAIL FROM", from.as_bytes(), &[250], limit).await?;
    let to = format!("RCPT TO:<{}>\r\n", envelope.to);
    c.step("RCPT TO", to.as_bytes(), &[250, 251], limit).await?;
    c.step("DATA", b"DATA\r\n", &[354], limit).await?;
    c.step("message", &dot_stuff(message), &[250], limit)
        .await?;
    // The message is accepted once the sink said 250 to it (RFC 5321 §4.1.1.4); a QUIT that goes
    // wrong is reported but does not undo that.
    if let Err(e) = c.step("QUIT", b"QUIT\r\n", &[221], limit).await {
        eprintln!("wallet: {e} (the message was accepted)");
    }
    Ok(())
}

impl Conn {
    /// `EHLO` (`HELO` for an old server without ESMTP, which then offers no extension).
    async fn hello(&mut self, name: &str, limit: Duration) -> Result<Reply, SmtpError> {
        let ehlo = format!("EHLO {name}\r\n");
        match self.step("EHLO", ehlo.as_bytes(), &[250], limit).await {
            Ok(r) => Ok(r),
            Err(SmtpError::Reply {
                code: 500 | 502, ..
            }) => {
                let helo = format!("HELO {name}\r\n");
                let r = self.step("HELO", helo.as_bytes(), &[250], limit).await?;
                Ok(Reply { lines: vec![r.text.clone()], ..r })
            }
            Err(e) => Err(e),
        }
    }

    /// `AUTH PLAIN` (one step), else `AUTH LOGIN`, as the server offers. A refusal says the code
    /// and the server's text, never the password.
    async fn login(&mut self, caps: &Reply, user: &str, password: &str, limit: Duration) -> Result<(), SmtpError> {
        let b64 = |s: &[u8]| base64::engine::general_purpose::STANDARD.encode(s);
        let mechanisms = caps
            .extension("AUTH")
            .ok_or_else(|| SmtpError::Protocol("AUTH", "the server does not offer AUTH, and a login is configured".into()))?;
        if mechanisms.iter().any(|m| m == "PLAIN") {
            let token = b64(format!("\0{user}\0{password}").as_bytes());
            self.step("AUTH", format!("AUTH PLAIN {token}\r\n").as_bytes(), &[235], limit).await?;
        } else if mechanisms.iter().any(|m| m == "LOGIN") {
            self.step("AUTH", b"AUTH LOGIN\r\n", &[334], limit).await?;
            self.step("AUTH", format!("{}\r\n", b64(user.as_bytes())).as_bytes(), &[334], limit).await?;
            self.step("AUTH", format!("{}\r\n", b64(password.as_bytes())).as_bytes(), &[235], limit).await?;
        } else {
            return Err(SmtpError::Protocol("AUTH", format!("the server offers {} and this client speaks PLAIN and LOGIN", mechanisms.join(" "))));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dot_stuffing_and_crlf() {
        assert_eq!(dot_stuff("a\nb"), b"a\r\nb\r\n.\r\n");
        assert_eq!(
            dot_stuff("a\r\n.b\r\n..c\r\n"),
            b"a\r\n..b\r\n...c\r\n.\r\n"
        );
        assert_eq!(dot_stuff(".\n"), b"..\r\n.\r\n");
        assert_eq!(dot_stuff("x\ry"), b"x\r\ny\r\n.\r\n");
    }

    #[test]
    fn reply_lines() {
        assert_eq!(
            parse_line("250-PIPELINING"),
            Some((250, false, "PIPELINING"))
        );
        assert_eq!(parse_line("250 OK"), Some((250, true, "OK")));
        assert_eq!(parse_line("221"), Some((221, true, "")));
        assert_eq!(parse_line("25O OK"), None);
        assert_eq!(parse_line("250xOK"), None);
        assert_eq!(parse_line("999 what"), None);
        assert_eq!(parse_line(""), None);
    }

    /// A scripted sink on a local socket: what it answers to each line it reads.
    async fn sink(
        script: Vec<(&'static str, &'static str)>,
    ) -> (String, tokio::task::JoinHandle<Vec<u8>>) {
        let l = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = l.local_addr().unwrap().to_string();
        let h = tokio::spawn(async move {
            let (mut s, _) = l.accept().await.unwrap();
            let mut seen = Vec::new();
            s.write_all(b"220 test sink\r\n").await.unwrap();
            for (until, answer) in script {
                let from = seen.len();
                while !seen[from..].ends_with(until.as_bytes()) {
                    let mut b = [0u8; 1];
                    if s.read(&mut b).await.unwrap() == 0 {
                        return seen;
                    }
                    seen.push(b[0]);
                }
                s.write_all(answer.as_bytes()).await.unwrap();
            }
            seen
        });
        (addr, h)
    }

    fn server(addr: &str) -> MailServer {
        MailServer::parse(addr, None).unwrap()
    }

    fn cfg(server: &MailServer) -> SmtpConfig<'_> {
        SmtpConfig {
            server,
            hello: "test",
            step_timeout: Duration::from_millis(500),
        }
    }

    const ENV: Envelope<'static> = Envelope {
        from: "a@b.co",
        to: "c@d.co",
    };

    #[tokio::test]
    async fn a_whole_session_with_multiline_replies() {
        let (addr, h) = sink(vec![
            ("\r\n", "250-sink\r\n250-8BITMIME\r\n250 SIZE 1000\r\n"),
            ("\r\n", "250 ok\r\n"),
            ("\r\n", "250 ok\r\n"),
            ("\r\n", "354 go\r\n"),
            ("\r\n.\r\n", "250 queued\r\n"),
            ("\r\n", "221 bye\r\n"),
        ])
        .await;
        send(&cfg(&server(&addr)), &ENV, "Subject: x\r\n\r\n.hidden\r\n")
            .await
            .unwrap();
        let seen = String::from_utf8(h.await.unwrap()).unwrap();
        assert_eq!(
            seen,
            "EHLO test\r\nMAIL FROM:<a@b.co>\r\nRCPT TO:<c@d.co>\r\nDATA\r\nSubject: x\r\n\r\n..hidden\r\n.\r\nQUIT\r\n"
        );
    }

    #[tokio::test]
    async fn a_refused_recipient_is_an_error() {
        let (addr, _h) = sink(vec![
            ("\r\n", "250 sink\r\n"),
            ("\r\n", "250 ok\r\n"),
            ("\r\n", "550 no such user\r\n"),
        ])
        .await;
        let e = send(&cfg(&server(&addr)), &ENV, "x").await.unwrap_err();
        assert!(
            matches!(
                e,
                SmtpError::Reply {
                    step: "RCPT TO",
                    code: 550,
                    ..
                }
            ),
            "{e}"
        );
    }

    #[tokio::test]
    async fn a_silent_sink_times_out() {
        let (addr, _h) = sink(vec![("\r\n", "250 sink\r\n"), ("never", "")]).await;
        let e = send(&cfg(&server(&addr)), &ENV, "x").await.unwrap_err();
        assert!(matches!(e, SmtpError::Timeout("MAIL FROM")), "{e}");
    }

    #[tokio::test]
    async fn an_unreachable_sink_says_so() {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = l.local_addr().unwrap().to_string();
        drop(l);
        let e = send(&cfg(&server(&addr)), &ENV, "x").await.unwrap_err();
        assert!(e.to_string().contains("unreachable"), "{e}");
    }

    #[test]
    fn mail_server_urls_name_the_protection_the_login_and_default_ports() {
        let p = |s: &str, pw: Option<&str>| MailServer::parse(s, pw);
        let plain = p("127.0.0.1:1025", None).unwrap();
        assert_eq!((plain.host.as_str(), plain.port, plain.security, plain.login), ("127.0.0.1", 1025, Security::Plain, None));
        let tls = p("smtps://apikey@smtp.example.com", Some("s3cret")).unwrap();
        assert_eq!((tls.port, tls.security), (465, Security::Tls));
        assert_eq!(tls.login, Some(("apikey".into(), "s3cret".into())));
        let st = p("smtp+starttls://me%40example.com@[2001:db8::1]", Some("pw")).unwrap();
        assert_eq!((st.host.as_str(), st.port, st.security), ("2001:db8::1", 587, Security::StartTls));
        assert_eq!(st.login.as_ref().unwrap().0, "me@example.com");
        assert_eq!(st.addr(), "[2001:db8::1]:587");
        let v6 = p("[::1]:1025", None).unwrap();
        assert_eq!((v6.host.as_str(), v6.port, v6.addr()), ("::1", 1025, "[::1]:1025".to_string()));
        assert_eq!(p("smtps://u@[2001:db8::1]:2465", Some("pw")).unwrap().port, 2465);
        assert_eq!(p("mail_relay.internal:25", None).unwrap().host, "mail_relay.internal");
        assert_eq!(p("smtp://relay.internal", None).unwrap().port, 25);
        // On loopback a plain login is taken (a local relay); the user's @ shows encoded again.
        let local = p("smtp://me%40x.co@localhost:2525", Some("pw")).unwrap();
        assert_eq!(local.to_string(), "smtp://me%40x.co@localhost:2525");
    }

    #[test]
    fn mail_server_urls_that_would_leak_or_make_no_sense_are_refused_with_the_reason() {
        let e = |s: &str, pw: Option<&str>| MailServer::parse(s, pw).unwrap_err();
        assert!(e("smtp://me@mail.example.com:587", Some("pw")).contains("in the clear"));
        assert!(e("smtps://me:pw@mail.example.com", None).contains("$WM_SMTP_PASSWORD, not in the URL"));
        assert!(e("smtps://me@mail.example.com", None).contains("needs its password"));
        assert!(e("smtps://mail.example.com", Some("pw")).contains("names no user"));
        assert!(e("me@mail.example.com:25", Some("pw")).contains("needs a URL"));
        assert!(e("imap://mail.example.com", None).contains("scheme"));
        assert!(e("smtps://mail.example.com/path", None).contains("no path"));
        assert!(e("mail.example.com", None).contains("HOST:PORT"));
        assert!(e("host:0", None).contains("HOST:PORT"));
        assert!(e("host:99999", None).contains("HOST:PORT"));
        assert!(e("ho st:25", None).contains("no spaces"));
        assert!(e("smtps://%zz@host", Some("pw")).contains("percent-encoded"));
        assert!(e("[not-v6]:25", None).contains("HOST:PORT"));
        for colon in ["smtps://2001:db8::1", "::1:25", "a:b:25", "host:+25", "[::1]25", "[::1]:", "..:25", "-a.com:25"] {
            assert!(e(colon, None).contains("HOST:PORT"), "{colon}");
        }
        // A password put in the URL is not said back.
        for leaky in ["smtps://me:pw-inline@mail.example.com", "me:pw-inline@mail.example.com:25", "smtp://me:pw-inline@bad host"] {
            let err = e(leaky, Some("x"));
            assert!(!err.contains("pw-inline") && err.contains("…@"), "{err}");
        }
    }

    #[test]
    fn the_password_never_shows_in_debug_or_display() {
        let s = MailServer::parse("smtps://user@mail.example.com", Some("hunter2-secret")).unwrap();
        assert!(!format!("{s:?}").contains("hunter2") && !s.to_string().contains("hunter2"), "{s:?} {s}");
        assert!(format!("{s:?}").contains("user"));
    }

    /// A sink's answers from `MAIL FROM` to `QUIT`, all accepting.
    const MAIL_STEPS: [(&str, &str); 5] = [
        ("\r\n", "250 ok\r\n"),
        ("\r\n", "250 ok\r\n"),
        ("\r\n", "354 go\r\n"),
        ("\r\n.\r\n", "250 queued\r\n"),
        ("\r\n", "221 bye\r\n"),
    ];

    fn login_server(addr: &str) -> MailServer {
        let port = addr.rsplit_once(':').unwrap().1;
        MailServer::parse(&format!("smtp://user@127.0.0.1:{port}"), Some("pass")).unwrap()
    }

    /// What the client sent in a whole session with a login, the sink answering EHLO and AUTH with
    /// `login` and then accepting the mail.
    async fn sent_with_login(login: &[(&'static str, &'static str)]) -> String {
        let (addr, h) = sink(login.iter().copied().chain(MAIL_STEPS).collect()).await;
        send(&cfg(&login_server(&addr)), &ENV, "x").await.unwrap();
        String::from_utf8(h.await.unwrap()).unwrap()
    }

    #[tokio::test]
    async fn a_login_uses_auth_plain_when_offered() {
        let seen = sent_with_login(&[("\r\n", "250-sink\r\n250-AUTH LOGIN PLAIN\r\n250 8BITMIME\r\n"), ("\r\n", "235 welcome\r\n")]).await;
        // base64("\0user\0pass")
        assert!(seen.starts_with("EHLO test\r\nAUTH PLAIN AHVzZXIAcGFzcw==\r\nMAIL FROM:<a@b.co>\r\n"), "{seen}");
    }

    #[tokio::test]
    async fn a_login_falls_back_to_auth_login_in_the_older_auth_equals_form() {
        let seen = sent_with_login(&[
            ("\r\n", "250-sink\r\n250 AUTH=LOGIN\r\n"),
            ("\r\n", "334 VXNlcm5hbWU6\r\n"),
            ("\r\n", "334 UGFzc3dvcmQ6\r\n"),
            ("\r\n", "235 ok\r\n"),
        ])
        .await;
        assert!(seen.starts_with("EHLO test\r\nAUTH LOGIN\r\ndXNlcg==\r\ncGFzcw==\r\nMAIL FROM:"), "{seen}");
    }

    #[tokio::test]
    async fn a_refused_login_says_the_servers_answer_and_not_the_password() {
        let (addr, _h) = sink(vec![
            ("\r\n", "250-sink\r\n250 AUTH PLAIN\r\n"),
            ("\r\n", "535 5.7.8 Authentication credentials invalid\r\n"),
        ])
        .await;
        let e = send(&cfg(&login_server(&addr)), &ENV, "x").await.unwrap_err();
        assert!(matches!(e, SmtpError::Reply { step: "AUTH", code: 535, .. }), "{e}");
        assert!(e.to_string().contains("535 5.7.8 Authentication credentials invalid"), "{e}");
        assert!(!e.to_string().contains("pass") && !e.to_string().contains("AHVzZXIAcGFzcw"), "{e}");
    }

    #[tokio::test]
    async fn control_characters_in_a_reply_never_reach_the_log() {
        let (addr, _h) = sink(vec![("\r\n", "250 sink\r\n"), ("\r\n", "550 no\x1b[31m\rFAKE LINE\r\n")]).await;
        let e = send(&cfg(&server(&addr)), &ENV, "x").await.unwrap_err().to_string();
        assert!(e.ends_with("550 no?[31m?FAKE LINE"), "{e:?}");
    }

    #[tokio::test]
    async fn a_login_with_a_server_offering_no_auth_or_no_known_mechanism_is_refused() {
        let (addr, h) = sink(vec![("\r\n", "250-sink\r\n250 8BITMIME\r\n"), ("\r\n", "250 ok\r\n")]).await;
        let e = send(&cfg(&login_server(&addr)), &ENV, "x").await.unwrap_err();
        assert!(e.to_string().contains("does not offer AUTH"), "{e}");
        drop(h);
        let (addr, _h) = sink(vec![("\r\n", "250-sink\r\n250 AUTH CRAM-MD5 XOAUTH2\r\n")]).await;
        let e = send(&cfg(&login_server(&addr)), &ENV, "x").await.unwrap_err();
        assert!(e.to_string().contains("offers CRAM-MD5 XOAUTH2"), "{e}");
    }

    #[tokio::test]
    async fn starttls_asked_for_and_not_offered_sends_nothing_more() {
        let (addr, h) = sink(vec![("\r\n", "250-sink\r\n250 AUTH PLAIN\r\n"), ("never", "")]).await;
        let port = addr.rsplit_once(':').unwrap().1;
        let srv = MailServer::parse(&format!("smtp+starttls://user@127.0.0.1:{port}"), Some("pass")).unwrap();
        let e = send(&cfg(&srv), &ENV, "x").await.unwrap_err();
        assert!(e.to_string().contains("does not offer STARTTLS"), "{e}");
        let seen = String::from_utf8(h.await.unwrap()).unwrap();
        assert_eq!(seen, "EHLO test\r\n", "only the greeting was answered");
    }

    #[tokio::test]
    async fn data_sent_with_the_starttls_answer_is_refused_as_an_injection() {
        let (addr, _h) = sink(vec![("\r\n", "250-sink\r\n250 STARTTLS\r\n"), ("\r\n", "220 go ahead\r\n250 injected\r\n")]).await;
        let port = addr.rsplit_once(':').unwrap().1;
        let srv = MailServer::parse(&format!("smtp+starttls://127.0.0.1:{port}"), None).unwrap();
        let e = send(&cfg(&srv), &ENV, "x").await.unwrap_err();
        assert!(e.to_string().contains("before TLS"), "{e}");
    }
}
