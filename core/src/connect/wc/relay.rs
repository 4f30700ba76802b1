//! The relay JSON-RPC client, as a state machine.
//!
//! * [`RelayClient::request`] turns an [`RelayRequest`] (`irn_publish`, `irn_subscribe`,
//!   `irn_batchSubscribe`, `irn_unsubscribe`, `irn_fetchMessages`, `irn_batchFetchMessages`) and a
//!   caller-supplied id into a text frame, and remembers it until its response arrives.
//! * [`RelayClient::handle_frame`] matches responses to pending requests (the id may come back as
//!   a number or as a string) and turns `irn_subscription` pushes into [`RelayEvent::Message`]
//!   plus the acknowledgement frame `{"id":…,"jsonrpc":"2.0","result":true}` that echoes the
//!   push's id exactly as received.
//! * Time-outs: while the socket is up each request has a deadline; [`RelayClient::on_tick`]
//!   resends overdue requests (same id) up to `max_attempts` times, then gives up with
//!   [`RelayEvent::TimedOut`]. [`RelayClient::on_connected`] resends everything pending on a new
//!   socket and re-subscribes the topics we held; [`RelayClient::on_disconnected`] pauses timers.
//!
//! Note for relay implementers: the official wallet SDK (2.2x) approves a proposal with the
//! relay-level method `wc_approveSession {sessionTopic, pairingTopic, sessionProposalResponse,
//! sessionSettlementRequest, ttl, …}` (the relay publishes both envelopes and subscribes the
//! wallet to the session topic) and official dapps propose with `wc_proposeSession
//! {pairingTopic, sessionProposal, …}`. This client only needs the `irn_*` methods: what such
//! calls publish reaches it as ordinary `irn_subscription` pushes.
//!
//! Ids go out as strings by default (as the official clients send them; a relay echoes them
//! verbatim), or as numbers with `string_ids: false`.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use super::rpc::{self, Message, RawId, RpcError};
use super::{is_topic, Error, Result};

/// Relay client tuning.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RelayConfig {
    /// Time to wait for a response before resending.
    pub timeout_ms: u64,
    /// Sends per request before giving up (1 = no retry).
    pub max_attempts: u32,
    /// Write request ids as JSON strings (default) rather than numbers.
    pub string_ids: bool,
}

impl Default for RelayConfig {
    fn default() -> Self {
        RelayConfig {
            timeout_ms: 10_000,
            max_attempts: 3,
            string_ids: true,
        }
    }
}

/// A request to the relay.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", rename_all_fields = "camelCase")]
pub enum RelayRequest {
    /// `irn_publish {topic, message, ttl, tag, prompt?}`.
    Publish {
        topic: String,
        message: String,
        ttl: u64,
        tag: u32,
        prompt: bool,
    },
    /// `irn_subscribe {topic}`.
    Subscribe { topic: String },
    /// `irn_batchSubscribe {topics}`.
    BatchSubscribe { topics: Vec<String> },
    /// `irn_unsubscribe {topic, id}`.
    Unsubscribe {
        topic: String,
        subscription_id: String,
    },
    /// `irn_fetchMessages {topic}`.
    FetchMessages { topic: String },
    /// `irn_batchFetchMessages {topics}`.
    BatchFetchMessages { topics: Vec<String> },
}

