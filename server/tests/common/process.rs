//! The server binary as a process of the test's own (killed with SIGKILL when dropped: as a crash
//! would), its stdout and stderr appended to a log file.

use std::io::{BufRead, BufReader, Write};
use std::net::SocketAddr;
use std::path::Path;
use std::process::{Child, Command, Stdio};

use super::frame::Frame;

/// The master key of the processes these tests start.
pub const MASTER: &str = "5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed";

pub struct Server {
    pub child: Child,
    /// The main listener (the relay, the APIs).
    pub addr: SocketAddr,
    /// The wallet service, as the frame calls it.
    pub frame: Frame,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A server on `store` (`WM_STORE`), its frame (the wallet service) on `frame_port` (0: any; a
/// fixed one keeps the origin across restarts, as a deployment's, so links mailed before a crash
/// point at the new process), every request logged; `extra` arguments after those.
pub fn spawn(store: &str, smtp: SocketAddr, frame_port: u16, log: &Path, extra: &[&str]) -> Server {
    spawn_env(store, smtp, frame_port, log, extra, &[])
}

/// [`spawn`] with more environment variables (`WM_FAILPOINTS`: crash at a named point).
pub fn spawn_env(store: &str, smtp: SocketAddr, frame_port: u16, log: &Path, extra: &[&str], env: &[(&str, &str)]) -> Server {
    let err = std::fs::OpenOptions::new().create(true).append(true).open(log).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_wallet-modal-server"))
        .args(["--port", "0", "--log-requests", "--email-throttle", "2", "--frame-port"])
        .arg(frame_port.to_string())
        .arg("--smtp")
        .arg(smtp.to_string())
        .arg("--root")
        .arg(super::repo_root())
        .args(extra)
        .env("WM_STORE", store)
        .env("WM_MASTER_KEY", MASTER)
        .env_remove("WM_SMTP_PASSWORD")
        .envs(env.iter().copied())
        .stdout(Stdio::piped())
        .stderr(err)
        .spawn()
        .unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let (mut addr, mut frame) = (None, None);
    let mut line = String::new();
    while frame.is_none() {
        line.clear();
        assert!(out.read_line(&mut line).unwrap() > 0, "the server exited: {}", std::fs::read_to_string(log).unwrap_or_default());
        if let Some(a) = line.trim().strip_prefix("listening on http://") {
            addr = Some(a.parse::<SocketAddr>().unwrap());
        }
        if let Some(a) = line.trim().strip_prefix("frame on http://") {
            frame = Some(a.parse::<SocketAddr>().unwrap());
        }
    }
    // The rest of its stdout goes to the log too.
    let mut log = std::fs::OpenOptions::new().append(true).open(log).unwrap();
    std::thread::spawn(move || {
        let mut line = String::new();
        while out.read_line(&mut line).map(|n| n > 0).unwrap_or(false) {
            let _ = log.write_all(line.as_bytes());
            line.clear();
        }
    });
    Server { child, addr: addr.expect("the main listener came first"), frame: Frame::new(frame.unwrap()) }
}
