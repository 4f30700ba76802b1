//! The wallet catalogue of the AllWallets view (`GET /getWallets`, spec 7): page sizes 4 for the
//! first page of recommended wallets, 40 for later pages, 100 for search; search debounced 300 ms;
//! infinite scroll; stale responses dropped.

use crate::service::constants::{WALLETS_FIRST_PAGE, WALLETS_PAGE, WALLETS_SEARCH_PAGE, WALLET_SEARCH_DEBOUNCE_MS};
use crate::service::entities::{WalletListing, WalletsPage};

/// Longest search text sent.
const MAX_QUERY_CHARS: usize = 64;
/// Most wallets kept in memory, whatever a server claims as its count.
const MAX_ITEMS: usize = 2_000;

/// A catalogue request to make: the page and the number of entries.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PageRequest {
    pub page: u32,
    pub entries: u32,
    pub search: String,
    pub recommended: bool,
    /// The host's featured wallets (`include` = their ids).
    pub featured: bool,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Catalogue {
    /// The host's featured wallets, in the host's order (Connect and AllWallets show them first).
    pub featured: Vec<WalletListing>,
    pending_featured: Option<u64>,
    pub recommended: Vec<WalletListing>,
    pub items: Vec<WalletListing>,
    pub count: u64,
    pub query: String,
    pub loading: bool,
    pub failed: bool,
    page: u32,
    /// Id of the request whose answer is awaited for the list; any other answer is stale.
    pending: Option<u64>,
    pending_page: u32,
    pending_recommended: Option<u64>,
    recommended_loaded: bool,
}

/// Parses a `/getWallets` body, dropping listings with bad ids, names or image ids.
pub fn parse_page(body: &str) -> Option<WalletsPage> {
    let mut page: WalletsPage = crate::host::json::from_str(body).ok()?;
    page.data.retain(|w| crate::connect::storage::is_valid_id(&w.id) && crate::connect::wallets::clean_name(&w.name).is_some() && w.image_id.len() <= 128);
    for w in &mut page.data {
        w.name = crate::connect::wallets::clean_name(&w.name).unwrap_or_default();
    }
    Some(page)
}

impl Catalogue {
    /// The first page of recommended wallets for the Connect view, once.
    pub fn request_recommended(&mut self, id: u64) -> Option<PageRequest> {
        if self.recommended_loaded || self.pending_recommended.is_some() {
            return None;
        }
        self.pending_recommended = Some(id);
        Some(PageRequest { page: 1, entries: WALLETS_FIRST_PAGE, search: String::new(), recommended: true, featured: false })
    }

    /// The host's featured wallets (`ids`), once.
    pub fn request_featured(&mut self, id: u64, ids: &str) -> Option<PageRequest> {
        if ids.is_empty() || !self.featured.is_empty() || self.pending_featured.is_some() {
            return None;
        }
        self.pending_featured = Some(id);
        // (`include` bounds the answer: at most the 100 ids the options allow.)
        Some(PageRequest { page: 1, entries: WALLETS_SEARCH_PAGE, search: String::new(), recommended: false, featured: true })
    }

    /// Opening AllWallets loads the first page of 40 unless the list is already there.
    pub fn request_first_page(&mut self, id: u64) -> Option<PageRequest> {
        if !self.items.is_empty() || self.pending.is_some() {
            return None;
        }
        self.start(id, 1)
    }

    /// Infinite scroll: the next page while more wallets exist.
    pub fn request_more(&mut self, id: u64) -> Option<PageRequest> {
        if self.pending.is_some() || self.failed || (self.items.len() as u64) >= self.count || self.items.len() >= MAX_ITEMS {
            return None;
        }
        let next = self.page + 1;
        self.start(id, next)
    }

    pub fn has_more(&self) -> bool {
        (self.items.len() as u64) < self.count && self.items.len() < MAX_ITEMS
    }

    /// The visitor typed: remember the query and return the debounce delay. The request goes out
    /// when the timer fires (`request_search`).
    pub fn set_query(&mut self, query: &str) -> u64 {
        self.query = query.trim().chars().take(MAX_QUERY_CHARS).collect();
        WALLET_SEARCH_DEBOUNCE_MS
    }

    /// The debounce timer fired: search (100 entries) or, for an empty query, the plain list again.
    pub fn request_search(&mut self, id: u64) -> PageRequest {
        self.items.clear();
        self.count = 0;
        self.failed = false;
        self.pending = None;
        self.start(id, 1).expect("nothing pending after reset")
    }

    fn start(&mut self, id: u64, page: u32) -> Option<PageRequest> {
        self.pending = Some(id);
        self.pending_page = page;
        self.loading = true;
        let entries = if self.query.is_empty() { WALLETS_PAGE } else { WALLETS_SEARCH_PAGE };
        Some(PageRequest { page, entries, search: self.query.clone(), recommended: false, featured: false })
    }

