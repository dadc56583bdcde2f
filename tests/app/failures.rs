//! The failures view: exact counts in `data-value`s from a hand-made bundle, a clicked
//! sub-mode filters the list (and the URL), the threshold moves `cdf:above` exactly, the
//! list is virtualised, hostile strings stay text, a row opens its trajectory; and on the
//! sample bundle every count equals `runlens metrics --json`.

use std::sync::Arc;

use crate::sample_files::{NATIVE_DEV, SAMPLE};
use leptos::prelude::*;
use runlens_core::bundle::{
    Bundle, BundleBody, Corpus, FailureLabel, FmLabel, Provenance, Question,
};
use runlens_core::metrics::failures_view::{
    BaseFilter, Filter, Labelled, all_rows, bin_of, list_csv, summarise,
};
use runlens_web::data::decode_bundle;
use runlens_web::pages::FailuresView;
use runlens_web::pages::failures::list::{BLOCK, ROW_HEIGHT, ROWS};
use runlens_web::state::{Tab, UrlState, ViewState, encode_query};
use serde_json::json;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

const HOSTILE_Q: &str = "MRR of <img src=x onerror=alert(1)> & co";
const HOSTILE_SUB: &str = "<script>alert(2)</script>";

fn label(v: serde_json::Value) -> FailureLabel {
    serde_json::from_value(v).unwrap()
}

fn question(id: &str, text: &str) -> Question {
    Question {
        trace_id: id.into(),
        nl_question: text.into(),
        ..Default::default()
    }
}

fn fm(model: &str, trace: &str, code: &str) -> FmLabel {
    FmLabel {
        trace_id: trace.into(),
        model: model.into(),
        fm: code.into(),
        ..Default::default()
    }
}

/// dev: 5 labels (m1 ×2, m2 ×3); other: 1 label.
fn bundle() -> Bundle {
    let dev = Corpus {
        name: "dev".into(),
        questions: vec![
            question("q1", HOSTILE_Q),
            question("q2", "How many accounts?"),
            question("q3", "Revenue by month"),
            question("q4", "Churn"),
        ],
        failure_labels: vec![
            label(
                json!({"trace_id": "q1", "model": "m1", "sub_mode": "wrong_identifier",
                "sub_mode_confidence": 0.9, "correct_despite_fail": 0.70, "schema_hint_would_help": 0.8,
                "prevented_by_rule": "crm_join",
                "decidable_verdicts": {"reference_date": "violation", "output_column_naming": "n/a"}}),
            ),
            label(
                json!({"trace_id": "q2", "model": "m1", "sub_mode": "wrong_identifier",
                "sub_mode_confidence": 0.5, "correct_despite_fail": 0.10, "schema_hint_would_help": 0.15,
                "prevented_by_rule": "none",
                "decidable_verdicts": {"reference_date": "ok", "output_column_naming": "n/a"}}),
            ),
            label(
                json!({"trace_id": "q1", "model": "m2", "sub_mode": "stopped_early",
                "sub_mode_confidence": 0.8, "correct_despite_fail": 0.66, "prevented_by_rule": "none"}),
            ),
            label(
                json!({"trace_id": "q3", "model": "m2", "sub_mode": "correct_but_judged_fail",
                "sub_mode_confidence": 0.95, "correct_despite_fail": 0.95, "prevented_by_rule": "none"}),
            ),
            label(json!({"trace_id": "q4", "model": "m2", "sub_mode": HOSTILE_SUB})),
        ],
        fm_labels: vec![
            fm("m1", "q1", "FM3"),
            fm("m2", "q1", "FM1"),
            fm("m2", "q3", "FM?"),
        ],
        ..Default::default()
    };
    let other = Corpus {
        name: "other".into(),
        failure_labels: vec![label(
            json!({"trace_id": "z1", "model": "m1", "sub_mode": "wrong_join",
            "sub_mode_confidence": 0.7, "correct_despite_fail": 0.3}),
        )],
        ..Default::default()
    };
    let body = BundleBody {
        synthetic: true,
        corpora: vec![dev, other],
        ..Default::default()
    };
    Bundle::new(Provenance::default(), body)
}

