//! Data loading: the only place that turns a bundle address into a loaded [`Bundle`].
//!
//! Downloads go through [`crate::api`]; decoding (gzip or plain JSON) and validation are
//! `runlens-core`'s, the same code the CLI uses.

use std::sync::Arc;

use runlens_core::bundle::{Bundle, BundleError};
use serde::Deserialize;
use thiserror::Error;

use crate::api::{self, ApiError};
use crate::gunzip;

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
}

impl LoadError {
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

/// A loaded bundle and what loading it cost (for the header's data attributes and the
/// load benchmark, `e2e/bench/load.mjs`).
#[derive(Debug, Clone)]
pub struct Loaded {
    /// The bundle.
    pub bundle: Arc<Bundle>,
    /// Sizes and timings.
    pub stats: LoadStats,
}

/// Sizes and timings of one load, in bytes and milliseconds.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct LoadStats {
    /// Bytes downloaded (compressed for `.json.gz`).
    pub download_bytes: usize,
    /// Bytes of JSON parsed.
    pub json_bytes: usize,
    /// Download time.
    pub download_ms: f64,
    /// Time the browser took to inflate a `.json.gz` (0 for plain JSON).
    pub gunzip_ms: f64,
    /// JSON parse time in WASM (including core's gunzip where the browser has none).
    pub parse_ms: f64,
    /// Content-hash check time.
    pub verify_ms: f64,
}

/// Downloads and decodes the bundle at `url`.
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
    };
    Ok(Loaded {
        bundle: Arc::new(bundle),
        stats,
    })
}

/// Inflates gzip bytes with the browser (see [`crate::gunzip`]); plain JSON, and gzip in a
/// browser without `DecompressionStream`, pass through to core unchanged.
async fn inflate(source_name: &str, bytes: Vec<u8>) -> Result<Vec<u8>, LoadError> {
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

fn now_ms() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}

/// Decodes bundle bytes (`.json` or `.json.gz`) and checks the content hash.
pub fn decode_bundle(source_name: &str, bytes: &[u8]) -> Result<Arc<Bundle>, LoadError> {
    let bundle = parse_bundle(source_name, bytes)?;
    verify_bundle(source_name, &bundle)?;
    Ok(Arc::new(bundle))
}

fn parse_bundle(source_name: &str, bytes: &[u8]) -> Result<Bundle, LoadError> {
    Bundle::from_slice(bytes).map_err(|e| LoadError::invalid(source_name, &e))
}

fn verify_bundle(source_name: &str, bundle: &Bundle) -> Result<(), LoadError> {
    bundle
        .verify_content_hash()
        .map_err(|e| LoadError::invalid(source_name, &e))
}
