//! In-loop gate rows (`out/schema_retrieval_agent.jsonl`, divergence mode, population all).
//!
//! Fired cells, recoveries and regressions are chosen to hit the published counts:
//! fired share per corpus, 22% over-exploring (≥ 10 baseline turns) fired cells,
//! 8–61 fired cells per model and corpus, and the recovery/regression totals with their
//! exact-chain subsets (baseline missed a gold table, the top-5 note named it, the gated
//! run queried it).

use rand::Rng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use serde::Serialize;

use crate::cells::CellInfo;
use crate::models::Model;
use crate::plan::Outcome;
use crate::question::Question;
use crate::ranking::Ranking;
use crate::usage::{self, Usage};

/// Counts one corpus must reach.
#[derive(Debug, Clone, Copy)]
pub struct GateTargets {
    /// Fired share of the corpus's gate rows.
    pub fired_share: f64,
    /// Recoveries (baseline fail/loss/tie → gated pass).
    pub recovered: usize,
    /// Of which on the exact chain.
    pub recovered_chain: usize,
    /// Regressions (baseline pass → gated fail/loss/tie).
    pub regressed: usize,
    /// Of which on the exact chain.
    pub regressed_chain: usize,
    /// Mean turn change for fired cells that are not over-exploring (+0.06 dev, +0.17 board).
    pub tax: f64,
    /// Fired cells per model: `(min, max)`; the article's published spread is 8 to 61.
    pub per_model: (usize, usize),
    /// Drop `per_turn` from the usage blocks (keeps `large` modest).
    pub strip_per_turn: bool,
    /// `--population missed-gold` (the harness default) instead of `all`: usable cells that
    /// did not pass and whose statements missed a gold table.
    pub missed_gold_only: bool,
}

/// One gate row (either a full row or an error row).
#[derive(Debug, Clone, Serialize)]
#[serde(untagged)]
pub enum GateRow {
    /// A graded pair.
    Full(Box<FullRow>),
    /// The ranking failed after 4 attempts.
    Error {
        /// Question id.
        trace_id: String,
        /// Model key.
        model: String,
        /// Always 0.
        fired: u8,
        /// Always `error`.
        baseline_outcome: &'static str,
        /// Always `error`.
        gated_outcome: &'static str,
        /// `rank: <Exc>: <msg>`.
        cell_error: String,
    },
}

/// A graded pair, field order as the harness writes it.
#[derive(Debug, Clone, Serialize)]
pub struct FullRow {
    /// Question id.
    pub trace_id: String,
    /// Model key.
    pub model: String,
    /// Top-5 of the ranking.
    pub topk: Vec<String>,
    /// Hints issued (0 or 1).
    pub fired: u8,
    /// Gold tables.
    pub gold: Vec<String>,
    /// Gold minus tables the baseline read.
    pub missed_gold: Vec<String>,
    /// Missed gold the gated arm read.
    pub missed_now_queried: Vec<String>,
    /// Missed gold inside the top-5.
    pub note_covered_missed: Vec<String>,
    /// Re-graded baseline.
    pub baseline_outcome: &'static str,
    /// Gated outcome.
    pub gated_outcome: &'static str,
    /// Outcome stored in results.jsonl.
    pub recorded_baseline: Option<&'static str>,
    /// Gated turns.
    pub gated_turns: u32,
    /// Gated latency.
    pub gated_latency: Option<f64>,
    /// Gated usage.
    pub gated_usage: Option<Usage>,
    /// Baseline turns.
    pub baseline_turns: u32,
    /// Baseline latency.
    pub baseline_latency: Option<f64>,
    /// Baseline usage.
    pub baseline_usage: Option<Usage>,
}

struct Cand {
    qi: usize,
    mi: usize,
    covered: Vec<String>,
    missed: Vec<String>,
}

