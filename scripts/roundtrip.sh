#!/usr/bin/env bash
# Round trip for a synth preset: `runlens synth` → `runlens export` → `runlens validate`
# (which loads the bundle through runlens-core and re-checks its content hash), then compares
# the bundle summary with tests/roundtrip/PRESET.summary.json.
# Usage: scripts/roundtrip.sh PATH/TO/runlens PRESET
set -euo pipefail
cd "$(dirname "$0")/.."
RUNLENS=${1:?usage: scripts/roundtrip.sh PATH/TO/runlens PRESET}
PRESET=${2:?usage: scripts/roundtrip.sh PATH/TO/runlens PRESET}
WORK=target/roundtrip/$PRESET
rm -rf "$WORK" && mkdir -p "$WORK"
"$RUNLENS" synth --preset "$PRESET" --seed 1 --out "$WORK/files" >/dev/null
"$RUNLENS" export "$WORK/files/text2sqlbench-synthetic-dev" "$WORK/files/text2sqlbench-synthetic" \
  "$WORK/files/out" --schema "$WORK/files/schema.md" --rules "$WORK/files/rules.yaml" --synthetic \
  --quiet --output "$WORK/bundle.json.gz"
"$RUNLENS" validate "$WORK/bundle.json.gz" --json > "$WORK/validate.json"
python3 - "$WORK/validate.json" "tests/roundtrip/$PRESET.summary.json" <<'PY'
import json, sys
got = json.load(open(sys.argv[1]))
want = json.load(open(sys.argv[2]))
assert got["ok"] is True, got
if got["summary"] != want:
    diff = {k: (got["summary"].get(k), want.get(k)) for k in sorted(set(got["summary"]) | set(want)) if got["summary"].get(k) != want.get(k)}
    sys.exit(f"roundtrip {sys.argv[2]}: summary differs (got, expected): {diff}")
print(f"roundtrip: {sys.argv[2]} matches: {json.dumps(want)}")
PY
rm -rf "$WORK/files"
