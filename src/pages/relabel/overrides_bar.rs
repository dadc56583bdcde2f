//! The header's label overrides: how many are in force (a menu holding export / import /
//! clear), a link's overrides notice, the last "what changed" and any refusal in plain words.

use leptos::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

use super::apply::WhatChangedView;
use crate::export::download_text;
use crate::state::OverridesState;

/// Shown in the bundle header when the overrides context exists.
#[component]
pub fn OverridesBar() -> impl IntoView {
    let Some(state) = OverridesState::use_context() else {
        return ().into_any();
    };
    let count = Memo::new(move |_| state.file.with(|f| f.overrides.len()));
    let too_long = state.too_long_for_link;
    let export = move |_| {
        let (name, text) = state.export();
        if let Err(e) = download_text(&name, "application/json", &text) {
            state.error.set(Some(e.to_string()));
        }
    };
    let import = move |ev: leptos::ev::Event| {
        let Some(input) = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
        else {
            return;
        };
        let Some(file) = input.files().and_then(|f| f.get(0)) else {
            return;
        };
        input.set_value("");
        leptos::task::spawn_local(async move {
            let name = file.name();
            let text = JsFuture::from(file.text())
                .await
                .ok()
                .and_then(|v| v.as_string());
            match text {
                Some(text) => {
                    let _ = state.import_json(&name, &text);
                }
                None => state
                    .error
                    .set(Some(format!("{name}: the file could not be read as text"))),
            }
        });
    };
    // The controls fold into a menu (#17: not a toolbar on every tab); how many are in
    // force, a link's notice, refusals and what changed stay in sight.
    view! {
        <div class="overrides-bar" data-testid="overrides-bar">
            <details class="overrides-menu">
                <summary>
                    <span data-metric="overrides:count" data-value=move || count.get().to_string()>
                        {move || match count.get() {
                            0 => "No label overrides".to_owned(),
                            1 => "1 label override in force".to_owned(),
                            n => format!("{n} label overrides in force"),
                        }}
                    </span>
                </summary>
                <div class="overrides-controls">
                    <button data-testid="overrides-export" on:click=export disabled=move || count.get() == 0>"Export overrides"</button>
                    <label class="button">
                        "Import overrides… "
                        <input type="file" data-testid="overrides-import" accept=".json,application/json" on:change=import />
                    </label>
                    <Show when=move || !state.shared.get()>
                        <button data-testid="overrides-clear" on:click=move |_| state.clear() disabled=move || count.get() == 0>"Clear overrides"</button>
                    </Show>
                    <Show when=move || too_long.get()>
                        <span class="hint">"Too many to carry in the link: export the file to share them."</span>
                    </Show>
                </div>
            </details>
            <Show when=move || state.shared.get()>
                <SharedNotice state=state count=count />
            </Show>
            {move || state.error.get().map(|e| view! { <p class="error" role="alert" data-testid="overrides-error">{e}</p> })}
            {move || state.last_change.get().map(|(corpus, changed)| view! { <WhatChangedView corpus=corpus changed=changed /> })}
        </div>
    }
    .into_any()
}

/// While the overrides in force are a link's: says so, and offers to save them in this
/// browser or to set them aside (for this browser's saved ones, when there are any).
#[component]
fn SharedNotice(state: OverridesState, count: Memo<usize>) -> impl IntoView {
    let mine = state.saved().map_or(0, |f| f.overrides.len());
    let one = move || count.get() == 1;
    let theirs = move || match count.get() {
        1 => "This label override comes from the link you opened and is not saved in this \
              browser."
            .to_owned(),
        n => format!(
            "These {n} label overrides come from the link you opened and are not saved in \
             this browser."
        ),
    };
    let saved_note = match mine {
        0 => String::new(),
        1 => " Your saved override of this bundle is set aside meanwhile; saving the link's \
              replaces it."
            .to_owned(),
        n => format!(
            " Your {n} saved overrides of this bundle are set aside meanwhile; saving the \
             link's replaces them."
        ),
    };
    let keep = move || {
        if one() {
            "Save it in this browser"
        } else {
            "Save them in this browser"
        }
    };
    let set_aside = move || match mine {
        0 if one() => "Set it aside".to_owned(),
        0 => "Set them aside".to_owned(),
        1 => "Use my saved override instead".to_owned(),
        n => format!("Use my {n} saved overrides instead"),
    };
    view! {
        <p class="notice shared-overrides" role="status" data-testid="overrides-shared" data-saved=mine.to_string()>
            {theirs}
            {saved_note}
            " "
            <button data-testid="overrides-keep" on:click=move |_| state.keep_shared()>{keep}</button>
            " "
            <button data-testid="overrides-set-aside" on:click=move |_| state.set_shared_aside()>{set_aside}</button>
        </p>
    }
}
