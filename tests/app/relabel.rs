//! Re-labelling (issue 7): the exact harness request, the panel against a fake Jev, Apply and
//! the overrides file (export, import, `ov=` links). Headless Chromium.

use crate::relabel_fixture::*;
use leptos::prelude::*;
use runlens_core::overrides::{OverridesFile, request_hash};
use runlens_web::pages::relabel::draft::RequestDraft;
use runlens_web::pages::relabel::failed_cell::build_label_request;
use runlens_web::pages::relabel::{OFFLINE_WARNING, RelabelPanel};
use runlens_web::state::RankingParams;
use runlens_web::state::{
    MAX_LINK_CHARS, ViewState, decode_overrides, encode_overrides, link_value, storage_key,
};
use wasm_bindgen_test::*;

#[wasm_bindgen_test]
fn the_built_request_is_the_harness_request_exactly() {
    let bundle = bundle("dev");
    let cell = cell_of(&bundle, "dev", "gpt-4.1", "ex-007");
    let request = build_label_request(&bundle.body, &cell).unwrap();
    let got = serde_json::to_string(&request).unwrap();
    // Same keys in the same order, same text: compare the serialised strings.
    assert_eq!(got, expected_request().to_string());
    // The draft gives the same request back.
    assert_eq!(
        RequestDraft::from_request(&request).to_request().unwrap(),
        request
    );
}

#[wasm_bindgen_test]
fn a_draft_with_an_invalid_field_or_question_names_it() {
    let bundle = bundle("dev");
    let cell = cell_of(&bundle, "dev", "gpt-4.1", "ex-007");
    let request = build_label_request(&bundle.body, &cell).unwrap();
    let mut draft = RequestDraft::from_request(&request);
    draft.state[6].1 = runlens_web::pages::relabel::draft::FieldValue::Json("seven".into());
    let err = draft.to_request().unwrap_err();
    assert!(err.contains("candidate_turns"), "{err}");
    let mut draft = RequestDraft::from_request(&request);
    draft.questions[0].options.clear();
    let err = draft.to_request().unwrap_err();
    assert!(err.contains("sub_mode"), "{err}");
}

#[wasm_bindgen_test]
async fn the_panel_shows_the_answer_and_the_offline_warning() {
    let fake = FakeJev::new(Ok(label_response()));
    let host = mount(ViewState::default(), fake.clone(), "dev", |b| {
        view! { <RelabelPanel opened=opened(&b, "dev", "gpt-4.1", "ex-007") bundle=b corpus="dev" model="gpt-4.1" trace_id="ex-007" /> }
    });
    settle().await;
    // #17: the panel starts compact: Ask first, the request's fields folded under it.
    let request = host
        .query_selector("details[data-testid='relabel-request']")
        .unwrap()
        .unwrap();
    assert!(!request.has_attribute("open"));
    let ask = host
        .query_selector("[data-testid='relabel-ask']")
        .unwrap()
        .unwrap();
    // DOCUMENT_POSITION_FOLLOWING (4): the request comes after the Ask button.
    assert_eq!(ask.compare_document_position(&request) & 4, 4);
    assert!(
        text_of(&host, "details[data-testid='relabel-request'] summary")
            .starts_with("Edit the request (")
    );
    // The form holds every state field; the long result is clipped to 2,000 + 15 chars.
    let clipped = value_of(&host, "[data-field='candidate_results[0]']");
    assert_eq!(clipped.chars().count(), 2000 + " ...(truncated)".len());
    assert_eq!(
        text_of(&host, "[data-testid='proxy-model']"),
        "sparrow-nano-general-v1.1"
    );
    click(&host, "[data-testid='relabel-ask']");
    settle().await;
    // The request sent is the built one.
    let sent = fake.sent();
    assert_eq!(sent.len(), 1);
    assert_eq!(serde_json::to_value(&sent[0]).unwrap(), expected_request());
    // All probabilities of the sub-mode choice, unrounded in data-value.
    let p = |option: &str| {
        attr(
            &host,
            &format!("[data-answer='sub_mode'] [data-option='{option}']"),
            "data-value",
        )
    };
    assert_eq!(p("wrong_join"), "0.5");
    assert_eq!(p("wrong_table"), "0.3");
    assert_eq!(p("wrong_grain"), "0.2");
    // Family and family_confidence (0.5 + 0.2 = 0.7, both query_construction), the rule
    // and the two yes/no probabilities, beside the recorded label.
    assert_eq!(text_of(&host, "[data-new='family']"), "query_construction");
    assert_eq!(text_of(&host, "[data-new='family_confidence']"), "0.700");
    assert_eq!(text_of(&host, "[data-new='prevented_by_rule']"), "crm_join");
    assert_eq!(
        text_of(&host, "[data-new='schema_hint_would_help']"),
        "0.900"
    );
    assert_eq!(text_of(&host, "[data-new='correct_despite_fail']"), "0.100");
    assert_eq!(text_of(&host, "[data-recorded='sub_mode']"), "wrong_table");
    assert_eq!(
        attr(&host, "[data-metric='relabel:latency_ms']", "data-value"),
        "12.5"
    );
    // The offline warning beside the answer header and each of the 4 answers.
    let warnings = host
        .query_selector_all("[data-testid='offline-warning']")
        .unwrap();
    assert_eq!(warnings.length(), 1 + 4);
    assert_eq!(
        warnings.item(0).unwrap().text_content().unwrap(),
        OFFLINE_WARNING
    );
}

