//! The matrix's marks, filters, sorts, pages and re-labels, on a corpus small enough to write
//! every expected row by hand.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use indexmap::IndexMap;

use super::*;
use crate::bundle::{Corpus, FailureLabel, ModelInfo, Question, ResultRow, ResultScore};

fn cell(outcome: Option<&str>, error: Option<&str>) -> Option<Cell> {
    Some(Cell {
        result_score: outcome.map(|o| ResultScore {
            outcome: Some(Outcome::from_str_lossless(o)),
            ..ResultScore::default()
        }),
        error: error.map(Into::into),
        ..Cell::default()
    })
}

fn row(trace: &str, cells: [(&str, Option<Cell>); 3]) -> ResultRow {
    ResultRow {
        trace_id: trace.into(),
        candidates: cells
            .into_iter()
            .map(|(m, c)| (m.into(), c))
            .collect::<IndexMap<_, _>>(),
        ..ResultRow::default()
    }
}

fn label(model: &str, trace: &str, sub: &str) -> FailureLabel {
    FailureLabel {
        model: model.into(),
        trace_id: trace.into(),
        sub_mode: Some(sub.into()),
        ..FailureLabel::default()
    }
}

/// `dev`, models a, b, c (b displayed "Model B"):
/// q1: pass, fail (wrong_join), tie;
/// q2: fail (wrong_filter), max-turns fail, pass;
/// q3: pass, pass, no run;
/// q4: error, loss, pass with a max-turns error.
/// q3's text is the results row's own (no annotated question); `empty` has no results.
fn body() -> BundleBody {
    let results = vec![
        row(
            "q1",
            [
                ("a", cell(Some("pass"), None)),
                ("b", cell(Some("fail"), None)),
                ("c", cell(Some("tie"), None)),
            ],
        ),
        row(
            "q2",
            [
                ("a", cell(Some("fail"), None)),
                ("b", cell(Some("fail"), Some("max turns (60)"))),
                ("c", cell(Some("pass"), None)),
            ],
        ),
        ResultRow {
            nl_question: Some("Which region grew most?".into()),
            ..row(
                "q3",
                [
                    ("a", cell(Some("pass"), None)),
                    ("b", cell(Some("pass"), None)),
                    ("c", None),
                ],
            )
        },
        row(
            "q4",
            [
                ("a", cell(Some("error"), None)),
                ("b", cell(Some("loss"), None)),
                ("c", cell(Some("pass"), Some("max turns (60)"))),
            ],
        ),
    ];
    let question = |t: &str, text: &str| Question {
        trace_id: t.into(),
        nl_question: text.into(),
        ..Question::default()
    };
    BundleBody {
        models: vec![ModelInfo {
            key: "b".into(),
            display_name: "Model B".into(),
        }],
        corpora: vec![
            Corpus {
                name: "empty".into(),
                ..Corpus::default()
            },
            Corpus {
                name: "dev".into(),
                models: vec!["a".into(), "b".into(), "c".into()],
                questions: vec![
                    question("q1", "How many orders in 2024?"),
                    question("q2", "Top seller by revenue"),
                    question("q4", "Orders per region"),
                ],
                results,
                failure_labels: vec![
                    label("b", "q1", "wrong_join"),
                    label("a", "q2", "wrong_filter"),
                ],
                ..Corpus::default()
            },
        ],
        ..BundleBody::default()
    }
}

fn traces(rows: &[MatrixRow]) -> Vec<&str> {
    rows.iter().map(|r| r.trace_id.as_str()).collect()
}

#[test]
fn marks_of_every_kind_of_cell() {
    assert_eq!(Mark::of(None), Mark::Missing);
    assert_eq!(Mark::of(cell(Some("pass"), None).as_ref()), Mark::Pass);
    // A pass stays a pass whatever its error says; a fail that ran out of turns does not.
    assert_eq!(
        Mark::of(cell(Some("pass"), Some("max turns (60)")).as_ref()),
        Mark::Pass
    );
    assert_eq!(
        Mark::of(cell(Some("fail"), Some("max turns (60)")).as_ref()),
        Mark::TurnLimited
    );
    assert_eq!(
        Mark::of(cell(None, Some("max turns (60)")).as_ref()),
        Mark::TurnLimited
    );
    assert_eq!(
        Mark::of(cell(Some("fail"), Some("max output tokens")).as_ref()),
        Mark::Fail
    );
    assert_eq!(Mark::of(cell(None, Some("timeout")).as_ref()), Mark::Error);
    assert_eq!(Mark::of(cell(Some("error"), None).as_ref()), Mark::Error);
    assert_eq!(Mark::of(cell(Some("loss"), None).as_ref()), Mark::Loss);
    assert_eq!(Mark::of(cell(Some("draw"), None).as_ref()), Mark::Unknown);
    assert_eq!(Mark::of(cell(None, None).as_ref()), Mark::Unknown);
    for m in Mark::ALL {
        assert_eq!(Mark::from_code(m.code()), Some(m));
    }
    assert_eq!(Mark::from_code('?'), None);
}

