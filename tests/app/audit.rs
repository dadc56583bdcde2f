//! Browser tests of the judge audit queue: order and count, keyboard decisions and live
//! counts, the localStorage round trip, the JSON export and import errors.

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;

use leptos::prelude::*;
use runlens_core::audit::{AuditLog, Verdict};
use runlens_core::bundle::{
    Bundle, BundleBody, Cell, Corpus, FailureLabel, Outcome, Provenance, Question, ResultRow,
    ResultScore,
};
use runlens_web::pages::AuditView;
use runlens_web::pages::audit::storage_key;
use runlens_web::state::FailuresParams;
use runlens_web::state::{UrlState, ViewState};
use wasm_bindgen::JsCast;
use wasm_bindgen::closure::Closure;
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::*;

fn cell(outcome: &str) -> Option<Cell> {
    Some(Cell {
        final_answer: Some(format!("answer ({outcome})")),
        sql_results: vec![format!("result ({outcome})")],
        result_score: Some(ResultScore {
            outcome: Some(Outcome::from_str_lossless(outcome)),
            ..ResultScore::default()
        }),
        ..Cell::default()
    })
}

fn label(model: &str, trace: &str, cdf: f64) -> FailureLabel {
    FailureLabel {
        trace_id: trace.into(),
        model: model.into(),
        sub_mode: Some("wrong_join".into()),
        correct_despite_fail: Some(cdf),
        ..FailureLabel::default()
    }
}

/// Corpus `name`: q1..q3 × m-a, m-b; m-a passes q3; six labels, four in the 0.65 queue.
fn bundle(name: &str) -> Arc<Bundle> {
    let row = |id: &str, a: &str, b: &str| ResultRow {
        trace_id: id.into(),
        candidates: [("m-a".into(), cell(a)), ("m-b".into(), cell(b))]
            .into_iter()
            .collect(),
        ..ResultRow::default()
    };
    let corpus = Corpus {
        name: name.into(),
        questions: vec![Question {
            trace_id: "q1".into(),
            nl_question: "How many <b>open</b> cases?".into(),
            gt_answer: "3".into(),
            gt_results: vec!["gold result".into()],
            ..Question::default()
        }],
        results: vec![
            row("q1", "fail", "fail"),
            row("q2", "fail", "tie"),
            row("q3", "pass", "fail"),
        ],
        failure_labels: vec![
            label("m-a", "q1", 0.9),
            label("m-b", "q1", 0.95),
            label("m-a", "q2", 0.7),
            label("m-b", "q2", 0.65), // exactly at the threshold: in
            label("m-a", "q3", 0.99), // the cell passes: out
            label("m-b", "q3", 0.3),  // below: out
        ],
        ..Corpus::default()
    };
    let body = BundleBody {
        corpora: vec![corpus],
        ..BundleBody::default()
    };
    Arc::new(Bundle::new(Provenance::default(), body))
}

fn storage() -> web_sys::Storage {
    web_sys::window().unwrap().local_storage().unwrap().unwrap()
}

struct Mounted {
    host: web_sys::HtmlElement,
    _handle: Box<dyn std::any::Any>,
}

fn mount(bundle: Arc<Bundle>, state: ViewState) -> Mounted {
    let host: web_sys::HtmlElement = document().create_element("div").unwrap().unchecked_into();
    document().body().unwrap().append_child(&host).unwrap();
    let handle = leptos::mount::mount_to(host.clone(), move || {
        provide_context(UrlState::detached(state.clone()));
        view! { <AuditView bundle=bundle.clone() /> }.into_any()
    });
    Mounted {
        host,
        _handle: Box::new(handle),
    }
}

/// Lets the queue's question be answered (in the page, as no worker holds these bundles)
/// and the view update.
async fn settle() {
    for _ in 0..4 {
        leptos::task::tick().await;
        sleep(0).await;
    }
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

fn rows(host: &web_sys::HtmlElement) -> Vec<(String, String)> {
    let list = host.query_selector_all(".audit-row").unwrap();
    (0..list.length())
        .filter_map(|i| list.item(i))
        .map(|n| n.unchecked_into::<web_sys::Element>())
        .map(|e| {
            let attr = |a: &str| e.get_attribute(a).unwrap_or_default();
            (attr("data-key"), attr("data-verdict"))
        })
        .collect()
}

fn press(target: &web_sys::EventTarget, key: &str) {
    let init = web_sys::KeyboardEventInit::new();
    init.set_key(key);
    init.set_bubbles(true);
    init.set_cancelable(true);
    let ev = web_sys::KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init).unwrap();
    target.dispatch_event(&ev).unwrap();
}