#[wasm_bindgen_test]
async fn a_proxy_that_wants_a_token_asks_for_it_once_and_keeps_it_in_memory() {
    const GOOD: &str = "reviewer-0123456789abcdef";
    runlens_web::api::set_proxy_token(None);
    let fake = FakeJev::new(Ok(label_response())).requiring(GOOD);
    let host = mount(ViewState::default(), fake.clone(), "dev", |b| {
        view! { <RelabelPanel opened=opened(&b, "dev", "gpt-4.1", "ex-007") bundle=b corpus="dev" model="gpt-4.1" trace_id="ex-007" /> }
    });
    settle().await;
    click(&host, "[data-testid='relabel-ask']");
    settle().await;
    let asked = text_of(&host, "[data-testid='token-prompt'] p");
    assert!(
        asked.starts_with("This Jev proxy needs an access token"),
        "{asked}"
    );
    assert!(
        host.query_selector("[data-testid='relabel-error']")
            .unwrap()
            .is_none()
    );
    // A wrong token: asked again, and the wrong one is forgotten.
    type_into(
        &host,
        "[data-testid='token-input']",
        "wrong-0123456789abcdef",
    );
    click(&host, "[data-testid='token-submit']");
    settle().await;
    assert_eq!(
        text_of(&host, "[data-testid='token-prompt'] p"),
        "The proxy refused that access token. Enter another one:"
    );
    assert_eq!(runlens_web::api::proxy_token(), None);
    // The right one: the request is asked again and answered; the prompt goes away.
    type_into(&host, "[data-testid='token-input']", &format!("  {GOOD} "));
    click(&host, "[data-testid='token-submit']");
    settle().await;
    assert!(
        host.query_selector("[data-testid='token-prompt']")
            .unwrap()
            .is_none()
    );
    assert_eq!(text_of(&host, "[data-new='family']"), "query_construction");
    assert_eq!(runlens_web::api::proxy_token().as_deref(), Some(GOOD));
    assert_eq!(fake.sent().len(), 3);
    // Asking again needs no prompt.
    click(&host, "[data-testid='relabel-ask']");
    settle().await;
    assert!(
        host.query_selector("[data-testid='token-prompt']")
            .unwrap()
            .is_none()
    );
    assert_eq!(fake.sent().len(), 4);
    runlens_web::api::set_proxy_token(None);
}

#[wasm_bindgen_test]
async fn no_proxy_says_how_to_start_one() {
    let fake = FakeJev::new(Err(network_error()));
    let host = mount(ViewState::default(), fake, "dev", |b| {
        view! { <RelabelPanel opened=opened(&b, "dev", "gpt-4.1", "ex-007") bundle=b corpus="dev" model="gpt-4.1" trace_id="ex-007" /> }
    });
    settle().await;
    click(&host, "[data-testid='relabel-ask']");
    settle().await;
    let error = text_of(&host, "[data-testid='relabel-error']");
    assert!(
        error.contains("runlens serve") && error.contains("?jev=URL"),
        "{error}"
    );
}

