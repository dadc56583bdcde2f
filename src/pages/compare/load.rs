//! Loading run B in a loader worker of its own (`data::load_compared`), with progress and
//! Cancel; once its summary or whole bundle is in, the comparison ([`super::runs`]).

use std::sync::Arc;

use leptos::prelude::*;
use runlens_core::bundle::Bundle;

use super::picked::PickedFiles;
use super::runs::CompareRuns;
use crate::components::LoadProgress;
use crate::data::{self, BundleRequest, Phase, Progress};
use crate::loader::client::LoadHandle;
use crate::state::UrlState;

#[derive(Clone)]
enum Status {
    Loading,
    /// Run B (its summary's head is enough: the scores are asked of its worker, which
    /// answers once the rest is in) and where it came from.
    Loaded(Arc<Bundle>, String),
    Failed(String),
    Cancelled,
}

/// Loads `request` as run B and compares `a` with it.
#[component]
pub fn LoadCompared(a: Arc<Bundle>, request: BundleRequest) -> impl IntoView {
    let state = UrlState::use_context();
    let picked = expect_context::<PickedFiles>();
    let status = RwSignal::new_local(Status::Loading);
    let progress = RwSignal::new(Progress {
        phase: Phase::Starting,
        done: 0,
        total: None,
    });
    // Whether run B's whole bundle is in (its worker answers the scores then), for the
    // benchmark (e2e/bench/compare.mjs).
    let whole = RwSignal::new(false);
    let handle = data::load_compared(
        request,
        move |p| {
            progress.try_set(p);
        },
        move |result| {
            if result.as_ref().is_ok_and(|l| l.summary.is_none()) {
                whole.try_set(true);
            }
            let next = match result {
                // The whole bundle after its summary: the same run, already compared.
                Ok(loaded)
                    if status.try_with_untracked(|s| {
                        matches!(s, Status::Loaded(b, _) if b.content_hash == loaded.bundle.content_hash)
                    }) == Some(true) =>
                {
                    return;
                }
                Ok(loaded) => Status::Loaded(loaded.bundle, loaded.source),
                Err(e) => Status::Failed(e.to_string()),
            };
            status.try_set(next);
        },
    );
    let stored: StoredValue<LoadHandle> = StoredValue::new(handle);
    on_cleanup(move || {
        if let Some(h) = stored.try_get_value() {
            h.cancel();
        }
    });
    let on_cancel = Callback::new(move |()| {
        stored.get_value().cancel();
        status.set(Status::Cancelled);
    });
    let choose_again = move |_| {
        picked.0.set(None);
        state.push(|s| {
            s.compare = Default::default();
        });
    };
    let shown = move || match status.get() {
        Status::Loading => view! {
            <p class="hint">"Loading run B…"</p>
            <LoadProgress progress=progress on_cancel=on_cancel />
        }
        .into_any(),
        Status::Loaded(b, source) => view! { <CompareRuns a=a.clone() b=b source_b=source /> }.into_any(),
        Status::Failed(message) => view! {
            <section class="error-panel" role="alert" data-testid="compare-error">
                <h3>"Could not load run B"</h3>
                <p class="error-message">{message}</p>
            </section>
            <button type="button" data-testid="compare-choose" on:click=choose_again>"Choose another run"</button>
        }
        .into_any(),
        Status::Cancelled => view! {
            <p data-testid="compare-cancelled">"Loading run B was cancelled."</p>
            <button type="button" data-testid="compare-choose" on:click=choose_again>"Choose another run"</button>
        }
        .into_any(),
    };
    view! { <div class="compare-load" data-b-whole=move || whole.get().to_string()>{shown}</div> }
}
