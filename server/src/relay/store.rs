//! Topic mailboxes and subscriptions of the relay. Synchronous; the relay keeps one [`Store`] behind a
//! mutex and never awaits while holding it. Every collection here is bounded by [`RelayConfig`]
//! (mailbox length, topic count, stored bytes in total and per client id); deliveries go to
//! per-connection bounded queues with `try_send`, and a connection whose queue is full is told to
//! close instead of being buffered for.
//!
//! Every stored message is charged to the connection that published it, to its client id (the JWT
//! issuer, which a client draws itself) and to its peer IP address ([`crate::client`]): one client
//! filling its quota (per connection, per id, per address) is refused while others keep
//! publishing; the global `max_stored_bytes` still bounds the sum. Small messages (at most
//! [`RelayConfig::small_message_bytes`]: pairing proposals, session requests and answers) have a
//! reserved slice of the store and of each address's quota that bigger ones cannot use, so a flood
//! of big messages from many addresses still leaves room for a dapp's pairing proposal.

use std::collections::{HashMap, VecDeque};
use std::hash::Hash;
use std::sync::Arc;

use tokio::sync::{mpsc, Notify};

use super::RelayConfig;
use crate::client::Client;

pub type ConnId = u64;

/// The publisher of a message another relay instance accepted (no connection here has id 0).
pub const REMOTE: ConnId = 0;
/// The client id such a message is charged to here.
const REMOTE_OWNER: &str = "~another-instance";

/// How many connections a stored message remembers having been delivered to (so a socket that
/// re-subscribes or fetches does not get it again). Oldest entries are forgotten first.
const DELIVERED_MEMORY: usize = 32;

/// Bytes a stored message is accounted for on top of its text (bookkeeping, delivered list), so
/// that many tiny messages are bounded by `max_stored_bytes` too.
pub const STORED_MESSAGE_OVERHEAD: usize = 512;

/// A message as clients see it (`irn_subscription` data and `irn_fetchMessages` entries).
#[derive(Debug, Clone)]
pub struct Msg {
    pub topic: Arc<str>,
    pub message: Arc<str>,
    pub published_at: u64,
    pub tag: u64,
}

/// A message to push to one subscription.
#[derive(Debug, Clone)]
pub struct Delivery {
    pub sub_id: Arc<str>,
    pub msg: Msg,
}

/// The relay side of one connection: its bounded delivery queue and its kill switch.
#[derive(Debug)]
pub struct ConnShared {
    pub tx: mpsc::Sender<Delivery>,
    /// Notified when the connection must close because its queue overflowed.
    pub overflow: Notify,
}

#[derive(Debug)]
struct Stored {
    msg: Msg,
    expires_at: u64,
    publisher: ConnId,
    /// The client id the message is charged to.
    owner: Arc<str>,
    /// The publisher's peer address, charged too.
    ip: Client,
    delivered: VecDeque<ConnId>,
}

fn stored_size(message: &str) -> usize {
    message.len() + STORED_MESSAGE_OVERHEAD
}

/// What one client id holds in the store.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Usage {
    pub messages: usize,
    /// Accounted like [`StoreStats::stored_bytes`].
    pub bytes: usize,
}

/// Stored messages and bytes per client id, per connection and per peer address; entries at zero
/// are removed.
#[derive(Debug, Default)]
struct Ledger {
    clients: HashMap<Arc<str>, Usage>,
    conns: HashMap<ConnId, Usage>,
    ips: HashMap<Client, Usage>,
    stored_bytes: usize,
    stored_messages: usize,
}

fn add<K: Eq + Hash>(m: &mut HashMap<K, Usage>, k: K, size: usize) {
    let u = m.entry(k).or_default();
    u.messages += 1;
    u.bytes += size;
}

