//! `wallet-modal-server --port P [--root DIR] [--chains eip155:1=URL,…] [--contracts manifest.json] [--project ID=ORIGIN,…]
//! [--frame-port F --smtp HOST:PORT --oidc URL] [--test-token TOKEN] [--store sqlite:PATH|postgres://…] [--redis redis://HOST:PORT]`
//!
//! With `--store sqlite:PATH` (or a PostgreSQL URL, also from `$WM_STORE`) the embedded wallets'
//! accounts and key-encryption keys are kept in that file or database (written before each answer; the keys sealed under the master key, 64 hex characters
//! in `$WM_MASTER_KEY` or in `--master-key-file`): a restart keeps every wallet. Without it they
//! live in memory only.
//!
//! Prints `listening on http://127.0.0.1:PORT` on stdout once it accepts connections, and with
//! `--frame-port` a second line `frame on http://127.0.0.1:F` (the secure frame's origin).
//! With `--oidc`, social login's client secret comes from the environment variable
//! `WM_OIDC_CLIENT_SECRET`. With `--test-token` (32+ characters), the test hooks `GET` and
//! `DELETE /e/recorded` answer requests carrying `Authorization: Bearer <token>`; every other
//! request to them, and every request without the flag, gets 404. Stops on Ctrl-C or SIGTERM.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use wm_server::{default_chains, parse_chains, Options};

const USAGE: &str = "usage: wallet-modal-server --port P (0 = any free port) [--root DIR (where demo/ and dist/ are served from; default .)] \
[--chains eip155:1=https://…,31337=http://127.0.0.1:8545 (each EVM network, CAIP-2 or chain id, and its upstream JSON-RPC URL)] [--contracts manifest.json] [--solana solana.json] [--bitcoin http://user:password@127.0.0.1:port (or https://user:password@host:port)] \
[--frame-port F (0 = any free port: the embedded wallet's frame and wallet service)] \
[--smtp HOST:PORT | smtps://USER@HOST[:465] | smtp+starttls://USER@HOST[:587] (the wallet service's mail server: a local sink, \
or a provider over TLS with the password in $WM_SMTP_PASSWORD; the user percent-encoded)] [--mail-from ADDRESS (the sender of the mail; default no-reply@wallet-modal.test)] \
[--oidc URL (social login's OpenID Connect issuer: https://…, or http:// on loopback; secret in $WM_OIDC_CLIENT_SECRET)] \
[--test-token TOKEN (32-256 characters: enables GET/DELETE /e/recorded for Authorization: Bearer TOKEN)] \
[--store sqlite:PATH | postgres://USER@HOST:PORT/DB[?sslmode=require] (or $WM_STORE: keeps the embedded wallets' accounts and keys \
there; the master key that seals the keys: 64 hex characters in $WM_MASTER_KEY or in --master-key-file FILE)] \
[--log-requests (one JSON line per request on stderr: listener, method, route pattern, status, milliseconds)] \
[--email-throttle SECONDS (1-3600: between two code mails to one address; default 30)] \
[--redis redis[s]://[[USER]:PASSWORD@]HOST:PORT[/DB] (rediss: over TLS; or $WM_REDIS: the relay's link to the other instances behind it)] \
[--payout-lease SECONDS (1-3600: with --store, a paid on-ramp order whose payout made no progress this long is taken up again; default 90)] \
[--host ADDRESS (the address both listeners bind; default 127.0.0.1)] \
[--frame-origin URL (the secure frame's origin as visitors reach it, e.g. https://wallet.example.com behind a balancer)] \
[--project ID=ORIGIN[,ORIGIN…] (once per project: only those are served, each embedded only by its origins, e.g. shop=https://shop.example.com,https://*.shop.example.com; \
none: any project id, on the local pages, as the demo)] \
[--relay-limits NAME=N,… (the relay's bounds: connections, subscriptions, topics, message-bytes, frame-bytes, stored-bytes, mailbox, ttl, publish-rate, request-rate)] \
[--oidc-clients PROVIDER=CLIENT_ID,… (social login's clients at the --oidc issuer, e.g. google=wallet-web; secrets in $WM_OIDC_CLIENT_SECRET_GOOGLE or $WM_OIDC_CLIENT_SECRET; \
only those listed are offered)] \
[--ca-file PEM (certificate authorities trusted besides the built-in roots: https:// chains and issuer, PostgreSQL, rediss://)] \
[--config FILE (or $WM_CONFIG: `name = value` lines, `#` comments, any option above without its dashes, `project` once per project; the command line wins)]";

