//! The binary: argument handling and the single `listening on` line.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

mod common;

#[test]
fn prints_one_listening_line_and_serves() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_wallet-modal-server"))
        .args(["--port", "0", "--root"])
        .arg(common::repo_root())
        .args([
            "--chains",
            "31337=http://127.0.0.1:7001,31338=http://127.0.0.1:7002",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    out.read_line(&mut line).unwrap();
    let url = line
        .trim_end()
        .strip_prefix("listening on http://127.0.0.1:")
        .map(str::to_string);
    let port: u16 = url.expect(&line).parse().unwrap();
    assert_ne!(port, 0);
    let rt = tokio::runtime::Runtime::new().unwrap();
    let cfg = rt
        .block_on(common::get(
            ([127, 0, 0, 1], port).into(),
            "/demo-config.json",
        ))
        .json();
    assert_eq!(cfg["chains"][1]["rpcUrl"], "http://127.0.0.1:7002");
    assert_eq!(cfg["apiUrl"], format!("http://127.0.0.1:{port}"));
    // SIGTERM stops it cleanly, with nothing more on stdout
    unsafe_kill_term(child.id());
    let status = child.wait().unwrap();
    assert!(status.success(), "{status:?}");
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut out, &mut rest).unwrap();
    assert_eq!(rest, "");
}

fn unsafe_kill_term(pid: u32) {
    // `kill -TERM <pid>`, the way scripts/demo.sh stops it.
    let ok = Command::new("kill")
        .args(["-TERM", &pid.to_string()])
        .status()
        .unwrap();
    assert!(ok.success());
}

#[test]
fn rejects_bad_arguments() {
    let run = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_wallet-modal-server"))
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .output()
            .unwrap()
    };
    let root = common::repo_root();
    let root = root.to_str().unwrap();
    let o = run(&["--root", root]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--port"));
    assert!(o.stdout.is_empty());
    assert_eq!(
        run(&["--port", "0", "--root", "/nonexistent"])
            .status
            .code(),
        Some(2)
    );
    assert_eq!(
        run(&["--port", "0", "--root", root, "--chains", "abc"])
            .status
            .code(),
        Some(2)
    );
    assert_eq!(run(&["--port", "x", "--root", root]).status.code(), Some(2));
    // A deploy manifest that cannot be read, or is not one, stops the start with the reason.
    let o = run(&[
        "--port",
        "0",
        "--root",
        root,
        "--contracts",
        "/nonexistent/manifest.json",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--contracts /nonexistent/manifest.json"));
    let bad = std::env::temp_dir().join(format!("wm-bad-manifest-{}.json", std::process::id()));
    std::fs::write(&bad, r#"{"version":1,"chains":[{"chainId":1,"tokens":[{"kind":"erc20","address":"0x12","symbol":"X"}]}]}"#).unwrap();
    let o = run(&[
        "--port",
        "0",
        "--root",
        root,
        "--contracts",
        bad.to_str().unwrap(),
    ]);
    let _ = std::fs::remove_file(&bad);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("bad token address"));
    assert_eq!(run(&["--bogus"]).status.code(), Some(2));
    assert_eq!(run(&["--help"]).status.code(), Some(0));
}

#[test]
fn a_mail_server_login_that_would_cross_the_network_in_the_clear_or_lacks_its_password_stops_the_start() {
    let run = |args: &[&str], password: Option<&str>| {
        let mut c = Command::new(env!("CARGO_BIN_EXE_wallet-modal-server"));
        c.args(["--port", "0", "--root"]).arg(common::repo_root()).args(args).env_remove("WM_SMTP_PASSWORD");
        if let Some(p) = password {
            c.env("WM_SMTP_PASSWORD", p);
        }
        let o = c.stdout(Stdio::piped()).stderr(Stdio::piped()).output().unwrap();
        (o.status.code(), String::from_utf8_lossy(&o.stderr).to_string())
    };
    let (code, err) = run(&["--smtp", "smtp://me@mail.example.com:587"], Some("pw-123"));
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("in the clear: use smtps:// or smtp+starttls://"), "{err}");
    // A password written into the URL is refused and not said back.
    let (code, err) = run(&["--smtp", "smtps://me:pw-inline@mail.example.com"], None);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("$WM_SMTP_PASSWORD, not in the URL") && !err.contains("pw-inline"), "{err}");
    let (code, err) = run(&["--smtp", "smtps://me@mail.example.com"], None);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("$WM_SMTP_PASSWORD"), "{err}");
    let (code, err) = run(&["--mail-from", "not an address"], None);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("--mail-from must be an email address"), "{err}");
}

