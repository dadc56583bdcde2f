//! Data loading: the only place that turns a bundle address or opened files into a loaded
//! [`Bundle`].
//!
//! [`load`] runs download, gunzip, parse, hash check and harness import in a Web Worker
//! ([`crate::loader`]) and reports [`Progress`]; without `Worker` it loads on the main thread.
//! Downloads go through [`crate::api`]; decoding (gzip or plain JSON), validation and import
//! are `runlens-core`'s, the same code the CLI uses.

use std::sync::Arc;

use runlens_core::bundle::{Bundle, BundleError, Cell, Warning};
use serde::{Deserialize, Serialize};
use thiserror::Error;
use wasm_bindgen::JsCast;

use crate::api::{self, ApiError};
use crate::gunzip;
use crate::loader;
pub use crate::loader::progress::{Phase, Progress};

/// Address of the list of bundled samples, relative to the app.
pub const SAMPLES_INDEX: &str = "bundles/index.json";

/// Why a bundle could not be shown.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum LoadError {
    /// Download failed.
    #[error(transparent)]
    Download(#[from] ApiError),
    /// The bytes are not a valid bundle.
    #[error("{source_name}: {message}")]
    Invalid {
        /// Which bundle.
        source_name: String,
        /// The core error, which names line, column and what was expected.
        message: String,
    },
    /// Harness files could not be imported (core's message names file, line, field and
    /// what was expected); `warnings` are the problems met before the error.
    #[error("{message}")]
    Import {
        /// The error, in plain words.
        message: String,
        /// Import warnings found before the error, in import order.
        warnings: Vec<Warning>,
    },
    /// The loader itself failed (worker stopped, malformed message).
    #[error("{0}")]
    Loader(String),
}

impl LoadError {
    /// An import error without warnings.
    pub fn import(message: impl Into<String>) -> Self {
        LoadError::Import {
            message: message.into(),
            warnings: Vec::new(),
        }
    }

    /// The import warnings that came with the error (none for other errors).
    pub fn warnings(&self) -> &[Warning] {
        match self {
            LoadError::Import { warnings, .. } => warnings,
            _ => &[],
        }
    }

    fn invalid(source_name: &str, err: &BundleError) -> Self {
        LoadError::Invalid {
            source_name: source_name.to_owned(),
            message: err.to_string(),
        }
    }
}

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

/// What to load: a bundle address, or files the reader opened (one `.json`/`.json.gz`
/// bundle, or raw harness files to import).
#[derive(Debug, Clone, PartialEq)]
pub enum BundleRequest {
    /// A bundle URL, relative to the app or absolute.
    Url(String),
    /// Files from the file picker or a drop.
    Files(Vec<web_sys::File>),
}

impl BundleRequest {
    /// The URL, or the file names joined by ", ".
    pub fn source(&self) -> String {
        match self {
            BundleRequest::Url(url) => url.clone(),
            BundleRequest::Files(files) => files
                .iter()
                .map(web_sys::File::name)
                .collect::<Vec<_>>()
                .join(", "),
        }
    }
}

/// A loaded bundle and what loading it cost (for the header's data attributes and the
/// load benchmark, `e2e/bench/load.mjs`).
///
/// For bundles above [`crate::loader::split::STRIP_ABOVE_BYTES`] of JSON the bundle is a view
/// bundle: trajectory text is stripped (see [`crate::loader::split`]); ask [`cell_detail`]
/// for a full cell. `bundle.content_hash` is always the real, checked hash.
#[derive(Debug, Clone)]
pub struct Loaded {
    /// The bundle.
    pub bundle: Arc<Bundle>,
    /// Sizes and timings.
    pub stats: LoadStats,
    /// The URL, or the opened file names.
    pub source: String,
    /// Set while only the summary of a `runlens.bundle/2` is in: `bundle` is its head (no
    /// rows) and the leaderboard shows the summary's rows; the whole bundle follows.
    pub summary: Option<crate::loader::summary::Summary>,
}

