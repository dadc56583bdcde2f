//! Browser tests of the gate view: exact counts from hand-made rows, choosing a model lists
//! exactly its fired cells, a corpus without rows says so, and the sample's values equal
//! `runlens metrics --json` (target/sample-metrics, written natively by scripts/test.sh).

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;

use crate::sample_files::{NATIVE_BOARD, NATIVE_DEV, SAMPLE};
use leptos::prelude::*;
use runlens_core::bundle::{
    Bundle, BundleBody, Corpus, GateFacts, GateRow, ModelInfo, Outcome, Provenance,
};
use runlens_core::metrics::gate::gate_group;
use runlens_web::data::decode_bundle;
use runlens_web::pages::GateView;
use runlens_web::state::{UrlState, ViewState};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

use crate::wait::{sleep, wait_for};

fn gate(model: &str, trace: &str, fired: u32, base: &str, gated: &str) -> GateRow {
    GateRow {
        trace_id: trace.into(),
        model: model.into(),
        fired: Some(fired),
        baseline_outcome: Some(Outcome::from_str_lossless(base)),
        gated_outcome: Some(Outcome::from_str_lossless(gated)),
        ..GateRow::default()
    }
}

fn bundle() -> Arc<Bundle> {
    let dev = Corpus {
        name: "dev".into(),
        gate_rows: vec![
            gate("m-a", "q1", 1, "fail", "pass"), // recovered, fired
            gate("m-a", "q2", 1, "pass", "fail"), // regressed, fired
            gate("m-a", "q3", 0, "tie", "pass"),  // recovered, not fired
            gate("m-a", "q4", 1, "fail", "fail"),
            gate("m-b", "q1", 0, "pass", "pass"),
            gate("m-b", "q2", 1, "error", "pass"), // error → pass: not "recovered" (summary rule)
        ],
        ..Corpus::default()
    };
    let empty = Corpus {
        name: "board".into(),
        ..Corpus::default()
    };
    let body = BundleBody {
        corpora: vec![dev, empty],
        // m-a has a display name; m-b none (its key is shown).
        models: vec![ModelInfo {
            key: "m-a".into(),
            display_name: "Model A".into(),
        }],
        ..BundleBody::default()
    };
    Arc::new(Bundle::new(Provenance::default(), body))
}

struct Mounted {
    host: web_sys::HtmlElement,
    state: Rc<RefCell<Option<UrlState>>>,
    _handle: Box<dyn std::any::Any>,
}

fn mount(bundle: Arc<Bundle>, state: ViewState) -> Mounted {
    let host: web_sys::HtmlElement = document().create_element("div").unwrap().unchecked_into();
    document().body().unwrap().append_child(&host).unwrap();
    let cell = Rc::new(RefCell::new(None));
    let sink = cell.clone();
    let handle = leptos::mount::mount_to(host.clone(), move || {
        let s = UrlState::detached(state.clone());
        *sink.borrow_mut() = Some(s);
        provide_context(s);
        view! { <GateView bundle=bundle.clone() /> }.into_any()
    });
    Mounted {
        host,
        state: cell,
        _handle: Box::new(handle),
    }
}

/// Waits for the view's first answer.
async fn answered(host: &web_sys::HtmlElement) {
    wait_for(host, "[data-testid='gate-view'][data-answered='true']").await;
}

fn metric(host: &web_sys::HtmlElement, name: &str) -> f64 {
    host.query_selector(&format!("[data-metric='{name}']"))
        .unwrap()
        .unwrap_or_else(|| panic!("no metric {name}"))
        .get_attribute("data-value")
        .unwrap()
        .parse()
        .unwrap()
}