#[test]
fn the_test_token_flag_opens_the_test_hooks_to_its_bearer_only() {
    let token = "cli-test-token-0123456789abcdef0123456789";
    let mut child = Command::new(env!("CARGO_BIN_EXE_wallet-modal-server"))
        .args(["--port", "0", "--test-token", token, "--root"])
        .arg(common::repo_root())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    out.read_line(&mut line).unwrap();
    let port: u16 = line
        .trim_end()
        .strip_prefix("listening on http://127.0.0.1:")
        .expect(&line)
        .parse()
        .unwrap();
    let addr = ([127, 0, 0, 1], port).into();
    let rt = tokio::runtime::Runtime::new().unwrap();
    let auth = format!("Bearer {token}");
    let (with, without, delete) = rt.block_on(async {
        let with =
            common::request(addr, "GET", "/e/recorded", &[("Authorization", &auth)], b"").await;
        let without = common::get(addr, "/e/recorded").await;
        let delete = common::request(
            addr,
            "DELETE",
            "/e/recorded",
            &[("Authorization", &auth)],
            b"",
        )
        .await;
        (with, without, delete)
    });
    unsafe_kill_term(child.id());
    assert!(child.wait().unwrap().success());
    assert_eq!((with.status, with.text().as_str()), (200, "[]"));
    assert_eq!(without.status, 404);
    assert_eq!(delete.status, 204);
}

#[test]
fn a_short_or_odd_test_token_is_refused_at_start() {
    let root = common::repo_root();
    for bad in [
        "short",
        &"a".repeat(31),
        &format!("{} x", "a".repeat(40)),
        &"a".repeat(257),
    ] {
        let o = Command::new(env!("CARGO_BIN_EXE_wallet-modal-server"))
            .args(["--port", "0", "--test-token", bad, "--root"])
            .arg(&root)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{bad}");
        assert!(
            String::from_utf8_lossy(&o.stderr).contains("--test-token must be 32-256 characters"),
            "{bad}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        assert!(o.stdout.is_empty());
    }
}

#[test]
fn the_store_flag_takes_an_sqlite_file_and_a_master_key_and_says_what_is_missing() {
    let root = common::repo_root();
    let dir = wm_server::testing::TempDir::new("cli-store");
    let db = dir.join("wallet.sqlite");
    let key = dir.join("master.key");
    std::fs::write(&key, format!("{}\n", "ab".repeat(32))).unwrap();
    let run = |args: &[&str], env_key: Option<&str>| {
        let mut c = Command::new(env!("CARGO_BIN_EXE_wallet-modal-server"));
        c.args(["--port", "0", "--root"]).arg(&root).args(args).env_remove("WM_MASTER_KEY").env_remove("WM_STORE");
        if let Some(k) = env_key {
            c.env("WM_MASTER_KEY", k);
        }
        let o = c.stdout(Stdio::piped()).stderr(Stdio::piped()).output().unwrap();
        (o.status.code(), String::from_utf8_lossy(&o.stderr).to_string())
    };
    let store = format!("sqlite:{}", db.display());
    let (code, err) = run(&["--store", &store], None);
    assert_eq!(code, Some(2));
    assert!(err.contains("--store needs the master key") && err.contains("WM_MASTER_KEY"), "{err}");
    let (code, err) = run(&["--store", "mysql://localhost/wallet"], Some(&"ab".repeat(32)));
    assert_eq!(code, Some(2));
    assert!(err.contains("--store must be sqlite:PATH or a postgres:// URL"), "{err}");
    let (code, err) = run(&["--store", &store], Some(&format!("+{}", "a".repeat(63))));
    assert_eq!(code, Some(2));
    assert!(err.contains("$WM_MASTER_KEY) must be 64 hex characters"), "{err}");
    let (code, err) = run(&["--master-key-file", key.to_str().unwrap()], None);
    assert_eq!(code, Some(2));
    assert!(err.contains("--master-key-file needs --store"), "{err}");
    // Both given: it starts, and the store file is made.
    let mut child = Command::new(env!("CARGO_BIN_EXE_wallet-modal-server"))
        .args(["--port", "0", "--frame-port", "0", "--root"])
        .arg(&root)
        .args(["--store", &store, "--master-key-file", key.to_str().unwrap()])
        .env_remove("WM_MASTER_KEY")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
    assert!(line.starts_with("listening on http://127.0.0.1:"), "{line}");
    assert!(db.is_file(), "the store file is made");
    // A second process on the same file is refused: each keeps the tables in memory.
    let second = Command::new(env!("CARGO_BIN_EXE_wallet-modal-server"))
        .args(["--port", "0", "--root"])
        .arg(&root)
        .args(["--store", &store, "--master-key-file", key.to_str().unwrap()])
        .env_remove("WM_MASTER_KEY")
        .output()
        .unwrap();
    assert_eq!(second.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&second.stderr).contains("another server process uses the wallet store"));
    unsafe_kill_term(child.id());
    let status = child.wait().unwrap();
    assert!(status.success(), "{status:?}");
}

