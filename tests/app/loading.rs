//! Browser tests of loading: the skeleton the loader worker hands over, the progress bar,
//! the open controls, and BundleLoader's main-thread fallback (the test page has no worker
//! script, so it also proves the fallback).

use std::sync::{Arc, Mutex};

use leptos::prelude::*;
use runlens_core::bundle::{
    Bundle, BundleBody, Cell, Corpus, FmLabel, GateRow, Provenance, ResultRow, ResultScore,
    UniverseSource, Usage, UsageCounts, Vote, Warning,
};
use runlens_web::components::{BundleLoader, LoadProgress, OpenBundle, RenderLoaded};
use runlens_web::data::{BundleRequest, Loaded, Phase, Progress};
use runlens_web::loader::files::{import_paths, is_bundle_name};
use runlens_web::loader::skeleton::{read_skeleton, skeleton_json};
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::*;

fn cell(n: usize) -> Cell {
    Cell {
        sqls: (0..n).map(|i| format!("SELECT {i}")).collect(),
        sql_results: (0..n).map(|i| format!("{{\"x\":{i}}}")).collect(),
        final_answer: Some("forty-two".into()),
        turns: Some(n as u32),
        usage: Some(
            Usage::from(UsageCounts {
                total_tokens: Some(100),
                ..UsageCounts::default()
            })
            .with_per_turn(vec![[10, 5, 1, 0, 0]; n]),
        ),
        result_score: Some(ResultScore {
            reasoning: Some("because".into()),
            votes: Some(vec![Vote {
                reasoning: Some("the rows match".into()),
                ..Vote::default()
            }]),
            ..ResultScore::default()
        }),
        ..Cell::default()
    }
}

/// Two corpora; corpus `b` has 3 result rows with 1, 2 and 3 SQL calls.
fn bundle() -> Bundle {
    let results = (1..=3)
        .map(|i| ResultRow {
            trace_id: format!("q{i}"),
            candidates: [("m1".into(), Some(cell(i))), ("m2".into(), None)]
                .into_iter()
                .collect(),
            ..ResultRow::default()
        })
        .collect();
    let b = Corpus {
        name: "b".into(),
        models: vec!["m1".into(), "m2".into()],
        results,
        gate_rows: vec![GateRow {
            trace_id: "q1".into(),
            model: "m1".into(),
            gated_usage: Some(
                Usage::from(UsageCounts {
                    completion_tokens: Some(7),
                    ..UsageCounts::default()
                })
                .with_per_turn(vec![[3, 7, 0, 0, 0]]),
            ),
            ..GateRow::default()
        }],
        fm_labels: vec![FmLabel {
            trace_id: "q1".into(),
            model: "m1".into(),
            fm: "FM1".into(),
            reason: Some("long reason".into()),
            ..FmLabel::default()
        }],
        ..Corpus::default()
    };
    let a = Corpus {
        name: "a".into(),
        ..Corpus::default()
    };
    let body = BundleBody {
        corpora: vec![a, b],
        ..BundleBody::default()
    };
    Bundle::new(Provenance::default(), body)
}

/// The skeleton is read through types of its own (no row parsers on the page): every field of
/// the bundle's head comes back, on the sample, which sets them all (one warning added).
#[wasm_bindgen_test]
fn the_skeleton_keeps_every_head_field_of_the_sample() {
    let mut b = (*runlens_web::data::decode_bundle("article.json.gz", crate::sample_files::SAMPLE)
        .unwrap())
    .clone();
    b.body.warnings.push(Warning {
        file: "out/results.jsonl".into(),
        line: Some(7),
        kind: "unknown_field".into(),
        message: "field \"x\" is not read".into(),
    });
    let head = &b.body;
    assert!(head.synthetic && head.notice.is_some() && head.schema_prompt.is_some());
    assert!(head.rules.is_some() && !head.universe.is_empty() && !head.namespaces.is_empty());
    assert!(!b.provenance.inputs.is_empty() && !head.models.is_empty());
    assert_ne!(head.universe_source, UniverseSource::None);
    assert!(head.corpora.iter().any(|c| c.board_manifest.is_some()));
    let skeleton = read_skeleton(&skeleton_json(&b)).unwrap();
    let mut expected = b.clone();
    expected.body = b.body.skeleton();
    assert_eq!(skeleton, expected);
}