#[wasm_bindgen_test]
async fn apply_changes_the_counts_and_shows_what_changed() {
    clear_storage("apply");
    let fake = FakeJev::new(Ok(label_response()));
    let host = mount(ViewState::default(), fake, "apply", |b| {
        view! { <RelabelPanel opened=opened(&b, "apply", "gpt-4.1", "ex-007") bundle=b corpus="apply" model="gpt-4.1" trace_id="ex-007" /> }
    });
    settle().await;
    // Before: wrong_table 1 (ex-007), wrong_join 1 (ex-008).
    assert_eq!(count(&host, "wrong_table"), 1.0);
    assert_eq!(count(&host, "wrong_join"), 1.0);
    click(&host, "[data-testid='relabel-ask']");
    settle().await;
    click(&host, "[data-testid='relabel-apply']");
    settle().await;
    // ex-007 wrong_table → wrong_join: wrong_table 1 → 0, wrong_join 1 → 2.
    assert_eq!(count(&host, "wrong_table"), 0.0);
    assert_eq!(count(&host, "wrong_join"), 2.0);
    assert_eq!(
        attr(&host, "[data-metric='changed:labels']", "data-value"),
        "1"
    );
    assert_eq!(
        attr(
            &host,
            "[data-metric='changed:sub_mode:wrong_join']",
            "data-value"
        ),
        "2"
    );
    assert_eq!(
        attr(
            &host,
            "[data-metric='changed:sub_mode:wrong_join']",
            "data-before"
        ),
        "1"
    );
    assert_eq!(
        attr(
            &host,
            "[data-metric='changed:family:schema_choice']",
            "data-value"
        ),
        "0"
    );
    let summary = text_of(&host, "[data-metric='changed:labels']");
    // Taxonomy order: wrong_table (schema_choice) comes before wrong_join.
    assert_eq!(
        summary,
        "apply: 1 label changed; sub-mode: wrong_table 1→0, wrong_join 1→2; \
         family: schema_choice 1→0, query_construction 1→2; \
         FM bucket: FM3 wrong data 1→0, FM4 wrong impl 1→2"
    );
    assert_eq!(
        attr(&host, "[data-metric='overrides:count']", "data-value"),
        "1"
    );
    // The rebuilt panel keeps the answer and shows the bundle's label beside the one in force.
    assert_eq!(text_of(&host, "[data-original='sub_mode']"), "wrong_table");
    assert_eq!(text_of(&host, "[data-recorded='sub_mode']"), "wrong_join");
    assert!(
        text_of(&host, "[data-testid='overridden']").contains("the one in force is wrong_join")
    );
    // Provenance, the export text and the stored copy.
    let state = STATE.with_borrow(|s| s.unwrap());
    let file = state.file.get_untracked();
    let o = &file.overrides[0];
    assert_eq!(
        (o.key.as_str(), o.corpus.as_str()),
        ("gpt-4.1/ex-007", "apply")
    );
    assert_eq!(
        o.original.as_ref().unwrap().sub_mode.as_deref(),
        Some("wrong_table")
    );
    assert_eq!(o.new.sub_mode.as_deref(), Some("wrong_join"));
    assert_eq!(o.model_id, "sparrow-nano-general-v1.1");
    // The raw answers the new label came from are kept, exactly as answered.
    assert_eq!(o.answers.as_ref(), Some(&label_response().answers));
    let sent = expected_request().to_string();
    assert_eq!(o.request_hash, request_hash(sent.as_bytes()));
    assert!(
        o.applied_at.ends_with('Z') && o.applied_at.len() == 24,
        "{}",
        o.applied_at
    );
    let (name, text) = state.export();
    assert_eq!(text, file.to_json());
    assert_eq!(name, format!("overrides-{}.json", &file.bundle_hash[..12]));
    let stored = storage()
        .get_item(&storage_key(&file.bundle_hash))
        .unwrap()
        .unwrap();
    assert_eq!(OverridesFile::from_json(&stored).unwrap(), file);
}

/// Issue 17, bug 8: Apply rebuilds the views (the panel too), which took the result line
/// and the keyboard focus with it; the reader, far down the page, saw nothing happen. The
/// rebuilt panel now says what changed beside the button, which says the label is in force,
/// and the focus is on that line.
#[wasm_bindgen_test]
async fn after_apply_the_rebuilt_panel_says_what_changed_where_the_reader_is() {
    use wasm_bindgen::JsCast;
    clear_storage("stay");
    let fake = FakeJev::new(Ok(label_response()));
    let host = mount(ViewState::default(), fake, "stay", |b| {
        view! { <RelabelPanel opened=opened(&b, "stay", "gpt-4.1", "ex-007") bundle=b corpus="stay" model="gpt-4.1" trace_id="ex-007" /> }
    });
    settle().await;
    click(&host, "[data-testid='relabel-ask']");
    settle().await;
    assert_eq!(
        text_of(&host, "[data-testid='relabel-apply']"),
        "Apply this label"
    );
    // A reader's click focuses the button (a synthetic click does not): without this the
    // focus stayed wherever an earlier test left it, and the line rightly left it there.
    host.query_selector("[data-testid='relabel-apply']")
        .unwrap()
        .unwrap()
        .unchecked_into::<web_sys::HtmlElement>()
        .focus()
        .unwrap();
    click(&host, "[data-testid='relabel-apply']");
    settle().await;
    assert_eq!(
        text_of(&host, "[data-testid='applied']"),
        " Applied: 1 label changed; sub-mode: wrong_table 1→0, wrong_join 1→2; family: \
         schema_choice 1→0, query_construction 1→2; FM bucket: FM3 wrong data 1→0, FM4 \
         wrong impl 1→2"
    );
    assert_eq!(text_of(&host, "[data-testid='relabel-apply']"), "Applied ✓");
    assert!(
        host.query_selector("[data-testid='relabel-apply']:disabled")
            .unwrap()
            .is_some()
    );
    // The line takes the focus once it is in the document (a task after it is made; on a
    // busy machine a few more may run first, so this waits for it, up to a bound).
    let focused = || {
        web_sys::window()
            .unwrap()
            .document()
            .unwrap()
            .active_element()
            .and_then(|e| e.get_attribute("data-testid"))
    };
    for _ in 0..20 {
        settle().await;
        if focused().as_deref() == Some("applied") {
            break;
        }
    }
    assert_eq!(focused().as_deref(), Some("applied"));
}

