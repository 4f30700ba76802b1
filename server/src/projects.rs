//! The projects a server serves and the origins each allows (`--project ID=ORIGIN,…`).
//!
//! Every API checks a request's project id here (`?projectId=` or `x-project-id`), and the secure
//! frame and the wallet service ask which origins may embed it and log in through it. Two kinds:
//!
//! - [`Projects::Demo`] (no `--project` given: `make demo` and the tests): any project id is served
//!   and allows the local pages (`http://127.0.0.1:*`, `http://localhost:*`); a few ids play the
//!   hosted service's refusals (`bad` → 403, `rate-limited` → 429, `server-error` → 500) and
//!   `foreign-origin` allows one origin no test page has.
//! - [`Projects::Listed`] (one `--project` per project): only the listed ids are served (any other
//!   is 403 "Invalid projectId", as the hosted service answers), each with its own origins.

use std::collections::{BTreeMap, HashMap};

use axum::http::{HeaderMap, StatusCode};

/// Longest project id.
pub const MAX_ID: usize = 128;
/// Most origins one project lists, and the longest pattern.
pub const MAX_ORIGINS: usize = 64;
pub const MAX_ORIGIN: usize = 200;
/// Most projects one server lists.
pub const MAX_PROJECTS: usize = 10_000;

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum Projects {
    #[default]
    Demo,
    Listed(BTreeMap<String, Vec<String>>),
}

impl Projects {
    /// The projects of `--project` values (`ID=ORIGIN,ORIGIN…`, one per project); none: [`Demo`].
    ///
    /// [`Demo`]: Projects::Demo
    pub fn parse<'a>(values: impl IntoIterator<Item = &'a str>) -> Result<Projects, String> {
        let mut listed = BTreeMap::new();
        for v in values {
            let (id, origins) = parse_project(v)?;
            if listed.contains_key(&id) {
                return Err(format!("--project {id}: given twice (list all its origins in one value)"));
            }
            if listed.len() == MAX_PROJECTS {
                return Err(format!("--project: at most {MAX_PROJECTS} projects"));
            }
            listed.insert(id, origins);
        }
        Ok(if listed.is_empty() { Projects::Demo } else { Projects::Listed(listed) })
    }

    /// The project id of a request, checked: 400 without one, 403 for one this server does not
    /// serve (and the demo's refusals).
    pub fn check(&self, q: &HashMap<String, String>, headers: &HeaderMap) -> Result<String, (StatusCode, &'static str)> {
        let id = requested_id(q, headers).unwrap_or_default();
        self.check_id(id).map(|()| id.to_string())
    }

    /// [`Projects::check`] of one id.
    pub fn check_id(&self, id: &str) -> Result<(), (StatusCode, &'static str)> {
        if id.is_empty() {
            return Err((StatusCode::BAD_REQUEST, "projectId is required"));
        }
        match self {
            Projects::Listed(p) if p.contains_key(id) => Ok(()),
            Projects::Listed(_) => Err((StatusCode::FORBIDDEN, "Invalid projectId")),
            Projects::Demo => match id {
                "bad" => Err((StatusCode::FORBIDDEN, "Invalid projectId")),
                "rate-limited" => Err((StatusCode::TOO_MANY_REQUESTS, "Rate limited")),
                "server-error" => Err((StatusCode::INTERNAL_SERVER_ERROR, "Internal server error")),
                _ => Ok(()),
            },
        }
    }

    /// Whether the relay takes a socket of project `id` (its URL's `projectId`): the demo's
    /// relay takes any but `bad` (and none: tests and tools connect without one), a deployment's
    /// only a listed project's.
    pub fn relay_allows(&self, id: Option<&str>) -> bool {
        match self {
            Projects::Demo => id != Some("bad"),
            Projects::Listed(p) => id.is_some_and(|id| p.contains_key(id.trim())),
        }
    }

    /// The origins (wildcard patterns, `wm_core::service::origins`) project `id` allows; none
    /// for a project this server does not serve.
    pub fn origins(&self, id: &str) -> Vec<String> {
        match self {
            Projects::Listed(p) => p.get(id).cloned().unwrap_or_default(),
            Projects::Demo if id == "foreign-origin" => vec!["https://only.example.com".to_string()],
            Projects::Demo => vec!["http://127.0.0.1:*".to_string(), "http://localhost:*".to_string()],
        }
    }

    /// Whether `origin` may embed the secure frame for project `id` and sign in through it (the
    /// wallet service checks this itself before a login hands anything to an origin: the frame's
    /// own check is not the only one).
    pub fn origin_allowed(&self, id: &str, origin: &str) -> bool {
        !id.is_empty()
            && id.len() <= MAX_ID
            && self.check_id(id).is_ok()
            && wm_core::service::origins::origin_allowed(origin, &self.origins(id))
    }
}

