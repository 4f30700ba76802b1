//! Pairing: the `wc:` URI shown as a QR code / deep link, and its timing rules.
//!
//! The dapp draws 32 random bytes, the pairing symmetric key; the pairing topic is
//! `hex(sha256(symKey))`. The URI is
//! `wc:{topic}@2?symKey={hex}&relay-protocol=irn&expiryTimestamp={unix seconds}`.
//!
//! Timing rules (all functions take `now_ms`):
//! * a pairing URI we create expires 4 minutes after creation ([`PAIRING_EXPIRY_MS`]);
//! * it is treated as expired once fewer than 10 s remain ([`EXPIRY_MARGIN_MS`]);
//! * a new URI may be requested 1 s after the previous one ([`NEW_URI_AFTER_MS`]).

use core::fmt;

use serde::{Deserialize, Serialize};

use super::crypto::topic_of;
use super::{hex32, hex_decode_array, hex_encode, Error, Result};

/// Lifetime of a pairing URI we create: 4 minutes.
pub const PAIRING_EXPIRY_MS: u64 = 4 * 60 * 1000;
/// A pairing with less than this left counts as expired.
pub const EXPIRY_MARGIN_MS: u64 = 10_000;
/// Minimum delay between two pairing URIs.
pub const NEW_URI_AFTER_MS: u64 = 1_000;
/// Relay protocol of every URI we make.
pub const RELAY_PROTOCOL: &str = "irn";
/// Longest URI the parser looks at.
pub const MAX_URI_LEN: usize = 4096;

/// A parsed or built pairing URI.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PairingUri {
    /// Pairing topic, 64 lowercase hex digits (= sha256 of the key).
    pub topic: String,
    /// Pairing symmetric key.
    pub sym_key: [u8; 32],
    /// Relay protocol (`irn`).
    pub relay_protocol: String,
    /// Optional relay data (`relay-data`).
    pub relay_data: Option<String>,
    /// Expiry, unix seconds (absent in old URIs).
    pub expiry_timestamp: Option<u64>,
}

impl PairingUri {
    /// The URI of a symmetric key, relay `irn`, expiring at `expiry_timestamp` (unix seconds).
    pub fn new(sym_key: [u8; 32], expiry_timestamp: u64) -> Self {
        PairingUri {
            topic: topic_of(&sym_key),
            sym_key,
            relay_protocol: RELAY_PROTOCOL.into(),
            relay_data: None,
            expiry_timestamp: Some(expiry_timestamp),
        }
    }

