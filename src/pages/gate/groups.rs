//! Gate groups for the view: counts at once (cheap), bootstrap intervals afterwards, in steps
//! of about [`STEP_DRAWS`] drawn values per turn of the event loop, with the CLI's defaults (10,000 resamples, seed 42)
//! so every number equals `runlens metrics --json`'s `gate` section.

use std::collections::HashMap;

use runlens_core::bundle::GateRow;
use runlens_core::metrics::bootstrap::{BootstrapRun, DEFAULT_RESAMPLES, DEFAULT_SEED};
use runlens_core::metrics::gate::{
    GateGroup, OVER_EXPLORING_TURNS, gate_counts, gate_diffs, gate_group,
};

/// The pooled group's name (as in the CLI JSON).
pub const ALL: &str = "(all)";

/// Rows by model in first-seen order, then every row as [`ALL`] (core's `gate_analysis`
/// grouping); as indices into `rows`.
pub fn grouping(rows: &[GateRow]) -> Vec<(String, Vec<usize>)> {
    let mut index: HashMap<&str, usize> = HashMap::new();
    let mut out: Vec<(String, Vec<usize>)> = Vec::new();
    for (i, r) in rows.iter().enumerate() {
        let g = *index.entry(r.model.as_str()).or_insert_with(|| {
            out.push((r.model.clone(), Vec::new()));
            out.len() - 1
        });
        out[g].1.push(i);
    }
    out.push((ALL.to_owned(), (0..rows.len()).collect()));
    out
}

fn pick<'a>(rows: &'a [GateRow], idx: &[usize]) -> Vec<&'a GateRow> {
    idx.iter().filter_map(|&i| rows.get(i)).collect()
}

/// A group with counts and the over-exploring split but no intervals yet.
pub fn counts_only(rows: &[GateRow], model: &str, idx: &[usize]) -> GateGroup {
    let all = pick(rows, idx);
    let (over, rest): (Vec<&GateRow>, Vec<&GateRow>) = all
        .iter()
        .partition(|r| r.baseline_turns.is_some_and(|t| t >= OVER_EXPLORING_TURNS));
    GateGroup {
        model: model.to_owned(),
        counts: gate_counts(&all),
        over_exploring: gate_counts(&over),
        rest: gate_counts(&rest),
        net_ci: None,
        turn_delta_ci: None,
        output_token_delta_ci: None,
    }
}

/// The full group (counts and intervals) with the CLI's default resamples and seed.
pub fn full(rows: &[GateRow], model: &str, idx: &[usize]) -> GateGroup {
    gate_group(model, &pick(rows, idx), DEFAULT_RESAMPLES, DEFAULT_SEED)
}

/// Values drawn per step of a bootstrap run (a few ms in the release wasm build).
pub const STEP_DRAWS: usize = 1 << 20;

/// The group's three interval runs (net, turn delta, output-token delta) with the CLI's
/// defaults; `finish`ed, they equal [`full`]'s intervals.
pub fn interval_runs(rows: &[GateRow], idx: &[usize]) -> [Option<BootstrapRun>; 3] {
    let (pass, turns, tokens) = gate_diffs(&pick(rows, idx));
    [pass, turns, tokens].map(|d| BootstrapRun::new(d, DEFAULT_RESAMPLES, DEFAULT_SEED))
}

/// Resamples per step for a run over `n` observations: `STEP_DRAWS / n`, at least 1.
pub fn resamples_per_step(n: usize) -> usize {
    (STEP_DRAWS / n.max(1)).max(1)
}