#[wasm_bindgen_test]
fn the_skeleton_is_the_bundle_without_rows_and_a_bad_one_is_an_error() {
    let b = bundle();
    let skeleton = read_skeleton(&skeleton_json(&b)).unwrap();
    // Names, models and the real hash stay; no corpus keeps a row.
    assert_eq!(skeleton.content_hash, b.content_hash);
    let names: Vec<&str> = skeleton
        .body
        .corpora
        .iter()
        .map(|c| c.name.as_str())
        .collect();
    assert_eq!(names, ["a", "b"]);
    assert_eq!(skeleton.body.corpora[1].models, ["m1", "m2"]);
    let mut expected = b.clone();
    expected.body = b.body.skeleton();
    assert_eq!(skeleton, expected);
    let e = read_skeleton(b"{").unwrap_err();
    assert!(
        e.starts_with("loader: the bundle skeleton is not valid ("),
        "{e}"
    );
}

#[wasm_bindgen_test]
fn opened_file_names_and_paths() {
    assert!(is_bundle_name("run.json.gz"));
    assert!(is_bundle_name("run.json"));
    assert!(is_bundle_name("run.zip"));
    assert!(!is_bundle_name("dev/board_manifest.json"));
    assert!(!is_bundle_name("results.jsonl"));
    let picked = [
        "files/dev/results.jsonl",
        "files/out/failure_labels.jsonl",
        "files/schema.md",
    ];
    let picked: Vec<String> = picked.iter().map(|s| s.to_string()).collect();
    assert_eq!(
        import_paths(&picked),
        ["dev/results.jsonl", "out/failure_labels.jsonl", "schema.md"]
    );
    let flat: Vec<String> = vec!["results.jsonl".into(), "annotated.jsonl".into()];
    assert_eq!(import_paths(&flat), flat);
    let mixed: Vec<String> = vec!["a/results.jsonl".into(), "b/results.jsonl".into()];
    assert_eq!(import_paths(&mixed), mixed);
}

#[wasm_bindgen_test]
fn v2_addresses_by_their_path() {
    use runlens_web::api::ByteRange;
    use runlens_web::loader::v2::{UrlForm, dir_base, is_zip, url_form};
    assert_eq!(url_form("bundles/run.zip"), UrlForm::Zip);
    assert_eq!(url_form("https://h/x/RUN.ZIP?v=2#top"), UrlForm::Zip);
    assert_eq!(url_form("bundles/run/"), UrlForm::Dir);
    assert_eq!(url_form("bundles/run/manifest.json?x=1"), UrlForm::Dir);
    assert_eq!(url_form("manifest.json"), UrlForm::Dir);
    assert_eq!(url_form("bundles/run.json.gz"), UrlForm::V1);
    assert_eq!(url_form("bundles/run.zip.json"), UrlForm::V1);
    assert_eq!(url_form("bundles/download?file=run.zip"), UrlForm::V1);
    assert_eq!(dir_base("bundles/run/manifest.json?x=1"), "bundles/run/");
    assert_eq!(dir_base("https://h/run/"), "https://h/run/");
    assert!(is_zip(b"PK\x03\x04rest"));
    assert!(!is_zip(b"PK\x05\x06"));
    assert!(!is_zip(b"\x1f\x8b"));
    assert_eq!(ByteRange::Last(65_633).header(), "bytes=-65633");
    // End exclusive in, inclusive on the wire.
    assert_eq!(ByteRange::Span(10, 20).header(), "bytes=10-19");
}

