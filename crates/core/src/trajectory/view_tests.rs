//! The trajectory view's answers: every walk list, the open cell's place in one, the cell
//! with its labels (in force and recorded), re-labels, the corpus an address resolves to,
//! and the chooser's search.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use indexmap::IndexMap;

use super::view::{Choice, ChoicesQuery, TrajectoryAnswerer, TrajectoryQuery, choices};
use super::walk::{CellId, FailuresScope, WalkFrom, WalkPlace, walk_list};
use crate::bundle::{
    BundleBody, Cell, Corpus, FailureLabel, FmLabel, GateRow, Outcome, Question, RankingRow,
    ResultRow, ResultScore,
};
use crate::metrics::failures_view::Labelled;
use crate::overrides::Relabel;

fn cell(outcome: Outcome, answer: &str) -> Option<Cell> {
    Some(Cell {
        sqls: vec!["SELECT 1".into()],
        final_answer: Some(answer.into()),
        result_score: Some(ResultScore {
            outcome: Some(outcome),
            ..ResultScore::default()
        }),
        ..Cell::default()
    })
}

fn row(trace: &str, cells: Vec<(&str, Option<Cell>)>) -> ResultRow {
    ResultRow {
        trace_id: trace.into(),
        nl_question: Some(format!("results text of {trace}")),
        candidates: cells
            .into_iter()
            .map(|(m, c)| (m.into(), c))
            .collect::<IndexMap<_, _>>(),
        ..ResultRow::default()
    }
}

fn label(model: &str, trace: &str, sub: Option<&str>, cdf: f64) -> FailureLabel {
    FailureLabel {
        model: model.into(),
        trace_id: trace.into(),
        sub_mode: sub.map(Into::into),
        sub_mode_confidence: sub.map(|_| 0.9),
        correct_despite_fail: Some(cdf),
        ..FailureLabel::default()
    }
}

fn gate(model: &str, trace: &str, fired: u32) -> GateRow {
    GateRow {
        model: model.into(),
        trace_id: trace.into(),
        fired: Some(fired),
        ..GateRow::default()
    }
}

/// `dev`: q1 (m1 fail, m2 pass), q2 (m1 fail, m2 fail), q3 (m1 pass, m2 null); labels in
/// file order m1/q1 wrong_filter (cdf 0.85), m2/q1 wrong_filter (cdf 0.9, a pass cell),
/// m2/q2 wrong_join (cdf 0.2), m1/q2 no sub-mode (cdf 0.95); gate rows m1/q1 not fired,
/// m1/q2 fired, m2/q1 fired. `test`: q9 (m1 fail), no labels.
fn body() -> BundleBody {
    BundleBody {
        corpora: vec![
            Corpus {
                name: "dev".into(),
                questions: vec![Question {
                    trace_id: "q2".into(),
                    nl_question: "Top seller".into(),
                    gt_sql: vec!["SELECT seller".into()],
                    ..Question::default()
                }],
                results: vec![
                    row(
                        "q1",
                        vec![
                            ("m1", cell(Outcome::Fail, "a")),
                            ("m2", cell(Outcome::Pass, "b")),
                        ],
                    ),
                    row(
                        "q2",
                        vec![
                            ("m1", cell(Outcome::Fail, "c")),
                            ("m2", cell(Outcome::Fail, "d")),
                        ],
                    ),
                    row("q3", vec![("m1", cell(Outcome::Pass, "e")), ("m2", None)]),
                ],
                models: vec!["m1".into(), "m2".into()],
                rankings: vec![RankingRow {
                    trace_id: "q2".into(),
                    ..RankingRow::default()
                }],
                failure_labels: vec![
                    label("m1", "q1", Some("wrong_filter"), 0.85),
                    label("m2", "q1", Some("wrong_filter"), 0.9),
                    label("m2", "q2", Some("wrong_join"), 0.2),
                    label("m1", "q2", None, 0.95),
                ],
                fm_labels: vec![FmLabel {
                    model: "m1".into(),
                    trace_id: "q2".into(),
                    fm: "FM3".into(),
                    reason: Some("read the wrong column".into()),
                    ..FmLabel::default()
                }],
                gate_rows: vec![
                    gate("m1", "q1", 0),
                    gate("m1", "q2", 1),
                    gate("m2", "q1", 2),
                ],
                ..Corpus::default()
            },
            Corpus {
                name: "test".into(),
                results: vec![row("q9", vec![("m1", cell(Outcome::Fail, "z"))])],
                models: vec!["m1".into()],
                ..Corpus::default()
            },
        ],
        ..BundleBody::default()
    }
}

