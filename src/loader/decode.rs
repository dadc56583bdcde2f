//! Bundle bytes to a checked [`Bundle`]: the browser's gunzip, core's parser and content-hash
//! check, and the main-thread load that uses them where there is no worker.

use std::sync::Arc;

use runlens_core::bundle::Bundle;

use super::request::{LoadError, LoadStats, Loaded};
use crate::api;
use crate::clock::now_ms;
use crate::gunzip;

/// Downloads and decodes the bundle at `url` on the main thread (the fallback of
/// `crate::data::load`).
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
