//! The deploy manifest (`demo/contracts/deploy.mjs --out FILE`, given to the backend with
//! `--contracts FILE`): which token contracts are the demo's own, on which chain, their images and
//! which one is spam. Prices come from [`price_usd`] for the manifest's tokens only: a token someone
//! else deploys under the symbol `USDC` gets no price.
//!
//! Per chain it may also name the demo's market (`uniswap`: factory, router, WETH, pairs) and the
//! accounts the on-ramp providers pay out from (`onramp.providers`). Token prices then come from the
//! pools' reserves ([`Manifest::token_price`], read by `crate::convert::prices`); the table is the
//! fallback for tokens without a pool.

use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, Mutex};

use serde::Deserialize;

use super::abi::{parse_addr, Addr};

/// Largest manifest file read.
pub const MAX_MANIFEST_BYTES: u64 = 1024 * 1024;
/// Most tokens a manifest may list.
pub const MAX_MANIFEST_TOKENS: usize = 1000;
/// Most Uniswap pairs per chain, and on-ramp providers per chain.
pub const MAX_MANIFEST_PAIRS: usize = 100;
pub const MAX_MANIFEST_PROVIDERS: usize = 16;

/// The price table of the demo (USD). The native currency of every configured chain is `ETH`.
pub const PRICES_USD: &[(&str, f64)] = &[("ETH", 3000.0), ("USDC", 1.0), ("WMT", 0.25)];

