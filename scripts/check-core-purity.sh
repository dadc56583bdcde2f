#!/usr/bin/env bash
# runlens-core must compile natively and to wasm32 with no web, async, HTTP or drawing dependency.
set -euo pipefail
cd "$(dirname "$0")/.."
FORBIDDEN='^(leptos|web-sys|js-sys|wasm-bindgen|gloo|tokio|futures|async-|reqwest|hyper|axum|tower|plotters|mio)'
bad=0
for target in "" "--target wasm32-unknown-unknown"; do
  # shellcheck disable=SC2086
  deps=$(cargo tree -p runlens-core -e normal --prefix none --locked $target | awk '{print $1}' | sort -u)
  hits=$(grep -E "$FORBIDDEN" <<<"$deps" || true)
  if [ -n "$hits" ]; then
    echo "runlens-core depends on forbidden crates ${target:-natively}:"; echo "$hits"; bad=1
  fi
done
[ "$bad" -eq 0 ] && echo "runlens-core: $(wc -l <<<"$deps") normal dependencies, none forbidden"
exit "$bad"
