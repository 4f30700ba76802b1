//! The view router: which view the modal shows on open, and the navigation rules of spec section 2.

/// One view's row in [`VIEWS`]: the view, its JSON name (the spec's), its header title, whether
/// this build shows it, and whether it is about the connected account.
struct ViewRow(View, &'static str, &'static str, bool, bool);

macro_rules! views {
    ($($v:ident $name:literal $title:literal $built:literal $account:literal;)+) => {
        /// Every view of the modal (spec section 2; the Account view's own screens as AppKit names
        /// them: `WalletReceive`, `WalletSend`, `WalletSendPreview`, `OnRampProviders`), plus
        /// `ConfigError` for a misconfigured element.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum View {
            $($v,)+
        }

        const VIEWS: &[ViewRow] = &[$(ViewRow(View::$v, $name, $title, $built, $account),)+];

        impl View {
            /// Every view, in the spec's order.
            pub const ALL: &'static [View] = &[$(View::$v,)+];
        }
    };
}

// view                       name                          title                   built  account
views! {
    Connect                      "Connect"                      "Connect Wallet"        true   false;
    ConnectingExternal           "ConnectingExternal"           "Connecting"            true   false;
    ConnectingWalletConnect      "ConnectingWalletConnect"      "Connecting"            true   false;
    ConnectingWalletConnectBasic "ConnectingWalletConnectBasic" "Connect Wallet"        true   false;
    ConnectingFarcaster          "ConnectingFarcaster"          "Farcaster"             true   false;
    AllWallets                   "AllWallets"                   "All Wallets"           true   false;
    EmailLogin                   "EmailLogin"                   "Email"                 true   false;
    UpdateEmailWallet            "UpdateEmailWallet"            "Edit Email"            true   true;
    ProfileWallets               "ProfileWallets"               "Wallets"               true   true;
    Account                      "Account"                      "Account"               true   true;
    SwitchNetwork                "SwitchNetwork"                "Switch Network"        true   false;
    SwitchActiveChain            "SwitchActiveChain"            "Switch Network"        true   false;
    UnsupportedChain             "UnsupportedChain"             "Unsupported Network"   true   true;
    SiwxSignMessage              "SIWXSignMessage"              "Sign In"               true   true;
    ApproveTransaction           "ApproveTransaction"           "Approve Transaction"   true   true;
    Swap                         "Swap"                         "Swap"                  true   true;
    RegisterAccountName          "RegisterAccountName"          "Choose Name"           false  true;
    RegisterAccountNameSuccess   "RegisterAccountNameSuccess"   "Name Registered"       false  true;
    WalletReceive                "WalletReceive"                "Receive"               true   true;
    WalletSend                   "WalletSend"                   "Send"                  true   true;
    WalletSendPreview            "WalletSendPreview"            "Preview send"          true   true;
    OnRampProviders              "OnRampProviders"              "Buy"                   true   true;
    ConfigError                  "ConfigError"                  "Configuration Error"   true   false;
}

impl View {
    fn row(self) -> &'static ViewRow {
        // Every view has its row (the macro writes both from one list).
        VIEWS.iter().find(|r| r.0 == self).unwrap_or(&VIEWS[0])
    }

    /// The JSON name of the view (the spec's: `"SIWXSignMessage"`).
    pub fn name(self) -> &'static str {
        self.row().1
    }

    /// The view with this JSON name.
    pub fn from_name(name: &str) -> Option<View> {
        VIEWS.iter().find(|r| r.1 == name).map(|r| r.0)
    }

    /// The header title shown for the view.
    pub fn title(self) -> &'static str {
        self.row().2
    }

    /// Views this build renders. The others (sign-in, names, profile, the active-chain switch)
    /// arrive with their features; until then they are never shown (an empty view is worse than
    /// none).
    pub fn is_available(self) -> bool {
        self.row().3
    }

    /// Views about the connected account: without a connection they have nothing to show.
    pub fn needs_connection(self) -> bool {
        self.row().4
    }

    /// The view a screen opens over (back returns to it): the Account view's screens.
    pub fn parent(self) -> Option<View> {
        matches!(self, View::WalletSend | View::WalletReceive | View::Swap | View::OnRampProviders | View::ProfileWallets).then_some(View::Account)
    }
}

