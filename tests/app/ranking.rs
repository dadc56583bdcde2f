//! The ranking view: its numbers are answers to its questions (`runlens_web::derived::answers::ask`;
//! without a loader worker, as here, the page answers them with the worker's code), on a
//! corpus of 210,000 ranked tables and on small ones; the parser rule from the loader's
//! gold parses; the question panel asking for one question in full.

use std::sync::Arc;

use leptos::prelude::*;
use runlens_core::bundle::{Bundle, BundleBody, Corpus, Provenance, RankingRow};
use runlens_core::metrics::ranking_metrics::{ALL_REQUIRED, MRR, NDCG, RANKING_METRICS, RECALL};
use runlens_core::metrics::report::ReportOptions;
use runlens_core::metrics::report_retrieval::retrieval_section;
use runlens_web::pages::RankingView;
use runlens_web::state::RankingParams;
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
            let ranked: Vec<runlens_core::bundle::Name> = (0..TABLES)
                .map(|p| universe[(i + p) % TABLES].as_str().into())
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

/// Question rows in the DOM (the table is virtualised: the rows in view plus a margin).
fn rows_shown(host: &web_sys::HtmlElement) -> u32 {
    host.query_selector_all("table.questions tbody tr[data-trace]")
        .unwrap()
        .length()
}

fn question_count(host: &web_sys::HtmlElement) -> String {
    host.query_selector("[data-testid='question-count']")
        .unwrap()
        .map(|e| e.text_content().unwrap_or_default())
        .unwrap_or_default()
}

#[wasm_bindgen_test]
async fn a_large_corpus_is_answered_then_the_answer_is_shown() {
    let b = Arc::new(big());
    let host = mount(b.clone());
    // Answered off the mounting task: wait (at most 60 s) for the headline and the table.
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
    assert_eq!(metric(&host, "ndcg@10"), once.curves.at(&NDCG, 10));
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
    // All 300 listed; rendered: the 450 px box holds 15 rows of 30 px, + 1 + a margin of 6
    // below (none above at the top).
    assert_eq!(question_count(&host), "300 of 300 questions");
    assert_eq!(rows_shown(&host), 22);
    assert!(
        host.query_selector("[data-testid='ranking-progress']")
            .unwrap()
            .is_none()
    );
    // A second mount of the same bundle shows the same numbers (its answerer keeps the
    // gold sets).
    let again = mount(b);
    let mut waited = 0;
    while metric(&again, "recall@10").is_none() && waited < 60_000 {
        sleep(20).await;
        waited += 20;
    }
    assert_eq!(metric(&again, "recall@10"), Some(7.0 / 300.0));
}

#[wasm_bindgen_test]
async fn the_question_table_renders_the_rows_in_view_and_scrolls_through_all() {
    let b = Arc::new(big());
    let host = mount(b);
    let mut waited = 0;
    while rows_shown(&host) == 0 && waited < 60_000 {
        sleep(20).await;
        waited += 20;
    }
    let ids = |host: &web_sys::HtmlElement| -> Vec<String> {
        let list = host
            .query_selector_all("table.questions tbody tr[data-trace]")
            .unwrap();
        (0..list.length())
            .filter_map(|i| list.item(i))
            .filter_map(|n| n.dyn_into::<web_sys::Element>().ok())
            .filter_map(|e| e.get_attribute("data-trace"))
            .collect()
    };
    assert_eq!(ids(&host).first().map(String::as_str), Some("q000"));
    // Scrolled to row 150 (4,500 px): rows 144..172 are rendered, below a 4,320 px spacer.
    let scroll: web_sys::HtmlElement = host
        .query_selector("[data-testid='question-scroll']")
        .unwrap()
        .unwrap()
        .unchecked_into();
    scroll.set_scroll_top(4_500);
    scroll
        .dispatch_event(&web_sys::Event::new("scroll").unwrap())
        .unwrap();
    leptos::task::tick().await;
    let shown = ids(&host);
    assert_eq!(shown.len(), 172 - 144);
    assert_eq!(shown.first().map(String::as_str), Some("q144"));
    assert_eq!(shown.last().map(String::as_str), Some("q171"));
    let top_spacer = host
        .query_selector("table.questions tbody tr.spacer")
        .unwrap()
        .unwrap()
        .get_attribute("style");
    assert_eq!(top_spacer.as_deref(), Some("height:4320px"));
}