fn new_host() -> web_sys::HtmlElement {
    let host = document().create_element("div").unwrap();
    document().body().unwrap().append_child(&host).unwrap();
    host.unchecked_into()
}

fn text(host: &web_sys::HtmlElement) -> String {
    host.text_content().unwrap_or_default()
}

#[wasm_bindgen_test]
async fn progress_shows_phase_amount_and_cancels() {
    let host = new_host();
    let progress = RwSignal::new(Progress {
        phase: Phase::Downloading,
        done: 500_000,
        total: Some(2_000_000),
    });
    let cancels = RwSignal::new(0);
    let on_cancel = Callback::new(move |()| cancels.update(|n| *n += 1));
    std::mem::forget(leptos::mount::mount_to(host.clone(), move || {
        view! { <LoadProgress progress=progress on_cancel=on_cancel /> }
    }));
    leptos::task::tick().await;
    let t = text(&host);
    assert!(t.contains("Downloading…"), "{t}");
    // 500,000 of 2,000,000 bytes = 25 %.
    assert!(t.contains("500.0 KB of 2.0 MB (25%)"), "{t}");
    let bar: web_sys::HtmlProgressElement = host
        .query_selector("progress")
        .unwrap()
        .unwrap()
        .unchecked_into();
    assert_eq!(bar.value(), 25.0);
    progress.set(Progress {
        phase: Phase::Checking,
        done: 3_000,
        total: Some(4_000),
    });
    leptos::task::tick().await;
    let t = text(&host);
    assert!(t.contains("Checking the content hash…"), "{t}");
    // 3,000 of 4,000 bytes = 75 %.
    assert!(t.contains("3.0 KB of 4.0 KB (75%)"), "{t}");
    let button: web_sys::HtmlElement = host
        .query_selector("button.load-cancel")
        .unwrap()
        .unwrap()
        .unchecked_into();
    button.click();
    assert_eq!(cancels.get_untracked(), 1);
}

fn file(name: &str, content: &str) -> web_sys::File {
    let parts = js_sys::Array::of1(&js_sys::Uint8Array::from(content.as_bytes()));
    web_sys::File::new_with_u8_array_sequence(&parts, name).unwrap()
}

/// Mounts the open controls; each choice is recorded as `url:…` or `files:…`.
fn mount_open(host: &web_sys::HtmlElement) -> Arc<Mutex<Vec<String>>> {
    let opened = Arc::new(Mutex::new(Vec::new()));
    let sink = opened.clone();
    let on_open = Callback::new(move |r: BundleRequest| {
        let entry = match &r {
            BundleRequest::Url(u) => format!("url:{u}"),
            BundleRequest::Files(_) => format!("files:{}", r.source()),
        };
        sink.lock().unwrap().push(entry);
    });
    std::mem::forget(leptos::mount::mount_to(host.clone(), move || {
        view! { <OpenBundle on_open=on_open /> }
    }));
    opened
}

fn input(host: &web_sys::HtmlElement, testid: &str) -> web_sys::HtmlInputElement {
    host.query_selector(&format!("[data-testid='{testid}']"))
        .unwrap()
        .unwrap()
        .unchecked_into()
}

