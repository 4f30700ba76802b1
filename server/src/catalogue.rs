//! The demo wallet catalogue: a few named wallets with distinct traits plus generated ones, 60 in all,
//! so that the page sizes the modal uses (4, 40, 100) really paginate.

use crate::entities::{WalletListing, WalletsPage};

pub const EVM_CHAINS: &[&str] = &[
    "eip155:1",
    "eip155:10",
    "eip155:137",
    "eip155:8453",
    "eip155:31337",
    "eip155:31338",
];
pub const SOLANA_MAINNET: &str = "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp";
pub const BITCOIN_MAINNET: &str = "bip122:000000000019d6689c085ae165831e93";

/// Image id of a catalogue wallet whose image endpoint answers 404 (tests the image fallback).
pub const BROKEN_IMAGE_ID: &str = "missing-image";
/// Image id whose image endpoint answers after 5 s (tests the 2000 ms preload time-out).
pub const SLOW_IMAGE_ID: &str = "slow";

/// Total number of wallets in the catalogue.
pub const CATALOGUE_SIZE: usize = 60;
/// Largest page the endpoint serves; larger `entries` values are clamped.
pub const MAX_ENTRIES: usize = 100;
/// Page size when `entries` is absent.
pub const DEFAULT_ENTRIES: usize = 40;

#[derive(Debug, Clone)]
pub struct CatalogueWallet {
    pub listing: WalletListing,
    /// Matches `badge_type=certified`.
    pub certified: bool,
}

fn chains(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

fn s(v: &str) -> Option<String> {
    Some(v.to_string())
}

fn named(
    id: &str,
    name: &str,
    image_id: &str,
    rdns: Option<&str>,
    chain_list: Vec<String>,
    links: (Option<String>, Option<String>, Option<String>),
    certified: bool,
) -> CatalogueWallet {
    CatalogueWallet {
        listing: WalletListing {
            id: id.into(),
            name: name.into(),
            image_id: image_id.into(),
            rdns: rdns.map(str::to_string),
            chains: chain_list,
            mobile_link: links.0,
            desktop_link: links.1,
            webapp_link: links.2,
        },
        certified,
    }
}

/// Builds the catalogue, in the order the API returns it (named wallets first, "recommended").
pub fn build() -> Vec<CatalogueWallet> {
    let evm = chains(EVM_CHAINS);
    let mut evm_sol = evm.clone();
    evm_sol.push(SOLANA_MAINNET.into());
    let mut out = vec![
        named(
            "demo-wallet",
            "Demo Wallet",
            "demo-wallet",
            Some("dev.walletmodal.demo"),
            evm.clone(),
            (
                s("demowallet://"),
                s("demowallet-desktop://"),
                s("https://demo-wallet.example/app"),
            ),
            true,
        ),
        named(
            "rainbow-like",
            "Rainbow-like",
            "rainbow-like",
            Some("dev.walletmodal.rainbowlike"),
            evm.clone(),
            (s("rainbowlike://"), None, None),
            true,
        ),
        named(
            "lantern-wallet",
            "Lantern Wallet",
            "lantern-wallet",
            Some("dev.walletmodal.lantern"),
            evm_sol.clone(),
            (s("lantern://"), s("lantern-desktop://"), None),
            true,
        ),
        named(
            "harbor-vault",
            "Harbor Vault",
            "harbor-vault",
            Some("dev.walletmodal.harbor"),
            evm.clone(),
            (s("https://harbor-vault.example/wc"), None, None),
            true,
        ),
        named(
            "comet-keys",
            "Comet Keys",
            "comet-keys",
            None,
            evm.clone(),
            (s("cometkeys://"), None, s("https://comet-keys.example")),
            false,
        ),
        named(
            "web-only-wallet",
            "Web Only Wallet",
            "web-only-wallet",
            None,
            evm.clone(),
            (None, None, s("https://web-only-wallet.example/connect")),
            false,
        ),
        named(
            "desktop-only-wallet",
            "Desktop Only Wallet",
            "desktop-only-wallet",
            None,
            evm.clone(),
            (None, s("desktoponly://"), None),
            false,
        ),
        named(
            "sunrise-sol",
            "Sunrise Solana Wallet",
            "sunrise-sol",
            Some("dev.walletmodal.sunrise"),
            chains(&[SOLANA_MAINNET]),
            (s("sunrise://"), None, None),
            true,
        ),
        named(
            "blockstack-btc",
            "Blockstack Bitcoin Wallet",
            "blockstack-btc",
            None,
            chains(&[BITCOIN_MAINNET]),
            (s("blockstackbtc://"), None, None),
            false,
        ),
        named(
            // Its image answers after 5 s: exercises the 2000 ms image preload time-out.
            "slow-image-wallet",
            "Slow Image Wallet",
            SLOW_IMAGE_ID,
            None,
            evm.clone(),
            (s("slowimage://"), None, None),
            false,
        ),
        named(
            // Its image id is unknown to the image endpoint (404): exercises the image fallback.
            "broken-image-wallet",
            "Broken Image Wallet",
            BROKEN_IMAGE_ID,
            None,
            evm.clone(),
            (s("brokenimage://"), None, None),
            false,
        ),
        named(
            "no-links-wallet",
            "No Links Wallet",
            "no-links-wallet",
            None,
            evm.clone(),
            (None, None, None),
            false,
        ),
    ];
    let named_count = out.len();
    for n in 1..=(CATALOGUE_SIZE - named_count) {
        let id = format!("test-wallet-{n:02}");
        let chain_list = if n % 5 == 0 {
            evm_sol.clone()
        } else {
            evm.clone()
        };
        out.push(CatalogueWallet {
            listing: WalletListing {
                id: id.clone(),
                name: format!("Test Wallet {n:02}"),
                image_id: id.clone(),
                rdns: if n % 2 == 0 {
                    Some(format!("dev.walletmodal.test{n:02}"))
                } else {
                    None
                },
                chains: chain_list,
                mobile_link: Some(format!("testwallet{n:02}://")),
                desktop_link: None,
                webapp_link: if n % 3 == 0 {
                    Some(format!("https://{id}.example/app"))
                } else {
                    None
                },
            },
            certified: n % 2 == 1,
        });
    }
    out
}

/// Query of `GET /getWallets`, already parsed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct WalletQuery {
    /// 1-based.
    pub page: usize,
    pub entries: usize,
    pub include: Vec<String>,
    pub exclude: Vec<String>,
    pub search: Option<String>,
    pub badge_type: Option<String>,
    pub chains: Vec<String>,
}

