//! A three-model corpus: stepping the run gives exactly `board_section`'s rows.

// Expected values are written as arithmetic (e.g. `2.5 / 4.0` = scores 1, 0, 0.5, 1).
#![allow(clippy::eq_op)]

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use super::*;
use crate::metrics::report_board::board_section;

fn cell(outcome: &str) -> serde_json::Value {
    serde_json::json!({"sqls": ["SELECT 1"], "turns": 2, "result_score": {"outcome": outcome}})
}

/// a: pass, fail, tie, pass; b: pass, pass, null, error; c: fail, (no key), fail, tie.
/// q2 lists `b` before `a` (the lookup by key), q2 has no `c`.
fn corpus() -> Corpus {
    let err =
        serde_json::json!({"error": "boom", "turns": 1, "result_score": {"outcome": "error"}});
    let rows = serde_json::json!([
        {"trace_id": "q1", "candidates": {"a": cell("pass"), "b": cell("pass"), "c": cell("fail")}},
        {"trace_id": "q2", "candidates": {"b": cell("pass"), "a": cell("fail")}},
        {"trace_id": "q3", "candidates": {"a": cell("tie"), "b": null, "c": cell("fail")}},
        {"trace_id": "q4", "candidates": {"a": cell("pass"), "b": err, "c": cell("tie")}},
    ]);
    Corpus {
        name: "three".into(),
        results: serde_json::from_value(rows).expect("fixture rows"),
        models: vec!["a".into(), "b".into(), "c".into()],
        ..Corpus::default()
    }
}

#[test]
fn steps_equal_the_one_shot_board_with_exact_pass_rates() {
    let body = BundleBody::default();
    let corpus = corpus();
    let (whole, _) = board_section(&body, &corpus, LossRule::Excluded);
    let passes: Vec<(&str, Option<f64>, usize)> = whole
        .iter()
        .map(|e| (e.row.model.as_str(), e.row.pass, e.row.n))
        .collect();
    assert_eq!(
        passes,
        vec![
            ("b", Some(2.0 / 2.0), 2),
            ("a", Some(2.5 / 4.0), 4),
            ("c", Some(0.5 / 3.0), 3),
        ]
    );
    // b is the top model: its own paired test has p = 1.
    assert_eq!(whole[0].row.vs_top.p, Some(1.0));
    assert_eq!(crate::metrics::report_board::top_model(&whole), Some("b"));
    assert_eq!(whole[0].row.vs_top.mean_diff, Some(0.0));

    let mut run = BoardRun::new(&body, &corpus, LossRule::Excluded);
    assert_eq!((run.len(), run.done()), (6, 0));
    let mut progress = Vec::new();
    while !run.step(1) {
        progress.push(run.done());
    }
    assert_eq!(progress, vec![1, 2, 3, 4, 5]);
    assert_eq!(run.finish(), whole);

    let mut run = BoardRun::new(&body, &corpus, LossRule::Excluded);
    assert_eq!((run.step(4), run.done()), (false, 4));
    assert_eq!(run.finish(), whole);
    assert_eq!(
        BoardRun::new(&body, &corpus, LossRule::Excluded).finish(),
        whole
    );
}

#[test]
fn a_corpus_without_models_is_done_at_once() {
    let body = BundleBody::default();
    let corpus = Corpus::default();
    let mut run = BoardRun::new(&body, &corpus, LossRule::Excluded);
    assert!(run.is_empty());
    assert!(run.step(1));
    assert_eq!(run.finish(), Vec::new());
}

#[test]
fn boards_are_every_corpus_with_results_in_body_order() {
    let mut second = corpus();
    second.name = "second".into();
    second.results.truncate(2);
    let body = BundleBody {
        corpora: vec![
            Corpus {
                name: "empty".into(),
                ..Corpus::default()
            },
            corpus(),
            second.clone(),
        ],
        ..BundleBody::default()
    };
    let got = boards(&body, LossRule::Excluded);
    let names: Vec<(&str, usize)> = got
        .iter()
        .map(|b| (b.corpus.as_str(), b.questions))
        .collect();
    assert_eq!(names, [("three", 4), ("second", 2)]);
    assert_eq!(
        got[1].rows,
        BoardRun::new(&body, &second, LossRule::Excluded).finish()
    );
    // On q1, q2: b passes both (1.0), a passes one (2 scored: 0.5), c fails q1 (0.0).
    let pass: Vec<(&str, Option<f64>)> = got[1]
        .rows
        .iter()
        .map(|e| (e.row.model.as_str(), e.row.pass))
        .collect();
    assert_eq!(
        pass,
        [
            ("b", Some(2.0 / 2.0)),
            ("a", Some(1.0 / 2.0)),
            ("c", Some(0.0 / 1.0))
        ]
    );
}