/// What the host asked `open({view})` for, after the rules of [`host_view`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HostView {
    /// Show this view.
    Show(View),
    /// Open on the view the router would choose.
    Default,
    /// The view is not part of this build: open on the default view and say so.
    NotAvailable,
}

/// The view a host's `open({view})` may start on. A view that needs a connection opens Connect
/// when there is none (the default view while disconnected); a view that only follows a choice in
/// the modal (a wallet being connected, the configuration error, an unsupported chain that is not
/// the wallet's) opens the default view; a view not built yet is never shown.
pub fn host_view(requested: View, connected: bool, active_unsupported: bool) -> HostView {
    if !requested.is_available() {
        return HostView::NotAvailable;
    }
    match requested {
        // They follow a choice or a request in the modal: alone they have nothing to show.
        View::ConnectingExternal
        | View::ConfigError
        | View::ConnectingFarcaster
        | View::ApproveTransaction
        | View::SiwxSignMessage
        | View::SwitchActiveChain
        | View::UpdateEmailWallet
        | View::WalletSendPreview => HostView::Default,
        View::UnsupportedChain if !active_unsupported => HostView::Default,
        v if v.needs_connection() && !connected => HostView::Default,
        v => HostView::Show(v),
    }
}

/// What the router knows when the modal opens.
#[derive(Clone, Debug, Default)]
pub struct OpenContext {
    /// At least one chain adapter (namespace with configured networks) exists.
    pub has_adapters: bool,
    /// An address is connected.
    pub connected: bool,
    /// The visitor is on a mobile device.
    pub mobile: bool,
    /// The view the host asked for with `open({view})`.
    pub requested: Option<View>,
}

/// Chooses the view when the modal opens (spec 2, "Choosing a view when the modal opens").
pub fn initial_view(ctx: &OpenContext) -> View {
    if !ctx.has_adapters && !ctx.connected {
        return if ctx.mobile { View::AllWallets } else { View::ConnectingWalletConnectBasic };
    }
    if let Some(view) = ctx.requested {
        return view;
    }
    if ctx.connected {
        View::Account
    } else {
        View::Connect
    }
}

/// Closing is blocked on sign-in and approval views while sign-in is required and no session exists.
pub fn closing_blocked(view: View, siwx_required: bool, has_session: bool) -> bool {
    matches!(view, View::SiwxSignMessage | View::ApproveTransaction) && siwx_required && !has_session
}

/// ApproveTransaction opens when an unsafe request arrives and no transaction stack is pending.
pub fn should_open_approve_transaction(unsafe_request: bool, transaction_stack_pending: bool) -> bool {
    unsafe_request && !transaction_stack_pending
}

/// The result of going back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Back {
    /// Back from the first view: the modal closes.
    Close,
    /// The view now shown.
    Shown(View),
}

/// The history of views shown since the modal opened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Router {
    history: Vec<View>,
}

impl Default for Router {
    fn default() -> Self {
        Router { history: vec![View::Connect] }
    }
}

impl Router {
    /// The view on top of the history.
    pub fn view(&self) -> View {
        *self.history.last().unwrap_or(&View::Connect)
    }

    pub fn history(&self) -> &[View] {
        &self.history
    }

    /// A back button is offered whenever going back would not close the modal.
    pub fn can_go_back(&self) -> bool {
        self.history.len() > 1
    }

    /// Starts a new history with `view` as its first view.
    pub fn reset(&mut self, view: View) {
        self.history.clear();
        self.history.push(view);
    }

    /// Shows `view`; pushing the view already shown changes nothing.
    pub fn push(&mut self, view: View) {
        if self.view() != view {
            self.history.push(view);
        }
    }

    /// Shows `view` in place of the current one.
    pub fn replace(&mut self, view: View) {
        self.history.pop();
        self.history.push(view);
    }

