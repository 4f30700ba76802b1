//! Unit tests of `entities`.

use super::*;
use serde_json::json;

fn round_trip<T: Serialize + serde::de::DeserializeOwned + PartialEq + fmt::Debug>(v: &T) {
    let s = serde_json::to_string(v).unwrap();
    let back: T = serde_json::from_str(&s).unwrap();
    assert_eq!(&back, v);
}

#[test]
fn network_json_uses_api_field_names_and_round_trips() {
    let j = json!({
        "id": 1, "caipNetworkId": "eip155:1", "name": "Ethereum", "chainNamespace": "eip155",
        "nativeCurrency": {"name": "Ether", "symbol": "ETH", "decimals": 18},
        "rpcUrls": {"default": {"http": ["https://eth.example"]}, "chainDefault": {"http": ["https://x"]}},
        "blockExplorers": {"default": {"name": "Etherscan", "url": "https://etherscan.io"}},
        "testnet": false, "assets": {"imageId": "abc", "imageUrl": "https://img"}
    });
    let n: Network = serde_json::from_value(j.clone()).unwrap();
    assert_eq!(n.id, ChainRef::Number(1));
    assert_eq!(n.chain_namespace, ChainNamespace::parse("eip155").unwrap());
    assert_eq!(n.default_rpc_url(), Some("https://eth.example"));
    assert_eq!(serde_json::to_value(&n).unwrap(), j);
    round_trip(&n);
}

#[test]
fn chain_ref_is_number_for_evm_and_string_for_solana() {
    let a: ChainRef = serde_json::from_value(json!(137)).unwrap();
    assert_eq!(a, ChainRef::Number(137));
    let b: ChainRef = serde_json::from_value(json!("5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp")).unwrap();
    assert!(matches!(b, ChainRef::String(_)));
    assert_eq!(ChainRef::from("0x89").as_u64(), Some(137));
    assert_eq!(ChainRef::from("137").as_u64(), Some(137));
    assert_eq!(b.as_u64(), None);
    assert_eq!(a.to_string(), "137");
}

#[test]
fn wallet_listing_uses_snake_case() {
    let j = json!({"id": "w1", "name": "Wallet", "image_id": "img", "rdns": "io.wallet",
        "chains": ["eip155:1"], "mobile_link": "wallet://", "desktop_link": null, "webapp_link": "https://app"});
    let w: WalletListing = serde_json::from_value(j).unwrap();
    assert_eq!(w.mobile_link.as_deref(), Some("wallet://"));
    let page = WalletsPage { data: vec![w], count: 1 };
    round_trip(&page);
    let v = serde_json::to_value(&page).unwrap();
    assert!(v["data"][0].get("image_id").is_some());
}

#[test]
fn project_config_json_shape_and_defaults() {
    let cfg: ProjectConfig = serde_json::from_value(json!({"features": {"email": true, "socials": ["google"], "multiWallet": true}})).unwrap();
    assert!(cfg.features.email && cfg.features.multi_wallet);
    assert!(!cfg.features.swaps_enabled() && !cfg.features.activity);
    round_trip(&cfg);
    let d = RemoteFeatures::default_remote();
    assert!(d.email && d.swaps_enabled() && d.onramp.len() == 2 && d.socials.len() == 7);
    assert!(!d.multi_wallet);
    let v = serde_json::to_value(&d).unwrap();
    assert!(v.get("reownBranding").is_some() && v.get("multiWallet").is_some());
    let none = RemoteFeatures::none();
    assert!(!none.email && !none.socials_enabled() && !none.onramp_enabled());
}

