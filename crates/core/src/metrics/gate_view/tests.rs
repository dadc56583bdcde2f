//! The gate view's answers: grouping, counts first, the CLI's intervals, the corpus shown,
//! one model's fired rows.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use super::*;
use crate::bundle::Outcome;

fn row(model: &str, trace: &str, fired: u32, baseline: Outcome, gated: Outcome) -> GateRow {
    GateRow {
        model: model.into(),
        trace_id: trace.into(),
        fired: Some(fired),
        baseline_outcome: Some(baseline),
        gated_outcome: Some(gated),
        baseline_turns: Some(if trace == "q1" { 12 } else { 3 }),
        ..GateRow::default()
    }
}

/// Corpus `a`: m2 first (q1 fired fail → pass, q2 not fired pass → pass), then m1 (q1 fired
/// pass → fail). Corpus `b`: no gate rows.
fn body() -> BundleBody {
    use Outcome::{Fail, Pass};
    BundleBody {
        corpora: vec![
            Corpus {
                name: "b".into(),
                ..Corpus::default()
            },
            Corpus {
                name: "a".into(),
                gate_rows: vec![
                    row("m2", "q1", 1, Fail, Pass),
                    row("m2", "q2", 0, Pass, Pass),
                    row("m1", "q1", 2, Pass, Fail),
                ],
                ..Corpus::default()
            },
        ],
        ..BundleBody::default()
    }
}

#[test]
fn groups_are_the_models_in_first_seen_order_then_all_with_counts_first() {
    let body = body();
    let q = GateQuery {
        corpus: None,
        intervals: false,
    };
    let answer = GateAnswerer::default().answer(&body, &q);
    assert_eq!(answer.names, ["a"]);
    assert_eq!(answer.shown, "a", "the first corpus with gate rows");
    let models: Vec<&str> = answer.groups.iter().map(|g| g.model.as_str()).collect();
    assert_eq!(models, ["m2", "m1", ALL]);
    // m2: 2 cells, 1 fired; baseline 1 pass of 2, gated 2 of 2: net = 1 − 1/2 = 1/2.
    let m2 = &answer.groups[0];
    assert_eq!((m2.counts.cells, m2.counts.fired), (2, 1));
    assert_eq!((m2.counts.baseline_pass, m2.counts.gated_pass), (1, 2));
    assert_eq!(m2.counts.net, 1.0 - 1.0 / 2.0);
    // q1 has 12 baseline turns (over-exploring), q2 3.
    assert_eq!((m2.over_exploring.cells, m2.rest.cells), (1, 1));
    // All: 3 cells; baseline 2 passes, gated 2: net 0.
    assert_eq!(answer.groups[2].counts.cells, 3);
    assert_eq!(answer.groups[2].counts.net, 0.0);
    assert!(answer.groups.iter().all(|g| g.net_ci.is_none()));
}

#[test]
fn with_intervals_the_groups_are_the_clis_and_are_kept() {
    let body = body();
    let mut answerer = GateAnswerer::default();
    let q = GateQuery {
        corpus: Some("a".into()),
        intervals: true,
    };
    let cli = gate_analysis(body.corpora[1].gate(), DEFAULT_RESAMPLES, DEFAULT_SEED);
    assert_eq!(answerer.answer(&body, &q).groups, cli);
    assert!(cli[0].net_ci.is_some());
    // Counts asked for afterwards come with the intervals already computed.
    let counts = GateQuery {
        intervals: false,
        ..q
    };
    assert_eq!(answerer.answer(&body, &counts).groups, cli);
    // The same counts as without intervals.
    let fresh = GateAnswerer::default().answer(&body, &counts);
    for (a, b) in fresh.groups.iter().zip(&cli) {
        assert_eq!(
            (&a.model, &a.counts, &a.over_exploring, &a.rest),
            (&b.model, &b.counts, &b.over_exploring, &b.rest)
        );
    }
}

#[test]
fn a_corpus_without_gate_rows_is_shown_empty_and_fired_rows_are_listed() {
    let body = body();
    let q = GateQuery {
        corpus: Some("b".into()),
        intervals: true,
    };
    let answer = GateAnswerer::default().answer(&body, &q);
    assert_eq!(answer.shown, "b");
    assert!(answer.groups.is_empty());
    let m1: Vec<String> = fired(&body, "a", "m1")
        .into_iter()
        .map(|r| r.trace_id)
        .collect();
    assert_eq!(m1, ["q1"]);
    let m2: Vec<String> = fired(&body, "a", "m2")
        .into_iter()
        .map(|r| r.trace_id)
        .collect();
    assert_eq!(m2, ["q1"], "q2 did not fire");
    assert!(fired(&body, "b", "m1").is_empty());
}

#[test]
fn an_answer_survives_json_exactly() {
    let body = body();
    let q = GateQuery {
        corpus: None,
        intervals: true,
    };
    let answer = GateAnswerer::default().answer(&body, &q);
    let back: GateAnswer = serde_json::from_slice(&serde_json::to_vec(&answer).unwrap()).unwrap();
    assert_eq!(back, answer);
}
