//! The leaderboard view: a notice right after mount, then the rows the data's owner answers
//! (the page itself here, as no worker holds these bundles) with exact pass rates; mounted
//! again, the rows come from the per-bundle cache at once; rows the loader worker sent are
//! shown without asking.

use std::sync::Arc;

use leptos::prelude::*;
use runlens_core::bundle::{
    Bundle, BundleBody, Cell, Corpus, LossRule, Outcome, Provenance, ResultRow, ResultScore,
};
use runlens_core::metrics::Stepwise;
use runlens_core::metrics::board_run::{BoardRun, CorpusBoard};
use runlens_web::data::decode_bundle;
use runlens_web::derived::board_cache;
use runlens_web::loader::boards;
use runlens_web::pages::LeaderboardView;

use crate::sample_files::SAMPLE;
use runlens_web::state::{UrlState, ViewState};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::wasm_bindgen_test;

fn document() -> web_sys::Document {
    web_sys::window().unwrap().document().unwrap()
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

/// 20,001 questions × 2 models: `a` passes every one, `b` the odd-numbered ones.
fn big() -> Arc<Bundle> {
    let results: Vec<ResultRow> = (0..20_001)
        .map(|i| ResultRow {
            trace_id: format!("q{i}"),
            candidates: [
                ("a".into(), cell(Outcome::Pass)),
                (
                    "b".into(),
                    cell(if i % 2 == 1 {
                        Outcome::Pass
                    } else {
                        Outcome::Fail
                    }),
                ),
            ]
            .into_iter()
            .collect(),
            ..ResultRow::default()
        })
        .collect();
    two_models("big", results)
}

/// A bundle of one corpus named `name` with models `a` and `b`.
fn two_models(name: &str, results: Vec<ResultRow>) -> Arc<Bundle> {
    let body = BundleBody {
        corpora: vec![Corpus {
            name: name.into(),
            results,
            models: vec!["a".into(), "b".into()],
            ..Corpus::default()
        }],
        ..BundleBody::default()
    };
    Arc::new(Bundle::new(Provenance::default(), body))
}

fn mount(bundle: Arc<Bundle>) -> web_sys::HtmlElement {
    let host: web_sys::HtmlElement = document().create_element("div").unwrap().unchecked_into();
    document().body().unwrap().append_child(&host).unwrap();
    let st = UrlState::detached(ViewState::default());
    std::mem::forget(leptos::mount::mount_to(host.clone(), move || {
        provide_context(st);
        view! { <LeaderboardView bundle=bundle.clone() /> }
    }));
    host
}

fn pass(host: &web_sys::HtmlElement, model: &str) -> Option<f64> {
    host.query_selector(&format!("[data-metric=\"pass:{model}\"]"))
        .unwrap()?
        .get_attribute("data-value")?
        .parse()
        .ok()
}

fn has(host: &web_sys::HtmlElement, selector: &str) -> bool {
    host.query_selector(selector).unwrap().is_some()
}

async fn sleep(ms: i32) {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        let _ = web_sys::window()
            .unwrap()
            .set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms);
    });
    let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
}

/// Waits (up to 20 s) until `model`'s pass rate is shown.
async fn wait_for_pass(host: &web_sys::HtmlElement, model: &str) {
    let mut waited = 0;
    while pass(host, model).is_none() && waited < 20_000 {
        sleep(20).await;
        waited += 20;
    }
}

#[wasm_bindgen_test]
async fn a_corpus_is_answered_then_kept() {
    let bundle = big();
    let host = mount(bundle.clone());
    // Not answered in the mounting task: the notice and no rows yet.
    assert!(has(&host, "[data-testid='leaderboard-progress']"));
    assert_eq!(pass(&host, "a"), None);
    wait_for_pass(&host, "b").await;
    assert_eq!(pass(&host, "a"), Some(1.0));
    // b passes q1, q3, …, q19999: 10,000 of 20,001.
    assert_eq!(pass(&host, "b"), Some(10_000.0 / 20_001.0));
    assert!(!has(&host, "[data-testid='leaderboard-progress']"));

    // Mounted again on the same bundle: no notice, the rows at once.
    let again = mount(bundle);
    leptos::task::tick().await;
    assert!(!has(&again, "[data-testid='leaderboard-progress']"));
    assert_eq!(pass(&again, "b"), Some(10_000.0 / 20_001.0));
}

