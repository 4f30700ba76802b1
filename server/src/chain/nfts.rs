//! `GET /v1/account/{address}/nfts?chainId=eip155:31337&cursor=…&projectId=…`: the ERC-721 items an
//! account holds, the most recently received first. The hosted service's NFT route is not shown in
//! the spec, so this is the demo's own, in the style of the history route:
//!
//! `{"data":[{chainId, contract:{address, name, symbol}, tokenId, name, imageUrl, isSpam}],
//!   "next": cursor|null}`: 50 per page, `next` is the offset of the following page.

use std::sync::Arc;

use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Serialize;
use serde_json::json;

use super::abi;
use super::api::{api_error, listed_chains, nft_info, param, path_address, project_check};
use crate::AppState;

/// Longest cursor accepted: an offset of at most 9 digits.
const MAX_CURSOR_DIGITS: usize = 9;

#[derive(Debug, Clone, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct NftContract {
    pub address: String,
    pub name: Option<String>,
    pub symbol: Option<String>,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct NftItem {
    pub chain_id: String,
    pub contract: NftContract,
    pub token_id: String,
    pub name: Option<String>,
    pub image_url: Option<String>,
    pub is_spam: bool,
}

pub async fn nfts(
    State(st): State<Arc<AppState>>,
    headers: HeaderMap,
    Path(address): Path<String>,
    Query(q): Query<std::collections::HashMap<String, String>>,
) -> Response {
    if let Err(e) = project_check(&st, &q, &headers) {
        return e.into_response();
    }
    let api = &st.chain_api;
    // Another namespace (a Solana account's address is not an EVM one): nothing held here.
    let chains = match listed_chains(api, &q) {
        Ok(Some(c)) => c,
        Ok(None) => return Json(json!({ "data": [], "next": null })).into_response(),
        Err(e) => return e.into_response(),
    };
    let who = match path_address(&address) {
        Ok(a) => a,
        Err(e) => return e.into_response(),
    };
    let offset = match param(&q, "cursor", MAX_CURSOR_DIGITS + 1) {
        Err(e) => return e.into_response(),
        Ok(None) => 0,
        Ok(Some(c)) => match c.parse::<usize>() {
            Ok(n) if c.len() <= MAX_CURSOR_DIGITS && c.bytes().all(|b| b.is_ascii_digit()) => n,
            _ => {
                return api_error(
                    StatusCode::BAD_REQUEST,
                    "cursor",
                    "Invalid parameter: cursor is not one this endpoint returned",
                )
                .into_response();
            }
        },
    };
    let page = api.config.page_size.max(1);
    let m = api.manifest();
    let mut data: Vec<NftItem> = Vec::new();
    let mut seen = 0usize;
    let mut more = false;
    'chains: for chain in &chains {
        let s = chain.state.read().unwrap();
        for ((token, id), _) in s.nfts_of(&who) {
            if seen < offset {
                seen += 1;
                continue;
            }
            if data.len() == page {
                more = true;
                break 'chains;
            }
            seen += 1;
            let info = nft_info(chain, &s, &m, token, *id);
            let meta = s.tokens.get(token);
            data.push(NftItem {
                chain_id: chain.caip2(),
                contract: NftContract {
                    address: abi::addr_checksum(token),
                    name: meta.and_then(|t| t.name.clone()),
                    symbol: meta.and_then(|t| t.symbol.clone()),
                },
                token_id: id.to_string(),
                name: info.name,
                image_url: info
                    .content
                    .and_then(|c| c.preview.or(c.detail))
                    .map(|u| u.url),
                is_spam: info.flags.is_spam,
            });
        }
    }
    let next = more.then(|| seen.to_string());
    Json(json!({ "data": data, "next": next })).into_response()
}