impl RelayRequest {
    /// The JSON-RPC method name.
    pub fn method(&self) -> &'static str {
        match self {
            RelayRequest::Publish { .. } => "irn_publish",
            RelayRequest::Subscribe { .. } => "irn_subscribe",
            RelayRequest::BatchSubscribe { .. } => "irn_batchSubscribe",
            RelayRequest::Unsubscribe { .. } => "irn_unsubscribe",
            RelayRequest::FetchMessages { .. } => "irn_fetchMessages",
            RelayRequest::BatchFetchMessages { .. } => "irn_batchFetchMessages",
        }
    }

    fn params(&self) -> Value {
        match self {
            RelayRequest::Publish {
                topic,
                message,
                ttl,
                tag,
                prompt,
            } => {
                let mut p = json!({"topic": topic, "message": message, "ttl": ttl, "tag": tag});
                if *prompt {
                    p["prompt"] = Value::Bool(true);
                }
                p
            }
            RelayRequest::Subscribe { topic } | RelayRequest::FetchMessages { topic } => {
                json!({ "topic": topic })
            }
            RelayRequest::BatchSubscribe { topics }
            | RelayRequest::BatchFetchMessages { topics } => {
                json!({ "topics": topics })
            }
            RelayRequest::Unsubscribe {
                topic,
                subscription_id,
            } => json!({"topic": topic, "id": subscription_id}),
        }
    }

    fn topics(&self) -> Vec<&String> {
        match self {
            RelayRequest::Publish { topic, .. }
            | RelayRequest::Subscribe { topic }
            | RelayRequest::Unsubscribe { topic, .. }
            | RelayRequest::FetchMessages { topic } => vec![topic],
            RelayRequest::BatchSubscribe { topics }
            | RelayRequest::BatchFetchMessages { topics } => topics.iter().collect(),
        }
    }

    /// The text frame of this request under `id`.
    pub fn to_frame(&self, id: u64, string_ids: bool) -> String {
        let id = if string_ids {
            format!("\"{id}\"")
        } else {
            id.to_string()
        };
        rpc::request_json(&id, self.method(), &self.params())
    }
}

/// A message delivered by the relay.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ReceivedMessage {
    /// Topic it was published on.
    pub topic: String,
    /// The (encrypted) message.
    pub message: String,
    /// Publication time, ms.
    #[serde(default)]
    pub published_at: u64,
    /// Relay tag.
    #[serde(default)]
    pub tag: u32,
}

/// What the relay client reports.
#[derive(Debug, Clone, PartialEq)]
pub enum RelayEvent {
    /// `irn_publish` acknowledged.
    Published { id: u64, topic: String },
    /// `irn_subscribe` answered with a subscription id.
    Subscribed {
        id: u64,
        topic: String,
        subscription_id: String,
    },
    /// `irn_batchSubscribe` answered.
    BatchSubscribed {
        id: u64,
        topics: Vec<String>,
        subscription_ids: Vec<String>,
    },
    /// `irn_unsubscribe` acknowledged.
    Unsubscribed { id: u64, topic: String },
    /// `irn_fetchMessages` / `irn_batchFetchMessages` answered.
    Fetched {
        id: u64,
        messages: Vec<ReceivedMessage>,
        has_more: bool,
    },
    /// A message pushed with `irn_subscription` (already acknowledged by a `Send` output).
    Message {
        subscription_id: String,
        message: ReceivedMessage,
    },
    /// The relay answered a request with an error.
    Rejected {
        id: u64,
        request: RelayRequest,
        error: RpcError,
    },
    /// No answer after every attempt.
    TimedOut { id: u64, request: RelayRequest },
    /// A response that matches no pending request (e.g. a late duplicate after a retry).
    Unmatched { id: String },
    /// A server request we do not handle (answered with an error by a `Send` output).
    UnknownServerRequest { method: String },
}

/// Output of the relay client: frames to write and events.
#[derive(Debug, Clone, PartialEq)]
pub enum RelayOutput {
    /// Write this text frame to the socket.
    Send(String),
    /// Something happened.
    Event(RelayEvent),
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Pending {
    request: RelayRequest,
    attempts: u32,
    deadline_ms: Option<u64>,
}

/// The relay client state: pending requests and current subscriptions.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RelayClient {
    config: RelayConfig,
    pending: BTreeMap<u64, Pending>,
    /// topic → subscription id.
    subscriptions: BTreeMap<String, String>,
    #[serde(skip)]
    connected: bool,
}

impl Default for RelayClient {
    fn default() -> Self {
        Self::new(RelayConfig::default())
    }
}

impl RelayClient {
    /// A client with no socket yet (call [`RelayClient::on_connected`] when it opens).
    pub fn new(config: RelayConfig) -> Self {
        RelayClient {
            config,
            pending: BTreeMap::new(),
            subscriptions: BTreeMap::new(),
            connected: false,
        }
    }