#[wasm_bindgen_test]
async fn rows_from_the_loader_worker_are_shown_without_asking() {
    let bundle = big();
    // The worker's rows, made distinguishable: `a` at 1/4.
    let mut rows =
        BoardRun::new(&bundle.body, &bundle.body.corpora[0], LossRule::Excluded).finish();
    rows[0].row.pass = Some(0.25);
    let json = serde_json::to_vec(&[CorpusBoard {
        corpus: "big".into(),
        questions: 20_001,
        rows,
    }])
    .unwrap();
    assert!(boards::install(&bundle, &json));
    let host = mount(bundle.clone());
    assert!(!has(&host, "[data-testid='leaderboard-progress']"));
    assert_eq!(pass(&host, "a"), Some(0.25));
    assert_eq!(pass(&host, "b"), Some(10_000.0 / 20_001.0));
    // Rows kept already are not replaced.
    assert!(!boards::install(&bundle, &json));
}

#[wasm_bindgen_test]
fn the_workers_rows_of_the_sample_are_the_pages_own_exactly() {
    let bundle = Arc::new(decode_bundle("article.json.gz", SAMPLE).unwrap());
    let json = boards::json(&bundle);
    assert!(!boards::install(&bundle, b"{not json"));
    assert!(boards::install(&bundle, &json));
    let kept = board_cache::cached(&bundle, LossRule::Excluded).unwrap();
    assert_eq!(kept.len(), 2);
    for (kept, corpus) in kept.iter().zip(&bundle.body.corpora) {
        assert_eq!(kept.corpus, corpus.name);
        assert_eq!(kept.questions, corpus.results.len());
        assert_eq!(
            kept.rows,
            BoardRun::new(&bundle.body, corpus, LossRule::Excluded).finish()
        );
    }
}

/// 4 questions × 2 models: `a` pass, pass, fail, `last`; `b` tie on every question.
fn four(last: Outcome) -> Arc<Bundle> {
    let outcomes_a = [Outcome::Pass, Outcome::Pass, Outcome::Fail, last];
    let results: Vec<ResultRow> = outcomes_a
        .into_iter()
        .enumerate()
        .map(|(i, a)| ResultRow {
            trace_id: format!("q{i}"),
            candidates: [("a".into(), cell(a)), ("b".into(), cell(Outcome::Tie))]
                .into_iter()
                .collect(),
            ..ResultRow::default()
        })
        .collect();
    two_models("legacy", results)
}

fn text_of(host: &web_sys::HtmlElement, selector: &str) -> String {
    host.query_selector(selector)
        .unwrap()
        .and_then(|e| e.text_content())
        .unwrap_or_default()
}