#[test]
fn allowed_origins_and_analytics_json() {
    let o: AllowedOrigins = serde_json::from_str(r#"{"allowedOrigins":["https://a.com"]}"#).unwrap();
    assert_eq!(o.allowed_origins, vec!["https://a.com".to_string()]);
    round_trip(&o);
    let c: AnalyticsConfig = serde_json::from_str(r#"{"isAnalyticsEnabled":true}"#).unwrap();
    assert!(c.is_analytics_enabled);
    let e = AnalyticsEvent { event_id: "id".into(), url: "https://a".into(), domain: "a".into(), timestamp: 5, props: json!({"address": "0x1"}).into() };
    let v = serde_json::to_value(&e).unwrap();
    assert_eq!(v["eventId"], "id");
    round_trip(&e);
}

#[test]
fn transaction_json_round_trips_and_detects_spam() {
    let j = json!({"id": "t", "metadata": {"operationType": "receive", "hash": "0x", "minedAt": "2024-03-01T10:00:00Z",
        "sentFrom": "a", "sentTo": "b", "status": "confirmed", "nonce": 3, "chain": "eip155:1"},
        "transfers": [{"nft_info": {"name": "n", "flags": {"is_spam": true}}, "direction": "in", "quantity": {"numeric": "1"}}]});
    let t: Transaction = serde_json::from_value(j).unwrap();
    assert!(t.transfers[0].is_spam());
    assert_eq!(t.metadata.mined_at, "2024-03-01T10:00:00Z");
    round_trip(&t);
    round_trip(&TransactionsPage { data: vec![t], next: Some("c".into()) });
}

#[test]
fn login_user_chain_id_string_or_number_and_nullable_email() {
    let u: LoginUser = serde_json::from_value(json!({"email": null, "address": "0x1", "chainId": "eip155:1"})).unwrap();
    assert_eq!(u.email, None);
    assert_eq!(u.chain_id, ChainRef::String("eip155:1".into()));
    let u: LoginUser = serde_json::from_value(json!({"email": "a@b.co", "address": "0x1", "chainId": 1,
        "accounts": [{"address": "0x2", "type": "smartAccount"}], "preferredAccountType": "eoa", "smartAccountDeployed": true})).unwrap();
    assert_eq!(u.accounts.as_ref().unwrap()[0].account_type, AccountType::SmartAccount);
    round_trip(&u);
}

#[test]
fn payloads_round_trip() {
    round_trip(&ThemeSyncPayload { theme_mode: ThemeMode::Dark, theme_variables: BTreeMap::new() });
    let t: ThemeSyncPayload = serde_json::from_value(json!({"themeMode": "light", "themeVariables": {"--w3m-accent": "#f00"}})).unwrap();
    assert_eq!(t.theme_mode, ThemeMode::Light);
    round_trip(&DappDataPayload { metadata: DappMetadata { name: "n".into(), description: "d".into(), url: "u".into(), icons: vec![] }, project_id: "p".into(), sdk_version: "1".into(), sdk_type: "appkit".into() });
    let r: RpcRequestPayload = serde_json::from_value(json!({"method": "eth_chainId", "params": [], "chainId": 1, "chainNamespace": "eip155"})).unwrap();
    assert_eq!(r.chain_namespace, Some(ChainNamespace::parse("eip155").unwrap()));
    round_trip(&r);
    let b: BatchCalls = serde_json::from_value(json!({"chainId": "0x1", "from": "0x1", "version": "1.0", "calls": [{"to": "0x2", "data": "0x", "value": "0x0"}]})).unwrap();
    round_trip(&b);
    round_trip(&EnsSuggestion { name: "a.reown.id".into(), registered: Some(false) });
}

#[test]
fn wallet_asset_and_tokens_round_trip() {
    let a: WalletAsset = serde_json::from_value(json!({"address": "native", "balance": "0x10", "type": "NATIVE",
        "metadata": {"name": "Ether", "symbol": "ETH", "decimals": 18, "price": 3000.5, "iconUrl": "i"}})).unwrap();
    assert_eq!(a.asset_type, WalletAssetType::Native);
    round_trip(&a);
    let tb = TokenBalance { name: "USDC".into(), symbol: "USDC".into(), chain_id: "eip155:1".into(), address: Some("0xa".into()), value: 1.5, price: 1.0, quantity: TokenQuantity { decimals: "6".into(), numeric: "1.5".into() }, icon_url: "i".into() };
    assert!(serde_json::to_value(&tb).unwrap().get("iconUrl").is_some());
    round_trip(&tb);
    round_trip(&SwapToken { name: "a".into(), symbol: "A".into(), address: "eip155:1:0x".into(), decimals: 6, logo_uri: "l".into(), quantity: TokenQuantity::default(), price: 1.0, value: 2.0 });
    round_trip(&Balance { balance: "1.0".into(), symbol: "ETH".into() });
    round_trip(&CachedBalance { balance: "1.0".into(), symbol: "ETH".into(), timestamp: 9 });
}

#[test]
fn onramp_types_round_trip() {
    let c: Currency = serde_json::from_value(json!({"id": "USDC", "name": "USD Coin", "symbol": "USDC",
        "networks": [{"name": "ethereum-mainnet", "display_name": "Ethereum", "chain_id": "1", "contract_address": "0xa"}],
        "payment_method_limits": [{"id": "card", "min": "10.00", "max": "7500.00"}]})).unwrap();
    round_trip(&c);
    let s = OnrampState { quotes_loading: true, purchase_currency: Some(c), ..Default::default() };
    let v = serde_json::to_value(&s).unwrap();
    assert_eq!(v["quotesLoading"], true);
    round_trip(&s);
}

#[test]
fn account_connector_connection_round_trip() {
    let mut acc = Account::new(ChainNamespace::parse("eip155").unwrap(), "0xabc");
    assert_eq!(acc.account_type, AccountType::SmartAccount);
    acc.user = Some(AccountUser { username: Some("u".into()), email: None });
    let v = serde_json::to_value(&acc).unwrap();
    assert_eq!(v["type"], "smartAccount");
    round_trip(&acc);
    let conn = Connector { id: "injected".into(), name: "Browser".into(), connector_type: ConnectorType::Injected, uid: None, image_url: None, image_id: None, explorer_id: None, info: Some(ConnectorInfo { rdns: Some("io.x".into()) }), provider: None, chain: ChainNamespace::parse("eip155").unwrap(), chains: vec!["eip155:1".into()], connectors: vec![] };
    assert_eq!(serde_json::to_value(&conn).unwrap()["type"], "INJECTED");
    round_trip(&conn);
    round_trip(&Connection { connector_id: "injected".into(), accounts: vec![ConnectionAccount { address: "0x1".into(), account_type: None }], chain_id: Some(ChainRef::Number(1)), connector: Some(conn) });
}

#[test]
fn default_account_types_per_namespace() {
    assert_eq!(ChainNamespace::parse("eip155").unwrap().default_account_type(), AccountType::SmartAccount);
    assert_eq!(ChainNamespace::parse("bip122").unwrap().default_account_type(), AccountType::Payment);
    assert_eq!(ChainNamespace::parse("polkadot").unwrap().default_account_type(), AccountType::Eoa);
    assert_eq!(ChainNamespace::parse("solana").unwrap().default_account_type(), AccountType::Eoa);
    assert_eq!(ChainNamespace::parse("cosmos"), Some(ChainNamespace::parse("cosmos").unwrap()));
    assert_eq!(ChainNamespace::parse("tron"), None);
}

proptest::proptest! {
    #[test]
    fn parsing_arbitrary_json_strings_never_panics(s in ".*") {
        let _ = serde_json::from_str::<Network>(&s);
        let _ = serde_json::from_str::<ProjectConfig>(&s);
        let _ = serde_json::from_str::<LoginUser>(&s);
        let _ = serde_json::from_str::<Transaction>(&s);
        let _ = ChainRef::String(s.clone()).as_u64();
    }
}
