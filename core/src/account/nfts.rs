//! The NFTs slice (lazily loaded with the account module): the ERC-721 items the connected account
//! holds on the connected chain, from the blockchain API (`GET /v1/account/{address}/nfts`, the
//! demo backend's route: the hosted one is not shown), page by page with the cursor, spam dropped,
//! shown as a grid of images with their names. Read when the NFTs tab shows; read again when a
//! transaction of the account mined or the account or chain changed.

use crate::host::json::Fields;
use crate::host::{Ctx, Note, Requests, Slice};
use crate::json;
use crate::service::json::{Value, Writer};
use crate::ui::router::View;

/// Items kept at most; pages beyond it are not asked for.
pub const NFTS_MAX: usize = 500;
/// Items read from one answer at most (a page is 50; a hostile service cannot grow the state).
const PAGE_MAX: usize = 100;
pub const FAILED: &str = "Failed to fetch NFTs"; // i18n

/// One tile of the grid.
#[derive(Clone, Debug, PartialEq)]
pub struct NftTile {
    pub id: String,
    pub name: String,
    pub collection: Option<String>,
    pub image_url: Option<String>,
}

use crate::service::text::field as text;

/// The tiles of one answer for `chain` and its next cursor: other chains, spam and unreadable
/// entries dropped. `None` when the answer is not a page.
pub fn parse_page(body: &str, chain: &str) -> Option<(Vec<NftTile>, Option<String>)> {
    let v = crate::service::json::parse(body).ok()?;
    let data = v.get("data")?.as_array()?;
    let next = match v.get("next") {
        None | Some(Value::Null) => None,
        Some(n) => Some(n.as_str().filter(|c| !c.is_empty() && c.len() <= 512)?.to_string()),
    };
    let tiles = data
        .iter()
        .take(PAGE_MAX)
        .filter(|n| n.get("chainId").and_then(Value::as_str) == Some(chain))
        .filter(|n| !n.get("isSpam").and_then(Value::as_bool).unwrap_or(false))
        .filter_map(|n| {
            let contract = n.get("contract")?;
            let address = text(contract, "address", 64)?;
            let token_id = text(n, "tokenId", 80).filter(|t| t.bytes().all(|b| b.is_ascii_digit()))?;
            let collection = text(contract, "name", 100);
            let name = text(n, "name", 100).or_else(|| collection.as_ref().map(|c| format!("{c} #{token_id}"))).unwrap_or_else(|| format!("#{token_id}"));
            let image_url = text(n, "imageUrl", 2048).filter(|u| u.starts_with("https://") || u.starts_with("http://"));
            Some(NftTile { id: format!("{}:{token_id}", address.to_ascii_lowercase()), name, collection, image_url })
        })
        .collect();
    Some((tiles, next))
}

#[derive(Default)]
pub struct NftsSlice {
    /// The NFTs tab is the Account view's tab.
    tab: bool,
    /// The account and chain the grid is for.
    subject: Option<(String, String)>,
    tiles: Vec<NftTile>,
    next: Option<String>,
    /// A page was read (the grid is not waiting for its first answer).
    read: bool,
    loading: bool,
    error: bool,
    requests: Requests<(String, String)>,
    /// Checks made for the supported chains before the first read.
    waits: u8,
}

const TIMER_API_CHAINS: &str = "nfts-chains";

