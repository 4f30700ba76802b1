#!/usr/bin/env bash
# The body of `make demo` (run after the build): two local anvil chains with the demo contracts
# deployed (demo/contracts/deploy.mjs: tokens, an NFT collection, some history), the demo backend
# serving the page, dist/, the stand-in APIs (with the blockchain API indexing both chains) and the
# WalletConnect relay, the Demo Wallet extension files and the Demo Mobile Wallet bundle; the embedded
# wallet's secure frame and wallet service on the backend's second port (4174 when free), mailing
# login codes and device links to a local mail sink (npm maildev, web page on 1080 when free), and
# signing in with social accounts at a local OpenID Connect provider (demo/oidc/provider.mjs, npm
# oidc-provider, on 4180 when free).
# Ctrl-C (or TERM) stops exactly the processes this script started.
#
# Environment:
#   DEMO_PORT   backend port (default 4173 when free, otherwise any free port)
#   ANVIL       anvil binary (default: node_modules/@foundry-rs/anvil-linux-amd64/bin/anvil)
#   CARGO_TARGET_DIR  honoured when locating the backend binary
#   DEMO_CARGO_PROFILE  debug: run the backend's debug build (default: release)
#   WM_DEVNET_JSON  a file to describe the running stack in, as JSON (devnet/: wallet-modal-devnet)
#   WM_DEMO_STATE   the folder of the wallet service's store (default demo/.state: embedded wallets
#                   survive a restart of the demo)
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT="$(pwd)"

