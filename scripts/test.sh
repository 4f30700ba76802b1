#!/usr/bin/env bash
# `make test` (after the build): every suite, then one closing line `N passed, N failed`.
#   1. cargo test for the whole workspace (core with all features, the wasm bridges, the backend)
#   2. node --test for the ./core entry in Node
#   3. web-test-runner in Debian's Chromium, against two real anvil chains and the real backend,
#      then the demo end to end over WalletConnect (node --test driving Chromium in two tabs)
# Servers are started on free loopback ports, and exactly those processes are stopped at the end.
set -uo pipefail
cd "$(dirname "$0")/.."
# One folder per run: logs/ and tmp/, the $TMPDIR of every test and server of the run (chains,
# databases, browser profiles, build trees), removed at the end whatever a test left there, so runs
# never fill the disk. The logs are kept only when a test failed.
RUN="$(mktemp -d "${TMPDIR:-/tmp}/wallet-modal-test.XXXXXX")"
LOGS="$RUN/logs"
mkdir -p "$LOGS" "$RUN/tmp"
# PostgreSQL's test clusters run as the postgres user: it must reach its folder under tmp/.
chmod 755 "$RUN" && chmod 1777 "$RUN/tmp"
export TMPDIR="$RUN/tmp"
PASSED=0
FAILED=0
PIDS=()

cleanup() {
  for pid in "${PIDS[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
  PIDS=()
  [ -d "$RUN" ] || return 0
  rm -rf "$RUN/tmp"
  if [ "$FAILED" -eq 0 ]; then rm -rf "$RUN"; else echo "this run's logs: $LOGS"; RUN=; fi
}
trap cleanup EXIT
trap 'cleanup; exit 130' INT TERM

add() { PASSED=$((PASSED + $1)); FAILED=$((FAILED + $2)); }
# A suite that exits non-zero without reporting a failed test still counts as one failure.
suite_failed_without_count() { [ "$1" -ne 0 ] && [ "$2" -eq 0 ]; }

# `node --test DIR` as suite NAME: its `# pass` / `# fail` counts are added to the totals.
node_suite() {
  local name=$1 dir=$2 rc p f
  node --test "$dir" 2>&1 | tee "$LOGS/$name.log"
  rc=${PIPESTATUS[0]}
  p=$(grep -E '^# pass ' "$LOGS/$name.log" | awk '{print $3}'); f=$(grep -E '^# fail ' "$LOGS/$name.log" | awk '{print $3}')
  p=${p:-0}; f=${f:-0}
  suite_failed_without_count "$rc" "$f" && f=1
  echo "$name ${p} passed, ${f} failed"
  add "$p" "$f"
}

SUITES="${WM_SUITES:-cargo node browser e2e}"
want() { [[ " $SUITES " == *" $1 "* ]]; }

# ----- 1. cargo -----
if want cargo; then
echo "== cargo test"
cargo test --workspace --all-features --no-fail-fast 2>&1 | tee "$LOGS/cargo.log"
rc=${PIPESTATUS[0]}
read -r p f < <(grep -E '^test result:' "$LOGS/cargo.log" | sed -E 's/.* ([0-9]+) passed; ([0-9]+) failed.*/\1 \2/' | awk '{p+=$1; f+=$2} END {print p+0, f+0}')
p=${p:-0}; f=${f:-0}
suite_failed_without_count "$rc" "$f" && f=1
echo "cargo ${p} passed, ${f} failed"
add "$p" "$f"
fi

# ----- 2. node -----
if want node && compgen -G "test/node/*.test.mjs" >/dev/null; then
  echo "== node --test"
  node_suite node test/node/
fi

# ----- 3. browser -----
if want browser; then
echo "== browser tests"
ANVIL="$(node -p "require.resolve('@foundry-rs/anvil-linux-amd64/bin/anvil')")"
source scripts/lib/ports.sh

TAKEN=()
# A free port no server of this run has (each start below tries again on other ports when its
# server exits: see scripts/lib/ports.sh).
new_port() { local p; p=$(free_port); while [[ " ${TAKEN[*]} " == *" $p "* ]]; do p=$(free_port); done; TAKEN+=("$p"); echo "$p"; }
start_anvil() {  # start_anvil VAR CHAIN_ID: anvil for that chain on a free port, in $VAR
  local port pid
  for _ in 1 2 3 4 5; do
    port=$(new_port)
    "$ANVIL" --host 127.0.0.1 --port "$port" --chain-id "$2" --silent & pid=$!
    if listening "$pid" "$port"; then PIDS+=("$pid"); printf -v "$1" %s "$port"; return 0; fi
    kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
  done
  echo "anvil did not start"
}
start_anvil A 31337
start_anvil B 31338
# The local Solana chain (demo/solana/rpc.mjs: the real SVM, npm litesvm, behind the standard
# JSON-RPC on a port the OS gives it), seeded for the Demo Wallet's Solana account.
for _ in 1 2 3; do
  : > "$LOGS/solana.out"
  node demo/solana/rpc.mjs --port 0 --seed demo --out "$LOGS/solana.json" > "$LOGS/solana.out" 2> "$LOGS/solana.err" & pid=$!
  for _ in $(seq 600); do grep -q '^solana on ' "$LOGS/solana.out" && break; kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  if grep -q '^solana on ' "$LOGS/solana.out"; then PIDS+=("$pid"); break; fi
  echo "the Solana chain did not start:"; cat "$LOGS/solana.err"; kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