/// One corpus, namespace `crm`, question q1 whose gold SQL is a comma join: the harness rule
/// (and the stored `gold`) sees crm.a only; parsing sees crm.a and crm.b. q1 ranks crm.a,
/// crm.c, crm.b.
fn comma_join() -> Bundle {
    let universe: Vec<String> = ["crm.a", "crm.b", "crm.c"].map(String::from).to_vec();
    let ranked: Vec<runlens_core::bundle::Name> =
        ["crm.a", "crm.c", "crm.b"].map(Into::into).to_vec();
    let body = BundleBody {
        synthetic: true,
        namespaces: vec!["crm".into()],
        universe,
        corpora: vec![Corpus {
            name: "c".into(),
            questions: vec![runlens_core::bundle::Question {
                trace_id: "q1".into(),
                nl_question: "Accounts and contacts?".into(),
                gt_sql: vec!["SELECT 1 FROM crm.a x, crm.b y".into()],
                ..Default::default()
            }],
            rankings: vec![RankingRow {
                trace_id: "q1".into(),
                gold: vec!["crm.a".into()],
                scores: ranked.iter().map(|t| (t.clone(), 0.9)).collect(),
                ranked,
                ..RankingRow::default()
            }],
            ..Corpus::default()
        }],
        ..BundleBody::default()
    };
    Bundle::new(Provenance::default(), body)
}

/// [`comma_join`] with another question text: not the other tests' bundle (gold parses and
/// caches are keyed by its hash).
fn comma_join_asking(question: &str) -> Arc<Bundle> {
    let mut body = comma_join().body;
    body.corpora[0].questions[0].nl_question = question.into();
    Arc::new(Bundle::new(Provenance::default(), body))
}

fn mount_with(b: Arc<Bundle>, state: ViewState) -> (web_sys::HtmlElement, UrlState) {
    let doc = document();
    let host: web_sys::HtmlElement = doc.create_element("div").unwrap().unchecked_into();
    doc.body().unwrap().append_child(&host).unwrap();
    let url = UrlState::detached(state);
    let (h, u) = (host.clone(), url);
    std::mem::forget(leptos::mount::mount_to(h, move || {
        provide_context(u);
        view! { <RankingView bundle=b.clone() /> }
    }));
    (host, url)
}

async fn wait_for_metric(host: &web_sys::HtmlElement, name: &str, want: f64) -> Option<f64> {
    let mut waited = 0;
    while metric(host, name) != Some(want) && waited < 10_000 {
        sleep(10).await;
        waited += 10;
    }
    metric(host, name)
}

#[wasm_bindgen_test]
async fn the_parser_rule_is_answered_from_the_loaders_gold_parses() {
    use runlens_core::metrics::gold_tables::{GoldRule, StatementParses};
    use runlens_web::derived::bundle_matcher::bundle_matcher;
    use runlens_web::loader::parses::{expect_parses, install_parses};
    let b = Arc::new(comma_join());
    let state = ViewState {
        tab: Tab::Ranking,
        corpus: Some("c".into()),
        ranking: RankingParams {
            k: 1,
            ..RankingParams::default()
        },
        ..ViewState::default()
    };
    // The loader's parses: a recorded outcome parsing would never give (crm.c) proves the
    // answer comes from them.
    expect_parses(&b.content_hash);
    let mut parses = StatementParses::of_gold_sql(&b.body).unwrap();
    assert_eq!(
        parses.statements["SELECT 1 FROM crm.a x, crm.b y"],
        Some(vec!["crm.a".to_string(), "crm.b".to_string()])
    );
    parses.statements.insert(
        "SELECT 1 FROM crm.a x, crm.b y".into(),
        Some(vec!["crm.c".into()]),
    );
    install_parses(&b.content_hash, parses);
    assert!(bundle_matcher(&b).is_some_and(|m| m.has_parses()));
    let (host, url) = mount_with(b.clone(), state);
    // Harness rule: gold {crm.a}, ranked first.
    assert_eq!(wait_for_metric(&host, "recall@1", 1.0).await, Some(1.0));
    // #17: the headline reads words; the keys stay in data-metric.
    let terms: Vec<String> = {
        let dts = host.query_selector_all(".ranking .headline dt").unwrap();
        (0..dts.length())
            .map(|i| dts.item(i).unwrap().text_content().unwrap())
            .collect()
    };
    assert!(
        terms
            .iter()
            .any(|t| t == "mean size of the high-confidence set"),
        "{terms:?}"
    );
    assert!(terms.iter().any(|t| t.starts_with("nDCG@")), "{terms:?}");
    assert!(
        terms.iter().all(|t| !t.contains(':') && !t.contains('_')),
        "{terms:?}"
    );
    url.push(|s| s.ranking.gold = GoldRule::Parser);
    // Parsing here would give gold {crm.a, crm.b} and recall@1 = 1/2; the recorded crm.c
    // (rank 2) gives 0.
    assert_eq!(wait_for_metric(&host, "recall@1", 0.0).await, Some(0.0));
}