#[wasm_bindgen_test]
async fn legacy_loss_is_excluded_and_the_switch_scores_it_as_fail() {
    let host: web_sys::HtmlElement = document().create_element("div").unwrap().unchecked_into();
    document().body().unwrap().append_child(&host).unwrap();
    let st = UrlState::detached(ViewState::default());
    let bundle = four(Outcome::Loss);
    std::mem::forget(leptos::mount::mount_to(host.clone(), move || {
        provide_context(st);
        view! { <LeaderboardView bundle=bundle.clone() /> }
    }));
    leptos::task::tick().await;
    // The harness's board: a = (1 + 1 + 0) / 3, the loss left out.
    assert_eq!(pass(&host, "a"), Some(2.0 / 3.0));
    assert_eq!(pass(&host, "b"), Some(0.5));
    assert_eq!(
        text_of(&host, "[data-testid='loss-notice'] span"),
        "1 legacy loss cell excluded, as the harness's board does \
         (08_results_stats scores only pass, tie and fail)."
    );
    let switch: web_sys::HtmlInputElement = host
        .query_selector("[data-testid='loss-as-fail']")
        .unwrap()
        .unwrap()
        .unchecked_into();
    assert!(!switch.checked());
    switch.click();
    leptos::task::tick().await;
    assert_eq!(st.with_untracked(|s| s.leaderboard.loss), LossRule::AsFail);
    // 06_eval's tally: a = (1 + 1 + 0 + 0) / 4.
    assert_eq!(pass(&host, "a"), Some(2.0 / 4.0));
    assert!(
        text_of(&host, "[data-testid='loss-notice'] span")
            .starts_with("1 legacy loss cell scored as fail")
    );
    let switch: web_sys::HtmlInputElement = host
        .query_selector("[data-testid='loss-as-fail']")
        .unwrap()
        .unwrap()
        .unchecked_into();
    assert!(switch.checked());
    // A board without loss cells has no notice.
    let plain = mount(four(Outcome::Fail));
    leptos::task::tick().await;
    assert_eq!(pass(&plain, "a"), Some(2.0 / 4.0));
    assert!(!has(&plain, "[data-testid='loss-notice']"));
}

#[wasm_bindgen_test]
fn p_values_below_a_thousandth_read_less_than_not_zero() {
    use runlens_web::pages::board_columns::p_text;
    assert_eq!(p_text(Some(0.000_4)), "< 0.001");
    assert_eq!(p_text(Some(0.0)), "< 0.001");
    assert_eq!(p_text(Some(0.001)), "0.001");
    assert_eq!(p_text(Some(0.0494)), "0.049");
    assert_eq!(p_text(Some(1.0)), "1.000");
    assert_eq!(p_text(None), "–");
}

/// #17 bug 10: the top model's own test against itself read "p 1.000"; it shows "–", and the
/// other model its p. q1..q3: `a` passes all, `b` passes q1 only.
#[wasm_bindgen_test]
async fn the_top_models_own_p_shows_a_dash() {
    let results = (1..=3)
        .map(|i| ResultRow {
            trace_id: format!("q{i}"),
            candidates: [
                ("a".into(), cell(Outcome::Pass)),
                (
                    "b".into(),
                    cell(if i == 1 { Outcome::Pass } else { Outcome::Fail }),
                ),
            ]
            .into_iter()
            .collect(),
            ..ResultRow::default()
        })
        .collect();
    let host = mount(two_models("top", results));
    wait_for_pass(&host, "b").await;
    let p_column = runlens_web::pages::board_columns::COLUMNS
        .iter()
        .position(|c| c.key == "p")
        .unwrap();
    let p_of = |model: &str| {
        host.query_selector(&format!(
            "tr[data-model='{model}'] td:nth-child({})",
            p_column + 1
        ))
        .unwrap()
        .unwrap()
        .text_content()
        .unwrap()
    };
    assert_eq!(p_of("a"), "–");
    // b: differences 0, 1, 1 → mean 2/3, SE_d = sd/√3 = (1/√3)/√3 = 1/3: z = 2, p = 0.0455.
    assert_eq!(p_of("b"), "0.046");
}