    /// An answer arrived (`status` 0 = network failure). Returns false for a stale answer. The
    /// featured wallets (`featured`: their ids) keep the host's order.
    pub fn on_response(&mut self, id: u64, status: u16, body: &str, featured: &str) -> bool {
        let page = (200..300).contains(&status).then(|| parse_page(body)).flatten();
        if self.pending_featured == Some(id) {
            self.pending_featured = None;
            if let Some(mut p) = page {
                for i in featured.split(',') {
                    if let Some(k) = p.data.iter().position(|w| w.id == i) {
                        self.featured.push(p.data.swap_remove(k));
                    }
                }
            }
            return true;
        }
        if self.pending_recommended == Some(id) {
            self.pending_recommended = None;
            if let Some(p) = page {
                self.recommended = p.data.into_iter().take(WALLETS_FIRST_PAGE as usize).collect();
                self.recommended_loaded = true;
            }
            return true;
        }
        if self.pending != Some(id) {
            return false;
        }
        self.pending = None;
        self.loading = false;
        match page {
            Some(p) => {
                self.page = self.pending_page;
                for w in p.data {
                    if self.items.len() < MAX_ITEMS && !self.items.iter().any(|x| x.id == w.id) {
                        self.items.push(w);
                    }
                }
                self.count = p.count;
                self.failed = false;
            }
            None => self.failed = true,
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn body(ids: std::ops::Range<u32>, count: u64) -> String {
        let data: Vec<_> = ids
            .map(|i| serde_json::json!({"id": format!("w{i}"), "name": format!("Wallet {i}"), "image_id": format!("i{i}"), "chains": []}))
            .collect();
        serde_json::json!({"data": data, "count": count}).to_string()
    }

    #[test]
    fn recommended_first_page_asks_for_4_entries_once() {
        let mut c = Catalogue::default();
        let r = c.request_recommended(1).unwrap();
        assert_eq!((r.page, r.entries, r.recommended), (1, 4, true));
        assert!(c.request_recommended(2).is_none(), "in flight");
        assert!(c.on_response(1, 200, &body(0..4, 60), ""));
        assert_eq!(c.recommended.len(), 4);
        assert!(c.request_recommended(3).is_none(), "loaded once");
    }

    #[test]
    fn later_pages_ask_for_40_entries_and_append() {
        let mut c = Catalogue::default();
        let r = c.request_first_page(1).unwrap();
        assert_eq!((r.page, r.entries), (1, 40));
        assert!(c.loading);
        c.on_response(1, 200, &body(0..40, 60), "");
        assert!(!c.loading);
        assert!(c.has_more());
        let r = c.request_more(2).unwrap();
        assert_eq!((r.page, r.entries), (2, 40));
        assert!(c.request_more(3).is_none(), "one page at a time");
        c.on_response(2, 200, &body(40..60, 60), "");
        assert_eq!(c.items.len(), 60);
        assert!(!c.has_more());
        assert!(c.request_more(4).is_none(), "all loaded");
    }

    #[test]
    fn search_is_debounced_300_ms_and_asks_for_100_entries() {
        let mut c = Catalogue::default();
        c.request_first_page(1);
        c.on_response(1, 200, &body(0..40, 60), "");
        assert_eq!(c.set_query("  demo "), 300);
        let r = c.request_search(2);
        assert_eq!((r.page, r.entries, r.search.as_str()), (1, 100, "demo"));
        assert!(c.items.is_empty(), "search replaces the list");
        c.on_response(2, 200, &body(0..3, 3), "");
        assert_eq!(c.items.len(), 3);
        c.set_query("");
        assert_eq!(c.request_search(3).entries, 40, "an empty query goes back to the list");
    }

    #[test]
    fn stale_responses_are_dropped() {
        let mut c = Catalogue::default();
        c.set_query("a");
        c.request_search(1);
        c.set_query("ab");
        c.request_search(2);
        assert!(!c.on_response(1, 200, &body(0..5, 5), ""), "answer to an older search");
        assert!(c.items.is_empty());
        assert!(c.on_response(2, 200, &body(0..2, 2), ""));
        assert_eq!(c.items.len(), 2);
    }

    #[test]
    fn failed_page_sets_failed_and_stops_infinite_scroll() {
        let mut c = Catalogue::default();
        c.request_first_page(1);
        c.on_response(1, 500, "oops", "");
        assert!(c.failed);
        assert!(!c.loading);
        assert!(c.request_more(2).is_none());
        c.set_query("");
        c.request_search(3);
        c.on_response(3, 200, &body(0..1, 1), "");
        assert!(!c.failed, "a new search clears the failure");
    }

    #[test]
    fn hostile_catalogue_entries_are_dropped_and_duplicates_merged() {
        let hostile = serde_json::json!({"data": [
            {"id": "ok", "name": "Ok", "image_id": "i", "chains": []},
            {"id": "bad id<", "name": "X", "image_id": "i", "chains": []},
            {"id": "blank", "name": "  ", "image_id": "i", "chains": []},
            {"id": "ok", "name": "Dup", "image_id": "i", "chains": []}
        ], "count": 4})
        .to_string();
        let mut c = Catalogue::default();
        c.request_first_page(1);
        c.on_response(1, 200, &hostile, "");
        assert_eq!(c.items.len(), 1);
        assert!(parse_page("[1,2]").is_none());
    }
}