/// The options a configuration file may set (those of the command line, but the test hooks'
/// token: test switches are never read from a file).
const CONFIG_NAMES: [&str; 22] = [
    "port", "root", "chains", "contracts", "solana", "bitcoin", "frame-port", "smtp", "oidc", "store", "master-key-file", "log-requests", "email-throttle",
    "redis", "payout-lease", "host", "frame-origin", "project", "relay-limits", "oidc-clients", "ca-file",
    "mail-from",
];

/// The arguments a configuration file stands for: each `name = value` line (blank lines and `#`
/// comments skipped) as `--name value`; `log-requests = true` as the flag alone.
fn config_args(path: &std::path::Path) -> Result<Vec<String>, String> {
    let meta = std::fs::metadata(path).map_err(|e| format!("--config {}: {e}", path.display()))?;
    if meta.len() > 64 * 1024 {
        return Err(format!("--config {}: larger than 64 KiB", path.display()));
    }
    let text = std::fs::read_to_string(path).map_err(|e| format!("--config {}: {e}", path.display()))?;
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        // A `#` at the start of a line, or after a space or tab, begins a comment.
        let end = line.match_indices('#').map(|(i, _)| i).find(|&i| i == 0 || line[..i].ends_with([' ', '\t'])).unwrap_or(line.len());
        let line = line[..end].trim_end();
        if line.is_empty() {
            continue;
        }
        let at = || format!("--config {} line {}", path.display(), n + 1);
        let (name, value) = line.split_once('=').ok_or_else(|| format!("{}: expected `name = value`", at()))?;
        let (name, value) = (name.trim(), value.trim().trim_matches('"'));
        if !CONFIG_NAMES.contains(&name) {
            return Err(format!("{}: unknown option {name:?}", at()));
        }
        match (name, value) {
            ("log-requests", "true") => out.push("--log-requests".to_string()),
            ("log-requests", "false") => {}
            ("log-requests", _) => return Err(format!("{}: log-requests is true or false", at())),
            _ => {
                out.push(format!("--{name}"));
                out.push(value.to_string());
            }
        }
    }
    Ok(out)
}

/// The command line with the configuration file's options first (`--config FILE`, else
/// `$WM_CONFIG`), so that the command line's own win.
fn with_config(args: Vec<String>) -> Result<Vec<String>, String> {
    let mut rest = Vec::with_capacity(args.len());
    let mut file = std::env::var("WM_CONFIG").ok().filter(|s| !s.is_empty()).map(PathBuf::from);
    let mut it = args.into_iter();
    while let Some(a) = it.next() {
        if a == "--config" {
            file = Some(PathBuf::from(it.next().ok_or("--config needs a value")?));
        } else if let Some(f) = a.strip_prefix("--config=") {
            file = Some(PathBuf::from(f));
        } else {
            rest.push(a);
        }
    }
    let mut all = match file {
        Some(f) => config_args(&f)?,
        None => Vec::new(),
    };
    // The options that may be given several times (`project`): the command line's replace the
    // file's rather than add to them.
    for name in ["--project", "--ca-file"] {
        if rest.iter().any(|a| a == name || a.starts_with(&format!("{name}="))) {
            let mut kept = Vec::with_capacity(all.len());
            let mut it = std::mem::take(&mut all).into_iter();
            while let Some(a) = it.next() {
                if a == name {
                    it.next();
                } else {
                    kept.push(a);
                }
            }
            all = kept;
        }
    }
    all.extend(rest);
    Ok(all)
}

