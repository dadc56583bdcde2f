//! The root component: the start page, or the bundle named by `?bundle=`.

use leptos::prelude::*;

use crate::components::BundleLoader;
use crate::data::BundleRequest;
use crate::pages::StartPage;
use crate::pages::start::render_overview;

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
        Some(url) => view! {
            <BundleLoader request=BundleRequest::Url(url) render=render_overview() />
        }
        .into_any(),
    }
}
