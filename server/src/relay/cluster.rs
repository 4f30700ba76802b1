//! Several relay instances behind one Redis (`--redis redis://host:port`): a message published on
//! one instance reaches the subscribers connected to every other one, and the messages kept for a
//! peer that is offline live in Redis with their time-to-live, not in one process.
//!
//! - Every message accepted here is published on the channel `{ns}:pub` (with this instance's id,
//!   so it ignores its own) and, when it has a ttl, appended to the topic's list `{ns}:m:{topic}`
//!   (trimmed to the mailbox length; the key expires with its longest-lived message).
//! - Every instance subscribes to the channel and hands what other instances published to the
//!   subscribers connected to it ([`super::Relay::deliver_remote`]).
//! - A socket subscribing here to a topic also gets what the topic's list holds (published on
//!   another instance before anyone here listened, or by an instance since gone).
//!
//! Both links reconnect by themselves (waits of 0.2 s doubling to 2 s); once linked again, every
//! topic subscribed to here is fetched from Redis, so what other instances kept meanwhile is not
//! lost. While Redis is away the relay keeps serving the sockets connected to it; what it could
//! not send is counted
//! (`wm_relay_redis_errors_total`) and `/readyz` says so. Nothing here trusts Redis either: every
//! reply is bounded ([`super::resp`]), and a message read back is checked like a publish.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Weak};
use std::time::Duration;

use serde::{Deserialize, Serialize};
use tokio::sync::{mpsc, oneshot};

use super::resp::{Conn, RedisUrl, Reply};
use super::Relay;

/// Jobs waiting for the command link; past it a publish is counted as an error, not queued.
const QUEUE: usize = 65_536;
/// Commands sent in one write.
const BATCH: usize = 512;
/// A fetch longer than this answers nothing (the socket still gets later messages live).
pub const FETCH_WAIT: Duration = Duration::from_secs(2);
const CONNECT_WAIT: Duration = Duration::from_secs(3);

/// A message as the instances pass it on.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct Remote {
    /// The instance that accepted it.
    pub o: String,
    pub t: String,
    pub m: String,
    /// Published at (ms).
    pub p: u64,
    pub g: u64,
    /// Kept until (ms); 0: delivered live only.
    pub e: u64,
}

enum Job {
    /// With the sender told once Redis holds it (kept messages only).
    Publish(Remote, Option<oneshot::Sender<()>>),
    Fetch(String, oneshot::Sender<Vec<Remote>>),
}

/// This instance's link to the others.
pub struct Cluster {
    pub id: String,
    ns: String,
    mailbox_limit: usize,
    max_message: usize,
    jobs: mpsc::Sender<Job>,
    /// Both links are up.
    commands_up: AtomicBool,
    subscribed: AtomicBool,
    errors: AtomicU64,
}

impl std::fmt::Debug for Cluster {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Cluster {{ id: {}, up: {} }}", self.id, self.up())
    }
}

impl Cluster {
    /// Starts both links to `url` for `relay` (they end when the relay is dropped).
    pub fn start(relay: &Arc<Relay>, url: RedisUrl, ns: &str) -> Arc<Cluster> {
        let (jobs, rx) = mpsc::channel(QUEUE);
        let id = crate::wallet::hex(&crate::wallet::random_bytes::<8>());
        let cluster = Arc::new(Cluster {
            id,
            ns: ns.to_string(),
            mailbox_limit: relay.config().mailbox_limit.max(1),
            max_message: relay.config().max_message_bytes,
            jobs,
            commands_up: AtomicBool::new(false),
            subscribed: AtomicBool::new(false),
            errors: AtomicU64::new(0),
        });
        tokio::spawn(commands(Arc::downgrade(&cluster), url.clone(), rx));
        tokio::spawn(subscriber(Arc::downgrade(relay), Arc::downgrade(&cluster), url));
        cluster
    }

    /// Whether both links to Redis are up.
    pub fn up(&self) -> bool {
        self.commands_up.load(Ordering::Relaxed) && self.subscribed.load(Ordering::Relaxed)
    }

    /// What could not be sent or read since start.
    pub fn errors(&self) -> u64 {
        self.errors.load(Ordering::Relaxed)
    }

