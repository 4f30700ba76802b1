//! A Safe app's own Safe (spec §6): a page running inside a Safe wallet's iframe connects that
//! Safe, reached over the Safe Apps postMessage protocol (the shell's `families/safe.ts`, loaded
//! only inside an iframe). The rules here: which parent origins may be a Safe (the allowed
//! ancestors) and what the Safe's `getSafeInfo` answer must hold.

use crate::chain::address::{checksum_address, is_evm_address};
use crate::service::json::Value;

/// The parent origins a Safe is looked for under: local development (`localhost`, an IP
/// literal of this machine or its private network — loopback, 10/8, 172.16/12, 192.168/16,
/// link-local, IPv6 ULA — any port), the preview hosts a Safe app is tried on, and Safe{Wallet}
/// itself.
pub const ALLOWED_ANCESTORS: &[&str] = &[
    "http://localhost:*",
    "https://localhost:*",
    "http://{ip}:*",
    "https://{ip}:*",
    "https://*.pages.dev",
    "https://*.vercel.app",
    "https://*.ngrok-free.app",
    "https://app.safe.global",
];

/// Longest parent origin read (a longer one is no origin of a Safe).
const ORIGIN_MAX: usize = 300;

/// Whether a parent origin (`scheme://host[:port]`, as `location.ancestorOrigins` gives it) is
/// one of [`ALLOWED_ANCESTORS`].
pub fn ancestor_allowed(origin: &str) -> bool {
    let Some((scheme, host, port)) = split_origin(origin) else {
        return false;
    };
    ALLOWED_ANCESTORS.iter().any(|pattern| {
        let Some((p_scheme, p_host, p_port)) = split_origin(pattern) else {
            return false;
        };
        let port_ok = match p_port {
            Some("*") => true,
            p => p == port,
        };
        p_scheme == scheme && port_ok && host_matches(p_host, host)
    })
}

/// `scheme`, `host` and the port, if any, of an origin; `None` for anything that is not one
/// (a path, credentials, an empty host, an odd character).
fn split_origin(origin: &str) -> Option<(&str, &str, Option<&str>)> {
    if origin.len() > ORIGIN_MAX {
        return None;
    }
    let (scheme, rest) = origin.split_once("://")?;
    if !matches!(scheme, "http" | "https") || rest.is_empty() {
        return None;
    }
    let (host, port) = if let Some(v6) = rest.strip_prefix('[') {
        let (inside, after) = v6.split_once(']')?;
        let port = match after {
            "" => None,
            p => Some(p.strip_prefix(':')?),
        };
        (&rest[..inside.len() + 2], port)
    } else {
        match rest.split_once(':') {
            Some((h, p)) => (h, Some(p)),
            None => (rest, None),
        }
    };
    let host_ok = !host.is_empty() && host.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b'[' | b']' | b':' | b'{' | b'}' | b'*'));
    let port_ok = port.is_none_or(|p| p == "*" || (!p.is_empty() && p.len() <= 5 && p.bytes().all(|b| b.is_ascii_digit())));
    (host_ok && port_ok).then_some((scheme, host, port))
}

fn host_matches(pattern: &str, host: &str) -> bool {
    let host = host.to_ascii_lowercase();
    match pattern {
        "{ip}" => is_local_ipv4(&host) || is_local_ipv6(&host),
        p => match p.strip_prefix("*.") {
            // One label or more before the suffix, none of them empty.
            Some(suffix) => host.strip_suffix(suffix).and_then(|h| h.strip_suffix('.')).is_some_and(|labels| !labels.is_empty() && labels.split('.').all(|l| !l.is_empty() && !l.contains('*'))),
            None => p == host,
        },
    }
}

/// A dotted IPv4 address of this machine or a private network (not a public one: anyone could
/// frame the app from there).
fn is_local_ipv4(host: &str) -> bool {
    let parts: Vec<u8> = host.split('.').filter_map(|p| (!p.is_empty() && p.len() <= 3 && p.bytes().all(|b| b.is_ascii_digit())).then(|| p.parse().ok()).flatten()).collect();
    if parts.len() != 4 || host.split('.').count() != 4 {
        return false;
    }
    matches!((parts[0], parts[1]), (127, _) | (10, _) | (192, 168) | (169, 254)) || (parts[0] == 172 && (16..=31).contains(&parts[1]))
}