/// Apply updates the real failures and audit views mounted on the bundle as loaded (as the
/// overview mounts them; the re-labels travel with their questions): ex-007 wrong_table / schema_choice / FM3, correct_despite_fail 0.8
/// → wrong_join / query_construction / FM4, correct_despite_fail 0.1 (label_response).
#[wasm_bindgen_test]
async fn apply_updates_the_failures_histograms_and_the_audit_queue() {
    use runlens_web::pages::{AuditView, FailuresView};
    clear_storage("views");
    let fake = FakeJev::new(Ok(label_response()));
    let host = mount(ViewState::default(), fake, "views", |b| {
        view! {
            <RelabelPanel opened=opened(&b, "views", "gpt-4.1", "ex-007") bundle=b.clone() corpus="views" model="gpt-4.1" trace_id="ex-007" />
            <FailuresView bundle=b.clone() />
            <AuditView bundle=b />
        }
    });
    settle().await;
    let failures = |metric: &str| {
        let selector = format!("[data-testid='failures-view'] [data-metric='{metric}']");
        attr(&host, &selector, "data-value")
    };
    let audit = || {
        attr(
            &host,
            "[data-testid='audit-view'] [data-metric='audit:count']",
            "data-value",
        )
    };
    let names = [
        "sub_mode:wrong_table",
        "sub_mode:wrong_join",
        "family:schema_choice",
        "family:query_construction",
        "fm_bucket:FM3 wrong data",
        "fm_bucket:FM4 wrong impl",
        "failures:count",
        "cdf:above",
    ];
    let before: Vec<String> = names.iter().map(|m| failures(m)).collect();
    // ex-007 and ex-008 (wrong_join / query_construction / FM4); only ex-007 has
    // correct_despite_fail ≥ 0.65, so one failure above the threshold and one queue item.
    assert_eq!(before, ["1", "1", "1", "1", "1", "1", "2", "1"]);
    assert_eq!(audit(), "1");
    click(&host, "[data-testid='relabel-ask']");
    settle().await;
    click(&host, "[data-testid='relabel-apply']");
    settle().await;
    let after: Vec<String> = names.iter().map(|m| failures(m)).collect();
    // −1 / +1 on the old and new sub-mode, family and bucket; still 2 failures; the new
    // correct_despite_fail 0.1 < 0.65 takes ex-007 out of the cdf count and the audit queue.
    assert_eq!(after, ["0", "2", "0", "2", "0", "2", "2", "0"]);
    assert_eq!(audit(), "0");
}

#[wasm_bindgen_test]
fn ov_links_round_trip_and_refuse_damage() {
    let file = one_override("dev");
    let value = encode_overrides(&file);
    assert!(value.starts_with("1."));
    assert_eq!(decode_overrides(&value).unwrap(), file);
    assert_eq!(link_value(&file).as_deref(), Some(value.as_str()));
    assert!(value.len() <= MAX_LINK_CHARS);
    // Nothing to carry → no ov=; far too many → not in the link.
    assert_eq!(link_value(&OverridesFile::new("x")), None);
    let mut big = file.clone();
    for i in 0..200 {
        let mut o = file.overrides[0].clone();
        o.applied_at = format!("2026-12-03T07:{:02}:{:02}.000Z", i / 60, i % 60);
        o.request_hash = format!("{:064x}", i * 7919);
        big.overrides.push(o);
    }
    assert_eq!(link_value(&big), None);
    // Raw answers too long for a link: the link carries the labels without them.
    let mut wordy = file.clone();
    if let Some(answers) = wordy.overrides[0].answers.as_mut() {
        answers.insert(
            "notes".into(),
            runlens_core::jev::Answer::Choice {
                choice: "x".repeat(40),
                confidence: 0.5,
                probabilities: (0..120)
                    .map(|i| {
                        (
                            format!("option_{i}_{:016x}", i * 7919),
                            1.0 / (i + 3) as f64,
                        )
                    })
                    .collect(),
            },
        );
    }
    assert!(encode_overrides(&wordy).len() > MAX_LINK_CHARS);
    let carried = decode_overrides(&link_value(&wordy).unwrap()).unwrap();
    assert_eq!(carried.overrides[0].answers, None);
    assert_eq!(carried.overrides[0].new, file.overrides[0].new);
    assert_eq!(
        carried.overrides[0].request_hash,
        file.overrides[0].request_hash
    );
    assert!(
        decode_overrides("2.abc")
            .unwrap_err()
            .contains("not a runlens overrides")
    );
    assert!(decode_overrides("1.%%%").unwrap_err().contains("damaged"));
}

#[wasm_bindgen_test]
async fn a_link_with_overrides_opens_with_them_applied() {
    clear_storage("link");
    let value = encode_overrides(&one_override("link"));
    let state = ViewState {
        overrides: Some(value),
        ..ViewState::default()
    };
    let host = mount(state, FakeJev::new(Ok(label_response())), "link", |_| {
        ().into_any()
    });
    settle().await;
    assert_eq!(count(&host, "wrong_table"), 0.0);
    assert_eq!(count(&host, "wrong_join"), 2.0);
    assert_eq!(
        attr(&host, "[data-metric='overrides:count']", "data-value"),
        "1"
    );
}

