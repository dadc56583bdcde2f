//! Gate counts under both recovery rules, the chain, deltas and the split.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use super::*;
use crate::bundle::{GateRow, Outcome, Usage, UsageCounts};

fn row(model: &str, base: &str, gated: &str, fired: u32) -> GateRow {
    GateRow {
        trace_id: format!("{model}-{base}-{gated}"),
        model: model.into(),
        fired: Some(fired),
        baseline_outcome: Some(Outcome::from_str_lossless(base)),
        gated_outcome: Some(Outcome::from_str_lossless(gated)),
        ..GateRow::default()
    }
}

fn usage(out: u64) -> Option<Usage> {
    Some(Usage::from(UsageCounts {
        completion_tokens: Some(out),
        ..UsageCounts::default()
    }))
}

#[test]
fn summary_and_plot_rules_differ_on_error_rows() {
    let rows = [
        row("m", "fail", "pass", 1),
        row("m", "tie", "pass", 0),
        row("m", "error", "pass", 1),
        row("m", "pass", "fail", 1),
        row("m", "pass", "error", 0),
        row("m", "pass", "pass", 1),
    ];
    let refs: Vec<GateFacts> = rows.iter().map(GateFacts::of).collect();
    let c = gate_counts(&refs);
    assert_eq!((c.cells, c.fired), (6, 4));
    assert_eq!(c.fired_share, 4.0 / 6.0);
    assert_eq!((c.recovered, c.regressed), (2, 1));
    assert_eq!((c.recovered_plot_rule, c.regressed_plot_rule), (3, 2));
    assert_eq!((c.recovered_fired, c.regressed_fired), (1, 1));
    assert_eq!((c.baseline_pass, c.gated_pass), (3, 4));
    assert_eq!(c.net, 4.0 / 6.0 - 3.0 / 6.0);
}

#[test]
fn chain_drift_and_fired_deltas() {
    let mut a = row("m", "fail", "pass", 1);
    a.missed_gold = Some(vec!["crm.x".into()]);
    a.note_covered_missed = Some(vec!["crm.x".into()]);
    a.missed_now_queried = Some(vec!["crm.x".into()]);
    a.recorded_baseline = Some(Outcome::Pass);
    (a.baseline_turns, a.gated_turns) = (Some(12), Some(6));
    (a.baseline_usage, a.gated_usage) = (usage(900), usage(500));
    let mut b = row("m", "fail", "fail", 1);
    b.missed_gold = Some(vec!["crm.y".into()]);
    b.note_covered_missed = Some(vec![]);
    b.missed_now_queried = Some(vec!["crm.y".into()]);
    (b.baseline_turns, b.gated_turns) = (Some(4), Some(8));
    let mut c = row("m", "fail", "fail", 0);
    (c.baseline_turns, c.gated_turns) = (Some(3), Some(30));
    let rows = [a, b, c];
    let refs: Vec<GateFacts> = rows.iter().map(GateFacts::of).collect();
    let g = gate_counts(&refs);
    assert_eq!((g.chain, g.chain_recovered, g.drift), (1, 1, 1));
    assert_eq!(g.turn_delta_fired, Some(((6.0 - 12.0) + (8.0 - 4.0)) / 2.0)); // unfired c excluded
    assert_eq!(g.output_token_delta_fired, Some(500.0 - 900.0));
    let grp = gate_group("m", &refs, 500, 3);
    assert_eq!((grp.over_exploring.cells, grp.rest.cells), (1, 2));
    assert_eq!(grp.net_ci.unwrap().estimate, (1.0 + 0.0 + 0.0) / 3.0);
    assert_eq!(grp.turn_delta_ci.unwrap().n, 2);
}

#[test]
fn analysis_groups_by_model_then_pooled() {
    let rows = [
        row("b", "fail", "pass", 1),
        row("a", "pass", "pass", 0),
        row("b", "pass", "pass", 0),
    ];
    let groups = gate_analysis(GateRows::held(&rows), 100, 1);
    let names: Vec<&str> = groups.iter().map(|g| g.model.as_str()).collect();
    assert_eq!(names, vec!["b", "a", "(all)"]);
    assert_eq!(groups[2].counts.cells, 3);
    let empty = gate_counts(&[]);
    assert_eq!(
        (empty.cells, empty.net, empty.turn_delta_fired),
        (0, 0.0, None)
    );
}
