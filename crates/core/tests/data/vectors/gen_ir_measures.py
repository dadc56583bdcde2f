"""Generate golden nDCG@k, recall@k, RR@k, P@k and Success@k vectors with ir-measures.

Usage (throwaway venv, nothing installed into the repo):
    python3 -m venv /tmp/irm-venv && /tmp/irm-venv/bin/pip install ir-measures
    /tmp/irm-venv/bin/python crates/core/tests/data/vectors/gen_ir_measures.py \
        > crates/core/tests/data/vectors/ir_measures_golden.json

Each query is a harness-style ranking: `ranked` is a permutation of (part of) an 18-table
universe and `gold` a set of tables, some possibly outside the ranking. trec_eval sorts a run
by score descending with docid-descending ties, so the run gives every table the score
N - position: the order ir-measures evaluates is exactly `ranked`. Relevance is binary (1),
so trec_eval's linear-gain nDCG equals the harness's binary-gain nDCG. A gold table outside
the ranking stays in the qrels, so it counts in |G| (recall, nDCG's ideal) as the harness's
does; P@k divides by k even when the ranking is shorter (trec_eval's P_k). ir-measures picks
a provider per measure; the ones it used are recorded in the file.
"""
import json
import random
import sys
from importlib.metadata import version

import ir_measures
from ir_measures import Qrel, ScoredDoc

UNIVERSE = sorted(
    [f"crm.t{i:02d}" for i in range(9)] + [f"marts.m{i:02d}" for i in range(9)]
)
KS = list(range(1, 11))


def queries():
    rng = random.Random(20261202)
    out = []
    for qi in range(24):
        ranked = UNIVERSE[:]
        rng.shuffle(ranked)
        if qi % 6 == 5:
            ranked = ranked[: rng.randint(2, 6)]  # a short ranking: k beyond the list
        n_gold = rng.randint(1, 5)
        gold = set(rng.sample(UNIVERSE, n_gold))
        if qi % 4 == 3:
            gold.add("crm.not_in_universe")  # gold outside the universe
        out.append({"id": f"q{qi:02d}", "ranked": ranked, "gold": sorted(gold)})
    return out


def providers(families, qrels):
    """The provider ir-measures evaluates each measure family with (at k = 1)."""
    out = {}
    for family in families:
        evaluator = ir_measures.DefaultPipeline.evaluator([family @ 1], qrels)
        out[str(family)] = type(evaluator).__name__
    return out


def main():
    qs = queries()
    qrels = [Qrel(q["id"], t, 1) for q in qs for t in q["gold"]]
    run = [ScoredDoc(q["id"], t, float(len(q["ranked"]) - i)) for q in qs for i, t in enumerate(q["ranked"])]
    families = [ir_measures.nDCG, ir_measures.R, ir_measures.RR, ir_measures.P, ir_measures.Success]
    measures = [m @ k for m in families for k in KS]
    expected = {q["id"]: {} for q in qs}
    for m in ir_measures.iter_calc(measures, qrels, run):
        expected[m.query_id][str(m.measure)] = m.value
    for q in qs:
        q["expected"] = expected[q["id"]]
    doc = {
        "provenance": {
            "tool": "ir-measures",
            "version": version("ir-measures"),
            "backend": f"pytrec_eval-terrier {version('pytrec_eval-terrier')}",
            "python": sys.version.split()[0],
            "command": "/tmp/irm-venv/bin/python crates/core/tests/data/vectors/gen_ir_measures.py",
            "generated": "2026-12-06 (nDCG and R first on 2026-12-02, same values)",
            "providers": providers(families, qrels),
            "run_scores": "score = len(ranked) - position (realises `ranked` exactly)",
            "relevance": "binary (1 for gold tables)",
        },
        "k": KS,
        "queries": qs,
    }
    json.dump(doc, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
