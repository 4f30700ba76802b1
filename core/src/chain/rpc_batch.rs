//! JSON-RPC batching (spec §9: up to 1,000 calls a batch, wait 0): the node calls a module makes
//! while handling one event (one tick: the wait of 0) to the same URL go as one HTTP request whose
//! body is the array of their JSON-RPC objects (JSON-RPC 2.0 §6); the array that answers is split
//! back by id, each call's slice hearing only its own answer, as if it had gone alone.
//!
//! A call is a node call when its body is a JSON-RPC 2.0 request whose id is the request's own
//! (every family's node body: `family::node_body`, the balance and receipt bodies). A node that
//! answers a batch with anything but an array (or refuses it: a 4xx other than 429) takes no
//! batches: its calls are sent again one by one, and from then on go alone.

use crate::service::constants::RPC_BATCH_SIZE;
use crate::service::json::{parse, Value};

/// A batch sent: its request id, its URL and its calls (request id, JSON-RPC body).
#[derive(Clone, Debug)]
struct Batch {
    id: u64,
    url: String,
    calls: Vec<(u64, String)>,
}

#[derive(Clone, Debug, Default)]
pub struct RpcBatches {
    sent: Vec<Batch>,
    /// URLs whose node answered a batch with something else than an array.
    alone: Vec<String>,
}

/// What a batch's answer means for its calls.
#[derive(Debug, PartialEq)]
pub enum Split {
    /// Each call's own answer (`status`, body); status 0 and no body for a call the array left out.
    Answers(Vec<(u64, u16, String)>),
    /// The node takes no batches: send each call again alone (request id, URL, body).
    Resend(Vec<(u64, String, String)>),
}

/// Whether a request (`id`, POST `body`) is a node call: a JSON-RPC 2.0 request object carrying
/// the request's own id.
pub fn is_node_call(id: u64, body: &str) -> bool {
    body.starts_with('{') && parse(body).is_ok_and(|v| v.get("jsonrpc").and_then(Value::as_str) == Some("2.0") && v.get("id").and_then(Value::as_u64) == Some(id))
}

impl RpcBatches {
    /// Whether node calls to `url` may go in a batch.
    pub fn batches_to(&self, url: &str) -> bool {
        !self.alone.iter().any(|u| u == url)
    }

    /// Combines `calls` (request id, body: node calls to `url`, in the order they were made) into
    /// batches of at most [`RPC_BATCH_SIZE`]: each batch's body, with the id `next_id` gives it.
    /// A lone call stays as it is (not returned).
    pub fn combine(&mut self, url: &str, mut calls: Vec<(u64, String)>, mut next_id: impl FnMut() -> u64) -> Vec<(u64, String)> {
        let mut out = Vec::new();
        while !calls.is_empty() {
            let rest = calls.split_off(calls.len().min(RPC_BATCH_SIZE));
            let chunk = std::mem::replace(&mut calls, rest);
            let id = next_id();
            let mut body = String::from("[");
            for (i, (_, b)) in chunk.iter().enumerate() {
                if i > 0 {
                    body.push(',');
                }
                body.push_str(b);
            }
            body.push(']');
            out.push((id, body));
            self.sent.push(Batch { id, url: url.to_string(), calls: chunk });
        }
        out
    }

