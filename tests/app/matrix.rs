//! The question × model matrix in the browser: cells carry their outcome and trajectory,
//! the filters and the sort follow the URL state, both axes are virtualised on a large
//! matrix, a cell opens its trajectory, and text from the bundle stays text.

use std::sync::Arc;

use indexmap::IndexMap;
use leptos::prelude::*;
use runlens_core::bundle::{
    Bundle, BundleBody, Cell, Corpus, FailureLabel, Outcome, Provenance, Question, ResultRow,
    ResultScore,
};
use runlens_core::metrics::matrix_view::MatrixSort;
use runlens_web::pages::MatrixView;
use runlens_web::pages::matrix::grid::{column_range, question_width};
use runlens_web::state::{Tab, UrlState, ViewState};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

const HOSTILE: &str = "<img src=x onerror=alert(1)> revenue";

fn document() -> web_sys::Document {
    web_sys::window().unwrap().document().unwrap()
}

fn cell(outcome: &str, error: Option<&str>) -> Option<Cell> {
    Some(Cell {
        result_score: Some(ResultScore {
            outcome: Some(Outcome::from_str_lossless(outcome)),
            ..ResultScore::default()
        }),
        error: error.map(Into::into),
        ..Cell::default()
    })
}

/// `dev`, models m1, m2: q1 pass/fail (m2 wrong_join), q2 fail/pass, q3 pass/pass,
/// q4 tie/max-turns fail.
fn small() -> Bundle {
    let outcomes = [
        ("q1", cell("pass", None), cell("fail", None)),
        ("q2", cell("fail", None), cell("pass", None)),
        ("q3", cell("pass", None), cell("pass", None)),
        (
            "q4",
            cell("tie", None),
            cell("fail", Some("max turns (60)")),
        ),
    ];
    let results = outcomes
        .into_iter()
        .map(|(t, a, b)| ResultRow {
            trace_id: t.into(),
            candidates: IndexMap::from([("m1".into(), a), ("m2".into(), b)]),
            ..ResultRow::default()
        })
        .collect();
    let question = |t: &str, text: &str| Question {
        trace_id: t.into(),
        nl_question: text.into(),
        ..Question::default()
    };
    let body = BundleBody {
        corpora: vec![Corpus {
            name: "dev".into(),
            models: vec!["m1".into(), "m2".into()],
            questions: vec![
                question("q1", HOSTILE),
                question("q2", "How many accounts?"),
                question("q3", "Top seller"),
                question("q4", "Revenue by month"),
            ],
            results,
            failure_labels: vec![FailureLabel {
                model: "m2".into(),
                trace_id: "q1".into(),
                sub_mode: Some("wrong_join".into()),
                ..FailureLabel::default()
            }],
            ..Corpus::default()
        }],
        ..BundleBody::default()
    };
    Bundle::new(Provenance::default(), body)
}

/// 3,000 questions × 60 models; model `mJ` passes question `i` when `(i + J)` is even.
fn large() -> Bundle {
    let models: Vec<String> = (0..60).map(|j| format!("m{j}")).collect();
    let results = (0..3_000)
        .map(|i| ResultRow {
            trace_id: format!("q{i}"),
            candidates: models
                .iter()
                .enumerate()
                .map(|(j, m)| {
                    let o = if (i + j) % 2 == 0 { "pass" } else { "fail" };
                    (m.as_str().into(), cell(o, None))
                })
                .collect(),
            ..ResultRow::default()
        })
        .collect();
    let body = BundleBody {
        corpora: vec![Corpus {
            name: "big".into(),
            models,
            results,
            ..Corpus::default()
        }],
        ..BundleBody::default()
    };
    Bundle::new(Provenance::default(), body)
}

fn mount(bundle: Bundle, state: ViewState) -> (web_sys::HtmlElement, UrlState) {
    let host: web_sys::HtmlElement = document().create_element("div").unwrap().unchecked_into();
    document().body().unwrap().append_child(&host).unwrap();
    let st = UrlState::detached(state);
    let b = Arc::new(bundle);
    std::mem::forget(leptos::mount::mount_to(host.clone(), move || {
        provide_context(st);
        view! { <MatrixView bundle=b.clone() /> }
    }));
    (host, st)
}

fn matrix_state() -> ViewState {
    ViewState {
        tab: Tab::Matrix,
        ..ViewState::default()
    }
}

async fn sleep_10ms() {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        let _ = web_sys::window()
            .unwrap()
            .set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, 10);
    });
    let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
}

/// Waits (at most 3 s) until the newest question is answered and every row in view is in.
async fn settled(host: &web_sys::HtmlElement) {
    let done = || {
        let q = |sel: &str| host.query_selector(sel).unwrap().is_some();
        q("[data-testid='matrix-grid']")
            && !q("[data-testid='matrix-view'][data-pending='true']")
            && !q(".mx-row.pending")
    };
    for _ in 0..300 {
        leptos::task::tick().await;
        if done() {
            return;
        }
        sleep_10ms().await;
    }
    panic!("the matrix did not settle");
}

