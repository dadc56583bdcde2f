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
source scripts/lib-serve.sh

python_venv "typesafe-sdk[zstd]==0.7.5"
work="$(mktemp -d)"
cleanup() {
  stop_servers
  rm -rf "$work"
}
trap cleanup EXIT

start_serve "$work/serve" env -u TYPESAFE_API_KEY -u RUNLENS_ACCESS_TOKENS "$(runlens_bin)" \
  serve --addr 127.0.0.1:0 --backend local --rate-limit 0 --dist "$work/no-dist"
RUNLENS_URL="$SERVE_URL" TYPESAFE_API_KEY="dummy-client-side-key" \
  "$venv/bin/python" crates/proxy/tests/sdk/test_sdk.py
