//! RPC ranking and fallback over a network's several HTTP URLs (spec §9: 10 samples, stability 0.7,
//! latency 0.3, fallback polling 4,000 ms). Ranked by the modal's own traffic and, while the modal
//! shows, by a probe of each URL every 4 s (the family's `ping_call`): every node call through a
//! network with more than one URL is a sample of the URL it went to (answered or not, and how fast);
//! the next call goes to the best-scoring URL, and a call that fails for want of an answer (no
//! response, a 5xx) is sent again to the next URL before the slice that asked hears anything.

use crate::service::constants::{RPC_RANKING_LATENCY_WEIGHT, RPC_RANKING_SAMPLES, RPC_RANKING_STABILITY_WEIGHT};

/// A node call under way through a network with several URLs.
#[derive(Clone, Debug)]
struct Inflight {
    id: u64,
    url: String,
    body: Option<String>,
    start: u64,
    /// The URLs not tried yet, best first.
    rest: Vec<String>,
    /// A probe of the fallback polling: a sample only, heard by no slice.
    probe: bool,
}

#[derive(Clone, Debug, Default)]
pub struct RpcRank {
    /// Per URL: its last samples (answered, latency in ms), oldest first.
    samples: Vec<(String, Vec<(bool, u64)>)>,
    inflight: Vec<Inflight>,
    /// Whether the fallback polling's timer runs.
    pub polling: bool,
}

/// What to do with a node call's answer.
#[derive(Debug, PartialEq)]
pub enum Verdict {
    /// Hand it to the slice that asked.
    Deliver,
    /// Send it again (same id and body) to this URL: the last one did not answer.
    Retry { url: String, body: Option<String> },
    /// A probe's answer: counted, and heard by no one.
    Sampled,
}

impl RpcRank {
    /// The score of `url` among `urls` (0 to 1): stability (answered share of its samples, 1
    /// without any) × 0.7 + latency (1 − its mean / the slowest mean; 0 without samples: an untried
    /// URL is no faster than the slowest tried one, so the network's order holds until a call
    /// fails) × 0.3.
    pub fn score(&self, url: &str, urls: &[String]) -> f64 {
        let mean = |u: &str| {
            let s = self.samples.iter().find(|(k, _)| k == u).map(|(_, s)| s.as_slice()).unwrap_or_default();
            (!s.is_empty()).then(|| (s.iter().filter(|(ok, _)| *ok).count() as f64 / s.len() as f64, s.iter().map(|(_, l)| *l as f64).sum::<f64>() / s.len() as f64))
        };
        let slowest = urls.iter().filter_map(|u| mean(u)).map(|(_, l)| l).fold(0.0, f64::max);
        let Some((stability, latency)) = mean(url) else { return RPC_RANKING_STABILITY_WEIGHT };
        let latency_score = if slowest > 0.0 { 1.0 - latency / slowest } else { 1.0 };
        RPC_RANKING_STABILITY_WEIGHT * stability + RPC_RANKING_LATENCY_WEIGHT * latency_score
    }

    /// `urls` best first (a stable order: equal scores keep the network's order).
    pub fn ranked(&self, urls: &[String]) -> Vec<String> {
        let mut out: Vec<String> = Vec::with_capacity(urls.len());
        for u in urls {
            let s = self.score(u, urls);
            let at = out.iter().position(|o| self.score(o, urls) < s).unwrap_or(out.len());
            out.insert(at, u.clone());
        }
        out
    }

    /// A node call sent to `url`, one of `urls` (the network's): remembered for its answer.
    pub fn sent(&mut self, id: u64, url: &str, body: Option<&str>, urls: &[String], now: u64) {
        let rest = self.ranked(urls).into_iter().filter(|u| u != url).collect();
        self.track(Inflight { id, url: url.into(), body: body.map(str::to_string), start: now, rest, probe: false });
    }

    /// A probe of `url` (the fallback polling, every 4 s while the modal shows): its answer is a
    /// sample, never sent on.
    pub fn probe(&mut self, id: u64, url: &str, now: u64) {
        self.track(Inflight { id, url: url.into(), body: None, start: now, rest: Vec::new(), probe: true });
    }

    fn track(&mut self, f: Inflight) {
        self.inflight.retain(|o| o.id != f.id);
        self.inflight.push(f);
        // A call whose answer never comes (a page that went away) must not keep memory forever.
        if self.inflight.len() > crate::service::constants::RPC_BATCH_SIZE + 256 {
            self.inflight.remove(0);
        }
    }