fn mount(bundle: impl Into<Arc<Bundle>>, state: ViewState) -> (web_sys::HtmlElement, UrlState) {
    let host = document().create_element("div").unwrap();
    document().body().unwrap().append_child(&host).unwrap();
    let host: web_sys::HtmlElement = host.unchecked_into();
    let st = UrlState::detached(state);
    let b: Arc<Bundle> = bundle.into();
    std::mem::forget(leptos::mount::mount_to(host.clone(), move || {
        provide_context(st);
        view! { <FailuresView bundle=b.clone() /> }
    }));
    (host, st)
}

fn dev_state() -> ViewState {
    ViewState {
        tab: Tab::Failures,
        corpus: Some("dev".into()),
        ..ViewState::default()
    }
}

fn metric(host: &web_sys::HtmlElement, name: &str) -> Option<f64> {
    let el = host
        .query_selector(&format!("[data-metric=\"{name}\"]"))
        .unwrap()?;
    el.get_attribute("data-value")?.parse().ok()
}

fn list_traces(host: &web_sys::HtmlElement) -> Vec<String> {
    let rows = host.query_selector_all(".fail-row[data-trace]").unwrap();
    (0..rows.length())
        .filter_map(|i| rows.item(i)?.dyn_into::<web_sys::Element>().ok())
        .map(|e| {
            format!(
                "{}/{}",
                e.get_attribute("data-model").unwrap(),
                e.get_attribute("data-trace").unwrap()
            )
        })
        .collect()
}

fn click(host: &web_sys::HtmlElement, selector: &str) {
    host.query_selector(selector)
        .unwrap()
        .unwrap_or_else(|| panic!("no {selector}"))
        .unchecked_into::<web_sys::HtmlElement>()
        .click();
}

#[wasm_bindgen_test]
async fn counts_are_exact_under_corpus_and_confidence_filters() {
    let (host, st) = mount(bundle(), dev_state());
    settled(&host).await;
    // dev: 5 labels.
    assert_eq!(metric(&host, "failures:count"), Some(5.0));
    assert_eq!(metric(&host, "sub_mode:wrong_identifier"), Some(2.0));
    assert_eq!(metric(&host, "sub_mode:stopped_early"), Some(1.0));
    assert_eq!(metric(&host, "sub_mode:wrong_join"), Some(0.0));
    assert_eq!(metric(&host, &format!("sub_mode:{HOSTILE_SUB}")), Some(1.0));
    assert_eq!(metric(&host, "family:entity_resolution"), Some(2.0));
    assert_eq!(metric(&host, "family:(none)"), Some(1.0));
    assert_eq!(metric(&host, "fm_bucket:FM3 wrong data"), Some(2.0));
    assert_eq!(metric(&host, "fm_bucket:FM1 no attempt"), Some(1.0));
    // correct_but_judged_fail + the unknown sub-mode.
    assert_eq!(metric(&host, "fm_bucket:not a model failure"), Some(2.0));
    // cdf ≥ 0.65: 0.70, 0.66, 0.95.
    assert_eq!(metric(&host, "cdf:above"), Some(3.0));
    // Rule blame: crm_join 1, none 3 (the hostile row has no rule).
    assert_eq!(metric(&host, "rule:crm_join"), Some(1.0));
    assert_eq!(metric(&host, "rule:none"), Some(3.0));
    assert_eq!(metric(&host, "violation:reference_date"), Some(1.0));
    assert_eq!(metric(&host, "failures:listed"), Some(5.0));
    // The headline reads words; its keys stay in data-metric.
    let terms: Vec<String> = {
        let dts = host.query_selector_all(".failures .headline dt").unwrap();
        (0..dts.length())
            .map(|i| dts.item(i).unwrap().text_content().unwrap())
            .collect()
    };
    assert_eq!(terms[..3], ["failures", "FM1 no attempt", "FM2 wrong plan"]);
    assert!(terms.iter().all(|t| !t.contains("fm_bucket:")), "{terms:?}");
    // The FM heatmap is drawn (dev has FM labels).
    assert!(host.query_selector("#fail-fm").unwrap().is_some());

    // All corpora: + other's wrong_join.
    st.push(|s| s.corpus = None);
    settled(&host).await;
    assert_eq!(metric(&host, "failures:count"), Some(6.0));
    assert_eq!(metric(&host, "sub_mode:wrong_join"), Some(1.0));
    // Confidence 0.6..1: 0.9, 0.8, 0.95 (dev) and 0.7 (other); the missing one drops out.
    st.push(|s| s.failures.conf_min = 0.6);
    settled(&host).await;
    assert_eq!(metric(&host, "failures:count"), Some(4.0));
    assert_eq!(metric(&host, "sub_mode:wrong_identifier"), Some(1.0));
    // Model m2 only: stopped_early (0.8) and correct_but_judged_fail (0.95).
    st.push(|s| s.models = vec!["m2".into()]);
    settled(&host).await;
    assert_eq!(metric(&host, "failures:count"), Some(2.0));
    assert_eq!(metric(&host, "family:process"), Some(1.0));
    assert_eq!(metric(&host, "family:grading"), Some(1.0));
}