fn sub<K: Eq + Hash>(m: &mut HashMap<K, Usage>, k: &K, size: usize) {
    if let Some(u) = m.get_mut(k) {
        u.messages -= 1;
        u.bytes -= size;
        if u.messages == 0 {
            m.remove(k);
        }
    }
}

impl Ledger {
    fn usage(&self, client: &str) -> Usage {
        self.clients.get(client).copied().unwrap_or_default()
    }
    fn conn_usage(&self, conn: ConnId) -> Usage {
        self.conns.get(&conn).copied().unwrap_or_default()
    }
    fn ip_usage(&self, ip: &Client) -> Usage {
        self.ips.get(ip).copied().unwrap_or_default()
    }
    fn charge(&mut self, s: &Stored, size: usize) {
        add(&mut self.clients, s.owner.clone(), size);
        add(&mut self.conns, s.publisher, size);
        add(&mut self.ips, s.ip, size);
        self.stored_messages += 1;
        self.stored_bytes += size;
    }
    fn release(&mut self, s: &Stored) {
        let size = stored_size(&s.msg.message);
        self.stored_messages -= 1;
        self.stored_bytes -= size;
        sub(&mut self.clients, &s.owner, size);
        sub(&mut self.conns, &s.publisher, size);
        sub(&mut self.ips, &s.ip, size);
    }
}

impl Stored {
    fn mark(&mut self, conn: ConnId) {
        if self.delivered.contains(&conn) {
            return;
        }
        if self.delivered.len() >= DELIVERED_MEMORY {
            self.delivered.pop_front();
        }
        self.delivered.push_back(conn);
    }
    fn wanted_by(&self, conn: ConnId, now: u64) -> bool {
        self.expires_at > now && self.publisher != conn && !self.delivered.contains(&conn)
    }
}

#[derive(Debug)]
struct Subscriber {
    sub_id: Arc<str>,
    conn: Arc<ConnShared>,
}

#[derive(Debug, Default)]
struct Topic {
    mailbox: VecDeque<Stored>,
    subscribers: HashMap<ConnId, Subscriber>,
}

impl Topic {
    fn is_empty(&self) -> bool {
        self.mailbox.is_empty() && self.subscribers.is_empty()
    }
}

/// Why the store refused an operation (answered as JSON-RPC -32000).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StoreError {
    TooManyTopics,
    StorageFull,
    /// The publishing client holds its maximum of stored messages or bytes: per client id, per
    /// connection or per peer address.
    ClientQuota {
        per: Per,
        /// `None`: no count bound of its own (per address, bytes only).
        max_messages: Option<usize>,
        /// The bound applied (per address, for a big message: the part outside the reserve).
        max_bytes: usize,
    },
}

/// Whose quota a [`StoreError::ClientQuota`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Per {
    ClientId,
    Connection,
    Address,
}

impl StoreError {
    pub fn message(self) -> String {
        match self {
            StoreError::TooManyTopics => {
                "relay is tracking too many topics, try again later".into()
            }
            StoreError::StorageFull => "relay storage is full, try again later".into(),
            StoreError::ClientQuota {
                per,
                max_messages,
                max_bytes,
            } => {
                let per = match per {
                    Per::ClientId => "client id",
                    Per::Connection => "connection",
                    Per::Address => "IP address",
                };
                let what = match max_messages {
                    Some(m) => format!("{m} messages / {max_bytes} bytes"),
                    None => format!("{max_bytes} bytes"),
                };
                format!(
                    "client storage quota exceeded: at most {what} stored per {per}; retry when \
                     your stored messages expire (ttl 0 is not stored)"
                )
            }
        }
    }
}

/// Counters for tests and diagnostics.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct StoreStats {
    pub topics: usize,
    pub stored_messages: usize,
    /// Message bytes plus [`STORED_MESSAGE_OVERHEAD`] per message.
    pub stored_bytes: usize,
    pub subscriptions: usize,
}

#[derive(Debug, Default)]
pub struct Store {
    topics: HashMap<Arc<str>, Topic>,
    ledger: Ledger,
}