#[test]
fn a_postgresql_store_from_wm_store_serves_several_processes_and_refuses_the_wrong_master_key() {
    let root = common::repo_root();
    let pg = wm_server::testing::PgServer::start().unwrap();
    let url = pg.url("cli");
    let server = |key: &str, stdout: Stdio| {
        Command::new(env!("CARGO_BIN_EXE_wallet-modal-server"))
            .args(["--port", "0", "--frame-port", "0", "--root"])
            .arg(&root)
            .env("WM_STORE", &url)
            .env("WM_MASTER_KEY", key.repeat(32))
            .stdout(stdout)
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    };
    // Two processes on one database (several instances behind a balancer) both start.
    let mut first = server("cd", Stdio::piped());
    let mut second = server("cd", Stdio::piped());
    for child in [&mut first, &mut second] {
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
        assert!(line.starts_with("listening on http://127.0.0.1:"), "{line}");
    }
    // A third with the wrong master key is refused with its reason (naming no key), while the
    // others run.
    let wrong = server("ce", Stdio::null()).wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&wrong.stderr);
    assert_eq!(wrong.status.code(), Some(1), "{err}");
    assert!(err.contains("master key does not open"), "{err}");
    assert!(!err.contains(&"ce".repeat(32)) && !err.contains(&"cd".repeat(32)), "{err}");
    for child in [&mut first, &mut second] {
        unsafe_kill_term(child.id());
        assert!(child.wait().unwrap().success());
    }
}