#[wasm_bindgen_test]
async fn clicking_a_sub_mode_filters_the_list_and_the_url() {
    let (host, st) = mount(bundle(), dev_state());
    settled(&host).await;
    assert_eq!(list_traces(&host).len(), 5);
    click(
        &host,
        "[data-testid='fail-sub-modes-items'] button[data-filter='sub_mode:wrong_identifier']",
    );
    settled(&host).await;
    assert_eq!(
        st.with_untracked(|s| s.failures.filter.clone()).as_deref(),
        Some("sub_mode:wrong_identifier")
    );
    let query = st.with_untracked(encode_query);
    assert!(query.contains("f=sub_mode"), "{query}");
    assert_eq!(list_traces(&host), vec!["m1/q1", "m1/q2"]);
    assert_eq!(metric(&host, "failures:listed"), Some(2.0));
    // Headline counts stay those of the base filter.
    assert_eq!(metric(&host, "failures:count"), Some(5.0));
    let chip = host
        .query_selector("[data-testid='filter-chip']")
        .unwrap()
        .unwrap();
    assert!(
        chip.text_content()
            .unwrap()
            .contains("sub_mode:wrong_identifier")
    );
    // The button is pressed.
    let pressed = host
        .query_selector("button[data-filter='sub_mode:wrong_identifier']")
        .unwrap()
        .unwrap()
        .get_attribute("aria-pressed");
    assert_eq!(pressed.as_deref(), Some("true"));
    // A segment of the per-model profile lists that model's rows of the family only; a
    // heatmap cell that model's rows of the FM code (m2/q1 has FM1).
    click(
        &host,
        "[data-testid='fail-profile-items'] button[data-filter='family:process|model:m2']",
    );
    settled(&host).await;
    assert_eq!(list_traces(&host), vec!["m2/q1"]);
    click(
        &host,
        "[data-testid='fail-fm-items'] button[data-filter='fm:FM1|model:m2']",
    );
    settled(&host).await;
    assert_eq!(list_traces(&host), vec!["m2/q1"]);
    click(
        &host,
        "[data-testid='fail-fm-items'] button[data-filter='fm:FM1|model:m1']",
    );
    settled(&host).await;
    assert_eq!(list_traces(&host), Vec::<String>::new());
    // A rule row: crm_join (blamed) matches q1 of m1 only.
    click(
        &host,
        "[data-testid='rule-blame'] button[data-filter='rule:crm_join']",
    );
    settled(&host).await;
    assert_eq!(list_traces(&host), vec!["m1/q1"]);
    // A cdf bin: 0.66 / 0.05 = 13.2 and 0.70 / 0.05 = 13.999… (floating point) are both
    // in bin 13, as in the core histogram.
    assert_eq!((bin_of(0.66), bin_of(0.70)), (Some(13), Some(13)));
    click(
        &host,
        "[data-testid='fail-cdf-items'] button[data-filter='cdf:13']",
    );
    settled(&host).await;
    assert_eq!(list_traces(&host), vec!["m1/q1", "m2/q1"]);
    // Clearing the chip restores every row.
    click(&host, "[data-testid='filter-chip'] button");
    settled(&host).await;
    assert_eq!(st.with_untracked(|s| s.failures.filter.clone()), None);
    assert_eq!(list_traces(&host).len(), 5);
}

