//! Paired differences against arithmetic vectors, and two small runs compared.

// Expected values are written as arithmetic (e.g. `2.5 / 4.0` = scores 1, 0, 0.5, 1).
#![allow(clippy::eq_op)]

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use super::*;
use crate::bundle::{BundleBody, Corpus, Provenance};
use crate::metrics::run_scores::RunScores;

#[test]
fn a_paired_difference_of_four_questions_has_the_arithmetic_values() {
    // Rows 5 and 6 are scored in one run only: not paired.
    let a = [Some(1.0), Some(0.0), Some(0.5), Some(1.0), None, Some(1.0)];
    let b = [Some(1.0), Some(1.0), Some(1.0), Some(0.0), Some(1.0), None];
    let d = paired_delta(&a, &b);
    assert_eq!(d.n, 4);
    assert_eq!(d.pass_a, Some(2.5 / 4.0));
    assert_eq!(d.pass_b, Some(3.0 / 4.0));
    // d = (0, 1, 0.5, −1): mean 0.125; squared deviations 0.015625 + 0.765625 + 0.140625 +
    // 1.265625 = 2.1875.
    assert_eq!(d.delta, Some(0.5 / 4.0));
    let se = (2.1875_f64 / 3.0).sqrt() / 2.0;
    assert!((d.se.unwrap() - se).abs() < 1e-15);
    // Python: d = [0, 1, 0.5, -1]; se = stdev(d) / 2; math.erfc(abs(mean(d) / se) / sqrt(2))
    // -> se 0.42695628191498325, p 0.7696979437812898.
    assert!((d.se.unwrap() - 0.426_956_281_914_983_25).abs() < 1e-15);
    assert!((d.p.unwrap() - 0.769_697_943_781_289_8).abs() < 1e-12);
    assert_eq!((d.improved, d.regressed), (2, 1));
}

#[test]
fn edge_cases_of_a_paired_difference() {
    // No question scored in both: nothing is defined.
    let none = paired_delta(&[Some(1.0), None], &[None, Some(0.0)]);
    assert_eq!(
        none,
        PairedDelta {
            n: 0,
            pass_a: None,
            pass_b: None,
            delta: None,
            se: None,
            p: None,
            improved: 0,
            regressed: 0,
        }
    );
    // One: the means, no spread.
    let one = paired_delta(&[Some(0.0)], &[Some(0.5)]);
    assert_eq!(
        (one.n, one.delta, one.se, one.p),
        (1, Some(0.5), None, None)
    );
    assert_eq!((one.improved, one.regressed), (1, 0));
    // Every difference 0: p = 1; every difference +1: se = 0 and p = 0.
    let same = paired_delta(&[Some(1.0), Some(0.5)], &[Some(1.0), Some(0.5)]);
    assert_eq!(
        (same.delta, same.se, same.p),
        (Some(0.0), Some(0.0), Some(1.0))
    );
    let all_up = paired_delta(&[Some(0.0); 3], &[Some(1.0); 3]);
    assert_eq!(
        (all_up.delta, all_up.se, all_up.p, all_up.improved),
        (Some(1.0), Some(0.0), Some(0.0), 3)
    );
}

fn cell(outcome: &str) -> serde_json::Value {
    serde_json::json!({"sqls": ["SELECT 1"], "turns": 2, "result_score": {"outcome": outcome}})
}

/// A run of one corpus `dev` with `models`, one result row per `(trace_id, outcomes)`.
fn run(models: &[&str], rows: &[(&str, &[&str])]) -> Bundle {
    let results: Vec<serde_json::Value> = rows
        .iter()
        .map(|(trace, outcomes)| {
            let candidates: serde_json::Map<String, serde_json::Value> = models
                .iter()
                .zip(outcomes.iter())
                .map(|(m, o)| ((*m).to_owned(), cell(o)))
                .collect();
            serde_json::json!({"trace_id": trace, "candidates": candidates})
        })
        .collect();
    let corpus = Corpus {
        name: "dev".into(),
        results: serde_json::from_value(serde_json::Value::Array(results)).expect("rows"),
        models: models.iter().map(|m| (*m).to_owned()).collect(),
        ..Corpus::default()
    };
    let body = BundleBody {
        corpora: vec![corpus],
        ..BundleBody::default()
    };
    Bundle::new(Provenance::default(), body)
}