fn ids(v: &[(&str, &str)]) -> Vec<CellId> {
    v.iter()
        .map(|(m, t)| ((*m).to_owned(), (*t).to_owned()))
        .collect()
}

fn from(name: &str) -> WalkFrom {
    WalkFrom {
        from: Some(name.into()),
        cdf_threshold: 0.8,
        ..WalkFrom::default()
    }
}

#[test]
fn every_list_holds_its_cells_in_order() {
    let body = body();
    let b = Labelled::of(&body);
    let all = ids(&[
        ("m1", "q1"),
        ("m2", "q1"),
        ("m1", "q2"),
        ("m2", "q2"),
        ("m1", "q3"),
    ]);
    assert_eq!(walk_list(b, "dev", &WalkFrom::default()), all);
    // Labels in file order less m2/q1, whose cell is a pass.
    let failures = ids(&[("m1", "q1"), ("m2", "q2"), ("m1", "q2")]);
    assert_eq!(walk_list(b, "dev", &from("failures")), failures);
    // correct_despite_fail ≥ 0.8 and not a pass, highest first: 0.95, 0.85.
    assert_eq!(
        walk_list(b, "dev", &from("audit")),
        ids(&[("m1", "q2"), ("m1", "q1")])
    );
    let gated = WalkFrom {
        gate_model: Some("m1".into()),
        ..from("gate")
    };
    assert_eq!(walk_list(b, "dev", &gated), ids(&[("m1", "q2")]));
    let asked = WalkFrom {
        question: Some("q3".into()),
        ..from("question")
    };
    // q3's m2 cell is null.
    assert_eq!(walk_list(b, "dev", &asked), ids(&[("m1", "q3")]));
    // Without labels: every failed cell.
    assert_eq!(
        walk_list(b, "test", &from("failures")),
        ids(&[("m1", "q9")])
    );
    assert_eq!(
        walk_list(b, "nope", &WalkFrom::default()),
        Vec::<CellId>::new()
    );
}

#[test]
fn the_failures_list_keeps_what_the_failures_view_lists() {
    let body = body();
    let b = Labelled::of(&body);
    let scoped = |failures: FailuresScope| WalkFrom {
        failures,
        ..from("failures")
    };
    let wrong_filter = scoped(FailuresScope {
        filter: Some("sub_mode:wrong_filter".into()),
        ..FailuresScope::default()
    });
    // m2/q1 is wrong_filter too, but a pass.
    assert_eq!(walk_list(b, "dev", &wrong_filter), ids(&[("m1", "q1")]));
    assert_eq!(wrong_filter.label(), "failures · wrong_filter");
    let of_m2 = scoped(FailuresScope {
        models: vec!["m2".into()],
        ..FailuresScope::default()
    });
    assert_eq!(walk_list(b, "dev", &of_m2), ids(&[("m2", "q2")]));
    assert_eq!(of_m2.label(), "failures · models: m2");
    assert_eq!(from("failures").label(), "failures");
    assert_eq!(from("audit").label(), "audit queue");
}

#[test]
fn the_place_of_a_cell_names_its_neighbours() {
    let list = ids(&[("m1", "q1"), ("m2", "q2"), ("m1", "q2")]);
    let at = |m: &str, t: &str| WalkPlace::of(&list, Some(m), Some(t));
    let first = at("m1", "q1");
    assert_eq!((first.len, first.position, first.start), (3, Some(0), 0));
    assert_eq!(first.window, list);
    assert_eq!(first.neighbour(("m1", "q1"), -1), None);
    assert_eq!(first.neighbour(("m1", "q1"), 1), Some(list[1].clone()));
    // Keys pressed before the next answer walk on in the window.
    assert_eq!(first.neighbour(("m2", "q2"), 1), Some(list[2].clone()));
    assert_eq!(first.neighbour(("m1", "q2"), 1), None);
    assert_eq!(first.index_of(("m1", "q2")), Some(2));
    // Not in the list: no previous one, the next is the list's first.
    let outside = at("m1", "q3");
    assert_eq!(
        (outside.position, outside.start, outside.window.len()),
        (None, 0, 3)
    );
    assert_eq!(outside.neighbour(("m1", "q3"), -1), None);
    assert_eq!(outside.neighbour(("m1", "q3"), 1), Some(list[0].clone()));
    assert_eq!(WalkPlace::of(&[], None, None), WalkPlace::default());
}

