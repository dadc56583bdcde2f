//! The paired on/off gate analysis (`schema_retrieval_agent.py`, harness-formats §6.5).
//!
//! Rates here are **strict**: pass counts 1, tie and everything else 0, and the denominator
//! is every row of the group (`cells`), error rows included, as the script's summary does.

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};

use super::bootstrap::{BootstrapCi, paired_bootstrap_ci};
use crate::bundle::{GateFacts, GateRows};

/// Baseline turns at or above which a cell counts as over-exploring.
pub const OVER_EXPLORING_TURNS: u32 = 10;

/// Counts and rates of one group of gate rows.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
pub struct GateCounts {
    /// Rows in the group, error rows included.
    pub cells: usize,
    /// Rows with `fired ≥ 1`.
    pub fired: usize,
    /// `fired / cells` (0 when empty).
    pub fired_share: f64,
    /// Rows whose baseline outcome is `pass`.
    pub baseline_pass: usize,
    /// Rows whose gated outcome is `pass`.
    pub gated_pass: usize,
    /// `baseline_pass / cells`.
    pub baseline_rate: f64,
    /// `gated_pass / cells`.
    pub gated_rate: f64,
    /// `gated_rate − baseline_rate`.
    pub net: f64,
    /// Summary rule: baseline ∈ {fail, loss, tie} and gated = pass.
    pub recovered: usize,
    /// Summary rule: baseline = pass and gated ∈ {fail, loss, tie}.
    pub regressed: usize,
    /// Summary rule restricted to fired rows.
    pub recovered_fired: usize,
    /// Summary rule restricted to fired rows.
    pub regressed_fired: usize,
    /// Plot rule (`sr_stage2_recovery.png`): baseline ≠ pass (error included) and gated = pass.
    pub recovered_plot_rule: usize,
    /// Plot rule: baseline = pass and gated ≠ pass (error included).
    pub regressed_plot_rule: usize,
    /// Baseline re-grade drift: `recorded_baseline` non-null and ≠ `baseline_outcome`.
    pub drift: usize,
    /// The exact chain: the baseline missed a gold table, the note named it, and the gated
    /// run queried it (`missed_now_queried ∩ note_covered_missed ≠ ∅`).
    pub chain: usize,
    /// Chain rows that were also recovered (summary rule).
    pub chain_recovered: usize,
    /// Mean `gated_turns − baseline_turns` over fired rows with both known.
    pub turn_delta_fired: Option<f64>,
    /// Mean gated − baseline output (completion) tokens over fired rows with both known.
    pub output_token_delta_fired: Option<f64>,
}

/// Per-row paired differences: strict pass, turns (fired rows), output tokens (fired rows).
pub fn gate_diffs(rows: &[GateFacts]) -> (Vec<f64>, Vec<f64>, Vec<f64>) {
    let pass = rows
        .iter()
        .map(|r| f64::from(u8::from(r.gated.pass)) - f64::from(u8::from(r.baseline.pass)))
        .collect();
    let fired_rows = rows.iter().filter(|r| r.fired);
    let turns = fired_rows
        .clone()
        .filter_map(|r| Some(f64::from(r.gated.turns?) - f64::from(r.baseline.turns?)))
        .collect();
    let tokens = fired_rows
        .filter_map(|r| Some(r.gated.output_tokens? as f64 - r.baseline.output_tokens? as f64))
        .collect();
    (pass, turns, tokens)
}

fn mean(v: &[f64]) -> Option<f64> {
    super::stats::mean(v)
}

/// Counts for one group of rows. Example: one row fail → pass, fired: recovered 1, net 1.
pub fn gate_counts(rows: &[GateFacts]) -> GateCounts {
    let n = rows.len();
    let rate = |k: usize| if n == 0 { 0.0 } else { k as f64 / n as f64 };
    let count = |f: &dyn Fn(&GateFacts) -> bool| rows.iter().filter(|r| f(r)).count();
    let rec = |r: &GateFacts| r.baseline.recoverable && r.gated.pass;
    let reg = |r: &GateFacts| r.baseline.pass && r.gated.recoverable;
    let (_, turns, tokens) = gate_diffs(rows);
    let baseline_pass = count(&|r| r.baseline.pass);
    let gated_pass = count(&|r| r.gated.pass);
    let fired = count(&|r| r.fired);
    GateCounts {
        cells: n,
        fired,
        fired_share: rate(fired),
        baseline_pass,
        gated_pass,
        baseline_rate: rate(baseline_pass),
        gated_rate: rate(gated_pass),
        net: rate(gated_pass) - rate(baseline_pass),
        recovered: count(&rec),
        regressed: count(&reg),
        recovered_fired: count(&|r| r.fired && rec(r)),
        regressed_fired: count(&|r| r.fired && reg(r)),
        recovered_plot_rule: count(&|r| !r.baseline.pass && r.gated.pass),
        regressed_plot_rule: count(&|r| r.baseline.pass && !r.gated.pass),
        drift: count(&|r| r.drift),
        chain: count(&|r| r.chain),
        chain_recovered: count(&|r| r.chain && rec(r)),
        turn_delta_fired: mean(&turns),
        output_token_delta_fired: mean(&tokens),
    }
}

