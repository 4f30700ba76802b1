//! The service's mail: what each one says, and the message as sent (RFC 5322, plain text).
//! Subjects carry the codes so that the sink's list shows them.

use std::time::{SystemTime, UNIX_EPOCH};

use super::{hex, random_bytes, smtp, ApiError, Wallet};

pub const FROM_NAME: &str = "wallet-modal";
pub const FROM_ADDRESS: &str = "no-reply@wallet-modal.test";

/// One mail to one address (already validated: ASCII, no spaces or line breaks).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mail {
    pub to: String,
    pub subject: String,
    pub text: String,
}

pub fn login_code(to: &str, code: &str) -> Mail {
    Mail {
        to: to.to_string(),
        subject: format!("Your login code is {code}"),
        text: format!(
            "Your wallet-modal login code is {code}.\n\n\
             Enter it where you asked for it. It is good for 10 minutes, for one login.\n\n\
             If you did not ask for it, ignore this email: nobody can log in without the code.\n"
        ),
    }
}

pub fn device_approval(to: &str, link: &str) -> Mail {
    Mail {
        to: to.to_string(),
        subject: "Approve your new device".to_string(),
        text: format!(
            "A new device asked to log in to your wallet-modal wallet ({to}).\n\n\
             If it was you, open this link and press \"Approve this device\":\n\n\
             {link}\n\n\
             Your login code will then come in a second email.\n\
             If it was not you, ignore this email: the device stays locked out.\n"
        ),
    }
}

/// The approval link for an address without an account in the project yet: its first sign-in.
pub fn first_sign_in(to: &str, link: &str) -> Mail {
    Mail {
        to: to.to_string(),
        subject: "Confirm it's you signing in".to_string(),
        text: format!(
            "Confirm it's you signing in to wallet-modal with {to}.\n\n\
             If you just asked to sign in, open this link and press \"Approve this device\":\n\n\
             {link}\n\n\
             Your login code will then come in a second email.\n\
             If it was not you, ignore this email: no wallet is made and nobody can sign in.\n"
        ),
    }
}

/// `to_new`: the second mail, to the new address; otherwise the first, to the current one.
pub fn email_change(to: &str, code: &str, current: &str, new: &str, to_new: bool) -> Mail {
    let text = if to_new {
        format!(
            "Your code to confirm {new} as the new email of your wallet-modal wallet is {code}.\n\n\
             It is good for 10 minutes. If you did not ask for it, ignore this email.\n"
        )
    } else {
        format!(
            "Someone asked to change the email of your wallet-modal wallet from {current} to {new}.\n\n\
             If it was you, your code is {code} (good for 10 minutes).\n\
             If it was not you, ignore this email: the email stays {current}.\n"
        )
    };
    Mail {
        to: to.to_string(),
        subject: format!("Confirm your email change: {code}"),
        text,
    }
}

/// The whole message: headers and the text, lines ended by CRLF.
pub fn render(mail: &Mail, from: &str, at: SystemTime, message_id: &str) -> String {
    let domain = from.rsplit_once('@').map_or("wallet-modal.test", |(_, d)| d);
    let headers = [
        format!("From: {FROM_NAME} <{from}>"),
        format!("To: <{}>", mail.to),
        format!("Subject: {}", mail.subject),
        format!("Date: {}", rfc5322_date(at)),
        format!("Message-ID: <{message_id}@{domain}>"),
        "MIME-Version: 1.0".to_string(),
        "Content-Type: text/plain; charset=utf-8".to_string(),
        "Content-Transfer-Encoding: 8bit".to_string(),
    ];
    let mut out = headers.join("\r\n");
    out.push_str("\r\n\r\n");
    out.push_str(&mail.text.replace("\r\n", "\n").replace('\n', "\r\n"));
    out
}

/// `Thu, 26 Nov 2026 10:42:14 +0000`.
pub fn rfc5322_date(at: SystemTime) -> String {
    let secs = at.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    // Days to civil date (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    const WEEKDAYS: [&str; 7] = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"];
    const MONTHS: [&str; 12] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    format!(
        "{}, {:02} {} {} {:02}:{:02}:{:02} +0000",
        WEEKDAYS[days.rem_euclid(7) as usize],
        day,
        MONTHS[(month - 1) as usize],
        year,
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

impl Wallet {
    /// Sends `mail` to the sink; any failure is logged (never the code) and answers 502
    /// 'Could not send the email'.
    pub async fn send_mail(&self, mail: &Mail) -> Result<(), ApiError> {
        let Some(server) = &self.config.smtp else {
            eprintln!("wallet: cannot send the email: no mail server configured (--smtp)");
            return Err(ApiError::mail_failed());
        };
        let from = self.config.mail_from.as_str();
        let message = render(mail, from, SystemTime::now(), &hex(&random_bytes::<12>()));
        let envelope = smtp::Envelope { from, to: &mail.to };
        // Our name in EHLO: the sender's domain (a name the mail server can look up).
        let hello = from.rsplit_once('@').map_or("wallet-modal.test", |(_, d)| d);
        let cfg = smtp::SmtpConfig {
            server,
            hello,
            step_timeout: self.config.smtp_step_timeout,
        };
        smtp::send(&cfg, &envelope, &message).await.map_err(|e| {
            eprintln!("wallet: could not send the email to {}: {e}", mail.to);
            ApiError::mail_failed()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn dates() {
        let at = |s: u64| rfc5322_date(UNIX_EPOCH + Duration::from_secs(s));
        assert_eq!(at(0), "Thu, 01 Jan 1970 00:00:00 +0000");
        assert_eq!(at(951_782_400), "Tue, 29 Feb 2000 00:00:00 +0000");
        assert_eq!(at(1_795_689_734), "Thu, 26 Nov 2026 10:42:14 +0000");
    }

    #[test]
    fn a_message_has_crlf_lines_and_the_code_in_its_subject() {
        let m = render(&login_code("a@b.co", "012345"), FROM_ADDRESS, UNIX_EPOCH, "abc");
        assert!(
            m.starts_with("From: wallet-modal <no-reply@wallet-modal.test>\r\nTo: <a@b.co>\r\n")
        );
        assert!(m.contains("\r\nSubject: Your login code is 012345\r\n"));
        assert!(m.contains("\r\n\r\nYour wallet-modal login code is 012345.\r\n"));
        assert!(!m.replace("\r\n", "").contains('\n'));
        assert!(m.is_ascii());
    }
}
