//! The views that are not in the first download: each is a split point (see
//! [`crate::chunks`]) in a chunk of its own, shown by [`lazy_view`] once its chunk is in.

use std::sync::Arc;

use leptos::prelude::*;
#[cfg(feature = "split")]
use leptos::wasm_split::SplitLoaderError;
use runlens_core::bundle::Bundle;

use crate::chunks::{ChunkError, split_point};
#[cfg(feature = "split")]
use crate::chunks::{LocalTask, poll_once};
use crate::pages::{AuditView, FailuresView, GateView, MatrixView, RankingView, TrajectoryView};
#[cfg_attr(not(feature = "split"), allow(unused_imports))]
use crate::state::{Tab, UrlState};

split_point! {
    /// The question × model matrix.
    matrix: fn matrix_view(bundle: Arc<Bundle>) -> AnyView {
        view! { <MatrixView bundle=bundle /> }.into_any()
    }
}
split_point! {
    /// The table-ranking view.
    ranking: fn ranking_view(bundle: Arc<Bundle>) -> AnyView {
        view! { <RankingView bundle=bundle /> }.into_any()
    }
}
split_point! {
    /// The failures view.
    failures: fn failures_view(bundle: Arc<Bundle>) -> AnyView {
        view! { <FailuresView bundle=bundle /> }.into_any()
    }
}
split_point! {
    /// The audit queue.
    audit: fn audit_view(bundle: Arc<Bundle>) -> AnyView {
        view! { <AuditView bundle=bundle /> }.into_any()
    }
}
split_point! {
    /// The gate view.
    gate: fn gate_view(bundle: Arc<Bundle>) -> AnyView {
        view! { <GateView bundle=bundle /> }.into_any()
    }
}
split_point! {
    /// The trajectory viewer.
    trajectory: fn trajectory_view(bundle: Arc<Bundle>) -> AnyView {
        view! { <TrajectoryView bundle=bundle /> }.into_any()
    }
}

/// Re-renders the overview's view when a view's chunk arrives or fails (split builds); the
/// overview provides it and tracks it.
#[derive(Clone, Copy)]
pub struct ViewChunks {
    arrived: RwSignal<u32>,
    #[cfg_attr(not(feature = "split"), allow(dead_code))]
    failed: RwSignal<Vec<(Tab, ChunkError)>>,
}

impl ViewChunks {
    /// Provides the context; call [`ViewChunks::track`] where the views are chosen.
    pub fn provide() -> Self {
        let chunks = Self {
            arrived: RwSignal::new(0),
            failed: RwSignal::new(Vec::new()),
        };
        provide_context(chunks);
        chunks
    }

    /// Subscribes the caller to arrivals.
    pub fn track(self) {
        self.arrived.track();
    }
}

/// The view of `tab`; the leaderboard is in the first module and is not asked for here.
/// In a split build, a view whose chunk is not in yet is a "loading" line until it arrives;
/// the view itself is always built in the caller's reactive scope, as without the split.
pub fn lazy_view(tab: Tab, bundle: Arc<Bundle>) -> AnyView {
    #[cfg(feature = "split")]
    {
        split_view(tab, bundle)
    }
    #[cfg(not(feature = "split"))]
    {
        shown(match tab {
            Tab::Matrix => matrix_view(bundle),
            Tab::Ranking => ranking_view(bundle),
            Tab::Failures => failures_view(bundle),
            Tab::Audit => audit_view(bundle),
            Tab::Gate => gate_view(bundle),
            Tab::Trajectory | Tab::Leaderboard => trajectory_view(bundle),
        })
    }
}

/// A view's split call.
#[cfg(feature = "split")]
type ViewTask = LocalTask<Result<AnyView, ChunkError>>;

#[cfg(feature = "split")]
fn split_view(tab: Tab, bundle: Arc<Bundle>) -> AnyView {
    let chunks = expect_context::<ViewChunks>();
    if let Some((_, e)) = chunks
        .failed
        .with_untracked(|f| f.iter().find(|(t, _)| *t == tab).cloned())
    {
        return shown(Err(e));
    }
    // Neither future runs until polled: the view's only once its chunk is in, when it is
    // ready at its first poll.
    let (mut preload, mut view): (LocalTask<Result<(), SplitLoaderError>>, ViewTask) = match tab {
        Tab::Matrix => (
            Box::pin(__wasm_split_preload_matrix_view()),
            Box::pin(matrix_view(bundle)),
        ),
        Tab::Ranking => (
            Box::pin(__wasm_split_preload_ranking_view()),
            Box::pin(ranking_view(bundle)),
        ),
        Tab::Failures => (
            Box::pin(__wasm_split_preload_failures_view()),
            Box::pin(failures_view(bundle)),
        ),
        Tab::Audit => (
            Box::pin(__wasm_split_preload_audit_view()),
            Box::pin(audit_view(bundle)),
        ),
        Tab::Gate => (
            Box::pin(__wasm_split_preload_gate_view()),
            Box::pin(gate_view(bundle)),
        ),
        Tab::Trajectory | Tab::Leaderboard => (
            Box::pin(__wasm_split_preload_trajectory_view()),
            Box::pin(trajectory_view(bundle)),
        ),
    };
    match poll_once(&mut preload) {
        Some(Ok(())) => {
            shown(poll_once(&mut view).unwrap_or_else(|| Err(ChunkError("not ready".into()))))
        }
        Some(Err(e)) => shown(Err(e.into())),
        None => {
            let state = UrlState::use_context();
            leptos::task::spawn_local(async move {
                if let Err(e) = preload.await {
                    chunks.failed.try_update(|f| f.push((tab, e.into())));
                }
                // Another view shown meanwhile stays as it is.
                if state.try_tab() == Some(tab) {
                    chunks.arrived.try_update(|n| *n += 1);
                }
            });
            view! {
                <p class="view-loading" data-testid="view-loading">"loading this view…"</p>
            }
            .into_any()
        }
    }
}

fn shown(view: Result<AnyView, ChunkError>) -> AnyView {
    match view {
        Ok(view) => view,
        Err(e) => view! {
            <p class="error-panel" role="alert" data-testid="chunk-error">{e.to_string()}</p>
        }
        .into_any(),
    }
}