#[wasm_bindgen_test]
async fn moving_the_threshold_changes_cdf_above_exactly() {
    let (host, st) = mount(bundle(), dev_state());
    settled(&host).await;
    let slider: web_sys::HtmlInputElement = host
        .query_selector("[data-testid='ct-slider']")
        .unwrap()
        .unwrap()
        .unchecked_into();
    slider.set_value("0.67");
    slider
        .dispatch_event(&web_sys::Event::new("input").unwrap())
        .unwrap();
    settled(&host).await;
    // ≥ 0.67: 0.70 and 0.95.
    assert_eq!(st.with_untracked(|s| s.failures.cdf_threshold), 0.67);
    assert_eq!(metric(&host, "cdf:above"), Some(2.0));
    slider.set_value("0.96");
    slider
        .dispatch_event(&web_sys::Event::new("change").unwrap())
        .unwrap();
    settled(&host).await;
    assert_eq!(metric(&host, "cdf:above"), Some(0.0));
    slider.set_value("0.1");
    slider
        .dispatch_event(&web_sys::Event::new("input").unwrap())
        .unwrap();
    settled(&host).await;
    // ≥ 0.1: 0.70, 0.10, 0.66, 0.95 (the hostile row has none).
    assert_eq!(metric(&host, "cdf:above"), Some(4.0));
    assert!(st.with_untracked(encode_query).contains("ct=0.1"));
}

#[wasm_bindgen_test]
async fn hostile_strings_render_as_text_and_a_row_opens_its_trajectory() {
    let (host, st) = mount(bundle(), dev_state());
    settled(&host).await;
    let text = host.text_content().unwrap();
    assert!(text.contains(HOSTILE_Q), "question shown verbatim");
    assert!(text.contains(HOSTILE_SUB), "sub-mode shown verbatim");
    assert!(host.query_selector("img").unwrap().is_none());
    assert!(host.query_selector("script").unwrap().is_none());
    click(&host, ".fail-row[data-trace='q3'] button.open");
    settled(&host).await;
    st.with_untracked(|s| {
        assert_eq!(s.tab, Tab::Trajectory);
        assert_eq!(s.corpus.as_deref(), Some("dev"));
        assert_eq!(s.trajectory.model.as_deref(), Some("m2"));
        assert_eq!(s.trajectory.trace.as_deref(), Some("q3"));
        assert_eq!(s.trajectory.from.as_deref(), Some("failures"));
    });
}

