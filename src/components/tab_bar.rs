//! The tab strip of a bundle's views; the chosen tab lives in the URL (`tab=`).

use leptos::prelude::*;

use crate::state::{Tab, UrlState};

/// Buttons for every tab; the current one is marked `aria-selected`.
#[component]
pub fn TabBar() -> impl IntoView {
    let state = UrlState::use_context();
    view! {
        <nav class="tabs" role="tablist" aria-label="Views">
            {Tab::ALL.into_iter().map(|tab| {
                let selected = move || state.with(|s| s.tab == tab);
                view! {
                    <button
                        role="tab"
                        class="tab"
                        data-tab=tab.key()
                        aria-selected=move || selected().to_string()
                        on:click=move |_| state.push(|s| s.tab = tab)
                    >
                        {tab.label()}
                    </button>
                }
            }).collect_view()}
        </nav>
    }
}