    /// The answer to request `id`: `None` when it is no batch of ours; else what each call hears.
    /// An HTTP error or no answer at all is each call's; an array answers each call by id.
    pub fn answered(&mut self, id: u64, status: u16, body: &str) -> Option<Split> {
        let i = self.sent.iter().position(|b| b.id == id)?;
        let batch = self.sent.remove(i);
        // A 4xx (429 aside: too many requests) refuses the batch itself, as an answer that is no
        // array does: the node takes no batches.
        let refused = (400..500).contains(&status) && status != 429;
        let read = if (200..300).contains(&status) { parse(body).ok() } else { refused.then_some(Value::Null) };
        Some(match read {
            Some(Value::Array(answers)) => Split::Answers(
                batch
                    .calls
                    .into_iter()
                    .map(|(call, _)| match answers.iter().find(|a| a.get("id").and_then(Value::as_u64) == Some(call)) {
                        Some(a) => (call, status, a.to_string()),
                        None => (call, 0, String::new()),
                    })
                    .collect(),
            ),
            Some(_) => {
                if self.batches_to(&batch.url) {
                    self.alone.push(batch.url.clone());
                }
                Split::Resend(batch.calls.into_iter().map(|(call, b)| (call, batch.url.clone(), b)).collect())
            }
            None => Split::Answers(batch.calls.into_iter().map(|(call, _)| (call, status, body.to_string())).collect()),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call(id: u64, method: &str) -> (u64, String) {
        (id, format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"{method}","params":[]}}"#))
    }

    #[test]
    fn only_a_json_rpc_request_carrying_its_own_id_is_a_node_call() {
        assert!(is_node_call(17, &call(17, "blockNumber").1));
        assert!(!is_node_call(18, &call(17, "blockNumber").1), "another id");
        assert!(!is_node_call(17, r#"{"id":17,"method":"x"}"#), "no jsonrpc");
        assert!(!is_node_call(17, r#"[{"jsonrpc":"2.0","id":17}]"#), "already a batch");
        assert!(!is_node_call(17, r#"{"currency":"usd"}"#));
    }

    #[test]
    fn calls_are_combined_into_one_array_and_its_answer_is_split_back_by_id_in_any_order() {
        let mut b = RpcBatches::default();
        let mut ids = 100..;
        let sent = b.combine("http://node.test", vec![call(1, "a"), call(2, "b"), call(3, "c")], || ids.next().unwrap());
        assert_eq!(sent.len(), 1);
        assert_eq!(sent[0].0, 100);
        let body: Value = parse(&sent[0].1).unwrap();
        assert_eq!(body.as_array().unwrap().iter().map(|c| c.get("method").unwrap().as_str().unwrap()).collect::<Vec<_>>(), ["a", "b", "c"]);
        let answer = r#"[{"jsonrpc":"2.0","id":3,"result":"0x3"},{"jsonrpc":"2.0","id":1,"error":{"code":-32000,"message":"no"}}]"#;
        let Some(Split::Answers(got)) = b.answered(100, 200, answer) else { panic!("a batch answer") };
        assert_eq!(got[0], (1, 200, r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32000,"message":"no"}}"#.to_string()));
        assert_eq!(got[1], (2, 0, String::new()), "left out of the array: no answer");
        assert_eq!(got[2], (3, 200, r#"{"jsonrpc":"2.0","id":3,"result":"0x3"}"#.to_string()));
        assert_eq!(b.answered(100, 200, answer), None, "answered once");
        assert_eq!(b.answered(7, 200, answer), None, "not a batch");
    }

    #[test]
    fn at_most_a_thousand_calls_go_in_one_batch() {
        let mut b = RpcBatches::default();
        let mut ids = 10_000..;
        let calls: Vec<_> = (0..2_001).map(|i| call(i, "getBalance")).collect();
        let sent = b.combine("http://node.test", calls, || ids.next().unwrap());
        let sizes: Vec<usize> = sent.iter().map(|(_, body)| parse(body).unwrap().as_array().unwrap().len()).collect();
        assert_eq!(sizes, [1000, 1000, 1]);
    }

    #[test]
    fn an_http_error_or_no_answer_reaches_every_call_and_a_node_without_batches_gets_them_alone() {
        let mut b = RpcBatches::default();
        let mut ids = 50..;
        b.combine("http://node.test", vec![call(1, "a"), call(2, "b")], || ids.next().unwrap());
        assert_eq!(b.answered(50, 0, ""), Some(Split::Answers(vec![(1, 0, String::new()), (2, 0, String::new())])));
        b.combine("http://node.test", vec![call(3, "a"), call(4, "b")], || ids.next().unwrap());
        assert_eq!(b.answered(51, 503, "busy"), Some(Split::Answers(vec![(3, 503, "busy".into()), (4, 503, "busy".into())])));
        b.combine("http://node.test", vec![call(5, "a"), call(6, "b")], || ids.next().unwrap());
        let single = r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"batches are not supported"}}"#;
        let Some(Split::Resend(again)) = b.answered(52, 200, single) else { panic!("sent again alone") };
        assert_eq!(again.iter().map(|(id, url, _)| (*id, url.as_str())).collect::<Vec<_>>(), [(5, "http://node.test"), (6, "http://node.test")]);
        assert_eq!(again[0].2, call(5, "a").1);
        assert!(!b.batches_to("http://node.test"));
        assert!(b.batches_to("http://other.test"));
        // A 4xx refusing the batch (413, 400, 405) is the same; a 429 is each call's.
        for status in [400, 405, 413] {
            b.combine("http://strict.test", vec![call(7, "a"), call(8, "b")], || ids.next().unwrap());
            let id = ids.clone().next().unwrap() - 1;
            assert!(matches!(b.answered(id, status, "no batches here"), Some(Split::Resend(v)) if v.len() == 2), "{status}");
            assert!(!b.batches_to("http://strict.test"));
        }
        b.combine("http://busy.test", vec![call(9, "a"), call(10, "b")], || ids.next().unwrap());
        let id = ids.clone().next().unwrap() - 1;
        assert_eq!(b.answered(id, 429, "slow down"), Some(Split::Answers(vec![(9, 429, "slow down".into()), (10, 429, "slow down".into())])));
        assert!(b.batches_to("http://busy.test"));
    }
}