impl Slice for NftsSlice {
    const NAME: &'static str = "nfts";
    /// The grid was scrolled to its end: the next page, if any.
    const EVENTS: &'static [&'static str] = &["loadMoreNfts"];
    const PARTS: &'static [&'static str] = &["nfts"];

    fn event(&mut self, _ty: &str, _o: &mut Fields, ctx: &mut Ctx) -> Result<(), String> {
        if self.next.is_some() && !self.loading && self.tiles.len() < NFTS_MAX {
            self.fetch(ctx);
        }
        Ok(())
    }

    fn on_timer(&mut self, id: &str, ctx: &mut Ctx) {
        if id == TIMER_API_CHAINS {
            self.load(ctx);
        }
    }

    fn on_note(&mut self, note: &Note, ctx: &mut Ctx) {
        // Read while its tab shows; what changed it meanwhile is read the next time it does.
        let shows = self.tab && ctx.showing(View::Account);
        match note {
            Note::TabShown(tab) => {
                self.tab = *tab == "nfts";
                self.load(ctx);
            }
            Note::AccountsChanged | Note::BalancesChanged(_) => {
                self.invalidate();
                self.load(ctx);
            }
            Note::Shown(_) | Note::Connected | Note::ChainChanged { .. } if shows => self.load(ctx),
            Note::Disconnected => *self = NftsSlice { tab: self.tab, requests: std::mem::take(&mut self.requests), ..NftsSlice::default() },
            _ => {}
        }
    }

    fn write(&self, _ctx: &Ctx, w: &mut Writer) {
        // Only the shown tab's list: the others are not rendered (nor copied) on every event.
        w.key("nfts");
        if self.tab {
            w.value(&self.view());
        } else {
            w.null();
        }
    }

    fn on_fetch_result(&mut self, id: u64, status: u16, body: &str, _ctx: &mut Ctx) {
        let Some(asked) = self.requests.remove(id) else { return };
        if Some(&asked) != self.subject.as_ref() {
            return; // the account or chain changed meanwhile
        }
        self.loading = false;
        match (200..300).contains(&status).then(|| parse_page(body, &asked.1)).flatten() {
            Some((tiles, next)) => {
                self.read = true;
                self.error = false;
                for t in tiles {
                    if self.tiles.len() < NFTS_MAX && !self.tiles.iter().any(|k| k.id == t.id) {
                        self.tiles.push(t);
                    }
                }
                self.next = next;
            }
            None => self.error = true,
        }
    }
}

impl NftsSlice {
    /// What was read is stale: the next time the tab shows, it is read again.
    fn invalidate(&mut self) {
        self.subject = None;
    }

    /// While its tab shows: reads the grid of the account and chain now connected, unless it has it.
    fn load(&mut self, ctx: &mut Ctx) {
        if !(self.tab && ctx.showing(View::Account)) {
            return;
        }
        let subject = ctx.account().map(|(_, address, chain, _)| (address.to_string(), chain.to_string()));
        // (Only where the portfolio asks for them: a family with the API's balances.)
        if let Some((_, chain)) = subject.as_ref().filter(|(_, c)| crate::chain::family::balances(c.split(':').next().unwrap_or_default())) {
            if crate::account::waits_for_api_chains(ctx, chain, &mut self.waits, TIMER_API_CHAINS) {
                return;
            }
        }
        if subject != self.subject {
            *self = NftsSlice { tab: self.tab, subject, requests: std::mem::take(&mut self.requests), waits: self.waits, ..NftsSlice::default() };
            self.fetch(ctx);
        }
    }

    fn fetch(&mut self, ctx: &mut Ctx) {
        let Some((address, chain)) = self.subject.clone() else { return };
        // A chain the blockchain API does not read (spec §7): skipped, an empty grid.
        if ctx.api_supports(&chain) == Some(false) {
            self.read = true;
            return;
        }
        let id = ctx.request_id();
        let path = format!("/v1/account/{}/nfts", crate::service::url::segment(&address));
        let mut query = vec![("chainId", chain.clone())];
        if let Some(cursor) = self.next.clone() {
            query.push(("cursor", cursor));
        }
        let url = ctx.api_url(&path, &query);
        self.requests.insert(id, (address, chain));
        self.loading = true;
        ctx.fetch(id, url, None);
    }

    /// The NFTs tab's part of the snapshot.
    fn view(&self) -> Value {
        json!({
            "items": self.tiles.iter().map(|t| json!({"id": t.id, "name": t.name, "collection": t.collection, "imageUrl": t.image_url})).collect::<Vec<_>>(),
            "loading": self.loading,
            "empty": self.read && self.tiles.is_empty() && !self.loading && !self.error,
            "hasMore": self.next.is_some() && self.tiles.len() < NFTS_MAX,
            "error": self.error.then_some(FAILED),
        })
    }
}

#[cfg(test)]
#[path = "nfts_unit_tests.rs"]
mod tests;