fn attr_all(host: &web_sys::HtmlElement, selector: &str, name: &str) -> Vec<String> {
    let list = host.query_selector_all(selector).unwrap();
    (0..list.length())
        .map(|i| {
            list.item(i)
                .unwrap()
                .unchecked_into::<web_sys::Element>()
                .get_attribute(name)
                .unwrap_or_default()
        })
        .collect()
}

fn value(host: &web_sys::HtmlElement, metric: &str) -> String {
    host.query_selector(&format!("[data-metric='{metric}']"))
        .unwrap()
        .unwrap_or_else(|| panic!("no {metric}"))
        .get_attribute("data-value")
        .unwrap()
}

#[wasm_bindgen_test]
async fn cells_carry_outcome_and_trajectory_and_filters_follow_the_state() {
    let (host, st) = mount(small(), matrix_state());
    settled(&host).await;
    assert_eq!(value(&host, "matrix:rows"), "4");
    // 8 cells: pass 4, tie 1, fail 2, turn-limited 1.
    assert_eq!(value(&host, "matrix:cells:pass"), "4");
    assert_eq!(value(&host, "matrix:cells:tie"), "1");
    assert_eq!(value(&host, "matrix:cells:fail"), "2");
    assert_eq!(value(&host, "matrix:cells:turn_limited"), "1");
    assert_eq!(
        attr_all(&host, ".mx-cell", "data-outcome"),
        [
            "pass",
            "fail",
            "fail",
            "pass",
            "pass",
            "pass",
            "tie",
            "turn_limited"
        ]
    );
    assert_eq!(
        attr_all(&host, ".mx-cell", "data-trajectory"),
        [
            "m1/q1", "m2/q1", "m1/q2", "m2/q2", "m1/q3", "m2/q3", "m1/q4", "m2/q4"
        ]
    );
    assert_eq!(
        attr_all(&host, ".mx-cell[data-sub-mode]", "data-trajectory"),
        ["m2/q1"]
    );
    // The question's text is text.
    let q1 = host
        .query_selector(".mx-row[data-trace='q1'] .mx-q")
        .unwrap()
        .unwrap();
    assert_eq!(q1.text_content().unwrap(), HOSTILE);
    assert_eq!(q1.get_attribute("title").unwrap(), format!("q1: {HOSTILE}"));
    assert!(host.query_selector(".mx-q img").unwrap().is_none());

    // Failures only (a max-turns run counts as failed), then hardest first.
    st.push(|s| s.matrix.failures_only = true);
    settled(&host).await;
    assert_eq!(attr_all(&host, ".mx-row", "data-trace"), ["q1", "q2", "q4"]);
    st.push(|s| s.matrix.sort = MatrixSort::Hardest);
    settled(&host).await;
    // Doubled scores: q1 2, q2 2, q4 1 (a tie).
    assert_eq!(attr_all(&host, ".mx-row", "data-trace"), ["q4", "q1", "q2"]);
    st.push(|s| {
        s.matrix.failures_only = false;
        s.matrix.sort = MatrixSort::Corpus;
        s.matrix.sub_mode = Some("wrong_join".into());
    });
    settled(&host).await;
    assert_eq!(attr_all(&host, ".mx-row", "data-trace"), ["q1"]);
    st.push(|s| s.matrix.sub_mode = None);
    settled(&host).await;
    // Typing in the search: the rows follow, and the field stays the same element while
    // the answers come (the reader keeps typing in it).
    let search: web_sys::HtmlInputElement = host
        .query_selector("[data-testid='matrix-search']")
        .unwrap()
        .unwrap()
        .unchecked_into();
    search.set_value("REVENUE");
    search
        .dispatch_event(&web_sys::Event::new("input").unwrap())
        .unwrap();
    settled(&host).await;
    assert_eq!(attr_all(&host, ".mx-row", "data-trace"), ["q1", "q4"]);
    let still = host
        .query_selector("[data-testid='matrix-search']")
        .unwrap()
        .unwrap();
    assert!(still.is_same_node(Some(search.as_ref())));
    assert_eq!(st.with_untracked(|s| s.matrix.search.clone()), "REVENUE");
    assert_eq!(value(&host, "matrix:rows"), "2");

    // A click opens that trajectory, walking the question's cells.
    let cell: web_sys::HtmlElement = host
        .query_selector(".mx-cell[data-trajectory='m2/q4']")
        .unwrap()
        .unwrap()
        .unchecked_into();
    cell.click();
    let s = st.with_untracked(Clone::clone);
    assert_eq!(s.tab, Tab::Trajectory);
    assert_eq!(
        (
            s.corpus.as_deref(),
            s.trajectory.model.as_deref(),
            s.trajectory.trace.as_deref()
        ),
        (Some("dev"), Some("m2"), Some("q4"))
    );
    assert_eq!(s.trajectory.from.as_deref(), Some("question"));
}

