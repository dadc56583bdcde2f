//! Browser tests of a report site's trend (start page): the runs that have the corpus in
//! run order, models by their newest pass rate, exact cells, links pinned to each run's
//! hash, the link's `corpus` and `models` honoured, and the chart's text alternative.

use std::sync::Arc;

use leptos::prelude::*;
use runlens_core::site::{RunCorpus, RunEntry, RunIndex, RunModel, SITE_FORMAT, trend};
use runlens_web::pages::site_trend::{SiteTrend, y_range};
use runlens_web::state::{UrlState, ViewState};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

use crate::wait::wait_for;

fn model(key: &str, pass: f64) -> RunModel {
    RunModel {
        model: key.into(),
        display_name: Some(format!("{} <b>", key.to_uppercase())),
        n: 10,
        pass: Some(pass),
        ci95: Some([pass - 0.1, pass + 0.1]),
    }
}

fn run(name: &str, corpus: &str, models: Vec<RunModel>) -> RunEntry {
    RunEntry {
        name: name.into(),
        file: format!("bundles/{name}.zip"),
        created_at: format!("2026-12-0{}T00:00:00Z", name.len()),
        content_hash: format!("{name}{}", "ab".repeat(32)),
        synthetic: true,
        corpora: vec![RunCorpus {
            name: corpus.into(),
            questions: 10,
            models,
        }],
    }
}

/// dev in r1 and r3 (the default corpus: two runs), other in r2 only.
fn index() -> Arc<RunIndex> {
    Arc::new(RunIndex {
        format: SITE_FORMAT.into(),
        runs: vec![
            run("r1", "dev", vec![model("m", 0.5), model("k", 0.7)]),
            run("r2", "other", vec![model("m", 0.9)]),
            run("r3", "dev", vec![model("m", 0.8), model("new", 0.6)]),
        ],
    })
}

fn mount(state: ViewState) -> web_sys::HtmlElement {
    mount_index(index(), state)
}

fn mount_index(index: Arc<RunIndex>, state: ViewState) -> web_sys::HtmlElement {
    let host: web_sys::HtmlElement = document().create_element("div").unwrap().unchecked_into();
    document().body().unwrap().append_child(&host).unwrap();
    let handle = leptos::mount::mount_to(host.clone(), move || {
        provide_context(UrlState::detached(state.clone()));
        view! { <SiteTrend index=index.clone() /> }.into_any()
    });
    std::mem::forget(handle);
    host
}

fn texts(host: &web_sys::HtmlElement, selector: &str) -> Vec<String> {
    let list = host.query_selector_all(selector).unwrap();
    (0..list.length())
        .map(|i| {
            list.item(i)
                .unwrap()
                .text_content()
                .unwrap()
                .trim()
                .to_owned()
        })
        .collect()
}

fn attr(host: &web_sys::HtmlElement, selector: &str, name: &str) -> Option<String> {
    host.query_selector(selector)
        .unwrap()
        .and_then(|e| e.get_attribute(name))
}

#[wasm_bindgen_test]
async fn the_default_corpus_lists_its_runs_and_models_with_exact_cells() {
    let host = mount(ViewState::default());
    wait_for(&host, "[data-testid='trend-table'] tbody tr").await;
    assert_eq!(texts(&host, "[data-testid='trend-open']"), ["r1", "r3"]);
    // Newest pass rate first: M 0.8 (r3), K 0.7 (r1), NEW 0.6; names as text, not HTML.
    assert_eq!(
        texts(&host, "[data-testid='trend-table'] thead th"),
        ["Run", "Created", "M <b>", "K <b>", "NEW <b>"]
    );
    assert_eq!(
        attr(&host, "[data-metric='trend:r1:m']", "data-value").as_deref(),
        Some("0.5")
    );
    assert_eq!(
        texts(&host, "tr[data-run='r3'] td.num"),
        ["80.0", "–", "60.0"]
    );
    assert_eq!(
        attr(&host, "tr[data-run='r1'] td.num", "title").as_deref(),
        Some("n = 10 · 95% CI 40.0–60.0")
    );
    let hash: String = format!("r3{}", "ab".repeat(32)).chars().take(12).collect();
    assert_eq!(
        attr(&host, "tr[data-run='r3'] a", "href"),
        Some(format!("?bundle=bundles/r3.zip&h={hash}&corpus=dev"))
    );
    assert_eq!(
        attr(&host, "canvas#site-trend", "aria-label").unwrap(),
        "Pass rate across runs (dev): M <b> from 50 in r1 to 80 in r3 (2 runs); K <b> 70 in r1; \
         NEW <b> 60 in r3. (runlens · report site of 3 runs · dev · pass rate under the default \
         loss rule, normal 95% interval)"
    );
}

