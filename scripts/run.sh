#!/usr/bin/env bash
# `make run`: set up what is missing, build the release web app and `runlens`, make sure the
# synthetic sample exists, write the demo report site (the sample and three variants of it,
# at /demo/), and serve everything on http://127.0.0.1:8080 (Ctrl-C stops it).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
source scripts/env.sh
cargo build --profile native -p runlens-cli
BIN="${CARGO_TARGET_DIR:-target}/native/runlens"
scripts/sample.sh "$BIN"
trunk build --release --offline
scripts/demo-site.sh "$BIN" dist
exec "$BIN" serve --addr "${RUNLENS_ADDR:-127.0.0.1:8080}" --dist dist "$@"
