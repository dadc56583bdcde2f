//! Where the app's wasm module is cut. In trunk's builds (feature `split`, see
//! scripts/split.mjs) each function here goes to a chunk of its own that the page (or the
//! loader worker) fetches the first time it is called, so the first download holds the loader,
//! the start page and the leaderboard only. Without the feature (the wasm tests) they are
//! plain calls. Call them with [`split_call!`]; docs/architecture.md lists the chunks.
#![allow(unsafe_code)] // the split macro declares each chunk's import and export

use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use leptos::prelude::*;
use leptos::wasm_split::SplitLoaderError;
use runlens_core::bundle::Bundle;
use runlens_core::bundle::v2::{Manifest, MemoryEntries, V2Error};
use runlens_core::import::{FailedImport, ImportOptions, Imported, InputFile};
use runlens_core::metrics::gold_tables::StatementParses;

use crate::loader::queries::ViewQuery;

use crate::pages::{AuditView, FailuresView, GateView, RankingView, TrajectoryView};
#[cfg_attr(not(feature = "split"), allow(unused_imports))]
use crate::state::{Tab, UrlState};

/// A future the chunk's code polls.
pub type LocalTask<T> = Pin<Box<dyn Future<Output = T>>>;

/// A chunk that could not be fetched or instantiated (offline, a redeployed site).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("this part of runlens could not be loaded ({0}); check the connection and reload the page")]
pub struct ChunkError(String);

impl From<SplitLoaderError> for ChunkError {
    fn from(e: SplitLoaderError) -> Self {
        Self(e.to_string())
    }
}

/// Calls a function of this module: awaits its chunk in a split build, calls it directly
/// otherwise. Only in async code; the result is a `Result<_, ChunkError>`.
macro_rules! split_call {
    ($f:ident($($arg:expr),* $(,)?)) => {{
        #[cfg(feature = "split")]
        let out = $crate::split_points::$f($($arg),*).await;
        #[cfg(not(feature = "split"))]
        let out = $crate::split_points::$f($($arg),*);
        out
    }};
}
pub(crate) use split_call;

macro_rules! split_point {
    ($(#[$doc:meta])* $chunk:ident: fn $name:ident($($arg:ident: $ty:ty),* $(,)?) -> $ret:ty $body:block) => {
        $(#[$doc])*
        #[cfg_attr(
            feature = "split",
            leptos::wasm_split::wasm_split($chunk, wasm_split_path = ::leptos::wasm_split, fallible)
        )]
        pub fn $name($($arg: $ty),*) -> Result<$ret, ChunkError> {
            Ok($body)
        }
    };
}

split_point! {
    /// The table-ranking view.
    ranking: fn ranking_view(bundle: Arc<Bundle>) -> AnyView {
        view! { <RankingView bundle=bundle /> }.into_any()
    }
}
split_point! {
    /// The answer to a view's question, in the loader worker (or the page, for a bundle it
    /// loaded itself; see `crate::loader::queries`): the views' computations, apart from
    /// the views' own chunks, which only show answers.
    queries: fn answer_query(bundle: &Bundle, query: &ViewQuery) -> Vec<u8> {
        crate::loader::queries::answer_json(bundle, query)
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
split_point! {
    /// What the page readies in idle time after the first view (see `pages::overview`).
    warm_up: fn warm_up_task(bundle: Arc<Bundle>, alive: Arc<AtomicBool>) -> LocalTask<()> {
        Box::pin(crate::pages::overview::warm_up(bundle, alive))
    }
}
split_point! {
    /// The parser rule's gold tables, in the loader worker after the bundle is shown.
    gold_sql: fn gold_parses_task(bundle: Rc<Bundle>) -> LocalTask<Option<StatementParses>> {
        Box::pin(crate::loader::worker::gold_parses(bundle))
    }
}
split_point! {
    /// A `runlens.bundle/2`'s summary: each corpus's leaderboard from its cells columns.
    v2: fn v2_summary(
        manifest: &Manifest,
        entries: &MemoryEntries,
    ) -> Result<Option<(Vec<u8>, usize)>, V2Error> {
        crate::loader::summary::encode(manifest, entries)
    }
}
split_point! {
    /// A `runlens.bundle/2` rebuilt from its entries, the `.gz` ones checked and inflated
    /// already (core's reader: the columnar decoder).
    v2: fn v2_read(entries: MemoryEntries) -> Result<Bundle, V2Error> {
        let mut entries = entries;
        runlens_core::bundle::v2::read_bundle_inflated(&mut entries)
    }
}
split_point! {
    /// A `runlens.bundle/2` with only its questions and ranking rows, from entries checked
    /// and inflated already (copied: the whole bundle is read from them later).
    v2: fn v2_read_ranking(entries: &MemoryEntries) -> Result<Bundle, V2Error> {
        runlens_core::bundle::v2::read_ranking_tables(
            &mut runlens_core::bundle::v2::CopiedEntries(entries),
        )
    }
}
split_point! {
    /// Imports raw harness files (a drop or the file picker).
    import: fn import_harness(
        inputs: &[InputFile],
        opts: &ImportOptions,
    ) -> Result<Imported, Box<FailedImport>> {
        runlens_core::import::import_files_keeping_warnings(inputs, opts)
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

/// Polls `task` once, without a waker (the split loader's futures are ready at once when
/// their chunk is in).
#[cfg(feature = "split")]
fn poll_once<T>(task: &mut LocalTask<T>) -> Option<T> {
    let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
    match task.as_mut().poll(&mut cx) {
        std::task::Poll::Ready(out) => Some(out),
        std::task::Poll::Pending => None,
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
