//! The mail slot of each address: at most one code mail per address per window, and the backoff
//! after burned codes (each doubles the wait for the next code, up to a bound).

use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde::{Deserialize, Serialize};
use tokio::time::Instant;

use super::store::durable::{instant_to_wall, wall_ms, wall_to_instant, Durable, StoreError};
use super::table::{ClientTable, Lifetime, NoRoom};
use crate::client::{seconds, Client};

/// The store's kind of these entries.
const KIND: &str = "mail-gate";

/// A gate as the store keeps it.
#[derive(Serialize, Deserialize)]
struct StoredGate {
    client: String,
    free_at_ms: u64,
    burned: u32,
    forget_at_ms: u64,
    backoff: bool,
}

/// A gate's store body read back, charged to its client (None when damaged).
fn parse_gate(body: &str) -> Option<(Client, Gate)> {
    let g = serde_json::from_str::<StoredGate>(body).ok()?;
    let gate = Gate { free_at: wall_to_instant(g.free_at_ms), burned: g.burned, forget_at: wall_to_instant(g.forget_at_ms), backoff: g.backoff };
    Some((crate::client::from_stored(&g.client), gate))
}

/// The mail slot of one address: when its next code mail may go, and its burned codes.
#[derive(Debug, Clone, Copy)]
struct Gate {
    free_at: Instant,
    /// Codes burned (wrong tries) since the last login, forgotten at `forget_at`.
    burned: u32,
    forget_at: Instant,
    /// Whether `free_at` was pushed back by a burned code (the 429 then says why).
    backoff: bool,
}

impl Lifetime for Gate {
    fn expired(&self, now: Instant) -> bool {
        now >= self.free_at && (self.burned == 0 || now >= self.forget_at)
    }
    /// A record of burned codes is the guessers' brake: newer requests of a client never push it
    /// out (it would reset the backoff); only its expiry does.
    fn evictable(&self) -> bool {
        self.burned == 0
    }
}

/// Why an address's mail slot was not given.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Held {
    /// Seconds to wait; `backoff`: because of burned codes.
    Wait {
        seconds: u64,
        backoff: bool,
    },
    NoRoom(NoRoom),
}

/// How long an address waits between code mails (docs/embedded-wallet.md §2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pace {
    /// Between two mails to one address.
    pub window: Duration,
    /// Each burned code doubles the wait (from `window`) up to this.
    pub max_backoff: Duration,
    /// Burned codes are forgotten this long after the last one (or at a login).
    pub memory: Duration,
}

/// At most one code mail per address in each window, longer after burned codes; one slot per
/// address (keys are addresses, or `change:<address>` for the email-change mails), charged to the
/// client that asked.
///
/// With a durable store every change is written there: a restart neither lets an address be
/// mailed again at once nor forgets its burned codes (a guesser's backoff).
#[derive(Debug)]
pub struct Throttle {
    gates: Mutex<ClientTable<String, Gate>>,
    pace: Pace,
    durable: Option<Arc<dyn Durable>>,
}

impl Throttle {
    pub fn new(pace: Pace, max: usize, max_per_client: usize) -> Self {
        Throttle {
            gates: Mutex::new(ClientTable::new(max, max_per_client)),
            pace,
            durable: None,
        }
    }

    /// The gates of a durable store: each read from it when its address asks for a mail; every
    /// change written there.
    pub fn durable(pace: Pace, max: usize, max_per_client: usize, durable: Arc<dyn Durable>) -> Result<Self, StoreError> {
        Ok(Throttle { gates: Mutex::new(ClientTable::new(max, max_per_client)), pace, durable: Some(durable) })
    }

    /// Makes `key`'s gate here the one the durable store holds (other server processes share the
    /// slots of every address); answers the body read, what a write then expects. Without a store,
    /// or when it cannot be read, the gate here stands.
    fn refresh(&self, m: &mut ClientTable<String, Gate>, key: &str) -> Result<Option<String>, StoreError> {
        let Some(d) = &self.durable else { return Ok(None) };
        let held = d.entry(KIND, key, wall_ms())?;
        m.refresh(key.to_string(), held.as_deref(), parse_gate);
        Ok(held)
    }