pub fn price_usd(symbol: &str) -> Option<f64> {
    PRICES_USD
        .iter()
        .find(|(s, _)| *s == symbol)
        .map(|(_, p)| *p)
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
struct FileToken {
    kind: String,
    address: String,
    #[serde(default)]
    name: String,
    symbol: String,
    #[serde(default)]
    decimals: u8,
    #[serde(default)]
    image: Option<String>,
    #[serde(default)]
    spam: bool,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
struct FilePair {
    address: String,
    token0: String,
    token1: String,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
struct FileUniswap {
    factory: String,
    router: String,
    weth: String,
    #[serde(default)]
    pairs: Vec<FilePair>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
struct FileProvider {
    id: String,
    address: String,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
struct FileOnramp {
    #[serde(default)]
    providers: Vec<FileProvider>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
struct FileChain {
    chain_id: u64,
    #[serde(default)]
    tokens: Vec<FileToken>,
    #[serde(default)]
    uniswap: Option<FileUniswap>,
    #[serde(default)]
    onramp: Option<FileOnramp>,
}

#[derive(Debug, Clone, Deserialize)]
struct ManifestFile {
    version: u32,
    #[serde(default)]
    chains: Vec<FileChain>,
}

/// One of the demo's token contracts.
#[derive(Debug, Clone, PartialEq)]
pub struct DemoToken {
    pub chain_id: u64,
    pub address: Addr,
    pub erc721: bool,
    pub name: String,
    pub symbol: String,
    pub decimals: u8,
    /// An image of `demo/contracts/images/` (`usdc` → `usdc.svg`).
    pub image: Option<String>,
    pub spam: bool,
}

/// A Uniswap V2 pair of the demo's market (`token0 < token1`, as the factory orders them).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pair {
    pub address: Addr,
    pub token0: Addr,
    pub token1: Addr,
}

/// The demo's Uniswap V2 market on one chain (`demo/contracts/uniswap.mjs`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Uniswap {
    pub factory: Addr,
    pub router: Addr,
    /// WETH9: what the router swaps the native currency through.
    pub weth: Addr,
    pub pairs: Vec<Pair>,
}

/// An on-ramp provider's payout account (an unlocked anvil dev account holding USDC and WMT).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OnrampProvider {
    /// `meld`, `coinbase`.
    pub id: String,
    pub address: Addr,
}

/// USD prices read from the pools' reserves (`crate::convert::prices`): tokens by address, and the
/// native currency (= WETH's).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PoolPrices {
    pub tokens: HashMap<Addr, f64>,
    pub native: Option<f64>,
}

/// The latest [`PoolPrices`] read per chain. Shared by the clones of one manifest (a new manifest
/// starts empty); never part of the manifest's equality.
#[derive(Debug, Clone, Default)]
pub struct PriceCache(Arc<Mutex<HashMap<u64, Arc<PoolPrices>>>>);

impl PartialEq for PriceCache {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl PriceCache {
    pub fn get(&self, chain_id: u64) -> Option<Arc<PoolPrices>> {
        self.0.lock().unwrap().get(&chain_id).cloned()
    }
    pub fn set(&self, chain_id: u64, p: PoolPrices) -> Arc<PoolPrices> {
        let p = Arc::new(p);
        self.0.lock().unwrap().insert(chain_id, p.clone());
        p
    }
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Manifest {
    tokens: HashMap<(u64, Addr), DemoToken>,
    uniswap: HashMap<u64, Uniswap>,
    onramp: HashMap<u64, Vec<OnrampProvider>>,
    /// Pool prices last read (see [`Manifest::token_price`]).
    pub pool_prices: PriceCache,
}

/// Image ids of `demo/contracts/images/`: 1 to 32 of `[a-z0-9-]`.
pub fn valid_image_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= 32
        && id
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}

impl Manifest {
    pub fn parse(text: &str) -> Result<Manifest, String> {
        let f: ManifestFile =
            serde_json::from_str(text).map_err(|e| format!("not a deploy manifest: {e}"))?;
        if f.version != 1 {
            return Err(format!("manifest version {} (expected 1)", f.version));
        }
        let mut tokens = HashMap::new();
        let mut uniswap = HashMap::new();
        let mut onramp = HashMap::new();
        let addr =
            |what: &str, s: &str| parse_addr(s).ok_or_else(|| format!("bad {what} address {s:?}"));
        for c in f.chains {
            if let Some(u) = &c.uniswap {
                if u.pairs.len() > MAX_MANIFEST_PAIRS {
                    return Err(format!("more than {MAX_MANIFEST_PAIRS} Uniswap pairs"));
                }
                let pairs = u
                    .pairs
                    .iter()
                    .map(|p| {
                        Ok(Pair {
                            address: addr("pair", &p.address)?,
                            token0: addr("token0", &p.token0)?,
                            token1: addr("token1", &p.token1)?,
                        })
                    })
                    .collect::<Result<Vec<_>, String>>()?;
                uniswap.insert(
                    c.chain_id,
                    Uniswap {
                        factory: addr("factory", &u.factory)?,
                        router: addr("router", &u.router)?,
                        weth: addr("weth", &u.weth)?,
                        pairs,
                    },
                );
            }
            if let Some(o) = &c.onramp {
                if o.providers.len() > MAX_MANIFEST_PROVIDERS {
                    return Err(format!(
                        "more than {MAX_MANIFEST_PROVIDERS} on-ramp providers"
                    ));
                }
                let mut list = Vec::new();
                for p in &o.providers {
                    if p.id.is_empty()
                        || p.id.len() > 32
                        || !p
                            .id
                            .bytes()
                            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
                    {
                        return Err(format!(
                            "bad on-ramp provider id {:?} (1 to 32 of a-z, 0-9, -)",
                            p.id
                        ));
                    }
                    list.push(OnrampProvider {
                        id: p.id.clone(),
                        address: addr("on-ramp provider", &p.address)?,
                    });
                }
                onramp.insert(c.chain_id, list);
            }
            for t in c.tokens {
                if tokens.len() >= MAX_MANIFEST_TOKENS {
                    return Err(format!("more than {MAX_MANIFEST_TOKENS} tokens"));
                }
                let address = parse_addr(&t.address)
                    .ok_or_else(|| format!("bad token address {:?}", t.address))?;
                let erc721 = match t.kind.as_str() {
                    "erc20" => false,
                    "erc721" => true,
                    k => return Err(format!("unknown token kind {k:?}")),
                };
                if let Some(img) = &t.image {
                    if !valid_image_id(img) {
                        return Err(format!("bad image id {img:?} (1 to 32 of a-z, 0-9, -)"));
                    }
                }
                if t.symbol.is_empty() || t.symbol.len() > 32 || t.name.len() > 128 {
                    return Err(format!("bad name or symbol for {}", t.address));
                }
                tokens.insert(
                    (c.chain_id, address),
                    DemoToken {
                        chain_id: c.chain_id,
                        address,
                        erc721,
                        name: t.name,
                        symbol: t.symbol,
                        decimals: t.decimals,
                        image: t.image,
                        spam: t.spam,
                    },
                );
            }
        }
        Ok(Manifest {
            tokens,
            uniswap,
            onramp,
            pool_prices: PriceCache::default(),
        })
    }

    pub fn load(path: &Path) -> Result<Manifest, String> {
        let meta = std::fs::metadata(path).map_err(|e| format!("{}: {e}", path.display()))?;
        if meta.len() > MAX_MANIFEST_BYTES {
            return Err(format!(
                "{}: larger than {MAX_MANIFEST_BYTES} bytes",
                path.display()
            ));
        }
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        Manifest::parse(&text).map_err(|e| format!("{}: {e}", path.display()))
    }

    pub fn token(&self, chain_id: u64, address: &Addr) -> Option<&DemoToken> {
        self.tokens.get(&(chain_id, *address))
    }

    /// Whether the token is on the spam list.
    pub fn is_spam(&self, chain_id: u64, address: &Addr) -> bool {
        self.token(chain_id, address).is_some_and(|t| t.spam)
    }

    /// The USD price of a demo token whose on-chain symbol is the manifest's.
    pub fn price(
        &self,
        chain_id: u64,
        address: &Addr,
        onchain_symbol: Option<&str>,
    ) -> Option<f64> {
        let t = self.token(chain_id, address)?;
        if t.spam || onchain_symbol != Some(t.symbol.as_str()) {
            return None;
        }
        price_usd(&t.symbol)
    }

    /// The demo's Uniswap V2 market on `chain_id`, if it has one.
    pub fn uniswap(&self, chain_id: u64) -> Option<&Uniswap> {
        self.uniswap.get(&chain_id)
    }

    /// The on-ramp providers' payout accounts on `chain_id` (empty when none).
    pub fn onramp_providers(&self, chain_id: u64) -> &[OnrampProvider] {
        self.onramp.get(&chain_id).map_or(&[], Vec::as_slice)
    }

    /// The demo's USD Coin on `chain_id` (the manifest's ERC-20 `USDC`, not spam): 1 USD, the anchor
    /// of the pool prices.
    pub fn usd_token(&self, chain_id: u64) -> Option<&DemoToken> {
        let mut found = self
            .tokens
            .values()
            .filter(|t| t.chain_id == chain_id && !t.erc721 && !t.spam && t.symbol == "USDC");
        let t = found.next()?;
        // Two of them: ambiguous, no anchor.
        found.next().is_none().then_some(t)
    }

    /// The USD price of an ERC-20: from the pools ([`Manifest::pool_prices`], last read) when it has
    /// one, else the price table ([`Manifest::price`]). Never for spam; a manifest token must carry
    /// its manifest symbol on chain.
    pub fn token_price(
        &self,
        chain_id: u64,
        address: &Addr,
        onchain_symbol: Option<&str>,
    ) -> Option<f64> {
        if self.is_spam(chain_id, address) {
            return None;
        }
        if let Some(t) = self.token(chain_id, address) {
            if onchain_symbol != Some(t.symbol.as_str()) {
                return None;
            }
        }
        let pooled = self
            .pool_prices
            .get(chain_id)
            .and_then(|p| p.tokens.get(address).copied());
        pooled.or_else(|| self.price(chain_id, address, onchain_symbol))
    }

    /// The USD price of the native currency (ETH) of `chain_id`: WETH's in the pools, else the table.
    pub fn native_price(&self, chain_id: u64) -> Option<f64> {
        self.pool_prices
            .get(chain_id)
            .and_then(|p| p.native)
            .or_else(|| price_usd("ETH"))
    }

    pub fn len(&self) -> usize {
        self.tokens.len()
    }

    pub fn is_empty(&self) -> bool {
        self.tokens.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const M: &str = r#"{"version":1,"chains":[{"chainId":31337,"tokens":[
      {"kind":"erc20","address":"0x5FbDB2315678afecb367f032d93F642f64180aa3","name":"USD Coin","symbol":"USDC","decimals":6,"image":"usdc"},
      {"kind":"erc20","address":"0x663F3ad617193148711d28f5334eE4Ed07016602","name":"Spam","symbol":"CLAIM","decimals":18,"image":"claim","spam":true}]}]}"#;

    #[test]
    fn prices_only_for_manifest_tokens_with_their_symbol() {
        let m = Manifest::parse(M).unwrap();
        let usdc = parse_addr("0x5fbdb2315678afecb367f032d93f642f64180aa3").unwrap();
        let spam = parse_addr("0x663F3ad617193148711d28f5334eE4Ed07016602").unwrap();
        assert_eq!(m.price(31337, &usdc, Some("USDC")), Some(1.0));
        assert_eq!(m.price(31337, &usdc, Some("FAKE")), None);
        assert_eq!(m.price(31338, &usdc, Some("USDC")), None);
        assert!(m.is_spam(31337, &spam) && !m.is_spam(31337, &usdc));
        assert_eq!(m.price(31337, &spam, Some("CLAIM")), None);
    }

    const MARKET: &str = r#"{"version":1,"chains":[{"chainId":31337,"tokens":[
      {"kind":"erc20","address":"0x5FbDB2315678afecb367f032d93F642f64180aa3","name":"USD Coin","symbol":"USDC","decimals":6}],
      "uniswap":{"factory":"0xA15BB66138824a1c7167f5E85b957d04Dd34E468","router":"0xb19b36b1456E65E3A6D514D3F715f204BD59f431",
        "weth":"0x700b6A60ce7EaaEA56F065753d8dcB9653dbAD35","initCodeHash":"0x96e8","liquidityProvider":"0xa0Ee7A142d267C1f36714E4a8F75612F20a79720",
        "pairs":[{"address":"0x6e3f620c0D4933e7Edaf74c94bD58F382228aee8","token0":"0x5FbDB2315678afecb367f032d93F642f64180aa3",
          "token1":"0x700b6A60ce7EaaEA56F065753d8dcB9653dbAD35","symbols":["USDC","WETH"]}]},
      "onramp":{"providers":[{"id":"meld","address":"0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65"},
        {"id":"coinbase","address":"0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc"}]}}]}"#;

    #[test]
    fn the_market_and_the_onramp_accounts_are_read_and_pool_prices_come_first() {
        let m = Manifest::parse(MARKET).unwrap();
        let u = m.uniswap(31337).unwrap();
        assert_eq!(
            u.router,
            parse_addr("0xb19b36b1456E65E3A6D514D3F715f204BD59f431").unwrap()
        );
        assert_eq!(u.pairs.len(), 1);
        assert_eq!(u.pairs[0].token1, u.weth);
        assert!(m.uniswap(31338).is_none());
        let p = m.onramp_providers(31337);
        assert_eq!(
            p.iter().map(|p| p.id.as_str()).collect::<Vec<_>>(),
            ["meld", "coinbase"]
        );
        assert!(m.onramp_providers(31338).is_empty());
        let usdc = parse_addr("0x5FbDB2315678afecb367f032d93F642f64180aa3").unwrap();
        assert_eq!(m.usd_token(31337).map(|t| t.address), Some(usdc));
        // No pool prices read yet: the table.
        assert_eq!(m.native_price(31337), Some(3000.0));
        assert_eq!(m.token_price(31337, &u.weth, Some("WETH")), None);
        let mut read = PoolPrices::default();
        read.tokens.insert(usdc, 1.0);
        read.tokens.insert(u.weth, 2950.5);
        read.native = Some(2950.5);
        m.pool_prices.set(31337, read);
        assert_eq!(m.native_price(31337), Some(2950.5));
        assert_eq!(m.token_price(31337, &u.weth, Some("WETH")), Some(2950.5));
        assert_eq!(m.token_price(31337, &usdc, Some("FAKE")), None);
        assert_eq!(m.native_price(31338), Some(3000.0));
        // A clone shares the prices read; a manifest parsed again starts without.
        assert_eq!(m.clone().native_price(31337), Some(2950.5));
        assert_eq!(
            Manifest::parse(MARKET).unwrap().native_price(31337),
            Some(3000.0)
        );
        let bad = MARKET.replace("\"meld\"", "\"Meld!\"");
        assert!(Manifest::parse(&bad)
            .unwrap_err()
            .contains("on-ramp provider id"));
        let bad = MARKET.replace("0xb19b36b1456E65E3A6D514D3F715f204BD59f431", "0xb19b");
        assert!(Manifest::parse(&bad)
            .unwrap_err()
            .contains("bad router address"));
    }

    #[test]
    fn bad_manifests_are_refused_with_a_reason() {
        assert!(Manifest::parse("{}")
            .unwrap_err()
            .contains("not a deploy manifest"));
        assert!(Manifest::parse(r#"{"version":2}"#)
            .unwrap_err()
            .contains("version 2"));
        let bad_img = M.replace("\"usdc\"", "\"../x\"");
        assert!(Manifest::parse(&bad_img)
            .unwrap_err()
            .contains("bad image id"));
        let bad_addr = M.replace("0x5FbDB", "0xZZZZZ");
        assert!(Manifest::parse(&bad_addr)
            .unwrap_err()
            .contains("bad token address"));
    }
}
