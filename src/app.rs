//! The root component: the start page, or the bundle named by `?bundle=`.

use leptos::prelude::*;

use crate::components::ErrorPanel;
use crate::data;
use crate::pages::{Overview, StartPage};

/// Reads `?bundle=` from the page address.
fn bundle_param() -> Option<String> {
    let search = web_sys::window()?.location().search().ok()?;
    let params = web_sys::UrlSearchParams::new_with_str(&search).ok()?;
    params.get("bundle").filter(|b| !b.trim().is_empty())
}

/// The app: the start page without `?bundle=`, else that bundle's views.
#[component]
pub fn App() -> impl IntoView {
    match bundle_param() {
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
