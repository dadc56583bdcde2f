#!/usr/bin/env bash
# Writes the demo report site `make run` serves at /demo/: the synthetic `article` sample and
# three variants of it (`runlens synth --variant 1..3`), as `runlens site` lays them out, into
# DIST/demo (after trunk has built DIST). The variants' bundles are kept in target/demo and
# made again only when missing or older than the runlens binary.
# Usage: scripts/demo-site.sh PATH/TO/runlens DIST
set -euo pipefail
cd "$(dirname "$0")/.."
RUNLENS=${1:?usage: scripts/demo-site.sh PATH/TO/runlens DIST}
DIST=${2:?usage: scripts/demo-site.sh PATH/TO/runlens DIST}
WORK=target/demo
mkdir -p "$WORK"
runs=(public/bundles/article.zip)
for n in 1 2 3; do
  zip="$WORK/article-variant-$n.zip"
  if ! [ -s "$zip" ] || ! [ "$zip" -nt "$RUNLENS" ]; then
    syn="$WORK/synth-$n"
    rm -rf "$syn"
    "$RUNLENS" synth --preset article --seed 1 --variant "$n" --out "$syn" > /dev/null
    "$RUNLENS" export "$syn/text2sqlbench-synthetic-dev" "$syn/text2sqlbench-synthetic" "$syn/out" \
      --schema "$syn/schema.md" --rules "$syn/rules.yaml" --synthetic --quiet --output "$zip"
    rm -rf "$syn"
  fi
  runs+=("$zip")
done
rm -rf "$WORK/site"
"$RUNLENS" site "$WORK/site" "${runs[@]}" --dist "$DIST" --order given --quiet
rm -rf "$DIST/demo"
cp -r "$WORK/site" "$DIST/demo"
echo "demo site: ${#runs[@]} runs in $DIST/demo (served at /demo/)"
