#!/usr/bin/env bash
# Round trip for a synth preset: `runlens synth` → `runlens export` → `runlens validate`
# (which loads the bundle through runlens-core and re-checks its content hash), then compares
# the bundle summary with tests/roundtrip/PRESET.summary.json; then `runlens convert` to
# runlens.bundle/2 (zip), which must validate with the same hash and summary and give the
# same `runlens metrics --json`, byte for byte, for every corpus.
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
"$RUNLENS" convert "$WORK/bundle.json.gz" "$WORK/bundle.zip" --quiet
"$RUNLENS" validate "$WORK/bundle.zip" --json > "$WORK/validate-v2.json"
python3 - "$WORK/validate.json" "$WORK/validate-v2.json" <<'PY'
import json, sys
v1, v2 = (json.load(open(p)) for p in sys.argv[1:3])
assert v2["ok"] is True, v2
for key in ("content_hash", "summary"):
    if v1[key] != v2[key]:
        sys.exit(f"roundtrip: v2 {key} differs from v1: {v2[key]} != {v1[key]}")
print(f"roundtrip: v2 zip has the v1 content hash {v1['content_hash'][:12]} and summary")
PY
for corpus in text2sqlbench-synthetic-dev text2sqlbench-synthetic; do
  for form in json.gz zip; do
    "$RUNLENS" metrics "$WORK/bundle.$form" --json --corpus "$corpus" --resamples 200 \
      > "$WORK/metrics-$corpus.$form.json"
  done
  cmp "$WORK/metrics-$corpus.json.gz.json" "$WORK/metrics-$corpus.zip.json"
done
echo "roundtrip: metrics of v1 and v2 identical for $PRESET ($(stat -c %s "$WORK/bundle.json.gz") bytes v1 gzip, $(stat -c %s "$WORK/bundle.zip") bytes v2 zip)"
rm -rf "$WORK/files"
