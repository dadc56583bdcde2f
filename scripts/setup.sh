#!/usr/bin/env bash
# Idempotent set-up for a Debian 12 machine that reaches only the crates registry, npm, PyPI and apt.
# Installs what is missing and returns in about a second when everything is there.
# Nothing is downloaded from GitHub: trunk finds wasm-bindgen and wasm-opt locally.
set -euo pipefail
cd "$(dirname "$0")/.."

TRUNK_VERSION=0.21.14   # newest trunk whose rust-version fits Rust 1.95 (0.22 needs 1.96.1)
# wasm-bindgen-cli must equal the wasm-bindgen crate locked in Cargo.lock.
WBG_VERSION=$(awk '/^name = "wasm-bindgen"$/ {getline; gsub(/[^0-9.]/, ""); print; exit}' Cargo.lock)
SPLIT_VERSION=0.2.4     # wasm_split_cli_support (reads what leptos' wasm_split_helpers 0.2 writes)
have() { command -v "$1" >/dev/null 2>&1; }
say() { printf 'setup: %s\n' "$*"; }

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  say "adding the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
fi
if ! have trunk || [ "$(trunk --version)" != "trunk $TRUNK_VERSION" ]; then
  say "installing trunk $TRUNK_VERSION (about 6 minutes, once)"
  cargo install trunk --version "$TRUNK_VERSION" --locked
fi
if ! have wasm-bindgen || [ "$(wasm-bindgen --version)" != "wasm-bindgen $WBG_VERSION" ] \
   || ! have wasm-bindgen-test-runner; then
  say "installing wasm-bindgen-cli $WBG_VERSION (about 2 minutes, once)"
  # Not --locked: a locked dependency (webpki-roots 1.0.11) is not served by the registry.
  cargo install wasm-bindgen-cli --version "$WBG_VERSION" --force
fi
# The module split of the release app (scripts/split.mjs): wasm-split-cli from the crate
# wasm_split_cli_support, the splitter of cargo-leptos' --split, at the version tested here.
if ! cargo install --list | grep -qx "wasm_split_cli_support v$SPLIT_VERSION:"; then
  say "installing wasm-split-cli $SPLIT_VERSION (about a minute, once)"
  cargo install wasm_split_cli_support --version "$SPLIT_VERSION" --features build-binary --locked --force
fi
if ! have chromium || ! have chromedriver; then
  say "installing Debian's chromium and chromium-driver"
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO=sudo
  $SUDO apt-get update
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends chromium chromium-driver
fi
if [ ! -x e2e/node_modules/.bin/wasm-opt ] || [ ! -d e2e/node_modules/playwright-core ] \
   || [ ! -d e2e/node_modules/axe-core ] \
   || [ e2e/package-lock.json -nt e2e/node_modules/.package-lock.json ]; then
  say "installing npm dev dependencies (binaryen@132, playwright-core, axe-core)"
  npm ci --prefix e2e --no-audit --no-fund
fi
# So trunk and cargo --offline never need the network.
cargo fetch --locked >/dev/null 2>&1 || cargo fetch --locked