done
SOLANA_URL=$(sed -n 's/^solana on //p' "$LOGS/solana.out" | head -1)
export WM_SOLANA="$(cat "$LOGS/solana.json" 2>/dev/null || echo null)"
# The local Bitcoin chain (demo/bitcoin/regtest.mjs: litecoind in regtest on free ports), mined to
# the Demo Bitcoin wallet; the backend serves its Esplora-shaped API at /bitcoin/api.
: > "$LOGS/bitcoin.out"
node demo/bitcoin/regtest.mjs --out "$LOGS/bitcoin.json" > "$LOGS/bitcoin.out" 2> "$LOGS/bitcoin.err" & pid=$!
for _ in $(seq 1200); do grep -q '^bitcoin on ' "$LOGS/bitcoin.out" && break; kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
if grep -q '^bitcoin on ' "$LOGS/bitcoin.out"; then PIDS+=("$pid"); else echo "the Bitcoin regtest chain did not start:"; cat "$LOGS/bitcoin.err"; fi
BITCOIN_URL=$(sed -n 's/^bitcoin on //p' "$LOGS/bitcoin.out" | head -1)
export WM_BITCOIN="$(cat "$LOGS/bitcoin.json" 2>/dev/null || echo null)"
# The embedded wallet's mail sink (npm maildev): the wallet service mails login codes and device
# links to its SMTP port; tests read them back from its REST API (WM_MAIL_URL/api/email).
mkdir -p "$LOGS/maildev"  # its .eml files ($TMPDIR/maildev), with the logs
for _ in 1 2 3 4 5; do
  MS=$(new_port); MW=$(new_port)
  TMPDIR="$LOGS" node node_modules/maildev/dist/bin/maildev.js --smtp "$MS" --web "$MW" --ip 127.0.0.1 --web-ip 127.0.0.1 --silent \
    > "$LOGS/maildev.out" 2>&1 & pid=$!
  if listening "$pid" "$MS" "$MW"; then PIDS+=("$pid"); break; fi
  kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
done
BACKEND_BIN="${CARGO_TARGET_DIR:-target}/debug/wallet-modal-server"
cargo build -q -p wallet-modal-server  # a no-op when up to date; never a stale backend
OIDC_SECRET=$(od -An -tx1 -N32 /dev/urandom | tr -d ' \n')
# The backend's test hooks (the analytics it recorded) answer only this run's bearer token.
export WM_TEST_TOKEN=$(od -An -tx1 -N24 /dev/urandom | tr -d ' \n')
for _ in 1 2 3; do
  # Social login's OpenID Connect provider (demo/oidc/provider.mjs, npm oidc-provider): its clients
  # redirect to the wallet service on the frame's port, so that port is chosen now; one client
  # secret per run, given to the provider and the backend only.
  F=$(new_port)
  : > "$LOGS/oidc.out"
  WM_OIDC_CLIENT_SECRET="$OIDC_SECRET" node demo/oidc/provider.mjs --port 0 --issuer-host 127.0.0.1 \
    --redirect "http://127.0.0.1:$F/w/v1/social/callback" > "$LOGS/oidc.out" 2> "$LOGS/oidc.err" & OIDC_PID=$!
  for _ in $(seq 300); do grep -q '^oidc on ' "$LOGS/oidc.out" && break; sleep 0.1; done
  OIDC_URL=$(sed -n 's/^oidc on //p' "$LOGS/oidc.out" | head -1)
  [ -n "$OIDC_URL" ] || { echo "the OIDC provider did not start:"; cat "$LOGS/oidc.err"; }
  # The demo contracts (tokens, an NFT collection, some history) on both chains, as make demo has
  # them; the NFTs' tokenURI names the backend, so its port is chosen first.
  S=$(new_port)
  node demo/contracts/deploy.mjs --rpc "http://127.0.0.1:$A" --rpc "http://127.0.0.1:$B" --api-url "http://127.0.0.1:$S" \
    --out "$LOGS/contracts.json" > "$LOGS/deploy.out" 2>&1 || { echo "deploying the demo contracts failed:"; cat "$LOGS/deploy.out"; }
  : > "$LOGS/backend.out"
  WM_OIDC_CLIENT_SECRET="$OIDC_SECRET" "$BACKEND_BIN" --port "$S" --root . --chains "31337=http://127.0.0.1:$A,31338=http://127.0.0.1:$B" \
    --contracts "$LOGS/contracts.json" ${SOLANA_URL:+--solana "$LOGS/solana.json"} ${BITCOIN_URL:+--bitcoin "$BITCOIN_URL"} --frame-port "$F" --smtp "127.0.0.1:$MS" ${OIDC_URL:+--oidc "$OIDC_URL"} --test-token "$WM_TEST_TOKEN" \
    > "$LOGS/backend.out" 2> "$LOGS/backend.err" & BACKEND_PID=$!
  # `frame on …` (the secure frame's own origin) comes right after `listening on …`.
  for _ in $(seq 300); do grep -q '^frame on ' "$LOGS/backend.out" && break; kill -0 "$BACKEND_PID" 2>/dev/null || break; sleep 0.1; done
  if grep -q '^frame on ' "$LOGS/backend.out"; then PIDS+=("$OIDC_PID" "$BACKEND_PID"); break; fi
  echo "the backend did not start (trying other ports):"; cat "$LOGS/backend.err"
  kill "$OIDC_PID" "$BACKEND_PID" 2>/dev/null; wait "$OIDC_PID" "$BACKEND_PID" 2>/dev/null
