//! The ranking view on a corpus large enough to be built in slices (cache.rs: more than
//! 200,000 ranked tables), and its per-bundle cache across mounts.

use std::sync::Arc;

use leptos::prelude::*;
use runlens_core::bundle::{Bundle, BundleBody, Corpus, Provenance, RankingRow};
use runlens_core::metrics::report::ReportOptions;
use runlens_core::metrics::report_retrieval::retrieval_section;
use runlens_web::pages::RankingView;
use runlens_web::state::{Tab, UrlState, ViewState};
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::*;

const TABLES: usize = 700;
const QUESTIONS: usize = 300;

/// 300 questions over 700 tables (210,000 ranked tables): question i ranks every table,
/// starting at table i, and its one gold table is the one at 0-based position (37·i) mod 700.
fn big() -> Bundle {
    let universe: Vec<String> = (0..TABLES).map(|t| format!("ns.t{t:03}")).collect();
    let rankings = (0..QUESTIONS)
        .map(|i| {
            let ranked: Vec<String> = (0..TABLES)
                .map(|p| universe[(i + p) % TABLES].clone())
                .collect();
            RankingRow {
                trace_id: format!("q{i:03}"),
                gold: vec![ranked[(37 * i) % TABLES].clone()],
                scores: ranked.iter().map(|t| (t.clone(), 0.3)).collect(),
                ranked,
                ..RankingRow::default()
            }
        })
        .collect();
    let body = BundleBody {
        synthetic: true,
        universe,
        corpora: vec![Corpus {
            name: "big".into(),
            rankings,
            ..Corpus::default()
        }],
        ..BundleBody::default()
    };
    Bundle::new(Provenance::default(), body)
}

async fn sleep(ms: i32) {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        let _ = web_sys::window()
            .unwrap()
            .set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms);
    });
    let _ = JsFuture::from(promise).await;
}

fn mount(b: Arc<Bundle>) -> web_sys::HtmlElement {
    let doc = document();
    let host: web_sys::HtmlElement = doc.create_element("div").unwrap().unchecked_into();
    doc.body().unwrap().append_child(&host).unwrap();
    let h = host.clone();
    std::mem::forget(leptos::mount::mount_to(h, move || {
        provide_context(UrlState::detached(ViewState {
            tab: Tab::Ranking,
            ..ViewState::default()
        }));
        view! { <RankingView bundle=b.clone() /> }
    }));
    host
}

fn metric(host: &web_sys::HtmlElement, name: &str) -> Option<f64> {
    host.query_selector(&format!("[data-metric='{name}']"))
        .unwrap()
        .map(|e| e.get_attribute("data-value").unwrap().parse().unwrap())
}

fn rows_shown(host: &web_sys::HtmlElement) -> u32 {
    host.query_selector_all("table.questions tbody tr")
        .unwrap()
        .length()
}

#[wasm_bindgen_test]
async fn a_large_corpus_is_built_in_slices_then_cached_across_mounts() {
    let b = Arc::new(big());
    let host = mount(b.clone());
    // Built in slices: wait (at most 60 s) until the headline and the table are there.
    let mut waited = 0;
    while (metric(&host, "recall@10").is_none() || rows_shown(&host) == 0) && waited < 60_000 {
        sleep(20).await;
        waited += 20;
    }
    // Gold positions (37·i) mod 700 below 10 for i < 300: i = 0 (0), 19 (703 → 3), 38
    // (1406 → 6), 57 (2109 → 9), 246 (9102 → 2), 265 (9805 → 5), 284 (10508 → 8); the
    // others (positions 1, 4, 7) need i = 473, 492, 511. So 7 of 300.
    assert_eq!(metric(&host, "recall@10"), Some(7.0 / 300.0));
    assert_eq!(metric(&host, "all_required@10"), Some(7.0 / 300.0));
    // Bit-identical to the one-shot core section (what `runlens metrics` computes).
    let once = retrieval_section(&b.body, &b.body.corpora[0], &ReportOptions::default());
    assert_eq!(metric(&host, "ndcg@10"), Some(once.curves.ndcg[9]));
    // Every P is 0.3 < 0.5: the high-confidence set is the top table alone; it is gold for
    // i = 0 only (position 0), so precision = recall = coverage = 1/300.
    assert_eq!(
        metric(&host, "high_confidence:precision"),
        Some(1.0 / 300.0)
    );
    assert_eq!(
        metric(&host, "high_confidence:precision"),
        Some(once.high_confidence.precision)
    );
    assert_eq!(rows_shown(&host), 300);
    assert!(
        host.query_selector("[data-testid='ranking-progress']")
            .unwrap()
            .is_none()
    );
    // A second mount of the same bundle finds everything cached: values after one tick.
    let again = mount(b);
    leptos::task::tick().await;
    assert_eq!(metric(&again, "recall@10"), Some(7.0 / 300.0));
    assert_eq!(rows_shown(&again), 300);
}