#[wasm_bindgen_test]
fn filters_parse_and_match_as_documented() {
    let owned = bundle();
    let b = Labelled::of(&owned.body);
    let rows = all_rows(b);
    let n = |f: &str| {
        let f = Filter::parse(f).unwrap();
        rows.iter().filter(|r| f.matches(b, r)).count()
    };
    assert_eq!(n("family:entity_resolution"), 2);
    assert_eq!(n("bucket:not a model failure"), 2);
    // FM labels join by model and trace: m1/q1 FM3, m2/q1 FM1; FM? matches nothing.
    assert_eq!(n("fm:FM3"), 1);
    assert_eq!(n("fm:FM1"), 1);
    assert_eq!(n("fm:FM2"), 0);
    // A profile segment or heatmap cell is one model's: both entity_resolution rows are m1's.
    assert_eq!(n("family:entity_resolution|model:m1"), 2);
    assert_eq!(n("family:entity_resolution|model:m2"), 0);
    assert_eq!(n("fm:FM1|model:m2"), 1);
    assert_eq!(n("fm:FM1|model:m1"), 0);
    assert_eq!(Filter::parse("colour:red|model:m1"), None);
    // rule:reference_date = the decidable violation of m1/q1.
    assert_eq!(n("rule:reference_date"), 1);
    assert_eq!(n("rule:none"), 3);
    // 0.15 lands in bin 2 (as the core histogram: 0.15 / 0.05 < 3).
    assert_eq!(bin_of(0.15), Some(2));
    assert_eq!(bin_of(1.0), Some(19));
    assert_eq!(bin_of(1.5), None);
    assert_eq!(n("hint:2"), 1);
    assert_eq!(Filter::parse("cdf:20"), None);
    assert_eq!(Filter::parse("colour:red"), None);
    // The CSV names every column and escapes the hostile question as a plain cell.
    let csv = list_csv(b, &rows);
    assert!(csv.starts_with("corpus,model,trace_id,question,sub_mode,family,fm_bucket,"));
    assert_eq!(csv.lines().count(), 1 + 6);
    assert!(csv.contains(HOSTILE_Q));
}

/// 5,000 labels: only the visible rows plus a margin are in the DOM, scrolled or not.
#[wasm_bindgen_test]
async fn the_list_is_virtualised() {
    let labels: Vec<FailureLabel> = (0..5000)
        .map(|i| label(json!({"trace_id": format!("t{i}"), "model": "m", "sub_mode": "tool_loop"})))
        .collect();
    let body = BundleBody {
        corpora: vec![Corpus {
            name: "big".into(),
            failure_labels: labels,
            ..Default::default()
        }],
        ..Default::default()
    };
    let (host, _) = mount(
        Bundle::new(Provenance::default(), body),
        ViewState::default(),
    );
    settled(&host).await;
    charts_mounted(&host).await;
    assert_eq!(metric(&host, "failures:listed"), Some(5000.0));
    let (s, e) = ROWS.range(0, 5000);
    // 14 visible + 1 partial + 8 below.
    assert_eq!((s, e), (0, 23));
    assert_eq!(list_traces(&host).len(), 23);
    let scroller: web_sys::HtmlElement = host
        .query_selector("[data-testid='failure-scroll']")
        .unwrap()
        .unwrap()
        .unchecked_into();
    scroller.set_scroll_top((1000 * ROW_HEIGHT) as i32);
    scroller
        .dispatch_event(&web_sys::Event::new("scroll").unwrap())
        .unwrap();
    settled(&host).await;
    let traces = list_traces(&host);
    // Row 1000 is visible, with 8 rows of margin above: the first rendered is t992.
    assert_eq!(traces.first().map(String::as_str), Some("m/t992"));
    assert!(traces.contains(&"m/t1000".to_owned()));
    // 8 above + 476 / 34 = 14 visible + 1 partial + 8 below = 31 of 5,000, all in the
    // block of rows 960..1024 asked for when the window moved there.
    assert_eq!(traces.len(), 31);
    assert_eq!((992 / BLOCK, 1022 / BLOCK), (15, 15));
    assert_eq!(traces.last().map(String::as_str), Some("m/t1022"));
    // The spacers keep the full scroll height: 5,000 rows × 34 px.
    assert_eq!(scroller.scroll_height(), (5000 * ROW_HEIGHT) as i32);
}

