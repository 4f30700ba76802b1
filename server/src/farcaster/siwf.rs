//! Verifying a Sign In With Farcaster message, as the app side does (`@farcaster/auth-client`'s
//! `verifySignInMessage` → `messages/verify.ts` and `messages/validate.ts`): an EIP-4361 message
//! with the statement `Farcaster Auth`, chain id 10, exactly one `farcaster://fid/<fid>` resource,
//! the app's nonce and domain (here also its URI), inside its validity window, and a `personal_sign`
//! signature by the fid's custody address (the registry stand-in, see [`super::registry`]).
//!
//! Only custody signatures are accepted (the wallet asks its channels for `acceptAuthAddress:
//! false`): the demo has no KeyRegistry to check an auth address against.

use wm_core::account::transactions::parse_mined_at;
use wm_core::auth::siwx::parse_siwx_message;
use wm_core::chain::signature::recover_message_address;

use super::registry::{self, FarcasterUser};

/// Longest message read (a SIWF message is ~500 characters).
pub const MAX_MESSAGE: usize = 4096;
/// The statement `@farcaster/auth-client` writes (`Farcaster Connect` is its older one, still read).
pub const STATEMENT: &str = "Farcaster Auth";
pub const LEGACY_STATEMENT: &str = "Farcaster Connect";
/// OP Mainnet, where the IdRegistry lives.
pub const CHAIN_ID: u64 = 10;
/// How far in the future `Issued At` may be (clock skew).
pub const MAX_CLOCK_SKEW_MS: u64 = 5 * 60 * 1000;

/// What the app asked for when it opened the channel.
#[derive(Debug, Clone, Copy)]
pub struct Expected<'a> {
    pub domain: &'a str,
    pub uri: &'a str,
    pub nonce: &'a str,
}

/// The fid of a `farcaster://fid/<fid>` resource (`/^farcaster:\/\/fid\/([1-9]\d*)\/?$/`).
pub fn fid_resource(resource: &str) -> Option<u64> {
    let rest = resource.strip_prefix("farcaster://fid/")?;
    let digits = rest.strip_suffix('/').unwrap_or(rest);
    if digits.is_empty()
        || digits.len() > 15
        || digits.starts_with('0')
        || !digits.bytes().all(|b| b.is_ascii_digit())
    {
        return None;
    }
    digits.parse().ok()
}

/// Checks `message` and `signature` (from the relay's completed channel) against what the app
/// asked, at `now_ms`. `relay_fid` is the fid the Farcaster client reported to the relay, which
/// must be the message's. Answers the signed-in account, or the reason in words.
pub fn verify(
    message: &str,
    signature: &str,
    relay_fid: Option<u64>,
    expected: &Expected,
    now_ms: u64,
) -> Result<&'static FarcasterUser, String> {
    if message.len() > MAX_MESSAGE {
        return Err(format!(
            "The Farcaster message is longer than {MAX_MESSAGE} characters"
        ));
    }
    let m = parse_siwx_message(message)
        .map_err(|e| format!("The Farcaster message is not a sign-in message: {e}"))?;
    if !matches!(m.statement.as_deref(), Some(STATEMENT | LEGACY_STATEMENT)) {
        return Err(format!(
            "The Farcaster message's statement must be '{STATEMENT}'"
        ));
    }
    if m.chain_id != CHAIN_ID {
        return Err(format!(
            "The Farcaster message must name chain {CHAIN_ID}, not {}",
            m.chain_id
        ));
    }
    if m.domain != expected.domain {
        return Err(format!(
            "The Farcaster message is for another domain ({}, expected {})",
            m.domain, expected.domain
        ));
    }
    if m.uri != expected.uri {
        return Err(format!(
            "The Farcaster message is for another URI ({}, expected {})",
            m.uri, expected.uri
        ));
    }
    if m.nonce != expected.nonce {
        return Err("The Farcaster message's nonce is not this sign-in's".into());
    }
    let at = |s: &str| parse_mined_at(s).map(|ms| ms.max(0) as u64);
    if let Some(t) = m.expiration_time.as_deref().filter(|t| !t.is_empty()) {
        if at(t).is_none_or(|t| t <= now_ms) {
            return Err("The Farcaster message has expired".into());
        }
    }
    if let Some(t) = m.not_before.as_deref().filter(|t| !t.is_empty()) {
        if at(t).is_none_or(|t| t > now_ms) {
            return Err("The Farcaster message is not valid yet".into());
        }
    }
    if at(&m.issued_at).is_none_or(|t| t > now_ms + MAX_CLOCK_SKEW_MS) {
        return Err("The Farcaster message is issued in the future".into());
    }
    let fids: Vec<u64> = m
        .resources
        .iter()
        .flatten()
        .filter(|r| r.starts_with("farcaster://fid/"))
        .map(|r| fid_resource(r).ok_or_else(|| format!("Invalid Farcaster resource {r:?}")))
        .collect::<Result<_, _>>()?;
    let fid = match fids.as_slice() {
        [fid] => *fid,
        [] => {
            return Err(
                "The Farcaster message names no account (a farcaster://fid/<fid> resource)".into(),
            )
        }
        _ => return Err("The Farcaster message names more than one account".into()),
    };
    if relay_fid.is_some_and(|f| f != fid) {
        return Err("The Farcaster client reported another fid than the message names".into());
    }
    let user =
        registry::by_fid(fid).ok_or_else(|| format!("Unknown Farcaster account (fid {fid})"))?;
    let signer = recover_message_address(message, signature)
        .map_err(|e| format!("The Farcaster signature is not valid: {e}"))?;
    if !signer.eq_ignore_ascii_case(user.custody) {
        return Err("The Farcaster signature does not match the account's custody address".into());
    }
    if !m.account_address.eq_ignore_ascii_case(user.custody) {
        return Err(
            "The Farcaster message names another address than the account's custody address".into(),
        );
    }
    Ok(user)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fid_resources_follow_the_official_pattern() {
        assert_eq!(fid_resource("farcaster://fid/1"), Some(1));
        assert_eq!(fid_resource("farcaster://fid/1234/"), Some(1234));
        assert_eq!(fid_resource("farcaster://fid/0"), None);
        assert_eq!(fid_resource("farcaster://fid/01"), None);
        assert_eq!(fid_resource("farcaster://fid/"), None);
        assert_eq!(fid_resource("farcaster://fid/1a"), None);
        assert_eq!(fid_resource("farcaster://fid/1//"), None);
        assert_eq!(fid_resource("farcaster://fid/9999999999999999"), None);
    }

    #[test]
    fn a_malformed_or_foreign_message_is_refused_before_any_signature_check() {
        let e = Expected {
            domain: "127.0.0.1:4173",
            uri: "http://127.0.0.1:4173",
            nonce: "abcdef0123456789",
        };
        let sig = format!("0x{}", "11".repeat(65));
        assert!(verify("hello", &sig, None, &e, 0)
            .unwrap_err()
            .contains("not a sign-in message"));
        let long = "x".repeat(MAX_MESSAGE + 1);
        assert!(verify(&long, &sig, None, &e, 0)
            .unwrap_err()
            .contains("longer"));
        let msg = "127.0.0.1:4173 wants you to sign in with your Ethereum account:\n\
                   0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc\n\nHello\n\n\
                   URI: http://127.0.0.1:4173\nVersion: 1\nChain ID: 10\nNonce: abcdef0123456789\n\
                   Issued At: 2026-01-01T00:00:00.000Z\nResources:\n- farcaster://fid/1";
        assert!(verify(msg, &sig, None, &e, u64::MAX / 2)
            .unwrap_err()
            .contains("statement"));
    }
}
