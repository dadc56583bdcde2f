#!/usr/bin/env bash
# The official Python client (PyPI typesafe-sdk 0.7.5, with its zstd extra) against
# `runlens serve` on the local backend: crates/proxy/tests/sdk/test_sdk.py (unittest).
#
# The virtualenv lives in ${RUNLENS_SDK_VENV:-target/sdk-venv} and is reused when it already
# holds typesafe-sdk 0.7.5. The server binary is $RUNLENS_BIN, or built with cargo.
# TYPESAFE_API_KEY is removed from the server's environment (local backend) and set to a
# dummy value for the client only.
set -euo pipefail
cd "$(dirname "$0")/.."

venv="${RUNLENS_SDK_VENV:-target/sdk-venv}"
sdk_ready() {
  "$venv/bin/python" -c 'import sys, typesafe_sdk; sys.exit(typesafe_sdk.__version__ != "0.7.5")' 2>/dev/null
}
if ! sdk_ready; then
  echo "test-sdk: creating $venv with typesafe-sdk[zstd]==0.7.5"
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check "typesafe-sdk[zstd]==0.7.5"
fi

bin="${RUNLENS_BIN:-}"
if [ -z "$bin" ]; then
  cargo build --quiet -p runlens-cli
  bin="${CARGO_TARGET_DIR:-target}/debug/runlens"
fi

work="$(mktemp -d)"
env -u TYPESAFE_API_KEY "$bin" serve --addr 127.0.0.1:0 --backend local --rate-limit 0 \
  --dist "$work/no-dist" >"$work/stdout" 2>"$work/stderr" &
server=$!
cleanup() {
  kill "$server" 2>/dev/null || true
  wait "$server" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

url=""
for _ in $(seq 1 150); do
  url="$(grep -o 'http://[0-9.]*:[0-9]*' "$work/stdout" | head -n 1 || true)"
  [ -n "$url" ] && break
  if ! kill -0 "$server" 2>/dev/null; then
    echo "test-sdk: runlens serve exited early:" >&2
    cat "$work/stderr" >&2
    exit 1
  fi
  sleep 0.1
done
if [ -z "$url" ]; then
  echo "test-sdk: runlens serve printed no URL within 15 s" >&2
  exit 1
fi

RUNLENS_URL="$url" TYPESAFE_API_KEY="dummy-client-side-key" \
  "$venv/bin/python" crates/proxy/tests/sdk/test_sdk.py