#[wasm_bindgen_test]
async fn open_controls_pass_files_drops_and_urls() {
    let host = new_host();
    let opened = mount_open(&host);
    leptos::task::tick().await;
    // The file picker.
    let dt = web_sys::DataTransfer::new().unwrap();
    dt.items().add_with_file(&file("run.json", "{}")).unwrap();
    let picker = input(&host, "open-files");
    assert!(picker.multiple());
    assert_eq!(picker.accept(), ".json,.gz,.zip,.jsonl,.yaml,.yml,.md,.txt");
    picker.set_files(dt.files().as_ref());
    picker
        .dispatch_event(&web_sys::Event::new("change").unwrap())
        .unwrap();
    leptos::task::tick().await;
    // A drop of two harness files.
    let dt = web_sys::DataTransfer::new().unwrap();
    dt.items()
        .add_with_file(&file("results.jsonl", ""))
        .unwrap();
    dt.items()
        .add_with_file(&file("annotated.jsonl", ""))
        .unwrap();
    let init = web_sys::DragEventInit::new();
    init.set_data_transfer(Some(&dt));
    init.set_bubbles(true);
    init.set_cancelable(true);
    let drop = web_sys::DragEvent::new_with_event_init_dict("drop", &init).unwrap();
    let zone = host
        .query_selector("[data-testid='drop-zone']")
        .unwrap()
        .unwrap();
    assert_eq!(zone.get_attribute("tabindex").as_deref(), Some("0"));
    zone.dispatch_event(&drop).unwrap();
    assert!(
        drop.default_prevented(),
        "the browser must not open the dropped file"
    );
    leptos::task::tick().await;
    // The URL field.
    let url = input(&host, "open-url");
    url.set_value("bundles/other.json.gz");
    url.dispatch_event(&web_sys::Event::new("input").unwrap())
        .unwrap();
    let form: web_sys::HtmlFormElement = host
        .query_selector("form.open-url")
        .unwrap()
        .unwrap()
        .unchecked_into();
    form.request_submit().unwrap();
    leptos::task::tick().await;
    assert_eq!(
        *opened.lock().unwrap(),
        [
            "files:run.json",
            "files:results.jsonl, annotated.jsonl",
            "url:bundles/other.json.gz"
        ]
    );
}

async fn sleep(ms: i32) {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        let _ = web_sys::window()
            .unwrap()
            .set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms);
    });
    let _ = JsFuture::from(promise).await;
}

async fn wait_for(host: &web_sys::HtmlElement, needle: &str) -> String {
    for _ in 0..250 {
        let t = text(host);
        if t.contains(needle) {
            return t;
        }
        sleep(20).await;
    }
    panic!("{needle:?} never appeared; the page shows: {}", text(host));
}

fn mount_loader(host: &web_sys::HtmlElement, request: BundleRequest) {
    let render: RenderLoaded = Arc::new(|loaded: Loaded| {
        let b = &loaded.bundle.body;
        let summary = format!(
            "loaded {} corpora; first {}; models {}; from {}; worker {}",
            b.corpora.len(),
            b.corpora
                .first()
                .map(|c| c.name.clone())
                .unwrap_or_default(),
            b.corpora
                .first()
                .map(|c| c.models.join("+"))
                .unwrap_or_default(),
            loaded.source,
            loaded.stats.in_worker,
        );
        view! { <p>{summary}</p> }.into_any()
    });
    std::mem::forget(leptos::mount::mount_to(host.clone(), move || {
        view! { <BundleLoader request=request.clone() render=render.clone() /> }
    }));
}

#[wasm_bindgen_test]
async fn harness_files_are_imported_in_the_page_without_a_worker() {
    let host = new_host();
    let results = "{\"trace_id\": \"q1\", \"candidates\": {\"gpt-4.1\": null, \"m2\": null}}\n";
    let request = BundleRequest::Files(vec![file("results.jsonl", results)]);
    mount_loader(&host, request);
    let t = wait_for(&host, "loaded").await;
    // A corpus file without a folder imports as corpus "corpus" (core's rule).
    assert_eq!(
        t,
        "loaded 1 corpora; first corpus; models gpt-4.1+m2; from results.jsonl; worker false"
    );
}

#[wasm_bindgen_test]
async fn a_broken_harness_file_shows_file_and_line_and_the_open_controls() {
    let host = new_host();
    let broken = "{\"trace_id\": \"q1\", \"candidates\": {}}\n{\"trace_id\": ";
    mount_loader(
        &host,
        BundleRequest::Files(vec![file("results.jsonl", broken)]),
    );
    let t = wait_for(&host, "Could not load the bundle").await;
    assert!(t.contains("results.jsonl:2"), "{t}");
    assert!(
        host.query_selector("[data-testid='open-bundle']")
            .unwrap()
            .is_some()
    );
}