impl Store {
    fn topic_entry(&mut self, cfg: &RelayConfig, topic: &str) -> Result<&mut Topic, StoreError> {
        if !self.topics.contains_key(topic) {
            if self.topics.len() >= cfg.max_topics {
                return Err(StoreError::TooManyTopics);
            }
            self.topics.insert(Arc::from(topic), Topic::default());
        }
        Ok(self.topics.get_mut(topic).expect("just inserted"))
    }

    fn topic_key(&self, topic: &str) -> Option<Arc<str>> {
        self.topics.get_key_value(topic).map(|(k, _)| k.clone())
    }

    fn forget_if_empty(&mut self, topic: &str) {
        if self.topics.get(topic).is_some_and(Topic::is_empty) {
            self.topics.remove(topic);
        }
    }

    /// Whether a message of `size` accounted bytes (`small`: within the small messages' size)
    /// fits the quotas of connection `conn`, client id `owner` and address `ip`.
    fn check_quotas(
        &self,
        cfg: &RelayConfig,
        conn: ConnId,
        owner: &str,
        ip: &Client,
        size: usize,
        small: bool,
    ) -> Result<(), StoreError> {
        let quota = |per, max_messages, max_bytes| StoreError::ClientQuota {
            per,
            max_messages,
            max_bytes,
        };
        let max_msgs = cfg.max_client_stored_messages;
        let used = self.ledger.conn_usage(conn);
        if used.messages >= max_msgs || used.bytes + size > cfg.max_conn_stored_bytes {
            return Err(quota(
                Per::Connection,
                Some(max_msgs),
                cfg.max_conn_stored_bytes,
            ));
        }
        let used = self.ledger.usage(owner);
        if used.messages >= max_msgs || used.bytes + size > cfg.max_client_stored_bytes {
            return Err(quota(
                Per::ClientId,
                Some(max_msgs),
                cfg.max_client_stored_bytes,
            ));
        }
        let used = self.ledger.ip_usage(ip);
        let ip_max = if small {
            cfg.max_ip_stored_bytes
        } else {
            cfg.max_ip_stored_bytes
                .saturating_sub(cfg.ip_small_reserve_bytes)
        };
        if used.bytes + size > ip_max {
            return Err(quota(Per::Address, None, ip_max));
        }
        Ok(())
    }

    /// Delivers to every subscriber except `publisher` and stores the message for `ttl_ms` (0 = live
    /// only), charged to the connection `publisher`, the client id `owner` and the address `ip`.
    /// Returns how many subscribers it was queued for.
    #[allow(clippy::too_many_arguments)]
    pub fn publish(
        &mut self,
        cfg: &RelayConfig,
        publisher: ConnId,
        owner: &Arc<str>,
        ip: Client,
        topic: &str,
        message: Arc<str>,
        tag: u64,
        ttl_ms: u64,
        now: u64,
    ) -> Result<usize, StoreError> {
        let size = stored_size(&message);
        if ttl_ms > 0 {
            let small = message.len() <= cfg.small_message_bytes;
            // The client's own quotas first, so a client filling one is told so (expired messages
            // are released by the periodic sweep).
            self.check_quotas(cfg, publisher, owner, &ip, size, small)?;
            // Big messages leave the small messages' reserve alone.
            let max = if small {
                cfg.max_stored_bytes
            } else {
                cfg.max_stored_bytes.saturating_sub(cfg.small_reserve_bytes)
            };
            if self.ledger.stored_bytes + size > max {
                self.prune(now);
                if self.ledger.stored_bytes + size > max {
                    return Err(StoreError::StorageFull);
                }
            }
        }
        if ttl_ms == 0 && !self.topics.contains_key(topic) {
            return Ok(0);
        }
        let mailbox_limit = cfg.mailbox_limit;
        self.topic_entry(cfg, topic)?;
        let key = self.topic_key(topic).expect("topic exists");
        let t = self.topics.get_mut(&*key).expect("topic exists");
        let msg = Msg {
            topic: key,
            message,
            published_at: now,
            tag,
        };
        let mut stored = Stored {
            msg: msg.clone(),
            expires_at: now.saturating_add(ttl_ms),
            publisher,
            owner: owner.clone(),
            ip,
            delivered: VecDeque::new(),
        };
        let mut queued = 0;
        for (conn_id, sub) in &t.subscribers {
            if *conn_id == publisher {
                continue;
            }
            let d = Delivery {
                sub_id: sub.sub_id.clone(),
                msg: msg.clone(),
            };
            match sub.conn.tx.try_send(d) {
                Ok(()) => {
                    queued += 1;
                    stored.mark(*conn_id);
                }
                // The subscriber does not keep up: it gets closed, not buffered for.
                Err(mpsc::error::TrySendError::Full(_)) => sub.conn.overflow.notify_one(),
                Err(mpsc::error::TrySendError::Closed(_)) => {}
            }
        }
        if ttl_ms > 0 {
            self.ledger.charge(&stored, size);
            t.mailbox.push_back(stored);
            while t.mailbox.len() > mailbox_limit {
                if let Some(old) = t.mailbox.pop_front() {
                    self.ledger.release(&old);
                }
            }
        } else {
            self.forget_if_empty(topic);
        }
        Ok(queued)
    }