    /// The configuration.
    pub fn config(&self) -> &RelayConfig {
        &self.config
    }

    /// Whether the socket is considered open.
    pub fn is_connected(&self) -> bool {
        self.connected
    }

    /// Whether `id` is awaiting a response.
    pub fn is_pending(&self, id: u64) -> bool {
        self.pending.contains_key(&id)
    }

    /// Number of requests awaiting a response.
    pub fn pending_len(&self) -> usize {
        self.pending.len()
    }

    /// Subscription id of a topic we are subscribed to.
    pub fn subscription_id(&self, topic: &str) -> Option<&str> {
        self.subscriptions.get(topic).map(String::as_str)
    }

    /// Topics with a confirmed subscription.
    pub fn subscribed_topics(&self) -> impl Iterator<Item = &str> {
        self.subscriptions.keys().map(String::as_str)
    }

    /// Whether a subscription to `topic` is confirmed or requested.
    pub fn is_subscribed_or_pending(&self, topic: &str) -> bool {
        self.subscriptions.contains_key(topic)
            || self.pending.values().any(|p| match &p.request {
                RelayRequest::Subscribe { topic: t } => t == topic,
                RelayRequest::BatchSubscribe { topics } => topics.iter().any(|t| t == topic),
                _ => false,
            })
    }

    /// Checks restored state: every topic well formed, sane attempt counts.
    pub(crate) fn validate(&self) -> Result<()> {
        let topics_ok = self.subscriptions.keys().all(|t| is_topic(t))
            && self
                .pending
                .values()
                .all(|p| p.request.topics().iter().all(|t| is_topic(t)));
        if !topics_ok || self.config.max_attempts == 0 {
            return Err(Error::Storage("invalid relay state".into()));
        }
        Ok(())
    }

    /// Registers a request under `id` and returns its frame. Topics must be 64 lowercase hex
    /// digits; the id must not be pending already.
    pub fn request(&mut self, id: u64, request: RelayRequest, now_ms: u64) -> Result<String> {
        if self.pending.contains_key(&id) {
            return Err(Error::DuplicateId(id));
        }
        if request.topics().iter().any(|t| !is_topic(t)) {
            return Err(Error::InvalidFrame("topic must be 64 lowercase hex digits"));
        }
        if let RelayRequest::Unsubscribe { topic, .. } = &request {
            self.subscriptions.remove(topic);
        }
        let frame = request.to_frame(id, self.config.string_ids);
        let deadline_ms = self
            .connected
            .then(|| now_ms.saturating_add(self.config.timeout_ms));
        self.pending.insert(
            id,
            Pending {
                request,
                attempts: 1,
                deadline_ms,
            },
        );
        Ok(frame)
    }

    /// Forgets a topic without telling the relay (e.g. when no subscription id is known yet):
    /// drops its confirmed subscription and any pending subscribe for it alone.
    pub fn forget_topic(&mut self, topic: &str) {
        self.subscriptions.remove(topic);
        self.pending.retain(
            |_, p| !matches!(&p.request, RelayRequest::Subscribe { topic: t } if t == topic),
        );
    }

    /// The socket opened: resend every pending request (fresh deadlines) and re-subscribe the
    /// confirmed topics with one `irn_batchSubscribe` under `batch_id` (or the next free id).
    pub fn on_connected(&mut self, now_ms: u64, batch_id: u64) -> Vec<String> {
        self.connected = true;
        let deadline = Some(now_ms.saturating_add(self.config.timeout_ms));
        let mut frames = Vec::new();
        for (id, p) in self.pending.iter_mut() {
            p.attempts = 1;
            p.deadline_ms = deadline;
            frames.push(p.request.to_frame(*id, self.config.string_ids));
        }
        let topics: Vec<String> = self.subscriptions.keys().cloned().collect();
        if !topics.is_empty() {
            let mut id = batch_id;
            while self.pending.contains_key(&id) {
                id = id.wrapping_add(1);
            }
            let req = RelayRequest::BatchSubscribe { topics };
            frames.push(req.to_frame(id, self.config.string_ids));
            self.pending.insert(
                id,
                Pending {
                    request: req,
                    attempts: 1,
                    deadline_ms: deadline,
                },
            );
        }
        frames
    }