    fn error(&self) {
        self.errors.fetch_add(1, Ordering::Relaxed);
    }

    fn channel(&self) -> String {
        format!("{}:pub", self.ns)
    }

    fn mailbox(&self, topic: &str) -> String {
        format!("{}:m:{topic}", self.ns)
    }

    /// Passes a message accepted here on to the other instances (and keeps it in Redis for its
    /// ttl). Never waits: a full queue counts an error. For a kept message, a receiver told once
    /// Redis holds it (dropped unanswered when it could not).
    pub fn publish(&self, topic: &str, message: &str, published_at: u64, tag: u64, expires_at: u64) -> Option<oneshot::Receiver<()>> {
        let r = Remote { o: self.id.clone(), t: topic.to_string(), m: message.to_string(), p: published_at, g: tag, e: expires_at };
        let (tx, rx) = if expires_at > published_at { let (tx, rx) = oneshot::channel(); (Some(tx), Some(rx)) } else { (None, None) };
        if self.jobs.try_send(Job::Publish(r, tx)).is_err() {
            self.error();
            return None;
        }
        rx
    }

    /// The messages Redis keeps for `topic` and still live at `now` (oldest first); none when
    /// Redis does not answer within [`FETCH_WAIT`].
    pub async fn fetch(&self, topic: &str, now: u64) -> Vec<Remote> {
        let (tx, rx) = oneshot::channel();
        if self.jobs.try_send(Job::Fetch(topic.to_string(), tx)).is_err() {
            self.error();
            return Vec::new();
        }
        match tokio::time::timeout(FETCH_WAIT, rx).await {
            Ok(Ok(list)) => list.into_iter().filter(|r| r.e > now && r.t == topic).collect(),
            _ => {
                self.error();
                Vec::new()
            }
        }
    }
}

/// A message read back from Redis (bounded, and a topic like a publish's), or None.
fn parse(bytes: &[u8], max_message: usize) -> Option<Remote> {
    if bytes.len() > max_message + 1024 {
        return None;
    }
    let r: Remote = serde_json::from_slice(bytes).ok()?;
    (super::valid_topic(&r.t) && r.m.len() <= max_message && r.o.len() <= 64).then_some(r)
}

async fn pause(failures: &mut u32) {
    let wait = Duration::from_millis(200).saturating_mul(1 << (*failures).min(4)).min(Duration::from_secs(2));
    *failures += 1;
    tokio::time::sleep(wait).await;
}

