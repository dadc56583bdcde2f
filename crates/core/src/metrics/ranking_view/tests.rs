//! The ranking view's answers: scope, shown corpus, pooled corpus, rows without scores and
//! one question in full, with values worked out by hand.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use super::*;
use crate::bundle::{Cell, Corpus, Outcome, RankingRow, ResultRow, ResultScore};
use crate::metrics::ranking_metrics::RECALL;
use crate::metrics::report_retrieval::retrieval_section;

fn ranking(id: &str, ranked: &[&str], gold: &[&str]) -> RankingRow {
    RankingRow {
        trace_id: id.into(),
        gold: gold.iter().map(|&g| g.into()).collect(),
        ranked: ranked.iter().map(|&t| t.into()).collect(),
        // 0.9, 0.6, 0.3 down the ranking.
        scores: ranked
            .iter()
            .enumerate()
            .map(|(i, &t)| (t.into(), 0.9 - 0.3 * i as f64))
            .collect(),
        ..RankingRow::default()
    }
}

fn cell(outcome: Outcome) -> Option<Cell> {
    Some(Cell {
        result_score: Some(ResultScore {
            outcome: Some(outcome),
            ..ResultScore::default()
        }),
        ..Cell::default()
    })
}

/// Corpus `a`: q1 ranks [x, y, z] with gold {y}; q2 ranks [x, y, z] with gold {x}.
/// Corpus `b`: q3 ranks [z, x, y] with gold {y}, and one result row with two cells.
/// Corpus `c`: no ranking rows.
fn body() -> BundleBody {
    let xyz = ["ns.x", "ns.y", "ns.z"];
    BundleBody {
        universe: xyz.iter().map(|t| t.to_string()).collect(),
        corpora: vec![
            Corpus {
                name: "a".into(),
                rankings: vec![
                    ranking("q1", &xyz, &["ns.y"]),
                    ranking("q2", &xyz, &["ns.x"]),
                ],
                ..Corpus::default()
            },
            Corpus {
                name: "b".into(),
                rankings: vec![ranking("q3", &["ns.z", "ns.x", "ns.y"], &["ns.y"])],
                results: vec![ResultRow {
                    trace_id: "q3".into(),
                    candidates: [
                        ("m2".into(), cell(Outcome::Fail)),
                        ("m1".into(), Some(Cell::default())),
                        ("m3".into(), None),
                    ]
                    .into_iter()
                    .collect(),
                    ..ResultRow::default()
                }],
                ..Corpus::default()
            },
            Corpus {
                name: "c".into(),
                ..Corpus::default()
            },
        ],
        ..BundleBody::default()
    }
}

fn query(corpus: Option<&str>, k: usize) -> RankingQuery {
    RankingQuery {
        corpus: corpus.map(str::to_owned),
        gold: GoldRule::Harness,
        k,
        threshold: 0.5,
    }
}

fn no_matcher() -> Option<TableMatcher> {
    None
}

#[test]
fn the_scope_lists_corpora_with_rankings_and_the_longest_ranking() {
    let scope = RankingScope::of(&body());
    assert_eq!(scope.names, ["a", "b"]);
    assert_eq!(scope.k_limit, 3);
    assert!(!scope.parser_available, "no namespaces");
    assert_eq!(scope.shown(Some("b")).as_deref(), Some("b"));
    // A corpus without rankings, or none chosen, pools the two.
    assert_eq!(scope.shown(Some("c")), None);
    assert_eq!(scope.shown(None), None);
    let one = RankingScope {
        names: vec!["a".into()],
        ..scope
    };
    assert_eq!(one.shown(Some("zzz")).as_deref(), Some("a"));
}

#[test]
fn an_answer_is_the_cli_section_and_rows_without_scores() {
    let body = body();
    let mut answerer = RankingAnswerer::default();
    let answer = answerer.answer(&body, &no_matcher, &query(Some("a"), 2));
    assert_eq!(answer.shown.as_deref(), Some("a"));
    let section = answer.section.expect("a section");
    // recall@1: q1 0, q2 1 → 1/2; recall@2: both 1.
    assert_eq!(section.curves.of(&RECALL), [0.5, 1.0]);
    assert_eq!(section.curves.k, [1, 2]);
    let opts = ReportOptions {
        k_max: 2,
        confidence_threshold: 0.5,
        ..ReportOptions::default()
    };
    let cli = retrieval_section(&body, &body.corpora[0], &opts);
    assert_eq!(section, cli);
    let ids: Vec<&str> = answer.rows.iter().map(|r| r.trace_id.as_str()).collect();
    assert_eq!(ids, ["q1", "q2"]);
    assert!(answer.rows.iter().all(|r| r.scores.is_empty()));
    // q1's gold y is at rank 2; its high-confidence set at t = 0.5 is {x (0.9), y (0.6)}.
    assert_eq!(answer.rows[0].gold_ranks, [2]);
    assert_eq!(answer.rows[0].high_confidence, ["ns.x", "ns.y"]);
    // k above the universe is clamped to it.
    let wide = answerer.answer(&body, &no_matcher, &query(Some("a"), 99));
    assert_eq!(wide.section.expect("section").curves.k, [1, 2, 3]);
}

#[test]
fn no_choice_pools_every_corpus_with_rankings() {
    let body = body();
    let answer = RankingAnswerer::default().answer(&body, &no_matcher, &query(None, 2));
    assert_eq!(answer.shown, None);
    let section = answer.section.expect("a section");
    // recall@2: q1 1, q2 1, q3 0 (y at rank 3) → 2/3.
    assert_eq!(section.curves.n_questions, 3);
    assert_eq!(section.curves.of(&RECALL)[1], 2.0 / 3.0);
    assert_eq!(answer.rows.len(), 3);
}

#[test]
fn a_question_comes_with_its_scores_and_its_cells() {
    let body = body();
    let q = query(Some("b"), 3);
    let full = RankingAnswerer::default().question(&body, &no_matcher, &q, "q3");
    let row = full.row.expect("q3 is ranked");
    let scores: Vec<(&str, f64)> = row.scores.iter().map(|s| (s.table.as_str(), s.p)).collect();
    assert_eq!(
        scores,
        [("ns.z", 0.9), ("ns.x", 0.9 - 0.3), ("ns.y", 0.9 - 0.6)]
    );
    // Cells in candidate order; a cell without a score is "unscored", a null cell is left out.
    let cells: Vec<(&str, &str, &str)> = full
        .cells
        .iter()
        .map(|(c, m, o)| (c.as_str(), m.as_str(), o.as_str()))
        .collect();
    assert_eq!(cells, [("b", "m2", "fail"), ("b", "m1", "unscored")]);
    let missing = RankingAnswerer::default().question(&body, &no_matcher, &q, "q1");
    assert_eq!(missing.row, None, "q1 is in corpus a, not b");
}

#[test]
fn a_bundle_without_rankings_answers_with_an_empty_scope() {
    let body = BundleBody::default();
    let answer = RankingAnswerer::default().answer(&body, &no_matcher, &query(None, 5));
    assert!(answer.scope.names.is_empty());
    assert_eq!(answer.section, None);
    assert!(answer.rows.is_empty());
}

#[test]
fn an_answer_survives_json_exactly() {
    let body = body();
    let answer = RankingAnswerer::default().answer(&body, &no_matcher, &query(None, 3));
    let json = serde_json::to_vec(&answer).unwrap();
    let back: RankingAnswer = serde_json::from_slice(&json).unwrap();
    assert_eq!(back, answer);
}
