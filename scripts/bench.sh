#!/usr/bin/env bash
# `make bench`: native timings of the core's hot paths, the modal's ready/open times in headless
# Chromium, then the bundle sizes. Printed, not asserted.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo run --release --quiet -p wallet-modal-core --example bench
node scripts/bench-open.mjs --runs "${WM_BENCH_RUNS:-7}"
node scripts/size.mjs || true