/// #17, "who is best, and is it significant?": models the paired test does not separate from
/// the top (p ≥ 0.05) are marked in the table and the chart; the chart is in percent, as
/// the table.
#[wasm_bindgen_test]
async fn models_tied_with_the_top_are_marked_in_the_table_and_the_chart() {
    use runlens_web::pages::leaderboard::{TIED_P, pass_chart};
    let results_of = |b_outcomes: [Outcome; 3]| -> Vec<ResultRow> {
        (0..3)
            .map(|i| ResultRow {
                trace_id: format!("q{i}"),
                candidates: [
                    ("a".into(), cell(Outcome::Pass)),
                    ("b".into(), cell(b_outcomes[i].clone())),
                ]
                .into_iter()
                .collect(),
                ..ResultRow::default()
            })
            .collect()
    };
    let standing = |host: &web_sys::HtmlElement, model: &str| {
        host.query_selector(&format!("tr[data-model='{model}']"))
            .unwrap()
            .unwrap()
            .get_attribute("data-standing")
            .unwrap()
    };
    // b passes q0 only: z = 2, p = 0.0455 < 0.05: below the top.
    let apart = two_models(
        "apart",
        results_of([Outcome::Pass, Outcome::Fail, Outcome::Fail]),
    );
    let host = mount(apart.clone());
    wait_for_pass(&host, "b").await;
    assert_eq!(standing(&host, "a"), "top");
    assert_eq!(standing(&host, "b"), "below");
    assert_eq!(text_of(&host, "tr[data-model='a'] .badge.standing"), "top");
    assert!(
        host.query_selector("tr[data-model='b'] .badge")
            .unwrap()
            .is_none()
    );
    // b passes q0 and q1: differences 0, 0, 1 → mean 1/3, sd 1/√3, SE 1/3: z = 1, p = 0.317.
    let close = two_models(
        "close",
        results_of([Outcome::Pass, Outcome::Pass, Outcome::Fail]),
    );
    let host = mount(close.clone());
    wait_for_pass(&host, "b").await;
    assert_eq!(standing(&host, "b"), "tied");
    assert_eq!(
        text_of(&host, "tr[data-model='b'] .badge.standing"),
        "≈ top"
    );
    // The chart: percent, the marks in the labels, dark for top and tied, light below.
    let rows =
        |b: &Arc<Bundle>| BoardRun::new(&b.body, &b.body.corpora[0], LossRule::Excluded).finish();
    let chart = pass_chart("t".into(), &rows(&close), runlens_charts::Theme::LIGHT);
    let bars: Vec<(String, f64)> = chart
        .bars
        .iter()
        .map(|b| (b.label.clone(), b.value))
        .collect();
    // b passes 2 of 3: 100 × 2/3.
    assert_eq!(
        bars,
        [
            ("a (top)".to_string(), 100.0),
            ("b ≈ top".to_string(), 100.0 * (2.0 / 3.0))
        ]
    );
    assert_eq!(chart.x_range, (0.0, 100.0));
    assert_eq!(chart.bars[0].color, chart.bars[1].color);
    let apart_chart = pass_chart("t".into(), &rows(&apart), runlens_charts::Theme::LIGHT);
    assert_eq!(apart_chart.bars[1].label, "b");
    assert_ne!(apart_chart.bars[0].color, apart_chart.bars[1].color);
    assert_eq!(TIED_P, 0.05);
    // The canvas is an image whose text alternative is the chart's numbers (#17).
    for _ in 0..100 {
        if host.query_selector("canvas[role='img']").unwrap().is_some() {
            break;
        }
        sleep(10).await;
    }
    let alt = host
        .query_selector("canvas[role='img']")
        .unwrap()
        .unwrap()
        .get_attribute("aria-label")
        .unwrap();
    assert!(
        alt.starts_with(
            "Pass rate on close (3 questions): a (top) 100 [100, 100]; b ≈ top 66.667 ["
        ),
        "{alt}"
    );
}

