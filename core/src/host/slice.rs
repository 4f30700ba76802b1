//! What a slice is: the one interface between the host and a capability, and how a list of slices
//! becomes a host's fan-out.
//!
//! A slice owns its state, the JSON event types it reads, the snapshot keys it writes, its timers
//! and its tests. The host hands it its events, the answers to the requests it made (a request id
//! carries the slice's place in its host), its timers and every [`Note`]; it acts through the
//! [`Ctx`]. A slice never calls another slice: it raises notes, or asks another slice's connector
//! through the shell like any wallet (see [`Slice::CONNECTORS`]).

use super::json::Fields;
use super::note::Note;
use super::Ctx;
use crate::service::errors::WmError;
use crate::service::json::{Value, Writer};
use crate::ui::router::View;

/// A wallet's (or a connector's) answer to a request: its result, or its error read as a [`WmError`].
pub type Outcome = Result<Value, WmError>;

/// The interface of a capability. Every method has a default that ignores.
pub trait Slice: Default {
    /// Its name in the route table.
    const NAME: &'static str;
    /// The JSON event types (`{"type": …}`) it reads; no other slice of any module reads them.
    const EVENTS: &'static [&'static str] = &[];
    /// The snapshot keys it writes; no other slice of any module writes them.
    const PARTS: &'static [&'static str] = &[];
    /// Views that need it: when one shows, the shell loads the module this slice ships in.
    const VIEWS: &'static [View] = &[];
    /// Connectors it answers (`{"type": "request", "connector", "key", "method", "params"}`, and
    /// `{"type": "release", "connector"}`): a request to one loads the module it ships in.
    const CONNECTORS: &'static [&'static str] = &[];

    /// One of its events (its `type` is in [`Slice::EVENTS`], or `request`/`release` for one of
    /// its connectors). A malformed event is an `Err` and changes nothing.
    fn event(&mut self, _ty: &str, _o: &mut Fields, _ctx: &mut Ctx) -> Result<(), String> {
        Ok(())
    }
    /// A note: raised in this host (this slice's included) or forwarded from another.
    fn on_note(&mut self, _note: &Note, _ctx: &mut Ctx) {}
    /// A wallet (or connector) answered a request this slice made.
    fn on_provider_result(&mut self, _id: u64, _outcome: Outcome, _ctx: &mut Ctx) {}
    /// A server answered a request this slice made (`status` 0: no answer).
    fn on_fetch_result(&mut self, _id: u64, _status: u16, _body: &str, _ctx: &mut Ctx) {}
    /// A timer this slice started fired.
    fn on_timer(&mut self, _id: &str, _ctx: &mut Ctx) {}
    /// Writes its keys ([`Slice::PARTS`]) into the snapshot object.
    fn write(&self, _ctx: &Ctx, _w: &mut Writer) {}
}

/// What the route table says of one slice.
#[derive(Clone, Debug)]
pub struct SliceInfo {
    pub name: &'static str,
    pub events: &'static [&'static str],
    pub parts: &'static [&'static str],
    pub views: &'static [View],
    pub connectors: &'static [&'static str],
}

/// A host's list of slices (a tuple of [`Slice`]s): the fan-out, written once for every list by
/// [`tuple_slices!`]. A request id and a timer carry the asking slice's place in the tuple.
pub trait Slices: Default {
    /// Hands an event to the slice that reads its type; `None` when none does.
    fn event(&mut self, ty: &str, o: &mut Fields, ctx: &mut Ctx) -> Option<Result<(), String>>;
    /// Hands a connector's `request`/`release` to the slice that answers it; `None` when none does.
    fn connector(&mut self, connector: &str, ty: &str, o: &mut Fields, ctx: &mut Ctx) -> Option<Result<(), String>>;
    fn note(&mut self, note: &Note, ctx: &mut Ctx);
    fn provider_result(&mut self, slice: usize, id: u64, outcome: Outcome, ctx: &mut Ctx);
    fn fetch_result(&mut self, slice: usize, id: u64, status: u16, body: &str, ctx: &mut Ctx);
    fn timer(&mut self, slice: usize, id: &str, ctx: &mut Ctx);
    fn write(&self, ctx: &Ctx, w: &mut Writer);
    fn describe(out: &mut Vec<SliceInfo>);
}

macro_rules! tuple_slices {
    ($($T:ident $i:tt),+) => {
        impl<$($T: Slice),+> Slices for ($($T,)+) {
            fn event(&mut self, ty: &str, o: &mut Fields, ctx: &mut Ctx) -> Option<Result<(), String>> {
                $(
                    if $T::EVENTS.contains(&ty) {
                        ctx.slice = $i;
                        return Some(self.$i.event(ty, o, ctx));
                    }
                )+
                None
            }
            fn connector(&mut self, connector: &str, ty: &str, o: &mut Fields, ctx: &mut Ctx) -> Option<Result<(), String>> {
                $(
                    if $T::CONNECTORS.contains(&connector) {
                        ctx.slice = $i;
                        return Some(self.$i.event(ty, o, ctx));
                    }
                )+
                None
            }
            fn note(&mut self, note: &Note, ctx: &mut Ctx) {
                $(
                    ctx.slice = $i;
                    self.$i.on_note(note, ctx);
                )+
            }
            fn provider_result(&mut self, slice: usize, id: u64, outcome: Outcome, ctx: &mut Ctx) {
                ctx.slice = slice;
                match slice {
                    $($i => self.$i.on_provider_result(id, outcome, ctx),)+
                    _ => {}
                }
            }
            fn fetch_result(&mut self, slice: usize, id: u64, status: u16, body: &str, ctx: &mut Ctx) {
                ctx.slice = slice;
                match slice {
                    $($i => self.$i.on_fetch_result(id, status, body, ctx),)+
                    _ => {}
                }
            }
            fn timer(&mut self, slice: usize, id: &str, ctx: &mut Ctx) {
                ctx.slice = slice;
                match slice {
                    $($i => self.$i.on_timer(id, ctx),)+
                    _ => {}
                }
            }
            fn write(&self, ctx: &Ctx, w: &mut Writer) {
                $(self.$i.write(ctx, w);)+
            }
            fn describe(out: &mut Vec<SliceInfo>) {
                $(out.push(SliceInfo { name: $T::NAME, events: $T::EVENTS, parts: $T::PARTS, views: $T::VIEWS, connectors: $T::CONNECTORS });)+
            }
        }
    };
}

tuple_slices!(A 0);
tuple_slices!(A 0, B 1);
tuple_slices!(A 0, B 1, C 2);
tuple_slices!(A 0, B 1, C 2, D 3);
tuple_slices!(A 0, B 1, C 2, D 3, E 4);
tuple_slices!(A 0, B 1, C 2, D 3, E 4, F 5);
tuple_slices!(A 0, B 1, C 2, D 3, E 4, F 5, G 6);
tuple_slices!(A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7);
tuple_slices!(A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7, I 8);
tuple_slices!(A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7, I 8, J 9);

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

    pub fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
