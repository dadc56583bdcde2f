//! Data loading: the only place that turns a bundle address or opened files into a loaded
//! [`Bundle`]; the top of the loading layer (docs/architecture.md, "Layers").
//!
//! [`load`] runs download, gunzip, parse, hash check and harness import in a Web Worker
//! ([`crate::loader`]) and reports [`Progress`]; without `Worker` it loads on the main thread.
//! Downloads go through [`crate::api`]; decoding (gzip or plain JSON), validation and import
//! are `runlens-core`'s, the same code the CLI uses.

#[cfg(doc)]
use runlens_core::bundle::Bundle;
use runlens_core::site::{RunIndex, parse_index};
use serde::Deserialize;

use crate::api;
use crate::loader;
use crate::loader::client::Slot;
pub use crate::loader::decode::decode_bundle;
pub use crate::loader::progress::{Phase, Progress};
pub use crate::loader::request::{BundleRequest, LoadError, LoadStats, Loaded};

/// Address of the list of bundled samples, relative to the app.
pub const SAMPLES_INDEX: &str = "bundles/index.json";

/// One entry of `bundles/index.json`: a bundle shipped with the app.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct SampleEntry {
    /// File name inside `bundles/`.
    pub file: String,
    /// Short title.
    pub title: String,
    /// One paragraph.
    #[serde(default)]
    pub description: String,
    /// Whether the data are synthetic.
    #[serde(default)]
    pub synthetic: bool,
}

impl SampleEntry {
    /// The sample's address relative to the app.
    pub fn url(&self) -> String {
        format!("bundles/{}", self.file)
    }
}

/// Loads the list of bundled samples.
pub async fn load_samples() -> Result<Vec<SampleEntry>, LoadError> {
    let bytes = api::fetch_bytes(SAMPLES_INDEX).await?;
    serde_json::from_slice(&bytes).map_err(|e| LoadError::Invalid {
        source_name: SAMPLES_INDEX.to_owned(),
        message: e.to_string(),
    })
}

/// Address of a report site's index of runs (`runlens site`, docs/site.md), relative to the app.
pub const SITE_INDEX: &str = "runs.json";

/// The report site's index of runs; `None` where the app is not served as a report site
/// (no `runs.json`: a 404, or a host that answers a missing file with its HTML page).
pub async fn load_site_index() -> Result<Option<RunIndex>, LoadError> {
    let bytes = match api::fetch_bytes(SITE_INDEX).await {
        Ok(bytes) => bytes,
        Err(api::ApiError::Status { status: 404, .. }) => return Ok(None),
        Err(e) => return Err(e.into()),
    };
    let text = String::from_utf8_lossy(&bytes);
    if text.trim_start().starts_with('<') {
        return Ok(None);
    }
    parse_index(&text)
        .map(Some)
        .map_err(|e| LoadError::Invalid {
            source_name: SITE_INDEX.to_owned(),
            message: e.0,
        })
}

/// Starts loading `request` in a Web Worker (on the main thread where there is none),
/// replacing any earlier load. `on_progress` sees every phase; `on_done` gets the result
/// (never after [`LoadHandle::cancel`]), and once more with an error if the bundle it was
/// given fails the content-hash check the worker finishes after handing it over.
pub fn load(
    request: BundleRequest,
    on_progress: impl Fn(Progress) + 'static,
    on_done: impl Fn(Result<Loaded, LoadError>) + 'static,
) -> loader::client::LoadHandle {
    loader::client::start(
        Slot::Shown,
        request,
        Box::new(on_progress),
        std::rc::Rc::new(on_done),
    )
}

/// [`load`] of the run the compare view compares the shown bundle with, in a worker of its
/// own: it replaces an earlier compared run, never the shown bundle.
pub fn load_compared(
    request: BundleRequest,
    on_progress: impl Fn(Progress) + 'static,
    on_done: impl Fn(Result<Loaded, LoadError>) + 'static,
) -> loader::client::LoadHandle {
    loader::client::start(
        Slot::Compared,
        request,
        Box::new(on_progress),
        std::rc::Rc::new(on_done),
    )
}
