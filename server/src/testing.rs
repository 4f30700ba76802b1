//! Real servers the tests start and stop, like anvil: PostgreSQL (Debian's `postgresql`, installed
//! by `scripts/tools.sh`), a cluster of its own in a temporary folder on a free loopback port,
//! stopped by its pid when the handle drops. Not used by the server itself.

use std::io::Read;
use std::net::TcpListener;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A PostgreSQL server of the test's own.
pub struct PgServer {
    dir: PathBuf,
    port: u16,
    child: Option<Child>,
    bin: PathBuf,
    /// The system user it runs as when the tests run as root (PostgreSQL refuses root).
    user: Option<(u32, u32)>,
    /// With TLS: `ssl=on` and its certificate files (in `dir`).
    tls: bool,
}

/// The folder of PostgreSQL's programs: `$WM_POSTGRES_BIN`, else Debian's newest
/// `/usr/lib/postgresql/N/bin`, else the `PATH`'s `initdb`.
fn bin_dir() -> Result<PathBuf, String> {
    if let Ok(d) = std::env::var("WM_POSTGRES_BIN") {
        return Ok(PathBuf::from(d));
    }
    let mut debian: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| Some((e.file_name().to_str()?.parse().ok()?, e.path().join("bin"))))
        .filter(|(_, p): &(u32, PathBuf)| p.join("initdb").is_file())
        .collect();
    debian.sort();
    if let Some((_, p)) = debian.pop() {
        return Ok(p);
    }
    std::env::var_os("PATH")
        .and_then(|path| std::env::split_paths(&path).find(|d| d.join("initdb").is_file()))
        .ok_or_else(|| "PostgreSQL is not installed: run scripts/tools.sh (Debian's postgresql), or set WM_POSTGRES_BIN".to_string())
}

/// Root's tests run PostgreSQL as Debian's `postgres` user (`(uid, gid)`), anyone else as itself.
fn run_as() -> Result<Option<(u32, u32)>, String> {
    let status = std::fs::read_to_string("/proc/self/status").map_err(|e| format!("/proc/self/status: {e}"))?;
    let root = status.lines().any(|l| l.starts_with("Uid:") && l.split_whitespace().nth(1) == Some("0"));
    if !root {
        return Ok(None);
    }
    let passwd = std::fs::read_to_string("/etc/passwd").map_err(|e| format!("/etc/passwd: {e}"))?;
    passwd
        .lines()
        .map(|l| l.split(':').collect::<Vec<_>>())
        .find(|f| f.first() == Some(&"postgres") && f.len() > 3)
        .and_then(|f| Some((f[2].parse().ok()?, f[3].parse().ok()?)))
        .map(Some)
        .ok_or_else(|| "the tests run as root and there is no postgres user (install Debian's postgresql)".into())
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).map(|a| a.port()).unwrap_or(0)
}

impl PgServer {
    /// A new cluster (user `wm`, trusted on loopback), started.
    pub fn start() -> Result<PgServer, String> {
        Self::start_maybe_tls(None)
    }

    /// [`PgServer::start`] speaking TLS (`ssl = on`) with this certificate chain and key (PEM);
    /// connections without TLS are still taken (the client decides).
    pub fn start_tls(cert_pem: &str, key_pem: &str) -> Result<PgServer, String> {
        Self::start_maybe_tls(Some((cert_pem, key_pem)))
    }