/// This browser's own saved override of `corpus`: ex-007 → wrong_column (the link's
/// [`one_override`] says wrong_join).
fn saved_override(corpus: &str) -> OverridesFile {
    let mut file = one_override(corpus);
    file.overrides[0].new = label("ex-007", "wrong_column", "schema_choice");
    file.overrides[0].applied_at = "2026-12-01T09:00:00.000Z".into();
    file
}

fn stored(corpus: &str) -> Option<OverridesFile> {
    let key = storage_key(&bundle(corpus).content_hash);
    storage()
        .get_item(&key)
        .unwrap()
        .map(|text| OverridesFile::from_json(&text).unwrap())
}

/// Issue 17, bug 7: a link's `ov=` used to be written into the reader's own storage at once
/// (replacing their saved overrides) and carried on as theirs.
#[wasm_bindgen_test]
async fn a_links_overrides_are_shown_but_not_saved_until_kept() {
    clear_storage("shared");
    let mine = saved_override("shared");
    storage()
        .set_item(&storage_key(&mine.bundle_hash), &mine.to_json())
        .unwrap();
    let link = one_override("shared");
    let state = ViewState {
        overrides: Some(link_value(&link).unwrap()),
        ..ViewState::default()
    };
    let host = mount(state, FakeJev::new(Ok(label_response())), "shared", |_| {
        ().into_any()
    });
    settle().await;
    // The link's label is in force (ex-007 and ex-008 wrong_join) ...
    assert_eq!(count(&host, "wrong_join"), 2.0);
    assert_eq!(count(&host, "wrong_column"), 0.0);
    // ... said to be the link's, and the saved one is untouched.
    assert_eq!(
        text_of(&host, "[data-testid='overrides-shared']"),
        "This label override comes from the link you opened and is not saved in this browser. \
         Your saved override of this bundle is set aside meanwhile; saving the link's replaces \
         it. Save it in this browser Use my saved override instead"
    );
    assert_eq!(stored("shared"), Some(mine.clone()));
    // Keeping them saves them, replacing the saved one.
    click(&host, "[data-testid='overrides-keep']");
    settle().await;
    assert_eq!(stored("shared"), Some(link));
    assert!(
        host.query_selector("[data-testid='overrides-shared']")
            .unwrap()
            .is_none()
    );
    assert_eq!(count(&host, "wrong_join"), 2.0);
}

#[wasm_bindgen_test]
async fn a_links_overrides_set_aside_give_back_the_saved_ones() {
    clear_storage("aside");
    let mine = saved_override("aside");
    storage()
        .set_item(&storage_key(&mine.bundle_hash), &mine.to_json())
        .unwrap();
    let state = ViewState {
        overrides: Some(link_value(&one_override("aside")).unwrap()),
        ..ViewState::default()
    };
    let host = mount(state, FakeJev::new(Ok(label_response())), "aside", |_| {
        ().into_any()
    });
    let overrides = STATE.with_borrow(|s| s.unwrap());
    settle().await;
    assert_eq!(count(&host, "wrong_join"), 2.0);
    click(&host, "[data-testid='overrides-set-aside']");
    settle().await;
    // The saved label (ex-007 wrong_column) is in force again, and stays saved.
    assert_eq!(count(&host, "wrong_join"), 1.0);
    assert_eq!(count(&host, "wrong_column"), 1.0);
    assert_eq!(overrides.file.get_untracked(), mine);
    assert!(!overrides.shared.get_untracked());
    assert_eq!(stored("aside"), Some(mine));
}

#[wasm_bindgen_test]
async fn a_link_carrying_ones_own_saved_overrides_is_no_shared_one() {
    clear_storage("own");
    let mine = saved_override("own");
    storage()
        .set_item(&storage_key(&mine.bundle_hash), &mine.to_json())
        .unwrap();
    // A reload: the address carries what this browser saved.
    let state = ViewState {
        overrides: Some(link_value(&mine).unwrap()),
        ..ViewState::default()
    };
    let host = mount(state, FakeJev::new(Ok(label_response())), "own", |_| {
        ().into_any()
    });
    settle().await;
    assert_eq!(count(&host, "wrong_column"), 1.0);
    assert!(!STATE.with_borrow(|s| s.unwrap()).shared.get_untracked());
    assert!(
        host.query_selector("[data-testid='overrides-shared']")
            .unwrap()
            .is_none()
    );
}

