//! Data loading: the only place that turns a bundle address into a loaded [`Bundle`].
//!
//! Downloads go through [`crate::api`]; decoding (gzip or plain JSON) and validation are
//! `runlens-core`'s, the same code the CLI uses.

use std::sync::Arc;

use runlens_core::bundle::{Bundle, BundleError};
use serde::Deserialize;
use thiserror::Error;

use crate::api::{self, ApiError};

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

/// Downloads and decodes the bundle at `url`.
pub async fn load_bundle(url: String) -> Result<Arc<Bundle>, LoadError> {
    let bytes = api::fetch_bytes(&url).await?;
    decode_bundle(&url, &bytes)
}

/// Decodes bundle bytes (`.json` or `.json.gz`) and checks the content hash.
pub fn decode_bundle(source_name: &str, bytes: &[u8]) -> Result<Arc<Bundle>, LoadError> {
    let bundle = Bundle::from_slice(bytes).map_err(|e| LoadError::invalid(source_name, &e))?;
    bundle
        .verify_content_hash()
        .map_err(|e| LoadError::invalid(source_name, &e))?;
    Ok(Arc::new(bundle))
}