/// Sizes and timings of one load, in bytes and milliseconds.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct LoadStats {
    /// Bytes downloaded (compressed for `.json.gz`).
    pub download_bytes: usize,
    /// Bytes of JSON parsed.
    pub json_bytes: usize,
    /// Download time.
    pub download_ms: f64,
    /// Time the browser took to inflate a `.json.gz` (0 for plain JSON); for v2, to check
    /// every entry's SHA-256 and inflate it.
    pub gunzip_ms: f64,
    /// JSON parse time in WASM (including core's gunzip where the browser has none).
    pub parse_ms: f64,
    /// Content-hash check time.
    pub verify_ms: f64,
    /// Harness import time (files only).
    #[serde(default)]
    pub import_ms: f64,
    /// Main-thread time spent rebuilding the bundle from the worker's chunks (sum of tasks).
    #[serde(default)]
    pub assemble_ms: f64,
    /// Bytes of JSON the page parsed to rebuild the bundle (skeleton and chunks).
    #[serde(default)]
    pub transfer_bytes: usize,
    /// Whether the bundle was imported from harness files (its hash computed, not checked).
    #[serde(default)]
    pub imported: bool,
    /// Whether the load ran in a Web Worker.
    #[serde(default)]
    pub in_worker: bool,
    /// Whether trajectory text was stripped from the page's copy.
    #[serde(default)]
    pub stripped: bool,
    /// Whether the download was the worker's early one (started before its module ran).
    #[serde(default)]
    pub prefetched: bool,
    /// Whether the bundle was a `runlens.bundle/2` (a zip or a directory).
    #[serde(default)]
    pub v2: bool,
    /// HTTP requests (or file reads) the load made: 1 for a v1 file; for v2, one per byte
    /// range of a zip or per entry of a directory.
    #[serde(default)]
    pub requests: u32,
    /// A v2 zip that was read whole: its host answered the `Range` request with the whole
    /// file.
    #[serde(default)]
    pub whole_zip: bool,
    /// The loader worker's wasm memory when it handed the bundle over, bytes (its peak so
    /// far: wasm memory never shrinks); 0 without a worker.
    #[serde(default)]
    pub worker_wasm_bytes: f64,
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
    loader::client::start(request, Box::new(on_progress), std::rc::Rc::new(on_done))
}

/// One cell with its full trajectory text (SQL results, final answer, judge reasoning) from
/// the bundle loaded last; `Ok(None)` when the bundle has no such cell.
pub async fn cell_detail(
    corpus: &str,
    model: &str,
    trace_id: &str,
) -> Result<Option<Cell>, LoadError> {
    Ok(full_detail(corpus, model, trace_id).await?.cell)
}

/// Everything a stripped page bundle lacks about one cell: the full cell and its FM label's
/// reason, from the bundle loaded last.
pub async fn full_detail(
    corpus: &str,
    model: &str,
    trace_id: &str,
) -> Result<CellDetail, LoadError> {
    loader::detail::cell_detail(corpus, model, trace_id).await
}

pub use loader::detail::CellDetail;
pub use loader::queries::{ViewQuery, ask};

/// Downloads and decodes the bundle at `url` on the main thread (the fallback of [`load`]).
pub async fn load_bundle(url: String) -> Result<Loaded, LoadError> {
    let t0 = now_ms();
    let bytes = api::fetch_bytes(&url).await?;
    let t1 = now_ms();
    let download_bytes = bytes.len();
    let json = inflate(&url, bytes).await?;
    let t_inflated = now_ms();
    let bundle = parse_bundle(&url, &json)?;
    let t2 = now_ms();
    verify_bundle(&url, &bundle)?;
    let t3 = now_ms();
    let stats = LoadStats {
        download_bytes,
        json_bytes: json.len(),
        download_ms: t1 - t0,
        gunzip_ms: t_inflated - t1,
        parse_ms: t2 - t_inflated,
        verify_ms: t3 - t2,
        ..LoadStats::default()
    };
    Ok(Loaded {
        bundle: Arc::new(bundle),
        stats,
        source: url,
        summary: None,
    })
}

/// Inflates gzip bytes with the browser (see [`crate::gunzip`]); plain JSON, and gzip in a
/// browser without `DecompressionStream`, pass through to core unchanged.
pub(crate) async fn inflate(source_name: &str, bytes: Vec<u8>) -> Result<Vec<u8>, LoadError> {
    if !gunzip::is_gzip(&bytes) {
        return Ok(bytes);
    }
    match gunzip::gunzip(&bytes).await {
        Ok(Some(json)) => Ok(json),
        Ok(None) => Ok(bytes),
        Err(message) => Err(LoadError::Invalid {
            source_name: source_name.to_owned(),
            message,
        }),
    }
}

/// `performance.now()` of the page or the worker (0 where there is none).
pub(crate) fn now_ms() -> f64 {
    js_sys::Reflect::get(&js_sys::global(), &"performance".into())
        .ok()
        .and_then(|p| p.dyn_into::<web_sys::Performance>().ok())
        .map_or(0.0, |p| p.now())
}

/// Decodes bundle bytes (`.json` or `.json.gz`) and checks the content hash.
pub fn decode_bundle(source_name: &str, bytes: &[u8]) -> Result<Arc<Bundle>, LoadError> {
    let bundle = parse_bundle(source_name, bytes)?;
    verify_bundle(source_name, &bundle)?;
    Ok(Arc::new(bundle))
}

pub(crate) fn parse_bundle(source_name: &str, bytes: &[u8]) -> Result<Bundle, LoadError> {
    Bundle::from_slice(bytes).map_err(|e| LoadError::invalid(source_name, &e))
}

pub(crate) fn verify_bundle(source_name: &str, bundle: &Bundle) -> Result<(), LoadError> {
    bundle
        .verify_content_hash()
        .map_err(|e| LoadError::invalid(source_name, &e))
}