    /// The socket closed: time-outs pause until [`RelayClient::on_connected`].
    pub fn on_disconnected(&mut self) {
        self.connected = false;
        for p in self.pending.values_mut() {
            p.deadline_ms = None;
        }
    }

    /// The earliest request deadline.
    pub fn next_deadline(&self) -> Option<u64> {
        self.pending.values().filter_map(|p| p.deadline_ms).min()
    }

    /// Resends overdue requests, gives up on those out of attempts.
    pub fn on_tick(&mut self, now_ms: u64) -> Vec<RelayOutput> {
        let mut out = Vec::new();
        let overdue: Vec<u64> = self
            .pending
            .iter()
            .filter(|(_, p)| p.deadline_ms.is_some_and(|d| d <= now_ms))
            .map(|(id, _)| *id)
            .collect();
        for id in overdue {
            let Some(p) = self.pending.get_mut(&id) else {
                continue;
            };
            if p.attempts < self.config.max_attempts {
                p.attempts += 1;
                p.deadline_ms = Some(now_ms.saturating_add(self.config.timeout_ms));
                out.push(RelayOutput::Send(
                    p.request.to_frame(id, self.config.string_ids),
                ));
            } else if let Some(p) = self.pending.remove(&id) {
                out.push(RelayOutput::Event(RelayEvent::TimedOut {
                    id,
                    request: p.request,
                }));
            }
        }
        out
    }

    /// Handles one text frame from the relay. Malformed frames are an error and change nothing.
    pub fn handle_frame(&mut self, frame: &str) -> Result<Vec<RelayOutput>> {
        match rpc::parse_message(frame)? {
            Message::Request { id, method, params } => {
                Ok(self.handle_server_request(id, &method, params))
            }
            Message::Response { id, outcome } => {
                Ok(vec![RelayOutput::Event(self.handle_response(id, outcome))])
            }
        }
    }

    fn handle_server_request(
        &mut self,
        id: RawId,
        method: &str,
        params: Value,
    ) -> Vec<RelayOutput> {
        if method != "irn_subscription" {
            let reply = rpc::error_json(&id, &RpcError::from(rpc::codes::METHOD_NOT_FOUND));
            return vec![
                RelayOutput::Send(reply),
                RelayOutput::Event(RelayEvent::UnknownServerRequest {
                    method: method.chars().take(128).collect(),
                }),
            ];
        }
        match parse_subscription(params) {
            Some((subscription_id, message)) => vec![
                RelayOutput::Send(ack_frame(&id)),
                RelayOutput::Event(RelayEvent::Message {
                    subscription_id,
                    message,
                }),
            ],
            None => vec![RelayOutput::Send(rpc::error_json(
                &id,
                &RpcError::from(rpc::codes::INVALID_PARAMS),
            ))],
        }
    }

