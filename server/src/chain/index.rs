//! The in-memory index of one chain: every transaction in chain order, the tokens seen in logs, each
//! account's transactions and ERC-20 balances (the sum of its Transfer logs). Built only from what the
//! chain says ([`super::indexer`] fetches it); a restart rebuilds it from block 0.

use std::collections::HashMap;

use super::abi::{Addr, Hash32, ZERO_ADDR};
use super::u256::U256;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TokenKind {
    Erc20,
    Erc721,
}

/// A token contract found through its logs, with what its view functions returned.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Token {
    pub kind: TokenKind,
    pub name: Option<String>,
    pub symbol: Option<String>,
    /// `decimals()` of an ERC-20; `None` when it has none (such tokens are left out of balances,
    /// as the hosted API leaves them out). Always `Some(0)` for an ERC-721.
    pub decimals: Option<u8>,
    /// Block of its first log.
    pub first_block: u64,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EventKind {
    /// ERC-20: `amount` is the amount; ERC-721: the token id.
    Transfer { from: Addr, to: Addr, amount: U256 },
    /// ERC-20: the allowance; ERC-721: the token id.
    Approval {
        owner: Addr,
        spender: Addr,
        amount: U256,
    },
    /// WETH9 `Withdrawal`: `amount` wrapped ether turned back into ether for `src`.
    Unwrap { src: Addr, amount: U256 },
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TokenEvent {
    pub token: Addr,
    pub kind: EventKind,
}

/// One transaction, as mined.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TxRecord {
    pub hash: Hash32,
    pub block: u64,
    pub index: u32,
    pub timestamp: u64,
    pub from: Addr,
    pub to: Option<Addr>,
    /// The contract a creation transaction made.
    pub created: Option<Addr>,
    pub value: U256,
    pub nonce: u64,
    /// Receipt status 1 (a transaction with token logs succeeded by definition).
    pub ok: bool,
    /// Its Transfer and Approval logs of token contracts, in log order.
    pub events: Vec<TokenEvent>,
}

impl TxRecord {
    /// Position in the chain: (block, index in block).
    pub fn pos(&self) -> (u64, u32) {
        (self.block, self.index)
    }
}

/// What an ERC-721 token's metadata said (fetched after indexing, see [`super::indexer`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NftMeta {
    /// Not fetched yet.
    Pending,
    Resolved {
        name: Option<String>,
        image: Option<String>,
    },
    /// No `tokenURI`, an unsupported URI, or the fetch failed.
    Unavailable,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NftItem {
    pub uri: Option<String>,
    pub meta: NftMeta,
    /// Its holder after the last Transfer log (the zero address once burnt).
    pub owner: Addr,
    /// Where it came to its holder: (block, index in block).
    pub since: (u64, u32),
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Account {
    /// Indexes into [`ChainState::txs`] of every transaction involving the account, ascending.
    pub txs: Vec<u32>,
    /// ERC-20 balances (non-zero ones and those that went back to zero).
    pub balances: HashMap<Addr, U256>,
}

/// A block header as the index keeps it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BlockHeader {
    pub number: u64,
    pub hash: Hash32,
    pub parent: Hash32,
    pub timestamp: u64,
}

/// Everything fetched for blocks `from..=to`, ready to be applied.
#[derive(Debug, Default)]
pub struct RangeData {
    pub headers: Vec<BlockHeader>,
    pub txs: Vec<TxRecord>,
    pub new_tokens: Vec<(Addr, Token)>,
    /// ERC-721 items seen for the first time, with their `tokenURI`.
    pub new_nfts: Vec<((Addr, U256), Option<String>)>,
}

#[derive(Debug, Default)]
pub struct ChainState {
    /// Last block applied.
    pub indexed: Option<u64>,
    pub last_hash: Option<Hash32>,
    pub txs: Vec<TxRecord>,
    pub accounts: HashMap<Addr, Account>,
    pub tokens: HashMap<Addr, Token>,
    pub nfts: HashMap<(Addr, U256), NftItem>,
    /// Bumped at every reset (the chain was restarted, reverted or reorganised).
    pub generation: u64,
}

impl ChainState {
    /// Forgets everything (keeps counting generations).
    pub fn reset(&mut self) {
        let generation = self.generation + 1;
        *self = ChainState {
            generation,
            ..ChainState::default()
        };
    }