#[test]
fn the_first_corpus_with_results_in_corpus_order() {
    let body = body();
    let mut a = MatrixAnswerer::default();
    let q = MatrixQuery::default();
    let answer = a.answer(&body, &q);
    assert_eq!(answer.corpora, ["dev"]);
    assert_eq!(answer.corpus.as_deref(), Some("dev"));
    assert_eq!(
        answer.models,
        [
            ("a".to_owned(), "a".to_owned()),
            ("b".to_owned(), "Model B".to_owned()),
            ("c".to_owned(), "c".to_owned())
        ]
    );
    assert_eq!(answer.sub_modes, ["wrong_join", "wrong_filter"]);
    assert_eq!((answer.questions, answer.rows), (4, 4));
    // 12 cells: pass 5 (q1 a, q2 c, q3 a b, q4 c), tie 1, fail 2 (q1 b, q2 a), loss 1,
    // turn-limited 1 (q2 b), error 1 (q4 a), no run 1 (q3 c).
    assert_eq!(
        answer.counts,
        [
            (Mark::Pass, 5),
            (Mark::Tie, 1),
            (Mark::Fail, 2),
            (Mark::Loss, 1),
            (Mark::TurnLimited, 1),
            (Mark::Error, 1),
            (Mark::Missing, 1)
        ]
    );
    let rows = a.page(&body, &q, 0, 10);
    assert_eq!(traces(&rows), ["q1", "q2", "q3", "q4"]);
    let marks: Vec<&str> = rows.iter().map(|r| r.marks.as_str()).collect();
    assert_eq!(marks, ["pft", "fxp", "pp-", "elp"]);
    assert_eq!(rows[0].question, "How many orders in 2024?");
    // q3 has no annotated question: the results row's text.
    assert_eq!(rows[2].question, "Which region grew most?");
    assert_eq!((rows[0].passed, rows[0].tied), (1, 1));
    assert_eq!(rows[0].sub_modes, [(1, "wrong_join".to_owned())]);
    assert_eq!(rows[0].sub_mode(1), Some("wrong_join"));
    assert_eq!(rows[0].sub_mode(0), None);
    assert_eq!(rows[1].mark(1), Mark::TurnLimited);
    assert_eq!(rows[1].mark(7), Mark::Missing);
    // Pages are slices; past the end is empty.
    assert_eq!(traces(&a.page(&body, &q, 1, 3)), ["q2", "q3"]);
    assert!(a.page(&body, &q, 9, 12).is_empty());
    // An unknown corpus is the first one with results too.
    let other = MatrixQuery {
        corpus: Some("nope".into()),
        ..MatrixQuery::default()
    };
    assert_eq!(a.answer(&body, &other).corpus.as_deref(), Some("dev"));
    // A corpus without results is not offered.
    let empty = MatrixQuery {
        corpus: Some("empty".into()),
        ..MatrixQuery::default()
    };
    assert_eq!(a.answer(&body, &empty).corpus.as_deref(), Some("dev"));
}

#[test]
fn no_results_no_rows() {
    let body = BundleBody {
        corpora: vec![Corpus {
            name: "empty".into(),
            ..Corpus::default()
        }],
        ..BundleBody::default()
    };
    let mut a = MatrixAnswerer::default();
    let answer = a.answer(&body, &MatrixQuery::default());
    assert_eq!(answer.corpus, None);
    assert!(answer.corpora.is_empty() && answer.models.is_empty());
    assert_eq!(answer.rows, 0);
    assert!(a.page(&body, &MatrixQuery::default(), 0, 64).is_empty());
}

