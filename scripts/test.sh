#!/usr/bin/env bash
# `make test`: every check CI runs, in order, failing fast.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
step() { printf '\n== %s (%s)\n' "$*" "$(date +%T)"; }
WASM=(--target wasm32-unknown-unknown)

step "format"
cargo fmt --all --check

step "clippy, native crates"
cargo clippy --workspace --exclude runlens-web --all-targets --locked -- -D warnings
step "clippy, wasm32 (app, core, charts)"
cargo clippy -p runlens-web -p runlens-core -p runlens-charts "${WASM[@]}" --all-targets --locked -- -D warnings

step "runlens-core stays pure (no web, async or drawing dependency)"
scripts/check-core-purity.sh

step "native tests"
cargo test --workspace --exclude runlens-web --locked

step "sample bundle"
cargo build -p runlens-cli --locked
scripts/sample.sh target/debug/runlens

step "wasm tests (core in Node, the app in headless Chromium)"
cargo test -p runlens-core -p runlens-web "${WASM[@]}" --locked

step "trunk build --release --offline"
trunk build --release --offline

step "end-to-end browser tests (playwright-core + /usr/bin/chromium)"
RUNLENS_BIN="$PWD/target/debug/runlens" npm --prefix e2e test

if [ -x scripts/test-sdk.sh ]; then
  step "official typesafe-sdk client against runlens serve"
  RUNLENS_BIN="$PWD/target/debug/runlens" scripts/test-sdk.sh
fi
step "all checks passed"
