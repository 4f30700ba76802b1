#!/usr/bin/env bash
# `make bench`: native timings of the core's hot paths, the modal's ready/open times in headless
# Chromium, the embedded wallet (email field, secure frame ready, code to connected; against the real
# backend, frame and SMTP sink on loopback), Solana (connect, account, a send to confirmed on the
# local SVM), sign-in (connect to the sign-in view, Sign to signed in, the check in wasm), Bitcoin/Polkadot/Cosmos (a row clicked to connected, open() to the address), the demo backend's blockchain API on anvil (indexer catch-up, balance and history
# latency; server/benches/chain_api.rs), email logins on each wallet store and the relay under 1,000
# clients (server/benches/store_load.rs), then the bundle sizes. Printed, not asserted.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo run --release --quiet -p wallet-modal-core --features modules --example bench
node scripts/bench-open.mjs --runs "${WM_BENCH_RUNS:-7}"
node scripts/bench-embedded.mjs --runs "${WM_BENCH_RUNS:-5}" || echo "embedded wallet bench failed (see above)"
node scripts/bench-solana.mjs --runs "${WM_BENCH_RUNS:-5}" || echo "Solana bench failed (see above)"
node scripts/bench-siwx.mjs --runs "${WM_BENCH_RUNS:-5}" || echo "sign-in bench failed (see above)"
node scripts/bench-families.mjs --runs "${WM_BENCH_RUNS:-5}" || echo "Bitcoin/Polkadot/Cosmos bench failed (see above)"
cargo bench --quiet -p wallet-modal-server --bench chain_api || echo "blockchain API bench failed (see above)"
cargo bench --quiet -p wallet-modal-server --bench store_load || echo "wallet store and relay load bench failed (see above)"
node scripts/size.mjs || true
