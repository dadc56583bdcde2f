//! Bundle v1 bytes to a [`Bundle`]: the browser's gunzip, and core's parser (in the `v1`
//! chunk) and content-hash check.

use std::sync::Arc;

use runlens_core::bundle::{Bundle, BundleError};

use super::entries::invalid;
use super::request::LoadError;
use crate::chunks::{prefetch, split_call, split_point};
use crate::gunzip;

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

/// Decodes bundle bytes (`.json` or `.json.gz`) and checks the content hash, in one call
/// (tests and tools; the app's loads parse in the `v1` chunk, see [`parse_bundle`]).
pub fn decode_bundle(source_name: &str, bytes: &[u8]) -> Result<Arc<Bundle>, LoadError> {
    let bundle = Bundle::from_slice(bytes).map_err(|e| LoadError::invalid(source_name, &e))?;
    verify_bundle(source_name, &bundle)?;
    Ok(Arc::new(bundle))
}

/// Parses a `runlens.bundle/1` (JSON, or gzip the browser could not inflate) with core's
/// parser, which a split build fetches as the `v1` chunk the first time (a v2 bundle never
/// needs it; [`prefetch_v1_parser`] starts the fetch while the bundle downloads).
pub(crate) async fn parse_bundle(source_name: &str, bytes: &[u8]) -> Result<Bundle, LoadError> {
    let parsed = split_call!(parse_v1(bytes)).map_err(|e| invalid(source_name, e))?;
    parsed.map_err(|e| LoadError::invalid(source_name, &e))
}

split_point! {
    /// Core's `runlens.bundle/1` parser, in the `v1` chunk.
    v1, preload preload_v1: fn parse_v1(bytes: &[u8]) -> Result<Bundle, BundleError> {
        Bundle::from_slice(bytes)
    }
}

/// Starts fetching the `v1` chunk, so that it is in when the bundle's bytes are.
pub(crate) fn prefetch_v1_parser() {
    prefetch!(preload_v1);
}

fn verify_bundle(source_name: &str, bundle: &Bundle) -> Result<(), LoadError> {
    bundle
        .verify_content_hash()
        .map_err(|e| LoadError::invalid(source_name, &e))
}