#[test]
fn two_runs_match_questions_by_trace_id_and_models_by_key() {
    // A: q1..q4; B lists q4 first, lacks q2, adds q9; `old` only in A, `new` only in B.
    let a = run(
        &["m", "old"],
        &[
            ("q1", &["pass", "pass"]),
            ("q2", &["fail", "pass"]),
            ("q3", &["tie", "fail"]),
            ("q4", &["error", "pass"]),
        ],
    );
    let b = run(
        &["new", "m"],
        &[
            ("q4", &["pass", "pass"]),
            ("q1", &["fail", "fail"]),
            ("q3", &["pass", "pass"]),
            ("q9", &["pass", "pass"]),
        ],
    );
    let out = compare_runs(&a, &b, LossRule::Excluded, None).unwrap();
    assert_eq!(out.corpora.len(), 1);
    let dev = &out.corpora[0];
    assert_eq!(dev.name, "dev");
    // q1, q3, q4 are in both.
    assert_eq!(dev.questions, 3);
    assert_eq!(dev.only_in_a, ["old"]);
    assert_eq!(dev.only_in_b, ["new"]);
    assert_eq!(dev.models.len(), 1);
    let m = &dev.models[0];
    assert_eq!(m.model, "m");
    // m: q1 pass → fail (−1), q3 tie → pass (+0.5), q4 error in A: not scored.
    assert_eq!(m.delta.n, 2);
    assert_eq!(m.delta.pass_a, Some(1.5 / 2.0));
    assert_eq!(m.delta.pass_b, Some(1.0 / 2.0));
    assert_eq!(m.delta.delta, Some(-0.5 / 2.0));
    assert_eq!((m.delta.improved, m.delta.regressed), (1, 1));
    // d = (−1, 0.5): sample variance ((−0.75)² + 0.75²) / 1 = 1.125, se = √1.125 / √2 = 0.75.
    assert!((m.delta.se.unwrap() - 0.75).abs() < 1e-15);
    // The JSON is flat, as `runlens compare --json` prints it.
    let json = serde_json::to_value(m).unwrap();
    assert_eq!(json["model"], "m");
    assert_eq!(json["delta"], -0.25);
    assert_eq!(json["n"], 2);
}

#[test]
fn legacy_loss_cells_are_left_out_unless_scored_as_fail() {
    let a = run(&["m"], &[("q1", &["loss"]), ("q2", &["pass"])]);
    let b = run(&["m"], &[("q1", &["pass"]), ("q2", &["pass"])]);
    let excluded = compare_runs(&a, &b, LossRule::Excluded, None).unwrap();
    assert_eq!(excluded.corpora[0].models[0].delta.n, 1);
    assert_eq!(excluded.corpora[0].models[0].delta.delta, Some(0.0));
    let as_fail = compare_runs(&a, &b, LossRule::AsFail, None).unwrap();
    assert_eq!(as_fail.corpora[0].models[0].delta.n, 2);
    assert_eq!(as_fail.corpora[0].models[0].delta.delta, Some(1.0 / 2.0));
}