#[wasm_bindgen_test]
async fn a_bundle_file_is_decoded_and_two_bundles_are_refused() {
    let host = new_host();
    let json = String::from_utf8(bundle().to_json_vec()).unwrap();
    mount_loader(&host, BundleRequest::Files(vec![file("run.json", &json)]));
    let t = wait_for(&host, "loaded").await;
    assert_eq!(
        t,
        "loaded 2 corpora; first a; models ; from run.json; worker false"
    );
    let host = new_host();
    let two = vec![file("a.json", &json), file("b.json.gz", "")];
    mount_loader(&host, BundleRequest::Files(two));
    let t = wait_for(&host, "open one bundle at a time").await;
    assert!(t.contains("2 files were opened, 2 of them bundles"), "{t}");
}

/// The worker's content-hash check with the browser's SHA-256 agrees with the core's: the
/// bundle as built passes, one changed byte of the body fails with both hashes named.
#[wasm_bindgen_test]
async fn platform_digest_checks_the_content_hash_like_the_core() {
    use runlens_web::loader::digest::verify_bundle_fast;
    let good = bundle();
    assert!(good.verify_content_hash().is_ok());
    assert_eq!(verify_bundle_fast("good.json", &good).await, Ok(()));
    let mut bad = good.clone();
    bad.body.corpora[0].name.push('!');
    let err = verify_bundle_fast("bad.json", &bad)
        .await
        .unwrap_err()
        .to_string();
    let computed = bad.body.content_hash();
    assert_eq!(
        err,
        format!(
            "bad.json: bundle: content_hash {} does not match the body (computed {computed})",
            good.content_hash
        )
    );
}

/// The check reads the body's bytes as downloaded first: a document runlens wrote passes
/// from them; a pretty-printed one (bytes not canonical) still passes through the canonical
/// serialisation; bytes whose body was changed after the hash was stored fail, named as the
/// core names it.
#[wasm_bindgen_test]
async fn the_raw_body_digest_is_tried_first_and_falls_back_to_the_canonical_body() {
    use runlens_web::loader::digest::{start_raw_body_digest, verify_bundle_fast};
    let good = bundle();
    let written = good.to_json_vec();
    start_raw_body_digest(&written);
    assert_eq!(verify_bundle_fast("a.json", &good).await, Ok(()));
    // Pretty-printed: the raw body's digest differs; the canonical one matches.
    let pretty = serde_json::to_vec_pretty(&good).unwrap();
    start_raw_body_digest(&pretty);
    assert_eq!(verify_bundle_fast("pretty.json", &good).await, Ok(()));
    // What is compared first is the digest of the bytes as downloaded (the loader parses
    // the bundle from those very bytes): shown here with a bundle not parsed from them.
    let mut other = good.clone();
    other.body.corpora[0].name.push('?');
    start_raw_body_digest(&good.to_json_vec());
    assert_eq!(verify_bundle_fast("other.json", &other).await, Ok(()));
    // A document whose body was changed after its hash was stored: neither passes.
    let name = format!("\"name\":\"{}\"", good.body.corpora[0].name);
    let changed =
        String::from_utf8(written)
            .unwrap()
            .replacen(&name, &name.replace("\":\"", "\":\"!"), 1);
    let bad: runlens_core::bundle::Bundle = serde_json::from_str(&changed).unwrap();
    assert_ne!(bad.body, good.body);
    start_raw_body_digest(changed.as_bytes());
    let err = verify_bundle_fast("bad.json", &bad)
        .await
        .unwrap_err()
        .to_string();
    assert!(err.starts_with("bad.json: bundle: content_hash "), "{err}");
}

