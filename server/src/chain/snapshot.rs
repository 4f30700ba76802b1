//! A chain's index as the server's store keeps it (`--store`): what was indexed up to which block,
//! so that a restart goes on from there instead of reading the chain again from block 0. Saved by
//! the indexer when it has caught up with the chain (and every [`SAVE_EVERY`] while it catches up);
//! read back at start, and checked against the chain like any range (a chain restarted or
//! reorganised since is indexed again from block 0). NFT metadata not fetched yet is fetched
//! again.

use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::abi::{hex_lower, parse_addr, parse_hash, Addr};
use super::index::{BlockHeader, ChainState, EventKind, NftMeta, RangeData, Token, TokenEvent, TokenKind, TxRecord};
use super::u256::U256;

/// The store's kind of these entries (one per chain, keyed by its CAIP-2 id).
pub const KIND: &str = "chain-index";
/// How long a snapshot is kept after it was written.
pub const KEEP_MS: u64 = 90 * 24 * 3600 * 1000;
/// While catching up, a snapshot at most this often.
pub const SAVE_EVERY: Duration = Duration::from_secs(10);
/// The largest snapshot read back.
pub const MAX_BYTES: usize = 256 * 1024 * 1024;

#[derive(Serialize, Deserialize)]
struct Snap {
    v: u32,
    indexed: u64,
    last_hash: String,
    tokens: Vec<SnapToken>,
    nfts: Vec<SnapNft>,
    txs: Vec<SnapTx>,
}

#[derive(Serialize, Deserialize)]
struct SnapToken {
    addr: String,
    erc721: bool,
    name: Option<String>,
    symbol: Option<String>,
    decimals: Option<u8>,
    first_block: u64,
}

#[derive(Serialize, Deserialize)]
struct SnapNft {
    token: String,
    id: String,
    uri: Option<String>,
    /// None: not fetched yet; `Some((name, image))` when resolved; `unavailable` otherwise.
    meta: Option<(Option<String>, Option<String>)>,
    unavailable: bool,
}

#[derive(Serialize, Deserialize)]
struct SnapTx {
    hash: String,
    block: u64,
    index: u32,
    ts: u64,
    from: String,
    to: Option<String>,
    created: Option<String>,
    value: String,
    nonce: u64,
    ok: bool,
    events: Vec<SnapEvent>,
}

#[derive(Serialize, Deserialize)]
struct SnapEvent {
    token: String,
    /// `t`ransfer, `a`pproval, `u`nwrap.
    k: char,
    a: String,
    b: String,
    n: String,
}

fn h(a: &[u8]) -> String {
    hex_lower(a)
}

/// The state's snapshot, or None before anything was indexed.
pub fn encode(st: &ChainState) -> Option<String> {
    let (indexed, last_hash) = (st.indexed?, st.last_hash?);
    let tokens = st
        .tokens
        .iter()
        .map(|(a, t)| SnapToken { addr: h(a), erc721: t.kind == TokenKind::Erc721, name: t.name.clone(), symbol: t.symbol.clone(), decimals: t.decimals, first_block: t.first_block })
        .collect();
    let nfts = st
        .nfts
        .iter()
        .map(|((token, id), item)| SnapNft {
            token: h(token),
            id: id.to_hex_quantity(),
            uri: item.uri.clone(),
            meta: match &item.meta {
                NftMeta::Resolved { name, image } => Some((name.clone(), image.clone())),
                _ => None,
            },
            unavailable: item.meta == NftMeta::Unavailable,
        })
        .collect();
    let txs = st
        .txs
        .iter()
        .map(|t| SnapTx {
            hash: h(&t.hash),
            block: t.block,
            index: t.index,
            ts: t.timestamp,
            from: h(&t.from),
            to: t.to.as_ref().map(|a| h(a)),
            created: t.created.as_ref().map(|a| h(a)),
            value: t.value.to_hex_quantity(),
            nonce: t.nonce,
            ok: t.ok,
            events: t
                .events
                .iter()
                .map(|e| {
                    let (k, a, b, n) = match &e.kind {
                        EventKind::Transfer { from, to, amount } => ('t', h(from), h(to), amount.to_hex_quantity()),
                        EventKind::Approval { owner, spender, amount } => ('a', h(owner), h(spender), amount.to_hex_quantity()),
                        EventKind::Unwrap { src, amount } => ('u', h(src), String::new(), amount.to_hex_quantity()),
                    };
                    SnapEvent { token: h(&e.token), k, a, b, n }
                })
                .collect(),
        })
        .collect();
    serde_json::to_string(&Snap { v: 1, indexed, last_hash: h(&last_hash), tokens, nfts, txs }).ok()
}

fn addr(s: &str) -> Option<Addr> {
    parse_addr(s)
}