#[wasm_bindgen_test]
async fn queue_is_ordered_most_likely_first_with_an_exact_count() {
    let b = bundle("order");
    storage()
        .remove_item(&storage_key(&b.content_hash))
        .unwrap();
    let m = mount(b.clone(), ViewState::default());
    // Before its answer the view says it is building the queue and shows no counts (zeros
    // would read as an empty queue).
    assert!(
        m.host
            .query_selector("[data-testid='audit-loading']")
            .unwrap()
            .is_some()
    );
    assert!(
        m.host
            .query_selector("[data-metric='audit:count']")
            .unwrap()
            .is_none()
    );
    settle().await;
    // 0.95 > 0.9 > 0.7 > 0.65; m-a/q3 passes, m-b/q3 is below 0.65.
    let keys: Vec<String> = rows(&m.host).into_iter().map(|r| r.0).collect();
    assert_eq!(keys, ["m-b/q1", "m-a/q1", "m-a/q2", "m-b/q2"]);
    assert_eq!(metric(&m.host, "audit:count"), 4.0);
    assert_eq!(metric(&m.host, "audit:undecided"), 4.0);
    // Question text is text, never HTML; the first item is selected.
    let detail = m
        .host
        .query_selector("[data-testid='audit-detail']")
        .unwrap()
        .unwrap();
    assert_eq!(detail.get_attribute("data-key").as_deref(), Some("m-b/q1"));
    assert!(
        detail
            .text_content()
            .unwrap()
            .contains("How many <b>open</b> cases?")
    );
    assert!(m.host.query_selector("b").unwrap().is_none());
    // The cell in full and its question are the data owner's answer: gold and candidate
    // results.
    let results = detail.query_selector_all("pre.result").unwrap();
    let results: Vec<String> = (0..results.length())
        .filter_map(|i| results.item(i)?.text_content())
        .collect();
    assert_eq!(results, ["gold result", "result (fail)"]);
    // At 0.8 only the two 0.9+ items stay.
    let high = mount(
        b,
        ViewState {
            failures: FailuresParams {
                cdf_threshold: 0.8,
                ..FailuresParams::default()
            },
            ..ViewState::default()
        },
    );
    settle().await;
    assert_eq!(metric(&high.host, "audit:count"), 2.0);
}

#[wasm_bindgen_test]
async fn keys_record_decisions_and_counts_survive_a_remount() {
    let b = bundle("keys");
    let key = storage_key(&b.content_hash);
    storage().remove_item(&key).unwrap();
    let m = mount(b.clone(), ViewState::default());
    settle().await;
    // a / r / u decide the selected item and move on: items 1, 2, 3.
    for k in ["a", "r", "u"] {
        press(&m.host, k);
        settle().await;
    }
    // Keys typed into an input do nothing.
    let input = m
        .host
        .query_selector("input[type='range']")
        .unwrap()
        .unwrap();
    press(&input, "a");
    settle().await;
    let expect = [
        ("m-b/q1", "grader_wrong"),
        ("m-a/q1", "grader_right"),
        ("m-a/q2", "unsure"),
        ("m-b/q2", ""),
    ];
    let want: Vec<(String, String)> = expect
        .iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect();
    assert_eq!(rows(&m.host), want);
    assert_eq!(metric(&m.host, "audit:grader_wrong"), 1.0);
    assert_eq!(metric(&m.host, "audit:grader_right"), 1.0);
    assert_eq!(metric(&m.host, "audit:unsure"), 1.0);
    assert_eq!(metric(&m.host, "audit:undecided"), 1.0);
    // k moves back to item 3; n opens the note; Enter saves it (the verdict stays).
    press(&m.host, "k");
    settle().await;
    press(&m.host, "n");
    for _ in 0..3 {
        sleep(20).await;
    }
    let note: web_sys::HtmlTextAreaElement = m
        .host
        .query_selector("[data-testid='audit-note-text']")
        .unwrap()
        .unwrap()
        .unchecked_into();
    note.set_value("rows match; judge misread");
    press(&note, "Enter");
    settle().await;
    // The entry holds exactly AuditLog::to_json of the decisions.
    let stored = storage().get_item(&key).unwrap().unwrap();
    let log = AuditLog::from_json(&stored).unwrap();
    assert_eq!(stored, log.to_json());
    assert_eq!(log.len(), 3);
    assert_eq!(log.get("m-b/q1").unwrap().verdict, Verdict::GraderWrong);
    let q2 = log.get("m-a/q2").unwrap();
    assert_eq!(
        (q2.verdict, q2.note.as_str()),
        (Verdict::Unsure, "rows match; judge misread")
    );
    // Remount: decisions and counts are kept.
    drop(m);
    let again = mount(b, ViewState::default());
    settle().await;
    assert_eq!(rows(&again.host), want);
    assert_eq!(metric(&again.host, "audit:grader_wrong"), 1.0);
    assert_eq!(metric(&again.host, "audit:unsure"), 1.0);
}

