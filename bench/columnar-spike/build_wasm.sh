#!/bin/sh
# Builds every decoder variant for wasm32-unknown-unknown (profile `wasm`: opt-level z, LTO,
# codegen-units 1, target-default panic strategy), runs wasm-opt -Oz (binaryen 132) and prints
# raw / gzip -9 sizes. Output: wasm/VARIANT.opt.wasm and wasm/sizes.tsv.
set -eu
cd "$(dirname "$0")"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$PWD/target}"
WASM_OPT="${WASM_OPT:-$PWD/node/node_modules/.bin/wasm-opt}"
[ -x "$WASM_OPT" ] || { echo "install binaryen: (cd node && npm i binaryen@132.0.0)"; exit 1; }
mkdir -p wasm
: > wasm/sizes.tsv
for v in baseline arrow lean postcard raw postcard-gz raw-gz raw-dense pcd pcd-gz jsonl raw-dense-unsafe pcd-unsafe; do
  case $v in
    baseline) feat="" ;;
    postcard-gz) feat="--features postcard,gz" ;;
    raw-gz) feat="--features raw,gz" ;;
    raw-dense) feat="--features raw,dense" ;;
    pcd) feat="--features postcard,dense" ;;
    raw-dense-unsafe) feat="--no-default-features --features raw,dense" ;;
    pcd-unsafe) feat="--no-default-features --features postcard,dense" ;;
    pcd-gz) feat="--features postcard,dense,gz" ;;
    *) feat="--features $v" ;;
  esac
  cargo build --quiet -p spike-wasmdec --target wasm32-unknown-unknown --profile wasm $feat
  cp "$CARGO_TARGET_DIR/wasm32-unknown-unknown/wasm/spike_wasmdec.wasm" "wasm/$v.raw.wasm"
  "$WASM_OPT" -Oz "wasm/$v.raw.wasm" -o "wasm/$v.opt.wasm"
  raw=$(wc -c < "wasm/$v.opt.wasm"); gz=$(gzip -9 -c "wasm/$v.opt.wasm" | wc -c)
  printf '%s\t%s\t%s\n' "$v" "$raw" "$gz" | tee -a wasm/sizes.tsv
done
