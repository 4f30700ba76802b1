#!/usr/bin/env bash
# Installs every tool the build and the tests need, at pinned versions, and skips what is present.
# Used by `make setup` (and so by `make build`, `make test`, `make demo` and .ci/run).
set -euo pipefail
cd "$(dirname "$0")/.."

TOOLS="${WM_TOOLS:-$HOME/.cache/wallet-modal-tools}"
# wasm-bindgen-cli must equal the wasm-bindgen crate version exactly.
WBG_VERSION="$(grep -A1 '^name = "wasm-bindgen"$' Cargo.lock 2>/dev/null | sed -n 's/^version = "\(.*\)"/\1/p' | head -1)"
WBG_VERSION="${WBG_VERSION:-0.2.130}"

say() { printf '[setup] %s\n' "$*"; }

# apt_need COMMAND PACKAGE WHAT: installs Debian's PACKAGE when COMMAND is missing (as root).
apt_need() {
  command -v "$1" >/dev/null 2>&1 && return 0
  if [ "$(id -u)" = 0 ]; then
    say "installing Debian $2 ($3)"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$2" >/dev/null
  else
    say "$1 is missing: run 'sudo apt-get install $2'"; exit 1
  fi
}

apt_need chromium chromium "the browser tests' browser"
# The local Bitcoin regtest chain (demo/bitcoin/regtest.mjs): Debian's litecoind.
apt_need litecoind litecoind "the local Bitcoin regtest chain"
# The wallet service's PostgreSQL store tests (server/src/testing.rs start a cluster of their
# own on a free port and stop it by pid): Debian keeps its programs off the PATH.
if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 && ! command -v initdb >/dev/null 2>&1; then
  PATH="$PATH:/nonexistent" apt_need initdb postgresql "the wallet store's PostgreSQL tests"
fi

# The relay's several-instance tests (server/src/testing.rs start a redis-server of their own).
apt_need redis-server redis-server "the relay's several-instance tests"

if ! rustup target list --installed | grep -q '^wasm32-unknown-unknown$'; then
  say "adding the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
fi
if ! rustup component list --installed | grep -q '^rust-src'; then
  say "adding the rust-src component (the wasm build rebuilds std for size)"
  rustup component add rust-src
fi

if [ "$("$TOOLS/bin/wasm-bindgen" --version 2>/dev/null | awk '{print $2}')" != "$WBG_VERSION" ]; then
  say "installing wasm-bindgen-cli $WBG_VERSION into $TOOLS (about 1.5 minutes, once)"
  cargo install wasm-bindgen-cli --version "$WBG_VERSION" --debug --root "$TOOLS" --force
fi

# npm ci rejects this registry's lockfile (optional platform packages are missing); install honours it.
stamp=node_modules/.wm-installed
if [ ! -f "$stamp" ] || [ package.json -nt "$stamp" ] || [ package-lock.json -nt "$stamp" ]; then
  say "npm install"
  npm install --no-audit --no-fund --loglevel=error
  touch "$stamp"
fi
