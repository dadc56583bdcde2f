//! Browser tests of the compare view: two hand-made runs compared in the page with exact
//! paired differences (arithmetic, as docs/metrics.md defines them), the table and the
//! plot in the same order, models of one run listed apart, the "loss as fail" switch
//! honoured, and runs that cannot be compared saying why.

use std::sync::Arc;

use leptos::prelude::*;
use runlens_core::bundle::{Bundle, BundleBody, Corpus, LossRule, Provenance};
use runlens_web::pages::CompareRuns;
use runlens_web::state::{BoardParams, UrlState, ViewState};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

use crate::wait::{sleep, wait_for};

fn cell(outcome: &str) -> serde_json::Value {
    serde_json::json!({"sqls": ["SELECT 1"], "turns": 2, "result_score": {"outcome": outcome}})
}

/// A run of one corpus `name` with `models`, one result row per `(trace_id, outcomes)`.
fn run(name: &str, models: &[&str], rows: &[(&str, &[&str])]) -> Arc<Bundle> {
    ranked_run(
        name,
        models,
        rows,
        serde_json::json!([]),
        serde_json::json!([]),
    )
}

/// [`run`] with table rankings and failure labels (as the bundle stores them).
fn ranked_run(
    name: &str,
    models: &[&str],
    rows: &[(&str, &[&str])],
    rankings: serde_json::Value,
    labels: serde_json::Value,
) -> Arc<Bundle> {
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
        name: name.into(),
        results: serde_json::from_value(serde_json::Value::Array(results)).unwrap(),
        models: models.iter().map(|m| (*m).to_owned()).collect(),
        rankings: serde_json::from_value(rankings).unwrap(),
        failure_labels: serde_json::from_value(labels).unwrap(),
        ..Corpus::default()
    };
    let body = BundleBody {
        corpora: vec![corpus],
        ..BundleBody::default()
    };
    Arc::new(Bundle::new(Provenance::default(), body))
}

/// A: m improves on q2 (fail → pass) and q3 (tie → pass), falls on q1 (pass → fail); k is
/// unchanged but for q4's legacy `loss` (excluded unless scored as fail); `old` only in A,
/// `new` only in B. B lists its questions in another order and has one A lacks.
fn runs() -> (Arc<Bundle>, Arc<Bundle>) {
    let a = run(
        "dev",
        &["m", "k", "old"],
        &[
            ("q1", &["pass", "pass", "pass"]),
            ("q2", &["fail", "fail", "pass"]),
            ("q3", &["tie", "pass", "pass"]),
            ("q4", &["pass", "loss", "pass"]),
        ],
    );
    let b = run(
        "dev",
        &["new", "k", "m"],
        &[
            ("q4", &["pass", "pass", "pass"]),
            ("q3", &["pass", "pass", "pass"]),
            ("q2", &["pass", "fail", "pass"]),
            ("q1", &["pass", "pass", "fail"]),
            ("q9", &["pass", "pass", "pass"]),
        ],
    );
    (a, b)
}

fn mount(a: Arc<Bundle>, b: Arc<Bundle>, state: ViewState) -> web_sys::HtmlElement {
    let host: web_sys::HtmlElement = document().create_element("div").unwrap().unchecked_into();
    document().body().unwrap().append_child(&host).unwrap();
    let handle = leptos::mount::mount_to(host.clone(), move || {
        provide_context(UrlState::detached(state.clone()));
        view! { <CompareRuns a=a.clone() b=b.clone() source_b="b.zip".to_owned() /> }.into_any()
    });
    std::mem::forget(handle);
    host
}

/// Waits for both runs' answers and, when they compare, the corpus's table, plot and
/// changed questions (mounted a task apart).
async fn answered(host: &web_sys::HtmlElement) {
    wait_for(host, "[data-testid='compare-body'][data-answered='true']").await;
    if host
        .query_selector("[data-testid='compare-error']")
        .unwrap()
        .is_none()
    {
        wait_for(host, ".compare-corpus [data-testid='compare-flips']").await;
    }
}

/// The unrounded value of `data-metric="<metric>"`.
fn value(host: &web_sys::HtmlElement, metric: &str) -> f64 {
    host.query_selector(&format!("[data-metric='{metric}']"))
        .unwrap()
        .unwrap_or_else(|| panic!("no {metric}"))
        .get_attribute("data-value")
        .unwrap()
        .parse()
        .unwrap()
}