/// Over 100 labels the view mounts one stage per task: only a notice right after mount,
/// everything after a few yields, with exact counts.
#[wasm_bindgen_test]
async fn many_labels_mount_the_charts_in_stages() {
    let labels: Vec<FailureLabel> = (0..101)
        .map(|i| label(json!({"trace_id": format!("t{i}"), "model": "m", "sub_mode": "tool_loop"})))
        .collect();
    let body = BundleBody {
        corpora: vec![Corpus {
            name: "big".into(),
            failure_labels: labels,
            ..Default::default()
        }],
        ..Default::default()
    };
    let (host, _) = mount(
        Bundle::new(Provenance::default(), body),
        ViewState::default(),
    );
    // The answer comes in microtasks (asked and answered in the page); the stages each wait
    // for a task (a zero-delay timeout), so ticks alone stop at stage 0.
    for _ in 0..1_000 {
        let answered = host
            .query_selector("[data-testid='failures-view'][data-answered='true']")
            .unwrap();
        if answered.is_some() {
            break;
        }
        leptos::task::tick().await;
    }
    let charts = || {
        host.query_selector(".failure-charts")
            .unwrap()
            .and_then(|e| e.get_attribute("data-charts"))
    };
    assert_eq!(charts().as_deref(), Some("some"));
    assert!(host.query_selector("#fail-sub-modes").unwrap().is_none());
    // Stage 0: the heading and a notice only; the list comes with stage 1.
    assert_eq!(metric(&host, "failures:listed"), None);
    assert!(
        host.query_selector("[data-testid='failures-progress']")
            .unwrap()
            .is_some()
    );
    charts_mounted(&host).await;
    assert_eq!(metric(&host, "failures:listed"), Some(101.0));
    assert!(
        host.query_selector("[data-testid='failures-progress']")
            .unwrap()
            .is_none()
    );
    assert_eq!(charts().as_deref(), Some("all"));
    assert_eq!(host.query_selector_all("canvas").unwrap().length(), 5);
    assert_eq!(metric(&host, "sub_mode:tool_loop"), Some(101.0));
}

/// Waits (at most 2 s) until every chart stage has mounted.
async fn sleep_10ms() {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        let _ = web_sys::window()
            .unwrap()
            .set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, 10);
    });
    let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
}

/// Waits (at most 3 s) until the view shows the answer to its newest question, every chart
/// stage has mounted and every list row in view is in.
async fn settled(host: &web_sys::HtmlElement) {
    leptos::task::tick().await;
    let done = || {
        let q = |sel: &str| host.query_selector(sel).unwrap().is_some();
        q("[data-testid='failures-view'][data-answered='true']")
            && !q("[data-testid='failures-view'][data-pending='true']")
            && !q(".failure-charts[data-charts='some']")
            && !q(".fail-row.pending")
    };
    for _ in 0..300 {
        if done() {
            leptos::task::tick().await;
            if done() {
                return;
            }
        }
        sleep_10ms().await;
    }
    panic!("the failures view did not settle");
}

async fn charts_mounted(host: &web_sys::HtmlElement) {
    for _ in 0..200 {
        let all = host
            .query_selector(".failure-charts[data-charts='all']")
            .unwrap();
        if all.is_some() {
            return;
        }
        sleep_10ms().await;
    }
    panic!("the failure charts did not all mount");
}

/// Every sub-mode, family and bucket count, and cdf ≥ 0.65, equal `runlens metrics --json`.
#[wasm_bindgen_test]
async fn sample_counts_equal_the_cli() {
    let bundle = decode_bundle("article.json.gz", SAMPLE).unwrap();
    let state = ViewState {
        corpus: Some("text2sqlbench-synthetic-dev".into()),
        ..dev_state()
    };
    let (host, _) = mount(bundle, state);
    settled(&host).await;
    // 277 labels: the view mounts in stages.
    charts_mounted(&host).await;
    let native: serde_json::Value = serde_json::from_str(NATIVE_DEV).unwrap();
    let f = &native["failures"];
    assert_eq!(metric(&host, "failures:count"), f["n"].as_f64());
    let mut checked = 0;
    for (kind, key) in [
        ("sub_mode", "sub_mode"),
        ("family", "family"),
        ("fm_bucket", "fm_bucket"),
    ] {
        for (name, count) in f[key].as_object().unwrap() {
            assert_eq!(
                metric(&host, &format!("{kind}:{name}")),
                count.as_f64(),
                "{kind}:{name}"
            );
            checked += 1;
        }
    }
    // 16 sub-modes + 7 families + 7 buckets.
    assert_eq!(checked, 30);
    assert_eq!(
        metric(&host, "cdf:above"),
        f["correct_despite_fail_at_least"]["0.65"].as_f64()
    );
    // #17, in-page navigation: a button per section, each naming an element of the view (the
    // sample has FM labels, so the FM chart's too); a click moves the focus to its section.
    let labels = crate::page_nav::labels_of_shown_sections(&host);
    assert_eq!(
        labels,
        [
            "Sub-modes",
            "Families",
            "Per model",
            "FM1–FM5",
            "Correct despite fail?",
            "Schema hint",
            "Rules blamed",
            "Rule verdicts",
            "List"
        ]
    );
    assert_eq!(
        crate::page_nav::click_and_focused(&host, "fail-list-section"),
        "fail-list-section"
    );
}

