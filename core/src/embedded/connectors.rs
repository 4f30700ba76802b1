//! What the embedded wallet's slices share: the connectors they answer each other through (the
//! shell routes a request to a connector to the slice that answers it), the answer to a host's
//! request, and the network the frame acts on. No slice depends on another.

use crate::chain::family;
use crate::host::{Ctx, EmbeddedUser, Effect};
use crate::json;
use crate::service::errors::WmError;
use crate::service::json::Value;
use crate::service::validation;

/// The secure frame (the `frame` slice answers it).
pub const FRAME_CONNECTOR: &str = "frame";
/// The connector the provider hands signing requests to (the `approval` slice answers it).
pub const APPROVAL_CONNECTOR: &str = "approval";

/// Answers a connector request: the frame's result, or the error as `{code, message}`.
pub fn answer(ctx: &mut Ctx, key: String, result: Result<Value, WmError>) {
    ctx.push(Effect::Answer { key, outcome: result.map_err(|e| (e.code(), e.message())) });
}

/// The frame's Login user, checked: an address of a family the embedded wallet serves (checksummed
/// where the family has one); optional fields bounded.
pub fn user_from_frame(v: &Value) -> Option<EmbeddedUser> {
    let bounded = |k: &str, max: usize| v.get(k).and_then(Value::as_str).filter(|s| !s.is_empty() && s.len() <= max).map(str::to_string);
    let raw = bounded("address", 128)?;
    let address = family::NAMESPACES.iter().find_map(|ns| family::embedded(ns)?.user_address(&raw))?;
    // `accounts`: its address in each family (the same key's), each checked by its family.
    let mut accounts: Vec<(String, String)> = Vec::new();
    let listed = v.get("accounts").and_then(Value::as_array).map(|l| &l[..l.len().min(8)]).unwrap_or(&[]);
    for a in listed.iter().filter_map(|a| a.get("address")?.as_str()).chain(std::iter::once(raw.as_str())) {
        for ns in family::NAMESPACES {
            let Some(checked) = family::embedded(ns).and_then(|e| e.user_address(a)) else { continue };
            if !accounts.iter().any(|(n, _)| n == ns) {
                accounts.push((ns.to_string(), checked));
            }
        }
    }
    Some(EmbeddedUser {
        address,
        accounts,
        email: bounded("email", 254).filter(|e| validation::is_valid_email(e)),
        user_name: bounded("userName", 64),
        social_provider: bounded("socialProvider", 32),
        // The frame's sign-in to this page (asked with `siwx`), checked where it is used.
        sign_in: bounded("message", 8_192).zip(bounded("signature", 1_024)),
    })
}

pub fn namespace_of(caip_network_id: &str) -> &str {
    caip_network_id.split(':').next().unwrap_or_default()
}

/// The network the embedded wallet acts on (CAIP-2): `wanted` when the app has it and its family
/// serves the embedded wallet, else the active network when it does, else the first that does.
pub fn frame_network(ctx: &Ctx, wanted: Option<&str>) -> Option<String> {
    let serves = |id: &str| ctx.network(id).is_some() && family::embedded(namespace_of(id)).is_some();
    let active = ctx.active_caip_network();
    wanted
        .filter(|w| serves(w))
        .map(str::to_string)
        .or_else(|| active.filter(|a| serves(a)))
        .or_else(|| ctx.networks.iter().map(|n| n.caip_network_id.clone()).find(|id| serves(id)))
}

/// The frame's `chainId` of a network, and the network's node URL.
pub fn frame_chain(ctx: &Ctx, caip_network_id: &str) -> (Value, Option<String>) {
    let chain = family::embedded(namespace_of(caip_network_id)).and_then(|e| e.frame_chain(caip_network_id)).unwrap_or(Value::Null);
    (chain, ctx.network(caip_network_id).and_then(|n| ctx.rpc_url(n)))
}

/// The frame's `RPC_REQUEST` payload of a method on a network.
pub fn rpc_payload(ctx: &Ctx, method: &str, params: Value, caip_network_id: &str) -> Option<Value> {
    let (chain, rpc) = frame_chain(ctx, caip_network_id);
    (!chain.is_null()).then(|| json!({"method": method, "params": params, "chainId": chain, "chainNamespace": namespace_of(caip_network_id), "rpcUrl": rpc}))
}

#[cfg(test)]
#[path = "connectors_tests.rs"]
mod tests;
