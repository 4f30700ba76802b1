//! The network slice: the networks the views list, the active one, and moving to another. The wallet is asked through its namespace's
//! adapter (and asked to add the network when it does not know it); a namespace with no wallet,
//! or a wallet that switches by itself, only changes the active network. A failed switch says why
//! in an error banner.

use crate::chain::family;
use crate::connect::wallets::WALLETCONNECT_ID;
use crate::host::json::{string, Fields};
use crate::host::{obj, Ctx, Note, Outcome, Requests, Slice};
use crate::network::switching::{decide_switch, ProviderKind, SwitchDecision};
use crate::service::json::Writer;
use crate::service::errors::WmError;
use crate::ui::banner::BannerVariant;
use crate::ui::router::{Back, View};

#[derive(Clone, Debug, PartialEq)]
enum Asked {
    Switch { connector_id: String, namespace: String, target: String },
    Add { connector_id: String, namespace: String, target: String },
}

#[derive(Clone, Debug)]
struct Switching {
    target: String,
    error: Option<WmError>,
}

#[derive(Default)]
pub struct NetworkSlice {
    switching: Option<Switching>,
    /// SwitchActiveChain: the network of another family, which has no wallet connected yet, that
    /// the visitor picked (spec §2: switchToChain, network; navigateTo Connect).
    other_family: Option<String>,
    requests: Requests<Asked>,
}

impl Slice for NetworkSlice {
    const NAME: &'static str = "network";
    /// Host `switchNetwork()` or the SwitchNetwork view.
    const EVENTS: &'static [&'static str] = &["switchNetwork", "switchActiveChain"];
    const PARTS: &'static [&'static str] = &["network", "networks", "switching", "switchActiveChain"];
    const VIEWS: &'static [View] = &[View::SwitchNetwork, View::UnsupportedChain, View::SwitchActiveChain];

    fn event(&mut self, ty: &str, o: &mut Fields, ctx: &mut Ctx) -> Result<(), String> {
        if ty == "switchActiveChain" {
            // The visitor goes on to connect a wallet of that family: its network becomes active
            // and Connect shows in place of this view.
            if let Some(target) = self.other_family.take() {
                self.activate(ctx, &target);
                ctx.router.reset(View::Connect);
                ctx.shown();
            }
            return Ok(());
        }
        let target = string(o, "caipNetworkId")?;
        self.switch_network(ctx, &target);
        Ok(())
    }

    fn on_note(&mut self, note: &Note, ctx: &mut Ctx) {
        match note {
            Note::Options => {
                for _ in 0..ctx.unknown_networks.len() {
                    ctx.alert(&WmError::NetworkNotFound);
                }
                if let Some(default) = ctx.opts.default_network.clone() {
                    if ctx.active_network.is_none() && ctx.network(&default).is_some() {
                        ctx.active_network = Some(default);
                    }
                }
                if ctx.active_network.as_deref().is_some_and(|a| ctx.network(a).is_none()) {
                    ctx.active_network = None;
                }
            }
            Note::Closed => {
                self.switching = None;
                self.other_family = None;
            }
            Note::Shown(v) if *v != View::SwitchActiveChain => self.other_family = None,
            Note::ChainChanged { chain, .. } if self.switching.as_ref().is_some_and(|s| s.target == *chain) => {
                self.switching = None;
                if ctx.modal.open && matches!(ctx.router.view(), View::SwitchNetwork | View::UnsupportedChain) {
                    ctx.router.reset(View::Account);
                }
            }
            _ => {}
        }
    }

    fn write(&self, ctx: &Ctx, w: &mut Writer) {
        self.write_parts(ctx, w);
    }

    fn on_provider_result(&mut self, id: u64, outcome: Outcome, ctx: &mut Ctx) {
        let Some(asked) = self.requests.remove(id) else { return };
        match asked {
            Asked::Switch { connector_id, namespace, target } => match outcome {
                Ok(_) => self.switched(ctx, &namespace, &connector_id, &target),
                Err(e) if family::switching(&namespace).is_some_and(|a| a.unknown_network(e.code())) => self.add(ctx, &namespace, &connector_id, &target),
                Err(e) => self.failed(ctx, e),
            },
            Asked::Add { connector_id, namespace, target } => match outcome {
                Ok(_) => self.ask(ctx, &namespace, &connector_id, &target),
                Err(e) if e.code() == 4001 => self.failed(ctx, e),
                Err(_) => self.failed(ctx, WmError::ChainNotSupported),
            },
        }
    }
}