#[test]
fn a_long_list_sends_a_window_of_cells_around_the_open_one() {
    let list: Vec<CellId> = (0..100)
        .map(|i| ("m".to_owned(), format!("q{i}")))
        .collect();
    // Index 50: 32 before it, it, 32 after it.
    let p = WalkPlace::of(&list, Some("m"), Some("q50"));
    assert_eq!(
        (p.len, p.position, p.start, p.window.len()),
        (100, Some(50), 18, 65)
    );
    assert_eq!(p.window[0].1, "q18");
    assert_eq!(p.neighbour(("m", "q18"), -1), None);
    assert_eq!(p.neighbour(("m", "q82"), 1), None);
    assert_eq!(
        p.neighbour(("m", "q81"), 1).map(|c| c.1).as_deref(),
        Some("q82")
    );
    // Near the end: the window stops at the list's end.
    let p = WalkPlace::of(&list, Some("m"), Some("q98"));
    assert_eq!((p.start, p.window.len()), (66, 34));
    assert_eq!(p.neighbour(("m", "q99"), 1), None);
    // Not in the list: its first 32.
    let p = WalkPlace::of(&list, Some("x"), Some("q1"));
    assert_eq!((p.position, p.start, p.window.len()), (None, 0, 32));
}

fn ask(model: &str, trace: &str, walk: WalkFrom) -> TrajectoryQuery {
    TrajectoryQuery {
        corpus: Some("dev".into()),
        model: Some(model.into()),
        trace: Some(trace.into()),
        walk,
        relabels: Vec::new(),
    }
}

#[test]
fn the_answer_carries_the_cell_in_full_with_everything_beside_it() {
    let body = body();
    let mut answerer = TrajectoryAnswerer::default();
    let a = answerer.answer(&body, &ask("m1", "q2", from("failures")));
    assert_eq!(a.corpus.as_deref(), Some("dev"));
    assert_eq!((a.place.len, a.place.position), (3, Some(2)));
    assert_eq!(
        a.place.neighbour(("m1", "q2"), -1),
        Some(("m2".to_owned(), "q2".to_owned()))
    );
    assert!(a.in_audit_queue);
    let o = a.opened.expect("the cell");
    assert_eq!(o.cell.final_answer.as_deref(), Some("c"));
    assert_eq!(o.question_text, "Top seller");
    assert_eq!(
        o.question.map(|q| q.gt_sql),
        Some(vec!["SELECT seller".to_owned()])
    );
    assert_eq!(o.ranking.map(|r| r.trace_id), Some("q2".to_owned()));
    assert_eq!(o.label, o.recorded_label);
    assert_eq!(o.label.map(|l| l.correct_despite_fail), Some(Some(0.95)));
    assert_eq!(
        o.fm.and_then(|f| f.reason).as_deref(),
        Some("read the wrong column")
    );
    assert_eq!(o.gate.map(|g| g.fired), Some(Some(1)));
    // Not in the audit queue (cdf 0.2); no FM label, no gate row.
    let a = answerer.answer(&body, &ask("m2", "q2", from("failures")));
    assert!(!a.in_audit_queue);
    let o = a.opened.expect("the cell");
    assert!(o.fm.is_none() && o.gate.is_none());
    // No annotated question: the results row's text.
    let o = answerer
        .answer(&body, &ask("m1", "q1", from("failures")))
        .opened
        .expect("the cell");
    assert_eq!(o.question_text, "results text of q1");
    assert!(o.question.is_none() && o.ranking.is_none());
    // A null cell: no cell, the place still answered.
    let a = answerer.answer(&body, &ask("m2", "q3", WalkFrom::default()));
    assert_eq!((a.opened, a.place.position, a.place.len), (None, None, 5));
}