    /// A message another relay instance accepted ([`super::cluster`]): delivered to every
    /// subscriber here that has not had it, and kept until `expires_at` (0: live only) when the
    /// store has room. Nothing happens for a topic nobody here subscribed to or stored in (Redis
    /// keeps it; a later subscribe fetches it), nor for one here already (the same text published
    /// at the same time). Charged to no client of this instance: its quotas were checked where it
    /// was published. Returns how many subscribers it was queued for.
    #[allow(clippy::too_many_arguments)]
    pub fn publish_remote(&mut self, cfg: &RelayConfig, topic: &str, message: Arc<str>, published_at: u64, tag: u64, expires_at: u64, now: u64) -> usize {
        let Some(key) = self.topic_key(topic) else { return 0 };
        let size = stored_size(&message);
        let keep = expires_at > now && {
            if self.ledger.stored_bytes + size > cfg.max_stored_bytes {
                self.prune(now);
            }
            self.ledger.stored_bytes + size <= cfg.max_stored_bytes
        };
        let Some(t) = self.topics.get_mut(&*key) else { return 0 };
        if t.mailbox.iter().any(|s| s.msg.published_at == published_at && *s.msg.message == *message) {
            return 0;
        }
        let msg = Msg { topic: key, message, published_at, tag };
        let mut stored = Stored {
            msg: msg.clone(),
            expires_at,
            publisher: REMOTE,
            owner: Arc::from(REMOTE_OWNER),
            ip: std::net::Ipv4Addr::UNSPECIFIED.into(),
            delivered: VecDeque::new(),
        };
        let mut queued = 0;
        for (conn_id, sub) in &t.subscribers {
            match sub.conn.tx.try_send(Delivery { sub_id: sub.sub_id.clone(), msg: msg.clone() }) {
                Ok(()) => {
                    queued += 1;
                    stored.mark(*conn_id);
                }
                Err(mpsc::error::TrySendError::Full(_)) => sub.conn.overflow.notify_one(),
                Err(mpsc::error::TrySendError::Closed(_)) => {}
            }
        }
        if keep {
            self.ledger.charge(&stored, size);
            t.mailbox.push_back(stored);
            while t.mailbox.len() > cfg.mailbox_limit {
                if let Some(old) = t.mailbox.pop_front() {
                    self.ledger.release(&old);
                }
            }
        }
        queued
    }

