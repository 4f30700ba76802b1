//! The wallet service's stores: accounts (with the key ciphertext and address), the key store (the
//! key-encryption keys, apart), sessions, device approvals and pending email changes — in memory,
//! the accounts and keys written through to the durable store when there is one ([`durable`]).
//! Each has its own lock, held only for a lookup or an update, never across an await. Every table
//! is bounded, per client too ([`ClientTable`](super::table::ClientTable)).

mod accounts;
mod approvals;
pub mod durable;
mod keys;
mod sessions;
mod updates;

pub use accounts::{email_identity, scoped, Account, Accounts, EmailRefused, KeyRefused};
pub use approvals::{ApprovalTarget, Approvals, Link};
pub use keys::KeyStore;
pub use sessions::{Session, Sessions};
pub use updates::{PendingUpdate, UpdateLock, UpdateStage, Updates};