/// #17: model names are display names in the failures views (they were registry keys); the
/// key stays in `data-model`, the filter keys and the row's title.
#[wasm_bindgen_test]
async fn the_list_and_the_charts_name_models_by_their_display_names() {
    use runlens_core::bundle::ModelInfo;
    let mut b = bundle();
    b.body.models = vec![
        ModelInfo {
            key: "m1".into(),
            display_name: "Model One".into(),
        },
        ModelInfo {
            key: "m2".into(),
            display_name: "Model Two".into(),
        },
    ];
    let summary = summarise(
        Labelled::of(&b.body),
        &all_rows(Labelled::of(&b.body))[..5],
        &BaseFilter {
            corpus: Some("dev".into()),
            models: Vec::new(),
            conf: (0.0, 1.0),
        },
    );
    let (_, items) =
        runlens_web::pages::failures::charts::profile_chart(&summary, runlens_charts::Theme::LIGHT);
    // m2 has three failures, m1 two: m2's row first; the label names, the filter keys.
    // (stopped_early is in the process family: runlens_core::metrics::taxonomy::family_of.)
    assert_eq!(
        runlens_core::metrics::taxonomy::family_of("stopped_early"),
        Some("process")
    );
    assert_eq!(items[0].label, "Model Two · process");
    assert!(
        items[0].filter.ends_with("|model:m2"),
        "{}",
        items[0].filter
    );
    let (host, _) = mount(b, dev_state());
    for _ in 0..200 {
        if host
            .query_selector(".fail-row[data-model='m1']")
            .unwrap()
            .is_some()
        {
            break;
        }
        settled(&host).await;
        sleep_10ms().await;
    }
    let first = host
        .query_selector(".fail-row[data-model='m1'] > span")
        .unwrap()
        .unwrap();
    assert_eq!(first.text_content().unwrap(), "Model One");
    assert_eq!(first.get_attribute("title").as_deref(), Some("m1"));
}