/// `[::1]`, a unique local (`fc00::/7`) or link-local (`fe80::/10`) IPv6 address.
fn is_local_ipv6(host: &str) -> bool {
    let Some(inner) = host.strip_prefix('[').and_then(|h| h.strip_suffix(']')) else { return false };
    if inner.is_empty() || !inner.bytes().all(|b| b.is_ascii_hexdigit() || b == b':') {
        return false;
    }
    let first = inner.split(':').next().unwrap_or_default();
    inner == "::1" || (first.len() == 4 && (first.starts_with("fc") || first.starts_with("fd") || first.starts_with("fe8") || first.starts_with("fe9") || first.starts_with("fea") || first.starts_with("feb")))
}

/// The Safe a `getSafeInfo` answer names: its address (checksummed) and its chain (hex, as
/// `eth_chainId` answers), or why not.
pub fn safe_account(answer: &Value) -> Result<(String, String), &'static str> {
    let address = answer.get("safeAddress").and_then(Value::as_str).filter(|a| is_evm_address(a, false)).ok_or("The Safe named no valid address")?;
    let chain = answer.get("chainId").and_then(Value::as_u64).filter(|&c| c > 0 && c < 1 << 53).ok_or("The Safe named no valid chain id")?;
    let address = checksum_address(address).map_err(|_| "The Safe named no valid address")?;
    Ok((address, format!("{chain:#x}")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::service::json::parse;

    #[test]
    fn local_and_private_ip_preview_and_safe_wallet_parents_are_allowed_ancestors() {
        for origin in [
            "http://localhost:5173",
            "https://localhost",
            "http://127.0.0.1:8000",
            "http://192.168.1.20:3000",
            "http://10.0.0.7",
            "http://172.20.3.4:8000",
            "http://[::1]:8080",
            "http://[fd12:3456::1]:3000",
            "https://my-app-git-main.vercel.app",
            "https://preview.my-app.pages.dev",
            "https://ab12.ngrok-free.app",
            "https://app.safe.global",
        ] {
            assert!(ancestor_allowed(origin), "{origin} should be allowed");
        }
    }

    #[test]
    fn other_parents_public_ips_and_malformed_origins_are_not_allowed_ancestors() {
        for origin in [
            "https://evil.example",
            "https://app.safe.global.evil.example",
            "https://evilapp.safe.global",
            "http://app.safe.global",
            "https://vercel.app",
            "https://.vercel.app",
            "https://x.vercel.app.evil.example",
            "https://vercel.app.evil.example",
            "ftp://localhost",
            "http://localhost:80/path",
            "http://user@localhost",
            "http://256.1.1.1",
            "http://1.2.3",
            "http://8.8.8.8",
            "https://203.0.113.9:443",
            "http://172.32.0.1",
            "http://[2001:db8::1]",
            "http://[::]",
            "null",
            "",
            &format!("http://localhost:{}", "1".repeat(400)),
        ] {
            assert!(!ancestor_allowed(origin), "{origin} should not be allowed");
        }
    }

    #[test]
    fn a_safe_info_answer_gives_the_checksummed_address_and_the_hex_chain_or_says_what_is_missing() {
        let ok = parse(r#"{"safeAddress":"0x52908400098527886e0f7030069857d2e4169ee7","chainId":31337,"threshold":1,"owners":[],"isReadOnly":false}"#).unwrap();
        assert_eq!(safe_account(&ok), Ok(("0x52908400098527886E0F7030069857D2E4169EE7".to_string(), "0x7a69".to_string())));
        let no_address = parse(r#"{"safeAddress":"0x1234","chainId":1}"#).unwrap();
        assert_eq!(safe_account(&no_address), Err("The Safe named no valid address"));
        for chain in ["0", "-1", "\"1\"", "9007199254740993"] {
            let bad = parse(&format!(r#"{{"safeAddress":"0x52908400098527886e0f7030069857d2e4169ee7","chainId":{chain}}}"#)).unwrap();
            assert_eq!(safe_account(&bad), Err("The Safe named no valid chain id"), "chainId {chain}");
        }
    }
}