#[wasm_bindgen_test]
async fn a_large_matrix_renders_only_what_is_in_view_on_both_axes() {
    let (host, _) = mount(large(), matrix_state());
    settled(&host).await;
    assert_eq!(value(&host, "matrix:rows"), "3000");
    // 180,000 cells: half pass, half fail.
    assert_eq!(value(&host, "matrix:cells:pass"), "90000");
    assert_eq!(value(&host, "matrix:cells:fail"), "90000");
    let rows = host.query_selector_all(".mx-row").unwrap().length() as usize;
    let cells = host.query_selector_all(".mx-cell").unwrap().length() as usize;
    // (560 − 136) / 28 = 15 rows in view, + 1 + a margin of 8 below: 24 rows; the columns in
    // view of the box's width plus a margin of 4.
    assert_eq!(rows, 24);
    let grid: web_sys::HtmlElement = host
        .query_selector("[data-testid='matrix-grid']")
        .unwrap()
        .unwrap()
        .unchecked_into();
    let width = grid.client_width() as usize;
    let question = question_width(width, 60);
    let (c0, c1) = column_range(0, width, question, 60);
    assert_eq!(c0, 0);
    assert!(c1 < 60, "every column rendered in a {width} px box");
    assert_eq!(cells, rows * (c1 - c0));
    // Scrolled down and right: other rows and columns, still a window of them.
    grid.set_scroll_top(28 * 1_000);
    grid.set_scroll_left(28 * 30);
    grid.dispatch_event(&web_sys::Event::new("scroll").unwrap())
        .unwrap();
    settled(&host).await;
    let traces = attr_all(&host, ".mx-row", "data-trace");
    assert_eq!(traces.first().map(String::as_str), Some("q992"));
    let first_cell = attr_all(
        &host,
        ".mx-row[data-trace='q1000'] .mx-cell",
        "data-trajectory",
    );
    assert_eq!(first_cell.first().map(String::as_str), Some("m26/q1000"));
    // q1000 × m26: 1026 is even, a pass.
    assert_eq!(
        attr_all(
            &host,
            ".mx-cell[data-trajectory='m26/q1000']",
            "data-outcome"
        ),
        ["pass"]
    );
}

/// Another question starts at the top left of the grid: scrolled down and right, then a
/// filter changes: the box is back at 0, 0 and shows the first rows of the new question.
#[wasm_bindgen_test]
async fn another_question_starts_at_the_top_left() {
    let (host, st) = mount(large(), matrix_state());
    settled(&host).await;
    let grid = || -> web_sys::HtmlElement {
        host.query_selector("[data-testid='matrix-grid']")
            .unwrap()
            .unwrap()
            .unchecked_into()
    };
    grid().set_scroll_top(28 * 1_000);
    grid().set_scroll_left(28 * 30);
    grid()
        .dispatch_event(&web_sys::Event::new("scroll").unwrap())
        .unwrap();
    settled(&host).await;
    assert_eq!(
        attr_all(&host, ".mx-row", "data-trace")
            .first()
            .map(String::as_str),
        Some("q992")
    );
    st.push(|s| s.matrix.sort = MatrixSort::Easiest);
    settled(&host).await;
    assert_eq!((grid().scroll_top(), grid().scroll_left()), (0, 0));
    // Easiest first: doubled scores 2 × 30 for every question (m0..m59 alternate), so the
    // corpus order stays; the first rows are in view.
    assert_eq!(
        attr_all(&host, ".mx-row", "data-trace")
            .first()
            .map(String::as_str),
        Some("q0")
    );
    let first = attr_all(
        &host,
        ".mx-row[data-trace='q0'] .mx-cell",
        "data-trajectory",
    );
    assert_eq!(first.first().map(String::as_str), Some("m0/q0"));
}

#[wasm_bindgen_test]
fn columns_in_view() {
    // The example of `column_range`'s doc comment.
    assert_eq!(column_range(560, 1_000, 320, 60), (16, 49));
    assert_eq!(column_range(0, 1_000, 320, 10), (0, 10));
    assert_eq!(column_range(0, 100, 320, 60), (0, 5));
    // The examples of `question_width`'s: 1,000 − 20 × 28 − 2 = 438; capped at 720; at least
    // 320 beside 60 models; 132 on a phone.
    assert_eq!(question_width(1_000, 20), 438);
    assert_eq!(question_width(1_392, 20), 720);
    assert_eq!(question_width(1_000, 60), 320);
    assert_eq!(question_width(390, 20), 132);
}