/// The state a snapshot holds (its accounts and balances recomputed from its transactions, as the
/// indexer computed them), and the NFT items whose metadata is still to be fetched. None when it
/// cannot be read (then the chain is indexed from block 0).
pub fn decode(body: &str) -> Option<(ChainState, Vec<((Addr, U256), String)>)> {
    if body.len() > MAX_BYTES {
        return None;
    }
    let s: Snap = serde_json::from_str(body).ok()?;
    if s.v != 1 {
        return None;
    }
    let mut range = RangeData { headers: vec![BlockHeader { number: s.indexed, hash: parse_hash(&s.last_hash)?, parent: [0; 32], timestamp: 0 }], ..RangeData::default() };
    for t in &s.tokens {
        let kind = if t.erc721 { TokenKind::Erc721 } else { TokenKind::Erc20 };
        range.new_tokens.push((addr(&t.addr)?, Token { kind, name: t.name.clone(), symbol: t.symbol.clone(), decimals: t.decimals, first_block: t.first_block }));
    }
    let mut metas = Vec::new();
    for n in &s.nfts {
        let key = (addr(&n.token)?, U256::from_hex(&n.id)?);
        range.new_nfts.push((key, n.uri.clone()));
        metas.push((key, n));
    }
    for t in s.txs {
        let mut events = Vec::with_capacity(t.events.len());
        for e in &t.events {
            let n = U256::from_hex(&e.n)?;
            let kind = match e.k {
                't' => EventKind::Transfer { from: addr(&e.a)?, to: addr(&e.b)?, amount: n },
                'a' => EventKind::Approval { owner: addr(&e.a)?, spender: addr(&e.b)?, amount: n },
                'u' => EventKind::Unwrap { src: addr(&e.a)?, amount: n },
                _ => return None,
            };
            events.push(TokenEvent { token: addr(&e.token)?, kind });
        }
        range.txs.push(TxRecord {
            hash: parse_hash(&t.hash)?,
            block: t.block,
            index: t.index,
            timestamp: t.ts,
            from: addr(&t.from)?,
            to: match &t.to {
                Some(a) => Some(addr(a)?),
                None => None,
            },
            created: match &t.created {
                Some(a) => Some(addr(a)?),
                None => None,
            },
            value: U256::from_hex(&t.value)?,
            nonce: t.nonce,
            ok: t.ok,
            events,
        });
    }
    // In chain order, as the indexer applied them.
    range.txs.sort_by_key(TxRecord::pos);
    let mut st = ChainState::default();
    st.apply(range);
    let mut pending = Vec::new();
    for (key, n) in metas {
        if let Some(item) = st.nfts.get_mut(&key) {
            item.meta = match (&n.meta, n.unavailable) {
                (Some((name, image)), _) => NftMeta::Resolved { name: name.clone(), image: image.clone() },
                (None, true) => NftMeta::Unavailable,
                (None, false) => {
                    if let Some(uri) = &item.uri {
                        pending.push((key, uri.clone()));
                    }
                    NftMeta::Pending
                }
            };
        }
    }
    Some((st, pending))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_snapshot_gives_back_the_same_index_and_what_is_left_to_fetch() {
        let token: Addr = [7; 20];
        let nft: Addr = [8; 20];
        let (alice, bob) = ([1u8; 20], [2u8; 20]);
        let tx = |n: u8, events: Vec<TokenEvent>| TxRecord {
            hash: [n; 32],
            block: n as u64,
            index: 0,
            timestamp: 1_000 + n as u64,
            from: alice,
            to: Some(token),
            created: None,
            value: U256::from_u128(n as u128),
            nonce: n as u64,
            ok: true,
            events,
        };
        let mut st = ChainState::default();
        st.apply(RangeData {
            headers: vec![BlockHeader { number: 3, hash: [9; 32], parent: [0; 32], timestamp: 0 }],
            txs: vec![
                tx(1, vec![TokenEvent { token, kind: EventKind::Transfer { from: [0; 20], to: alice, amount: U256::from_u128(100) } }]),
                tx(2, vec![TokenEvent { token, kind: EventKind::Transfer { from: alice, to: bob, amount: U256::from_u128(30) } }]),
                tx(3, vec![TokenEvent { token: nft, kind: EventKind::Transfer { from: [0; 20], to: bob, amount: U256::from_u128(5) } }]),
            ],
            new_tokens: vec![
                (token, Token { kind: TokenKind::Erc20, name: Some("T".into()), symbol: Some("T".into()), decimals: Some(6), first_block: 1 }),
                (nft, Token { kind: TokenKind::Erc721, name: None, symbol: None, decimals: Some(0), first_block: 3 }),
            ],
            new_nfts: vec![((nft, U256::from_u128(5)), Some("http://127.0.0.1/5".into()))],
        });
        let body = encode(&st).unwrap();
        let (back, pending) = decode(&body).unwrap();
        assert_eq!((back.indexed, back.last_hash), (Some(3), Some([9; 32])));
        assert_eq!(back.txs, st.txs);
        assert_eq!(back.tokens, st.tokens);
        assert_eq!(back.accounts, st.accounts, "balances recomputed the same");
        assert_eq!(back.nfts, st.nfts);
        assert_eq!(pending, vec![((nft, U256::from_u128(5)), "http://127.0.0.1/5".to_string())]);
        // Resolved metadata is kept; nothing left to fetch then.
        st.nfts.get_mut(&(nft, U256::from_u128(5))).unwrap().meta = NftMeta::Resolved { name: Some("Five".into()), image: None };
        let (again, pending) = decode(&encode(&st).unwrap()).unwrap();
        assert_eq!(again.nfts, st.nfts);
        assert!(pending.is_empty());
        // Damaged, or of another version: not read (the chain is indexed from block 0).
        assert!(decode(&body.replace("\"v\":1", "\"v\":2")).is_none());
        assert!(decode(&body[..body.len() / 2]).is_none());
        assert!(decode(&body.replacen("\"k\":\"t\"", "\"k\":\"z\"", 1)).is_none());
        assert!(encode(&ChainState::default()).is_none(), "nothing indexed: nothing to keep");
    }
}
