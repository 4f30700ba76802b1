//! The deploy manifest (`demo/contracts/deploy.mjs --out FILE`, given to the backend with
//! `--contracts FILE`): which token contracts are the demo's own, on which chain, their images and
//! which one is spam. Prices come from [`price_usd`] for the manifest's tokens only: a token someone
//! else deploys under the symbol `USDC` gets no price.

use std::collections::HashMap;
use std::path::Path;

use serde::Deserialize;

use super::abi::{parse_addr, Addr};

/// Largest manifest file read.
pub const MAX_MANIFEST_BYTES: u64 = 1024 * 1024;
/// Most tokens a manifest may list.
pub const MAX_MANIFEST_TOKENS: usize = 1000;

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
struct FileChain {
    chain_id: u64,
    #[serde(default)]
    tokens: Vec<FileToken>,
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

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Manifest {
    tokens: HashMap<(u64, Addr), DemoToken>,
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
        for c in f.chains {
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
        Ok(Manifest { tokens })
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