#[wasm_bindgen_test]
async fn overrides_for_another_bundle_or_broken_files_are_refused() {
    clear_storage("other");
    let wrong = encode_overrides(&one_override("dev"));
    let state = ViewState {
        overrides: Some(wrong),
        ..ViewState::default()
    };
    let host = mount(state, FakeJev::new(Ok(label_response())), "other", |_| {
        ().into_any()
    });
    settle().await;
    let error = text_of(&host, "[data-testid='overrides-error']");
    assert!(
        error.contains("made on bundle") && error.contains("not applied"),
        "{error}"
    );
    assert_eq!(count(&host, "wrong_table"), 1.0);
    let state = STATE.with_borrow(|s| s.unwrap());
    let err = state
        .import_json(
            "mine.json",
            r#"{"format": "runlens-overrides", "version": 2}"#,
        )
        .unwrap_err();
    assert!(
        err.starts_with("mine.json: ") && err.contains("version"),
        "{err}"
    );
    let mut file = one_override("other");
    file.overrides[0].corpus = "nope".into();
    let err = state.import_json("x.json", &file.to_json()).unwrap_err();
    assert!(err.contains("\"nope\" is not in the bundle"), "{err}");
    settle().await;
    assert_eq!(text_of(&host, "[data-testid='overrides-error']"), err);
    // A good file applies.
    state
        .import_json("ok.json", &one_override("other").to_json())
        .unwrap();
    settle().await;
    assert_eq!(count(&host, "wrong_table"), 0.0);
}

#[wasm_bindgen_test]
async fn overrides_persist_per_bundle_in_local_storage() {
    clear_storage("persist");
    let file = one_override("persist");
    let key = storage_key(&file.bundle_hash);
    storage().set_item(&key, &file.to_json()).unwrap();
    let host = mount(
        ViewState::default(),
        FakeJev::new(Ok(label_response())),
        "persist",
        |_| ().into_any(),
    );
    settle().await;
    assert_eq!(count(&host, "wrong_join"), 2.0);
    STATE.with_borrow(|s| s.unwrap()).clear();
    settle().await;
    assert_eq!(count(&host, "wrong_join"), 1.0);
    assert_eq!(storage().get_item(&key).unwrap(), None);
}

/// Mounts the re-rank panel of the §5.6 question (recorded ranked usage_daily, dim_account,
/// support_case; gold support_case + usage_daily) against a fake Jev answering as `model`
/// with P(yes) 0.1 / 0.9 / 0.8 for t0..t2 (universe order dim_account, support_case,
/// usage_daily), and clicks "Re-rank".
async fn rerank_against(model: &str, corpus: &'static str) -> (web_sys::HtmlElement, FakeJev) {
    use runlens_core::bundle::{Bundle, BundleBody, Corpus, Provenance, RankingRow, SchemaPrompt};
    use runlens_core::jev::{Answer, SystemOneResponse};
    use runlens_core::metrics::question_rows::question_rows;
    use runlens_core::metrics::report::ReportOptions;
    use runlens_web::pages::relabel::RerankPanel;
    use std::sync::Arc;

    let universe: Vec<String> = [
        "crm.dim_account",
        "crm.fct_support_case",
        "marts.usage_daily",
    ]
    .map(String::from)
    .to_vec();
    let strings = |v: &[&str]| v.iter().map(|&s| s.into()).collect::<Vec<_>>();
    let corpus_rows = Corpus {
        name: "rank".into(),
        rankings: vec![RankingRow {
            trace_id: "ex-006".into(),
            gold: strings(&["crm.fct_support_case", "marts.usage_daily"]),
            ranked: strings(&[
                "marts.usage_daily",
                "crm.dim_account",
                "crm.fct_support_case",
            ]),
            ..RankingRow::default()
        }],
        ..Corpus::default()
    };
    let body = BundleBody {
        universe: universe.clone(),
        schema_prompt: Some(SchemaPrompt {
            file_name: "schema.md".into(),
            text: "Table `crm.dim_account` ...".into(),
        }),
        corpora: vec![corpus_rows],
        ..BundleBody::default()
    };
    let row = question_rows(&body, &body.corpora[0], &ReportOptions::default()).remove(0);
    let bundle = Arc::new(Bundle::new(Provenance::default(), body));
    let answers = [0.1, 0.9, 0.8]
        .iter()
        .enumerate()
        .map(|(i, p)| (format!("t{i}"), Answer::Noul { noul: *p }))
        .collect();
    let response = SystemOneResponse {
        model: model.into(),
        answers,
        usage: None,
    };
    let fake = FakeJev::new(Ok(response));
    let state = ViewState {
        ranking: RankingParams {
            k: 2,
            ..RankingParams::default()
        },
        ..ViewState::default()
    };
    let host = mount(state, fake.clone(), corpus, move |_| {
        view! { <RerankPanel bundle=bundle.clone() row=row.clone() /> }
    });
    settle().await;
    click(&host, "[data-testid='rerank-ask']");
    settle().await;
    (host, fake)
}