/// Builds the gate rows of one corpus. `error_question` gets error rows for every model.
pub fn rows(
    questions: &[Question],
    models: &[Model],
    infos: &[Vec<Option<CellInfo>>],
    rankings: &[Ranking],
    error_question: Option<usize>,
    t: GateTargets,
    rng: &mut ChaCha8Rng,
) -> Vec<GateRow> {
    let mut cands: Vec<Cand> = Vec::new();
    for (qi, q) in questions.iter().enumerate() {
        if Some(qi) == error_question {
            continue;
        }
        let top5: Vec<String> = rankings[qi].ranked.iter().take(5).cloned().collect();
        for (mi, info) in infos[qi].iter().enumerate() {
            let Some(info) = info.as_ref().filter(|i| i.usable) else {
                continue;
            };
            let missed: Vec<String> = q
                .gold
                .iter()
                .filter(|g| !info.tables_read.contains(g))
                .cloned()
                .collect();
            if t.missed_gold_only && (info.outcome == Outcome::Pass || missed.is_empty()) {
                continue;
            }
            let covered = missed
                .iter()
                .filter(|m| top5.contains(m))
                .cloned()
                .collect();
            cands.push(Cand {
                qi,
                mi,
                covered,
                missed,
            });
        }
    }
    let info = |c: &Cand| infos[c.qi][c.mi].as_ref();
    let fired = choose_fired(&cands, models, infos, t, rng);
    let outcome_of = |c: &Cand| info(c).map(|i| i.outcome).unwrap_or(Outcome::Error);
    let recoverable = |c: &Cand| matches!(outcome_of(c), Outcome::Fail | Outcome::Tie);
    let mut gated: Vec<Option<Outcome>> = vec![None; cands.len()];
    let mut chain = vec![false; cands.len()];
    let mut order: Vec<usize> = (0..cands.len()).collect();
    order.shuffle(rng);
    let mut pick = |want: usize,
                    ok: &dyn Fn(usize) -> bool,
                    to: Outcome,
                    on_chain: bool,
                    gated: &mut Vec<Option<Outcome>>| {
        let mut n = 0;
        for &i in &order {
            if n == want {
                break;
            }
            if gated[i].is_none() && ok(i) {
                gated[i] = Some(to);
                chain[i] = on_chain;
                n += 1;
            }
        }
    };
    let chainable = |i: usize| fired[i] && !cands[i].covered.is_empty();
    pick(
        t.recovered_chain,
        &|i| recoverable(&cands[i]) && chainable(i),
        Outcome::Pass,
        true,
        &mut gated,
    );
    pick(
        t.regressed_chain,
        &|i| outcome_of(&cands[i]) == Outcome::Pass && chainable(i),
        Outcome::Fail,
        true,
        &mut gated,
    );
    pick(
        t.recovered - t.recovered_chain,
        &|i| recoverable(&cands[i]) && !chainable(i),
        Outcome::Pass,
        false,
        &mut gated,
    );
    pick(
        t.regressed - t.regressed_chain,
        &|i| outcome_of(&cands[i]) == Outcome::Pass && !chainable(i),
        Outcome::Tie,
        false,
        &mut gated,
    );
    let mut out = Vec::with_capacity(cands.len() + models.len());
    for (i, c) in cands.iter().enumerate() {
        let Some(b) = info(c) else { continue };
        let q = &questions[c.qi];
        let model = &models[c.mi];
        let recorded = b.outcome.key();
        let mut baseline = recorded;
        if gated[i].is_none() && recoverable(c) && rng.random_bool(0.02) {
            baseline = if b.outcome == Outcome::Fail {
                "tie"
            } else {
                "fail"
            };
        }
        let gated_outcome = gated[i].map(|o| o.key()).unwrap_or(baseline);
        let now_queried = if chain[i] || (fired[i] && gated[i].is_none() && rng.random_bool(0.5)) {
            c.covered.clone()
        } else {
            Vec::new()
        };
        let factor = if !fired[i] {
            rng.random_range(0.85..1.17)
        } else if b.turns >= 10 {
            rng.random_range(0.6..1.06)
        } else {
            rng.random_range(1.0 + t.tax - 0.2..1.0 + t.tax + 0.2)
        };
        let gated_turns = ((b.turns as f64 * factor).round() as u32).clamp(1, 60);
        let verbose = 1.0 + (1.0 - model.strength) * 0.6;
        let gated_usage = b.usage.as_ref().map(|_| {
            usage::usage(
                rng,
                gated_turns,
                usage::cache_style(&model.key),
                model.reasoning,
                false,
                verbose * factor.min(1.2),
            )
        });
        let gated_latency = b
            .latency
            .map(|l| (l * gated_turns as f64 / b.turns.max(1) as f64 * 100.0).round() / 100.0);
        out.push(GateRow::Full(Box::new(FullRow {
            trace_id: q.trace_id.clone(),
            model: model.key.clone(),
            topk: rankings[c.qi].ranked.iter().take(5).cloned().collect(),
            fired: u8::from(fired[i]),
            gold: q.gold.clone(),
            missed_gold: c.missed.clone(),
            missed_now_queried: now_queried,
            note_covered_missed: c.covered.clone(),
            baseline_outcome: baseline,
            gated_outcome,
            recorded_baseline: Some(recorded),
            gated_turns,
            gated_latency,
            gated_usage: gated_usage.map(|u| strip(u, t.strip_per_turn)),
            baseline_turns: b.turns,
            baseline_latency: b.latency,
            baseline_usage: b.usage.clone().map(|u| strip(u, t.strip_per_turn)),
        })));
    }
    if let Some(eq) = error_question {
        for model in models {
            out.push(GateRow::Error {
                trace_id: questions[eq].trace_id.clone(),
                model: model.key.clone(),
                fired: 0,
                baseline_outcome: "error",
                gated_outcome: "error",
                cell_error: "rank: APIStatusError: Error code: 429 - {'detail': 'rate limit exceeded, retry later'}".into(),
            });
        }
    }
    out
}