log() { printf '[demo] %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }

# ----- processes we own ------------------------------------------------------------------------------
PIDS=()
TMP="$(mktemp -d "${TMPDIR:-/tmp}/wallet-modal-server.XXXXXX")"
cleaned=0
cleanup() {
  [ "$cleaned" = 1 ] && return
  cleaned=1
  trap - INT TERM EXIT
  if [ "${#PIDS[@]}" -gt 0 ]; then
    log "stopping ${PIDS[*]}"
    for pid in "${PIDS[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
    # Give them 5 s to exit, then KILL whatever is left (only our own pids).
    for _ in $(seq 50); do
      alive=0
      for pid in "${PIDS[@]}"; do kill -0 "$pid" 2>/dev/null && alive=1; done
      [ "$alive" = 0 ] && break
      sleep 0.1
    done
    for pid in "${PIDS[@]}"; do kill -KILL "$pid" 2>/dev/null || true; done
    for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
  fi
  rm -rf "$TMP"
}
on_signal() { cleanup; exit "$1"; }
trap 'on_signal 130' INT
trap 'on_signal 143' TERM
trap cleanup EXIT

# ----- helpers ---------------------------------------------------------------------------------------
source "$ROOT/scripts/lib/ports.sh"

# ----- anvil -----------------------------------------------------------------------------------------
ANVIL="${ANVIL:-}"
if [ -z "$ANVIL" ]; then
  ANVIL="$ROOT/node_modules/@foundry-rs/anvil-linux-amd64/bin/anvil"
  if [ ! -x "$ANVIL" ] && command -v node >/dev/null; then
    ANVIL="$(node -p "require.resolve('@foundry-rs/anvil-linux-amd64/bin/anvil')" 2>/dev/null || true)"
  fi
fi
[ -n "$ANVIL" ] && [ -x "$ANVIL" ] || die "anvil not found: run 'npm install' (it brings @foundry-rs/anvil) or set ANVIL=/path/to/anvil"

# A port found free can be taken by another process before anvil binds it: then anvil exits, and it
# is started again on another port (scripts/lib/ports.sh).
start_anvil() { # VAR chain-id preferred-port: anvil on a free port, its port in $VAR
  local port pid try
  for try in 1 2 3 4 5; do
    if [ "$try" = 1 ]; then port="$(free_port "$3")"; else port="$(free_port)"; fi
    [ "$port" = "${PORT_A:-}" ] && continue
    "$ANVIL" --host 127.0.0.1 --port "$port" --chain-id "$2" --silent &
    pid="$!"
    if listening "$pid" "$port"; then PIDS+=("$pid"); printf -v "$1" %s "$port"; return 0; fi
    kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null || true
  done
  die "anvil did not start (chain $2)"
}
start_anvil PORT_A 31337 8545
start_anvil PORT_B 31338 8546
CHAINS="31337=http://127.0.0.1:$PORT_A,31338=http://127.0.0.1:$PORT_B"
log "anvil chains: $CHAINS"

# ----- local Solana chain ------------------------------------------------------------------------------
# The real SVM (npm litesvm) behind the standard JSON-RPC (demo/solana/rpc.mjs), on a port the OS
# gives it, seeded for the Demo Wallet's Solana account: SOL, a USDC-like token, a Token-2022 one.
SOLANA_JSON="$TMP/solana.json"
node "$ROOT/demo/solana/rpc.mjs" --port 0 --seed demo --out "$SOLANA_JSON" > "$TMP/solana.out" 2> "$TMP/solana.log" &
PIDS+=("$!"); PID_SOL="$!"
SOLANA_URL=""
for _ in $(seq 600); do
  SOLANA_URL="$(sed -n 's/^solana on \(http:\/\/[^ ]*\)$/\1/p' "$TMP/solana.out" | head -n1)"
  [ -n "$SOLANA_URL" ] && break
  kill -0 "$PID_SOL" 2>/dev/null || { cat "$TMP/solana.log" >&2; die "the Solana chain exited (run 'npm install': it brings litesvm)"; }
  sleep 0.1
done
[ -n "$SOLANA_URL" ] || die "the Solana chain did not report its address"
log "solana: $SOLANA_URL"

# ----- local Bitcoin chain -----------------------------------------------------------------------------
# litecoind in regtest (demo/bitcoin/regtest.mjs), mined to the Demo Bitcoin wallet, a block every 10 s
# while a transfer waits in its mempool; the backend serves
# its Esplora-shaped API at /bitcoin/api. Without litecoind the demo runs without it. Its chain's
# folder is under $TMP: removed with it even if litecoind is killed before it could remove it.
TMPDIR="$TMP" node "$ROOT/demo/bitcoin/regtest.mjs" --mine-every 10 > "$TMP/bitcoin.out" 2> "$TMP/bitcoin.log" &
PIDS+=("$!"); PID_BTC="$!"
BITCOIN_URL=""
for _ in $(seq 1200); do
  BITCOIN_URL="$(sed -n 's/^bitcoin on \(http:\/\/[^ ]*\)$/\1/p' "$TMP/bitcoin.out" | head -n1)"
  [ -n "$BITCOIN_URL" ] && break
  kill -0 "$PID_BTC" 2>/dev/null || { log "no local Bitcoin chain: $(cat "$TMP/bitcoin.log")"; break; }
  sleep 0.1
done
[ -n "$BITCOIN_URL" ] && log "bitcoin: regtest (litecoind) on ${BITCOIN_URL##*@}"

# ----- demo contracts ----------------------------------------------------------------------------------
# Compiled with solc from npm (cached in demo/contracts/build/), deployed to both chains from anvil's
# first account. The NFT collection's tokenURI points at the backend, so its port is chosen now.
SERVER_PORT="${DEMO_PORT:-$(free_port 4173)}"
# This run's own manifest (two runs from one checkout never share, or delete, each other's).
MANIFEST="$TMP/manifest.json"
node "$ROOT/demo/contracts/deploy.mjs" --rpc "http://127.0.0.1:$PORT_A" --rpc "http://127.0.0.1:$PORT_B" \
  --api-url "http://127.0.0.1:$SERVER_PORT" --out "$MANIFEST" >&2 \
  || die "could not deploy the demo contracts (run 'npm install' first)"

# ----- Demo Wallet extension files -------------------------------------------------------------------
bash "$ROOT/demo/wallet/make-extension.sh" "$CHAINS" >&2

# ----- Demo Mobile Wallet bundle (WalletConnect wallet page, served at /wallet-mobile/) -------------------
node "$ROOT/demo/wallet-mobile/build.mjs" >&2 || die "could not bundle demo/wallet-mobile (run 'npm install' first)"
# The Bitcoin, Polkadot and Cosmos test wallets (served at /demo/wallet/dist/).
node "$ROOT/demo/wallet/build.mjs" >&2 || die "could not bundle demo/wallet/families (run 'npm install' first)"

# ----- Demo Farcaster client bundle (Sign In With Farcaster's approval page, served at /demo/farcaster/) -
node "$ROOT/demo/farcaster/build.mjs" >&2 || die "could not bundle demo/farcaster (run 'npm install' first)"

# ----- mail sink (the embedded wallet's login codes and device links) -----------------------------------
MAILDEV="$ROOT/node_modules/maildev/dist/bin/maildev.js"
[ -f "$MAILDEV" ] || die "maildev not found: run 'npm install' (it brings maildev)"
MAIL_STARTED=""
for try in 1 2 3 4 5; do
  if [ "$try" = 1 ]; then MAIL_SMTP="$(free_port 1025)"; MAIL_WEB="$(free_port 1080)"; else MAIL_SMTP="$(free_port)"; MAIL_WEB="$(free_port)"; fi
  while [ "$MAIL_WEB" = "$MAIL_SMTP" ]; do MAIL_WEB="$(free_port)"; done
  # maildev keeps each message's .eml under $TMPDIR/maildev: in this run's folder, removed at the end.
  TMPDIR="$TMP" node "$MAILDEV" --smtp "$MAIL_SMTP" --web "$MAIL_WEB" --ip 127.0.0.1 --web-ip 127.0.0.1 --silent \
    > "$TMP/maildev.log" 2>&1 &
  PID_M="$!"
  if listening "$PID_M" "$MAIL_SMTP" "$MAIL_WEB"; then PIDS+=("$PID_M"); MAIL_STARTED=1; break; fi
  kill "$PID_M" 2>/dev/null; wait "$PID_M" 2>/dev/null || true
done
[ -n "$MAIL_STARTED" ] || die "maildev did not start"
MAIL_URL="http://127.0.0.1:$MAIL_WEB"

# ----- backend binary -----------------------------------------------------------------------------------
# Built first, then the binary itself is started, so the saved pid is the server (not a cargo parent).
# DEMO_CARGO_PROFILE=debug: the debug build (what `make test` has built already), not the release one.
if [ "${DEMO_CARGO_PROFILE:-release}" = debug ]; then
  log "building the demo backend (cargo build -p wallet-modal-server)"
  cargo build -q -p wallet-modal-server >&2
  BIN="${CARGO_TARGET_DIR:-$ROOT/target}/debug/wallet-modal-server"
else
  log "building the demo backend (cargo build --release -p wallet-modal-server)"
  cargo build --release -p wallet-modal-server >&2
  BIN="${CARGO_TARGET_DIR:-$ROOT/target}/release/wallet-modal-server"
fi
[ -x "$BIN" ] || die "backend binary not found at $BIN"

# The analytics the backend recorded are read with a token drawn for this run; the page gets it in
# its address's fragment (never sent to a server), the address printed below.
TEST_TOKEN="$(od -An -tx1 -N24 /dev/urandom | tr -d ' \n')"
# The embedded wallets survive a restart: their accounts and keys are kept in an SQLite file of
# this checkout (WM_DEMO_STATE, default demo/.state/, git-ignored), the keys sealed under a master
# key drawn once into the same folder (a real deployment keeps it in a KMS: README "Run the services").
STATE="${WM_DEMO_STATE:-$ROOT/demo/.state}"
mkdir -p "$STATE"
if [ ! -s "$STATE/master.key" ]; then
  (umask 077; od -An -tx1 -N32 /dev/urandom | tr -d ' \n' > "$STATE/master.key")
fi
# The client secret of social login is drawn for this run and given to the provider and the backend only.
OIDC_SECRET="$(od -An -tx1 -N32 /dev/urandom | tr -d ' \n')"

# ----- OpenID Connect provider and backend ---------------------------------------------------------------
# Social login's provider (google, github, apple, facebook, x, discord) redirects to the wallet
# service on the frame's port, so both ports are chosen before either starts. A port found free can
# be taken by another process before the backend binds it: then the backend exits, and both start
# again on other ports (the NFT collection re-pointed at the backend's new address).
start_oidc() { # the provider on $OIDC_PORT redirecting to $FRAME_PORT; its URL in $OIDC_URL
  WM_OIDC_CLIENT_SECRET="$OIDC_SECRET" node "$ROOT/demo/oidc/provider.mjs" --port "$OIDC_PORT" --issuer-host 127.0.0.1 \
    --redirect "http://127.0.0.1:$FRAME_PORT/w/v1/social/callback" > "$TMP/oidc.out" 2> "$TMP/oidc.log" &
  PID_O="$!"
  OIDC_URL=""
  for _ in $(seq 300); do
    OIDC_URL="$(sed -n 's/^oidc on \(http:\/\/[^ ]*\)$/\1/p' "$TMP/oidc.out" | head -n1)"
    [ -n "$OIDC_URL" ] && return 0
    kill -0 "$PID_O" 2>/dev/null || return 1
    sleep 0.1
  done
  return 1
}
start_backend() { # the backend on $SERVER_PORT and $FRAME_PORT; its addresses in $URL and $FRAME_ORIGIN
  WM_OIDC_CLIENT_SECRET="$OIDC_SECRET" "$BIN" --port "$SERVER_PORT" --root "$ROOT" --chains "$CHAINS" --contracts "$MANIFEST" --solana "$SOLANA_JSON" ${BITCOIN_URL:+--bitcoin "$BITCOIN_URL"} \
    --frame-port "$FRAME_PORT" --smtp "127.0.0.1:$MAIL_SMTP" --oidc "$OIDC_URL" --test-token "$TEST_TOKEN" \
    --store "sqlite:$STATE/wallet.sqlite" --master-key-file "$STATE/master.key" > "$TMP/server.out" 2> "$TMP/server.err" &
  PID_S="$!"
  URL=""
  FRAME_ORIGIN=""
  for _ in $(seq 300); do
    URL="$(sed -n 's/^listening on \(http:\/\/[^ ]*\)$/\1/p' "$TMP/server.out" | head -n1)"
    FRAME_ORIGIN="$(sed -n 's/^frame on \(http:\/\/[^ ]*\)$/\1/p' "$TMP/server.out" | head -n1)"
    [ -n "$URL" ] && [ -n "$FRAME_ORIGIN" ] && return 0
    kill -0 "$PID_S" 2>/dev/null || return 1
    sleep 0.1
  done
  return 1
}
stop_pid() { kill -TERM "$1" 2>/dev/null || true; wait "$1" 2>/dev/null || true; }
STARTED=""
DEPLOYED_PORT="$SERVER_PORT"
for try in 1 2 3 4 5; do
  if [ "$try" = 1 ]; then FRAME_PORT="$(free_port 4174)"; OIDC_PORT="$(free_port 4180)"; else FRAME_PORT="$(free_port)"; OIDC_PORT="$(free_port)"; fi
  while [ "$FRAME_PORT" = "$SERVER_PORT" ]; do FRAME_PORT="$(free_port)"; done
  while [ "$OIDC_PORT" = "$SERVER_PORT" ] || [ "$OIDC_PORT" = "$FRAME_PORT" ]; do OIDC_PORT="$(free_port)"; done
  if ! start_oidc; then
    stop_pid "$PID_O"
    [ -s "$TMP/oidc.log" ] && ! grep -q EADDRINUSE "$TMP/oidc.log" && { cat "$TMP/oidc.log" >&2; die "the OIDC provider exited (run 'npm install': it brings oidc-provider)"; }
    continue
  fi
  if [ "$SERVER_PORT" != "$DEPLOYED_PORT" ]; then
    node "$ROOT/demo/contracts/deploy.mjs" --rebase "http://127.0.0.1:$SERVER_PORT" --out "$MANIFEST" >&2 \
      || die "could not re-point the demo contracts at port $SERVER_PORT"
    DEPLOYED_PORT="$SERVER_PORT"
  fi
  if start_backend; then PIDS+=("$PID_O" "$PID_S"); STARTED=1; break; fi
  stop_pid "$PID_S"; stop_pid "$PID_O"
  if grep -q "another server process uses the wallet store" "$TMP/server.err" && [ "$STATE" != "$TMP/state" ]; then
    # Another demo of this checkout runs: this one keeps its wallets in its own folder (not kept).
    log "another demo run uses $STATE: this run's embedded wallets are kept in its own temporary store"
    STATE="$TMP/state"
    mkdir -p "$STATE"
    (umask 077; od -An -tx1 -N32 /dev/urandom | tr -d ' \n' > "$STATE/master.key")
    continue
  fi
  grep -q "cannot listen" "$TMP/server.err" || { cat "$TMP/server.err" >&2; die "the demo backend exited"; }
  log "port $SERVER_PORT or $FRAME_PORT was taken meanwhile; starting again on other ports"
  # DEMO_PORT is kept (the frame's port changes); else both change.
  [ -z "${DEMO_PORT:-}" ] && SERVER_PORT="$(free_port)"
done
[ -n "$STARTED" ] || die "the demo backend did not start (ports taken each time)"
# Its stderr to ours from now on.
tail -n +1 -f "$TMP/server.err" >&2 &
PIDS+=("$!")

# `wallet-modal-devnet` (devnet/): the devnet's description as JSON (URLs, chains, contracts, keys).
if [ -n "${WM_DEVNET_JSON:-}" ]; then
  DEVNET_CHAINS="$CHAINS" DEVNET_API="$URL" DEVNET_MANIFEST="$MANIFEST" DEVNET_SOLANA_JSON="$SOLANA_JSON" \
    DEVNET_BITCOIN="${BITCOIN_URL:-}" DEVNET_MAIL_WEB="$MAIL_URL" DEVNET_MAIL_SMTP="127.0.0.1:$MAIL_SMTP" DEVNET_OIDC="$OIDC_URL" \
    node "$ROOT/devnet/describe.mjs" || die "could not describe the devnet"
fi

cat >&2 <<BANNER

  ┌──────────────────────────────────────────────────────────────┐
    wallet-modal demo:   $URL/#analytics=$TEST_TOKEN
  └──────────────────────────────────────────────────────────────┘
    anvil A (31337):     http://127.0.0.1:$PORT_A
    anvil B (31338):     http://127.0.0.1:$PORT_B
    Solana (local SVM):  $SOLANA_URL  (solana:4mNTqascDjk5DPK2SpMPZvt6wr7mfNDZ; SOL, USDC, WMT)
    Contracts:           USDC, WMT, PTS, WMP (NFT), CLAIM (spam) on both chains: $MANIFEST
    Blockchain API:      $URL/v1/account/0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266/balance?currency=usd&projectId=demo-project
    Demo Wallet:         built into the page; or load demo/wallet/extension
                         unpacked in chrome://extensions (reload it after a restart)
    Demo Mobile Wallet:  $URL/wallet-mobile/  (WalletConnect: paste the modal's wc: URI)
    Embedded wallet:     secure frame $FRAME_ORIGIN/frame (log in with any email address)
    Mail (codes, links): $MAIL_URL/
    Social login:        OpenID Connect provider $OIDC_URL (any login name, no password)
    Stop:                Ctrl-C

BANNER
echo "$URL/#analytics=$TEST_TOKEN"

# ----- run until a child exits or we are signalled ----------------------------------------------------
set +e
wait -n "${PIDS[@]}"
status=$?
set -e
log "a demo process exited (status $status); shutting down"
exit "$status"
