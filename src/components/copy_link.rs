//! "Copy link": puts the address of the current view on the clipboard.

use leptos::prelude::*;
use wasm_bindgen_futures::JsFuture;

use crate::state::UrlState;

/// What the last copy attempt did.
#[derive(Debug, Clone, PartialEq)]
enum Copied {
    Idle,
    Done,
    /// The clipboard refused; the link is shown for copying by hand.
    Manual(String),
}

/// A button that copies the current view's link; if the clipboard is unavailable the link
/// is shown in a selectable field instead.
#[component]
pub fn CopyLink() -> impl IntoView {
    let state = UrlState::use_context();
    let (copied, set_copied) = signal(Copied::Idle);
    let copy = move |_| {
        let href = state.href();
        leptos::task::spawn_local(async move {
            let clipboard = web_sys::window().map(|w| w.navigator().clipboard());
            let outcome = match clipboard {
                Some(c) => JsFuture::from(c.write_text(&href)).await.map(drop),
                None => Err(wasm_bindgen::JsValue::NULL),
            };
            set_copied.set(match outcome {
                Ok(()) => Copied::Done,
                Err(_) => Copied::Manual(href),
            });
        });
    };
    view! {
        <span class="copy-link">
            <button class="copy-link-button" data-testid="copy-link" on:click=copy>"Copy link"</button>
            {move || match copied.get() {
                Copied::Idle => ().into_any(),
                Copied::Done => view! { <span class="copied" role="status">"Link copied"</span> }.into_any(),
                Copied::Manual(href) => view! {
                    <label class="manual-link">
                        "Copy this link: "
                        <input type="text" readonly value=href data-testid="manual-link" />
                    </label>
                }.into_any(),
            }}
        </span>
    }
}