    /// Strict parser. Parameter order does not matter and unknown parameters (e.g. `methods`)
    /// are ignored, but the scheme, topic, version, `symKey`, `relay-protocol` and
    /// `expiryTimestamp` must be well formed, no parameter may repeat, and the topic must be the
    /// sha256 of the key.
    pub fn parse(uri: &str) -> Result<Self> {
        if uri.len() > MAX_URI_LEN {
            return Err(Error::InvalidUri("too long"));
        }
        if uri.bytes().any(|c| c <= b' ' || c >= 0x7f || c == b'#') {
            return Err(Error::InvalidUri("forbidden character"));
        }
        let rest = uri
            .strip_prefix("wc:")
            .ok_or(Error::InvalidUri("scheme must be wc:"))?;
        let (path, query) = rest
            .split_once('?')
            .ok_or(Error::InvalidUri("missing parameters"))?;
        let (topic, version) = path
            .split_once('@')
            .ok_or(Error::InvalidUri("missing version"))?;
        if version != "2" {
            return Err(Error::InvalidUri("version must be 2"));
        }
        let topic_bytes = hex_decode_array::<32>(topic)
            .map_err(|_| Error::InvalidUri("topic must be 32 bytes of hex"))?;

        let mut sym_key = None;
        let mut relay_protocol = None;
        let mut relay_data = None;
        let mut expiry = None;
        let mut seen: Vec<String> = Vec::new();
        for param in query.split('&') {
            let (key, raw) = param
                .split_once('=')
                .ok_or(Error::InvalidUri("parameter without ="))?;
            if key.is_empty() {
                return Err(Error::InvalidUri("empty parameter name"));
            }
            let key = percent_decode(key)?;
            if seen.contains(&key) {
                return Err(Error::InvalidUri("repeated parameter"));
            }
            let value = percent_decode(raw)?;
            match key.as_str() {
                "symKey" => {
                    sym_key = Some(
                        hex_decode_array::<32>(&value)
                            .map_err(|_| Error::InvalidUri("symKey must be 32 bytes of hex"))?,
                    )
                }
                "relay-protocol" => {
                    if value.is_empty()
                        || value.len() > 64
                        || !value
                            .bytes()
                            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == b'-')
                    {
                        return Err(Error::InvalidUri("bad relay-protocol"));
                    }
                    relay_protocol = Some(value.clone());
                }
                "relay-data" => relay_data = Some(value.clone()),
                "expiryTimestamp" => {
                    if value.is_empty()
                        || value.len() > 19
                        || !value.bytes().all(|c| c.is_ascii_digit())
                    {
                        return Err(Error::InvalidUri("bad expiryTimestamp"));
                    }
                    expiry = Some(
                        value
                            .parse::<u64>()
                            .map_err(|_| Error::InvalidUri("bad expiryTimestamp"))?,
                    );
                }
                _ => {}
            }
            seen.push(key);
        }
        let sym_key = sym_key.ok_or(Error::InvalidUri("missing symKey"))?;
        let relay_protocol = relay_protocol.ok_or(Error::InvalidUri("missing relay-protocol"))?;
        let topic = hex_encode(&topic_bytes);
        if topic != topic_of(&sym_key) {
            return Err(Error::InvalidUri("topic is not sha256(symKey)"));
        }
        Ok(PairingUri {
            topic,
            sym_key,
            relay_protocol,
            relay_data,
            expiry_timestamp: expiry,
        })
    }

    /// Expired (or fewer than 10 s left) at `now_ms`. A URI without expiry never expires here.
    pub fn is_expired(&self, now_ms: u64) -> bool {
        match self.expiry_timestamp {
            Some(exp) => now_ms.saturating_add(EXPIRY_MARGIN_MS) > exp.saturating_mul(1000),
            None => false,
        }
    }
}

impl fmt::Display for PairingUri {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "wc:{}@2?symKey={}&relay-protocol={}",
            self.topic,
            hex_encode(&self.sym_key),
            self.relay_protocol
        )?;
        if let Some(data) = &self.relay_data {
            write!(f, "&relay-data={}", percent_encode(data))?;
        }
        if let Some(exp) = self.expiry_timestamp {
            write!(f, "&expiryTimestamp={exp}")?;
        }
        Ok(())
    }
}

/// `encodeURIComponent`: everything but `A-Z a-z 0-9 - _ . ! ~ * ' ( )` is %-escaped.
pub use crate::service::url::encode_component as percent_encode;

fn percent_decode(s: &str) -> Result<String> {
    crate::service::url::decode_component(s).ok_or(Error::InvalidUri("bad %-escape"))
}

/// A pairing we created: its key and the timing rules around its URI.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Pairing {
    #[serde(with = "hex32")]
    sym_key: [u8; 32],
    topic: String,
    created_ms: u64,
    expires_at_ms: u64,
}