fn csv(v: Option<&str>) -> Vec<String> {
    v.unwrap_or("")
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect()
}

fn positive(v: Option<&str>, name: &str, default: usize) -> Result<usize, String> {
    match v.map(str::trim) {
        None | Some("") => Ok(default),
        Some(t) => match t.parse::<usize>() {
            Ok(n) if n >= 1 => Ok(n),
            _ => Err(format!("{name} must be a positive integer")),
        },
    }
}

impl WalletQuery {
    /// Parses the raw query pairs. `page` and `entries` must be positive integers when present.
    pub fn parse(get: impl Fn(&str) -> Option<String>) -> Result<Self, String> {
        let page = positive(get("page").as_deref(), "page", 1)?;
        let entries =
            positive(get("entries").as_deref(), "entries", DEFAULT_ENTRIES)?.min(MAX_ENTRIES);
        let search = get("search")
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty());
        let badge_type = get("badge_type")
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty());
        Ok(WalletQuery {
            page,
            entries,
            include: csv(get("include").as_deref()),
            exclude: csv(get("exclude").as_deref()),
            search,
            badge_type,
            chains: csv(get("chains").as_deref()),
        })
    }
}

/// Filters and paginates. `count` is the number of matches before pagination.
pub fn query(catalogue: &[CatalogueWallet], q: &WalletQuery) -> WalletsPage {
    let needle = q.search.as_ref().map(|s| s.to_lowercase());
    let matches: Vec<&CatalogueWallet> = catalogue
        .iter()
        .filter(|w| q.include.is_empty() || q.include.contains(&w.listing.id))
        .filter(|w| !q.exclude.contains(&w.listing.id))
        .filter(|w| {
            needle
                .as_ref()
                .is_none_or(|n| w.listing.name.to_lowercase().contains(n.as_str()))
        })
        .filter(|w| match q.badge_type.as_deref() {
            Some("certified") => w.certified,
            _ => true,
        })
        .filter(|w| q.chains.is_empty() || w.listing.chains.iter().any(|c| q.chains.contains(c)))
        .collect();
    let count = matches.len() as u64;
    let start = (q.page - 1).saturating_mul(q.entries);
    let data = matches
        .into_iter()
        .skip(start)
        .take(q.entries)
        .map(|w| w.listing.clone())
        .collect();
    WalletsPage { data, count }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(pairs: &[(&str, &str)]) -> WalletQuery {
        let pairs: Vec<(String, String)> = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        WalletQuery::parse(|k| pairs.iter().find(|(pk, _)| pk == k).map(|(_, v)| v.clone()))
            .unwrap()
    }

    #[test]
    fn catalogue_has_unique_ids_and_expected_size() {
        let c = build();
        assert_eq!(c.len(), CATALOGUE_SIZE);
        let mut ids: Vec<_> = c.iter().map(|w| w.listing.id.clone()).collect();
        ids.sort();
        ids.dedup();
        assert_eq!(ids.len(), CATALOGUE_SIZE);
        assert!(c.iter().any(|w| w.listing.image_id == "slow"));
        assert_eq!(c[0].listing.rdns.as_deref(), Some("dev.walletmodal.demo"));
    }

    #[test]
    fn pages_cover_everything_once() {
        let c = build();
        let mut seen = vec![];
        for page in 1..=2 {
            let r = query(&c, &q(&[("page", &page.to_string()), ("entries", "40")]));
            assert_eq!(r.count, 60);
            seen.extend(r.data.into_iter().map(|w| w.id));
        }
        assert_eq!(seen.len(), 60);
        let r = query(&c, &q(&[("page", "3"), ("entries", "40")]));
        assert!(r.data.is_empty());
        assert_eq!(r.count, 60);
    }

    #[test]
    fn parse_rejects_bad_numbers_and_clamps_entries() {
        assert!(WalletQuery::parse(|k| (k == "page").then(|| "0".to_string())).is_err());
        assert!(WalletQuery::parse(|k| (k == "entries").then(|| "x".to_string())).is_err());
        let p = WalletQuery::parse(|k| (k == "entries").then(|| "1000".to_string())).unwrap();
        assert_eq!(p.entries, MAX_ENTRIES);
    }

    #[test]
    fn chains_filter() {
        let c = build();
        let r = query(&c, &q(&[("chains", SOLANA_MAINNET), ("entries", "100")]));
        assert!(r.count > 0 && r.count < 60);
        assert!(r
            .data
            .iter()
            .all(|w| w.chains.iter().any(|c| c == SOLANA_MAINNET)));
    }
}
