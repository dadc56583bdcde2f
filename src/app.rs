//! The root component: the start page, or the bundle named by `?bundle=`.

use leptos::prelude::*;

use crate::components::ErrorPanel;
use crate::data;
use crate::pages::{Overview, StartPage};
use crate::state::UrlState;

/// The app: provides the URL state; the start page without `?bundle=`, else that bundle's
/// views. Only a change of the bundle address reloads; other state changes re-render views.
#[component]
pub fn App() -> impl IntoView {
    let state = UrlState::provide();
    crate::theme::provide_theme();
    let bundle = Memo::new(move |_| state.with(|s| s.bundle.clone()));
    move || match bundle.get() {
        None => view! { <StartPage /> }.into_any(),
        Some(url) => view! { <BundleLoader url=url /> }.into_any(),
    }
}

/// Loads the bundle at `url` and shows it, or a plain-words error.
#[component]
pub fn BundleLoader(
    /// Bundle address, relative to the app or absolute.
    url: String,
) -> impl IntoView {
    let source = url.clone();
    let bundle = LocalResource::new(move || data::load_bundle(url.clone()));
    view! {
        <Suspense fallback=|| view! { <p class="loading">"Loading the bundle…"</p> }>
            {move || {
                let source = source.clone();
                Suspend::new(async move {
                    match bundle.await {
                        Ok(loaded) => view! {
                            <Overview bundle=loaded.bundle stats=loaded.stats source=source />
                        }.into_any(),
                        Err(e) => view! {
                            <ErrorPanel title="Could not load the bundle" message=e.to_string() />
                        }.into_any(),
                    }
                })
            }}
        </Suspense>
    }
}
