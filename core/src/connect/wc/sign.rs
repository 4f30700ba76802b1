//! The dapp side of the WalletConnect sign protocol as a sans-IO state machine.
//!
//! [`SignClient::handle`] takes the current time and one [`Input`] and returns a [`Step`]: the
//! [`Output`]s (text frames to write on the relay socket, [`Event`]s for the UI) and the next
//! deadline at which the host should call again with [`Input::Tick`].
//!
//! # Randomness
//!
//! The client keeps a pool of random bytes fed by the host with [`Input::Entropy`] (the pool is
//! never persisted). Before each input the host tops it up with
//! `Input::Entropy(random(client.entropy_wanted()))`. Any input that may need randomness (keys,
//! ivs, message ids) fails with [`Error::NeedEntropy`] — changing nothing — when fewer than
//! [`ENTROPY_PER_INPUT`] bytes are available.
//!
//! # Flow
//!
//! * [`Command::Connect`] makes a pairing (4-minute expiry) and a proposer X25519 key, subscribes
//!   to the pairing topic, publishes `wc_sessionPropose` (tag 1100, ttl 300, `requiredNamespaces`
//!   `{}` unless given, the optional namespaces, `relays:[{protocol:"irn"}]`, the proposer, the
//!   `expiryTimestamp` and the `pairingTopic`) and emits [`Event::PairingUri`]. Once fewer than
//!   10 s of the pairing remain it emits [`Event::PairingExpired`]; a new `Connect` is allowed 1 s
//!   after the previous one.
//! * The wallet's answer on the pairing topic either rejects
//!   ([`Event::SessionProposalRejected`]) or gives `{relay, responderPublicKey}`: the session key
//!   is derived and its topic subscribed.
//! * `wc_sessionSettle` on that topic is validated (the controller is the responder, every
//!   account is CAIP-10 on a proposed chain, the expiry is in the future) and answered `true`
//!   (tag 1103) with [`Event::SessionSettled`], or answered with an error and
//!   [`Event::ConnectFailed`].
//! * [`Command::Request`] publishes `wc_sessionRequest` (tag 1108, with an `expiryTimestamp`);
//!   its response ends as [`Event::SessionRequestResult`], or code 8000 once expired.
//! * From the wallet: `wc_sessionEvent` → [`Event::SessionEvent`], `wc_sessionUpdate` →
//!   [`Event::SessionUpdated`], `wc_sessionExtend` → [`Event::SessionExtended`], `wc_sessionPing`
//!   answered, `wc_sessionDelete` → [`Event::SessionDeleted`]. The session expiring emits
//!   [`Event::SessionExpired`].
//! * [`Command::Disconnect`] sends `wc_sessionDelete` (6000 "User disconnected") and ends the
//!   session at once; [`Command::Ping`] and [`Command::Extend`] do what they say.
//!
//! Messages that cannot be decrypted or parsed, duplicates and our own messages echoed back by
//! the relay are acknowledged to the relay and dropped ([`Event::MessageDropped`]).
//!
//! The whole state survives a reload: [`SignClient::to_json`] / [`SignClient::from_json`]
//! (stored JSON is validated; hostile input is an error). After a reload, send
//! [`Input::Connected`] when the socket opens: pending relay requests are resent and topics
//! re-subscribed.

use std::collections::{BTreeMap, VecDeque};

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use super::crypto::{self, KeyPair};
use super::namespaces::{
    namespaces_for_chain, proposed_chains, session_chains, validate_proposal, validate_settled,
    ProposalNamespaces, SessionNamespaces,
};
use super::pairing::Pairing;
use super::relay::{
    ReceivedMessage, RelayClient, RelayConfig, RelayEvent, RelayOutput, RelayRequest,
};
use super::rpc::{self, codes, Message, PublishOpts, RawId, RpcError, SdkError};
use super::{hex32, hex_decode_array, hex_encode, Error, Result};

/// Session lifetime asked for by extensions: 7 days.
pub const SESSION_EXPIRY_S: u64 = 7 * 86_400;
/// Longest settled session expiry accepted from a wallet (30 days ahead).
pub const MAX_SETTLE_EXPIRY_S: u64 = 30 * 86_400;
/// Bounds of a session request's expiry (5 minutes to 7 days).
pub const MIN_REQUEST_EXPIRY_S: u64 = 300;
/// Upper bound of a session request's expiry.
pub const MAX_REQUEST_EXPIRY_S: u64 = 604_800;
/// How long a ping waits for its answer.
pub const PING_TIMEOUT_MS: u64 = 30_000;
/// How long an extension waits for its acknowledgement.
pub const EXTEND_TIMEOUT_MS: u64 = 300_000;
/// Random bytes that must be available to process an input.
pub const ENTROPY_PER_INPUT: usize = 128;
/// Pool size the host should keep topped up.
pub const ENTROPY_TARGET: usize = 1024;
const MAX_ENTROPY: usize = 16 * 1024;
const SEEN_CAPACITY: usize = 256;

/// App metadata (ours or the wallet's).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Metadata {
    /// Name.
    #[serde(default)]
    pub name: String,
    /// Description.
    #[serde(default)]
    pub description: String,
    /// Home page.
    #[serde(default)]
    pub url: String,
    /// Icon URLs.
    #[serde(default)]
    pub icons: Vec<String>,
    /// Deep links back to the app.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub redirect: Option<Redirect>,
}

/// Deep links of an app.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Redirect {
    /// Native scheme link.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub native: Option<String>,
    /// Universal link.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub universal: Option<String>,
}

/// A session participant.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Participant {
    /// X25519 public key, hex.
    pub public_key: String,
    /// Its metadata.
    #[serde(default)]
    pub metadata: Metadata,
}

/// Relay protocol options.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RelayProtocol {
    /// Protocol name (`irn`).
    pub protocol: String,
    /// Optional data.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data: Option<String>,
}

impl Default for RelayProtocol {
    fn default() -> Self {
        RelayProtocol {
            protocol: "irn".into(),
            data: None,
        }
    }
}

