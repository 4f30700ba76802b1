//! What a slice is: the one interface between the engine and a capability.
//!
//! A slice owns its state, its event type and its part of the snapshot. The engine hands it its
//! events, the answers to the requests it made (each request carries the [`SliceId`] that asked),
//! its timers, and the [`Note`]s other slices raised; it acts through the [`super::Ctx`].

use super::Ctx;
use crate::service::json::Value;
use crate::service::errors::WmError;
use crate::ui::modal::ModalEvent;
use crate::ui::router::View;

/// Which slice made a request or started a timer, so the answer goes back to it. A request id
/// carries it in its low 4 bits ([`super::Ctx::request_id`]): room for 16 slices.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum SliceId {
    Ui = 0,
    Service = 1,
    Connect = 2,
    Switch = 3,
    Account = 4,
    /// The account module's slices (lazily loaded, `account::module`): their answers go to it.
    Portfolio = 5,
    Activity = 6,
    Send = 7,
    Nfts = 8,
    /// The trade modules' slices (each its own lazily loaded module, `trade::module`).
    Swap = 9,
    Buy = 10,
}

impl SliceId {
    /// Whether the slice lives in the lazily loaded account module (the shell routes its answers).
    pub fn in_account_module(self) -> bool {
        matches!(self, SliceId::Portfolio | SliceId::Activity | SliceId::Send | SliceId::Nfts)
    }

    /// The slice a request id names.
    pub fn of_request(id: u64) -> Option<SliceId> {
        use SliceId::*;
        [Ui, Service, Connect, Switch, Account, Portfolio, Activity, Send, Nfts, Swap, Buy].get((id & 15) as usize).copied()
    }
}

/// What one slice tells the others. Raised through [`Ctx::note`], delivered to every slice after the
/// event that raised it, in order.
#[derive(Clone, Debug, PartialEq)]
pub enum Note {
    /// The modal opened.
    Opened,
    /// The modal closed (the visitor gave up whatever was under way in it).
    Closed,
    /// This view is now shown after a navigation: load what it needs.
    Shown(View),
    /// The modal opened or closed, for analytics.
    Analytics(ModalEvent),
    /// A wallet connected (or reconnected).
    Connected,
    /// The connected account changed.
    AccountsChanged,
    /// The connected wallet's chain changed (already applied to the connections).
    ChainChanged { chain: String },
    /// A namespace lost its last connection.
    Disconnected,
}

/// A wallet's answer to a request: its result, or its error read as a [`WmError`].
pub type Outcome = Result<Value, WmError>;

/// The interface of a capability. Every method but `handle` has a default that ignores.
pub trait Slice {
    type Event;
    /// One of this slice's events.
    fn handle(&mut self, event: Self::Event, ctx: &mut Ctx);
    /// A note from a slice (this one included).
    fn on_note(&mut self, _note: &Note, _ctx: &mut Ctx) {}
    /// The wallet answered a request this slice made.
    fn on_provider_result(&mut self, _id: u64, _outcome: Outcome, _ctx: &mut Ctx) {}
    /// A server answered a request this slice made (`status` 0: no answer).
    fn on_fetch_result(&mut self, _id: u64, _status: u16, _body: &str, _ctx: &mut Ctx) {}
    /// A timer this slice started fired.
    fn on_timer(&mut self, _id: &str, _ctx: &mut Ctx) {}
}

/// A slice's outstanding requests by id, with what each is for. A few at a time: lists are as fast
/// as a map here and much smaller in WebAssembly (the id search is shared by every slice).
#[derive(Debug)]
pub struct Requests<T> {
    ids: Vec<u64>,
    what: Vec<T>,
}

impl<T> Default for Requests<T> {
    fn default() -> Self {
        Requests { ids: Vec::new(), what: Vec::new() }
    }
}

#[inline(never)]
fn position(ids: &[u64], id: u64) -> Option<usize> {
    ids.iter().position(|k| *k == id)
}

impl<T> Requests<T> {
    pub fn insert(&mut self, id: u64, what: T) {
        self.ids.push(id);
        self.what.push(what);
    }

    pub fn remove(&mut self, id: u64) -> Option<T> {
        let i = position(&self.ids, id)?;
        self.ids.remove(i);
        Some(self.what.remove(i))
    }

    pub fn any(&self, f: impl Fn(&T) -> bool) -> bool {
        self.what.iter().any(f)
    }

    /// Drops the requests `f` selects (their answers, if any come, are then ignored); returns
    /// whether there was one.
    pub fn drop_where(&mut self, f: impl Fn(&T) -> bool) -> bool {
        let mut dropped = false;
        let mut i = 0;
        while i < self.ids.len() {
            if f(&self.what[i]) {
                self.ids.remove(i);
                self.what.remove(i);
                dropped = true;
            } else {
                i += 1;
            }
        }
        dropped
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_request_id_names_the_slice_that_asked() {
        let mut ctx = super::super::Ctx::new();
        for slice in [SliceId::Ui, SliceId::Service, SliceId::Connect, SliceId::Switch, SliceId::Account] {
            let id = ctx.request_id(slice);
            assert_eq!(SliceId::of_request(id), Some(slice));
        }
        assert!(SliceId::Portfolio.in_account_module() && !SliceId::Account.in_account_module());
    }

    #[test]
    fn requests_are_found_once_and_dropped_by_what_they_are_for() {
        let mut r: Requests<&str> = Requests::default();
        r.insert(1, "a");
        r.insert(2, "b");
        r.insert(3, "a");
        assert!(r.any(|t| *t == "b"));
        assert_eq!(r.remove(2), Some("b"));
        assert_eq!(r.remove(2), None, "an answer is taken once");
        assert!(r.drop_where(|t| *t == "a"));
        assert!(!r.drop_where(|t| *t == "a"), "nothing left to drop");
        assert!(!r.any(|_| true));
    }
}