#[test]
fn filters_models_failures_sub_mode_and_search() {
    let body = body();
    let mut a = MatrixAnswerer::default();
    // Models a and c only: columns in the corpus's order whatever the query's order.
    let two = MatrixQuery {
        models: vec!["c".into(), "a".into()],
        ..MatrixQuery::default()
    };
    let answer = a.answer(&body, &two);
    let keys: Vec<&str> = answer.models.iter().map(|(k, _)| k.as_str()).collect();
    assert_eq!(keys, ["a", "c"]);
    // b's label is not a shown model's: only a's sub-mode is offered.
    assert_eq!(answer.sub_modes, ["wrong_filter"]);
    let marks: Vec<String> = a
        .page(&body, &two, 0, 9)
        .into_iter()
        .map(|r| r.marks)
        .collect();
    assert_eq!(marks, ["pt", "fp", "p-", "ep"]);
    // Failures only: some shown model failed (fail, loss, turn-limited; an error is not).
    let failing = MatrixQuery {
        failures_only: true,
        ..MatrixQuery::default()
    };
    assert_eq!(traces(&a.page(&body, &failing, 0, 9)), ["q1", "q2", "q4"]);
    let failing_ac = MatrixQuery {
        failures_only: true,
        ..two.clone()
    };
    assert_eq!(traces(&a.page(&body, &failing_ac, 0, 9)), ["q2"]);
    // A sub-mode of the labels in force.
    let join = MatrixQuery {
        sub_mode: Some("wrong_join".into()),
        ..MatrixQuery::default()
    };
    assert_eq!(traces(&a.page(&body, &join, 0, 9)), ["q1"]);
    assert_eq!(a.answer(&body, &join).rows, 1);
    // Search: trace id or text, case-insensitive, trimmed.
    let search = |s: &str| MatrixQuery {
        search: s.into(),
        ..MatrixQuery::default()
    };
    assert_eq!(
        traces(&a.page(&body, &search(" ORDERS "), 0, 9)),
        ["q1", "q4"]
    );
    assert_eq!(traces(&a.page(&body, &search("q3"), 0, 9)), ["q3"]);
    assert_eq!(
        traces(&a.page(&body, &search("region"), 0, 9)),
        ["q3", "q4"]
    );
    assert_eq!(a.answer(&body, &search("nothing like it")).rows, 0);
}

#[test]
fn hardest_and_easiest_first_ties_in_corpus_order() {
    let body = body();
    let mut a = MatrixAnswerer::default();
    // Doubled scores (pass 2, tie 1): q1 2 + 1 = 3, q2 2, q3 2 + 2 = 4, q4 2 (c's pass with
    // a max-turns error is a pass; an error and a loss score nothing).
    let sorted = |sort| MatrixQuery {
        sort,
        ..MatrixQuery::default()
    };
    assert_eq!(
        traces(&a.page(&body, &sorted(MatrixSort::Hardest), 0, 9)),
        ["q2", "q4", "q1", "q3"]
    );
    assert_eq!(
        traces(&a.page(&body, &sorted(MatrixSort::Easiest), 0, 9)),
        ["q3", "q1", "q2", "q4"]
    );
    // Over models a and c: q1 3, q2 2, q3 2 (c has no run), q4 2: the three at 2 in
    // corpus order.
    let ac = MatrixQuery {
        models: vec!["a".into(), "c".into()],
        sort: MatrixSort::Hardest,
        ..MatrixQuery::default()
    };
    assert_eq!(traces(&a.page(&body, &ac, 0, 9)), ["q2", "q3", "q4", "q1"]);
    for s in [MatrixSort::Corpus, MatrixSort::Hardest, MatrixSort::Easiest] {
        assert_eq!(MatrixSort::from_key(s.key()), Some(s));
    }
    assert_eq!(MatrixSort::from_key("random"), None);
}

#[test]
fn relabels_in_force_change_the_sub_modes() {
    let body = body();
    let mut a = MatrixAnswerer::default();
    let join = MatrixQuery {
        sub_mode: Some("wrong_join".into()),
        ..MatrixQuery::default()
    };
    assert_eq!(traces(&a.page(&body, &join, 0, 9)), ["q1"]);
    // a/q2 re-labelled wrong_join: both rows now; b/q1 re-labelled wrong_table: q1 leaves.
    let relabels = vec![
        Relabel {
            corpus: "dev".into(),
            label: label("a", "q2", "wrong_join"),
        },
        Relabel {
            corpus: "dev".into(),
            label: label("b", "q1", "wrong_table"),
        },
    ];
    let relabelled = MatrixQuery {
        relabels,
        ..join.clone()
    };
    assert_eq!(traces(&a.page(&body, &relabelled, 0, 9)), ["q2"]);
    assert_eq!(
        a.answer(&body, &relabelled).sub_modes,
        ["wrong_table", "wrong_join"]
    );
    // Without them again: the bundle's own labels.
    assert_eq!(traces(&a.page(&body, &join, 0, 9)), ["q1"]);
}