/// Re-ranking: the new ranking support_case, usage_daily, dim_account and its metrics.
#[wasm_bindgen_test]
async fn rerank_shows_the_new_ranking_and_its_metrics() {
    let (host, fake) = rerank_against("jev-1.13.0", "dev").await;
    let sent = serde_json::to_value(&fake.sent()[0]).unwrap();
    assert_eq!(
        sent["questions"]["t1"]["instructions"],
        "Is the table `crm.fct_support_case` needed to answer the question? The full warehouse schema is in the state."
    );
    assert_eq!(sent["state"]["schema"], "Table `crm.dim_account` ...");
    assert_eq!(
        text_of(&host, "[data-testid='rerank-tables'] [data-rank='1']"),
        "crm.fct_support_case ★ (0.900)"
    );
    // Both gold tables on top: nDCG@10 = 1, recall@2 = 1, all-required@2 = 1.
    assert_eq!(
        attr(&host, "[data-metric='rerank:ndcg@10']", "data-value"),
        "1"
    );
    assert_eq!(
        attr(&host, "[data-metric='rerank:recall@2']", "data-value"),
        "1"
    );
    assert_eq!(
        attr(&host, "[data-metric='rerank:all_required@2']", "data-value"),
        "1"
    );
    // Recorded beside it: nDCG = (1 + 1/log2 4) / (1 + 1/log2 3) = 0.920 (§5.6), recall@2 = 0.5.
    let metrics = text_of(&host, ".rerank-metrics");
    assert!(
        metrics.contains("0.920") && metrics.contains("0.500"),
        "{metrics}"
    );
    // jev-1.13.0 is not the offline model: no warning.
    assert!(
        host.query_selector("[data-testid='offline-warning']")
            .unwrap()
            .is_none()
    );
}

/// The offline model's re-ranking carries one low-accuracy notice, in the line naming the
/// model just above the new ranking.
#[wasm_bindgen_test]
async fn rerank_by_the_offline_model_says_it_is_low_accuracy() {
    let (host, _) = rerank_against("sparrow-nano-general-v1.1", "dev").await;
    assert_eq!(
        OFFLINE_WARNING,
        "offline model, low accuracy; set TYPESAFE_API_KEY for Jev"
    );
    let warnings = host
        .query_selector_all("[data-testid='rerank-panel'] [data-testid='offline-warning']")
        .unwrap();
    assert_eq!(warnings.length(), 1);
    assert_eq!(
        text_of(
            &host,
            "[data-testid='rerank-panel'] .answer-meta [data-testid='offline-warning']"
        ),
        "offline model, low accuracy; set TYPESAFE_API_KEY for Jev"
    );
    assert_eq!(
        text_of(&host, "[data-testid='rerank-panel'] .answer-meta code"),
        "sparrow-nano-general-v1.1"
    );
    // The meta line comes right before the metrics and the new ranking.
    let next = host
        .query_selector("[data-testid='rerank-panel'] .answer-meta + table.rerank-metrics + table")
        .unwrap()
        .unwrap();
    assert_eq!(
        next.get_attribute("data-testid").as_deref(),
        Some("rerank-tables")
    );
    assert_eq!(
        text_of(&host, "[data-testid='rerank-tables'] [data-rank='1']"),
        "crm.fct_support_case ★ (0.900)"
    );
}

/// Editing: an instruction changed, a question removed and a score question added are what
/// "Ask" sends.
#[wasm_bindgen_test]
async fn edits_to_the_form_are_what_is_sent() {
    use wasm_bindgen::JsCast;
    let fake = FakeJev::new(Ok(label_response()));
    let host = mount(ViewState::default(), fake.clone(), "dev", |b| {
        view! { <RelabelPanel opened=opened(&b, "dev", "gpt-4.1", "ex-007") bundle=b corpus="dev" model="gpt-4.1" trace_id="ex-007" /> }
    });
    settle().await;
    let instructions = host
        .query_selector("[data-question='schema_hint_would_help'] textarea.instructions")
        .unwrap()
        .unwrap();
    js_sys::Reflect::set(&instructions, &"value".into(), &"Edited?".into()).unwrap();
    instructions
        .dispatch_event(&web_sys::Event::new("input").unwrap())
        .unwrap();
    let answer = host
        .query_selector("[data-field='candidate_final_answer']")
        .unwrap()
        .unwrap();
    js_sys::Reflect::set(&answer, &"value".into(), &"42 seats".into()).unwrap();
    answer
        .dispatch_event(&web_sys::Event::new("input").unwrap())
        .unwrap();
    click(&host, "[data-question='correct_despite_fail'] button");
    settle().await;
    let add = host.query_selector_all(".add-question button").unwrap();
    add.item(2)
        .unwrap()
        .unchecked_into::<web_sys::HtmlElement>()
        .click();
    settle().await;
    click(&host, "[data-testid='relabel-ask']");
    settle().await;
    let sent = serde_json::to_value(&fake.sent()[0]).unwrap();
    let ids: Vec<&String> = sent["questions"].as_object().unwrap().keys().collect();
    assert_eq!(
        ids,
        [
            "sub_mode",
            "prevented_by_rule",
            "schema_hint_would_help",
            "q3"
        ]
    );
    assert_eq!(
        sent["questions"]["schema_hint_would_help"],
        serde_json::json!({"type": "noul", "instructions": "Edited?"})
    );
    assert_eq!(
        sent["questions"]["q3"],
        serde_json::json!({"type": "score", "criteria": ["low", "high"]})
    );
    assert_eq!(sent["state"]["candidate_final_answer"], "42 seats");
}