/// Re-labels in force travel with the view's question: the counts and the list are those of
/// the bundle with them applied (one replaced, one added), and dropping them restores the
/// bundle's own.
#[wasm_bindgen_test]
async fn relabels_in_force_count_in_the_view() {
    use runlens_core::overrides::{LabelOverride, OverridesFile};
    use runlens_web::state::OverridesState;
    let b = Arc::new(bundle());
    let overrides = OverridesState::new(b.clone());
    // Shared overrides are never saved in this browser's storage.
    overrides.shared.set(true);
    let host = document().create_element("div").unwrap();
    document().body().unwrap().append_child(&host).unwrap();
    let host: web_sys::HtmlElement = host.unchecked_into();
    let st = UrlState::detached(dev_state());
    let mounted = b.clone();
    std::mem::forget(leptos::mount::mount_to(host.clone(), move || {
        provide_context(st);
        provide_context(overrides);
        view! { <FailuresView bundle=mounted.clone() /> }
    }));
    settled(&host).await;
    assert_eq!(metric(&host, "sub_mode:wrong_identifier"), Some(2.0));
    assert_eq!(metric(&host, "sub_mode:stopped_early"), Some(1.0));
    let entry = |trace: &str, sub: &str| {
        let new = label(json!({"trace_id": trace, "model": "m1", "sub_mode": sub,
            "sub_mode_confidence": 0.6, "correct_despite_fail": 0.9}));
        LabelOverride {
            key: format!("m1/{trace}"),
            corpus: "dev".into(),
            original: None,
            new,
            model_id: "jev-test".into(),
            request_hash: String::new(),
            applied_at: "2026-12-05T00:00:00Z".into(),
            answers: None,
        }
    };
    let file = OverridesFile {
        // m1/q2 wrong_identifier → stopped_early; m1/q3 had no label.
        overrides: vec![entry("q2", "stopped_early"), entry("q3", "stopped_early")],
        ..OverridesFile::new(b.content_hash.clone())
    };
    overrides.replace(file, "test").unwrap();
    settled(&host).await;
    assert_eq!(metric(&host, "failures:count"), Some(6.0));
    assert_eq!(metric(&host, "sub_mode:wrong_identifier"), Some(1.0));
    assert_eq!(metric(&host, "sub_mode:stopped_early"), Some(3.0));
    // cdf ≥ 0.65: 0.70, 0.66, 0.95 and the two re-labels' 0.9.
    assert_eq!(metric(&host, "cdf:above"), Some(5.0));
    st.push(|s| s.failures.filter = Some("sub_mode:stopped_early".into()));
    settled(&host).await;
    // A replaced label keeps its place (m1/q2 before m2/q1); an added one comes last.
    assert_eq!(list_traces(&host), vec!["m1/q2", "m2/q1", "m1/q3"]);
    overrides.clear();
    settled(&host).await;
    assert_eq!(list_traces(&host), vec!["m2/q1"]);
    assert_eq!(metric(&host, "failures:count"), Some(5.0));
}

/// The whole bundle replacing a v2 summary's head remounts the view with another `Bundle` of
/// the same content hash: it shows the last answer and rows at once (the worker may be busy
/// checking the hash for seconds), not "Counting the failures…".
#[wasm_bindgen_test]
async fn a_remount_for_the_same_bundle_shows_the_last_answer_at_once() {
    let (first, _) = mount(bundle(), dev_state());
    settled(&first).await;
    assert_eq!(list_traces(&first).len(), 5);
    // Another Arc of an equal bundle (same content hash), mounted and read synchronously.
    let (host, _) = mount(bundle(), dev_state());
    assert!(
        host.query_selector("[data-testid='failures-loading']")
            .unwrap()
            .is_none()
    );
    assert!(
        host.query_selector("[data-testid='failures-view'][data-answered='true']")
            .unwrap()
            .is_some()
    );
    // Another bundle (another hash) waits for its own answer.
    let mut other = bundle();
    other.body.corpora[0].failure_labels.pop();
    let other = Bundle::new(Provenance::default(), other.body);
    let (third, _) = mount(other, dev_state());
    assert!(
        third
            .query_selector("[data-testid='failures-loading']")
            .unwrap()
            .is_some()
    );
    settled(&third).await;
    assert_eq!(metric(&third, "failures:count"), Some(4.0));
}

#[wasm_bindgen_test]
fn headline_counts_carry_their_share_of_the_failures() {
    use runlens_web::pages::failures::share_text;
    // The sample's FM2: 92 of 277 failures = 33.21…%.
    assert_eq!(
        share_text("fm_bucket:FM2 wrong plan", 92.0, Some(277.0)).as_deref(),
        Some("33.2%")
    );
    assert_eq!(share_text("failures:count", 277.0, Some(277.0)), None);
    assert_eq!(share_text("fm_bucket:FM1 no attempt", 0.0, Some(0.0)), None);
    assert_eq!(share_text("fm_bucket:FM1 no attempt", 1.0, None), None);
}
