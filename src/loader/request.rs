//! What the loader is asked to load ([`BundleRequest`]), what it gives back ([`Loaded`],
//! [`LoadStats`]) and why it could fail ([`LoadError`]).

use std::sync::Arc;

use runlens_core::bundle::{Bundle, BundleError, Warning};
use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::api::ApiError;

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

    pub(crate) fn invalid(source_name: &str, err: &BundleError) -> Self {
        LoadError::Invalid {
            source_name: source_name.to_owned(),
            message: err.to_string(),
        }
    }
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
/// Loaded by the worker, the bundle is its skeleton (no rows): the views ask the worker
/// (`crate::derived::answers`). Loaded on the main thread (no worker), it is whole.
/// `bundle.content_hash` is always the real, checked hash.
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
    pub summary: Option<super::summary::Summary>,
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
    /// Main-thread time spent reading the worker's skeleton.
    #[serde(default)]
    pub assemble_ms: f64,
    /// Bytes of JSON the page received with the bundle (its skeleton).
    #[serde(default)]
    pub transfer_bytes: usize,
    /// Whether the bundle was imported from harness files (its hash computed, not checked).
    #[serde(default)]
    pub imported: bool,
    /// Whether the load ran in a Web Worker.
    #[serde(default)]
    pub in_worker: bool,
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
