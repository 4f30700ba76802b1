//! The wallet service as the secure frame calls it (its own `Origin`), from 127.0.0.1 or another
//! loopback address, and the email login as a person does it: the approval link read from the
//! mail and its button pressed, then the code read from the mail.

use std::net::{IpAddr, SocketAddr};
use std::time::Duration;

use serde_json::{json, Value};

use super::mail::Maildev;
use super::Resp;

/// Subjects of the service's mail.
pub const LOGIN: &str = "Your login code is";
/// The approval link for a device of an address that has an account in the project.
pub const DEVICE: &str = "Approve your new device";
/// The approval link for an address without an account in the project yet.
pub const FIRST: &str = "Confirm it's you signing in";
pub const CHANGE: &str = "Confirm your email change:";

pub const PROJECT: &str = "demo-project";

/// A device id as the frame draws it.
pub fn device(name: &str) -> String {
    format!("device-{name}-0123456789")
}

/// A client of the frame listener at `frame`, connecting from `from` (None: 127.0.0.1).
#[derive(Debug, Clone, Copy)]
pub struct Frame {
    pub frame: SocketAddr,
    pub from: Option<IpAddr>,
}

impl Frame {
    pub fn new(frame: SocketAddr) -> Frame {
        Frame { frame, from: None }
    }

    /// The same listener, reached from another loopback address.
    pub fn from(&self, ip: IpAddr) -> Frame {
        Frame {
            frame: self.frame,
            from: Some(ip),
        }
    }

    pub fn origin(&self) -> String {
        format!("http://{}", self.frame)
    }

    /// A request with these headers (no `Origin` added).
    pub async fn raw(
        &self,
        method: &str,
        path: &str,
        headers: &[(&str, &str)],
        body: &[u8],
    ) -> Resp {
        match self.from {
            Some(ip) => super::request_from(ip, self.frame, method, path, headers, body).await,
            None => super::request(self.frame, method, path, headers, body).await,
        }
    }

    pub async fn call(&self, method: &str, path: &str, session: Option<&str>, body: &[u8]) -> Resp {
        let origin = self.origin();
        let auth = session.map(|s| format!("Bearer {s}"));
        let mut headers = vec![
            ("Origin", origin.as_str()),
            ("Content-Type", "application/json"),
        ];
        if let Some(a) = &auth {
            headers.push(("Authorization", a.as_str()));
        }
        self.raw(method, path, &headers, body).await
    }

    pub async fn post(&self, path: &str, body: Value) -> Resp {
        self.call("POST", path, None, body.to_string().as_bytes())
            .await
    }

    pub async fn post_auth(&self, path: &str, session: &str, body: Value) -> Resp {
        self.call("POST", path, Some(session), body.to_string().as_bytes())
            .await
    }

    pub async fn get_auth(&self, path: &str, session: &str) -> Resp {
        self.call("GET", path, Some(session), b"").await
    }

    pub async fn start_login_in(&self, project: &str, email: &str, device: &str) -> Resp {
        self.post(
            "/w/v1/email/start",
            json!({"email": email, "deviceId": device, "projectId": project}),
        )
        .await
    }

    pub async fn verify_in(&self, project: &str, email: &str, device: &str, otp: &str) -> Resp {
        self.post(
            "/w/v1/email/verify",
            json!({"email": email, "deviceId": device, "otp": otp, "projectId": project}),
        )
        .await
    }

    /// Presses the button of the approval page of `link` (the form POST, with the frame's origin
    /// as the browser sends it).
    pub async fn approve(&self, link: &str) -> Resp {
        let token = link.rsplit('=').next().unwrap();
        let form = format!("token={token}");
        let origin = self.origin();
        let headers = [
            ("Origin", origin.as_str()),
            ("Content-Type", "application/x-www-form-urlencoded"),
        ];
        super::request(
            self.frame,
            "POST",
            "/w/v1/device/approve",
            &headers,
            form.as_bytes(),
        )
        .await
    }
}

/// The approval mails (either kind) to `to`, oldest first (the sink lists mail as it came).
pub async fn approvals(mail: &Maildev, to: &str) -> Vec<Value> {
    mail.all()
        .await
        .into_iter()
        .filter(|m| {
            let subject = m["subject"].as_str().unwrap_or("");
            m["to"][0]["address"] == to && (subject == DEVICE || subject == FIRST)
        })
        .collect()
}

/// The link of approval mail #n (either kind) to `to`; waits (≤ 5 s) for it.
pub async fn approval_link(mail: &Maildev, frame: &Frame, to: &str, n: usize) -> String {
    for _ in 0..100 {
        let all = approvals(mail, to).await;
        if all.len() >= n {
            let text = all[n - 1]["text"].as_str().unwrap().to_string();
            let start = text.find("http://").expect("a link in the mail");
            let link: String = text[start..]
                .chars()
                .take_while(|c| !c.is_whitespace())
                .collect();
            let prefix = format!("{}/w/v1/device/approve?token=", frame.origin());
            assert!(link.starts_with(&prefix), "{link}");
            return link;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("no approval mail #{n} to {to}: {:#?}", mail.all().await);
}

/// Asks for a code for `email` on `device` in `project`; when the device is not approved yet,
/// approves it with the link of the newest approval mail. Answers login code mail #`n`.
pub async fn ask_code(
    frame: &Frame,
    mail: &Maildev,
    project: &str,
    email: &str,
    device: &str,
    n: usize,
) -> String {
    let before = approvals(mail, email).await.len();
    let r = frame.start_login_in(project, email, device).await;
    assert_eq!(r.status, 200, "{}", r.text());
    match r.json()["action"].as_str() {
        Some("VERIFY_OTP") => {}
        Some("VERIFY_DEVICE") => {
            let link = approval_link(mail, frame, email, before + 1).await;
            let done = frame.approve(&link).await;
            assert_eq!(done.status, 200, "{}", done.text());
            assert!(done.text().contains("Device approved"), "{}", done.text());
        }
        other => panic!("unexpected action {other:?}"),
    }
    mail.code(email, super::frame::LOGIN, n).await
}

/// A whole email login (see [`ask_code`]): the login's JSON.
pub async fn email_login(
    frame: &Frame,
    mail: &Maildev,
    project: &str,
    email: &str,
    device: &str,
    n: usize,
) -> Value {
    let code = ask_code(frame, mail, project, email, device, n).await;
    let r = frame.verify_in(project, email, device, &code).await;
    assert_eq!(r.status, 200, "{}", r.text());
    r.json()
}
