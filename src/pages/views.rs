//! What a view declares of itself ([`ViewDef`], its folder's `VIEW`: label, what it waits
//! for, where its code is) and how its code arrives: in the first download ([`Code::First`])
//! or in a chunk of its own ([`Code::Chunk`], declared with [`lazy_view!`] in the view's own
//! folder, see [`crate::chunks`]), shown by [`mount_view`] once its chunk is in. Which views
//! there are is the view list's (`state::view_list`), their table [`crate::pages::registry`]'s.

use std::sync::Arc;

use leptos::prelude::*;
#[cfg(feature = "split")]
use leptos::wasm_split::SplitLoaderError;
use runlens_core::bundle::Bundle;

use crate::chunks::ChunkError;
#[cfg(feature = "split")]
use crate::chunks::{LocalTask, poll_once};
#[cfg_attr(not(feature = "split"), allow(unused_imports))]
use crate::state::{Tab, UrlState};

/// What a view needs of a v2 bundle that is still loading (a v1 bundle is whole at once).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Needs {
    /// The summary, or the tables the worker reads right after it: mounts at once.
    Summary,
    /// The whole bundle for its answers: mounts at once (its questions wait in the worker,
    /// which answers them the moment the rest is in) under a line saying the rest is loading.
    WholeForAnswers,
    /// The whole bundle in the page: mounts once it is in, a line meanwhile.
    WholeToMount,
}

/// One view.
#[derive(Clone, Copy)]
pub struct ViewDef {
    /// Its identity and URL key.
    pub tab: Tab,
    /// The tab's label.
    pub label: &'static str,
    /// What it waits for.
    pub needs: Needs,
    /// Where its code is.
    pub code: Code,
}

impl ViewDef {
    /// The split build's chunk of the view (`None`: in the first download).
    pub fn chunk(&self) -> Option<&'static str> {
        match self.code {
            Code::First(_) => None,
            Code::Chunk(chunk) => Some(chunk.name),
        }
    }
}

/// Where a view's code is.
#[derive(Clone, Copy)]
pub enum Code {
    /// In the first download: the view itself.
    First(fn(Arc<Bundle>) -> AnyView),
    /// In a chunk of its own.
    Chunk(Chunk),
}

/// A view's chunk, as [`lazy_view!`] declares it.
#[derive(Clone, Copy)]
pub struct Chunk {
    /// The chunk's file name stem in a split build (`split_ranking`).
    pub name: &'static str,
    /// Starts the view: its chunk's load and the view's call.
    pub load: fn(Arc<Bundle>) -> ViewLoad,
}

/// A view on its way: in a split build, its chunk's load and the call that builds it (neither
/// runs until polled); without the split, the view.
pub struct ViewLoad {
    #[cfg(feature = "split")]
    preload: LocalTask<Result<(), SplitLoaderError>>,
    #[cfg(feature = "split")]
    view: LocalTask<Result<AnyView, ChunkError>>,
    #[cfg(not(feature = "split"))]
    view: Result<AnyView, ChunkError>,
}

impl ViewLoad {
    /// A split build's view: `preload` fetches the chunk, `view` builds the view from it.
    #[cfg(feature = "split")]
    pub fn split(
        preload: LocalTask<Result<(), SplitLoaderError>>,
        view: LocalTask<Result<AnyView, ChunkError>>,
    ) -> Self {
        Self { preload, view }
    }

    /// A view built by a plain call (no split).
    #[cfg(not(feature = "split"))]
    pub fn ready(view: Result<AnyView, ChunkError>) -> Self {
        Self { view }
    }
}

/// Declares, in a view's folder, the view's split point and its [`Chunk`] as `CHUNK`:
/// `lazy_view!(ranking: RankingView)` puts the component `RankingView` (one prop, `bundle`)
/// in the chunk `split_ranking`. The registry names `CHUNK`.
macro_rules! lazy_view {
    ($(#[$doc:meta])* $chunk:ident: $component:ident) => {
        $crate::chunks::split_point! {
            $(#[$doc])*
            $chunk, preload preload_split_view: fn split_view(
                bundle: ::std::sync::Arc<::runlens_core::bundle::Bundle>,
            ) -> ::leptos::prelude::AnyView {
                ::leptos::prelude::IntoAny::into_any(::leptos::view! { <$component bundle=bundle /> })
            }
        }

        /// This view's chunk, for the registry.
        pub const CHUNK: $crate::pages::views::Chunk = $crate::pages::views::Chunk {
            name: concat!("split_", stringify!($chunk)),
            load: |bundle| {
                #[cfg(feature = "split")]
                let load = $crate::pages::views::ViewLoad::split(
                    Box::pin(preload_split_view()),
                    Box::pin(split_view(bundle)),
                );
                #[cfg(not(feature = "split"))]
                let load = $crate::pages::views::ViewLoad::ready(split_view(bundle));
                load
            },
        };
    };
}
pub(crate) use lazy_view;

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

/// The view of `tab`, whose code is `code`. In a split build, a view whose chunk is not in
/// yet is a "loading" line until it arrives; the view itself is always built in the caller's
/// reactive scope, as without the split.
pub fn mount_view(tab: Tab, code: Code, bundle: Arc<Bundle>) -> AnyView {
    match code {
        Code::First(view) => view(bundle),
        Code::Chunk(chunk) => chunk_view(tab, (chunk.load)(bundle)),
    }
}

#[cfg(not(feature = "split"))]
fn chunk_view(_tab: Tab, load: ViewLoad) -> AnyView {
    shown(load.view)
}

#[cfg(feature = "split")]
fn chunk_view(tab: Tab, load: ViewLoad) -> AnyView {
    let chunks = expect_context::<ViewChunks>();
    if let Some((_, e)) = chunks
        .failed
        .with_untracked(|f| f.iter().find(|(t, _)| *t == tab).cloned())
    {
        return shown(Err(e));
    }
    let ViewLoad {
        mut preload,
        mut view,
    } = load;
    // The view's future is ready at its first poll once its chunk is in.
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