#[test]
fn re_labels_are_in_force_in_the_labels_and_the_lists() {
    let body = body();
    let mut answerer = TrajectoryAnswerer::default();
    assert!(
        !answerer
            .answer(&body, &ask("m2", "q2", from("audit")))
            .in_audit_queue
    );
    let mut q = ask("m2", "q2", from("audit"));
    q.relabels = vec![Relabel {
        corpus: "dev".into(),
        label: label("m2", "q2", Some("wrong_table"), 0.99),
    }];
    let a = answerer.answer(&body, &q);
    // The kept audit list was rebuilt with the re-label: m2/q2 (0.99) now heads it.
    assert!(a.in_audit_queue);
    assert_eq!((a.place.position, a.place.len), (Some(0), 3));
    let o = a.opened.expect("the cell");
    assert_eq!(
        o.label.and_then(|l| l.sub_mode).as_deref(),
        Some("wrong_table")
    );
    assert_eq!(
        o.recorded_label.and_then(|l| l.sub_mode).as_deref(),
        Some("wrong_join")
    );
    // Without the re-labels again: the bundle's own.
    let a = answerer.answer(&body, &ask("m2", "q2", from("audit")));
    assert_eq!((a.in_audit_queue, a.place.len), (false, 2));
}

#[test]
fn an_address_resolves_to_the_corpus_holding_its_cell() {
    let body = body();
    let mut answerer = TrajectoryAnswerer::default();
    let mut q = ask("m1", "q9", WalkFrom::default());
    q.corpus = Some("nope".into());
    let a = answerer.answer(&body, &q);
    assert_eq!(a.corpus.as_deref(), Some("test"));
    assert_eq!(
        a.opened.map(|o| o.cell.final_answer),
        Some(Some("z".to_owned()))
    );
    // Nothing named: the first corpus, its whole list, no cell.
    let a = answerer.answer(&body, &TrajectoryQuery::default());
    assert_eq!(a.corpus.as_deref(), Some("dev"));
    assert_eq!(
        (a.place.len, a.place.window.first()),
        (5, Some(&("m1".to_owned(), "q1".to_owned())))
    );
    assert!(a.opened.is_none() && !a.in_audit_queue);
    let none =
        TrajectoryAnswerer::default().answer(&BundleBody::default(), &TrajectoryQuery::default());
    assert_eq!(none.corpus, None);
}

#[test]
fn the_chooser_searches_text_and_trace_ids_of_the_models_questions() {
    let body = body();
    let q = |model: &str, search: &str, max: usize| ChoicesQuery {
        corpus: "dev".into(),
        model: model.into(),
        search: search.into(),
        max,
    };
    let traces = |v: Vec<Choice>| v.into_iter().map(|c| c.trace).collect::<Vec<_>>();
    assert_eq!(traces(choices(&body, &q("m1", "", 20))), ["q1", "q2", "q3"]);
    // m2's q3 cell is null.
    assert_eq!(traces(choices(&body, &q("m2", "", 20))), ["q1", "q2"]);
    assert_eq!(traces(choices(&body, &q("m1", "", 2))), ["q1", "q2"]);
    // The annotated text, any case; a trace id.
    let top = choices(&body, &q("m1", "TOP", 20));
    assert_eq!(
        top,
        [Choice {
            trace: "q2".into(),
            text: "Top seller".into(),
            outcome: Some(Outcome::Fail),
        }]
    );
    // Each with the model's outcome: m1 fails q1, q2 and passes q3.
    let outcomes: Vec<Option<Outcome>> = choices(&body, &q("m1", "", 20))
        .into_iter()
        .map(|c| c.outcome)
        .collect();
    assert_eq!(
        outcomes,
        [
            Some(Outcome::Fail),
            Some(Outcome::Fail),
            Some(Outcome::Pass)
        ]
    );
    assert_eq!(traces(choices(&body, &q("m1", "Q3", 20))), ["q3"]);
    assert_eq!(
        choices(&body, &q("m1", "results text of q1", 20))[0].trace,
        "q1"
    );
    assert!(
        choices(
            &body,
            &ChoicesQuery {
                corpus: "nope".into(),
                ..q("m1", "", 20)
            }
        )
        .is_empty()
    );
}