fn delta(host: &web_sys::HtmlElement, model: &str) -> f64 {
    value(host, &format!("delta:{model}"))
}

/// The text of each cell of the table's rows.
fn table(host: &web_sys::HtmlElement) -> Vec<Vec<String>> {
    let rows = host
        .query_selector_all("[data-testid='compare-table'] tbody tr")
        .unwrap();
    (0..rows.length())
        .map(|i| {
            let row: web_sys::Element = rows.item(i).unwrap().unchecked_into();
            let cells = row.query_selector_all("th, td").unwrap();
            (0..cells.length())
                .map(|j| {
                    cells
                        .item(j)
                        .unwrap()
                        .text_content()
                        .unwrap()
                        .trim()
                        .to_owned()
                })
                .collect()
        })
        .collect()
}

fn text(host: &web_sys::HtmlElement, testid: &str) -> String {
    host.query_selector(&format!("[data-testid='{testid}']"))
        .unwrap()
        .unwrap_or_else(|| panic!("no {testid}"))
        .text_content()
        .unwrap()
}

#[wasm_bindgen_test]
async fn two_runs_give_the_paired_differences_of_their_shared_questions() {
    let (a, b) = runs();
    let host = mount(a, b, ViewState::default());
    answered(&host).await;
    // m over q1..q4 (in both): d = (−1, +1, +0.5, 0); delta = 0.5 / 4 = 0.125.
    assert_eq!(delta(&host, "m"), 0.125);
    // k: q4 is `loss` in A, so not scored: q1..q3 unchanged, delta 0.
    assert_eq!(delta(&host, "k"), 0.0);
    // Sorted by difference; m: pass A (1 + 0 + 0.5 + 1) / 4 = 62.5 %, B 3 / 4 = 75 %;
    // se = sd(−1, 1, 0.5, 0) / 2 with mean 0.125: variance (1.265625 + 0.765625 + 0.140625
    // + 0.015625) / 3 = 0.729166…, sd 0.853913…, se 0.426956…; interval 12.5 ± 83.7 pp.
    assert_eq!(
        table(&host),
        [
            [
                "m",
                "4",
                "62.5",
                "75.0",
                "+12.5",
                "−71.2 to +96.2",
                "0.770",
                "2",
                "1"
            ],
            [
                "k",
                "3",
                "66.7",
                "66.7",
                "0.0",
                "0.0 to 0.0",
                "1.000",
                "0",
                "0"
            ],
        ]
    );
    assert_eq!(
        text(&host, "only-in-a"),
        "Only in run A (not compared): old"
    );
    assert_eq!(
        text(&host, "only-in-b"),
        "Only in run B (not compared): new"
    );
    let corpus = host.query_selector(".compare-corpus h3").unwrap().unwrap();
    assert_eq!(
        corpus.text_content().unwrap(),
        "Corpus dev · 4 questions in both runs"
    );
}

#[wasm_bindgen_test]
async fn loss_as_fail_scores_legacy_loss_cells() {
    let (a, b) = runs();
    let state = ViewState {
        leaderboard: BoardParams {
            loss: LossRule::AsFail,
            ..BoardParams::default()
        },
        ..ViewState::default()
    };
    let host = mount(a, b, state);
    answered(&host).await;
    // k's q4: loss (0) → pass (1): d = (0, 0, 0, 1), delta 0.25.
    assert_eq!(delta(&host, "k"), 0.25);
    assert_eq!(delta(&host, "m"), 0.125);
}

#[wasm_bindgen_test]
async fn runs_that_cannot_be_compared_say_why() {
    let (a, _) = runs();
    let host = mount(a.clone(), a.clone(), ViewState::default());
    sleep(0).await;
    assert_eq!(
        text(&host, "compare-error"),
        format!(
            "These runs cannot be compared: both bundles are the same run (content hash {}): \
             there is nothing to compare",
            a.content_hash
        )
    );
    let other = run("test", &["m"], &[("q1", &["pass"])]);
    let host = mount(a, other, ViewState::default());
    answered(&host).await;
    assert_eq!(
        text(&host, "compare-error"),
        "These runs cannot be compared: the runs have no corpus in common (A: dev; B: test): \
         questions are compared within a corpus of the same name"
    );
    assert!(
        host.query_selector("[data-testid='compare-table']")
            .unwrap()
            .is_none()
    );
}