#[wasm_bindgen_test]
async fn without_the_loaders_parses_the_parser_rule_parses_the_gold_sql() {
    use runlens_core::metrics::gold_tables::GoldRule;
    let b = comma_join_asking("Accounts and contacts, parsed here?");
    let state = ViewState {
        tab: Tab::Ranking,
        corpus: Some("c".into()),
        ranking: RankingParams {
            k: 1,
            gold: GoldRule::Parser,
            ..RankingParams::default()
        },
        ..ViewState::default()
    };
    let (host, _) = mount_with(b, state);
    // Parsed gold {crm.a, crm.b}; crm.a is ranked first: recall@1 = 1/2.
    assert_eq!(wait_for_metric(&host, "recall@1", 0.5).await, Some(0.5));
}

#[wasm_bindgen_test]
async fn the_open_question_is_asked_for_in_full() {
    // The list's rows carry no per-table scores; the panel asks for the question's and
    // shows every ranked table with its P(yes).
    let b = comma_join_asking("Accounts and contacts, opened?");
    let state = ViewState {
        tab: Tab::Ranking,
        corpus: Some("c".into()),
        ranking: RankingParams {
            question: Some("q1".into()),
            ..RankingParams::default()
        },
        ..ViewState::default()
    };
    let (host, _) = mount_with(b, state);
    let tables = |host: &web_sys::HtmlElement| -> Vec<String> {
        let list = host
            .query_selector_all("[data-testid='question-scores'] tbody tr")
            .unwrap();
        (0..list.length())
            .filter_map(|i| list.item(i))
            .map(|n| n.text_content().unwrap_or_default())
            .collect()
    };
    let mut waited = 0;
    while tables(&host).is_empty() && waited < 10_000 {
        sleep(10).await;
        waited += 10;
    }
    let rows = tables(&host);
    assert_eq!(rows.len(), 3, "{rows:?}");
    for (row, table) in rows.iter().zip(["crm.a", "crm.c", "crm.b"]) {
        assert!(row.contains(table) && row.contains("0.9"), "{row}");
    }
}

/// The value a `<select>` shows (`None` while it is not in the page).
fn select_value(host: &web_sys::HtmlElement, testid: &str) -> Option<String> {
    host.query_selector(&format!("[data-testid='{testid}']"))
        .ok()
        .flatten()
        .and_then(|e| js_sys::Reflect::get(&e, &"value".into()).ok())
        .and_then(|v| v.as_string())
}

#[wasm_bindgen_test]
async fn the_selects_show_the_shown_corpus_and_the_linked_gold_count() {
    // #17, bug 2: with no `corpus=` the corpus select showed nothing although the view shows
    // the one ranked corpus; a link's `ngold=2` showed "any" while the list was filtered.
    let sample =
        runlens_web::data::decode_bundle("article.json.gz", crate::sample_files::SAMPLE).unwrap();
    let (host, _) = mount_with(
        sample,
        ViewState {
            tab: Tab::Ranking,
            ranking: RankingParams {
                n_gold: Some(2),
                ..RankingParams::default()
            },
            ..ViewState::default()
        },
    );
    let mut shown = (None, None);
    for _ in 0..100 {
        leptos::task::tick().await;
        shown = (
            select_value(&host, "corpus-select"),
            select_value(&host, "ngold-select"),
        );
        if shown.1.as_deref() == Some("2") {
            break;
        }
        sleep(50).await;
    }
    assert_eq!(
        shown,
        (
            Some("text2sqlbench-synthetic-dev".to_owned()),
            Some("2".to_owned())
        )
    );
}

#[wasm_bindgen_test]
fn headline_terms_are_words() {
    use runlens_web::pages::ranking::headline_term;
    assert_eq!(headline_term("ndcg@10"), "nDCG@10");
    assert_eq!(headline_term("all_required@5"), "all-required@5");
    assert_eq!(headline_term("mrr@10"), "MRR@10");
    assert_eq!(headline_term("success@3"), "success@3");
    assert_eq!(headline_term("recall@10"), "recall@10");
    assert_eq!(
        headline_term("high_confidence:full_coverage"),
        "share of questions whose set holds every gold table"
    );
}

fn checkbox(host: &web_sys::HtmlElement, key: &str) -> web_sys::HtmlInputElement {
    host.query_selector(&format!(
        "[data-testid='curve-picker'] input[data-curve='{key}']"
    ))
    .unwrap()
    .unwrap()
    .unchecked_into()
}

fn ticked(host: &web_sys::HtmlElement) -> Vec<String> {
    RANKING_METRICS
        .iter()
        .filter(|m| checkbox(host, m.key).checked())
        .map(|m| m.key.to_owned())
        .collect()
}