    fn start_maybe_tls(tls: Option<(&str, &str)>) -> Result<PgServer, String> {
        let bin = bin_dir()?;
        let user = run_as()?;
        static N: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
        let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("wm-pg-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        if let Some((uid, gid)) = user {
            std::os::unix::fs::chown(&dir, Some(uid), Some(gid)).map_err(|e| format!("chown {}: {e}", dir.display()))?;
        }
        let mut initdb = Command::new(bin.join("initdb"));
        initdb.args(["-D", "data", "-A", "trust", "-U", "wm", "--no-sync", "-E", "UTF8", "--locale=C"]).current_dir(&dir);
        let out = as_user(&mut initdb, user).output().map_err(|e| format!("initdb: {e}"))?;
        if !out.status.success() {
            return Err(format!("initdb failed: {}", String::from_utf8_lossy(&out.stderr)));
        }
        if let Some((cert, key)) = tls {
            use std::os::unix::fs::PermissionsExt;
            for (name, text, mode) in [("server.crt", cert, 0o644), ("server.key", key, 0o600)] {
                let path = dir.join(name);
                std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))?;
                std::fs::set_permissions(&path, std::fs::Permissions::from_mode(mode)).map_err(|e| format!("{}: {e}", path.display()))?;
                if let Some((uid, gid)) = user {
                    std::os::unix::fs::chown(&path, Some(uid), Some(gid)).map_err(|e| format!("chown {}: {e}", path.display()))?;
                }
            }
        }
        let mut pg = PgServer { dir, port: 0, child: None, bin, user, tls: tls.is_some() };
        pg.run(false)?;
        Ok(pg)
    }

    /// Starts the server on a free port (another one when the port was taken meanwhile), or again
    /// on its own port (`same_port`: tried until the last server's processes are gone).
    fn run(&mut self, same_port: bool) -> Result<(), String> {
        let mut last = String::new();
        for _ in 0..10 {
            if same_port && !last.is_empty() {
                std::thread::sleep(Duration::from_millis(300));
            }
            let port = if same_port { self.port } else { free_port() };
            let log = self.dir.join("log");
            let file = std::fs::File::create(&log).map_err(|e| format!("{}: {e}", log.display()))?;
            if let Some((uid, gid)) = self.user {
                let _ = std::os::unix::fs::chown(&log, Some(uid), Some(gid));
            }
            let mut cmd = Command::new(self.bin.join("postgres"));
            let sockets = self.dir.display().to_string();
            cmd.args(["-D", "data", "-h", "127.0.0.1", "-p", &port.to_string(), "-k", &sockets])
                .args(["-c", "max_connections=40", "-c", "shared_buffers=16MB", "-c", "log_min_messages=warning"])
                .args(if self.tls { vec!["-c", "ssl=on", "-c", "ssl_cert_file=../server.crt", "-c", "ssl_key_file=../server.key"] } else { vec![] })
                .current_dir(&self.dir)
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(file);
            let mut child = as_user(&mut cmd, self.user).spawn().map_err(|e| format!("postgres: {e}"))?;
            let started = Instant::now();
            while started.elapsed() < Duration::from_secs(30) {
                if let Ok(Some(_)) = child.try_wait() {
                    break;
                }
                // postmaster.pid's status line says "ready" once connections are accepted.
                let pid_file = std::fs::read_to_string(Path::new(&self.dir).join("data/postmaster.pid")).unwrap_or_default();
                if pid_file.lines().any(|l| l.trim() == "ready") && std::net::TcpStream::connect(("127.0.0.1", port)).is_ok() {
                    self.port = port;
                    self.child = Some(child);
                    return Ok(());
                }
                std::thread::sleep(Duration::from_millis(50));
            }
            stop(&mut child);
            last.clear();
            let _ = std::fs::File::open(&log).and_then(|mut f| f.read_to_string(&mut last));
            if last.is_empty() {
                last = "postgres did not start".into();
            }
        }
        Err(format!("postgres did not start: {last}"))
    }

    /// The URL of database `name` (made when it is new).
    pub fn url(&self, name: &str) -> String {
        let out = Command::new(self.bin.join("psql"))
            .args(["-h", "127.0.0.1", "-p", &self.port.to_string(), "-U", "wm", "-d", "postgres", "-qc"])
            .arg(format!("CREATE DATABASE \"{name}\""))
            .output()
            .unwrap_or_else(|e| panic!("psql: {e}"));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success() || err.contains("already exists"), "CREATE DATABASE {name}: {err}");
        format!("postgres://wm@127.0.0.1:{}/{name}", self.port)
    }

    /// What `sql` prints in database `db` (psql, unaligned, tuples only; sslmode=disable).
    pub fn psql(&self, db: &str, sql: &str) -> String {
        let out = Command::new(self.bin.join("psql"))
            .args(["-h", "127.0.0.1", "-p", &self.port.to_string(), "-U", "wm", "-d", db, "-Atqc", sql])
            .env("PGSSLMODE", "disable")
            .output()
            .unwrap_or_else(|e| panic!("psql: {e}"));
        assert!(out.status.success(), "psql {sql}: {}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    }

    /// Its port.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// Kills the server (SIGKILL: as a crash would); [`PgServer::restart`] starts it again.
    pub fn stop(&mut self) {
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }

    /// Kills the server (when it runs) and starts it again on the same port.
    pub fn restart(&mut self) -> Result<(), String> {
        self.stop();
        // Its backends exit once they see the postmaster gone; the port is free again soon.
        let started = Instant::now();
        while std::net::TcpStream::connect(("127.0.0.1", self.port)).is_ok() && started.elapsed() < Duration::from_secs(10) {
            std::thread::sleep(Duration::from_millis(50));
        }
        self.run(true)
    }
}

fn as_user(cmd: &mut Command, user: Option<(u32, u32)>) -> &mut Command {
    if let Some((uid, gid)) = user {
        // (std drops root's supplementary groups when it changes the uid.)
        cmd.uid(uid).gid(gid);
    }
    cmd
}

/// SIGINT (PostgreSQL's fast shutdown) and a wait of 10 s, then SIGKILL.
fn stop(child: &mut Child) {
    let _ = Command::new("kill").args(["-INT", &child.id().to_string()]).status();
    let started = Instant::now();
    while started.elapsed() < Duration::from_secs(10) {
        if let Ok(Some(_)) = child.try_wait() {
            return;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let _ = child.kill();
    let _ = child.wait();
}

impl Drop for PgServer {
    fn drop(&mut self) {
        if let Some(mut c) = self.child.take() {
            stop(&mut c);
        }
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// A Redis server of the test's own (Debian's `redis-server`, installed by `scripts/tools.sh`): no
/// persistence, loopback only, on a free port (another one when the port was taken meanwhile),
/// stopped by its pid when the handle drops.
pub struct RedisServer {
    port: u16,
    child: Option<Child>,
    dir: PathBuf,
    /// With TLS: its TLS port (besides the plain one).
    tls_port: Option<u16>,
}

impl RedisServer {
    pub fn start() -> Result<RedisServer, String> {
        Self::start_on_port(None)
    }

    /// One that also speaks TLS ([`RedisServer::tls_url`]) with this certificate chain and key
    /// (PEM); clients present no certificate.
    pub fn start_tls(cert_pem: &str, key_pem: &str) -> Result<RedisServer, String> {
        Self::start_with(None, Some((cert_pem, key_pem)))
    }

    /// Starts one on `port` (a server killed there a moment ago: tried until the port is free).
    pub fn start_on(port: u16) -> Result<RedisServer, String> {
        Self::start_on_port(Some(port))
    }

    fn start_on_port(fixed: Option<u16>) -> Result<RedisServer, String> {
        Self::start_with(fixed, None)
    }

    fn start_with(fixed: Option<u16>, tls: Option<(&str, &str)>) -> Result<RedisServer, String> {
        let bin = std::env::var("WM_REDIS_SERVER").unwrap_or_else(|_| "redis-server".into());
        static N: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
        let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("wm-redis-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        if let Some((cert, key)) = tls {
            for (name, text) in [("server.crt", cert), ("server.key", key)] {
                std::fs::write(dir.join(name), text).map_err(|e| format!("{name}: {e}"))?;
            }
        }
        let mut server = RedisServer { port: 0, child: None, dir, tls_port: None };
        let mut last = String::new();
        for _ in 0..10 {
            if fixed.is_some() && !last.is_empty() {
                std::thread::sleep(Duration::from_millis(300));
            }
            let port = fixed.unwrap_or_else(free_port);
            let log = server.dir.join("log");
            let mut cmd = Command::new(&bin);
            cmd.args(["--port", &port.to_string(), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--daemonize", "no"])
                .args(["--dir", &server.dir.display().to_string(), "--logfile", &log.display().to_string()]);
            let tls_port = tls.map(|_| free_port());
            if let Some(t) = tls_port {
                cmd.args(["--tls-port", &t.to_string(), "--tls-auth-clients", "no"])
                    .args(["--tls-cert-file", &server.dir.join("server.crt").display().to_string()])
                    .args(["--tls-key-file", &server.dir.join("server.key").display().to_string()]);
            }
            cmd
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::null());
            let mut child = cmd.spawn().map_err(|e| format!("{bin}: {e} (install Debian's redis-server: scripts/tools.sh)"))?;
            let started = Instant::now();
            while started.elapsed() < Duration::from_secs(10) {
                if let Ok(Some(_)) = child.try_wait() {
                    break;
                }
                if let Ok(mut s) = std::net::TcpStream::connect(("127.0.0.1", port)) {
                    use std::io::Write;
                    let mut pong = [0u8; 7];
                    if s.write_all(b"PING\r\n").is_ok() && s.read_exact(&mut pong).is_ok() && &pong == b"+PONG\r\n" {
                        server.port = port;
                        server.tls_port = tls_port;
                        server.child = Some(child);
                        return Ok(server);
                    }
                }
                std::thread::sleep(Duration::from_millis(20));
            }
            let _ = child.kill();
            let _ = child.wait();
            last = std::fs::read_to_string(&log).unwrap_or_default();
            if last.is_empty() {
                last = "no log".into();
            }
        }
        Err(format!("redis-server did not start: {last}"))
    }

    pub fn port(&self) -> u16 {
        self.port
    }

    /// `redis://127.0.0.1:PORT`.
    pub fn url(&self) -> String {
        format!("redis://127.0.0.1:{}", self.port)
    }

    /// `rediss://127.0.0.1:TLS_PORT` (started with [`RedisServer::start_tls`]).
    pub fn tls_url(&self) -> Option<String> {
        self.tls_port.map(|p| format!("rediss://127.0.0.1:{p}"))
    }

    /// Kills the server (SIGKILL).
    pub fn stop(&mut self) {
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

impl Drop for RedisServer {
    fn drop(&mut self) {
        self.stop();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// A folder of the test's own under the system's temporary folder (`wm-NAME-PID-N`), created
/// empty and removed with everything in it when the handle drops, so no test leaves files behind.
pub struct TempDir(PathBuf);

impl TempDir {
    pub fn new(name: &str) -> TempDir {
        static N: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
        let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("wm-{name}-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        TempDir(dir)
    }

    pub fn path(&self) -> &Path {
        &self.0
    }

    /// A path inside the folder.
    pub fn join(&self, name: impl AsRef<Path>) -> PathBuf {
        self.0.join(name)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[cfg(test)]
mod tests {
    use super::TempDir;

    #[test]
    fn a_temporary_folder_is_removed_with_its_files_when_dropped() {
        let dir = TempDir::new("tempdir-check");
        let (a, b) = (dir.path().to_path_buf(), TempDir::new("tempdir-check"));
        assert_ne!(a, b.path(), "two folders of one name are distinct");
        std::fs::create_dir_all(dir.join("sub")).unwrap();
        std::fs::write(dir.join("sub/file"), b"x").unwrap();
        drop(dir);
        assert!(!a.exists(), "{} is left behind", a.display());
    }
}