/// Issue 17, bug 9: Escape threw away typed text without asking, and a note saved on an
/// undecided item was silently recorded as "unsure".
#[wasm_bindgen_test]
async fn a_note_needs_a_verdict_and_escape_asks_before_discarding_it() {
    let b = bundle("notes");
    let key = storage_key(&b.content_hash);
    storage().remove_item(&key).unwrap();
    let m = mount(b, ViewState::default());
    settle().await;
    let find = |selector: &str| m.host.query_selector(selector).unwrap();
    let text_of = |selector: &str| find(selector).and_then(|e| e.text_content());
    let open_note = || async {
        press(&m.host, "n");
        for _ in 0..3 {
            sleep(20).await;
        }
        let note: web_sys::HtmlTextAreaElement = find("[data-testid='audit-note-text']")
            .unwrap()
            .unchecked_into();
        note
    };
    // The first item (m-b/q1) has no verdict: Enter does not save, it says why.
    let note = open_note().await;
    note.set_value("rows match; judge misread");
    press(&note, "Enter");
    settle().await;
    assert_eq!(
        text_of("[data-testid='audit-note-hint']").as_deref(),
        Some(
            "This item has no verdict yet: save the note with one of the buttons (grader \
             wrong, grader right, unsure)."
        )
    );
    assert_eq!(storage().get_item(&key).unwrap(), None);
    // Escape with typed text asks first; typing on disarms it; a second Escape discards.
    press(&note, "Escape");
    settle().await;
    let unsaved = "The note is not saved: press Escape again to discard it, or save it.";
    assert_eq!(
        text_of("[data-testid='audit-note-hint']").as_deref(),
        Some(unsaved)
    );
    assert!(find("[data-testid='audit-note-text']").is_some());
    press(&note, "x");
    settle().await;
    assert!(find("[data-testid='audit-note-hint']").is_none());
    press(&note, "Escape");
    settle().await;
    press(&note, "Escape");
    settle().await;
    assert!(find("[data-testid='audit-note-text']").is_none());
    assert_eq!(storage().get_item(&key).unwrap(), None);
    // Saved with the verdict the reader picks.
    let note = open_note().await;
    assert_eq!(note.value(), "");
    note.set_value("rows match; judge misread");
    find("[data-testid='audit-note-save-wrong']")
        .unwrap()
        .unchecked_into::<web_sys::HtmlElement>()
        .click();
    settle().await;
    let log = AuditLog::from_json(&storage().get_item(&key).unwrap().unwrap()).unwrap();
    assert_eq!(log.len(), 1);
    let d = log.get("m-b/q1").unwrap();
    assert_eq!(
        (d.verdict, d.note.as_str()),
        (Verdict::GraderWrong, "rows match; judge misread")
    );
    assert!(find("[data-testid='audit-note-text']").is_none());
    // An unchanged note closes on the first Escape.
    let note = open_note().await;
    assert_eq!(note.value(), "rows match; judge misread");
    press(&note, "Escape");
    settle().await;
    assert!(find("[data-testid='audit-note-text']").is_none());
}

