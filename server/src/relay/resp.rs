//! The Redis wire protocol (RESP2), as much as the relay's cluster link needs: commands written as
//! arrays of bulk strings, pipelined; replies read with every length bounded before anything is
//! allocated (a reply is hostile input like any other).

use std::time::Duration;

use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;

/// Largest bulk string read (a relay message with its envelope fits many times over).
pub const MAX_BULK: usize = 4 * 1024 * 1024;
/// Most elements of one array reply (a topic's mailbox is far smaller).
pub const MAX_ARRAY: usize = 100_000;
/// Longest `+`/`-`/`:` line and length header.
const MAX_LINE: usize = 4096;
/// Deepest nesting of arrays.
const MAX_DEPTH: usize = 4;

/// One reply.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reply {
    Simple(String),
    Error(String),
    Int(i64),
    /// `None`: the null bulk string.
    Bulk(Option<Vec<u8>>),
    /// `None`: the null array.
    Array(Option<Vec<Reply>>),
}

impl Reply {
    /// The elements of an array reply (a null array has none).
    pub fn into_array(self) -> Option<Vec<Reply>> {
        match self {
            Reply::Array(a) => Some(a.unwrap_or_default()),
            _ => None,
        }
    }

    /// A bulk string's bytes.
    pub fn into_bulk(self) -> Option<Vec<u8>> {
        match self {
            Reply::Bulk(b) => b,
            _ => None,
        }
    }
}

/// Why a reply could not be read.
fn bad(what: impl Into<String>) -> std::io::Error {
    std::io::Error::new(std::io::ErrorKind::InvalidData, what.into())
}

/// Where the server is: `redis://[[user]:password@]host:port[/db]`, or `rediss://…` over TLS (the
/// server's certificate checked against the roots and `--ca-file` for the host's name).
#[derive(Clone, PartialEq, Eq)]
pub struct RedisUrl {
    pub addr: String,
    /// An ACL user (`AUTH user password`); none: the default user.
    pub user: Option<String>,
    pub password: Option<String>,
    pub db: u32,
    /// `rediss://`: the name the server's certificate must carry.
    pub tls: Option<String>,
}

impl std::fmt::Debug for RedisUrl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // (Never the password.)
        write!(f, "{}://{}/{}", if self.tls.is_some() { "rediss" } else { "redis" }, self.addr, self.db)
    }
}

impl RedisUrl {
    pub fn parse(text: &str) -> Result<RedisUrl, String> {
        let (rest, tls) = match (text.strip_prefix("redis://"), text.strip_prefix("rediss://")) {
            (Some(r), _) => (r, false),
            (_, Some(r)) => (r, true),
            _ => return Err("--redis must be a redis://host:port URL (rediss:// for TLS)".into()),
        };
        let (auth, rest) = match rest.rsplit_once('@') {
            Some((auth, rest)) => (Some(auth), rest),
            None => (None, rest),
        };
        let (addr, db) = match rest.split_once('/') {
            Some((addr, "")) => (addr, 0),
            Some((addr, db)) => (addr, db.parse().map_err(|_| format!("the Redis URL's database must be a number, not {db:?}"))?),
            None => (rest, 0),
        };
        let port_ok = addr.rsplit_once(':').is_some_and(|(host, port)| !host.is_empty() && port.parse::<u16>().is_ok());
        if !port_ok {
            return Err("the Redis URL must name host:port".into());
        }
        let password = auth.map(|a| a.split_once(':').map_or(a, |(_, p)| p).to_string()).filter(|p| !p.is_empty());
        let user = auth.and_then(|a| a.split_once(':')).map(|(u, _)| u.to_string()).filter(|u| !u.is_empty());
        let host = addr.rsplit_once(':').map_or(addr, |(h, _)| h).trim_start_matches('[').trim_end_matches(']');
        Ok(RedisUrl { addr: addr.to_string(), user, password, db, tls: tls.then(|| host.to_string()) })
    }
}

/// One connection.
pub struct Conn {
    io: BufReader<crate::tls::Stream>,
    out: Vec<u8>,
}