    /// The block the next range must start at.
    pub fn next_block(&self) -> u64 {
        self.indexed.map_or(0, |n| n + 1)
    }

    /// Whether `range` continues what is indexed (its first block's parent is our last block).
    pub fn continues(&self, range: &RangeData) -> bool {
        match (range.headers.first(), self.last_hash) {
            (None, _) => true,
            (Some(h), Some(last)) => h.number == self.next_block() && h.parent == last,
            (Some(h), None) => h.number == 0 && self.indexed.is_none(),
        }
    }

    fn touch(&mut self, who: Addr, seq: u32) {
        if who == ZERO_ADDR {
            return;
        }
        let acct = self.accounts.entry(who).or_default();
        if acct.txs.last() != Some(&seq) {
            acct.txs.push(seq);
        }
    }

    /// Applies a range that [`Self::continues`] this state.
    pub fn apply(&mut self, range: RangeData) {
        for (addr, token) in range.new_tokens {
            self.tokens.entry(addr).or_insert(token);
        }
        for (key, uri) in range.new_nfts {
            self.nfts.entry(key).or_insert(NftItem {
                meta: if uri.is_some() {
                    NftMeta::Pending
                } else {
                    NftMeta::Unavailable
                },
                uri,
                owner: ZERO_ADDR,
                since: (0, 0),
            });
        }
        for tx in range.txs {
            let seq = self.txs.len() as u32;
            self.touch(tx.from, seq);
            if let Some(to) = tx.to {
                self.touch(to, seq);
            }
            if let Some(c) = tx.created {
                self.touch(c, seq);
            }
            for ev in &tx.events {
                let kind = self.tokens.get(&ev.token).map(|t| t.kind);
                match ev.kind {
                    EventKind::Transfer { from, to, amount } => {
                        self.touch(from, seq);
                        self.touch(to, seq);
                        if kind == Some(TokenKind::Erc721) {
                            if let Some(item) = self.nfts.get_mut(&(ev.token, amount)) {
                                item.owner = to;
                                item.since = tx.pos();
                            }
                        }
                        if kind == Some(TokenKind::Erc20) {
                            if from != ZERO_ADDR {
                                let b = self
                                    .accounts
                                    .entry(from)
                                    .or_default()
                                    .balances
                                    .entry(ev.token)
                                    .or_default();
                                *b = b.saturating_sub(amount);
                            }
                            if to != ZERO_ADDR {
                                let b = self
                                    .accounts
                                    .entry(to)
                                    .or_default()
                                    .balances
                                    .entry(ev.token)
                                    .or_default();
                                *b = b.saturating_add(amount);
                            }
                        }
                    }
                    EventKind::Approval { owner, .. } => self.touch(owner, seq),
                    // The ether goes on to whoever the unwrapping contract pays (not in a log).
                    EventKind::Unwrap { .. } => {}
                }
            }
            self.txs.push(tx);
        }
        if let Some(last) = range.headers.last() {
            self.indexed = Some(last.number);
            self.last_hash = Some(last.hash);
        }
    }

    /// The ERC-721 items `who` holds, the most recently received first.
    pub fn nfts_of(&self, who: &Addr) -> Vec<(&(Addr, U256), &NftItem)> {
        let mut held: Vec<_> = self.nfts.iter().filter(|(_, i)| i.owner == *who).collect();
        held.sort_by(|a, b| {
            b.1.since
                .cmp(&a.1.since)
                .then(a.0 .0.cmp(&b.0 .0))
                .then(a.0 .1.to_be_bytes().cmp(&b.0 .1.to_be_bytes()))
        });
        held
    }