#[wasm_bindgen_test]
async fn a_models_changed_questions_open_both_runs_side_by_side() {
    let (a, b) = runs();
    let mut state = ViewState::default();
    state.compare.model = Some("m".into());
    state.compare.trace = Some("q2".into());
    state.compare.corpus = Some("dev".into());
    let host = mount(a, b, state);
    answered(&host).await;
    // m: q1 pass → fail, q2 fail → pass, q3 tie → pass, in A's order (q4 unchanged).
    let items = host
        .query_selector_all("[data-testid='flip-list'] li")
        .unwrap();
    let listed: Vec<(String, String)> = (0..items.length())
        .map(|i| {
            let li: web_sys::Element = items.item(i).unwrap().unchecked_into();
            let way = li.query_selector(".flip").unwrap().unwrap();
            (
                li.get_attribute("data-trace").unwrap(),
                format!("{} {}", way.class_name(), way.text_content().unwrap()),
            )
        })
        .collect();
    let expected = [
        ("q1", "flip down pass → fail"),
        ("q2", "flip up fail → pass"),
        ("q3", "flip up tie → pass"),
    ];
    assert_eq!(listed, expected.map(|(t, w)| (t.to_owned(), w.to_owned())));
    // q2 is open: A failed it, B passed it; both ran `SELECT 1`, so the SQL diff is one equal line.
    for _ in 0..500 {
        if host
            .query_selector(".side[data-run='b'] .sql-diff, [data-testid='sql-diff']")
            .unwrap()
            .is_some()
        {
            break;
        }
        sleep(10).await;
    }
    let side = host
        .query_selector("[data-testid='side-by-side']")
        .unwrap()
        .unwrap();
    assert_eq!(side.get_attribute("data-trace").as_deref(), Some("q2"));
    let verdict = |run: &str| {
        host.query_selector(&format!(".side[data-run='{run}']"))
            .unwrap()
            .unwrap()
            .text_content()
            .unwrap()
    };
    assert!(
        verdict("a").contains("Run A: m's run: 1 query in 2 turns"),
        "{}",
        verdict("a")
    );
    assert!(
        verdict("b").contains("Run B: m's run: 1 query in 2 turns"),
        "{}",
        verdict("b")
    );
    let lines = host
        .query_selector_all("[data-testid='sql-diff'] .diff-line")
        .unwrap();
    assert_eq!(lines.length(), 1);
    let line: web_sys::Element = lines.item(0).unwrap().unchecked_into();
    assert_eq!(line.class_name(), "diff-line diff-equal");
}