impl Conn {
    /// Connects (within `wait`), authenticates and selects the database.
    pub async fn connect(url: &RedisUrl, wait: Duration) -> std::io::Result<Conn> {
        let stream = tokio::time::timeout(wait, TcpStream::connect(&url.addr))
            .await
            .map_err(|_| std::io::Error::new(std::io::ErrorKind::TimedOut, "connecting to Redis timed out"))??;
        stream.set_nodelay(true)?;
        let stream = tokio::time::timeout(wait, crate::tls::over(stream, url.tls.as_deref()))
            .await
            .map_err(|_| std::io::Error::new(std::io::ErrorKind::TimedOut, "the TLS handshake with Redis timed out"))?
            .map_err(|e| std::io::Error::other(format!("Redis {e}")))?;
        let mut conn = Conn { io: BufReader::new(stream), out: Vec::new() };
        let mut setup = 0;
        match (&url.user, &url.password) {
            (Some(u), Some(p)) => conn.push(&[b"AUTH", u.as_bytes(), p.as_bytes()]),
            (None, Some(p)) => conn.push(&[b"AUTH", p.as_bytes()]),
            _ => {}
        }
        if url.password.is_some() {
            setup += 1;
        }
        if url.db != 0 {
            conn.push(&[b"SELECT", url.db.to_string().as_bytes()]);
            setup += 1;
        }
        conn.flush().await?;
        for _ in 0..setup {
            if let Reply::Error(e) = tokio::time::timeout(wait, conn.read()).await.map_err(|_| bad("Redis did not answer"))?? {
                return Err(bad(format!("Redis refused the connection: {e}")));
            }
        }
        Ok(conn)
    }

    /// Queues a command (sent by [`Conn::flush`]).
    pub fn push(&mut self, args: &[&[u8]]) {
        self.out.extend_from_slice(format!("*{}\r\n", args.len()).as_bytes());
        for a in args {
            self.out.extend_from_slice(format!("${}\r\n", a.len()).as_bytes());
            self.out.extend_from_slice(a);
            self.out.extend_from_slice(b"\r\n");
        }
    }

    /// Sends the queued commands.
    pub async fn flush(&mut self) -> std::io::Result<()> {
        if self.out.is_empty() {
            return Ok(());
        }
        let out = std::mem::take(&mut self.out);
        self.io.get_mut().write_all(&out).await
    }

    /// Reads one reply.
    pub async fn read(&mut self) -> std::io::Result<Reply> {
        read_reply(&mut self.io, 0).await
    }
}

async fn read_line<R: tokio::io::AsyncBufRead + Unpin>(r: &mut R) -> std::io::Result<String> {
    let mut line = Vec::new();
    let n = (&mut *r).take(MAX_LINE as u64 + 2).read_until(b'\n', &mut line).await?;
    if n == 0 {
        return Err(std::io::Error::new(std::io::ErrorKind::UnexpectedEof, "Redis closed the connection"));
    }
    if !line.ends_with(b"\r\n") {
        return Err(bad("a Redis reply line is too long or unterminated"));
    }
    line.truncate(line.len() - 2);
    String::from_utf8(line).map_err(|_| bad("a Redis reply line is not UTF-8"))
}

fn length(text: &str, max: usize, what: &str) -> std::io::Result<Option<usize>> {
    let n: i64 = text.parse().map_err(|_| bad(format!("a Redis {what} length is not a number")))?;
    match n {
        -1 => Ok(None),
        n if n >= 0 && (n as u64) <= max as u64 => Ok(Some(n as usize)),
        _ => Err(bad(format!("a Redis {what} of {n} is out of bounds (max {max})"))),
    }
}