    /// The account's transactions strictly before `before` (block, index), newest first.
    pub fn history_before(
        &self,
        who: &Addr,
        before: Option<(u64, u32)>,
    ) -> impl Iterator<Item = &TxRecord> {
        let list: &[u32] = self.accounts.get(who).map_or(&[], |a| a.txs.as_slice());
        let end = match before {
            None => list.len(),
            Some(pos) => list.partition_point(|&i| self.txs[i as usize].pos() < pos),
        };
        list[..end].iter().rev().map(|&i| &self.txs[i as usize])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn a(n: u8) -> Addr {
        [n; 20]
    }

    fn tx(block: u64, from: Addr, to: Addr, events: Vec<TokenEvent>) -> TxRecord {
        TxRecord {
            hash: [block as u8; 32],
            block,
            index: 0,
            timestamp: 1000 + block,
            from,
            to: Some(to),
            created: None,
            value: U256::ZERO,
            nonce: 0,
            ok: true,
            events,
        }
    }

    fn header(n: u64) -> BlockHeader {
        BlockHeader {
            number: n,
            hash: [n as u8 + 1; 32],
            parent: [n as u8; 32],
            timestamp: 1000 + n,
        }
    }

    fn transfer(token: Addr, from: Addr, to: Addr, amount: u128) -> TokenEvent {
        TokenEvent {
            token,
            kind: EventKind::Transfer {
                from,
                to,
                amount: U256::from_u128(amount),
            },
        }
    }

    #[test]
    fn an_nft_belongs_to_whoever_received_it_last() {
        let coll = a(7);
        let mut s = ChainState::default();
        let nft = |id| ((coll, U256::from_u128(id)), Some(format!("uri-{id}")));
        let mut t3 = tx(3, a(1), coll, vec![transfer(coll, a(1), a(2), 1)]);
        t3.index = 1;
        s.apply(RangeData {
            headers: vec![header(0), header(1), header(2), header(3)],
            txs: vec![
                tx(1, a(1), coll, vec![transfer(coll, ZERO_ADDR, a(1), 1)]),
                tx(
                    2,
                    a(1),
                    coll,
                    vec![
                        transfer(coll, ZERO_ADDR, a(1), 2),
                        transfer(coll, ZERO_ADDR, a(1), 3),
                    ],
                ),
                t3,
            ],
            new_tokens: vec![(
                coll,
                Token {
                    kind: TokenKind::Erc721,
                    name: Some("C".into()),
                    symbol: Some("C".into()),
                    decimals: Some(0),
                    first_block: 1,
                },
            )],
            new_nfts: vec![nft(1), nft(2), nft(3)],
        });
        let ids = |who| -> Vec<u128> {
            s.nfts_of(&who)
                .iter()
                .map(|((_, id), _)| u128::from_str_radix(&id.to_string(), 10).unwrap())
                .collect()
        };
        assert_eq!(ids(a(1)), vec![2, 3], "the newest first, then by id");
        assert_eq!(ids(a(2)), vec![1]);
        assert_eq!(s.nfts[&(coll, U256::from_u128(1))].since, (3, 1));
    }

    #[test]
    fn balances_follow_transfer_logs_and_history_is_newest_first() {
        let token = a(9);
        let mut s = ChainState::default();
        let range = RangeData {
            headers: vec![header(0), header(1), header(2)],
            txs: vec![
                tx(1, a(1), token, vec![transfer(token, ZERO_ADDR, a(1), 100)]),
                tx(2, a(1), token, vec![transfer(token, a(1), a(2), 30)]),
            ],
            new_tokens: vec![(
                token,
                Token {
                    kind: TokenKind::Erc20,
                    name: Some("T".into()),
                    symbol: Some("T".into()),
                    decimals: Some(0),
                    first_block: 1,
                },
            )],
            new_nfts: vec![],
        };
        assert!(s.continues(&range));
        s.apply(range);
        assert_eq!(s.indexed, Some(2));
        assert_eq!(s.accounts[&a(1)].balances[&token], U256::from_u128(70));
        assert_eq!(s.accounts[&a(2)].balances[&token], U256::from_u128(30));
        assert!(!s.accounts.contains_key(&ZERO_ADDR));
        let blocks: Vec<u64> = s.history_before(&a(1), None).map(|t| t.block).collect();
        assert_eq!(blocks, vec![2, 1]);
        let blocks: Vec<u64> = s
            .history_before(&a(1), Some((2, 0)))
            .map(|t| t.block)
            .collect();
        assert_eq!(blocks, vec![1]);
        assert_eq!(s.history_before(&a(7), None).count(), 0);
        // A range that does not start at our last block's child is refused.
        let stray = RangeData {
            headers: vec![BlockHeader {
                parent: [0xaa; 32],
                ..header(3)
            }],
            ..RangeData::default()
        };
        assert!(!s.continues(&stray));
        s.reset();
        assert_eq!((s.indexed, s.generation, s.txs.len()), (None, 1, 0));
    }
}
