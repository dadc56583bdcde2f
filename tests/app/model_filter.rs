//! The header's model filter (`models=`): ticking and unticking, the "all" rule, the search,
//! "only these" and the summary line.

use leptos::prelude::*;
use runlens_web::components::ModelFilter;
use runlens_web::components::model_filter::{ModelChoice, matching, summary_text, toggled};
use runlens_web::state::{UrlState, ViewState};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::wasm_bindgen_test;

fn choices() -> Vec<ModelChoice> {
    [
        ("gpt-4.1", "GPT-4.1"),
        ("opus48", "Claude Opus 4.8"),
        ("qwen3-coder-30b", "Qwen3-Coder 30B"),
    ]
    .into_iter()
    .map(|(key, name)| ModelChoice {
        key: key.into(),
        name: name.into(),
    })
    .collect()
}

fn keys() -> Vec<String> {
    choices().into_iter().map(|c| c.key).collect()
}

#[wasm_bindgen_test]
fn ticking_keeps_bundle_order_and_all_means_empty() {
    let all = keys();
    // From "all", unticking one leaves the other two, in the bundle's order.
    assert_eq!(toggled(&all, &[], "opus48"), ["gpt-4.1", "qwen3-coder-30b"]);
    // Ticked in another order, the choice still follows the bundle.
    let chosen = vec!["qwen3-coder-30b".to_owned()];
    assert_eq!(
        toggled(&all, &chosen, "gpt-4.1"),
        ["gpt-4.1", "qwen3-coder-30b"]
    );
    // Ticking the last missing one is "all" again: empty.
    let two = vec!["gpt-4.1".to_owned(), "qwen3-coder-30b".to_owned()];
    assert!(toggled(&all, &two, "opus48").is_empty());
    // The only chosen model stays chosen.
    assert_eq!(
        toggled(&all, &chosen, "qwen3-coder-30b"),
        ["qwen3-coder-30b"]
    );
}

#[wasm_bindgen_test]
fn search_matches_names_and_keys_and_the_summary_names_the_choice() {
    let all = choices();
    let found: Vec<&str> = matching(&all, " QWEN ")
        .iter()
        .map(|m| m.key.as_str())
        .collect();
    assert_eq!(found, ["qwen3-coder-30b"]);
    let found: Vec<&str> = matching(&all, "opus")
        .iter()
        .map(|m| m.key.as_str())
        .collect();
    assert_eq!(found, ["opus48"]);
    assert_eq!(matching(&all, "").len(), 3);
    assert_eq!(summary_text(&all, &[]), "all 3");
    assert_eq!(
        summary_text(&all, &["opus48".into()]),
        "1 of 3: Claude Opus 4.8"
    );
    assert_eq!(
        summary_text(&all, &keys()),
        "3 of 3: GPT-4.1, Claude Opus 4.8 and 1 more"
    );
    // A key the bundle lacks is not counted.
    assert_eq!(summary_text(&all, &["nope".into()]), "all 3");
}

#[wasm_bindgen_test]
async fn the_menu_writes_the_choice_into_the_url_state() {
    let document = web_sys::window().unwrap().document().unwrap();
    let host: web_sys::HtmlElement = document.create_element("div").unwrap().unchecked_into();
    document.body().unwrap().append_child(&host).unwrap();
    let st = UrlState::detached(ViewState::default());
    std::mem::forget(leptos::mount::mount_to(host.clone(), move || {
        provide_context(st);
        view! { <ModelFilter models=choices() /> }
    }));
    leptos::task::tick().await;
    let text = |sel: &str| {
        host.query_selector(sel)
            .unwrap()
            .and_then(|e| e.text_content())
            .unwrap_or_default()
    };
    assert_eq!(text("[data-testid='model-filter-summary']"), "all 3");
    let input = |key: &str| -> web_sys::HtmlInputElement {
        host.query_selector(&format!("input[data-model='{key}']"))
            .unwrap()
            .unwrap()
            .unchecked_into()
    };
    assert!(input("opus48").checked());
    input("opus48").click();
    leptos::task::tick().await;
    assert_eq!(
        st.with_untracked(|s| s.models.clone()),
        ["gpt-4.1", "qwen3-coder-30b"]
    );
    assert!(!input("opus48").checked());
    assert_eq!(
        text("[data-testid='model-filter-summary']"),
        "2 of 3: GPT-4.1, Qwen3-Coder 30B"
    );
    // Search "opus", then "Only these": the one match.
    let search: web_sys::HtmlInputElement = host
        .query_selector("[data-testid='model-filter-search']")
        .unwrap()
        .unwrap()
        .unchecked_into();
    search.set_value("opus");
    search
        .dispatch_event(&web_sys::Event::new("input").unwrap())
        .unwrap();
    leptos::task::tick().await;
    assert_eq!(
        host.query_selector_all(".model-filter-list input")
            .unwrap()
            .length(),
        1
    );
    host.query_selector("[data-testid='model-filter-only']")
        .unwrap()
        .unwrap()
        .unchecked_into::<web_sys::HtmlElement>()
        .click();
    leptos::task::tick().await;
    assert_eq!(st.with_untracked(|s| s.models.clone()), ["opus48"]);
    // The only chosen model cannot be unticked.
    assert!(input("opus48").disabled());
    // "All models" clears the choice.
    host.query_selector("[data-testid='model-filter-all']")
        .unwrap()
        .unwrap()
        .unchecked_into::<web_sys::HtmlElement>()
        .click();
    leptos::task::tick().await;
    assert!(st.with_untracked(|s| s.models.is_empty()));
    assert_eq!(text("[data-testid='model-filter-summary']"), "all 3");
}