async fn sleep(ms: i32) {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        let _ = web_sys::window()
            .unwrap()
            .set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms);
    });
    let _ = JsFuture::from(promise).await;
}

/// Catches the next `<a download>` click on the page: (file name, blob URL).
fn catch_download() -> Rc<RefCell<Option<(String, String)>>> {
    let caught = Rc::new(RefCell::new(None));
    let sink = caught.clone();
    let listener = Closure::<dyn FnMut(web_sys::Event)>::new(move |ev: web_sys::Event| {
        if let Some(a) = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::HtmlAnchorElement>().ok())
        {
            ev.prevent_default();
            *sink.borrow_mut() = Some((a.download(), a.href()));
        }
    });
    document()
        .add_event_listener_with_callback_and_bool("click", listener.as_ref().unchecked_ref(), true)
        .unwrap();
    listener.forget();
    caught
}

#[wasm_bindgen_test]
async fn export_json_is_core_to_json_and_a_bad_csv_is_explained() {
    let b = bundle("export");
    storage()
        .remove_item(&storage_key(&b.content_hash))
        .unwrap();
    let m = mount(b.clone(), ViewState::default());
    settle().await;
    press(&m.host, "a");
    settle().await;
    press(&m.host, "r");
    settle().await;
    let caught = catch_download();
    m.host
        .query_selector("[data-testid='audit-export-json']")
        .unwrap()
        .unwrap()
        .unchecked_into::<web_sys::HtmlElement>()
        .click();
    let (name, href) = caught.borrow_mut().take().expect("a download");
    let short: String = b.content_hash.chars().take(12).collect();
    assert_eq!(name, format!("audit-{short}.json"));
    let response: web_sys::Response =
        JsFuture::from(web_sys::window().unwrap().fetch_with_str(&href))
            .await
            .unwrap()
            .unchecked_into();
    let text = JsFuture::from(response.text().unwrap())
        .await
        .unwrap()
        .as_string()
        .unwrap();
    let log = AuditLog::from_json(&text).unwrap();
    assert_eq!(text, log.to_json());
    let got: Vec<(String, Verdict)> = log
        .decisions()
        .map(|d| (d.key.clone(), d.verdict))
        .collect();
    assert_eq!(
        got,
        [
            ("m-b/q1".to_owned(), Verdict::GraderWrong),
            ("m-a/q1".to_owned(), Verdict::GraderRight)
        ]
    );
    // A CSV whose third line has an unknown verdict: the error names file, line and field.
    let csv = "key,verdict,note,decided_at\nm-a/q2,unsure,,2026-12-03T00:00:00Z\nm-b/q2,maybe,,2026-12-03T00:00:00Z\n";
    let parts = js_sys::Array::of1(&js_sys::Uint8Array::from(csv.as_bytes()));
    let file = web_sys::File::new_with_u8_array_sequence(&parts, "bad.csv").unwrap();
    let dt = web_sys::DataTransfer::new().unwrap();
    dt.items().add_with_file(&file).unwrap();
    let input: web_sys::HtmlInputElement = m
        .host
        .query_selector("[data-testid='audit-import']")
        .unwrap()
        .unwrap()
        .unchecked_into();
    input.set_files(dt.files().as_ref());
    input
        .dispatch_event(&web_sys::Event::new("change").unwrap())
        .unwrap();
    let mut message = String::new();
    for _ in 0..100 {
        sleep(10).await;
        if let Some(el) = m
            .host
            .query_selector("[data-testid='audit-file-message']")
            .unwrap()
        {
            message = el.text_content().unwrap();
            break;
        }
    }
    assert_eq!(
        message,
        "bad.csv: audit CSV: line 3: field verdict: expected one of grader_wrong, grader_right, unsure, found \"maybe\""
    );
    // Nothing of the bad file was merged.
    assert_eq!(metric(&m.host, "audit:unsure"), 0.0);
}
