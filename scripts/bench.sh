#!/usr/bin/env bash
# `make bench`: native timings of the core's hot paths, then the bundle sizes.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo run --release --quiet -p wallet-modal-core --example bench
node scripts/size.mjs || true