    fn handle_response(
        &mut self,
        id: RawId,
        outcome: core::result::Result<Value, RpcError>,
    ) -> RelayEvent {
        let Some(num) = id.value() else {
            return RelayEvent::Unmatched {
                id: id.json().into(),
            };
        };
        let Some(p) = self.pending.remove(&num) else {
            return RelayEvent::Unmatched {
                id: id.json().into(),
            };
        };
        let result = match outcome {
            Ok(v) => v,
            Err(error) => {
                return RelayEvent::Rejected {
                    id: num,
                    request: p.request,
                    error,
                }
            }
        };
        match p.request {
            RelayRequest::Publish { topic, .. } => RelayEvent::Published { id: num, topic },
            RelayRequest::Subscribe { topic } => {
                let sub = result
                    .as_str()
                    .unwrap_or_default()
                    .chars()
                    .take(256)
                    .collect::<String>();
                self.subscriptions.insert(topic.clone(), sub.clone());
                RelayEvent::Subscribed {
                    id: num,
                    topic,
                    subscription_id: sub,
                }
            }
            RelayRequest::BatchSubscribe { topics } => {
                let ids: Vec<String> = match result.as_array() {
                    Some(a) if a.len() == topics.len() => a
                        .iter()
                        .map(|v| v.as_str().unwrap_or_default().chars().take(256).collect())
                        .collect(),
                    _ => vec![String::new(); topics.len()],
                };
                for (t, s) in topics.iter().zip(&ids) {
                    self.subscriptions.insert(t.clone(), s.clone());
                }
                RelayEvent::BatchSubscribed {
                    id: num,
                    topics,
                    subscription_ids: ids,
                }
            }
            RelayRequest::Unsubscribe { topic, .. } => RelayEvent::Unsubscribed { id: num, topic },
            request @ (RelayRequest::FetchMessages { .. }
            | RelayRequest::BatchFetchMessages { .. }) => {
                #[derive(Deserialize)]
                #[serde(rename_all = "camelCase")]
                struct Fetched {
                    messages: Vec<ReceivedMessage>,
                    #[serde(default)]
                    has_more: bool,
                }
                match rpc::from_json_value::<Fetched>(&result) {
                    Some(f) => RelayEvent::Fetched {
                        id: num,
                        messages: f.messages,
                        has_more: f.has_more,
                    },
                    None => RelayEvent::Rejected {
                        id: num,
                        request,
                        error: RpcError {
                            code: -32603,
                            message: "malformed fetch result".into(),
                            data: None,
                        },
                    },
                }
            }
        }
    }
}

/// The acknowledgement of a server push: `{"id":<as received>,"jsonrpc":"2.0","result":true}`.
pub fn ack_frame(id: &RawId) -> String {
    rpc::result_json(id, &Value::Bool(true))
}

