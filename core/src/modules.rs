//! What ships where: the one list of which slices each WebAssembly module runs. Every module is
//! the same [`Host`] over its list of slices; a slice moves from one module to another by moving
//! its name from one line to the other, and nothing else (the shell's routes follow: see
//! [`crate::host::routes`], checked by a test against `element/ts/routes.gen.ts`).

use crate::host::Host;

use crate::connect::slice::ConnectSlice;
use crate::network::slice::NetworkSlice;
use crate::service::slice::ServiceSlice;
use crate::ui::slice::UiSlice;
use crate::{
    account::{
        activity::ActivitySlice, nfts::NftsSlice, portfolio::PortfolioSlice, profile_slice::ProfileSlice, receive_slice::ReceiveSlice, send_slice::SendSlice,
        slice::AccountSlice,
    },
    buy::slice::BuySlice,
    embedded::{
        approval_slice::ApprovalSlice, email_slice::EmailSlice, farcaster_slice::FarcasterSlice, frame_slice::FrameSlice, provider_slice::ProviderSlice,
        social_slice::SocialSlice,
    },
    swap::slice::SwapSlice,
};

/// The engine: loaded at start-up, beside the views.
pub type Engine = Host<(UiSlice, ServiceSlice, ConnectSlice, NetworkSlice)>;

/// The account module: loaded the first time one of its views shows (Account and its screens), or
/// when the host first asks the connected wallet something it watches (a transaction sent through
/// `getProvider()`).
pub type Account = Host<(AccountSlice, PortfolioSlice, NftsSlice, ActivitySlice, SendSlice, ReceiveSlice, SwapSlice, BuySlice, ProfileSlice)>;

/// The embedded wallet: loaded when the visitor means to log in by email, social account or
/// Farcaster, or when a stored embedded session is restored.
pub type Embedded = Host<(FrameSlice, ProviderSlice, EmailSlice, SocialSlice, FarcasterSlice, ApprovalSlice)>;

/// Sign-in with the wallet: loaded at start-up when the host asks for sign-in (`siwx`), and only
/// then (it links the curve cryptography that checks signatures).
#[cfg(feature = "crypto")]
pub type SignIn = Host<(crate::auth::slice::SiwxSlice,)>;

/// Every module's routes, in load order (the engine first).
pub fn routes() -> Vec<crate::host::routes::ModuleRoutes> {
    use crate::host::routes::ModuleRoutes;
    vec![
        ModuleRoutes { name: "engine", slices: Engine::describe() },
        ModuleRoutes { name: "account", slices: Account::describe() },
        ModuleRoutes { name: "embedded", slices: Embedded::describe() },
        #[cfg(feature = "crypto")]
        ModuleRoutes { name: "siwx", slices: SignIn::describe() },
    ]
}