impl NetworkSlice {
    fn switch_network(&mut self, ctx: &mut Ctx, caip_network_id: &str) {
        // (The namespace only: no copy of the network.)
        let target = ctx.network(caip_network_id).map(|t| t.chain_namespace.as_str());
        let target_ns = target.unwrap_or_default();
        let active_ns = ctx.active_caip_network().and_then(|a| a.split(':').next().map(str::to_string)).unwrap_or_default();
        let connected = ctx.conn.address(target_ns).is_some();
        // The embedded wallet (auth provider) comes later.
        let wc = ctx.conn.current(target_ns).is_some_and(|c| c.connector_id == WALLETCONNECT_ID);
        let provider = connected.then_some(if wc { ProviderKind::WalletConnect } else { ProviderKind::External });
        match decide_switch(target.is_some(), &active_ns, target_ns, connected, provider) {
            // Spec §8: 'Network Not Found' is the configuration's (an id the networks option does
            // not resolve); a switch to a network that is not in it says 'Switch network not found'.
            SwitchDecision::Unsupported => {
                ctx.alert(&WmError::SwitchNetworkNotFound);
                ctx.emit_error(&WmError::SwitchNetworkNotFound);
            }
            SwitchDecision::AdapterSwitch => {
                let Some(c) = ctx.conn.current(target_ns).cloned() else { return };
                if c.caip_network_id == caip_network_id {
                    return;
                }
                self.switching = Some(Switching { target: caip_network_id.to_string(), error: None });
                if ctx.modal.open && !matches!(ctx.router.view(), View::SwitchNetwork | View::UnsupportedChain) {
                    ctx.router.push(View::SwitchNetwork);
                }
                self.ask(ctx, target_ns, &c.connector_id, caip_network_id);
            }
            // Picked in SwitchNetwork while another family is connected, a network whose family has no
            // wallet connected: SwitchActiveChain offers to connect one (multi-wallet).
            SwitchDecision::ActiveNetworkOnly if ctx.showing(View::SwitchNetwork) && target_ns != active_ns && ctx.connected() && family::has_wallet(target_ns) => {
                self.other_family = Some(caip_network_id.to_string());
                ctx.router.push(View::SwitchActiveChain);
                ctx.shown();
            }
            SwitchDecision::ActiveNetworkOnly | SwitchDecision::AddressSync | SwitchDecision::AuthSwitch | SwitchDecision::WalletConnectSwitch => {
                self.activate(ctx, caip_network_id);
            }
        }
    }

    /// The active network (and with it the namespace's address) changes; no wallet is asked.
    fn activate(&mut self, ctx: &mut Ctx, caip_network_id: &str) {
        if ctx.active_network.as_deref() != Some(caip_network_id) {
            ctx.active_network = Some(caip_network_id.to_string());
            ctx.persist_active_network(caip_network_id);
            ctx.emit("networkchange", obj(vec![("caipNetworkId", caip_network_id.into()), ("supported", true.into())]));
        }
    }

    fn ask(&mut self, ctx: &mut Ctx, namespace: &str, connector_id: &str, target: &str) {
        let (Some(a), Some(n)) = (family::switching(namespace), ctx.network(target)) else { return self.failed(ctx, WmError::ChainNotSupported) };
        let call = a.switch_call(n);
        let id = ctx.wallet_request(connector_id, call);
        self.requests.insert(id, Asked::Switch { connector_id: connector_id.into(), namespace: namespace.into(), target: target.into() });
    }

    fn add(&mut self, ctx: &mut Ctx, namespace: &str, connector_id: &str, target: &str) {
        let (Some(a), Some(n)) = (family::switching(namespace), ctx.network(target)) else { return self.failed(ctx, WmError::ChainNotSupported) };
        let call = a.add_call(n);
        let id = ctx.wallet_request(connector_id, call);
        self.requests.insert(id, Asked::Add { connector_id: connector_id.into(), namespace: namespace.into(), target: target.into() });
    }

    fn switched(&mut self, ctx: &mut Ctx, namespace: &str, connector_id: &str, target: &str) {
        // Wallets also send chainChanged; applying it here makes the switch independent of that.
        ctx.chain_changed(namespace, connector_id, target);
        self.switching = None;
        if ctx.modal.open && matches!(ctx.router.view(), View::SwitchNetwork | View::UnsupportedChain) {
            ctx.router.reset(View::Account);
            ctx.shown();
        }
    }

    /// A failed switch navigates back, says why in an error banner, and fires `error`.
    fn failed(&mut self, ctx: &mut Ctx, error: WmError) {
        ctx.emit_error(&error);
        let network = self.switching.as_ref().and_then(|s| ctx.network(&s.target)).map(|n| n.name.clone());
        let reason = error.message();
        let text = match (error.code(), network) {
            (4001, Some(network)) => format!("Switching to {network} was rejected in the wallet"), // i18n
            (4001, None) => "Switching to the network was rejected in the wallet".to_string(), // i18n
            (_, Some(network)) => format!("Could not switch to {network}: {reason}"), // i18n
            (_, None) => format!("Could not switch to the network: {reason}"), // i18n
        };
        ctx.show_banner(BannerVariant::Error, &text);
        self.switching = None;
        if ctx.modal.open && ctx.router.view() == View::SwitchNetwork {
            if let Back::Close = ctx.router.go_back(ctx.connected()) {
                ctx.close();
            }
        }
    }

    fn write_switching(&self, ctx: &Ctx, active: Option<&str>, w: &mut Writer) {
        let Some((s, target)) = self.switching.as_ref().and_then(|s| Some((s, ctx.network(&s.target)?))) else {
            w.null();
            return;
        };
        w.begin_object().key("target");
        ctx.write_network(target, active, w);
        w.key("state").str(if s.error.is_some() { "error" } else { "pending" }).key("error");
        crate::service::errors::write_error(w, s.error.as_ref());
        w.end_object();
    }

    /// The networks the views list, the active one, and a switch under way.
    fn write_parts(&self, ctx: &Ctx, w: &mut Writer) {
        let active = ctx.active_caip_network();
        let active = active.as_deref();
        w.key("network");
        match active.and_then(|a| ctx.network(a)) {
            Some(n) => ctx.write_network(n, active, w),
            None => {
                w.null();
            }
        }
        w.key("networks").begin_array();
        for n in &ctx.networks {
            ctx.write_network(n, active, w);
        }
        w.end_array().key("switching");
        self.write_switching(ctx, active, w);
        // SwitchActiveChain's network (its namespace is the family to connect).
        w.key("switchActiveChain");
        match self.other_family.as_deref().and_then(|id| ctx.network(id)) {
            Some(n) => ctx.write_network(n, active, w),
            None => {
                w.null();
            }
        }
    }
}
