//! Device approvals: the link mailed for a device not approved for (project, email).

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;

use tokio::sync::watch;
use tokio::time::Instant;

use crate::client::Client;
use crate::wallet::table::{ClientTable, Lifetime, NoRoom};
use crate::wallet::{hex, random_bytes, sha256};

/// A device asked for a code for (project, email) it is not approved for: the link mailed to the
/// email approves it.
#[derive(Debug)]
struct Approval {
    token_hash: [u8; 32],
    expires: Instant,
    /// Set to true when approved: wakes `POST /w/v1/device/wait`.
    approved: watch::Sender<bool>,
}

impl Lifetime for Approval {
    fn expired(&self, now: Instant) -> bool {
        self.expires <= now
    }
}

/// What an approval link names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApprovalTarget {
    pub project_id: String,
    pub email: String,
    pub device_id: String,
    /// The client that asked (the new device): the account and the code are charged to it.
    pub requester: Client,
}

/// (project, email, device id).
type ApprovalKey = (String, String, String);

#[derive(Debug)]
struct ApprovalsInner {
    pending: ClientTable<ApprovalKey, Approval>,
    /// Token hash → the approval's key and its requester.
    tokens: HashMap<[u8; 32], (ApprovalKey, Client)>,
}

#[derive(Debug)]
pub struct Approvals {
    inner: Mutex<ApprovalsInner>,
}

/// Looking up an approval link.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Link {
    Valid(ApprovalTarget),
    Expired,
    Unknown,
}

fn approval_key(project: &str, email: &str, device_id: &str) -> ApprovalKey {
    (
        project.to_string(),
        email.to_string(),
        device_id.to_string(),
    )
}

impl Approvals {
    pub fn new(max: usize, max_per_client: usize) -> Self {
        Approvals {
            inner: Mutex::new(ApprovalsInner {
                pending: ClientTable::new(max, max_per_client),
                tokens: HashMap::new(),
            }),
        }
    }

    /// A new link token for (project, email, device), asked by `requester` (replacing an earlier
    /// one; whoever waits keeps waiting).
    pub fn create(
        &self,
        project: &str,
        email: &str,
        device_id: &str,
        requester: Client,
        ttl: Duration,
    ) -> Result<String, NoRoom> {
        let token = hex(&random_bytes::<32>());
        let token_hash = sha256(&[token.as_bytes()]);
        let key = approval_key(project, email, device_id);
        let mut guard = self.inner.lock().unwrap();
        let g = &mut *guard;
        // Whoever waits for the earlier link keeps waiting, on the same channel.
        let previous = g
            .pending
            .get(&key)
            .map(|p| (p.token_hash, p.approved.clone()));
        let approved = match &previous {
            Some((_, a)) => a.clone(),
            None => watch::channel(false).0,
        };
        // Replaces the earlier approval; when refused, the earlier one and its link stay.
        g.pending.insert(
            key.clone(),
            requester,
            Approval {
                token_hash,
                expires: Instant::now() + ttl,
                approved,
            },
        )?;
        if let Some((old, _)) = previous {
            g.tokens.remove(&old);
        }
        // Tokens of approvals the table dropped (expired, or evicted by their own client).
        if g.tokens.len() >= 2 * g.pending.len() + 16 {
            let pending = &g.pending;
            g.tokens.retain(|_, (k, _)| pending.contains_key(k));
        }
        g.tokens.insert(token_hash, (key, requester));
        Ok(token)
    }

    pub fn lookup(&self, token: &str) -> Link {
        let g = self.inner.lock().unwrap();
        let Some((key, requester)) = g.tokens.get(&sha256(&[token.as_bytes()])) else {
            return Link::Unknown;
        };
        match g.pending.get(key) {
            Some(a) if a.expires > Instant::now() => Link::Valid(ApprovalTarget {
                project_id: key.0.clone(),
                email: key.1.clone(),
                device_id: key.2.clone(),
                requester: *requester,
            }),
            Some(_) => Link::Expired,
            None => Link::Unknown,
        }
    }

    /// Wakes whoever waits for (project, email, device) and forgets the approval.
    pub fn complete(&self, project: &str, email: &str, device_id: &str) {
        let mut g = self.inner.lock().unwrap();
        if let Some(a) = g.pending.remove(&approval_key(project, email, device_id)) {
            g.tokens.remove(&a.token_hash);
            a.approved.send_replace(true);
        }
    }

    /// A receiver that turns true when (project, email, device) is approved, if an approval is
    /// pending.
    pub fn subscribe(
        &self,
        project: &str,
        email: &str,
        device_id: &str,
    ) -> Option<watch::Receiver<bool>> {
        let g = self.inner.lock().unwrap();
        g.pending
            .get(&approval_key(project, email, device_id))
            .filter(|a| a.expires > Instant::now())
            .map(|a| a.approved.subscribe())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::{IpAddr, Ipv4Addr};

    const P: &str = "demo-project";

    fn ip(n: u8) -> Client {
        IpAddr::V4(Ipv4Addr::new(127, 0, 0, n))
    }

    #[test]
    fn an_approval_link_is_replaced_and_completed() {
        let a = Approvals::new(10, 10);
        let ttl = Duration::from_secs(60);
        let t1 = a.create(P, "a@x.co", "dev", ip(1), ttl).unwrap();
        let rx = a.subscribe(P, "a@x.co", "dev").unwrap();
        assert!(a.subscribe("other", "a@x.co", "dev").is_none());
        let t2 = a.create(P, "a@x.co", "dev", ip(1), ttl).unwrap();
        assert_eq!(a.lookup(&t1), Link::Unknown);
        assert!(
            matches!(a.lookup(&t2), Link::Valid(t) if t.device_id == "dev" && t.project_id == P)
        );
        a.complete(P, "a@x.co", "dev");
        assert!(*rx.borrow());
        assert_eq!(a.lookup(&t2), Link::Unknown);
        let t3 = a
            .create(P, "a@x.co", "dev2", ip(1), Duration::ZERO)
            .unwrap();
        assert_eq!(a.lookup(&t3), Link::Expired);
    }
}