/// `few`: 2 questions (a passes both, b fails both); `many`: 3 questions (a passes one, b
/// passes all three).
fn two_corpora() -> Arc<Bundle> {
    let row = |id: &str, a: Outcome, b: Outcome| ResultRow {
        trace_id: id.into(),
        candidates: [("a".into(), cell(a)), ("b".into(), cell(b))]
            .into_iter()
            .collect(),
        ..ResultRow::default()
    };
    let corpus = |name: &str, results: Vec<ResultRow>| Corpus {
        name: name.into(),
        results,
        models: vec!["a".into(), "b".into()],
        ..Corpus::default()
    };
    let (p, f) = (|| Outcome::Pass, || Outcome::Fail);
    let body = BundleBody {
        corpora: vec![
            corpus("few", vec![row("f1", p(), f()), row("f2", p(), f())]),
            corpus(
                "many",
                vec![
                    row("m1", p(), p()),
                    row("m2", f(), p()),
                    row("m3", f(), p()),
                ],
            ),
        ],
        ..BundleBody::default()
    };
    Arc::new(Bundle::new(Provenance::default(), body))
}

fn board_pass(host: &web_sys::HtmlElement, board: &str, model: &str) -> Option<f64> {
    host.query_selector(&format!(
        "article[data-corpus='{board}'] [data-metric=\"pass:{model}\"]"
    ))
    .unwrap()?
    .get_attribute("data-value")?
    .parse()
    .ok()
}

#[wasm_bindgen_test]
async fn the_headline_corpus_comes_first_and_the_corpora_pool_into_one_board() {
    let host: web_sys::HtmlElement = document().create_element("div").unwrap().unchecked_into();
    document().body().unwrap().append_child(&host).unwrap();
    let st = UrlState::detached(ViewState::default());
    let bundle = two_corpora();
    std::mem::forget(leptos::mount::mount_to(host.clone(), move || {
        provide_context(st);
        view! { <LeaderboardView bundle=bundle.clone() /> }
    }));
    for _ in 0..50 {
        leptos::task::tick().await;
        if board_pass(&host, "few", "a").is_some() {
            break;
        }
        sleep(20).await;
    }
    // The larger corpus is the headline one and comes first.
    let order: Vec<String> = (0..2)
        .map(|i| {
            host.query_selector_all("article.corpus-board")
                .unwrap()
                .item(i)
                .unwrap()
                .unchecked_into::<web_sys::Element>()
                .get_attribute("data-corpus")
                .unwrap()
        })
        .collect();
    assert_eq!(order, ["many", "few"]);
    assert_eq!(
        text_of(
            &host,
            "article[data-corpus='many'] h3 .badge.headline-corpus"
        ),
        "headline"
    );
    assert!(!has(&host, "article[data-corpus='few'] h3 .badge"));
    // a passes 2 of 2 in `few`, b 3 of 3 in `many`.
    assert_eq!(board_pass(&host, "few", "a"), Some(1.0));
    assert_eq!(board_pass(&host, "many", "b"), Some(1.0));
    assert_eq!(
        text_of(&host, ".pool-switch label").trim(),
        "Pool the 2 corpora into one board (5 questions)"
    );
    let switch: web_sys::HtmlInputElement = host
        .query_selector("[data-testid='pool-corpora']")
        .unwrap()
        .unwrap()
        .unchecked_into();
    switch.click();
    leptos::task::tick().await;
    assert!(st.with_untracked(|s| s.leaderboard.pooled));
    for _ in 0..50 {
        leptos::task::tick().await;
        if board_pass(&host, "pooled", "a").is_some() {
            break;
        }
        sleep(20).await;
    }
    // Five questions as one matrix: a = (1 + 1 + 1 + 0 + 0) / 5, b = (0 + 0 + 1 + 1 + 1) / 5.
    assert_eq!(board_pass(&host, "pooled", "a"), Some(3.0 / 5.0));
    assert_eq!(board_pass(&host, "pooled", "b"), Some(3.0 / 5.0));
    assert_eq!(
        text_of(&host, "article[data-corpus='pooled'] h3").trim(),
        "All corpora pooled: few + many"
    );
    let per_corpus: web_sys::HtmlElement = host
        .query_selector(".corpus-boards")
        .unwrap()
        .unwrap()
        .unchecked_into();
    assert_eq!(
        per_corpus.style().get_property_value("display").unwrap(),
        "none"
    );
}