#[wasm_bindgen_test]
async fn hand_made_rows_give_exact_counts_and_a_model_lists_its_fired_cells() {
    let m = mount(bundle(), ViewState::default());
    answered(&m.host).await;
    let h = &m.host;
    // m-a: 4 cells; fired q1 q2 q4 = 3; recovered q1 (fail→pass) + q3 (tie→pass) = 2;
    // regressed q2 = 1; baseline pass 1 (q2), gated pass 2 (q1, q3): net (2 − 1) / 4 = 0.25.
    assert_eq!(metric(h, "gate:m-a:fired"), 3.0);
    assert_eq!(metric(h, "gate:m-a:recovered"), 2.0);
    assert_eq!(metric(h, "gate:m-a:regressed"), 1.0);
    assert_eq!(metric(h, "gate:m-a:net"), 0.25);
    // m-b: 2 cells; fired 1 (q2); error→pass is not recovered; net (2 − 1) / 2 = 0.5.
    assert_eq!(metric(h, "gate:m-b:fired"), 1.0);
    assert_eq!(metric(h, "gate:m-b:recovered"), 0.0);
    assert_eq!(metric(h, "gate:m-b:regressed"), 0.0);
    assert_eq!(metric(h, "gate:m-b:net"), 0.5);
    // Pooled: 6 cells, 4 fired, net (4 − 2) / 6.
    assert_eq!(metric(h, "gate:(all):fired"), 4.0);
    assert_eq!(metric(h, "gate:(all):net"), 4.0 / 6.0 - 2.0 / 6.0);
    // Intervals arrive after first paint, with the CLI's 10,000 resamples and seed 42.
    let root = h
        .query_selector("[data-testid='gate-view']")
        .unwrap()
        .unwrap();
    for _ in 0..200 {
        if root.get_attribute("data-ci-ready").as_deref() == Some("true") {
            break;
        }
        sleep(10).await;
    }
    assert_eq!(root.get_attribute("data-ci-ready").as_deref(), Some("true"));
    let b = bundle();
    let rows: Vec<GateFacts> = b.body.corpora[0]
        .gate_rows
        .iter()
        .filter(|r| r.model == "m-a")
        .map(GateFacts::of)
        .collect();
    let ci = gate_group("m-a", &rows, 10_000, 42).net_ci.unwrap();
    let row_text = h
        .query_selector("tr[data-model='m-a']")
        .unwrap()
        .unwrap()
        .text_content()
        .unwrap();
    // Effects in percentage points (#17): net 0.25 is +25.00 pp.
    let shown = format!("+25.00 pp [{:+.2}, {:+.2}]", 100.0 * ci.lo, 100.0 * ci.hi);
    assert!(row_text.contains(&shown), "{row_text} lacks {shown}");
    // The headline: the pooled row's net with its interval (6 cells, 4 fired, 2/6 → 4/6).
    let all: Vec<GateFacts> = b.body.corpora[0]
        .gate_rows
        .iter()
        .map(GateFacts::of)
        .collect();
    let all_ci = gate_group("(all)", &all, 10_000, 42).net_ci.unwrap();
    let verdict = if all_ci.lo > 0.0 {
        "the interval is above zero"
    } else {
        "the interval includes zero"
    };
    assert_eq!(
        h.query_selector("[data-testid='gate-headline']")
            .unwrap()
            .unwrap()
            .text_content()
            .unwrap(),
        format!(
            "Net effect of the gate, all models: +33.33 pp [{:+.2}, {:+.2}] — {verdict} (6 \
             cells, the hint fired in 4; pass 33.3% → 66.7%).",
            100.0 * all_ci.lo,
            100.0 * all_ci.hi
        )
    );
    // #17, bug 6: the table fits its column (it was 1,261 px in a 1,100 px one); a row's
    // details open under it.
    let table = h
        .query_selector("[data-testid='gate-table']")
        .unwrap()
        .unwrap();
    let scroller = table.parent_element().unwrap();
    assert!(
        table.scroll_width() <= scroller.client_width(),
        "{} > {}",
        table.scroll_width(),
        scroller.client_width()
    );
    assert!(h.query_selector("tr.gate-details").unwrap().is_none());
    h.query_selector("tr[data-model='m-a'] [data-testid='gate-details-toggle']")
        .unwrap()
        .unwrap()
        .unchecked_into::<web_sys::HtmlElement>()
        .click();
    wait_for(h, "tr.gate-details").await;
    let details = h
        .query_selector("tr.gate-details")
        .unwrap()
        .unwrap()
        .text_content()
        .unwrap();
    // Fired: q1 recovered, q2 regressed, q4 neither.
    assert!(
        details.starts_with("recovered / regressed where the hint fired1 / 1"),
        "{details}"
    );
    // Models read by their display names (#17), the key in the tooltip.
    let button = |m: &str| {
        h.query_selector(&format!("tr[data-model='{m}'] [data-testid='gate-model']"))
            .unwrap()
            .unwrap()
    };
    assert_eq!(button("m-a").text_content().unwrap(), "Model A");
    assert_eq!(button("m-a").get_attribute("title").unwrap(), "m-a");
    assert_eq!(button("m-b").text_content().unwrap(), "m-b");
    // Clicking m-a sets gmodel and lists exactly its fired cells, in file order.
    button("m-a")
        .unchecked_into::<web_sys::HtmlElement>()
        .click();
    wait_for(h, "[data-testid='gate-fired']").await;
    let gmodel = m
        .state
        .borrow()
        .unwrap()
        .with_untracked(|s| s.gate.model.clone());
    assert_eq!(gmodel.as_deref(), Some("m-a"));
    let list = h
        .query_selector_all("[data-testid='gate-fired'] tr[data-trace]")
        .unwrap();
    let traces: Vec<String> = (0..list.length())
        .filter_map(|i| list.item(i))
        .map(|n| {
            n.unchecked_into::<web_sys::Element>()
                .get_attribute("data-trace")
                .unwrap()
        })
        .collect();
    assert_eq!(traces, ["q1", "q2", "q4"]);
    // Opening one goes to its trajectory, walking the gate list.
    h.query_selector("[data-testid='gate-open']")
        .unwrap()
        .unwrap()
        .unchecked_into::<web_sys::HtmlElement>()
        .click();
    leptos::task::tick().await;
    let s = m.state.borrow().unwrap().with_untracked(|s| s.clone());
    assert_eq!(
        (
            s.trajectory.model.as_deref(),
            s.trajectory.trace.as_deref(),
            s.trajectory.from.as_deref()
        ),
        (Some("m-a"), Some("q1"), Some("gate"))
    );
}

