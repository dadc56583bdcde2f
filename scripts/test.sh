#!/usr/bin/env bash
# `make test`: every check CI runs, in order, failing fast.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
step() { printf '\n== %s (%s)\n' "$*" "$(date +%T)"; }
WASM=(--target wasm32-unknown-unknown)
# Cargo's target directory, absolute (CARGO_TARGET_DIR may be relative or absolute).
TARGET_DIR="${CARGO_TARGET_DIR:-target}"
[[ "$TARGET_DIR" = /* ]] || TARGET_DIR="$PWD/$TARGET_DIR"
BIN="$TARGET_DIR/debug/runlens"

step "format"
cargo fmt --all --check

# The sample and its native metrics come first: the wasm tests include them (tests/app/sample_files.rs).
step "sample bundle and its native metrics"
cargo build -p runlens-cli --locked
scripts/sample.sh "$BIN"
mkdir -p target/sample-metrics
for corpus in text2sqlbench-synthetic-dev text2sqlbench-synthetic; do
  "$BIN" metrics public/bundles/article.json.gz --json --corpus "$corpus" \
    --resamples 1000 > "target/sample-metrics/$corpus.json"
done

step "clippy, native crates"
cargo clippy --workspace --exclude runlens-web --all-targets --locked -- -D warnings
step "clippy, wasm32 (app, core, charts; benches are native-only)"
cargo clippy -p runlens-web -p runlens-core -p runlens-charts "${WASM[@]}" --lib --bins --tests --locked -- -D warnings
step "clippy, wasm32 app with the module split (what trunk builds)"
cargo clippy -p runlens-web "${WASM[@]}" --features split --lib --bins --locked -- -D warnings

step "runlens-core stays pure (no web, async or drawing dependency)"
scripts/check-core-purity.sh

step "module graphs: no import cycle in any crate; the app's layers kept (src/layers.txt)"
python3 scripts/check-imports-test.py
python3 scripts/check-imports.py src --layers src/layers.txt
for crate in crates/*/src; do python3 scripts/check-imports.py "$crate"; done

step "native tests"
cargo test --workspace --exclude runlens-web --locked

step "wasm tests (core in Node, the app in headless Chromium)"
cargo test -p runlens-core -p runlens-web "${WASM[@]}" --locked

step "trunk build --release --offline"
trunk build --release --offline

step "round trip synth → export → validate for both presets (native build)"
cargo build --profile native -p runlens-cli --locked
NATIVE_BIN="$TARGET_DIR/native/runlens"
scripts/roundtrip.sh "$NATIVE_BIN" article
scripts/roundtrip.sh "$NATIVE_BIN" large

step "end-to-end browser tests (playwright-core + /usr/bin/chromium)"
RUNLENS_BIN="$BIN" npm --prefix e2e test

if [ -x scripts/test-sdk.sh ]; then
  step "official typesafe-sdk client against runlens serve"
  RUNLENS_BIN="$BIN" scripts/test-sdk.sh
fi
step "Jev conformance suite (jevcompat 0.1.1) against runlens serve: local backend, pass-through"
RUNLENS_BIN="$BIN" scripts/test-jevcompat.sh
step "all checks passed"
