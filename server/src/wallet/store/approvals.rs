//! Device approvals: the link mailed for a device not approved for (project, email). With a
//! durable store each pending approval (its link's hash, never the link) is written there before
//! the link is mailed: a link mailed before a restart still approves after it.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde::{Deserialize, Serialize};
use tokio::sync::watch;
use tokio::time::Instant;

use super::durable::{instant_to_wall, wall_ms, wall_to_instant, Durable, StoreError};
use crate::client::Client;
use crate::wallet::table::{ClientTable, Lifetime, NoRoom};
use crate::wallet::{hex, random_bytes, sha256, unhex};

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

impl ApprovalsInner {
    /// Keeps an approval read from the store, unless one for its key is here already (with its
    /// waiters: theirs is the channel).
    fn keep(&mut self, body: &str) {
        let Ok(a) = serde_json::from_str::<StoredApproval>(body) else { return };
        let Some(token_hash) = unhex::<32>(&a.token_hash) else { return };
        let requester = crate::client::from_stored(&a.requester);
        let key = approval_key(&a.project_id, &a.email, &a.device_id);
        if self.pending.get(&key).is_some_and(|p| p.token_hash == token_hash) {
            return;
        }
        let approved = self.pending.get(&key).map_or_else(|| watch::channel(false).0, |p| p.approved.clone());
        if self.pending.insert(key.clone(), requester, Approval { token_hash, expires: wall_to_instant(a.expires_at_ms), approved }).is_ok() {
            if self.tokens.len() >= 2 * self.pending.len() + 16 {
                let pending = &self.pending;
                self.tokens.retain(|_, (k, _)| pending.contains_key(k));
            }
            self.tokens.insert(token_hash, (key, requester));
        }
    }
}

#[derive(Debug)]
pub struct Approvals {
    inner: Mutex<ApprovalsInner>,
    durable: Option<Arc<dyn Durable>>,
}

/// The store's kind of these entries.
const KIND: &str = "device-approval";
/// The store's kind of the links: a link's token hash → its approval's store key.
const LINK_KIND: &str = "device-link";

/// A pending approval as the store keeps it.
#[derive(Serialize, Deserialize)]
struct StoredApproval {
    project_id: String,
    email: String,
    device_id: String,
    requester: String,
    token_hash: String,
    expires_at_ms: u64,
}