struct Args {
    port: u16,
    log_requests: bool,
    /// Seconds between two code mails to one address (`--email-throttle`; default 30).
    email_throttle: Option<u64>,
    /// Seconds before a stalled on-ramp payout is taken up again (`--payout-lease`; default 30).
    payout_lease: Option<u64>,
    host: Option<std::net::IpAddr>,
    frame_origin: Option<String>,
    store: Option<wm_server::wallet::StoreConfig>,
    redis: Option<wm_server::relay::resp::RedisUrl>,
    frame_port: Option<u16>,
    smtp: Option<wm_server::wallet::smtp::MailServer>,
    mail_from: Option<String>,
    oidc: Option<String>,
    projects: wm_server::projects::Projects,
    relay: Option<wm_server::relay::RelayConfig>,
    oidc_clients: Option<String>,
    options: Options,
}

/// The master key: 64 hex characters (surrounding whitespace ignored).
fn parse_master_key(text: &str, from: &str) -> Result<[u8; 32], String> {
    let hex = text.trim();
    let bad = || format!("the master key ({from}) must be 64 hex characters (32 bytes)");
    if hex.len() != 64 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(bad());
    }
    let mut key = [0u8; 32];
    for (i, b) in key.iter_mut().enumerate() {
        *b = u8::from_str_radix(hex.get(2 * i..2 * i + 2).ok_or_else(bad)?, 16).map_err(|_| bad())?;
    }
    Ok(key)
}

/// `--store sqlite:PATH` or `--store postgres://…` (or `$WM_STORE`: a database URL with its
/// password kept out of the process list) with the master key from `--master-key-file` or `$WM_MASTER_KEY`.
fn store_config(store: Option<String>, key_file: Option<PathBuf>) -> Result<Option<wm_server::wallet::StoreConfig>, String> {
    let Some(store) = store.or_else(|| std::env::var("WM_STORE").ok().filter(|s| !s.is_empty())) else {
        return match key_file {
            Some(_) => Err("--master-key-file needs --store".into()),
            None => Ok(None),
        };
    };
    let url = wm_server::wallet::store::durable::StoreUrl::parse(&store)?;
    let master_key = match key_file {
        Some(f) => {
            let text = std::fs::read_to_string(&f).map_err(|e| format!("--master-key-file {}: {e}", f.display()))?;
            parse_master_key(&text, "--master-key-file")?
        }
        None => match std::env::var("WM_MASTER_KEY") {
            Ok(v) => parse_master_key(&v, "$WM_MASTER_KEY")?,
            Err(_) => return Err("--store needs the master key that seals the keys: $WM_MASTER_KEY or --master-key-file".into()),
        },
    };
    Ok(Some(wm_server::wallet::StoreConfig { url, master_key }))
}

/// `--smtp`, with its password from `$WM_SMTP_PASSWORD` when the URL names a user.
fn parse_smtp(s: &str) -> Result<wm_server::wallet::smtp::MailServer, String> {
    let password = std::env::var("WM_SMTP_PASSWORD").ok().filter(|p| !p.is_empty());
    wm_server::wallet::smtp::MailServer::parse(s, password.as_deref())
}

