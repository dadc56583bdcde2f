//! Metrics benchmark on a large synthetic input: 5,000 questions, a 710-table universe and
//! 40 models. Run: `cargo bench -p runlens-core --bench metrics`. Results: docs/performance.md.

use std::collections::HashSet;
use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use runlens_core::bundle::{GateRow, GateRows, LossRule, Outcome, Usage, UsageCounts};
use runlens_core::metrics::bootstrap::SplitMix64;
use runlens_core::metrics::cell_facts::{CellFacts, TokenFacts};
use runlens_core::metrics::curves::{
    QuestionRanking, curves_by_gold_count, k_star_distribution, retrieval_curves,
};
use runlens_core::metrics::gate::gate_analysis;
use runlens_core::metrics::leaderboard::{ModelColumn, leaderboard};

const QUESTIONS: usize = 5_000;
const UNIVERSE: usize = 710;
const MODELS: usize = 40;

struct Input {
    rankings: Vec<(Vec<String>, HashSet<String>)>,
    columns: Vec<ModelColumn>,
    gate_rows: Vec<GateRow>,
}

fn synthetic() -> Input {
    let mut rng = SplitMix64::new(7);
    let universe: Vec<String> = (0..UNIVERSE)
        .map(|i| format!("ns{}.table_{i:04}", i % 7))
        .collect();
    let rankings = (0..QUESTIONS)
        .map(|_| {
            let mut order: Vec<usize> = (0..UNIVERSE).collect();
            for i in (1..order.len()).rev() {
                order.swap(i, rng.below(i + 1));
            }
            // Fresh strings allocated in rank order, as a JSON parse of the row allocates them.
            let ranked: Vec<String> = order.iter().map(|&i| universe[i].clone()).collect();
            // 1–5 gold tables: mostly ranked in the top 12, one in ten anywhere.
            let gold = (0..1 + rng.below(5))
                .map(|_| {
                    let pos = if rng.below(10) == 0 {
                        rng.below(UNIVERSE)
                    } else {
                        rng.below(12)
                    };
                    ranked[pos].clone()
                })
                .collect();
            (ranked, gold)
        })
        .collect();
    let outcomes = ["pass", "fail", "tie", "error", "pass", "fail"];
    let columns = (0..MODELS)
        .map(|m| ModelColumn {
            model: format!("model-{m:02}"),
            cells: (0..QUESTIONS)
                .map(|_| {
                    let o = Outcome::from_str_lossless(outcomes[rng.below(outcomes.len())]);
                    let turns = 1 + rng.below(60) as u32;
                    Some(CellFacts {
                        score: o.score(LossRule::Excluded),
                        legacy_loss: o == Outcome::Loss,
                        strict_pass: o == Outcome::Pass,
                        turn_limited: turns == 60,
                        turns: Some(turns),
                        n_queries: rng.below(40),
                        tokens: Some(TokenFacts {
                            total: Some(rng.below(90_000) as u64),
                            output: Some(rng.below(9_000) as u64),
                            exact: rng.below(20) > 0,
                        }),
                    })
                })
                .collect(),
        })
        .collect();
    // Gate population: one in ten cells (the missed-gold population), both arms.
    let gate_rows = (0..MODELS * QUESTIONS / 10)
        .map(|i| GateRow {
            trace_id: format!("q{i}"),
            model: format!("model-{:02}", i % MODELS),
            fired: Some(rng.below(2) as u32),
            baseline_outcome: Some(Outcome::from_str_lossless(outcomes[rng.below(3) + 1])),
            gated_outcome: Some(Outcome::from_str_lossless(
                outcomes[rng.below(outcomes.len())],
            )),
            baseline_turns: Some(1 + rng.below(30) as u32),
            gated_turns: Some(1 + rng.below(30) as u32),
            baseline_usage: Some(Usage::from(UsageCounts {
                completion_tokens: Some(rng.below(5000) as u64),
                ..UsageCounts::default()
            })),
            gated_usage: Some(Usage::from(UsageCounts {
                completion_tokens: Some(rng.below(5000) as u64),
                ..UsageCounts::default()
            })),
            ..GateRow::default()
        })
        .collect();
    Input {
        rankings,
        columns,
        gate_rows,
    }
}

fn bench(c: &mut Criterion) {
    let input = synthetic();
    c.bench_function("curves_k1_10_5000q_710t", |b| {
        b.iter(|| {
            let rows: Vec<QuestionRanking> = input
                .rankings
                .iter()
                .map(|(r, g)| QuestionRanking::new(r, g))
                .collect();
            black_box((
                retrieval_curves(&rows, 10),
                k_star_distribution(&rows),
                curves_by_gold_count(&rows, 10),
            ))
        })
    });
    let reduced: Vec<QuestionRanking> = input
        .rankings
        .iter()
        .map(|(r, g)| QuestionRanking::new(r, g))
        .collect();
    c.bench_function("reduce_rankings_5000q_710t", |b| {
        b.iter(|| {
            black_box(
                input
                    .rankings
                    .iter()
                    .map(|(r, g)| QuestionRanking::new(r, g))
                    .collect::<Vec<_>>(),
            )
        })
    });
    c.bench_function("curves_only_k1_10_5000q", |b| {
        b.iter(|| {
            black_box((
                retrieval_curves(&reduced, 10),
                k_star_distribution(&reduced),
                curves_by_gold_count(&reduced, 10),
            ))
        })
    });
    c.bench_function("leaderboard_40m_5000q", |b| {
        b.iter(|| black_box(leaderboard(&input.columns)))
    });
    let mut slow = c.benchmark_group("gate");
    slow.sample_size(10);
    slow.bench_function("gate_bootstrap_b10000_20000rows_40m", |b| {
        b.iter(|| black_box(gate_analysis(GateRows::held(&input.gate_rows), 10_000, 42)))
    });
    slow.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