/// Sets the value of the `selector` input / textarea and fires `input`, as typing does.
fn type_into(host: &web_sys::HtmlElement, selector: &str, text: &str) {
    let el = host
        .query_selector(selector)
        .unwrap()
        .unwrap_or_else(|| panic!("no {selector}"));
    js_sys::Reflect::set(&el, &"value".into(), &text.into()).unwrap();
    el.dispatch_event(&web_sys::Event::new("input").unwrap())
        .unwrap();
}

/// Editing: an option's label and description changed, a noul and a choice question added
/// (with their instructions and an edited option) are exactly what "Ask" sends.
#[wasm_bindgen_test]
async fn edited_options_and_added_noul_and_choice_questions_are_what_is_sent() {
    use wasm_bindgen::JsCast;
    let fake = FakeJev::new(Ok(label_response()));
    // Its own corpus name: the panel keeps the last draft per bundle and cell in the session.
    let host = mount(ViewState::default(), fake.clone(), "form", |b| {
        view! { <RelabelPanel opened=opened(&b, "form", "gpt-4.1", "ex-007") bundle=b corpus="form" model="gpt-4.1" trace_id="ex-007" /> }
    });
    settle().await;
    let rule = "[data-question='prevented_by_rule'] li[data-option='0']";
    assert_eq!(
        value_of(&host, &format!("{rule} input.option-label")),
        "crm_join"
    );
    type_into(&host, &format!("{rule} input.option-label"), "crm_dim_join");
    type_into(
        &host,
        &format!("{rule} input.option-description"),
        "join the CRM dimension on tenant_id",
    );
    // + yes/no (noul) → q4, + choice → q5 (ids count the 4 harness questions).
    let add = |i: u32| {
        host.query_selector_all(".add-question button")
            .unwrap()
            .item(i)
            .unwrap()
            .unchecked_into::<web_sys::HtmlElement>()
            .click();
    };
    let questions = || host.query_selector_all("[data-question]").unwrap().length();
    assert_eq!(questions(), 4);
    add(0);
    settle().await;
    // The form is rebuilt with the new question (and keeps what was typed).
    assert_eq!(questions(), 5);
    assert_eq!(
        value_of(&host, &format!("{rule} input.option-label")),
        "crm_dim_join"
    );
    add(1);
    settle().await;
    assert_eq!(questions(), 6);
    assert_eq!(attr(&host, "[data-question='q4']", "data-kind"), "noul");
    assert_eq!(attr(&host, "[data-question='q5']", "data-kind"), "choice");
    type_into(
        &host,
        "[data-question='q4'] textarea.instructions",
        "Did the candidate read the CRM dimension?",
    );
    type_into(
        &host,
        "[data-question='q5'] textarea.instructions",
        "Which join key was used?",
    );
    type_into(
        &host,
        "[data-question='q5'] li[data-option='0'] input.option-label",
        "tenant_id",
    );
    type_into(
        &host,
        "[data-question='q5'] li[data-option='1'] input.option-label",
        "account_id",
    );
    type_into(
        &host,
        "[data-question='q5'] li[data-option='1'] input.option-description",
        "the internal account key",
    );
    click(&host, "[data-testid='relabel-ask']");
    settle().await;
    let sent = fake.sent();
    assert_eq!(sent.len(), 1, "{}", host.inner_html());
    let sent = serde_json::to_value(&sent[0]).unwrap();
    let ids: Vec<&String> = sent["questions"].as_object().unwrap().keys().collect();
    assert_eq!(
        ids,
        [
            "sub_mode",
            "prevented_by_rule",
            "schema_hint_would_help",
            "correct_despite_fail",
            "q4",
            "q5"
        ]
    );
    let expected = expected_request();
    assert_eq!(
        sent["questions"]["prevented_by_rule"],
        serde_json::json!({
            "type": "choice",
            "instructions": expected["questions"]["prevented_by_rule"]["instructions"],
            "criteria": {
                "crm_dim_join": "join the CRM dimension on tenant_id",
                "none": "no semantic rule explains this failure"
            }
        })
    );
    assert_eq!(
        sent["questions"]["q4"],
        serde_json::json!({"type": "noul", "instructions": "Did the candidate read the CRM dimension?"})
    );
    assert_eq!(
        sent["questions"]["q5"],
        serde_json::json!({
            "type": "choice",
            "instructions": "Which join key was used?",
            "criteria": {"tenant_id": null, "account_id": "the internal account key"}
        })
    );
    // Nothing else changed.
    assert_eq!(sent["state"], expected["state"]);
    assert_eq!(
        sent["questions"]["sub_mode"],
        expected["questions"]["sub_mode"]
    );
}