fn parse_args(mut it: impl Iterator<Item = String>) -> Result<Args, String> {
    let mut port: Option<u16> = None;
    let mut root: Option<PathBuf> = None;
    let mut chains = None;
    let mut contracts: Option<PathBuf> = None;
    let mut solana: Option<PathBuf> = None;
    let mut bitcoin: Option<String> = None;
    let mut frame_port: Option<u16> = None;
    let mut smtp: Option<String> = None;
    let mut mail_from: Option<String> = None;
    let mut oidc: Option<String> = None;
    let mut test_token: Option<String> = None;
    let mut store: Option<String> = None;
    let mut key_file: Option<PathBuf> = None;
    let mut log_requests = false;
    let mut email_throttle: Option<u64> = None;
    let mut redis: Option<String> = None;
    let mut payout_lease: Option<u64> = None;
    let mut host: Option<std::net::IpAddr> = None;
    let mut frame_origin: Option<String> = None;
    let mut projects: Vec<String> = Vec::new();
    let mut relay_limits: Option<String> = None;
    let mut oidc_clients: Option<String> = None;
    while let Some(arg) = it.next() {
        let (key, inline) = match arg.split_once('=') {
            Some((k, v)) if k.starts_with("--") => (k.to_string(), Some(v.to_string())),
            _ => (arg.clone(), None),
        };
        let mut value = |name: &str| {
            inline
                .clone()
                .or_else(|| it.next())
                .ok_or(format!("{name} needs a value"))
        };
        match key.as_str() {
            "--port" => {
                port = Some(
                    value("--port")?
                        .parse()
                        .map_err(|_| "--port must be 0..65535".to_string())?,
                )
            }
            "--root" => root = Some(PathBuf::from(value("--root")?)),
            "--chains" => chains = Some(parse_chains(&value("--chains")?)?),
            "--contracts" => contracts = Some(PathBuf::from(value("--contracts")?)),
            "--solana" => solana = Some(PathBuf::from(value("--solana")?)),
            "--bitcoin" => bitcoin = Some(value("--bitcoin")?),
            "--frame-port" => {
                frame_port = Some(
                    value("--frame-port")?
                        .parse()
                        .map_err(|_| "--frame-port must be 0..65535".to_string())?,
                )
            }
            "--smtp" => smtp = Some(value("--smtp")?),
            "--mail-from" => {
                let v = value("--mail-from")?;
                mail_from = Some(
                    wm_server::wallet::validate::email(&v)
                        .ok_or_else(|| format!("--mail-from must be an email address (ASCII, one @, a domain), got {v:?}"))?,
                );
            }
            "--oidc" => oidc = Some(wm_server::wallet::social::parse_issuer(&value("--oidc")?)?),
            "--test-token" => {
                test_token = Some(wm_server::parse_test_token(&value("--test-token")?)?)
            }
            "--store" => store = Some(value("--store")?),
            "--redis" => redis = Some(value("--redis")?),
            "--master-key-file" => key_file = Some(PathBuf::from(value("--master-key-file")?)),
            "--log-requests" if inline.is_none() => log_requests = true,
            "--email-throttle" => {
                email_throttle = Some(
                    value("--email-throttle")?
                        .parse()
                        .ok()
                        .filter(|s| (1..=3600).contains(s))
                        .ok_or("--email-throttle must be 1..3600 (seconds)")?,
                )
            }
            "--payout-lease" => {
                payout_lease = Some(
                    value("--payout-lease")?
                        .parse()
                        .ok()
                        .filter(|s| (1..=3600).contains(s))
                        .ok_or("--payout-lease must be 1..3600 (seconds)")?,
                )
            }
            "--host" => host = Some(value("--host")?.parse().map_err(|_| "--host must be an IP address (0.0.0.0 for every interface)".to_string())?),
            "--frame-origin" => {
                let o = value("--frame-origin")?;
                let ok = (o.starts_with("https://") || o.starts_with("http://")) && !o.ends_with('/') && o.len() <= 200 && !o[8..].contains('/') && !o.chars().any(|c| c.is_whitespace() || c.is_control());
                if !ok {
                    return Err(format!("--frame-origin must be an origin such as https://wallet.example.com (no path), got {o:?}"));
                }
                frame_origin = Some(o)
            }
            "--project" => projects.push(value("--project")?),
            "--relay-limits" => relay_limits = Some(value("--relay-limits")?),
            "--oidc-clients" => oidc_clients = Some(value("--oidc-clients")?),
            "--ca-file" => {
                let f = value("--ca-file")?;
                let pem = std::fs::read(&f).map_err(|e| format!("--ca-file {f}: {e}"))?;
                wm_server::tls::trust_pem(&pem).map_err(|e| format!("--ca-file {f}: {e}"))?;
            }
            "-h" | "--help" => return Err(String::new()),
            other => return Err(format!("unknown argument {other:?}")),
        }
    }
    let root = root.unwrap_or_else(|| PathBuf::from("."));
    if !root.is_dir() {
        return Err(format!("--root {} is not a directory", root.display()));
    }
    if let Some(path) = &contracts {
        // Checked now so that a typo fails at start; later versions of the file are re-read.
        wm_server::chain::manifest::Manifest::load(path).map_err(|e| format!("--contracts {e}"))?;
    }
    if let Some(path) = &solana {
        wm_server::chain::solana::SolanaApi::load(path).map_err(|e| format!("--solana {e}"))?;
    }
    let redis = redis.or_else(|| std::env::var("WM_REDIS").ok().filter(|s| !s.is_empty()));
    // After every option: the password comes from the environment whichever came first.
    let smtp = smtp.map(|s| parse_smtp(&s)).transpose()?;
    Ok(Args {
        store: store_config(store, key_file)?,
        redis: redis.map(|r| wm_server::relay::resp::RedisUrl::parse(&r)).transpose()?,
        log_requests,
        email_throttle,
        payout_lease,
        host,
        frame_origin,
        port: port.ok_or("--port is required")?,
        frame_port,
        smtp,
        mail_from,
        oidc,
        projects: wm_server::projects::Projects::parse(projects.iter().map(String::as_str))?,
        relay: relay_limits.map(|spec| wm_server::relay::RelayConfig::default().with_limits(&spec)).transpose()?,
        oidc_clients,
        options: Options {
            root,
            chains: chains.unwrap_or_else(default_chains),
            contracts,
            solana,
            bitcoin,
            test_token,
        },
    })
}