    /// The answer to call `id` (`status` 0: none came): a sample of its URL, and whether to send it
    /// again elsewhere.
    pub fn answered(&mut self, id: u64, status: u16, now: u64) -> Verdict {
        let Some(i) = self.inflight.iter().position(|f| f.id == id) else { return Verdict::Deliver };
        let mut f = self.inflight.remove(i);
        let ok = status != 0 && status < 500;
        let latency = now.saturating_sub(f.start);
        match self.samples.iter_mut().find(|(u, _)| *u == f.url) {
            Some((_, s)) => {
                s.push((ok, latency));
                if s.len() > RPC_RANKING_SAMPLES {
                    s.remove(0);
                }
            }
            None => self.samples.push((f.url.clone(), vec![(ok, latency)])),
        }
        // A call that sends something (its JSON-RPC method says `send`: a transaction) is never
        // sent again elsewhere: the first node may have taken it and only its answer was lost.
        let method = f.body.as_deref().and_then(|b| crate::service::json::parse(b).ok()).and_then(|v| v.get("method")?.as_str().map(str::to_ascii_lowercase));
        let sends = method.is_some_and(|m| crate::service::text::find(&m, "send").is_some());
        if f.probe {
            return Verdict::Sampled;
        }
        if ok || f.rest.is_empty() || sends {
            return Verdict::Deliver;
        }
        let next = f.rest.remove(0);
        let body = f.body.clone();
        self.inflight.push(Inflight { id, url: next.clone(), body: f.body, start: now, rest: f.rest, probe: false });
        Verdict::Retry { url: next, body }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn urls() -> Vec<String> {
        vec!["http://a.test".into(), "http://b.test".into()]
    }

    #[test]
    fn without_samples_the_networks_order_stands_and_a_url_that_failed_falls_behind() {
        let mut r = RpcRank::default();
        assert_eq!(r.ranked(&urls()), urls());
        r.sent(1, "http://a.test", Some("{}"), &urls(), 0);
        assert_eq!(r.answered(1, 0, 10_000), Verdict::Retry { url: "http://b.test".into(), body: Some("{}".into()) }, "no answer: the next URL");
        assert_eq!(r.answered(1, 200, 10_050), Verdict::Deliver);
        assert_eq!(r.ranked(&urls()), vec!["http://b.test".to_string(), "http://a.test".into()]);
    }

    #[test]
    fn scores_weigh_stability_0_7_and_latency_0_3_over_the_last_10_samples() {
        let mut r = RpcRank::default();
        for i in 0..12 {
            r.sent(i, "http://a.test", None, &urls(), 0);
            r.answered(i, 200, 100);
            r.sent(100 + i, "http://b.test", None, &urls(), 0);
            r.answered(100 + i, 200, 50);
        }
        assert!((r.score("http://a.test", &urls()) - 0.7).abs() < 1e-9, "the slowest: latency score 0");
        assert!((r.score("http://b.test", &urls()) - (0.7 + 0.3 * 0.5)).abs() < 1e-9);
        // Ten failures of b push its stability to 0: only the last 10 samples count.
        for i in 0..10 {
            r.sent(200 + i, "http://b.test", None, &["http://b.test".into()], 0);
            r.answered(200 + i, 503, 50);
        }
        assert!(r.score("http://b.test", &urls()) < 0.31);
        assert_eq!(r.ranked(&urls())[0], "http://a.test");
    }

    #[test]
    fn a_url_that_answered_keeps_its_place_before_an_untried_one_and_a_send_is_never_sent_twice() {
        let mut r = RpcRank::default();
        r.sent(1, "http://a.test", None, &urls(), 0);
        assert_eq!(r.answered(1, 200, 40), Verdict::Deliver);
        assert_eq!(r.ranked(&urls())[0], "http://a.test", "one good answer: still first");
        let send = r#"{"jsonrpc":"2.0","id":2,"method":"sendTransaction","params":["AQ=="]}"#;
        r.sent(2, "http://a.test", Some(send), &urls(), 0);
        assert_eq!(r.answered(2, 0, 10_000), Verdict::Deliver, "the failure is the sender's: no second node sees it");
        let read = r#"{"jsonrpc":"2.0","id":3,"method":"getBalance","params":[]}"#;
        r.sent(3, "http://a.test", Some(read), &urls(), 0);
        assert!(matches!(r.answered(3, 0, 10_000), Verdict::Retry { .. }), "a read goes on");
    }

    #[test]
    fn an_answer_with_a_4xx_or_a_json_rpc_error_is_an_answer_and_every_url_is_tried_once() {
        let mut r = RpcRank::default();
        r.sent(1, "http://a.test", None, &urls(), 0);
        assert_eq!(r.answered(1, 400, 5), Verdict::Deliver);
        r.sent(2, "http://a.test", None, &urls(), 0);
        assert!(matches!(r.answered(2, 502, 5), Verdict::Retry { .. }));
        assert_eq!(r.answered(2, 0, 10), Verdict::Deliver, "no URL left: the failure is the slice's");
        assert_eq!(r.answered(3, 0, 10), Verdict::Deliver, "an unknown call is delivered");
    }
}