/// The store's key of (project, email, device): a hash, so no part can run into another.
fn store_key(key: &ApprovalKey) -> String {
    hex(&sha256(&[key.0.as_bytes(), b"\0", key.1.as_bytes(), b"\0", key.2.as_bytes()]))
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
            durable: None,
        }
    }

    /// The pending approvals of a durable store: each read from it when its device or its link
    /// asks; every change written there.
    pub fn durable(max: usize, max_per_client: usize, durable: Arc<dyn Durable>) -> Result<Self, StoreError> {
        let inner = ApprovalsInner { pending: ClientTable::new(max, max_per_client), tokens: HashMap::new() };
        Ok(Approvals { inner: Mutex::new(inner), durable: Some(durable) })
    }

    /// Reads the approval another server process made (the store is shared): the one stored
    /// under `store_key`.
    fn read_store(&self, g: &mut ApprovalsInner, store_key: &str) {
        let Some(d) = &self.durable else { return };
        if let Ok(Some(body)) = d.entry(KIND, store_key, wall_ms()) {
            g.keep(&body);
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
        let mut guard = crate::wallet::table::lock(&self.inner);
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
        let expires = Instant::now() + ttl;
        if let Some(d) = &self.durable {
            // Durable before the link is mailed (it replaces the earlier one there too).
            let stored = StoredApproval {
                project_id: project.to_string(),
                email: email.to_string(),
                device_id: device_id.to_string(),
                requester: requester.to_string(),
                token_hash: hex(&token_hash),
                expires_at_ms: instant_to_wall(expires),
            };
            let body = serde_json::to_string(&stored).map_err(|_| NoRoom::Store)?;
            // The link's own entry (its token's hash → the approval), for whichever process the
            // link is opened on.
            d.put_entry(LINK_KIND, &hex(&token_hash), stored.expires_at_ms, &store_key(&key)).map_err(|_| NoRoom::Store)?;
            d.put_entry(KIND, &store_key(&key), stored.expires_at_ms, &body).map_err(|_| NoRoom::Store)?;
        }
        // Replaces the earlier approval; when refused, the earlier one and its link stay.
        g.pending.insert(
            key.clone(),
            requester,
            Approval {
                token_hash,
                expires,
                approved,
            },
        )
        .inspect_err(|_| {
            if let Some(d) = &self.durable {
                let _ = d.delete_entry(KIND, &store_key(&key));
            }
        })?;
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
        let mut g = crate::wallet::table::lock(&self.inner);
        let hash = sha256(&[token.as_bytes()]);
        if let Some(d) = &self.durable {
            // Mailed by another server process, perhaps, or replaced or used on one: the store's
            // approval decides.
            match d.entry(LINK_KIND, &hex(&hash), wall_ms()) {
                Ok(Some(approval)) => self.read_store(&mut g, &approval),
                Ok(None) => return Link::Unknown,
                Err(_) => {}
            }
        }
        let Some((key, requester)) = g.tokens.get(&hash) else {
            return Link::Unknown;
        };
        match g.pending.get(key) {
            // (A link replaced by a newer one for the same device no longer approves it.)
            Some(a) if a.token_hash != hash => Link::Unknown,
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

    /// Whether a durable store is shared with other server processes: a device waiting here may
    /// be approved by another one, so the wait also asks the account (`POST /w/v1/device/wait`).
    pub fn shared(&self) -> bool {
        self.durable.is_some()
    }

    /// Wakes whoever waits for (project, email, device) and forgets the approval.
    pub fn complete(&self, project: &str, email: &str, device_id: &str) {
        let mut g = crate::wallet::table::lock(&self.inner);
        let key = approval_key(project, email, device_id);
        if let Some(a) = g.pending.remove(&key) {
            g.tokens.remove(&a.token_hash);
            a.approved.send_replace(true);
            if let Some(d) = &self.durable {
                // (Left in the store, the link would approve the same device again: harmless.)
                let _ = d.delete_entry(KIND, &store_key(&key));
                let _ = d.delete_entry(LINK_KIND, &hex(&a.token_hash));
            }
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
        let mut g = crate::wallet::table::lock(&self.inner);
        if !g.pending.contains_key(&approval_key(project, email, device_id)) {
            self.read_store(&mut g, &store_key(&approval_key(project, email, device_id)));
        }
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

    #[test]
    fn with_a_durable_store_a_mailed_link_still_approves_after_a_restart() {
        let (_dir, d) = crate::wallet::store::durable::contract::temp_sqlite("approvals");
        let ttl = Duration::from_secs(600);
        let a = Approvals::durable(10, 10, d.clone()).unwrap();
        let replaced = a.create(P, "a@x.co", "dev", ip(1), ttl).unwrap();
        let link = a.create(P, "a@x.co", "dev", ip(1), ttl).unwrap();
        let done = a.create(P, "b@x.co", "dev", ip(2), ttl).unwrap();
        a.complete(P, "b@x.co", "dev");
        let a = Approvals::durable(10, 10, d.clone()).unwrap();
        let expected = ApprovalTarget { project_id: P.into(), email: "a@x.co".into(), device_id: "dev".into(), requester: ip(1) };
        assert_eq!(a.lookup(&link), Link::Valid(expected));
        assert_eq!(a.lookup(&replaced), Link::Unknown, "a replaced link stays replaced");
        assert_eq!(a.lookup(&done), Link::Unknown, "a used link stays used");
        assert!(a.subscribe(P, "a@x.co", "dev").is_some(), "the device can wait for it again");
        let bodies = d.entries(KIND, 0).unwrap();
        assert!(bodies.iter().all(|(_, b)| !b.contains(&link)), "the link itself is not stored");
    }
}
