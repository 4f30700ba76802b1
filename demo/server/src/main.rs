//! `wallet-modal-demo --port P --root DIR [--chains 31337=URL,31338=URL] [--contracts manifest.json]`
//!
//! Prints exactly one line `listening on http://127.0.0.1:PORT` on stdout once it accepts connections.
//! Stops on Ctrl-C or SIGTERM.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use wm_demo::{default_chains, parse_chains, Options};

const USAGE: &str = "usage: wallet-modal-demo --port P (0 = any free port) --root <repo dir> \
[--chains 31337=http://127.0.0.1:8545,31338=http://127.0.0.1:8546] [--contracts manifest.json]";

struct Args {
    port: u16,
    options: Options,
}

fn parse_args(mut it: impl Iterator<Item = String>) -> Result<Args, String> {
    let mut port: Option<u16> = None;
    let mut root: Option<PathBuf> = None;
    let mut chains = None;
    let mut contracts: Option<PathBuf> = None;
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
            "-h" | "--help" => return Err(String::new()),
            other => return Err(format!("unknown argument {other:?}")),
        }
    }
    let root = root.unwrap_or_else(|| PathBuf::from("."));
    if !root.join("demo").is_dir() {
        return Err(format!("--root {} has no demo/ directory", root.display()));
    }
    if let Some(path) = &contracts {
        // Checked now so that a typo fails at start; later versions of the file are re-read.
        wm_demo::chain::manifest::Manifest::load(path).map_err(|e| format!("--contracts {e}"))?;
    }
    Ok(Args {
        port: port.ok_or("--port is required")?,
        options: Options {
            root,
            chains: chains.unwrap_or_else(default_chains),
            contracts,
        },
    })
}

async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! { _ = ctrl_c => {}, _ = term => {} }
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() -> ExitCode {
    let args = match parse_args(std::env::args().skip(1)) {
        Ok(a) => a,
        Err(msg) => {
            if !msg.is_empty() {
                eprintln!("error: {msg}");
            }
            eprintln!("{USAGE}");
            return ExitCode::from(if msg.is_empty() { 0 } else { 2 });
        }
    };
    if !args.options.root.join("dist").is_dir() {
        eprintln!("note: {}/dist does not exist yet; /dist/... will answer 404 until the element is built", args.options.root.display());
    }
    let server = match wm_demo::start(args.options, args.port, shutdown_signal()).await {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: cannot listen on 127.0.0.1:{}: {e}", args.port);
            return ExitCode::FAILURE;
        }
    };
    {
        let mut out = std::io::stdout().lock();
        let _ = writeln!(out, "listening on {}", server.origin());
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