    /// Goes back one view. Back from the first view closes; back to Connect while connected shows Account.
    pub fn go_back(&mut self, connected: bool) -> Back {
        if self.history.len() <= 1 {
            return Back::Close;
        }
        self.history.pop();
        if connected && self.view() == View::Connect {
            self.replace(View::Account);
        }
        Back::Shown(self.view())
    }

    /// Closing resets to Connect; in embedded mode to Account when connected, else Connect.
    pub fn on_close(&mut self, embedded: bool, connected: bool) {
        let view = if embedded && connected { View::Account } else { View::Connect };
        self.reset(view);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ctx(has_adapters: bool, connected: bool, mobile: bool, requested: Option<View>) -> OpenContext {
        OpenContext { has_adapters, connected, mobile, requested }
    }

    #[test]
    fn open_without_adapters_or_address_shows_all_wallets_on_mobile() {
        assert_eq!(initial_view(&ctx(false, false, true, None)), View::AllWallets);
    }

    #[test]
    fn open_without_adapters_or_address_shows_walletconnect_basic_on_desktop() {
        assert_eq!(initial_view(&ctx(false, false, false, None)), View::ConnectingWalletConnectBasic);
        // The rule wins over an explicit view.
        assert_eq!(initial_view(&ctx(false, false, false, Some(View::Account))), View::ConnectingWalletConnectBasic);
    }

    #[test]
    fn open_honours_an_explicit_view() {
        assert_eq!(initial_view(&ctx(true, false, false, Some(View::AllWallets))), View::AllWallets);
        assert_eq!(initial_view(&ctx(true, true, false, Some(View::SwitchNetwork))), View::SwitchNetwork);
    }

    #[test]
    fn open_with_connected_address_shows_account() {
        assert_eq!(initial_view(&ctx(true, true, false, None)), View::Account);
        assert_eq!(initial_view(&ctx(false, true, true, None)), View::Account);
    }

    #[test]
    fn open_otherwise_shows_connect() {
        assert_eq!(initial_view(&ctx(true, false, true, None)), View::Connect);
    }

    #[test]
    fn back_from_first_view_closes_the_modal() {
        let mut r = Router::default();
        r.reset(View::Account);
        assert!(!r.can_go_back());
        assert_eq!(r.go_back(true), Back::Close);
    }

    #[test]
    fn back_returns_to_the_previous_view() {
        let mut r = Router::default();
        r.push(View::AllWallets);
        r.push(View::ConnectingExternal);
        assert!(r.can_go_back());
        assert_eq!(r.go_back(false), Back::Shown(View::AllWallets));
        assert_eq!(r.go_back(false), Back::Shown(View::Connect));
        assert_eq!(r.go_back(false), Back::Close);
    }

    #[test]
    fn back_to_connect_while_connected_shows_account() {
        let mut r = Router::default();
        r.push(View::ConnectingExternal);
        assert_eq!(r.go_back(true), Back::Shown(View::Account));
        assert_eq!(r.history(), &[View::Account]);
    }

    #[test]
    fn push_of_the_current_view_is_ignored() {
        let mut r = Router::default();
        r.push(View::Connect);
        assert_eq!(r.history().len(), 1);
    }

    #[test]
    fn replace_swaps_the_current_view() {
        let mut r = Router::default();
        r.push(View::ConnectingExternal);
        r.replace(View::Account);
        assert_eq!(r.history(), &[View::Connect, View::Account]);
    }

    #[test]
    fn closing_resets_to_connect() {
        let mut r = Router::default();
        r.push(View::AllWallets);
        r.on_close(false, true);
        assert_eq!(r.history(), &[View::Connect]);
    }

    #[test]
    fn closing_in_embedded_mode_shows_account_if_connected_else_connect() {
        let mut r = Router::default();
        r.push(View::SwitchNetwork);
        r.on_close(true, true);
        assert_eq!(r.view(), View::Account);
        r.on_close(true, false);
        assert_eq!(r.view(), View::Connect);
    }

    #[test]
    fn closing_blocked_on_sign_views_when_sign_in_required_without_session() {
        assert!(closing_blocked(View::SiwxSignMessage, true, false));
        assert!(closing_blocked(View::ApproveTransaction, true, false));
        assert!(!closing_blocked(View::SiwxSignMessage, true, true));
        assert!(!closing_blocked(View::SiwxSignMessage, false, false));
        assert!(!closing_blocked(View::Account, true, false));
    }

    #[test]
    fn approve_transaction_opens_for_unsafe_request_without_pending_stack() {
        assert!(should_open_approve_transaction(true, false));
        assert!(!should_open_approve_transaction(true, true));
        assert!(!should_open_approve_transaction(false, false));
    }

    #[test]
    fn views_are_named_as_the_spec_names_them() {
        assert_eq!(View::SiwxSignMessage.name(), "SIWXSignMessage");
        assert_eq!(View::from_name("AllWallets"), Some(View::AllWallets));
        assert_eq!(View::from_name("Nope"), None);
        assert_eq!(View::from_name("siwxsignmessage"), None, "names are exact");
    }

    #[test]
    fn every_view_has_a_title_and_a_name_that_reads_back() {
        for &v in View::ALL {
            assert!(!v.title().is_empty(), "{}", v.name());
            assert_eq!(View::from_name(v.name()), Some(v));
        }
        let mut names: Vec<&str> = View::ALL.iter().map(|v| v.name()).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), View::ALL.len(), "distinct views");
        assert_eq!(View::ALL.len(), 23);
    }

    #[test]
    fn host_view_opens_connect_instead_of_an_account_view_while_disconnected() {
        assert_eq!(host_view(View::Account, false, false), HostView::Default);
        assert_eq!(host_view(View::Account, true, false), HostView::Show(View::Account));
        assert_eq!(host_view(View::UnsupportedChain, false, false), HostView::Default);
    }

    #[test]
    fn host_view_never_shows_a_view_this_build_does_not_have() {
        assert_eq!(host_view(View::SiwxSignMessage, true, false), HostView::Default, "sign-in follows the connection");
        assert_eq!(host_view(View::SwitchActiveChain, true, false), HostView::Default, "it follows a network picked in the modal");
        for v in [View::RegisterAccountName] {
            assert_eq!(host_view(v, true, false), HostView::NotAvailable, "{}", v.title());
            assert_eq!(host_view(v, false, false), HostView::NotAvailable, "{}", v.title());
        }
    }

    #[test]
    fn host_view_opens_the_account_screens_while_connected() {
        for v in [View::Swap, View::WalletSend, View::WalletReceive, View::OnRampProviders] {
            assert_eq!(host_view(v, true, false), HostView::Show(v), "{}", v.name());
            assert_eq!(host_view(v, false, false), HostView::Default, "{}: Connect while disconnected", v.name());
        }
        assert_eq!(host_view(View::WalletSendPreview, true, false), HostView::Default, "a preview follows the form");
    }

    #[test]
    fn host_view_skips_views_that_follow_a_choice_in_the_modal() {
        assert_eq!(host_view(View::ConnectingExternal, false, false), HostView::Default);
        assert_eq!(host_view(View::ConfigError, false, false), HostView::Default);
        for v in [View::ApproveTransaction, View::ConnectingFarcaster, View::UpdateEmailWallet] {
            assert_eq!(host_view(v, true, false), HostView::Default, "{}: it follows a request or a choice", v.title());
        }
        assert_eq!(host_view(View::EmailLogin, false, false), HostView::Show(View::EmailLogin), "the email field alone");
        assert_eq!(host_view(View::UnsupportedChain, true, false), HostView::Default);
        assert_eq!(host_view(View::UnsupportedChain, true, true), HostView::Show(View::UnsupportedChain));
        assert_eq!(host_view(View::AllWallets, false, false), HostView::Show(View::AllWallets));
        assert_eq!(host_view(View::SwitchNetwork, false, false), HostView::Show(View::SwitchNetwork));
    }
}