fn parse_subscription(params: Value) -> Option<(String, ReceivedMessage)> {
    #[derive(Deserialize)]
    struct Params {
        id: String,
        data: ReceivedMessage,
    }
    let p: Params = rpc::from_json_value(&params)?;
    Some((p.id, p.data))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn t(c: char) -> String {
        c.to_string().repeat(64)
    }

    #[test]
    fn requests_are_framed_with_string_ids_by_default() {
        let mut r = RelayClient::default();
        let f = r
            .request(
                1_700_000_000_000_123_456,
                RelayRequest::Subscribe { topic: t('a') },
                0,
            )
            .unwrap();
        assert_eq!(
            f,
            format!(
                r#"{{"id":"1700000000000123456","jsonrpc":"2.0","method":"irn_subscribe","params":{{"topic":"{}"}}}}"#,
                t('a')
            )
        );
        let f = r
            .request(
                2,
                RelayRequest::Publish {
                    topic: t('b'),
                    message: "AAA=".into(),
                    ttl: 300,
                    tag: 1100,
                    prompt: true,
                },
                0,
            )
            .unwrap();
        let v: Value = serde_json::from_str(&f).unwrap();
        assert_eq!(v["method"], "irn_publish");
        assert_eq!(
            v["params"],
            json!({"topic": t('b'), "message": "AAA=", "ttl": 300, "tag": 1100, "prompt": true})
        );
        let f = r
            .request(
                3,
                RelayRequest::Publish {
                    topic: t('b'),
                    message: "x".into(),
                    ttl: 30,
                    tag: 1114,
                    prompt: false,
                },
                0,
            )
            .unwrap();
        assert!(!f.contains("prompt"));
        let f = r
            .request(
                4,
                RelayRequest::BatchSubscribe {
                    topics: vec![t('c'), t('d')],
                },
                0,
            )
            .unwrap();
        assert!(f.contains(r#""method":"irn_batchSubscribe","params":{"topics":["#));
        let f = r
            .request(
                5,
                RelayRequest::Unsubscribe {
                    topic: t('c'),
                    subscription_id: "s1".into(),
                },
                0,
            )
            .unwrap();
        let v: Value = serde_json::from_str(&f).unwrap();
        assert_eq!(
            (v["method"].as_str(), &v["params"]),
            (
                Some("irn_unsubscribe"),
                &json!({"topic": t('c'), "id": "s1"})
            )
        );
        let f = r
            .request(6, RelayRequest::FetchMessages { topic: t('c') }, 0)
            .unwrap();
        assert!(f.contains(r#""method":"irn_fetchMessages""#));
        let mut n = RelayClient::new(RelayConfig {
            string_ids: false,
            ..Default::default()
        });
        assert!(n
            .request(9, RelayRequest::Subscribe { topic: t('a') }, 0)
            .unwrap()
            .starts_with(r#"{"id":9,"#));
    }

    #[test]
    fn bad_topics_and_duplicate_ids_are_refused() {
        let mut r = RelayClient::default();
        assert!(r
            .request(
                1,
                RelayRequest::Subscribe {
                    topic: "xyz".into()
                },
                0
            )
            .is_err());
        assert!(r
            .request(1, RelayRequest::Subscribe { topic: t('A') }, 0)
            .is_err());
        r.request(1, RelayRequest::Subscribe { topic: t('a') }, 0)
            .unwrap();
        assert_eq!(
            r.request(1, RelayRequest::Subscribe { topic: t('b') }, 0),
            Err(Error::DuplicateId(1))
        );
    }

    #[test]
    fn responses_match_by_id_given_as_string_or_number() {
        let mut r = RelayClient::default();
        r.request(
            1_700_000_000_000_000_001,
            RelayRequest::Subscribe { topic: t('a') },
            0,
        )
        .unwrap();
        r.request(
            1_700_000_000_000_000_002,
            RelayRequest::Subscribe { topic: t('b') },
            0,
        )
        .unwrap();
        let out = r
            .handle_frame(r#"{"id":"1700000000000000001","jsonrpc":"2.0","result":"sub-a"}"#)
            .unwrap();
        assert_eq!(
            out,
            vec![RelayOutput::Event(RelayEvent::Subscribed {
                id: 1_700_000_000_000_000_001,
                topic: t('a'),
                subscription_id: "sub-a".into()
            })]
        );
        let out = r
            .handle_frame(r#"{"id":1700000000000000002,"jsonrpc":"2.0","result":"sub-b"}"#)
            .unwrap();
        assert!(
            matches!(&out[0], RelayOutput::Event(RelayEvent::Subscribed { subscription_id, .. }) if subscription_id == "sub-b")
        );
        assert_eq!(r.subscription_id(&t('a')), Some("sub-a"));
        assert_eq!(r.subscription_id(&t('b')), Some("sub-b"));
        // A duplicate response matches nothing.
        let out = r
            .handle_frame(r#"{"id":1700000000000000002,"jsonrpc":"2.0","result":"sub-b"}"#)
            .unwrap();
        assert!(matches!(
            &out[0],
            RelayOutput::Event(RelayEvent::Unmatched { .. })
        ));
    }

    #[test]
    fn publish_unsubscribe_batch_and_fetch_responses_are_reported() {
        let mut r = RelayClient::default();
        r.request(
            1,
            RelayRequest::Publish {
                topic: t('a'),
                message: "m".into(),
                ttl: 300,
                tag: 1108,
                prompt: true,
            },
            0,
        )
        .unwrap();
        r.request(
            2,
            RelayRequest::BatchSubscribe {
                topics: vec![t('b'), t('c')],
            },
            0,
        )
        .unwrap();
        r.request(3, RelayRequest::FetchMessages { topic: t('b') }, 0)
            .unwrap();
        assert!(matches!(
            &r.handle_frame(r#"{"id":"1","jsonrpc":"2.0","result":true}"#)
                .unwrap()[0],
            RelayOutput::Event(RelayEvent::Published { id: 1, .. })
        ));
        let out = r
            .handle_frame(r#"{"id":"2","jsonrpc":"2.0","result":["s-b","s-c"]}"#)
            .unwrap();
        assert!(
            matches!(&out[0], RelayOutput::Event(RelayEvent::BatchSubscribed { subscription_ids, .. }) if subscription_ids == &vec!["s-b".to_string(), "s-c".to_string()])
        );
        assert_eq!(r.subscription_id(&t('c')), Some("s-c"));
        let fetched = format!(
            r#"{{"id":"3","jsonrpc":"2.0","result":{{"messages":[{{"topic":"{}","message":"AA==","publishedAt":5,"tag":1100}}],"hasMore":true}}}}"#,
            t('b')
        );
        let out = r.handle_frame(&fetched).unwrap();
        assert!(
            matches!(&out[0], RelayOutput::Event(RelayEvent::Fetched { messages, has_more: true, .. }) if messages.len() == 1 && messages[0].tag == 1100)
        );
        // Unsubscribing forgets the subscription at once.
        r.request(
            4,
            RelayRequest::Unsubscribe {
                topic: t('b'),
                subscription_id: "s-b".into(),
            },
            0,
        )
        .unwrap();
        assert_eq!(r.subscription_id(&t('b')), None);
        assert!(matches!(
            &r.handle_frame(r#"{"id":4,"jsonrpc":"2.0","result":true}"#)
                .unwrap()[0],
            RelayOutput::Event(RelayEvent::Unsubscribed { .. })
        ));
        assert_eq!(r.pending_len(), 0);
    }

    #[test]
    fn relay_errors_are_reported_with_the_request() {
        let mut r = RelayClient::default();
        r.request(7, RelayRequest::Subscribe { topic: t('a') }, 0)
            .unwrap();
        let out = r
            .handle_frame(
                r#"{"id":"7","jsonrpc":"2.0","error":{"code":-32000,"message":"Unauthorized"}}"#,
            )
            .unwrap();
        let RelayOutput::Event(RelayEvent::Rejected { id, request, error }) = &out[0] else {
            panic!("{out:?}")
        };
        assert_eq!(
            (*id, request.method(), error.code, error.message.as_str()),
            (7, "irn_subscribe", -32000, "Unauthorized")
        );
        assert_eq!(r.subscription_id(&t('a')), None);
    }

    #[test]
    fn subscription_pushes_are_acked_echoing_the_id_exactly() {
        let mut r = RelayClient::default();
        let push = |id: &str| {
            format!(
                r#"{{"id":{id},"jsonrpc":"2.0","method":"irn_subscription","params":{{"id":"sub-1","data":{{"topic":"{}","message":"AAAA","publishedAt":1700000000000,"tag":1108}}}}}}"#,
                t('a')
            )
        };
        let out = r.handle_frame(&push("\"1700000000000654321\"")).unwrap();
        assert_eq!(
            out[0],
            RelayOutput::Send(
                r#"{"id":"1700000000000654321","jsonrpc":"2.0","result":true}"#.into()
            )
        );
        assert_eq!(
            out[1],
            RelayOutput::Event(RelayEvent::Message {
                subscription_id: "sub-1".into(),
                message: ReceivedMessage {
                    topic: t('a'),
                    message: "AAAA".into(),
                    published_at: 1_700_000_000_000,
                    tag: 1108
                }
            })
        );
        let out = r.handle_frame(&push("1700000000000654321")).unwrap();
        assert_eq!(
            out[0],
            RelayOutput::Send(r#"{"id":1700000000000654321,"jsonrpc":"2.0","result":true}"#.into())
        );
        // Exotic but valid ids are echoed verbatim too.
        let out = r.handle_frame(&push("\"abc\"")).unwrap();
        assert_eq!(
            out[0],
            RelayOutput::Send(r#"{"id":"abc","jsonrpc":"2.0","result":true}"#.into())
        );
    }

    #[test]
    fn malformed_pushes_and_unknown_server_methods_get_error_replies() {
        let mut r = RelayClient::default();
        let out = r
            .handle_frame(
                r#"{"id":5,"jsonrpc":"2.0","method":"irn_subscription","params":{"id":"s"}}"#,
            )
            .unwrap();
        assert!(matches!(&out[0], RelayOutput::Send(f) if f.contains("-32602")));
        let out = r
            .handle_frame(r#"{"id":"6","jsonrpc":"2.0","method":"irn_somethingNew","params":{}}"#)
            .unwrap();
        assert!(
            matches!(&out[0], RelayOutput::Send(f) if f.starts_with(r#"{"id":"6""#) && f.contains("-32601"))
        );
        assert!(r.handle_frame("not json").is_err());
    }

    #[test]
    fn overdue_requests_are_resent_then_given_up() {
        let mut r = RelayClient::new(RelayConfig {
            timeout_ms: 1000,
            max_attempts: 3,
            string_ids: true,
        });
        assert!(r.on_connected(0, 99).is_empty());
        let f = r
            .request(1, RelayRequest::Subscribe { topic: t('a') }, 100)
            .unwrap();
        assert_eq!(r.next_deadline(), Some(1100));
        assert!(r.on_tick(1099).is_empty());
        assert_eq!(r.on_tick(1100), vec![RelayOutput::Send(f.clone())]);
        assert_eq!(r.next_deadline(), Some(2100));
        assert_eq!(r.on_tick(2100), vec![RelayOutput::Send(f)]);
        let out = r.on_tick(3100);
        assert!(matches!(
            &out[0],
            RelayOutput::Event(RelayEvent::TimedOut { id: 1, .. })
        ));
        assert_eq!(r.next_deadline(), None);
    }

    #[test]
    fn reconnect_resends_pending_and_resubscribes_topics() {
        let mut r = RelayClient::new(RelayConfig {
            timeout_ms: 1000,
            max_attempts: 2,
            string_ids: true,
        });
        r.on_connected(0, 1);
        r.request(10, RelayRequest::Subscribe { topic: t('a') }, 0)
            .unwrap();
        r.handle_frame(r#"{"id":"10","jsonrpc":"2.0","result":"sa"}"#)
            .unwrap();
        let publish = r
            .request(
                11,
                RelayRequest::Publish {
                    topic: t('a'),
                    message: "m".into(),
                    ttl: 300,
                    tag: 1108,
                    prompt: false,
                },
                0,
            )
            .unwrap();
        r.on_disconnected();
        assert_eq!(r.next_deadline(), None);
        assert!(r.on_tick(1_000_000).is_empty());
        let frames = r.on_connected(5000, 11);
        assert_eq!(frames[0], publish);
        // The batch id collides with pending 11, so the next free id is used.
        assert_eq!(
            frames[1],
            format!(
                r#"{{"id":"12","jsonrpc":"2.0","method":"irn_batchSubscribe","params":{{"topics":["{}"]}}}}"#,
                t('a')
            )
        );
        assert_eq!(r.next_deadline(), Some(6000));
    }

    #[test]
    fn client_state_roundtrips_through_json() {
        let mut r = RelayClient::default();
        r.request(1, RelayRequest::Subscribe { topic: t('a') }, 0)
            .unwrap();
        let json = serde_json::to_string(&r).unwrap();
        let back: RelayClient = serde_json::from_str(&json).unwrap();
        assert_eq!(back, r);
    }

    proptest! {
        #[test]
        fn arbitrary_frames_never_panic(s in ".{0,300}") {
            let mut r = RelayClient::default();
            let _ = r.handle_frame(&s);
        }

        #[test]
        fn json_shaped_frames_never_panic(id in prop_oneof![Just("1".to_string()), Just("\"1\"".to_string()), "[0-9]{0,25}", "\"[0-9a-z]{0,25}\"", Just("null".to_string()), Just("{}".to_string())],
                                          method in prop_oneof![Just("irn_subscription".to_string()), "[a-z_]{0,12}"],
                                          body in prop_oneof![Just("true".to_string()), Just("null".to_string()), Just("[]".to_string()), Just(r#"{"id":"s","data":{"topic":"t","message":"m"}}"#.to_string()), "[0-9]{1,5}"],
                                          kind in 0u8..3) {
            let mut r = RelayClient::default();
            r.request(1, RelayRequest::Subscribe { topic: t('a') }, 0).unwrap();
            r.request(2, RelayRequest::FetchMessages { topic: t('a') }, 0).unwrap();
            let frame = match kind {
                0 => format!(r#"{{"id":{id},"jsonrpc":"2.0","method":"{method}","params":{body}}}"#),
                1 => format!(r#"{{"id":{id},"jsonrpc":"2.0","result":{body}}}"#),
                _ => format!(r#"{{"id":{id},"jsonrpc":"2.0","error":{body}}}"#),
            };
            let _ = r.handle_frame(&frame);
        }
    }
}