impl Pairing {
    /// A pairing of the given 32 random bytes created at `now_ms`, expiring 4 minutes later.
    pub fn new(sym_key: [u8; 32], now_ms: u64) -> Self {
        Pairing {
            topic: topic_of(&sym_key),
            sym_key,
            created_ms: now_ms,
            expires_at_ms: now_ms.saturating_add(PAIRING_EXPIRY_MS),
        }
    }
    /// Pairing symmetric key.
    pub fn sym_key(&self) -> &[u8; 32] {
        &self.sym_key
    }
    /// Pairing topic.
    pub fn topic(&self) -> &str {
        &self.topic
    }
    /// Creation time.
    pub fn created_ms(&self) -> u64 {
        self.created_ms
    }
    /// Expiry as unix seconds (the URI's `expiryTimestamp`).
    pub fn expiry_timestamp(&self) -> u64 {
        self.expires_at_ms / 1000
    }
    /// The URI to show.
    pub fn uri(&self) -> PairingUri {
        PairingUri::new(self.sym_key, self.expiry_timestamp())
    }
    /// Fewer than 10 s left (or past expiry) at `now_ms`.
    pub fn is_expired(&self, now_ms: u64) -> bool {
        now_ms.saturating_add(EXPIRY_MARGIN_MS) > self.expires_at_ms
    }
    /// First instant at which [`Pairing::is_expired`] holds.
    pub fn expired_from_ms(&self) -> u64 {
        self.expires_at_ms
            .saturating_sub(EXPIRY_MARGIN_MS)
            .saturating_add(1)
    }
    /// A new URI may replace this one (1 s after it was created).
    pub fn can_replace(&self, now_ms: u64) -> bool {
        now_ms >= self.replaceable_from_ms()
    }
    /// First instant at which a new URI may be requested.
    pub fn replaceable_from_ms(&self) -> u64 {
        self.created_ms.saturating_add(NEW_URI_AFTER_MS)
    }
    /// Checks the stored invariants (used when restoring state).
    pub(crate) fn validate(&self) -> Result<()> {
        if self.topic != topic_of(&self.sym_key) || self.expires_at_ms < self.created_ms {
            return Err(Error::Storage("inconsistent pairing".into()));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    // Produced with @walletconnect/utils 2.25.0 in /tmp/wc-kat:
    //   symKey = 0x40..0x5f; topic = utils.hashKey(symKey);
    //   utils.formatUri({protocol:"wc", version:2, topic, symKey, relay:{protocol:"irn"}, expiryTimestamp:1700000240})
    // (the JS formatter orders the parameters alphabetically).
    const SYM_KEY: &str = "404142434445464748494a4b4c4d4e4f505152535455565758595a5b5c5d5e5f";
    const TOPIC: &str = "ca2a4fe727faaecf16ecd130a86e0885c5540c05375340445071c0657555fd42";
    const JS_URI: &str = "wc:ca2a4fe727faaecf16ecd130a86e0885c5540c05375340445071c0657555fd42@2?expiryTimestamp=1700000240&relay-protocol=irn&symKey=404142434445464748494a4b4c4d4e4f505152535455565758595a5b5c5d5e5f";

    fn key() -> [u8; 32] {
        hex_decode_array::<32>(SYM_KEY).unwrap()
    }

    #[test]
    fn uri_has_topic_sha256_of_key_and_documented_parameter_order() {
        let uri = PairingUri::new(key(), 1_700_000_240);
        assert_eq!(uri.topic, TOPIC);
        assert_eq!(
            uri.to_string(),
            format!("wc:{TOPIC}@2?symKey={SYM_KEY}&relay-protocol=irn&expiryTimestamp=1700000240")
        );
    }

    #[test]
    fn uri_formatted_by_js_parses_to_the_same_pairing() {
        let parsed = PairingUri::parse(JS_URI).unwrap();
        assert_eq!(parsed, PairingUri::new(key(), 1_700_000_240));
        // And our own output parses back.
        let ours = PairingUri::new(key(), 1_700_000_240).to_string();
        assert_eq!(PairingUri::parse(&ours).unwrap(), parsed);
    }

    #[test]
    fn parser_ignores_unknown_parameters_and_keeps_relay_data() {
        let uri = format!("wc:{TOPIC}@2?methods=wc_sessionPropose%2Cwc_sessionAuthenticate&symKey={SYM_KEY}&relay-protocol=irn&relay-data=ab%20cd");
        let p = PairingUri::parse(&uri).unwrap();
        assert_eq!(p.relay_data.as_deref(), Some("ab cd"));
        assert_eq!(p.expiry_timestamp, None);
        assert!(!p.is_expired(u64::MAX));
    }

    #[test]
    fn parser_rejects_malformed_uris() {
        let good =
            format!("wc:{TOPIC}@2?symKey={SYM_KEY}&relay-protocol=irn&expiryTimestamp=1700000240");
        assert!(PairingUri::parse(&good).is_ok());
        let other_topic = "00".repeat(32);
        let bad = [
            good.replacen("wc:", "wx:", 1),
            good.replacen("@2", "@1", 1),
            good.replacen("@2", "", 1),
            good.replacen("@2?", "@2", 1),
            good.replacen(TOPIC, &TOPIC[..62], 1),
            good.replacen(TOPIC, &other_topic, 1),
            good.replacen(
                &format!("symKey={SYM_KEY}"),
                &format!("symKey={}", &SYM_KEY[..63]),
                1,
            ),
            good.replacen(&format!("symKey={SYM_KEY}"), "symKey=zz", 1),
            good.replacen(&format!("symKey={SYM_KEY}&"), "", 1),
            good.replacen("relay-protocol=irn&", "", 1),
            good.replacen("relay-protocol=irn", "relay-protocol=", 1),
            good.replacen("relay-protocol=irn", "relay-protocol=IRN!", 1),
            good.replacen("1700000240", "-5", 1),
            good.replacen("1700000240", "17e8", 1),
            good.replacen("1700000240", "", 1),
            good.replacen("1700000240", "99999999999999999999", 1),
            format!("{good}&symKey={SYM_KEY}"),
            format!("{good}&"),
            format!("{good}&flag"),
            format!("{good}&=x"),
            format!("{good}#frag"),
            format!("{good}&x=%zz"),
            format!("{good}&x=%4"),
            format!(" {good}"),
            good.replacen("irn", "ir n", 1),
            String::new(),
            "wc:".into(),
            format!("{good}{}", "&x=1".repeat(2000)),
        ];
        for uri in bad {
            assert!(PairingUri::parse(&uri).is_err(), "accepted {uri}");
        }
    }

    #[test]
    fn pairing_expires_after_four_minutes_with_a_ten_second_margin() {
        let now = 1_700_000_000_000;
        let p = Pairing::new(key(), now);
        assert_eq!(p.topic(), TOPIC);
        assert_eq!(p.expiry_timestamp(), 1_700_000_240);
        assert_eq!(p.uri().expiry_timestamp, Some(1_700_000_240));
        // Exactly 10 s left: still valid; less: expired.
        assert!(!p.is_expired(now + 230_000));
        assert!(p.is_expired(now + 230_001));
        assert_eq!(p.expired_from_ms(), now + 230_001);
        assert!(p.uri().is_expired(now + 230_001));
        assert!(!p.uri().is_expired(now + 230_000));
    }

    #[test]
    fn a_new_uri_may_be_requested_one_second_later() {
        let now = 5_000;
        let p = Pairing::new(key(), now);
        assert!(!p.can_replace(now));
        assert!(!p.can_replace(now + 999));
        assert!(p.can_replace(now + 1000));
        assert_eq!(p.replaceable_from_ms(), 6_000);
    }

    #[test]
    fn deep_links_encode_the_uri() {
        use crate::service::url::wallet_deep_link as deep_link;
        let uri = format!("wc:{TOPIC}@2?symKey={SYM_KEY}&relay-protocol=irn");
        let enc = format!("wc%3A{TOPIC}%402%3FsymKey%3D{SYM_KEY}%26relay-protocol%3Dirn");
        assert_eq!(deep_link("metamask://", &uri), Some(format!("metamask://wc?uri={enc}")));
        assert_eq!(deep_link("rainbow:", &uri), Some(format!("rainbow://wc?uri={enc}")));
        assert_eq!(deep_link("https://link.trustwallet.com/", &uri), Some(format!("https://link.trustwallet.com/wc?uri={enc}")));
    }

    proptest! {
        #[test]
        fn arbitrary_strings_never_panic_the_uri_parser(s in ".{0,300}") {
            let _ = PairingUri::parse(&s);
        }

        #[test]
        fn uri_like_strings_never_panic_the_uri_parser(
            topic in "[0-9a-fA-F]{0,70}", ver in "[0-9]{0,2}",
            params in proptest::collection::vec(("[a-zA-Z%-]{0,16}", "[0-9a-zA-Z%=-]{0,70}"), 0..6)
        ) {
            let q: Vec<String> = params.iter().map(|(k, v)| format!("{k}={v}")).collect();
            let _ = PairingUri::parse(&format!("wc:{topic}@{ver}?{}", q.join("&")));
        }

        #[test]
        fn built_uris_roundtrip(k in any::<[u8; 32]>(), exp in any::<u32>()) {
            let uri = PairingUri::new(k, exp as u64);
            prop_assert_eq!(PairingUri::parse(&uri.to_string()).unwrap(), uri);
        }
    }
}
