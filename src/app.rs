//! The root component: the start page, or the bundle named by `?bundle=`.

use leptos::prelude::*;

use crate::components::BundleLoader;
use crate::data::BundleRequest;
use crate::pages::StartPage;
use crate::pages::start::render_overview;
use crate::state::UrlState;

/// The app: provides the URL state and the theme; the start page without `?bundle=`, else
/// that bundle's views. Only a change of the bundle address reloads; other state changes
/// re-render views.
#[component]
pub fn App() -> impl IntoView {
    let state = UrlState::provide();
    crate::theme::provide_theme();
    let bundle = Memo::new(move |_| state.with(|s| s.bundle.clone()));
    move || match bundle.get() {
        None => view! { <StartPage /> }.into_any(),
        Some(url) => view! {
            <BundleLoader request=BundleRequest::Url(url) render=render_overview() />
        }
        .into_any(),
    }
}