#[wasm_bindgen_test]
async fn the_links_corpus_and_models_choose_what_is_shown() {
    let host = mount(ViewState {
        corpus: Some("dev".into()),
        models: vec!["k".into()],
        ..ViewState::default()
    });
    wait_for(&host, "[data-testid='trend-table'] tbody tr").await;
    assert_eq!(
        texts(&host, "[data-testid='trend-table'] thead th"),
        ["Run", "Created", "K <b>"]
    );
    assert_eq!(texts(&host, "tr[data-run='r3'] td.num"), ["–"]);
    let select: web_sys::HtmlSelectElement = host
        .query_selector("[data-testid='trend-corpus']")
        .unwrap()
        .unwrap()
        .unchecked_into();
    select.set_value("other");
    select
        .dispatch_event(&web_sys::Event::new("change").unwrap())
        .unwrap();
    leptos::task::tick().await;
    assert_eq!(texts(&host, "[data-testid='trend-open']"), ["r2"]);
    // k is not in `other`: a filter naming none of its models shows them all.
    assert_eq!(
        texts(&host, "[data-testid='trend-table'] thead th"),
        ["Run", "Created", "M <b>"]
    );
    // A corpus the site does not have falls back to the default.
    let other = mount(ViewState {
        corpus: Some("nope".into()),
        ..ViewState::default()
    });
    wait_for(&other, "[data-testid='trend-table'] tbody tr").await;
    assert_eq!(texts(&other, "[data-testid='trend-open']"), ["r1", "r3"]);
}

#[wasm_bindgen_test]
fn the_y_range_holds_every_interval_in_tens() {
    let t = trend(&index(), "dev");
    // Values 50–80 with intervals ±10: 40–90, 2 points of room, out to tens.
    assert_eq!(y_range(&t, |_| true), (30.0, 100.0));
    // k alone: 60–80 → 50–90.
    assert_eq!(y_range(&t, |m| m == "k"), (50.0, 90.0));
    assert_eq!(y_range(&t, |_| false), (0.0, 100.0));
}

#[wasm_bindgen_test]
async fn more_than_ten_models_grey_out_all_but_the_top_eight() {
    let models: Vec<RunModel> = (0..11)
        .map(|i| model(&format!("m{i:02}"), 0.5 + 0.01 * i as f64))
        .collect();
    let index = Arc::new(RunIndex {
        format: SITE_FORMAT.into(),
        runs: vec![run("r1", "dev", models)],
    });
    let host = mount_index(index, ViewState::default());
    wait_for(&host, "[data-testid='trend-table'] tbody tr").await;
    assert_eq!(
        texts(&host, "[data-testid='trend-grey']"),
        [
            "The 8 models with the highest pass rate in the newest run are in colour and in the legend; \
          the other 3 are grey (hover to name one, or choose models)."
        ]
    );
    // The text alternative names the coloured lines first: m10 (60 %) down to m03, then
    // the grey m02, m01, m00.
    let alt = attr(&host, "canvas#site-trend", "aria-label").unwrap();
    assert!(
        alt.starts_with("Pass rate across runs (dev): M10 <b> 60 in r1; M09 <b> 59 in r1;"),
        "{alt}"
    );
    assert!(
        alt.contains("M03 <b> 53 in r1; M02 <b> 52 in r1; M01 <b> 51 in r1; M00 <b> 50 in r1."),
        "{alt}"
    );
}

#[wasm_bindgen_test]
async fn a_big_sites_table_is_built_when_opened() {
    // 50 runs × 10 models = 500 cells, past the 400 shown open.
    let runs: Vec<RunEntry> = (0..50)
        .map(|r| {
            let models = (0..10)
                .map(|i| model(&format!("m{i}"), 0.05 * i as f64 + 0.001 * r as f64))
                .collect();
            run(&format!("run-{r:02}"), "dev", models)
        })
        .collect();
    let index = Arc::new(RunIndex {
        format: SITE_FORMAT.into(),
        runs,
    });
    let host = mount_index(index, ViewState::default());
    wait_for(&host, "[data-testid='trend-table-toggle']").await;
    assert_eq!(
        texts(&host, "[data-testid='trend-table-toggle']"),
        ["The figures as a table (50 runs × 10 models)"]
    );
    assert!(
        host.query_selector("[data-testid='trend-table']")
            .unwrap()
            .is_none()
    );
    let summary: web_sys::HtmlElement = host
        .query_selector("[data-testid='trend-table-toggle']")
        .unwrap()
        .unwrap()
        .unchecked_into();
    summary.click();
    wait_for(&host, "[data-testid='trend-table'] tbody tr").await;
    assert_eq!(
        host.query_selector_all("[data-metric^='trend:']")
            .unwrap()
            .length(),
        500
    );
    assert_eq!(
        attr(&host, "[data-metric='trend:run-49:m9']", "data-value").as_deref(),
        Some((0.05 * 9.0 + 0.001 * 49.0).to_string().as_str())
    );
}
