//! The tab strip of a bundle's views; the chosen tab lives in the URL (`tab=`). Keys as the
//! WAI-ARIA tabs pattern: the strip is one stop of the Tab key (the chosen tab), the arrow
//! keys move to the previous / next tab and open it, Home and End the first and last. On a
//! narrow screen the strip collapses into a menu (a `<select>` of the same views). Anywhere on
//! the page, a view's key (`1`–`8`, the registry's) opens it, unless focus is in a field or a
//! dialog is open.

use leptos::prelude::*;

use wasm_bindgen::JsCast;

use crate::components::page_keys::{modal_open, not_a_page_key};
use crate::pages::registry::{VIEWS, shortcut, tab_after_key, tab_of_shortcut};
use crate::state::{Tab, UrlState};

/// Buttons for every tab, the current one marked `aria-selected`, and the narrow screen's menu.
#[component]
pub fn TabBar() -> impl IntoView {
    let state = UrlState::use_context();
    let strip = NodeRef::<leptos::html::Nav>::new();
    let on_key = move |ev: web_sys::KeyboardEvent| {
        let current = state.with_untracked(|s| s.tab);
        let Some(next) = tab_after_key(current, &ev.key()) else {
            return;
        };
        ev.prevent_default();
        state.push(|s| s.tab = next);
        let button = strip.get_untracked().and_then(|nav| {
            nav.query_selector(&format!("button[data-tab='{}']", next.key()))
                .ok()
                .flatten()
        });
        if let Some(b) = button.and_then(|b| b.dyn_into::<web_sys::HtmlElement>().ok()) {
            let _ = b.focus();
        }
    };
    let keys = window_event_listener(leptos::ev::keydown, move |ev| {
        // A strip no longer in the document (a page replaced) takes no keys.
        let shown = strip.get_untracked().is_some_and(|s| s.is_connected());
        if !shown || not_a_page_key(&ev) || modal_open() {
            return;
        }
        if let Some(tab) = tab_of_shortcut(&ev.key()) {
            ev.prevent_default();
            if state.with_untracked(|s| s.tab) != tab {
                state.push(|s| s.tab = tab);
            }
        }
    });
    on_cleanup(move || keys.remove());
    view! {
        <nav class="tabs" role="tablist" aria-label="Views" node_ref=strip on:keydown=on_key>
            {VIEWS.iter().map(|def| {
                let tab = def.tab;
                let selected = move || state.with(|s| s.tab == tab);
                let shortcut = shortcut(tab);
                let title = match shortcut {
                    Some(key) => format!("{} (key {key})", def.label),
                    None => def.label.to_owned(),
                };
                view! {
                    <button
                        role="tab"
                        class="tab"
                        data-tab=tab.key()
                        data-chunk=def.chunk()
                        aria-keyshortcuts=shortcut
                        title=title
                        aria-selected=move || selected().to_string()
                        tabindex=move || if selected() { "0" } else { "-1" }
                        on:click=move |_| state.push(|s| s.tab = tab)
                    >
                        {def.label}
                    </button>
                }
            }).collect_view()}
        </nav>
        // On a narrow screen (CSS) the strip gives way to this menu of the same views.
        <label class="tabs-menu">
            <span class="label">"View "</span>
            <select data-testid="tabs-menu" aria-label="View"
                prop:value=move || state.with(|s| s.tab.key())
                on:change=move |ev| {
                    let key = event_target_value(&ev);
                    if let Some(tab) = Tab::from_key(&key) {
                        state.push(|s| s.tab = tab);
                    }
                }>
                {VIEWS.iter().map(|def| {
                    let tab = def.tab;
                    view! {
                        <option value=tab.key() selected=move || state.with(|s| s.tab == tab)>{def.label}</option>
                    }
                }).collect_view()}
            </select>
        </label>
    }
}
