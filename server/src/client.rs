//! Who is asking: the peer address of a request, and per-client token buckets.
//!
//! Both listeners serve with connect info ([`crate::http::serve`]): every request carries
//! axum's `ConnectInfo<SocketAddr>` of its TCP peer. A *client* is the peer's IP address (an IPv6
//! peer is taken by its /64, the block one subscriber usually holds; an IPv4-mapped IPv6 address
//! is its IPv4 address). No `X-Forwarded-For` is read: the backend binds loopback and has no proxy
//! in front of it, so such a header would only be a way to pose as someone else.
//!
//! The bounds built on it (the wallet service's tables and budgets, the relay's stored bytes, the
//! on-ramp's orders) keep one client from using what belongs to everyone: a flood from one address
//! is refused or evicts its own entries, never another client's.

use std::collections::HashMap;
use std::convert::Infallible;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::sync::Mutex;
use std::time::Duration;

use axum::extract::connect_info::ConnectInfo;
use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::http::Extensions;
use tokio::time::Instant;

/// The client a request comes from: its peer's IP address (IPv6 by /64).
pub type Client = IpAddr;

/// The client of a request without connect info (a router driven without a listener): all such
/// requests share it.
pub const UNKNOWN: Client = IpAddr::V4(Ipv4Addr::UNSPECIFIED);

/// The client of `ip`.
pub fn of_ip(ip: IpAddr) -> Client {
    match ip {
        IpAddr::V4(v4) => IpAddr::V4(v4),
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => {
                let s = v6.segments();
                IpAddr::V6(Ipv6Addr::new(s[0], s[1], s[2], s[3], 0, 0, 0, 0))
            }
        },
    }
}

/// The client of a request, from its `ConnectInfo<SocketAddr>`.
/// A client as a store wrote it (its address); an unreadable one is charged to 0.0.0.0.
pub fn from_stored(text: &str) -> Client {
    text.parse().unwrap_or(std::net::Ipv4Addr::UNSPECIFIED.into())
}

pub fn of(extensions: &Extensions) -> Client {
    extensions
        .get::<ConnectInfo<SocketAddr>>()
        .map_or(UNKNOWN, |c| of_ip(c.0.ip()))
}

/// A handler's client, from the request's connect info; never refused ([`UNKNOWN`] without it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Peer(pub Client);

impl<S: Send + Sync> FromRequestParts<S> for Peer {
    type Rejection = Infallible;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Self::Rejection> {
        Ok(Peer(of(&parts.extensions)))
    }
}

/// Seconds to wait, rounded up (at least 1).
pub fn seconds(d: Duration) -> u64 {
    d.as_millis().div_ceil(1000).max(1) as u64
}

/// A token bucket's size: `burst` requests at once, then one more each `every`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budget {
    pub burst: u32,
    pub every: Duration,
}

#[derive(Debug, Clone, Copy)]
struct Bucket {
    tokens: f64,
    at: Instant,
}

impl Bucket {
    fn refill(&mut self, b: &Budget, now: Instant) {
        let per_second = 1.0 / b.every.as_secs_f64().max(1e-9);
        let gained = now.duration_since(self.at).as_secs_f64() * per_second;
        self.tokens = (self.tokens + gained).min(f64::from(b.burst));
        self.at = now;
    }
}

/// One token bucket per client, at most `max_clients` of them. A bucket that has refilled is the
/// same as none: those are dropped first when the map is full, then the fullest one (the client
/// closest to a fresh budget gains the least from being forgotten).
#[derive(Debug)]
pub struct Buckets {
    budget: Budget,
    max_clients: usize,
    map: Mutex<HashMap<Client, Bucket>>,
}

impl Buckets {
    pub fn new(budget: Budget, max_clients: usize) -> Self {
        Buckets {
            budget,
            max_clients: max_clients.max(1),
            map: Mutex::new(HashMap::new()),
        }
    }

    /// Takes one token of `client`'s, or says in how many seconds one is back.
    pub fn take(&self, client: Client) -> Result<(), u64> {
        let b = self.budget;
        let now = Instant::now();
        let mut m = self.map.lock().unwrap();
        if !m.contains_key(&client) && m.len() >= self.max_clients {
            let full = f64::from(b.burst);
            m.retain(|_, k| {
                k.refill(&b, now);
                k.tokens < full
            });
            if m.len() >= self.max_clients {
                let fullest = m
                    .iter()
                    .max_by(|x, y| x.1.tokens.total_cmp(&y.1.tokens))
                    .map(|(c, _)| *c);
                if let Some(c) = fullest {
                    m.remove(&c);
                }
            }
        }
        let k = m.entry(client).or_insert(Bucket {
            tokens: f64::from(b.burst),
            at: now,
        });
        k.refill(&b, now);
        if k.tokens >= 1.0 {
            k.tokens -= 1.0;
            Ok(())
        } else {
            Err(seconds(b.every.mul_f64(1.0 - k.tokens)))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ipv6_clients_are_their_64_and_mapped_ipv4_is_ipv4() {
        let a: IpAddr = "2001:db8:1:2:aaaa::1".parse().unwrap();
        let b: IpAddr = "2001:db8:1:2:bbbb::2".parse().unwrap();
        let c: IpAddr = "2001:db8:1:3::1".parse().unwrap();
        assert_eq!(of_ip(a), of_ip(b));
        assert_ne!(of_ip(a), of_ip(c));
        let mapped: IpAddr = "::ffff:127.0.0.2".parse().unwrap();
        assert_eq!(of_ip(mapped), "127.0.0.2".parse::<IpAddr>().unwrap());
    }

    #[test]
    fn a_bucket_gives_its_burst_then_one_per_period() {
        let b = Buckets::new(
            Budget {
                burst: 3,
                every: Duration::from_secs(10),
            },
            10,
        );
        let me: Client = "127.0.0.1".parse().unwrap();
        let other: Client = "127.0.0.2".parse().unwrap();
        for _ in 0..3 {
            assert_eq!(b.take(me), Ok(()));
        }
        assert_eq!(b.take(me), Err(10));
        assert_eq!(b.take(other), Ok(()), "another client has its own");
    }

    #[test]
    fn a_full_map_forgets_the_fullest_bucket_never_refuses() {
        let budget = Budget {
            burst: 2,
            every: Duration::from_secs(3600),
        };
        let b = Buckets::new(budget, 2);
        let ip = |n: u8| IpAddr::V4(Ipv4Addr::new(127, 0, 0, n));
        b.take(ip(1)).unwrap();
        b.take(ip(1)).unwrap();
        b.take(ip(2)).unwrap();
        // A third client: ip(2) (one token left) is forgotten, not ip(1) (spent).
        b.take(ip(3)).unwrap();
        assert!(b.take(ip(1)).is_err(), "the spent bucket is kept");
    }
}