    /// `key`'s gate as the store keeps it: `(until, body)`.
    fn body(g: &Gate, client: Client) -> Result<(u64, String), StoreError> {
        let stored = StoredGate {
            client: client.to_string(),
            free_at_ms: instant_to_wall(g.free_at),
            burned: g.burned,
            forget_at_ms: instant_to_wall(g.forget_at),
            backoff: g.backoff,
        };
        let until = if g.burned > 0 { stored.free_at_ms.max(stored.forget_at_ms) } else { stored.free_at_ms };
        let body = serde_json::to_string(&stored).map_err(|e| StoreError(format!("the wallet store could not write a mail gate: {e}")))?;
        Ok((until, body))
    }

    /// Writes `key`'s gate (or its removal) to the durable store, if any.
    fn write(&self, key: &str, gate: Option<(&Gate, Client)>) -> Result<(), StoreError> {
        let Some(d) = &self.durable else { return Ok(()) };
        let Some((g, client)) = gate else { return d.delete_entry(KIND, key) };
        let (until, body) = Self::body(g, client)?;
        d.put_entry(KIND, key, until, &body)
    }

    /// Writes `key`'s gate as the table holds it now (a failure is counted by the store's metric:
    /// the gate then lives in this process only).
    fn write_current(&self, m: &ClientTable<String, Gate>, key: &str) {
        let k = key.to_string();
        let _ = self.write(key, m.get(&k).zip(m.client_of(&k)));
    }

    /// Takes `key`'s slot now for `client`, or says why not.
    pub fn take(&self, key: &str, client: Client) -> Result<(), Held> {
        let now = Instant::now();
        let mut m = crate::wallet::table::lock(&self.gates);
        let held = self.refresh(&mut m, key).map_err(|_| Held::NoRoom(NoRoom::Store))?;
        let k = key.to_string();
        // With a store, its gate decides (also when this process's table has no room for it).
        let current = match &self.durable {
            Some(_) => held.as_deref().and_then(parse_gate).map(|(_, g)| g),
            None => m.get(&k).copied(),
        };
        let mut gate = match current.as_ref() {
            Some(g) if now < g.free_at => {
                return Err(Held::Wait {
                    seconds: seconds(g.free_at - now),
                    backoff: g.backoff,
                })
            }
            Some(g) if g.burned > 0 && now < g.forget_at => *g,
            _ => Gate {
                free_at: now,
                burned: 0,
                forget_at: now,
                backoff: false,
            },
        };
        gate.free_at = now + self.pace.window;
        gate.backoff = false;
        // Durable before the mail goes: a restart does not open the slot again; and taken there
        // only if no other server process took it since it was read.
        if let Some(d) = &self.durable {
            let (until, body) = Self::body(&gate, client).map_err(|_| Held::NoRoom(NoRoom::Store))?;
            match d.swap_entry(KIND, key, held.as_deref(), Some((until, &body)), wall_ms()) {
                Ok(true) => {}
                Ok(false) => {
                    m.remove(&k);
                    return Err(Held::Wait { seconds: seconds(self.pace.window), backoff: false });
                }
                Err(_) => return Err(Held::NoRoom(NoRoom::Store)),
            }
        }
        m.insert(k, client, gate).map_err(Held::NoRoom)
    }

    /// Gives the slot back (the mail could not be sent).
    pub fn release(&self, key: &str) {
        let now = Instant::now();
        let mut m = crate::wallet::table::lock(&self.gates);
        let _ = self.refresh(&mut m, key);
        let k = key.to_string();
        match m.get_mut(&k) {
            Some(g) if g.burned > 0 => g.free_at = now,
            Some(_) => {
                m.remove(&k);
            }
            None => return,
        }
        self.write_current(&m, key);
    }