/// The project id a request names: `?projectId=`, else the `x-project-id` header (trimmed).
pub fn requested_id<'a>(q: &'a HashMap<String, String>, headers: &'a HeaderMap) -> Option<&'a str> {
    q.get("projectId")
        .map(String::as_str)
        .or_else(|| headers.get("x-project-id").and_then(|v| v.to_str().ok()))
        .map(str::trim)
}

/// One `--project` value: `ID=ORIGIN,ORIGIN…`.
fn parse_project(v: &str) -> Result<(String, Vec<String>), String> {
    let (id, list) = v.split_once('=').ok_or_else(|| format!("--project must be ID=ORIGIN,ORIGIN…, got {v:?}"))?;
    let id = id.trim();
    let id_ok = !id.is_empty() && id.len() <= MAX_ID && id.bytes().all(|b| b.is_ascii_alphanumeric() || b"_.-".contains(&b));
    if !id_ok {
        return Err(format!("--project: the id must be 1-{MAX_ID} characters of A-Z a-z 0-9 _ . -, got {id:?}"));
    }
    let origins: Vec<String> = list.split(',').map(str::trim).filter(|o| !o.is_empty()).map(str::to_string).collect();
    if origins.is_empty() {
        return Err(format!("--project {id}: no origin given (a project must allow at least one)"));
    }
    if origins.len() > MAX_ORIGINS {
        return Err(format!("--project {id}: at most {MAX_ORIGINS} origins"));
    }
    for o in &origins {
        check_pattern(o).map_err(|why| format!("--project {id}: {o:?} {why}"))?;
    }
    Ok((id.to_string(), origins))
}

