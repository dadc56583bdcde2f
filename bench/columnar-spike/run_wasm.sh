#!/bin/sh
# Times each wasm decoder under Node on each run's encoded cells table (data/enc/RUN.FORMAT,
# written by spike-bench). Output: one JSON line per (run, variant) in wasm/timings.jsonl.
set -eu
cd "$(dirname "$0")"
: > wasm/timings.jsonl
for run in "$@"; do
  for pair in arrow:arrow:decode arrow:arrow:decode_vecs lean:arrow:decode postcard:postcard:decode \
              raw:raw:decode postcard-gz:postcard-gz:decode raw-gz:raw-gz:decode \
              raw-dense:raw:decode pcd:pcd:decode pcd-gz:pcd-gz:decode jsonl:jsonl:decode \
              raw-dense-unsafe:raw:decode pcd-unsafe:pcd:decode; do
    v=${pair%%:*}; rest=${pair#*:}; fmt=${rest%%:*}; exp=${rest#*:}
    # Steady state: optimized code for every call (median of 5 after a warm-up call).
    node --no-liftoff wasm/bench.mjs "wasm/$v.opt.wasm" "data/enc/$run.$fmt" "$exp" | tee -a wasm/timings.jsonl
    # Cold: default tiering (Liftoff first), to report the first call as a page would see it.
    node wasm/bench.mjs "wasm/$v.opt.wasm" "data/enc/$run.$fmt" "$exp" | tee -a wasm/timings.jsonl
  done
done