/// One group's full analysis: counts, the over-exploring split and bootstrap intervals.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GateGroup {
    /// Model key, or `"(all)"` for the pooled group.
    pub model: String,
    /// Counts over every row of the group.
    #[serde(flatten)]
    pub counts: GateCounts,
    /// Rows with baseline turns ≥ [`OVER_EXPLORING_TURNS`].
    pub over_exploring: GateCounts,
    /// The other rows (baseline turns below the threshold or unknown).
    pub rest: GateCounts,
    /// Bootstrap 95% interval of the net strict pass rate (all rows).
    pub net_ci: Option<BootstrapCi>,
    /// Bootstrap 95% interval of the mean turn delta (fired rows).
    pub turn_delta_ci: Option<BootstrapCi>,
    /// Bootstrap 95% interval of the mean output-token delta (fired rows).
    pub output_token_delta_ci: Option<BootstrapCi>,
}

/// The pooled group's name (as in the CLI JSON).
pub const ALL: &str = "(all)";

/// One group's counts and over-exploring split, without intervals (`*_ci` are `None`).
pub fn gate_group_counts(model: &str, rows: &[GateFacts]) -> GateGroup {
    let (over, rest): (Vec<GateFacts>, Vec<GateFacts>) = rows
        .iter()
        .partition(|r| r.baseline.turns.is_some_and(|t| t >= OVER_EXPLORING_TURNS));
    GateGroup {
        model: model.to_string(),
        counts: gate_counts(rows),
        over_exploring: gate_counts(&over),
        rest: gate_counts(&rest),
        net_ci: None,
        turn_delta_ci: None,
        output_token_delta_ci: None,
    }
}

/// Analyses one group (see [`GateCounts`]); the three intervals share `seed`.
pub fn gate_group(model: &str, rows: &[GateFacts], resamples: usize, seed: u64) -> GateGroup {
    let (pass, turns, tokens) = gate_diffs(rows);
    GateGroup {
        net_ci: paired_bootstrap_ci(&pass, resamples, seed),
        turn_delta_ci: paired_bootstrap_ci(&turns, resamples, seed),
        output_token_delta_ci: paired_bootstrap_ci(&tokens, resamples, seed),
        ..gate_group_counts(model, rows)
    }
}

/// The facts of each model's rows (first-seen order), then of every row as [`ALL`].
fn groups(rows: GateRows<'_>) -> Vec<(&str, Vec<GateFacts>)> {
    let mut by: IndexMap<&str, Vec<GateFacts>> = IndexMap::new();
    let mut all = Vec::with_capacity(rows.len());
    for i in 0..rows.len() {
        let (Some(model), Some(facts)) = (rows.model(i), rows.facts(i)) else {
            continue;
        };
        by.entry(model).or_default().push(facts);
        all.push(facts);
    }
    let mut out: Vec<(&str, Vec<GateFacts>)> = by.into_iter().collect();
    out.push((ALL, all));
    out
}

/// Per-model groups (first-seen order) followed by the pooled `"(all)"` group.
pub fn gate_analysis(rows: GateRows<'_>, resamples: usize, seed: u64) -> Vec<GateGroup> {
    groups(rows)
        .iter()
        .map(|(m, rs)| gate_group(m, rs, resamples, seed))
        .collect()
}

/// [`gate_analysis`]'s groups with counts only (no bootstrap: fast on any run).
pub fn gate_counts_analysis(rows: GateRows<'_>) -> Vec<GateGroup> {
    groups(rows)
        .iter()
        .map(|(m, rs)| gate_group_counts(m, rs))
        .collect()
}

#[cfg(test)]
#[path = "gate_tests.rs"]
mod tests;