fn cell(host: &web_sys::HtmlElement, name: &str) -> Option<f64> {
    host.query_selector(&format!("td[data-cell='{name}']"))
        .unwrap()
        .map(|e| e.get_attribute("data-value").unwrap().parse().unwrap())
}

#[wasm_bindgen_test]
async fn the_curve_picker_chooses_the_curves_drawn_and_the_table_has_them_all() {
    // q1's one (stored) gold table crm.a is ranked first of 3: every metric is 1 at every k
    // but precision, 1/k.
    let b = comma_join_asking("Which curves?");
    let state = ViewState {
        tab: Tab::Ranking,
        corpus: Some("c".into()),
        ranking: RankingParams {
            k: 3,
            ..RankingParams::default()
        },
        ..ViewState::default()
    };
    let (host, url) = mount_with(b, state);
    assert_eq!(wait_for_metric(&host, "recall@3", 1.0).await, Some(1.0));
    assert_eq!(ticked(&host), ["ndcg", "recall", "all_required"]);
    assert_eq!(metric(&host, "ndcg@3"), Some(1.0));
    assert_eq!(metric(&host, "precision@3"), None);
    // The exact-value table has every metric whether drawn or not.
    assert_eq!(cell(&host, "precision@2"), Some(1.0 / 2.0));
    assert_eq!(cell(&host, "precision@3"), Some(1.0 / 3.0));
    assert_eq!(cell(&host, "mrr@1"), Some(1.0));
    assert_eq!(cell(&host, "success@1"), Some(1.0));
    let headers = host
        .query_selector_all("table.values thead th")
        .unwrap()
        .length();
    assert_eq!(headers as usize, 1 + RANKING_METRICS.len());

    checkbox(&host, "precision").click();
    leptos::task::tick().await;
    assert_eq!(
        url.with_untracked(|s| s.ranking.curves.clone()),
        ["ndcg", "recall", "all_required", "precision"]
    );
    assert_eq!(metric(&host, "precision@3"), Some(1.0 / 3.0));

    // Down to precision alone: its box cannot be unticked.
    for key in ["ndcg", "recall", "all_required"] {
        checkbox(&host, key).click();
        leptos::task::tick().await;
    }
    assert_eq!(ticked(&host), ["precision"]);
    assert!(checkbox(&host, "precision").disabled());
    assert_eq!(metric(&host, "ndcg@3"), None);
    // Back to the harness's three: `curves=` leaves the link.
    for key in ["ndcg", "recall", "all_required", "precision"] {
        checkbox(&host, key).click();
        leptos::task::tick().await;
    }
    assert_eq!(ticked(&host), ["ndcg", "recall", "all_required"]);
    assert!(url.with_untracked(|s| s.ranking.curves.is_empty()));
}

#[wasm_bindgen_test]
fn the_chart_draws_the_chosen_curves_in_registry_order_and_the_csv_has_every_curve() {
    use runlens_charts::{Marker, Palette, Theme};
    use runlens_core::metrics::curves::{QuestionRanking, retrieval_curves};
    use runlens_web::pages::ranking::{curve_chart, curves_csv, shown_metrics};
    // One question, gold at positions 1 of 2 gold tables; k = 1, 2.
    let curves = retrieval_curves(
        &[QuestionRanking {
            positions: vec![1],
            n_gold: 2,
        }],
        2,
    );
    let shown = shown_metrics(&["mrr".to_owned(), "recall".to_owned()]);
    assert_eq!(shown, [&RECALL, &MRR]);
    let chart = curve_chart("t".into(), &curves, &shown, Theme::LIGHT);
    let drawn: Vec<_> = chart
        .series
        .iter()
        .map(|s| (s.label.as_str(), s.color, s.marker, s.points.clone()))
        .collect();
    assert_eq!(
        drawn,
        [
            (
                "recall@k",
                Palette::RECALL,
                Marker::Circle,
                vec![(1, 0.0), (2, 1.0 / 2.0)]
            ),
            (
                "MRR@k",
                Palette::MORE_CURVES[2],
                Marker::Triangle,
                vec![(1, 0.0), (2, 1.0 / 2.0)]
            ),
        ]
    );
    assert_eq!(shown_metrics(&[]), [&NDCG, &RECALL, &ALL_REQUIRED]);
    let ndcg2 = (1.0 / 3f64.log2()) / (1.0 + 1.0 / 3f64.log2());
    assert_eq!(
        curves_csv(&curves),
        format!(
            "k,ndcg,recall,all_required,precision,success,mrr\r\n\
             1,0,0,0,0,0,0\r\n\
             2,{ndcg2},0.5,0,0.5,1,0.5\r\n"
        )
    );
}