#[test]
fn runs_that_cannot_be_compared_say_why() {
    let a = run(&["m"], &[("q1", &["pass"])]);
    let same = compare_runs(&a, &a.clone(), LossRule::Excluded, None).unwrap_err();
    assert_eq!(
        same.to_string(),
        format!(
            "both bundles are the same run (content hash {}): there is nothing to compare",
            a.content_hash
        )
    );
    let disjoint = run(&["m"], &[("q7", &["pass"])]);
    assert_eq!(
        compare_runs(&a, &disjoint, LossRule::Excluded, None)
            .unwrap_err()
            .to_string(),
        "the runs share no question in dev (questions are matched by trace_id)"
    );
    let mut other = run(&["m"], &[("q1", &["fail"])]);
    other.body.corpora[0].name = "test".into();
    let other = Bundle::new(Provenance::default(), other.body);
    assert_eq!(
        compare_runs(&a, &other, LossRule::Excluded, None)
            .unwrap_err()
            .to_string(),
        "the runs have no corpus in common (A: dev; B: test): questions are compared within a \
         corpus of the same name"
    );
    assert_eq!(
        compare_runs(&a, &other, LossRule::Excluded, Some("test"))
            .unwrap_err()
            .to_string(),
        "run A has no corpus `test` (it has: dev)"
    );
    let twice = run(&["m"], &[("q1", &["pass"]), ("q1", &["fail"])]);
    assert_eq!(
        compare_runs(&twice, &a, LossRule::Excluded, None)
            .unwrap_err()
            .to_string(),
        "run A, corpus `dev`: trace_id `q1` is on two result rows, so its questions cannot be \
         matched"
    );
}

#[test]
fn a_runs_scores_travel_as_one_code_a_question() {
    // m: pass, tie, fail, error (no score); loss as excluded: none; as fail: 0.
    let a = run(
        &["m"],
        &[
            ("q1", &["pass"]),
            ("q2", &["tie"]),
            ("q3", &["fail"]),
            ("q4", &["error"]),
            ("q5", &["loss"]),
        ],
    );
    let scores = RunScores::of(&a, LossRule::Excluded);
    let json = serde_json::to_value(&scores).unwrap();
    assert_eq!(
        json,
        serde_json::json!({
            "content_hash": a.content_hash,
            "corpora": [{"name": "dev", "trace_ids": ["q1", "q2", "q3", "q4", "q5"],
                         "models": ["m"], "scores": ["ptf.."]}]
        })
    );
    assert_eq!(serde_json::from_value::<RunScores>(json).unwrap(), scores);
    assert_eq!(
        RunScores::of(&a, LossRule::AsFail).corpora[0].scores[0].codes(),
        "ptf.f"
    );
    let bad = serde_json::json!({"content_hash": "x", "corpora": [
        {"name": "dev", "trace_ids": ["q1"], "models": ["m"], "scores": ["pX"]}]});
    assert_eq!(
        serde_json::from_value::<RunScores>(bad)
            .unwrap_err()
            .to_string(),
        "score 2: `X` is not a score code (expected p, t, f or .)"
    );
}

#[test]
fn comparing_scores_is_comparing_the_runs() {
    let a = run(
        &["m", "k"],
        &[("q1", &["pass", "fail"]), ("q2", &["tie", "pass"])],
    );
    let b = run(
        &["k", "m"],
        &[("q2", &["fail", "pass"]), ("q1", &["pass", "fail"])],
    );
    for loss in [LossRule::Excluded, LossRule::AsFail] {
        let (sa, sb) = (RunScores::of(&a, loss), RunScores::of(&b, loss));
        // Through the wire form, as the page receives them from the two loader workers.
        let wire = |s: &RunScores| {
            serde_json::from_slice::<RunScores>(&serde_json::to_vec(s).unwrap()).unwrap()
        };
        assert_eq!(
            compare_scores(&wire(&sa), &wire(&sb), None),
            compare_runs(&a, &b, loss, None)
        );
    }
    // m: q1 pass → fail, q2 tie → pass: d = (−1, 0.5).
    let m = &compare_runs(&a, &b, LossRule::Excluded, None)
        .unwrap()
        .corpora[0]
        .models[0];
    assert_eq!((m.model.as_str(), m.delta.delta), ("m", Some(-0.25)));
}
