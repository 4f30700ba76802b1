//! The receive slice: the WalletReceive view — the connected address as a QR code (the core's
//! encoder, made once per address) and the networks of its namespace, the ones it can receive on.

use crate::host::{Ctx, Fact, Note, Slice};
use crate::service::json::Writer;
use crate::ui::qr::{EcLevel, QrCode};
use crate::ui::router::View;

#[derive(Default)]
pub struct ReceiveSlice {
    /// The address shown and its QR code (SVG).
    qr: Option<(String, String)>,
}

impl Slice for ReceiveSlice {
    const NAME: &'static str = "receive";
    const PARTS: &'static [&'static str] = &["receive"];
    const VIEWS: &'static [View] = &[View::WalletReceive];

    fn on_note(&mut self, note: &Note, ctx: &mut Ctx) {
        if !matches!(note, Note::Shown(View::WalletReceive) | Note::Fact(Fact::Connections) | Note::AccountsChanged) {
            return;
        }
        let Some((_, address, _, _)) = ctx.account() else { return self.qr = None };
        if self.qr.as_ref().is_none_or(|(a, _)| a != address) {
            let svg = QrCode::encode(address.as_bytes(), EcLevel::M).map(|q| q.to_svg()).unwrap_or_default();
            self.qr = Some((address.to_string(), svg));
        }
    }

    fn write(&self, ctx: &Ctx, w: &mut Writer) {
        w.key("receive");
        let shown = ctx.showing(View::WalletReceive);
        let (Some((namespace, address, _, _)), Some((qr_for, svg)), true) = (ctx.account(), self.qr.as_ref(), shown) else {
            w.null();
            return;
        };
        w.begin_object().key("address").str(address).key("qr").opt_str((qr_for == address).then_some(svg.as_str()));
        w.key("networks").begin_array();
        for n in ctx.networks.iter().filter(|n| n.chain_namespace.as_str() == namespace) {
            w.str(&n.name);
        }
        w.end_array().end_object();
    }
}
