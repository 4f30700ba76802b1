//! A small SMTP client on tokio (RFC 5321), enough for a local sink: greeting, `EHLO` (`HELO` when
//! refused), `MAIL FROM`, `RCPT TO`, `DATA` (CRLF lines, dot-stuffed), `QUIT`. Every reply code is
//! checked and every step has a time-out. No TLS and no authentication: the sink is on loopback.

use std::fmt;
use std::io;
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// Longest reply line accepted (RFC 5321 says 512; extensions lists may be longer).
const MAX_LINE: usize = 2048;
/// Most lines of one (multi-line) reply.
const MAX_LINES: usize = 64;

pub struct SmtpConfig<'a> {
    /// `HOST:PORT`.
    pub server: &'a str,
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
}

impl fmt::Display for SmtpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SmtpError::Connect(server, e) => {
                write!(f, "the SMTP sink {server} is unreachable: {e}")
            }
            SmtpError::Timeout(step) => write!(f, "SMTP {step}: no answer in time"),
            SmtpError::Io(step, e) => write!(f, "SMTP {step}: {e}"),
            SmtpError::Reply { step, code, text } => {
                write!(f, "SMTP {step}: the sink answered {code} {text}")
            }
            SmtpError::Protocol(step, msg) => write!(f, "SMTP {step}: {msg}"),
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
    stream: TcpStream,
    buf: Vec<u8>,
}

impl Conn {
    async fn read_line(&mut self, step: &'static str) -> Result<String, SmtpError> {
        loop {
            if let Some(pos) = self.buf.iter().position(|&b| b == b'\n') {
                let raw: Vec<u8> = self.buf.drain(..=pos).collect();
                let line = String::from_utf8_lossy(&raw);
                return Ok(line.trim_end_matches(['\r', '\n']).to_string());
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
    let stream = tokio::time::timeout(limit, TcpStream::connect(cfg.server))
        .await
        .map_err(|_| SmtpError::Timeout("connect"))?
        .map_err(|e| SmtpError::Connect(cfg.server.to_string(), e))?;
    let _ = stream.set_nodelay(true);
    let mut c = Conn {
        stream,
        buf: Vec::new(),
    };
    c.step("greeting", b"", &[220], limit).await?;
    let ehlo = format!("EHLO {}\r\n", cfg.hello);
    match c.step("EHLO", ehlo.as_bytes(), &[250], limit).await {
        Ok(_) => {}
        // An old server without ESMTP.
        Err(SmtpError::Reply {
            code: 500 | 502, ..
        }) => {
            let helo = format!("HELO {}\r\n", cfg.hello);
            c.step("HELO", helo.as_bytes(), &[250], limit).await?;
        }
        Err(e) => return Err(e),
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

    fn cfg(server: &str) -> SmtpConfig<'_> {
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
        send(&cfg(&addr), &ENV, "Subject: x\r\n\r\n.hidden\r\n")
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
        let e = send(&cfg(&addr), &ENV, "x").await.unwrap_err();
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
        let e = send(&cfg(&addr), &ENV, "x").await.unwrap_err();
        assert!(matches!(e, SmtpError::Timeout("MAIL FROM")), "{e}");
    }

    #[tokio::test]
    async fn an_unreachable_sink_says_so() {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = l.local_addr().unwrap().to_string();
        drop(l);
        let e = send(&cfg(&addr), &ENV, "x").await.unwrap_err();
        assert!(e.to_string().contains("unreachable"), "{e}");
    }
}