    /// A code mailed to `key` was burned: the next one waits twice as long as after the previous
    /// burn (from the window, at most `max_backoff`).
    pub fn burn(&self, key: &str) {
        let now = Instant::now();
        let mut m = crate::wallet::table::lock(&self.gates);
        let _ = self.refresh(&mut m, key);
        let Some(g) = m.get_mut(&key.to_string()) else {
            return;
        };
        g.burned = g.burned.saturating_add(1);
        let wait = self
            .pace
            .window
            .saturating_mul(2u32.saturating_pow(g.burned.min(31)))
            .min(self.pace.max_backoff);
        if now + wait > g.free_at {
            g.free_at = now + wait;
            g.backoff = true;
        }
        g.forget_at = now + self.pace.memory;
        self.write_current(&m, key);
    }

    /// The address logged in: its burned codes are forgotten (the window still holds).
    pub fn clear_burns(&self, key: &str) {
        let mut m = crate::wallet::table::lock(&self.gates);
        let _ = self.refresh(&mut m, key);
        if let Some(g) = m.get_mut(&key.to_string()) {
            g.burned = 0;
            g.backoff = false;
            self.write_current(&m, key);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(n: u8) -> Client {
        std::net::IpAddr::V4(std::net::Ipv4Addr::new(127, 0, 0, n))
    }

    fn pace() -> Pace {
        Pace {
            window: Duration::from_secs(30),
            max_backoff: Duration::from_secs(3600),
            memory: Duration::from_secs(24 * 3600),
        }
    }

    #[test]
    fn with_a_durable_store_the_wait_and_the_backoff_outlive_the_process() {
        let (_dir, d) = crate::wallet::store::durable::contract::temp_sqlite("throttle");
        let t = Throttle::durable(pace(), 10, 10, d.clone()).unwrap();
        t.take("a", ip(1)).unwrap();
        t.take("b", ip(1)).unwrap();
        t.burn("b");
        t.take("c", ip(1)).unwrap();
        t.release("c");
        let t = Throttle::durable(pace(), 10, 10, d.clone()).unwrap();
        assert!(matches!(t.take("a", ip(1)), Err(Held::Wait { seconds: 29..=30, backoff: false })), "the window holds after a restart");
        assert!(matches!(t.take("b", ip(1)), Err(Held::Wait { seconds: 59..=60, backoff: true })), "and the backoff of a burned code");
        assert_eq!(t.take("c", ip(1)), Ok(()), "a released slot stays free");
    }

    #[test]
    fn throttle_says_the_seconds_left() {
        let t = Throttle::new(pace(), 2, 2);
        assert_eq!(t.take("a", ip(1)), Ok(()));
        let wait = Held::Wait {
            seconds: 30,
            backoff: false,
        };
        assert_eq!(t.take("a", ip(1)), Err(wait));
        assert_eq!(t.take("b", ip(1)), Ok(()));
        assert_eq!(t.take("c", ip(2)), Err(Held::NoRoom(NoRoom::Full)));
        t.release("a");
        assert_eq!(t.take("a", ip(1)), Ok(()));
        assert_eq!(seconds(Duration::from_millis(29_001)), 30);
        assert_eq!(seconds(Duration::from_millis(1)), 1);
    }

    #[test]
    fn each_burned_code_doubles_the_wait_up_to_an_hour() {
        let t = Throttle::new(pace(), 10, 10);
        t.take("a", ip(1)).unwrap();
        let mut waits = Vec::new();
        for _ in 0..8 {
            t.burn("a");
            match t.take("a", ip(1)) {
                Err(Held::Wait { seconds, backoff }) => {
                    assert!(backoff);
                    waits.push(seconds)
                }
                other => panic!("{other:?}"),
            }
        }
        assert_eq!(waits, [60, 120, 240, 480, 960, 1920, 3600, 3600]);
        // A login forgets the burns; the pending wait stays.
        t.clear_burns("a");
        assert!(matches!(t.take("a", ip(1)), Err(Held::Wait { .. })));
    }

    #[test]
    fn a_backoff_record_is_never_evicted_by_its_clients_newer_requests() {
        let t = Throttle::new(pace(), 100, 2);
        t.take("victim", ip(2)).unwrap();
        t.burn("victim");
        for i in 0..10 {
            let _ = t.take(&format!("flood{i}"), ip(2));
        }
        assert!(matches!(
            t.take("victim", ip(2)),
            Err(Held::Wait { backoff: true, .. })
        ));
    }
}