fn read_reply<'a, R: tokio::io::AsyncBufRead + Unpin + Send>(
    r: &'a mut R,
    depth: usize,
) -> std::pin::Pin<Box<dyn std::future::Future<Output = std::io::Result<Reply>> + Send + 'a>> {
    Box::pin(async move {
        let line = read_line(r).await?;
        let (kind, rest) = line.split_at(line.len().min(1));
        match kind {
            "+" => Ok(Reply::Simple(rest.to_string())),
            "-" => Ok(Reply::Error(rest.to_string())),
            ":" => rest.parse().map(Reply::Int).map_err(|_| bad("a Redis integer reply is not a number")),
            "$" => {
                let Some(n) = length(rest, MAX_BULK, "bulk string")? else { return Ok(Reply::Bulk(None)) };
                let mut buf = vec![0u8; n + 2];
                r.read_exact(&mut buf).await?;
                if !buf.ends_with(b"\r\n") {
                    return Err(bad("a Redis bulk string is unterminated"));
                }
                buf.truncate(n);
                Ok(Reply::Bulk(Some(buf)))
            }
            "*" => {
                if depth >= MAX_DEPTH {
                    return Err(bad("a Redis reply nests too deep"));
                }
                let Some(n) = length(rest, MAX_ARRAY, "array")? else { return Ok(Reply::Array(None)) };
                let mut items = Vec::with_capacity(n.min(1024));
                for _ in 0..n {
                    items.push(read_reply(r, depth + 1).await?);
                }
                Ok(Reply::Array(Some(items)))
            }
            _ => Err(bad("an unknown Redis reply type")),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn parse(bytes: &[u8]) -> std::io::Result<Reply> {
        let mut r = BufReader::new(bytes);
        read_reply(&mut r, 0).await
    }

    #[tokio::test]
    async fn replies_are_read_and_hostile_lengths_refused_before_allocating() {
        assert_eq!(parse(b"+OK\r\n").await.unwrap(), Reply::Simple("OK".into()));
        assert_eq!(parse(b"-ERR no\r\n").await.unwrap(), Reply::Error("ERR no".into()));
        assert_eq!(parse(b":-3\r\n").await.unwrap(), Reply::Int(-3));
        assert_eq!(parse(b"$-1\r\n").await.unwrap(), Reply::Bulk(None));
        assert_eq!(parse(b"*2\r\n$3\r\nabc\r\n:1\r\n").await.unwrap(), Reply::Array(Some(vec![Reply::Bulk(Some(b"abc".to_vec())), Reply::Int(1)])));
        for (hostile, says) in [
            (&b"$99999999999\r\n"[..], "out of bounds"),
            (b"*100001\r\n", "out of bounds"),
            (b"$-2\r\n", "out of bounds"),
            (b"$3\r\nabcd\r\n", "unterminated"),
            (b"*1\r\n*1\r\n*1\r\n*1\r\n*1\r\n:1\r\n", "nests too deep"),
            (b"?1\r\n", "unknown"),
            (b"+OK\n", "unterminated"),
        ] {
            let e = parse(hostile).await.unwrap_err().to_string();
            assert!(e.contains(says), "{:?}: {e}", String::from_utf8_lossy(hostile));
        }
        let long = [b"+".as_slice(), &vec![b'a'; 5000], b"\r\n"].concat();
        assert!(parse(&long).await.unwrap_err().to_string().contains("too long"));
        assert!(parse(b"$5\r\nab").await.is_err(), "a cut reply is an error, not a hang");
    }

    #[test]
    fn a_redis_url_names_host_port_password_and_database_and_its_debug_hides_the_password() {
        let u = RedisUrl::parse("redis://:s3cret@127.0.0.1:6380/2").unwrap();
        assert_eq!((u.addr.as_str(), u.password.as_deref(), u.db), ("127.0.0.1:6380", Some("s3cret"), 2));
        assert!(!format!("{u:?}").contains("s3cret"));
        assert_eq!(RedisUrl::parse("redis://db:6379").unwrap().password, None);
        let u = RedisUrl::parse("rediss://relay:pw@redis.internal:6380").unwrap();
        assert_eq!((u.user.as_deref(), u.password.as_deref(), u.tls.as_deref()), (Some("relay"), Some("pw"), Some("redis.internal")));
        assert_eq!(format!("{u:?}"), "rediss://redis.internal:6380/0");
        assert_eq!(RedisUrl::parse("redis://db:6379").unwrap().tls, None);
        for bad in ["redisx://db:6379", "redis://db", "redis://:6379", "http://db:6379", "redis://db:6379/x"] {
            assert!(RedisUrl::parse(bad).is_err(), "{bad}");
        }
    }
}