done
BACKEND_URL=$(sed -n 's/^listening on //p' "$LOGS/backend.out" | head -1)
FRAME_ORIGIN=$(sed -n 's/^frame on //p' "$LOGS/backend.out" | head -1)
export WM_FRAME_URL="${FRAME_ORIGIN:+$FRAME_ORIGIN/frame}"
export WM_MAIL_URL="http://127.0.0.1:$MW"
export WM_OIDC_URL="$OIDC_URL"
export WM_CONTRACTS="$(cat "$LOGS/contracts.json" 2>/dev/null || echo null)"
export WM_BACKEND_URL="$BACKEND_URL"
export WM_CHAINS="[{\"chainId\":31337,\"rpcUrl\":\"http://127.0.0.1:$A\"},{\"chainId\":31338,\"rpcUrl\":\"http://127.0.0.1:$B\"}]"
node scripts/build-tests.mjs
# The demo Farcaster client page's script (the Farcaster sign-in tests approve through it).
node demo/farcaster/build.mjs
# The test wallets of the Bitcoin, Polkadot and Cosmos families (bundled with their libraries).
node demo/wallet/build.mjs
# The compiled contracts (ABI and bytecode), for tests that deploy a token of their own.
node demo/contracts/deploy.mjs --compile-only --artifacts "${WM_TEST_BUILD_DIR:-.test-build}/contracts.json" > /dev/null
node_modules/.bin/web-test-runner --config web-test-runner.config.mjs 2>&1 | tee "$LOGS/browser.log"
rc=${PIPESTATUS[0]}
line=$(grep -E '^browser [0-9]+ passed, [0-9]+ failed' "$LOGS/browser.log" | tail -1)
p=$(echo "$line" | awk '{print $2}'); f=$(echo "$line" | awk '{print $4}')
p=${p:-0}; f=${f:-0}
suite_failed_without_count "$rc" "$f" && f=1
add "$p" "$f"

fi

# The demo itself over WalletConnect: the demo page and the Demo Mobile Wallet page in two tabs.
if want e2e; then
  echo "== demo end to end (WalletConnect, the embedded wallet in two browsers)"
  node demo/wallet-mobile/build.mjs
  node demo/wallet/build.mjs
  node_suite e2e test/e2e/
fi

echo
# Every failed test by name, just above the closing line (a long log's tail says which one).
for log in "$LOGS"/cargo.log "$LOGS"/node.log "$LOGS"/browser.log "$LOGS"/e2e.log; do
  [ -f "$log" ] || continue
  case "$(basename "$log" .log)" in
    cargo) grep -E '^test .* \.\.\. FAILED$|^error: test failed, to rerun' "$log" | sed 's/^/cargo: /' ;;
    browser) grep -E '^browser FAILED ' "$log" ;;
    *) grep -E '^ *not ok ' "$log" | sed "s/^ */$(basename "$log" .log): /" ;;
  esac
done | cut -c1-300
echo "${PASSED} passed, ${FAILED} failed"
[ "$FAILED" -eq 0 ]