/// The command link: publishes and fetches, pipelined in batches.
async fn commands(cluster: Weak<Cluster>, url: RedisUrl, mut jobs: mpsc::Receiver<Job>) {
    let mut failures = 0;
    let mut held: Vec<Job> = Vec::new();
    loop {
        let Some(c) = cluster.upgrade() else { return };
        let max_message = c.max_message;
        let mut conn = match Conn::connect(&url, CONNECT_WAIT).await {
            Ok(conn) => conn,
            Err(_) => {
                c.commands_up.store(false, Ordering::Relaxed);
                // What waits meanwhile is not kept: each is an error (a fetch answers nothing).
                while let Ok(job) = jobs.try_recv() {
                    drop(job);
                    c.error();
                }
                drop(c);
                pause(&mut failures).await;
                continue;
            }
        };
        c.commands_up.store(true, Ordering::Relaxed);
        failures = 0;
        drop(c);
        loop {
            if held.is_empty() {
                match jobs.recv().await {
                    Some(job) => held.push(job),
                    None => return,
                }
            }
            while held.len() < BATCH {
                match jobs.try_recv() {
                    Ok(job) => held.push(job),
                    Err(_) => break,
                }
            }
            let Some(c) = cluster.upgrade() else { return };
            let mut replies = 0;
            for job in &held {
                match job {
                    Job::Publish(r, _) => {
                        let body = serde_json::to_vec(r).unwrap_or_default();
                        conn.push(&[b"PUBLISH", c.channel().as_bytes(), &body]);
                        replies += 1;
                        if r.e > r.p {
                            let key = c.mailbox(&r.t);
                            let at = r.e.to_string();
                            conn.push(&[b"RPUSH", key.as_bytes(), &body]);
                            conn.push(&[b"LTRIM", key.as_bytes(), format!("-{}", c.mailbox_limit).as_bytes(), b"-1"]);
                            // The key lives as long as its longest-lived message.
                            conn.push(&[b"PEXPIREAT", key.as_bytes(), at.as_bytes(), b"NX"]);
                            conn.push(&[b"PEXPIREAT", key.as_bytes(), at.as_bytes(), b"GT"]);
                            replies += 4;
                        }
                    }
                    Job::Fetch(topic, _) => {
                        conn.push(&[b"LRANGE", c.mailbox(topic).as_bytes(), b"0", b"-1"]);
                        replies += 1;
                    }
                }
            }
            let mut ok = conn.flush().await.is_ok();
            let mut answers = Vec::with_capacity(held.len());
            if ok {
                let read = async {
                    let mut all = Vec::with_capacity(replies);
                    for _ in 0..replies {
                        all.push(conn.read().await?);
                    }
                    std::io::Result::Ok(all)
                };
                match tokio::time::timeout(Duration::from_secs(5), read).await {
                    Ok(Ok(all)) => answers = all,
                    _ => ok = false,
                }
            }
            let mut at = 0;
            for job in held.drain(..) {
                match job {
                    Job::Publish(r, kept) => {
                        let n = if r.e > r.p { 5 } else { 1 };
                        if !ok || answers[at..at + n].iter().any(|a| matches!(a, Reply::Error(_))) {
                            c.error();
                        } else if let Some(kept) = kept {
                            let _ = kept.send(());
                        }
                        at += n;
                    }
                    Job::Fetch(_, reply) => {
                        let list = if ok {
                            answers[at].clone().into_array().unwrap_or_default().into_iter().filter_map(|r| r.into_bulk()).filter_map(|b| parse(&b, max_message)).collect()
                        } else {
                            Vec::new()
                        };
                        at += 1;
                        let _ = reply.send(list);
                    }
                }
            }
            if !ok {
                c.error();
                c.commands_up.store(false, Ordering::Relaxed);
                break;
            }
        }
        pause(&mut failures).await;
    }
}

/// The subscriber link: what other instances publish, handed to the sockets connected here.
async fn subscriber(relay: Weak<Relay>, cluster: Weak<Cluster>, url: RedisUrl) {
    let mut failures = 0;
    loop {
        let Some(c) = cluster.upgrade() else { return };
        let (id, channel) = (c.id.clone(), c.channel());
        let linked = async {
            let mut conn = Conn::connect(&url, CONNECT_WAIT).await?;
            conn.push(&[b"SUBSCRIBE", channel.as_bytes()]);
            conn.flush().await?;
            tokio::time::timeout(CONNECT_WAIT, conn.read()).await.map_err(|_| std::io::Error::other("Redis did not confirm the subscription"))??;
            std::io::Result::Ok(conn)
        };
        let mut conn = match linked.await {
            Ok(conn) => conn,
            Err(_) => {
                c.subscribed.store(false, Ordering::Relaxed);
                c.error();
                drop(c);
                pause(&mut failures).await;
                continue;
            }
        };
        c.subscribed.store(true, Ordering::Relaxed);
        drop(c);
        // Linked (again, after a break): what the others kept meanwhile for the topics here.
        if let Some(relay) = relay.upgrade() {
            tokio::spawn(async move { relay.catch_up().await });
        }
        failures = 0;
        loop {
            // (Reads wait as long as the channel is quiet; a dropped relay ends the task at the
            // next message, and a dead connection ends the read.)
            let reply = conn.read().await;
            let Some(relay) = relay.upgrade() else { return };
            let Ok(reply) = reply else {
                if let Some(c) = cluster.upgrade() {
                    c.subscribed.store(false, Ordering::Relaxed);
                    c.error();
                }
                break;
            };
            let Some(mut parts) = reply.into_array() else { continue };
            if parts.len() != 3 {
                continue;
            }
            let Some(body) = parts.pop().and_then(Reply::into_bulk) else { continue };
            let Some(r) = parse(&body, relay.config().max_message_bytes) else {
                if let Some(c) = cluster.upgrade() {
                    c.error();
                }
                continue;
            };
            if r.o != id {
                relay.deliver_remote(&r);
            }
        }
        pause(&mut failures).await;
    }
}