/// A worker started by `assets/prestart.js` whose `Ready` arrived before the app took it
/// over: the load still sends its request. (It once hung there: the replayed `Ready` was
/// handed to the handlers before the load was current, and they ignored it.)
#[wasm_bindgen_test]
fn a_prestarted_worker_that_was_ready_early_gets_the_request() {
    use js_sys::{Array, Function, Object, Reflect};
    use runlens_web::loader::client;
    use runlens_web::loader::protocol::{self, FromWorker, ToWorker};
    use std::cell::RefCell;
    use std::rc::Rc;
    use wasm_bindgen::JsValue;
    use wasm_bindgen::prelude::Closure;

    let posted: Rc<RefCell<Vec<ToWorker>>> = Rc::default();
    let terminated = Rc::new(RefCell::new(0));
    let sink = posted.clone();
    let post = Closure::<dyn FnMut(JsValue)>::new(move |message: JsValue| {
        let head = Reflect::get(&message, &"head".into())
            .unwrap()
            .as_string()
            .unwrap();
        sink.borrow_mut().push(serde_json::from_str(&head).unwrap());
    });
    let count = terminated.clone();
    let terminate = Closure::<dyn FnMut()>::new(move || *count.borrow_mut() += 1);
    let noop = Closure::<dyn FnMut()>::new(|| {});
    // A stand-in for the worker: the client only posts to it and may terminate it.
    let worker = Object::new();
    Reflect::set(&worker, &"postMessage".into(), post.as_ref()).unwrap();
    Reflect::set(&worker, &"terminate".into(), terminate.as_ref()).unwrap();
    let window: JsValue = web_sys::window().unwrap().into();
    let (ready, _) = protocol::encode(&FromWorker::Ready, None, &[]);
    let init = Object::new();
    Reflect::set(&init, &"data".into(), &ready).unwrap();
    let make_event: Function = Reflect::get(&window, &"MessageEvent".into())
        .unwrap()
        .unchecked_into();
    let event = Reflect::construct(&make_event, &Array::of2(&"message".into(), &init)).unwrap();
    let slot = Object::new();
    Reflect::set(&slot, &"worker".into(), &worker).unwrap();
    Reflect::set(&slot, &"early".into(), &Array::of1(&event)).unwrap();
    Reflect::set(&slot, &"stop".into(), noop.as_ref()).unwrap();
    Reflect::set(&window, &"__runlensLoader".into(), &slot).unwrap();

    let handle = client::start(
        client::Slot::Shown,
        BundleRequest::Url("bundles/early.json.gz".into()),
        Box::new(|_| {}),
        Rc::new(|_| {}),
    );

    let posted = posted.borrow().clone();
    assert_eq!(posted.len(), 1, "{posted:?}");
    match &posted[0] {
        ToWorker::LoadUrl { url } => {
            let page = web_sys::window().unwrap().location().href().unwrap();
            let expected = web_sys::Url::new_with_base("bundles/early.json.gz", &page).unwrap();
            assert_eq!(url, &expected.href());
        }
        other => panic!("expected load_url, got {other:?}"),
    }
    // Taken once: the slot is gone, so a later load starts its own worker.
    assert!(
        Reflect::get(&window, &"__runlensLoader".into())
            .unwrap()
            .is_undefined()
    );
    handle.cancel();
    assert_eq!(*terminated.borrow(), 1);
}

#[wasm_bindgen_test]
fn backticked_parts_of_a_description_are_code() {
    use runlens_web::components::inline_code::code_spans;
    let spans = |t: &str| code_spans(t);
    assert_eq!(
        spans("Generated by `runlens synth --seed 1`: 18 tables"),
        vec![
            (false, "Generated by ".to_owned()),
            (true, "runlens synth --seed 1".to_owned()),
            (false, ": 18 tables".to_owned()),
        ]
    );
    assert_eq!(
        spans("`a``b`"),
        vec![(true, "a".to_owned()), (true, "b".to_owned())]
    );
    // An unpaired backtick stays as text; markup is text too.
    assert_eq!(
        spans("x ` <b>y</b>"),
        vec![(false, "x ` <b>y</b>".to_owned())]
    );
    assert_eq!(spans(""), Vec::<(bool, String)>::new());
}