/// Resolves on Ctrl-C or SIGTERM. The handlers are installed when this is called (before the
/// `listening on` line is printed), not when the future is first polled: a SIGTERM sent right after
/// that line stops the server gracefully instead of killing it.
fn shutdown_signal() -> impl std::future::Future<Output = ()> + Send + 'static {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        let mut term = signal(SignalKind::terminate()).ok();
        let mut int = signal(SignalKind::interrupt()).ok();
        async move {
            let term = async {
                match term.as_mut() {
                    Some(s) => {
                        s.recv().await;
                    }
                    None => std::future::pending::<()>().await,
                }
            };
            let int = async {
                match int.as_mut() {
                    Some(s) => {
                        s.recv().await;
                    }
                    None => std::future::pending::<()>().await,
                }
            };
            tokio::select! { _ = term => {}, _ = int => {} }
        }
    }
    #[cfg(not(unix))]
    {
        async {
            let _ = tokio::signal::ctrl_c().await;
        }
    }
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() -> ExitCode {
    let args = match with_config(std::env::args().skip(1).collect()).and_then(|a| parse_args(a.into_iter())) {
        Ok(a) => a,
        Err(msg) => {
            if !msg.is_empty() {
                eprintln!("error: {msg}");
            }
            eprintln!("{USAGE}");
            return ExitCode::from(if msg.is_empty() { 0 } else { 2 });
        }
    };
    if !args.options.root.join("demo").is_dir() {
        eprintln!("note: {} has no demo/ directory: the demo pages answer 404 (the services do not need them)", args.options.root.display());
    }
    if !args.options.root.join("dist").is_dir() {
        eprintln!("note: {}/dist does not exist yet; /dist/... will answer 404 until the element is built", args.options.root.display());
    }
    if args.frame_port.is_some() && args.smtp.is_none() {
        eprintln!("note: no --smtp given: the wallet service cannot mail login codes (502)");
    }
    if args.frame_port.is_some() && args.oidc.is_none() {
        eprintln!("note: no --oidc given: social login answers 503");
    }
    let env = wm_server::wallet::social::SECRET_ENV;
    let secret_of = |name: &str| std::env::var(name).ok().filter(|s| !s.is_empty());
    let (client_secret, clients) = match (&args.oidc, &args.oidc_clients) {
        (None, Some(_)) => {
            eprintln!("error: --oidc-clients needs --oidc (the issuer the clients belong to)");
            return ExitCode::from(2);
        }
        (Some(_), Some(spec)) => match wm_server::wallet::social::SocialConfig::parse_clients(spec, secret_of) {
            Ok(c) => (secret_of(env).unwrap_or_default(), c),
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::from(2);
            }
        },
        (Some(_), None) => match secret_of(env) {
            Some(s) if (32..=256).contains(&s.len()) => (s, Default::default()),
            _ => {
                eprintln!("error: --oidc needs the client secret in ${env} (32-256 characters)");
                return ExitCode::from(2);
            }
        },
        (None, None) => (String::new(), Default::default()),
    };
    // One server process per SQLite file (one machine's store): the file's lock is held for the
    // life of the process, and a second process is refused. Several processes share a PostgreSQL
    // store (and reach each other's relay sockets through --redis).
    let _store_lock = match args.store.as_ref().map(|s| &s.url) {
        Some(wm_server::wallet::store::durable::StoreUrl::Sqlite(path)) => {
            let lock_path = path.with_extension("sqlite.lock");
            let lock = std::fs::OpenOptions::new().create(true).truncate(false).write(true).open(&lock_path);
            match lock.map(|f| f.try_lock().map(|()| f)) {
                Ok(Ok(f)) => Some(f),
                Ok(Err(_)) => {
                    eprintln!("error: another server process uses the wallet store {} (one process per file)", path.display());
                    return ExitCode::FAILURE;
                }
                Err(e) => {
                    eprintln!("error: the wallet store's lock file {}: {e}", lock_path.display());
                    return ExitCode::FAILURE;
                }
            }
        }
        _ => None,
    };
    let config = wm_server::ServerConfig {
        projects: args.projects,
        relay: args.relay.unwrap_or_default(),
        log_requests: args.log_requests,
        redis: args.redis,
        host: args.host,
        frame_origin: args.frame_origin,
        onramp: wm_server::onramp::OnrampConfig {
            payout_lease: args.payout_lease.map_or(wm_server::onramp::OnrampConfig::default().payout_lease, std::time::Duration::from_secs),
            ..Default::default()
        },
        wallet: {
            let defaults = wm_server::wallet::WalletConfig::default();
            wm_server::wallet::WalletConfig {
                store: args.store,
                smtp: args.smtp,
                mail_from: args.mail_from.unwrap_or(defaults.mail_from.clone()),
                email_throttle: args.email_throttle.map_or(defaults.email_throttle, std::time::Duration::from_secs),
                ..defaults
            }
        },
        social: wm_server::wallet::social::SocialConfig {
            issuer: args.oidc,
            client_secret,
            clients,
            ..Default::default()
        },
        ..Default::default()
    };
    let started = wm_server::start_with_frame(
        args.options,
        config,
        args.port,
        args.frame_port,
        shutdown_signal(),
    )
    .await;
    let server = match started {
        Ok(s) => s,
        // The wallet store could not be opened (the file, its schema, the master key).
        Err(e) if e.kind() == std::io::ErrorKind::Other => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
        Err(e) => {
            let frame = args
                .frame_port
                .map(|p| format!(" or 127.0.0.1:{p}"))
                .unwrap_or_default();
            eprintln!(
                "error: cannot listen on 127.0.0.1:{}{frame}: {e}",
                args.port
            );
            return ExitCode::FAILURE;
        }
    };
    {
        let mut out = std::io::stdout().lock();
        let _ = writeln!(out, "listening on {}", server.origin());
        if let Some(frame) = server.frame_origin() {
            let _ = writeln!(out, "frame on {frame}");
        }
        let _ = out.flush();
    }
    match server.handle.await {
        Ok(Ok(())) => ExitCode::SUCCESS,
        Ok(Err(e)) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
