//! A real maildev (npm `maildev`, from the workspace's node_modules) on free ports as the wallet
//! service's SMTP sink; the mail is read back through its REST API (`GET /api/email`).

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use serde_json::Value;

/// A maildev process of this test, killed (exactly that child) when dropped, also on panic.
pub struct Maildev {
    child: Child,
    pub smtp: SocketAddr,
    pub web: SocketAddr,
    dir: PathBuf,
}

impl Drop for Maildev {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

impl Maildev {
    pub async fn start() -> Maildev {
        Self::start_with(&[]).await
    }

    /// [`Maildev::start`] with more of maildev's options (`--incoming-secure`, `--incoming-user`…).
    pub async fn start_with(extra: &[&str]) -> Maildev {
        let script = super::repo_root().join("node_modules/maildev/dist/bin/maildev.js");
        assert!(
            script.is_file(),
            "{} is missing: run `npm install` at the workspace root",
            script.display()
        );
        // A port picked free may be taken by the time maildev binds it: try again with others.
        for _ in 0..3 {
            let (smtp, web) = (free_port(), free_port());
            let dir =
                std::env::temp_dir().join(format!("wm-maildev-{}-{smtp}", std::process::id()));
            std::fs::create_dir_all(&dir).unwrap();
            let child = Command::new("node")
                .arg(&script)
                .args(["--smtp", &smtp.to_string(), "--web", &web.to_string()])
                .args(["--ip", "127.0.0.1", "--web-ip", "127.0.0.1", "--silent"])
                .args(extra)
                // maildev writes each message's .eml under $TMPDIR/maildev: one folder per test.
                .env("TMPDIR", &dir)
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .expect("node starts");
            let mut md = Maildev {
                child,
                smtp: ([127, 0, 0, 1], smtp).into(),
                web: ([127, 0, 0, 1], web).into(),
                dir,
            };
            if md.ready().await {
                return md;
            }
        }
        panic!("maildev did not start");
    }

    /// Its REST API answers and its SMTP port accepts.
    async fn ready(&mut self) -> bool {
        for _ in 0..200 {
            if self.child.try_wait().unwrap().is_some() {
                return false;
            }
            if tokio::net::TcpStream::connect(self.smtp).await.is_ok()
                && tokio::net::TcpStream::connect(self.web).await.is_ok()
                && super::get(self.web, "/api/healthz").await.status == 200
            {
                return true;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        false
    }

    pub async fn all(&self) -> Vec<Value> {
        let r = super::get(self.web, "/api/email").await;
        assert_eq!(r.status, 200, "{}", r.text());
        r.json().as_array().cloned().unwrap_or_default()
    }

    /// The mails to `to` whose subject starts with `subject`, oldest first.
    pub async fn to(&self, to: &str, subject: &str) -> Vec<Value> {
        self.all()
            .await
            .into_iter()
            .filter(|m| {
                m["to"][0]["address"] == to
                    && m["subject"].as_str().unwrap_or("").starts_with(subject)
            })
            .collect()
    }

    /// Waits (≤ 5 s) until there are `n` such mails; answers the newest.
    pub async fn nth(&self, to: &str, subject: &str, n: usize) -> Value {
        for _ in 0..100 {
            let mails = self.to(to, subject).await;
            if mails.len() >= n {
                return mails[n - 1].clone();
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("no mail #{n} {subject:?} to {to}: {:#?}", self.all().await);
    }

    /// The code in the subject of mail #n (`Your login code is 123456`).
    pub async fn code(&self, to: &str, subject: &str, n: usize) -> String {
        let m = self.nth(to, subject, n).await;
        let code = m["subject"]
            .as_str()
            .unwrap()
            .rsplit(' ')
            .next()
            .unwrap()
            .to_string();
        assert!(
            code.len() == 6 && code.bytes().all(|b| b.is_ascii_digit()),
            "{m}"
        );
        assert!(
            m["text"].as_str().unwrap().contains(&code),
            "the text has the code too"
        );
        code
    }
}