    /// Adds (or keeps) `conn`'s subscription to `topic` and returns the stored messages it has not
    /// seen (oldest first), marking them delivered.
    pub fn subscribe(
        &mut self,
        cfg: &RelayConfig,
        conn_id: ConnId,
        conn: &Arc<ConnShared>,
        topic: &str,
        sub_id: Arc<str>,
        now: u64,
    ) -> Result<Vec<Delivery>, StoreError> {
        let t = self.topic_entry(cfg, topic)?;
        t.subscribers.entry(conn_id).or_insert_with(|| Subscriber {
            sub_id: sub_id.clone(),
            conn: conn.clone(),
        });
        let mut out = Vec::new();
        for s in t.mailbox.iter_mut() {
            if s.wanted_by(conn_id, now) {
                s.mark(conn_id);
                out.push(Delivery {
                    sub_id: sub_id.clone(),
                    msg: s.msg.clone(),
                });
            }
        }
        Ok(out)
    }

    /// Whether `topics` (distinct) fit under the topic cap, so a batch is refused before any change.
    pub fn has_room_for(&self, cfg: &RelayConfig, topics: &[String]) -> bool {
        let mut new: Vec<&str> = topics
            .iter()
            .map(String::as_str)
            .filter(|t| !self.topics.contains_key(*t))
            .collect();
        new.sort_unstable();
        new.dedup();
        self.topics.len() + new.len() <= cfg.max_topics
    }

    pub fn unsubscribe(&mut self, conn_id: ConnId, topic: &str) {
        if let Some(t) = self.topics.get_mut(topic) {
            t.subscribers.remove(&conn_id);
        }
        self.forget_if_empty(topic);
    }

    /// Stored messages of `topics` that `conn_id` has not seen, at most `limit`; marks the returned
    /// ones delivered. The flag is true when more remain.
    pub fn fetch(
        &mut self,
        conn_id: ConnId,
        topics: &[String],
        limit: usize,
        now: u64,
    ) -> (Vec<Msg>, bool) {
        let mut out = Vec::new();
        for topic in topics {
            let Some(t) = self.topics.get_mut(topic.as_str()) else {
                continue;
            };
            for s in t.mailbox.iter_mut() {
                if s.wanted_by(conn_id, now) {
                    if out.len() >= limit {
                        return (out, true);
                    }
                    s.mark(conn_id);
                    out.push(s.msg.clone());
                }
            }
        }
        (out, false)
    }

    /// Drops a closed connection's subscriptions.
    pub fn remove_connection<'a>(
        &mut self,
        conn_id: ConnId,
        topics: impl IntoIterator<Item = &'a str>,
    ) {
        for topic in topics {
            self.unsubscribe(conn_id, topic);
        }
    }

    /// Removes expired messages and topics with neither messages nor subscribers.
    pub fn prune(&mut self, now: u64) {
        let ledger = &mut self.ledger;
        self.topics.retain(|_, t| {
            t.mailbox.retain(|s| {
                let keep = s.expires_at > now;
                if !keep {
                    ledger.release(s);
                }
                keep
            });
            !t.is_empty()
        });
    }

    /// The topics some connection here subscribes to.
    pub fn subscribed_topics(&self) -> Vec<String> {
        self.topics.iter().filter(|(_, t)| !t.subscribers.is_empty()).map(|(k, _)| k.to_string()).collect()
    }

    pub fn stats(&self) -> StoreStats {
        StoreStats {
            topics: self.topics.len(),
            stored_messages: self.ledger.stored_messages,
            stored_bytes: self.ledger.stored_bytes,
            subscriptions: self.topics.values().map(|t| t.subscribers.len()).sum(),
        }
    }

    /// What the client id `client` holds in the store.
    pub fn client_usage(&self, client: &str) -> Usage {
        self.ledger.usage(client)
    }

    /// What the peer address `ip` holds in the store.
    pub fn ip_usage(&self, ip: &Client) -> Usage {
        self.ledger.ip_usage(ip)
    }
}