#[test]
fn a_configuration_file_sets_the_options_the_command_line_wins_and_a_bad_line_is_named() {
    let dir = wm_server::testing::TempDir::new("cli-config");
    let file = dir.join("server.conf");
    std::fs::write(
        &file,
        format!(
            "# the services of one machine\nport = 0\nroot = {}\nchains = \"31337=http://127.0.0.1:7101,31338=http://127.0.0.1:7102\"\nhost = 127.0.0.1          # the address both listeners bind\nlog-requests = false\n",
            common::repo_root().display()
        ),
    )
    .unwrap();
    // The file alone is enough to start; an option on the command line wins over the file's.
    let mut child = Command::new(env!("CARGO_BIN_EXE_wallet-modal-server"))
        .arg("--config")
        .arg(&file)
        .args(["--chains", "31337=http://127.0.0.1:7201"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
    let port: u16 = line.trim_end().strip_prefix("listening on http://127.0.0.1:").expect(&line).parse().unwrap();
    let rt = tokio::runtime::Runtime::new().unwrap();
    let cfg = rt.block_on(common::get(([127, 0, 0, 1], port).into(), "/demo-config.json")).json();
    assert_eq!(cfg["chains"][0]["rpcUrl"], "http://127.0.0.1:7201");
    assert_eq!(cfg["chains"].as_array().map(Vec::len), Some(1), "{cfg}");
    unsafe_kill_term(child.id());
    assert!(child.wait().unwrap().success());
    // A line it cannot use stops the start, naming the file and the line; so does a test switch.
    for (text, says) in [
        ("port = 0\nbogus = 1\n", "line 2: unknown option \"bogus\""),
        ("port = 0\nno equals sign\n", "line 2: expected `name = value`"),
        ("test-token = aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\n", "line 1: unknown option \"test-token\""),
        ("host = somewhere\n", "--host must be an IP address"),
        ("frame-origin = https://wallet.example.com/path\n", "--frame-origin must be an origin"),
    ] {
        std::fs::write(&file, text).unwrap();
        let out = Command::new(env!("CARGO_BIN_EXE_wallet-modal-server")).arg(format!("--config={}", file.display())).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(err.contains(says), "{text:?}: {err}");
    }
}

#[test]
fn a_sigterm_sent_the_moment_it_says_listening_stops_it_gracefully() {
    for _ in 0..10 {
        let mut child = Command::new(env!("CARGO_BIN_EXE_wallet-modal-server"))
            .args(["--port", "0", "--root"])
            .arg(common::repo_root())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
        assert!(line.starts_with("listening on "), "{line}");
        unsafe_kill_term(child.id());
        let status = child.wait().unwrap();
        assert!(status.success(), "{status:?}: killed by the signal instead of stopping");
    }
}

/// Starts the binary with `args`: the child, its port and (`with_frame`) its frame port.
/// (Killed when dropped: a failing test leaves no server behind.)
fn spawn_listening(args: &[String], with_frame: bool) -> (common::chain::KillOnDrop, u16, Option<u16>) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_wallet-modal-server"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    out.read_line(&mut line).unwrap();
    let port: u16 = line.trim_end().strip_prefix("listening on http://127.0.0.1:").expect(&line).parse().unwrap();
    let mut frame = String::new();
    let frame_port = if with_frame {
        out.read_line(&mut frame).unwrap();
        Some(frame.trim_end().strip_prefix("frame on http://127.0.0.1:").expect(&frame).parse().unwrap())
    } else {
        None
    };
    (common::chain::KillOnDrop(child), port, frame_port)
}

#[test]
fn configured_projects_are_the_only_ones_served_each_with_its_origins_and_the_relay_takes_its_limits() {
    let dir = wm_server::testing::TempDir::new("cli-projects");
    let file = dir.join("server.conf");
    std::fs::write(
        &file,
        format!(
            "port = 0\nframe-port = 0\nroot = {}\nproject = shop=https://shop.example.com,https://*.shop.example.com\nproject = docs=http://127.0.0.1:*\nrelay-limits = connections=1\n",
            common::repo_root().display()
        ),
    )
    .unwrap();
    let (mut child, port, frame) = spawn_listening(&[format!("--config={}", file.display())], true);
    let addr: std::net::SocketAddr = ([127, 0, 0, 1], port).into();
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        let origins = common::get(addr, "/projects/v1/origins?projectId=shop").await;
        assert_eq!(origins.status, 200, "{}", origins.text());
        assert_eq!(origins.json()["allowedOrigins"], serde_json::json!(["https://shop.example.com", "https://*.shop.example.com"]));
        for unknown in ["demo", "bad", "anything"] {
            let r = common::get(addr, &format!("/appkit/v1/config?projectId={unknown}")).await;
            assert_eq!((r.status, r.json()["error"].as_str().map(str::to_string)), (403, Some("Invalid projectId".into())), "{unknown}");
        }
        assert_eq!(common::get(addr, "/appkit/v1/config?projectId=docs").await.status, 200);
        assert_eq!(common::get(addr, "/v1/supported-chains?projectId=nope").await.status, 403, "every API asks the same list");
        assert_eq!(common::get(addr, "/demo-config.json").await.status, 404, "the demo page's settings (upstream URLs) are the demo's only");
        // The secure frame may be embedded by the project's origins only.
        let frame: std::net::SocketAddr = ([127, 0, 0, 1], frame.unwrap()).into();
        let page = common::get(frame, "/frame?projectId=shop").await;
        let csp = page.header("content-security-policy").unwrap_or_default().to_string();
        assert!(csp.contains("frame-ancestors https://shop.example.com https://*.shop.example.com"), "{csp}");
        let page = common::get(frame, "/frame?projectId=demo").await;
        assert!(page.header("content-security-policy").is_some_and(|c| c.contains("frame-ancestors 'none'")));
        // Sign-in: a page of the project may ask for a nonce; another origin may not.
        let ok = common::request(addr, "GET", "/v1/sessions/nonce?projectId=shop", &[("Origin", "https://app.shop.example.com")], b"").await;
        assert_eq!(ok.status, 200, "{}", ok.text());
        let r = common::request(addr, "POST", "/v1/sessions?projectId=shop", &[("Origin", "http://127.0.0.1:5173"), ("Content-Type", "application/json")], b"{}").await;
        assert_eq!(r.status, 403, "the demo's local pages are not the shop's: {}", r.text());
        // The relay takes a listed project's sockets only; connections=1: a second is refused.
        let url = |seed: u8, project: &str| common::relay::relay_url(addr, &common::relay::jwt(addr, seed)).replace("projectId=demo-project", &format!("projectId={project}"));
        let mut first = common::relay::Client::connect_url(&url(1, "shop")).await;
        first.subscribe(&common::relay::topic(1)).await;
        let mut unlisted = common::relay::Client::connect_url(&url(3, "demo-project")).await;
        assert_eq!(unlisted.closed_with().await, (1008, "invalid projectId".to_string()));
        let mut second = common::relay::Client::connect_url(&url(2, "docs")).await;
        assert_eq!(second.closed_with().await, (1013, "too many connections".to_string()));
        // Analytics events of an unlisted project are refused too.
        let e = common::request(addr, "POST", "/e?projectId=demo-project", &[("Content-Type", "application/json")], b"{}").await;
        assert_eq!(e.status, 403, "{}", e.text());
    });
    unsafe_kill_term(child.0.id());
    assert!(child.0.wait().unwrap().success());
    // Projects on the command line replace the file's.
    let (mut child, port, _) = spawn_listening(&[format!("--config={}", file.display()), "--project=other=https://o.example".into()], true);
    let addr: std::net::SocketAddr = ([127, 0, 0, 1], port).into();
    rt.block_on(async {
        assert_eq!(common::get(addr, "/appkit/v1/config?projectId=other").await.status, 200);
        assert_eq!(common::get(addr, "/appkit/v1/config?projectId=shop").await.status, 403);
    });
    unsafe_kill_term(child.0.id());
    assert!(child.0.wait().unwrap().success());
    // Bad values stop the start and say what is wrong.
    for (args, says) in [
        (vec!["--project", "shop"], "--project must be ID=ORIGIN"),
        (vec!["--oidc", "http://127.0.0.1:9", "--oidc-clients", ","], "no client given"),
        (vec!["--project", "shop=https://a.com/path"], "scheme, host and port only"),
        (vec!["--project", "a=https://a.com", "--project", "a=https://b.com"], "given twice"),
        (vec!["--relay-limits", "connections=0"], "connections must be 1..1000000"),
        (vec!["--chains", "solana:x=http://127.0.0.1:1"], "--solana"),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_wallet-modal-server")).args(["--port", "0"]).args(&args).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
}