/// An origin pattern as `wm_core::service::origins` reads it: `http(s)://host[:port|:*]`, the host
/// possibly with `*` labels; no path, user or space.
fn check_pattern(o: &str) -> Result<(), &'static str> {
    if o.len() > MAX_ORIGIN {
        return Err("is too long");
    }
    let rest = o.strip_prefix("https://").or_else(|| o.strip_prefix("http://")).ok_or("must start with https:// or http://")?;
    if rest.is_empty() || rest.contains(['/', '?', '#', '@', ' ', '\t']) {
        return Err("must be an origin: scheme, host and port only");
    }
    let (host, port) = match rest.find(']') {
        // An IPv6 literal: `[…]` then maybe `:port`.
        Some(end) if rest.starts_with('[') => match &rest[end + 1..] {
            "" => (&rest[..=end], None),
            after => (&rest[..=end], Some(after.strip_prefix(':').ok_or("has a bad host")?)),
        },
        _ => match rest.rsplit_once(':') {
            Some((h, p)) => (h, Some(p)),
            None => (rest, None),
        },
    };
    if let Some(p) = port {
        if p != "*" && p.parse::<u16>().map_or(true, |n| n == 0) {
            return Err("has a bad port (1-65535 or *)");
        }
    }
    let host_ok = !host.is_empty()
        && (host.starts_with('[') && host.ends_with(']')
            || host.split('.').all(|l| !l.is_empty() && l.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'*')));
    if !host_ok {
        return Err("has a bad host");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(id: &str) -> HashMap<String, String> {
        HashMap::from([("projectId".to_string(), id.to_string())])
    }

    #[test]
    fn listed_projects_serve_only_themselves_with_their_own_origins() {
        let p = Projects::parse(["shop=https://shop.example.com,https://*.shop.example.com", "docs = http://localhost:3000"]).unwrap();
        assert_eq!(p.check(&q("shop"), &HeaderMap::new()), Ok("shop".to_string()));
        let mut h = HeaderMap::new();
        h.insert("x-project-id", "docs".parse().unwrap());
        assert_eq!(p.check(&HashMap::new(), &h), Ok("docs".to_string()), "the header counts too");
        assert_eq!(p.check(&q("demo"), &HeaderMap::new()), Err((StatusCode::FORBIDDEN, "Invalid projectId")));
        assert_eq!(p.check(&q("rate-limited"), &HeaderMap::new()).unwrap_err().0, StatusCode::FORBIDDEN, "no demo ids");
        assert_eq!(p.check(&q(""), &HeaderMap::new()).unwrap_err().0, StatusCode::BAD_REQUEST);
        assert!(p.origin_allowed("shop", "https://shop.example.com"));
        assert!(p.origin_allowed("shop", "https://app.shop.example.com"));
        assert!(!p.origin_allowed("shop", "http://localhost:3000"), "another project's origin");
        assert!(!p.origin_allowed("shop", "https://shop.example.com.evil.com"));
        assert!(p.origin_allowed("docs", "http://localhost:3000"));
        assert!(!p.origin_allowed("nope", "http://localhost:3000"));
        assert_eq!(p.origins("nope"), Vec::<String>::new());
    }

    #[test]
    fn without_projects_the_demo_serves_any_id_on_the_local_pages() {
        let p = Projects::parse([]).unwrap();
        assert_eq!(p, Projects::Demo);
        assert!(p.origin_allowed("anything", "http://127.0.0.1:5173"));
        assert!(!p.origin_allowed("anything", "https://example.com"));
        assert!(p.origin_allowed("foreign-origin", "https://only.example.com"));
        assert_eq!(p.check_id("bad").unwrap_err().0, StatusCode::FORBIDDEN);
        assert_eq!(p.check_id("server-error").unwrap_err().0, StatusCode::INTERNAL_SERVER_ERROR);
    }

    #[test]
    fn a_bad_project_value_is_refused_with_what_is_wrong() {
        let err = |v: &str| Projects::parse([v]).unwrap_err();
        assert!(err("shop").contains("ID=ORIGIN"), "{}", err("shop"));
        assert!(err("=https://a.com").contains("the id must be"));
        assert!(err("a b=https://a.com").contains("the id must be"));
        assert!(err("shop=").contains("no origin"));
        assert!(err("shop=ftp://a.com").contains("must start with https://"));
        assert!(err("shop=https://a.com/path").contains("scheme, host and port only"));
        assert!(err("shop=https://user@a.com").contains("scheme, host and port only"));
        assert!(err("shop=https://a.com:99999").contains("bad port"));
        assert!(err("shop=https://a..com").contains("bad host"));
        assert!(err(&format!("shop=https://{}.com", "a".repeat(200))).contains("too long"));
        let many = format!("shop={}", (0..65).map(|i| format!("https://a{i}.com")).collect::<Vec<_>>().join(","));
        assert!(err(&many).contains("at most 64"));
        let twice = Projects::parse(["a=https://a.com", "a=https://b.com"]).unwrap_err();
        assert!(twice.contains("given twice"), "{twice}");
        assert!(Projects::parse(["a=https://[::1]:8080,http://127.0.0.1:*"]).is_ok());
    }
}