#[wasm_bindgen_test]
async fn a_corpus_without_gate_rows_says_so() {
    let m = mount(
        bundle(),
        ViewState {
            corpus: Some("board".into()),
            ..ViewState::default()
        },
    );
    answered(&m.host).await;
    let text = m
        .host
        .query_selector("[data-testid='gate-empty']")
        .unwrap()
        .unwrap()
        .text_content()
        .unwrap();
    assert!(text.starts_with("Corpus board has no gate rows"), "{text}");
    assert!(m.host.query_selector("[data-metric]").unwrap().is_none());
}

#[wasm_bindgen_test]
async fn the_sample_equals_the_cli_json() {
    let bundle = decode_bundle("article.json.gz", SAMPLE).unwrap();
    for (name, native) in [
        ("text2sqlbench-synthetic-dev", NATIVE_DEV),
        ("text2sqlbench-synthetic", NATIVE_BOARD),
    ] {
        let json: serde_json::Value = serde_json::from_str(native).unwrap();
        let groups = json["gate"].as_array().unwrap();
        assert!(groups.len() > 1, "{name}: the sample has gate rows");
        let m = mount(
            bundle.clone(),
            ViewState {
                corpus: Some(name.into()),
                ..ViewState::default()
            },
        );
        answered(&m.host).await;
        for g in groups {
            let model = g["model"].as_str().unwrap();
            for key in ["recovered", "regressed", "fired", "net"] {
                let want = g[key].as_f64().unwrap();
                let got = metric(&m.host, &format!("gate:{model}:{key}"));
                assert_eq!(got, want, "{name} {model} {key}");
            }
        }
    }
}

#[wasm_bindgen_test]
async fn with_no_corpus_in_the_link_the_select_shows_the_corpus_shown() {
    // #17, bug 2: `&tab=gate` without `corpus=` showed an empty select above the first
    // corpus's rows.
    let bundle = decode_bundle("article.json.gz", SAMPLE).unwrap();
    let m = mount(bundle, ViewState::default());
    answered(&m.host).await;
    let value = m
        .host
        .query_selector("[data-testid='gate-corpus']")
        .unwrap()
        .and_then(|e| js_sys::Reflect::get(&e, &"value".into()).ok())
        .and_then(|v| v.as_string());
    assert_eq!(value.as_deref(), Some("text2sqlbench-synthetic-dev"));
}