/// A settled session.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Session {
    /// Session topic.
    pub topic: String,
    /// Pairing topic it came from.
    pub pairing_topic: String,
    /// Relay options.
    pub relay: RelayProtocol,
    /// Us.
    #[serde(rename = "self")]
    pub self_participant: Participant,
    /// The wallet.
    pub peer: Participant,
    /// Controller public key (the wallet's).
    pub controller: String,
    /// Settled namespaces.
    pub namespaces: SessionNamespaces,
    /// What we required.
    pub required_namespaces: ProposalNamespaces,
    /// What we offered.
    pub optional_namespaces: ProposalNamespaces,
    /// Session properties sent by the wallet, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session_properties: Option<Value>,
    /// Expiry, unix seconds.
    pub expiry: u64,
    /// Settlement acknowledged.
    pub acknowledged: bool,
}

impl Session {
    /// CAIP-10 accounts of every namespace.
    pub fn accounts(&self) -> Vec<String> {
        self.namespaces
            .values()
            .flat_map(|n| n.accounts.iter().cloned())
            .collect()
    }
    /// CAIP-2 chains of the session.
    pub fn chains(&self) -> Vec<String> {
        session_chains(&self.namespaces).into_iter().collect()
    }
    /// Whether `method` may be requested on `chain_id`.
    pub fn allows_method(&self, chain_id: &str, method: &str) -> bool {
        namespaces_for_chain(&self.namespaces, chain_id)
            .any(|n| n.methods.iter().any(|m| m == method))
    }
    /// Whether the wallet may emit `event` on `chain_id`.
    pub fn allows_event(&self, chain_id: &str, event: &str) -> bool {
        namespaces_for_chain(&self.namespaces, chain_id)
            .any(|n| n.events.iter().any(|e| e == event))
    }
    fn proposed(&self) -> std::collections::BTreeSet<String> {
        proposed_chains([&self.required_namespaces, &self.optional_namespaces])
    }
}

/// Client configuration.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SignConfig {
    /// Our metadata, sent in the proposal.
    pub metadata: Metadata,
    /// Relay client tuning.
    #[serde(default)]
    pub relay: RelayConfig,
    /// Default expiry of session requests, seconds (clamped to 300..=604800).
    pub request_expiry_s: u64,
}

impl SignConfig {
    /// A configuration with our metadata and the defaults.
    pub fn new(metadata: Metadata) -> Self {
        SignConfig {
            metadata,
            relay: RelayConfig::default(),
            request_expiry_s: MIN_REQUEST_EXPIRY_S,
        }
    }
}

/// What the host feeds in. As JSON (externally tagged, camelCase): `"tick"`, `"connected"`,
/// `{"frame": "…"}`, `{"entropy": [1, 2, …]}`, `{"command": {"request": {"topic": …}}}`,
/// `{"command": "ping"}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Input {
    /// Random bytes for the pool.
    Entropy(Vec<u8>),
    /// The relay socket opened (first time or again).
    Connected,
    /// The relay socket closed.
    Disconnected,
    /// A text frame received on the socket.
    Frame(String),
    /// Time passed (call at the step's deadline).
    Tick,
    /// A user command.
    Command(Command),
}

/// User commands.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Command {
    /// Propose a session (shows a pairing URI).
    #[serde(rename_all = "camelCase")]
    Connect {
        /// Usually empty.
        #[serde(default)]
        required_namespaces: ProposalNamespaces,
        /// Built with [`super::namespaces::optional_namespaces_for`] from the configured chains.
        optional_namespaces: ProposalNamespaces,
        /// Optional session properties.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        session_properties: Option<BTreeMap<String, String>>,
    },
    /// Send a JSON-RPC request to the wallet.
    #[serde(rename_all = "camelCase")]
    Request {
        /// Session topic.
        topic: String,
        /// CAIP-2 chain.
        chain_id: String,
        /// Method, e.g. `personal_sign`.
        method: String,
        /// Its params.
        params: Value,
        /// Seconds until the request expires (default from the config).
        #[serde(default)]
        expiry_s: Option<u64>,
        /// Request id; drawn (ms × 1000 + 3 random digits) when absent.
        #[serde(default)]
        id: Option<u64>,
    },
    /// End the session (or cancel a pending proposal).
    Disconnect,
    /// Ping the wallet.
    Ping,
    /// Ask for 7 more days.
    Extend,
}

/// Outcome of a session request.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum RequestOutcome {
    /// The wallet's result.
    Result(Value),
    /// The wallet's (or our time-out) error.
    Error(RpcError),
}

/// Events for the UI.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum Event {
    /// Show this URI (QR code / deep link).
    PairingUri { uri: String },
    /// The pairing URI is (about to be) expired; connect again for a new one.
    PairingExpired,
    /// The wallet rejected the proposal.
    SessionProposalRejected { code: i64, message: String },
    /// The wallet's approval or settlement was invalid; the connection attempt is over.
    ConnectFailed { code: i64, message: String },
    /// Connected.
    SessionSettled { session: Session },
    /// A request of ours went out with this id.
    #[serde(rename_all = "camelCase")]
    RequestSent {
        id: u64,
        method: String,
        chain_id: Option<String>,
    },
    /// A session request finished.
    SessionRequestResult { id: u64, outcome: RequestOutcome },
    /// The wallet emitted an event (`accountsChanged`, `chainChanged`, …).
    #[serde(rename_all = "camelCase")]
    SessionEvent {
        name: String,
        data: Value,
        chain_id: String,
    },
    /// The wallet changed the namespaces.
    SessionUpdated { session: Session },
    /// The session now expires at `expiry` (unix seconds).
    SessionExtended { expiry: u64 },
    /// Our extension was refused or timed out.
    ExtendFailed { code: i64, message: String },
    /// A ping finished.
    PingResult { id: u64, ok: bool },
    /// The session ended (by us or by the wallet).
    SessionDeleted { code: i64, message: String },
    /// The session expired.
    SessionExpired,
    /// The relay refused or never answered a request.
    RelayFailure {
        method: String,
        code: Option<i64>,
        message: String,
    },
    /// A message was acknowledged and ignored.
    MessageDropped { topic: String, reason: String },
}

/// One output of a step.
#[allow(clippy::large_enum_variant)] // events are moved to the UI at once; boxing buys nothing
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "type", content = "value", rename_all = "camelCase")]
pub enum Output {
    /// Write this text frame to the relay socket.
    Send(String),
    /// Tell the UI.
    Event(Event),
}