fn choose_fired(
    cands: &[Cand],
    models: &[Model],
    infos: &[Vec<Option<CellInfo>>],
    t: GateTargets,
    rng: &mut ChaCha8Rng,
) -> Vec<bool> {
    let total = (t.fired_share * cands.len() as f64).round() as usize;
    let weights: Vec<f64> = models.iter().map(|m| 1.25 - m.strength).collect();
    let wsum: f64 = weights.iter().sum();
    let per_model: Vec<usize> = (0..models.len())
        .map(|mi| cands.iter().filter(|c| c.mi == mi).count())
        .collect();
    let mut quota: Vec<usize> = weights
        .iter()
        .zip(&per_model)
        .map(|(w, &n)| {
            ((total as f64 * w / wsum).round() as usize)
                .clamp(t.per_model.0, t.per_model.1)
                .min(n)
        })
        .collect();
    let mut guard = 0;
    while quota.iter().sum::<usize>() != total && guard < 100_000 {
        guard += 1;
        let mi = guard % models.len();
        let sum: usize = quota.iter().sum();
        if sum < total && quota[mi] < t.per_model.1.min(per_model[mi]) {
            quota[mi] += 1;
        } else if sum > total && quota[mi] > t.per_model.0 {
            quota[mi] -= 1;
        }
    }
    let over_total = (0.22 * total as f64).round() as usize;
    let mut fired = vec![false; cands.len()];
    let mut over_left = over_total;
    let turns = |c: &Cand| infos[c.qi][c.mi].as_ref().map(|i| i.turns).unwrap_or(0);
    for (mi, &q) in quota.iter().enumerate() {
        let mut mine: Vec<usize> = (0..cands.len()).filter(|&i| cands[i].mi == mi).collect();
        mine.shuffle(rng);
        mine.sort_by_key(|&i| cands[i].covered.is_empty());
        let remaining_models = (models.len() - mi).max(1);
        let want_over = (over_left as f64 / remaining_models as f64).round() as usize;
        let over: Vec<usize> = mine
            .iter()
            .copied()
            .filter(|&i| turns(&cands[i]) >= 10)
            .take(want_over.min(q))
            .collect();
        over_left = over_left.saturating_sub(over.len());
        let under: Vec<usize> = mine
            .iter()
            .copied()
            .filter(|&i| turns(&cands[i]) < 10)
            .take(q - over.len())
            .collect();
        for i in over.into_iter().chain(under) {
            fired[i] = true;
        }
    }
    fired
}

fn strip(mut u: Usage, strip: bool) -> Usage {
    if strip {
        u.per_turn = None;
        u.calls_missing_usage = None;
    }
    u
}
