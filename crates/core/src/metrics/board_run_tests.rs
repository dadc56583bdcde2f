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

/// Two corpora pooled: `three` (q1–q4 above) and `two` (p1, p2: a passes, fails; d, only
/// here, passes both). One matrix of six questions; b and c have no cells in `two`, d none
/// in `three`.
#[test]
fn the_pooled_board_is_one_matrix_of_every_question() {
    let two = Corpus {
        name: "two".into(),
        results: serde_json::from_value(serde_json::json!([
            {"trace_id": "p1", "candidates": {"a": cell("pass"), "d": cell("pass")}},
            {"trace_id": "p2", "candidates": {"d": cell("pass"), "a": cell("fail")}},
        ]))
        .expect("fixture rows"),
        models: vec!["a".into(), "d".into()],
        ..Corpus::default()
    };
    let body = BundleBody {
        corpora: vec![corpus(), two],
        ..BundleBody::default()
    };
    let pooled = pooled_board(&body, LossRule::Excluded).expect("two corpora");
    assert_eq!(pooled.corpora, ["three", "two"]);
    assert_eq!(pooled.questions, 4 + 2);
    let rows: Vec<(&str, Option<f64>, usize)> = pooled
        .rows
        .iter()
        .map(|e| (e.row.model.as_str(), e.row.pass, e.row.n))
        .collect();
    // a: pass, fail, tie, pass | pass, fail; b: pass, pass (q3 null, q4 error); c: fail,
    // fail, tie; d: pass, pass. b and d tie at 1.0; b comes first (first seen).
    assert_eq!(
        rows,
        [
            ("b", Some(2.0 / 2.0), 2),
            ("d", Some(2.0 / 2.0), 2),
            ("a", Some((1.0 + 0.0 + 0.5 + 1.0 + 1.0 + 0.0) / 6.0), 6),
            ("c", Some((0.0 + 0.0 + 0.5) / 3.0), 3),
        ]
    );
    // b is the top model; d shares no scored question with it: no paired test.
    assert_eq!(pooled.rows[1].row.vs_top.n, 0);
    assert_eq!(pooled.rows[1].row.vs_top.p, None);
    // a against b over q1, q2: d = 1 − 1, 1 − 0 → mean 0.5, sd √0.5, se 0.5, z 1.
    let a = &pooled.rows[2].row.vs_top;
    assert_eq!((a.n, a.mean_diff), (2, Some((0.0 + 1.0) / 2.0)));
    assert_eq!(a.z, Some(1.0));
    // One corpus is not pooled.
    let one = BundleBody {
        corpora: vec![corpus()],
        ..BundleBody::default()
    };
    assert_eq!(pooled_board(&one, LossRule::Excluded), None);
}

#[test]
fn pooling_puts_each_model_s_cells_of_every_part_in_turn() {
    use crate::metrics::leaderboard::ModelColumn;
    let col = |m: &str, n: usize| ModelColumn {
        model: m.into(),
        cells: vec![None; n],
    };
    let pooled = pool_columns(vec![
        (2, vec![col("x", 2)]),
        (3, vec![col("y", 3), col("x", 3)]),
    ]);
    let shape: Vec<(&str, usize)> = pooled
        .iter()
        .map(|c| (c.model.as_str(), c.cells.len()))
        .collect();
    assert_eq!(shape, [("x", 5), ("y", 5)]);
}

#[test]
fn the_headline_corpus_has_the_most_questions_the_first_of_equals() {
    let board = |name: &str, questions| CorpusBoard {
        corpus: name.into(),
        questions,
        rows: Vec::new(),
    };
    let (a, b, c) = (board("dev", 136), board("board", 201), board("other", 201));
    assert_eq!(headline(&[&a, &b, &c]), Some("board"));
    assert_eq!(headline(&[&a]), Some("dev"));
    assert_eq!(headline(&[]), None);
}