/// The result of handling one input.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Step {
    /// Frames and events, in order.
    pub outputs: Vec<Output>,
    /// Call again with [`Input::Tick`] at this time (ms) at the latest.
    pub next_deadline_ms: Option<u64>,
}

impl Step {
    /// The frames to send.
    pub fn frames(&self) -> impl Iterator<Item = &str> {
        self.outputs.iter().filter_map(|o| {
            if let Output::Send(f) = o {
                Some(f.as_str())
            } else {
                None
            }
        })
    }
    /// The events.
    pub fn events(&self) -> impl Iterator<Item = &Event> {
        self.outputs.iter().filter_map(|o| {
            if let Output::Event(e) = o {
                Some(e)
            } else {
                None
            }
        })
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Approved {
    responder_public_key: String,
    #[serde(with = "hex32")]
    sym_key: [u8; 32],
    topic: String,
    relay: RelayProtocol,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Proposal {
    pairing: Pairing,
    id: u64,
    #[serde(with = "hex32")]
    secret: [u8; 32],
    public_key: String,
    required_namespaces: ProposalNamespaces,
    optional_namespaces: ProposalNamespaces,
    approved: Option<Approved>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct SessionState {
    session: Session,
    #[serde(with = "hex32")]
    sym_key: [u8; 32],
    settle_id: u64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
enum PendingKind {
    Request,
    Ping,
    Extend { expiry: u64 },
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct PendingRpc {
    kind: PendingKind,
    deadline_ms: u64,
}

/// The dapp-side sign client. See the module docs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SignClient {
    config: SignConfig,
    relay: RelayClient,
    proposal: Option<Proposal>,
    session: Option<SessionState>,
    pending: BTreeMap<u64, PendingRpc>,
    /// Ids of requests we sent or handled (own echoes and duplicates are dropped).
    seen: VecDeque<u64>,
    #[serde(skip)]
    entropy: Vec<u8>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum TopicKind {
    Pairing,
    Settling,
    Session,
}

type Out = Vec<Output>;

impl SignClient {
    /// A fresh client.
    pub fn new(config: SignConfig) -> Self {
        let relay = RelayClient::new(config.relay.clone());
        SignClient {
            config,
            relay,
            proposal: None,
            session: None,
            pending: BTreeMap::new(),
            seen: VecDeque::new(),
            entropy: Vec::new(),
        }
    }

    /// The settled session, if any.
    pub fn session(&self) -> Option<&Session> {
        self.session.as_ref().map(|s| &s.session)
    }

    /// The pairing URI of the pending proposal (to show it again after a reload).
    pub fn pairing_uri(&self) -> Option<String> {
        self.proposal
            .as_ref()
            .filter(|p| p.approved.is_none())
            .map(|p| p.pairing.uri().to_string())
    }

    /// How many random bytes the host should feed with [`Input::Entropy`] now.
    pub fn entropy_wanted(&self) -> usize {
        ENTROPY_TARGET.saturating_sub(self.entropy.len())
    }

    /// The next deadline (ms), also returned by every step.
    pub fn next_deadline(&self) -> Option<u64> {
        let mut d = self.relay.next_deadline();
        let mut add = |x: u64| d = Some(d.map_or(x, |y| y.min(x)));
        if let Some(p) = &self.proposal {
            add(p.pairing.expired_from_ms());
        }
        if let Some(s) = &self.session {
            add(s.session.expiry.saturating_mul(1000));
        }
        for p in self.pending.values() {
            add(p.deadline_ms);
        }
        d
    }

    /// Serialises the whole state (without the entropy pool).
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// Restores a state saved with [`SignClient::to_json`]; malformed or inconsistent JSON is an
    /// error. The entropy pool starts empty and the socket is considered closed.
    pub fn from_json(json: &str) -> Result<Self> {
        let client: SignClient =
            serde_json::from_str(json).map_err(|e| Error::Storage(e.to_string()))?;
        client.validate()?;
        Ok(client)
    }

    fn validate(&self) -> Result<()> {
        let bad = |m: &str| Err(Error::Storage(m.into()));
        self.relay.validate()?;
        if let Some(p) = &self.proposal {
            p.pairing.validate()?;
            if p.public_key != hex_encode(&crypto::x25519_public(&p.secret)) {
                return bad("proposal key mismatch");
            }
            if let Some(a) = &p.approved {
                if a.topic != crypto::topic_of(&a.sym_key)
                    || hex_decode_array::<32>(&a.responder_public_key).is_err()
                {
                    return bad("approval mismatch");
                }
            }
        }
        if let Some(s) = &self.session {
            if s.session.topic != crypto::topic_of(&s.sym_key) {
                return bad("session key mismatch");
            }
        }
        if self.seen.len() > SEEN_CAPACITY * 2 {
            return bad("too many ids");
        }
        Ok(())
    }

    /// Handles one input at `now_ms`. Errors leave the state unchanged.
    pub fn handle(&mut self, now_ms: u64, input: Input) -> Result<Step> {
        let mut out = Out::new();
        match input {
            Input::Entropy(bytes) => {
                let room = MAX_ENTROPY.saturating_sub(self.entropy.len());
                self.entropy.extend(bytes.into_iter().take(room));
            }
            Input::Disconnected => self.relay.on_disconnected(),
            other => {
                if self.entropy.len() < ENTROPY_PER_INPUT {
                    return Err(Error::NeedEntropy {
                        needed: ENTROPY_PER_INPUT - self.entropy.len(),
                    });
                }
                match other {
                    Input::Connected => {
                        let id = self.relay_id(now_ms);
                        out.extend(
                            self.relay
                                .on_connected(now_ms, id)
                                .into_iter()
                                .map(Output::Send),
                        );
                        self.on_tick(now_ms, &mut out);
                    }
                    Input::Tick => self.on_tick(now_ms, &mut out),
                    Input::Frame(frame) => {
                        // Parse before touching anything: a malformed frame changes nothing.
                        let relay_out = self.relay.handle_frame(&frame)?;
                        self.on_tick(now_ms, &mut out);
                        for o in relay_out {
                            match o {
                                RelayOutput::Send(f) => out.push(Output::Send(f)),
                                RelayOutput::Event(e) => self.on_relay_event(now_ms, e, &mut out),
                            }
                        }
                    }
                    Input::Command(cmd) => {
                        self.command(now_ms, cmd, &mut out)?;
                    }
                    Input::Entropy(_) | Input::Disconnected => {}
                }
            }
        }
        Ok(Step {
            outputs: out,
            next_deadline_ms: self.next_deadline(),
        })
    }

    // ----- randomness and ids -------------------------------------------------------------

    /// Draws `N` bytes from the pool. `handle` refuses inputs unless [`ENTROPY_PER_INPUT`] bytes
    /// are available, which covers the most any single input draws (a `Connect`: 90 bytes).
    fn take<const N: usize>(&mut self) -> [u8; N] {
        debug_assert!(
            self.entropy.len() >= N,
            "entropy pool exhausted within one input"
        );
        let mut a = [0u8; N];
        let n = N.min(self.entropy.len());
        a[..n].copy_from_slice(&self.entropy[..n]);
        self.entropy.drain(..n);
        a
    }

    fn relay_id(&mut self, now_ms: u64) -> u64 {
        let r = self.take::<3>();
        let r = (u32::from(r[0]) << 16 | u32::from(r[1]) << 8 | u32::from(r[2])) % 1_000_000;
        let mut id = now_ms
            .saturating_mul(1_000_000)
            .saturating_add(u64::from(r));
        while self.relay.is_pending(id) {
            id = id.wrapping_add(1);
        }
        id
    }

    fn sign_id(&mut self, now_ms: u64) -> u64 {
        let r = self.take::<2>();
        let r = u16::from_be_bytes(r) % 1000;
        let mut id = now_ms.saturating_mul(1000).saturating_add(u64::from(r));
        while self.pending.contains_key(&id) || self.seen.contains(&id) {
            id = id.wrapping_add(1);
        }
        id
    }

    fn remember(&mut self, id: u64) {
        if self.seen.len() >= SEEN_CAPACITY {
            self.seen.pop_front();
        }
        self.seen.push_back(id);
    }

    // ----- relay helpers -------------------------------------------------------------------

    fn relay_send(&mut self, now_ms: u64, request: RelayRequest, out: &mut Out) {
        let id = self.relay_id(now_ms);
        if let Ok(frame) = self.relay.request(id, request, now_ms) {
            out.push(Output::Send(frame));
        }
    }

    fn subscribe(&mut self, now_ms: u64, topic: &str, out: &mut Out) {
        if !self.relay.is_subscribed_or_pending(topic) {
            self.relay_send(
                now_ms,
                RelayRequest::Subscribe {
                    topic: topic.into(),
                },
                out,
            );
        }
    }

    fn unsubscribe(&mut self, now_ms: u64, topic: &str, out: &mut Out) {
        match self.relay.subscription_id(topic).map(str::to_string) {
            Some(sub) if !sub.is_empty() => self.relay_send(
                now_ms,
                RelayRequest::Unsubscribe {
                    topic: topic.into(),
                    subscription_id: sub,
                },
                out,
            ),
            _ => self.relay.forget_topic(topic),
        }
    }

    fn publish(
        &mut self,
        now_ms: u64,
        topic: &str,
        key: &[u8; 32],
        payload: &str,
        opts: PublishOpts,
        out: &mut Out,
    ) {
        let iv = self.take::<12>();
        let message = crypto::encrypt_type0(key, &iv, payload.as_bytes());
        let req = RelayRequest::Publish {
            topic: topic.into(),
            message,
            ttl: opts.ttl,
            tag: opts.tag,
            prompt: opts.prompt,
        };
        self.relay_send(now_ms, req, out);
    }

    #[allow(clippy::too_many_arguments)]
    fn send_request(
        &mut self,
        now_ms: u64,
        topic: &str,
        key: &[u8; 32],
        id: u64,
        method: &str,
        params: &Value,
        opts: Option<PublishOpts>,
        out: &mut Out,
    ) {
        let payload = rpc::request_json(&id.to_string(), method, params);
        let opts = opts
            .or_else(|| rpc::method_opts(method).map(|o| o.req))
            .unwrap_or(rpc::UNSUPPORTED_METHOD_RES);
        self.remember(id);
        self.publish(now_ms, topic, key, &payload, opts, out);
    }

    #[allow(clippy::too_many_arguments)]
    fn send_response(
        &mut self,
        now_ms: u64,
        topic: &str,
        key: &[u8; 32],
        id: &RawId,
        method: &str,
        outcome: core::result::Result<Value, RpcError>,
        out: &mut Out,
    ) {
        let payload = match &outcome {
            Ok(v) => rpc::result_json(id, v),
            Err(e) => rpc::error_json(id, e),
        };
        let opts = rpc::method_opts(method)
            .map(|o| o.res)
            .unwrap_or(rpc::UNSUPPORTED_METHOD_RES);
        self.publish(now_ms, topic, key, &payload, opts, out);
    }

    // ----- time ----------------------------------------------------------------------------

    fn on_tick(&mut self, now_ms: u64, out: &mut Out) {
        for o in self.relay.on_tick(now_ms) {
            match o {
                RelayOutput::Send(f) => out.push(Output::Send(f)),
                RelayOutput::Event(e) => self.on_relay_event(now_ms, e, out),
            }
        }
        if self
            .proposal
            .as_ref()
            .is_some_and(|p| p.pairing.is_expired(now_ms))
        {
            self.drop_proposal(now_ms, out);
            out.push(Output::Event(Event::PairingExpired));
        }
        let overdue: Vec<u64> = self
            .pending
            .iter()
            .filter(|(_, p)| p.deadline_ms <= now_ms)
            .map(|(id, _)| *id)
            .collect();
        for id in overdue {
            if let Some(p) = self.pending.remove(&id) {
                out.push(Output::Event(Self::failed(
                    id,
                    p.kind,
                    codes::SESSION_REQUEST_EXPIRED.into(),
                )));
            }
        }
        if self
            .session
            .as_ref()
            .is_some_and(|s| s.session.expiry.saturating_mul(1000) <= now_ms)
        {
            self.end_session(now_ms, codes::SESSION_REQUEST_EXPIRED.into(), out);
            out.push(Output::Event(Event::SessionExpired));
        }
    }

    fn failed(id: u64, kind: PendingKind, error: RpcError) -> Event {
        match kind {
            PendingKind::Request => Event::SessionRequestResult {
                id,
                outcome: RequestOutcome::Error(error),
            },
            PendingKind::Ping => Event::PingResult { id, ok: false },
            PendingKind::Extend { .. } => Event::ExtendFailed {
                code: error.code,
                message: error.message,
            },
        }
    }

    fn drop_proposal(&mut self, now_ms: u64, out: &mut Out) {
        if let Some(p) = self.proposal.take() {
            self.unsubscribe(now_ms, p.pairing.topic(), out);
            if let Some(a) = p.approved {
                self.unsubscribe(now_ms, &a.topic, out);
            }
        }
    }

    /// Ends the session locally: fails what is pending with `error`, unsubscribes.
    fn end_session(&mut self, now_ms: u64, error: RpcError, out: &mut Out) {
        if let Some(s) = self.session.take() {
            for (id, p) in std::mem::take(&mut self.pending) {
                out.push(Output::Event(Self::failed(id, p.kind, error.clone())));
            }
            self.unsubscribe(now_ms, &s.session.topic, out);
        }
    }

    // ----- commands ------------------------------------------------------------------------

    fn command(&mut self, now_ms: u64, cmd: Command, out: &mut Out) -> Result<()> {
        match cmd {
            Command::Connect {
                required_namespaces,
                optional_namespaces,
                session_properties,
            } => self.connect(
                now_ms,
                required_namespaces,
                optional_namespaces,
                session_properties,
                out,
            ),
            Command::Request {
                topic,
                chain_id,
                method,
                params,
                expiry_s,
                id,
            } => self.request(
                now_ms, &topic, &chain_id, &method, params, expiry_s, id, out,
            ),
            Command::Disconnect => {
                if let Some(s) = &self.session {
                    let (topic, key) = (s.session.topic.clone(), s.sym_key);
                    let id = self.sign_id(now_ms);
                    let e = codes::USER_DISCONNECTED;
                    self.send_request(
                        now_ms,
                        &topic,
                        &key,
                        id,
                        "wc_sessionDelete",
                        &json!({"code": e.code, "message": e.message}),
                        None,
                        out,
                    );
                    self.end_session(now_ms, e.into(), out);
                    out.push(Output::Event(Event::SessionDeleted {
                        code: e.code,
                        message: e.message.into(),
                    }));
                } else {
                    self.drop_proposal(now_ms, out);
                }
                Ok(())
            }
            Command::Ping => {
                let (topic, key) = self.session_topic_key()?;
                let id = self.sign_id(now_ms);
                self.send_request(
                    now_ms,
                    &topic,
                    &key,
                    id,
                    "wc_sessionPing",
                    &json!({}),
                    None,
                    out,
                );
                self.pending.insert(
                    id,
                    PendingRpc {
                        kind: PendingKind::Ping,
                        deadline_ms: now_ms.saturating_add(PING_TIMEOUT_MS),
                    },
                );
                out.push(Output::Event(Event::RequestSent {
                    id,
                    method: "wc_sessionPing".into(),
                    chain_id: None,
                }));
                Ok(())
            }
            Command::Extend => {
                let (topic, key) = self.session_topic_key()?;
                let id = self.sign_id(now_ms);
                let expiry = now_ms / 1000 + SESSION_EXPIRY_S;
                self.send_request(
                    now_ms,
                    &topic,
                    &key,
                    id,
                    "wc_sessionExtend",
                    &json!({ "expiry": expiry }),
                    None,
                    out,
                );
                self.pending.insert(
                    id,
                    PendingRpc {
                        kind: PendingKind::Extend { expiry },
                        deadline_ms: now_ms.saturating_add(EXTEND_TIMEOUT_MS),
                    },
                );
                out.push(Output::Event(Event::RequestSent {
                    id,
                    method: "wc_sessionExtend".into(),
                    chain_id: None,
                }));
                Ok(())
            }
        }
    }

    fn session_topic_key(&self) -> Result<(String, [u8; 32])> {
        let s = self
            .session
            .as_ref()
            .ok_or(Error::InvalidState("no session"))?;
        Ok((s.session.topic.clone(), s.sym_key))
    }

    fn connect(
        &mut self,
        now_ms: u64,
        required: ProposalNamespaces,
        optional: ProposalNamespaces,
        session_properties: Option<BTreeMap<String, String>>,
        out: &mut Out,
    ) -> Result<()> {
        if self.session.is_some() {
            return Err(Error::InvalidState("a session is active; disconnect first"));
        }
        if let Some(p) = &self.proposal {
            if !p.pairing.can_replace(now_ms) {
                return Err(Error::TooSoon {
                    retry_at_ms: p.pairing.replaceable_from_ms(),
                });
            }
        }
        validate_proposal(&required).map_err(Error::InvalidParams)?;
        validate_proposal(&optional).map_err(Error::InvalidParams)?;
        if required.is_empty() && optional.is_empty() {
            return Err(Error::InvalidParams("no namespaces to propose"));
        }
        self.drop_proposal(now_ms, out);

        let pairing = Pairing::new(self.take::<32>(), now_ms);
        let keys = KeyPair::from_secret(self.take::<32>());
        let id = self.sign_id(now_ms);
        let public_key = hex_encode(&keys.public());
        let mut params = json!({
            "requiredNamespaces": required,
            "optionalNamespaces": optional,
            "relays": [{"protocol": "irn"}],
            "proposer": {"publicKey": public_key, "metadata": self.config.metadata},
            "expiryTimestamp": pairing.expiry_timestamp(),
            "pairingTopic": pairing.topic(),
        });
        if let Some(props) = session_properties {
            params["sessionProperties"] = json!(props);
        }
        let (topic, key) = (pairing.topic().to_string(), *pairing.sym_key());
        self.subscribe(now_ms, &topic, out);
        self.send_request(
            now_ms,
            &topic,
            &key,
            id,
            "wc_sessionPropose",
            &params,
            None,
            out,
        );
        out.push(Output::Event(Event::PairingUri {
            uri: pairing.uri().to_string(),
        }));
        self.proposal = Some(Proposal {
            pairing,
            id,
            secret: keys.secret(),
            public_key,
            required_namespaces: required,
            optional_namespaces: optional,
            approved: None,
        });
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    fn request(
        &mut self,
        now_ms: u64,
        topic: &str,
        chain_id: &str,
        method: &str,
        params: Value,
        expiry_s: Option<u64>,
        id: Option<u64>,
        out: &mut Out,
    ) -> Result<()> {
        let s = self
            .session
            .as_ref()
            .ok_or(Error::InvalidState("no session"))?;
        if s.session.topic != topic {
            return Err(Error::InvalidState("no session for this topic"));
        }
        if !session_chains(&s.session.namespaces).contains(chain_id) {
            let e = codes::UNSUPPORTED_CHAINS;
            return Err(Error::Unauthorized {
                code: e.code,
                message: e.message,
            });
        }
        if !s.session.allows_method(chain_id, method) {
            let e = codes::UNSUPPORTED_METHODS;
            return Err(Error::Unauthorized {
                code: e.code,
                message: e.message,
            });
        }
        let key = s.sym_key;
        let id = match id {
            Some(id) if self.pending.contains_key(&id) || self.seen.contains(&id) => {
                return Err(Error::DuplicateId(id))
            }
            Some(id) => id,
            None => self.sign_id(now_ms),
        };
        let expiry = expiry_s
            .unwrap_or(self.config.request_expiry_s)
            .clamp(MIN_REQUEST_EXPIRY_S, MAX_REQUEST_EXPIRY_S);
        let expiry_ts = now_ms / 1000 + expiry;
        let params = json!({
            "request": {"method": method, "params": params, "expiryTimestamp": expiry_ts},
            "chainId": chain_id,
        });
        let base = rpc::method_opts("wc_sessionRequest")
            .map(|o| o.req)
            .unwrap_or(rpc::UNSUPPORTED_METHOD_RES);
        let opts = PublishOpts {
            ttl: base.ttl.max(expiry),
            ..base
        };
        self.send_request(
            now_ms,
            topic,
            &key,
            id,
            "wc_sessionRequest",
            &params,
            Some(opts),
            out,
        );
        self.pending.insert(
            id,
            PendingRpc {
                kind: PendingKind::Request,
                deadline_ms: expiry_ts.saturating_mul(1000),
            },
        );
        out.push(Output::Event(Event::RequestSent {
            id,
            method: method.into(),
            chain_id: Some(chain_id.into()),
        }));
        Ok(())
    }

    // ----- incoming ------------------------------------------------------------------------

    fn on_relay_event(&mut self, now_ms: u64, event: RelayEvent, out: &mut Out) {
        match event {
            RelayEvent::Message { message, .. } => self.on_message(now_ms, message, out),
            RelayEvent::Rejected { request, error, .. } => {
                out.push(Output::Event(Event::RelayFailure {
                    method: request.method().into(),
                    code: Some(error.code),
                    message: error.message,
                }))
            }
            RelayEvent::TimedOut { request, .. } => out.push(Output::Event(Event::RelayFailure {
                method: request.method().into(),
                code: None,
                message: "timed out".into(),
            })),
            _ => {}
        }
    }

    fn topic_key(&self, topic: &str) -> Option<(TopicKind, [u8; 32])> {
        if let Some(p) = &self.proposal {
            if p.pairing.topic() == topic {
                return Some((TopicKind::Pairing, *p.pairing.sym_key()));
            }
            if let Some(a) = p.approved.as_ref().filter(|a| a.topic == topic) {
                return Some((TopicKind::Settling, a.sym_key));
            }
        }
        self.session
            .as_ref()
            .filter(|s| s.session.topic == topic)
            .map(|s| (TopicKind::Session, s.sym_key))
    }

    fn on_message(&mut self, now_ms: u64, msg: ReceivedMessage, out: &mut Out) {
        let drop = |out: &mut Out, reason: &str| {
            out.push(Output::Event(Event::MessageDropped {
                topic: msg.topic.chars().take(64).collect(),
                reason: reason.into(),
            }))
        };
        let Some((kind, key)) = self.topic_key(&msg.topic) else {
            return drop(out, "unknown topic");
        };
        let Ok(plain) = crypto::decrypt_type0(&key, &msg.message) else {
            return drop(out, "undecryptable");
        };
        let Ok(text) = String::from_utf8(plain) else {
            return drop(out, "not utf-8");
        };
        let Ok(message) = rpc::parse_message(&text) else {
            return drop(out, "not json-rpc");
        };
        let topic = msg.topic.clone();
        match message {
            Message::Request { id, method, params } => {
                let Some(num) = id.value() else {
                    return drop(out, "request id is not an integer");
                };
                if self.seen.contains(&num) || self.pending.contains_key(&num) {
                    return drop(out, "duplicate or own message");
                }
                if matches!(
                    method.as_str(),
                    "wc_sessionPropose" | "wc_sessionRequest" | "wc_sessionAuthenticate"
                ) {
                    return drop(out, "request meant for a wallet");
                }
                self.remember(num);
                match kind {
                    TopicKind::Pairing => {
                        self.on_pairing_request(now_ms, &topic, &key, id, &method, params, out)
                    }
                    TopicKind::Settling | TopicKind::Session => self
                        .on_session_request(now_ms, kind, &topic, &key, id, &method, params, out),
                }
            }
            Message::Response { id, outcome } => {
                let Some(num) = id.value() else {
                    return drop(out, "response id is not an integer");
                };
                let handled = match kind {
                    TopicKind::Pairing => self.on_proposal_response(now_ms, num, outcome, out),
                    TopicKind::Settling | TopicKind::Session => {
                        self.on_session_response(num, outcome, out)
                    }
                };
                if !handled {
                    drop(out, "unmatched response");
                }
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn on_pairing_request(
        &mut self,
        now_ms: u64,
        topic: &str,
        key: &[u8; 32],
        id: RawId,
        method: &str,
        params: Value,
        out: &mut Out,
    ) {
        match method {
            "wc_pairingPing" | "wc_pairingExtend" => {
                self.send_response(now_ms, topic, key, &id, method, Ok(Value::Bool(true)), out)
            }
            "wc_pairingDelete" => {
                self.send_response(now_ms, topic, key, &id, method, Ok(Value::Bool(true)), out);
                if self.proposal.as_ref().is_some_and(|p| p.approved.is_none()) {
                    let (code, message) = reason_of(&params, codes::USER_REJECTED);
                    self.drop_proposal(now_ms, out);
                    out.push(Output::Event(Event::SessionProposalRejected {
                        code,
                        message,
                    }));
                }
            }
            _ => self.send_response(
                now_ms,
                topic,
                key,
                &id,
                method,
                Err(codes::METHOD_NOT_FOUND.into()),
                out,
            ),
        }
    }

    fn on_proposal_response(
        &mut self,
        now_ms: u64,
        id: u64,
        outcome: core::result::Result<Value, RpcError>,
        out: &mut Out,
    ) -> bool {
        let Some(p) = self.proposal.as_ref() else {
            return false;
        };
        if p.id != id || p.approved.is_some() {
            return false;
        }
        let result = match outcome {
            Ok(v) => v,
            Err(e) => {
                self.drop_proposal(now_ms, out);
                out.push(Output::Event(Event::SessionProposalRejected {
                    code: e.code,
                    message: e.message,
                }));
                return true;
            }
        };
        #[derive(Deserialize)]
        #[serde(rename_all = "camelCase")]
        struct Approval {
            #[serde(default)]
            relay: Option<RelayProtocol>,
            responder_public_key: String,
        }
        let approved = rpc::from_json_value::<Approval>(&result).and_then(|a| {
            let peer = hex_decode_array::<32>(&a.responder_public_key).ok()?;
            let sym_key = crypto::derive_sym_key(&p.secret, &peer).ok()?;
            Some(Approved {
                responder_public_key: hex_encode(&peer),
                sym_key,
                topic: crypto::topic_of(&sym_key),
                relay: a.relay.unwrap_or_default(),
            })
        });
        match approved {
            Some(a) => {
                let topic = a.topic.clone();
                if let Some(p) = self.proposal.as_mut() {
                    p.approved = Some(a);
                }
                self.subscribe(now_ms, &topic, out);
            }
            None => {
                self.drop_proposal(now_ms, out);
                let e = codes::SESSION_SETTLEMENT_FAILED;
                out.push(Output::Event(Event::ConnectFailed {
                    code: e.code,
                    message: "Invalid proposal response".into(),
                }));
            }
        }
        true
    }

    #[allow(clippy::too_many_arguments)]
    fn on_session_request(
        &mut self,
        now_ms: u64,
        kind: TopicKind,
        topic: &str,
        key: &[u8; 32],
        id: RawId,
        method: &str,
        params: Value,
        out: &mut Out,
    ) {
        let ok = Ok(Value::Bool(true));
        match (kind, method) {
            (_, "wc_sessionPing") => self.send_response(now_ms, topic, key, &id, method, ok, out),
            (TopicKind::Settling, "wc_sessionSettle") => {
                self.on_settle(now_ms, topic, key, id, params, out)
            }
            (TopicKind::Session, "wc_sessionSettle") => {
                let same = self
                    .session
                    .as_ref()
                    .is_some_and(|s| Some(s.settle_id) == id.value());
                let reply = if same {
                    ok
                } else {
                    Err(codes::INVALID_SESSION_SETTLE_REQUEST.into())
                };
                self.send_response(now_ms, topic, key, &id, method, reply, out);
            }
            (TopicKind::Settling, _) => self.send_response(
                now_ms,
                topic,
                key,
                &id,
                method,
                Err(codes::NO_SESSION_FOR_TOPIC.into()),
                out,
            ),
            (_, "wc_sessionUpdate") => {
                let reply = self.on_update(&params);
                let updated = reply.is_ok();
                self.send_response(
                    now_ms,
                    topic,
                    key,
                    &id,
                    method,
                    reply.map(|_| Value::Bool(true)),
                    out,
                );
                if let (true, Some(s)) = (updated, &self.session) {
                    out.push(Output::Event(Event::SessionUpdated {
                        session: s.session.clone(),
                    }));
                }
            }
            (_, "wc_sessionExtend") => {
                let reply = self.on_extend(now_ms, &params);
                self.send_response(
                    now_ms,
                    topic,
                    key,
                    &id,
                    method,
                    reply.clone().map(|_| Value::Bool(true)),
                    out,
                );
                if let Ok(expiry) = reply {
                    out.push(Output::Event(Event::SessionExtended { expiry }));
                }
            }
            (_, "wc_sessionEvent") => {
                let reply = self.on_event(&params);
                match reply {
                    Ok(ev) => {
                        self.send_response(now_ms, topic, key, &id, method, ok, out);
                        out.push(Output::Event(ev));
                    }
                    Err(e) => self.send_response(now_ms, topic, key, &id, method, Err(e), out),
                }
            }
            (_, "wc_sessionDelete") => {
                self.send_response(now_ms, topic, key, &id, method, ok, out);
                let (code, message) = reason_of(&params, codes::USER_DISCONNECTED);
                self.end_session(
                    now_ms,
                    RpcError {
                        code,
                        message: message.clone(),
                        data: None,
                    },
                    out,
                );
                out.push(Output::Event(Event::SessionDeleted { code, message }));
            }
            _ => self.send_response(
                now_ms,
                topic,
                key,
                &id,
                method,
                Err(codes::METHOD_NOT_FOUND.into()),
                out,
            ),
        }
    }

    fn on_settle(
        &mut self,
        now_ms: u64,
        topic: &str,
        key: &[u8; 32],
        id: RawId,
        params: Value,
        out: &mut Out,
    ) {
        match self.check_settle(now_ms, topic, key, &id, params) {
            Ok(state) => {
                self.send_response(
                    now_ms,
                    topic,
                    key,
                    &id,
                    "wc_sessionSettle",
                    Ok(Value::Bool(true)),
                    out,
                );
                let session = state.session.clone();
                if let Some(p) = self.proposal.take() {
                    self.unsubscribe(now_ms, p.pairing.topic(), out);
                }
                self.session = Some(state);
                out.push(Output::Event(Event::SessionSettled { session }));
            }
            Err(e) => {
                self.send_response(
                    now_ms,
                    topic,
                    key,
                    &id,
                    "wc_sessionSettle",
                    Err(e.into()),
                    out,
                );
                self.drop_proposal(now_ms, out);
                out.push(Output::Event(Event::ConnectFailed {
                    code: e.code,
                    message: e.message.into(),
                }));
            }
        }
    }

    fn check_settle(
        &self,
        now_ms: u64,
        topic: &str,
        key: &[u8; 32],
        id: &RawId,
        params: Value,
    ) -> core::result::Result<SessionState, SdkError> {
        #[derive(Deserialize)]
        #[serde(rename_all = "camelCase")]
        struct Settle {
            #[serde(default)]
            relay: Option<RelayProtocol>,
            controller: Participant,
            namespaces: SessionNamespaces,
            #[serde(default)]
            session_properties: Option<Value>,
            expiry: u64,
        }
        let invalid = codes::INVALID_SESSION_SETTLE_REQUEST;
        let p = self.proposal.as_ref().ok_or(invalid)?;
        let a = p.approved.as_ref().ok_or(invalid)?;
        let settle: Settle = rpc::from_json_value(&params).ok_or(invalid)?;
        if !settle
            .controller
            .public_key
            .eq_ignore_ascii_case(&a.responder_public_key)
        {
            return Err(invalid);
        }
        validate_settled(
            &settle.namespaces,
            &proposed_chains([&p.required_namespaces, &p.optional_namespaces]),
        )?;
        let now_s = now_ms / 1000;
        if settle.expiry <= now_s || settle.expiry > now_s.saturating_add(MAX_SETTLE_EXPIRY_S) {
            return Err(invalid);
        }
        let session = Session {
            topic: topic.into(),
            pairing_topic: p.pairing.topic().into(),
            relay: settle.relay.unwrap_or_else(|| a.relay.clone()),
            self_participant: Participant {
                public_key: p.public_key.clone(),
                metadata: self.config.metadata.clone(),
            },
            peer: Participant {
                public_key: a.responder_public_key.clone(),
                metadata: settle.controller.metadata,
            },
            controller: a.responder_public_key.clone(),
            namespaces: settle.namespaces,
            required_namespaces: p.required_namespaces.clone(),
            optional_namespaces: p.optional_namespaces.clone(),
            session_properties: settle.session_properties,
            expiry: settle.expiry,
            acknowledged: true,
        };
        Ok(SessionState {
            session,
            sym_key: *key,
            settle_id: id.value().unwrap_or_default(),
        })
    }

    fn on_update(&mut self, params: &Value) -> core::result::Result<(), RpcError> {
        let s = self
            .session
            .as_mut()
            .ok_or(RpcError::from(codes::NO_SESSION_FOR_TOPIC))?;
        let ns = params
            .get("namespaces")
            .cloned()
            .ok_or(RpcError::from(codes::INVALID_PARAMS))?;
        let ns: SessionNamespaces =
            rpc::from_json_value(&ns).ok_or(RpcError::from(codes::INVALID_PARAMS))?;
        validate_settled(&ns, &s.session.proposed())?;
        s.session.namespaces = ns;
        Ok(())
    }

    fn on_extend(&mut self, now_ms: u64, params: &Value) -> core::result::Result<u64, RpcError> {
        let s = self
            .session
            .as_mut()
            .ok_or(RpcError::from(codes::NO_SESSION_FOR_TOPIC))?;
        let week = (now_ms / 1000).saturating_add(SESSION_EXPIRY_S);
        // The spec sends `{expiry}`; the official JS clients send `{}` and let the receiver set
        // a week from now.
        let expiry = match params.get("expiry") {
            None | Some(Value::Null) => week.max(s.session.expiry),
            Some(v) => v
                .as_u64()
                .ok_or(RpcError::from(codes::INVALID_EXTEND_REQUEST))?,
        };
        // Not shorter than today, not beyond a week from now (a minute of clock skew allowed).
        if expiry < s.session.expiry || expiry > week.saturating_add(60) {
            return Err(codes::INVALID_EXTEND_REQUEST.into());
        }
        s.session.expiry = expiry;
        Ok(expiry)
    }

    fn on_event(&self, params: &Value) -> core::result::Result<Event, RpcError> {
        let s = self
            .session
            .as_ref()
            .ok_or(RpcError::from(codes::NO_SESSION_FOR_TOPIC))?;
        let chain_id = params
            .get("chainId")
            .and_then(Value::as_str)
            .ok_or(RpcError::from(codes::INVALID_PARAMS))?;
        let event = params
            .get("event")
            .ok_or(RpcError::from(codes::INVALID_PARAMS))?;
        let name = event
            .get("name")
            .and_then(Value::as_str)
            .ok_or(RpcError::from(codes::INVALID_PARAMS))?;
        if !session_chains(&s.session.namespaces).contains(chain_id) {
            return Err(codes::UNSUPPORTED_CHAINS.into());
        }
        if !s.session.allows_event(chain_id, name) {
            return Err(codes::UNSUPPORTED_EVENTS.into());
        }
        let data = event.get("data").cloned().unwrap_or(Value::Null);
        Ok(Event::SessionEvent {
            name: name.into(),
            data,
            chain_id: chain_id.into(),
        })
    }

    fn on_session_response(
        &mut self,
        id: u64,
        outcome: core::result::Result<Value, RpcError>,
        out: &mut Out,
    ) -> bool {
        let Some(p) = self.pending.remove(&id) else {
            return false;
        };
        let event = match (p.kind, outcome) {
            (PendingKind::Request, Ok(v)) => Event::SessionRequestResult {
                id,
                outcome: RequestOutcome::Result(v),
            },
            (PendingKind::Request, Err(e)) => Event::SessionRequestResult {
                id,
                outcome: RequestOutcome::Error(e),
            },
            (PendingKind::Ping, o) => Event::PingResult { id, ok: o.is_ok() },
            (PendingKind::Extend { expiry }, Ok(_)) => match self.session.as_mut() {
                Some(s) => {
                    s.session.expiry = s.session.expiry.max(expiry);
                    Event::SessionExtended {
                        expiry: s.session.expiry,
                    }
                }
                None => return true,
            },
            (PendingKind::Extend { .. }, Err(e)) => Event::ExtendFailed {
                code: e.code,
                message: e.message,
            },
        };
        out.push(Output::Event(event));
        true
    }
}

/// `{code, message}` of a delete request, or the default.
fn reason_of(params: &Value, default: SdkError) -> (i64, String) {
    let code = params
        .get("code")
        .and_then(Value::as_i64)
        .unwrap_or(default.code);
    let message = params
        .get("message")
        .and_then(Value::as_str)
        .map(|m| m.chars().take(512).collect())
        .unwrap_or_else(|| default.message.to_string());
    (code, message)
}