#[wasm_bindgen_test]
async fn both_runs_rankings_are_compared_per_k_over_the_questions_ranked_in_both() {
    // q1: gold {t} at rank 3 in A, rank 1 in B; q2: {t, u} at ranks 1–2 in A, only t
    // ranked (rank 1) in B. The arithmetic of core's compare_ranking tests.
    let rows: &[(&str, &[&str])] = &[("q1", &["pass"]), ("q2", &["fail"])];
    let a = ranked_run(
        "dev",
        &["m"],
        rows,
        serde_json::json!([
            {"trace_id": "q1", "gold": ["t"], "ranked": ["x", "y", "t"]},
            {"trace_id": "q2", "gold": ["t", "u"], "ranked": ["t", "u", "x"]}
        ]),
        serde_json::json!([]),
    );
    let b = ranked_run(
        "dev",
        &["m"],
        &[("q1", &["pass"]), ("q2", &["pass"])],
        serde_json::json!([
            {"trace_id": "q2", "gold": ["t", "u"], "ranked": ["t", "x", "y"]},
            {"trace_id": "q1", "gold": ["t"], "ranked": ["t", "x", "y"]}
        ]),
        serde_json::json!([]),
    );
    let host = mount(a, b, ViewState::default());
    answered(&host).await;
    wait_for(&host, "[data-testid='compare-ranking-table'] tbody tr").await;
    let rdelta = |key: &str| value(&host, &format!("rdelta:{key}"));
    // recall: q1 +1, +1, 0 and q2 0, −0.5, −0.5 at k = 1, 2, 3.
    assert_eq!(rdelta("recall@1"), 0.5);
    assert_eq!(rdelta("recall@2"), 0.25);
    assert_eq!(rdelta("recall@3"), -0.25);
    // all-required: q1 +1, +1, 0 and q2 0, −1, −1.
    assert_eq!(rdelta("all_required@2"), 0.0);
    assert_eq!(rdelta("all_required@3"), -0.5);
    assert_eq!(
        text(&host, "compare-retrieval-n"),
        "2 questions ranked in both runs (the differences' n); 0 in run A only, 0 in run B only."
    );
    assert!(
        host.query_selector("[data-testid='compare-retrieval-alike']")
            .unwrap()
            .is_none()
    );
    // Three cutoffs (the longest ranking), the harness's three metrics.
    let rows = host
        .query_selector_all("[data-testid='compare-ranking-table'] tbody tr")
        .unwrap();
    assert_eq!(rows.length(), 3);
    let canvas = host
        .query_selector(".compare-retrieval canvas")
        .unwrap()
        .unwrap();
    let alt = canvas.get_attribute("aria-label").unwrap();
    assert!(
        alt.starts_with("Table ranking, run A and run B (dev): nDCG@k, run A, k 1: 0.5,"),
        "{alt}"
    );
    assert!(
        alt.contains("recall@k, run B, k 1: 0.75, k 2: 0.75, k 3: 0.75"),
        "{alt}"
    );
}

#[wasm_bindgen_test]
async fn both_runs_failure_histograms_are_shown_with_their_shift() {
    let label =
        |q: &str, sub: &str| serde_json::json!({"trace_id": q, "model": "m", "sub_mode": sub});
    let rows: &[(&str, &[&str])] = &[("q1", &["fail"]), ("q2", &["fail"])];
    // A: wrong_identifier 2 of 4, stopped_early 1, wrong_join 1; B: wrong_join 2 of 2.
    let a = ranked_run(
        "dev",
        &["m"],
        rows,
        serde_json::json!([]),
        serde_json::json!([
            label("q1", "wrong_identifier"),
            label("q2", "wrong_identifier"),
            label("q3", "stopped_early"),
            label("q4", "wrong_join")
        ]),
    );
    let b = ranked_run(
        "dev",
        &["m"],
        &[("q1", &["fail"]), ("q2", &["pass"])],
        serde_json::json!([]),
        serde_json::json!([label("q1", "wrong_join"), label("q2", "wrong_join")]),
    );
    let host = mount(a, b, ViewState::default());
    answered(&host).await;
    wait_for(&host, "[data-testid='compare-sub-mode-table'] tbody tr").await;
    assert_eq!(
        text(&host, "compare-failures-n"),
        "4 labelled failures in run A, 2 in run B (the models shown)."
    );
    let shift = |key: &str| value(&host, &format!("fshift:{key}"));
    assert_eq!(shift("sub-mode:wrong_identifier"), -0.5);
    assert_eq!(shift("sub-mode:stopped_early"), -0.25);
    assert_eq!(shift("sub-mode:wrong_join"), 0.75);
    // Sub-modes neither run has are left out: three rows.
    let rows = host
        .query_selector_all("[data-testid='compare-sub-mode-table'] tbody tr")
        .unwrap();
    assert_eq!(rows.length(), 3);
    // Each run's bucket shares sum to 1, so the shifts sum to 0.
    let fm = host
        .query_selector_all("[data-metric^='fshift:fm-bucket:']")
        .unwrap();
    let total: f64 = (0..fm.length())
        .map(|i| {
            let e: web_sys::Element = fm.item(i).unwrap().unchecked_into();
            e.get_attribute("data-value")
                .unwrap()
                .parse::<f64>()
                .unwrap()
        })
        .sum();
    assert!(fm.length() >= 2 && total.abs() < 1e-12, "{total}");
    // Runs without labels say so instead.
    let (a, b) = runs();
    let host = mount(a, b, ViewState::default());
    answered(&host).await;
    wait_for(&host, "[data-testid='compare-failures-none']").await;
}