#[test]
fn oidc_clients_need_the_issuer_and_each_ones_secret() {
    let run = |args: &[&str], env: &[(&str, &str)]| {
        let out = Command::new(env!("CARGO_BIN_EXE_wallet-modal-server"))
            .args(["--port", "0", "--frame-port", "0", "--root"])
            .arg(common::repo_root())
            .args(args)
            .env_remove("WM_OIDC_CLIENT_SECRET")
            .envs(env.iter().copied())
            .output()
            .unwrap();
        (out.status.code(), String::from_utf8_lossy(&out.stderr).into_owned())
    };
    let (code, err) = run(&["--oidc-clients", "google=web"], &[]);
    assert_eq!(code, Some(2));
    assert!(err.contains("--oidc-clients needs --oidc"), "{err}");
    let (code, err) = run(&["--oidc", "http://127.0.0.1:9", "--oidc-clients", "google=web"], &[]);
    assert_eq!(code, Some(2));
    assert!(err.contains("$WM_OIDC_CLIENT_SECRET_GOOGLE"), "{err}");
    let (code, err) = run(&["--oidc", "http://127.0.0.1:9", "--oidc-clients", "myspace=web"], &[("WM_OIDC_CLIENT_SECRET", &"s".repeat(40))]);
    assert_eq!(code, Some(2));
    assert!(err.contains("unknown provider \"myspace\""), "{err}");
}
