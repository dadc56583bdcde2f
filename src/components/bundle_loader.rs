//! Loads a [`BundleRequest`] with progress and Cancel, then renders the loaded bundle, or
//! the error with the open controls so the reader can load another.

use std::sync::Arc;

use leptos::prelude::*;
use runlens_core::bundle::Warning;

use crate::components::{
    ErrorPanel, ImportWarnings, LoadProgress, OpenBundle, open_bundle::navigate_to_bundle,
};
use crate::data::{self, BundleRequest, Loaded, Phase, Progress};
use crate::loader::client::LoadHandle;

/// The current load's progress, for views shown before the load has finished.
#[derive(Debug, Clone, Copy)]
pub struct LoadProgressSignal(pub RwSignal<Progress>);

/// The whole bundle when it arrives after its v2 summary is shown: the shown overview takes
/// it in place (the views it mounted stay, the ones waiting for it mount) instead of being
/// built again, which dropped every view and asked its questions again.
#[derive(Debug, Clone, Copy)]
pub struct WholeArrived(pub RwSignal<Option<Loaded>, LocalStorage>);

/// Whether `whole` completes the summary `shown` (the same bundle, read whole).
fn completes(shown: &Loaded, whole: &Loaded) -> bool {
    shown.summary.is_some()
        && whole.summary.is_none()
        && shown.bundle.content_hash == whole.bundle.content_hash
}

/// Renders a loaded bundle (the app passes its views).
pub type RenderLoaded = Arc<dyn Fn(Loaded) -> AnyView + Send + Sync>;

#[derive(Clone)]
enum Status {
    Loading,
    Loaded(Loaded),
    Failed(String, Vec<Warning>),
    Cancelled,
}

/// Loads `request` (in a Web Worker), showing progress with a Cancel button; then
/// `render(loaded)`, or the error panel and the open controls.
#[component]
pub fn BundleLoader(
    /// What to load.
    request: BundleRequest,
    /// Renders the loaded bundle.
    render: RenderLoaded,
) -> impl IntoView {
    let current = RwSignal::new_local(request);
    let status = RwSignal::new_local(Status::Loading);
    let progress = RwSignal::new(Progress {
        phase: Phase::Starting,
        done: 0,
        total: None,
    });
    // The views shown ahead of the whole bundle (a v2 summary) show how far the rest is.
    provide_context(LoadProgressSignal(progress));
    let whole = RwSignal::new_local(None::<Loaded>);
    provide_context(WholeArrived(whole));
    let handle = StoredValue::new_local(None::<LoadHandle>);
    Effect::new(move |_| {
        let request = current.get();
        status.set(Status::Loading);
        whole.set(None);
        let h = data::load(
            request,
            // `try_set`: a late message after this loader was unmounted is dropped.
            move |p| {
                progress.try_set(p);
            },
            move |result| {
                let completed = match (&result, status.try_get_untracked()) {
                    (Ok(loaded), Some(Status::Loaded(shown))) => completes(&shown, loaded),
                    _ => false,
                };
                match result {
                    Ok(loaded) if completed => {
                        whole.try_set(Some(loaded));
                    }
                    Ok(loaded) => {
                        status.try_set(Status::Loaded(loaded));
                    }
                    Err(e) => {
                        status.try_set(Status::Failed(e.to_string(), e.warnings().to_vec()));
                    }
                }
            },
        );
        handle.set_value(Some(h));
    });
    let cancel = move || {
        if let Some(h) = handle.get_value() {
            h.cancel();
        }
    };
    on_cleanup(move || {
        let running = match status.try_get_untracked() {
            Some(Status::Loading) => true,
            Some(Status::Loaded(l)) => {
                l.summary.is_some() && whole.try_with_untracked(Option::is_none).unwrap_or(false)
            }
            _ => false,
        };
        if running {
            cancel();
        }
    });
    let on_cancel = Callback::new(move |()| {
        cancel();
        status.set(Status::Cancelled);
    });
    let on_open = Callback::new(move |req: BundleRequest| match req {
        BundleRequest::Url(url) => navigate_to_bundle(&url),
        files => current.set(files),
    });
    move || match status.get() {
        Status::Loading => {
            view! { <LoadProgress progress=progress on_cancel=on_cancel /> }.into_any()
        }
        Status::Loaded(loaded) => render(loaded),
        Status::Failed(message, warnings) => view! {
            <ErrorPanel title="Could not load the bundle" message=message />
            <ImportWarnings warnings=warnings />
            <OpenBundle on_open=on_open />
        }
        .into_any(),
        Status::Cancelled => view! {
            <p class="load-cancelled" data-testid="load-cancelled">"Loading was cancelled."</p>
            <OpenBundle on_open=on_open />
        }
        .into_any(),
    }
}
