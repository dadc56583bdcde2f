//! How the app's wasm module is cut. In trunk's builds (feature `split`, see
//! scripts/split.mjs) each function declared with [`split_point!`] goes to a chunk of its own
//! that the page (or the loader worker) fetches the first time it is called, so the first
//! download holds the loader, the start page and the leaderboard only. Without the feature
//! (the wasm tests) they are plain calls. Each split point lives beside the code it runs;
//! call it with [`split_call!`]. docs/architecture.md lists the chunks.

use std::future::Future;
use std::pin::Pin;

use leptos::wasm_split::SplitLoaderError;

/// A future the chunk's code polls.
pub type LocalTask<T> = Pin<Box<dyn Future<Output = T>>>;

/// A chunk that could not be fetched or instantiated (offline, a redeployed site).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("this part of runlens could not be loaded ({0}); check the connection and reload the page")]
pub struct ChunkError(pub String);

impl From<SplitLoaderError> for ChunkError {
    fn from(e: SplitLoaderError) -> Self {
        Self(e.to_string())
    }
}

/// Calls a split point (a function in scope, declared with [`split_point!`]): awaits its
/// chunk in a split build, calls it directly otherwise. Only in async code; the result is a
/// `Result<_, ChunkError>`.
macro_rules! split_call {
    ($f:ident($($arg:expr),* $(,)?)) => {{
        #[cfg(feature = "split")]
        let out = $f($($arg),*).await;
        #[cfg(not(feature = "split"))]
        let out = $f($($arg),*);
        out
    }};
}
pub(crate) use split_call;

/// Declares a split point: `chunk: fn name(args) -> T { body }` becomes a function returning
/// `Result<T, ChunkError>` whose code goes to `chunk` in a split build. With
/// `chunk, preload preload_name: fn …`, a split build also gets `preload_name()`, a future that
/// fetches the chunk without calling it (to start the fetch while something else is waited for).
macro_rules! split_point {
    ($(#[$doc:meta])* $chunk:ident $(, preload $preload:ident)?: fn $name:ident($($arg:ident: $ty:ty),* $(,)?) -> $ret:ty $body:block) => {
        $(#[$doc])*
        #[allow(unsafe_code)] // the split macro declares the chunk's import and export
        #[cfg_attr(
            feature = "split",
            leptos::wasm_split::wasm_split(
                $chunk,
                wasm_split_path = ::leptos::wasm_split,
                fallible
                $(, preload($preload))?
            )
        )]
        pub fn $name($($arg: $ty),*) -> Result<$ret, $crate::chunks::ChunkError> {
            Ok($body)
        }
    };
}
pub(crate) use split_point;

/// Starts fetching a chunk through its split point's `preload` function (see
/// [`split_point!`]) without waiting for it; nothing in a build without the split. A chunk
/// that cannot be fetched fails again, with its error, when its split point is called.
macro_rules! prefetch {
    ($preload:ident) => {{
        #[cfg(feature = "split")]
        wasm_bindgen_futures::spawn_local(async {
            let _ = $preload().await;
        });
    }};
}
pub(crate) use prefetch;

/// Polls `task` once, without a waker (the split loader's futures are ready at once when
/// their chunk is in).
pub fn poll_once<T>(task: &mut LocalTask<T>) -> Option<T> {
    let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
    match task.as_mut().poll(&mut cx) {
        std::task::Poll::Ready(out) => Some(out),
        std::task::Poll::Pending => None,
    }
}
