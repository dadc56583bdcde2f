//! The content-hash check with the platform's SHA-256 (`crypto.subtle.digest`), several
//! times faster than hashing in WASM; falls back to the core's hasher where the platform
//! has none (pages served over plain HTTP from another host are not a secure context).

use js_sys::{Function, Promise, Reflect, Uint8Array};
use runlens_core::bundle::{Bundle, hex_digest};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

use crate::data::{LoadError, verify_bundle};

/// Checks `bundle.content_hash` against its body, as [`verify_bundle`] does.
pub async fn verify_bundle_fast(source_name: &str, bundle: &Bundle) -> Result<(), LoadError> {
    let json = bundle.body.canonical_json();
    match platform_sha256(&json).await {
        Some(digest) => {
            bundle
                .check_content_hash(hex_digest(&digest))
                .map_err(|e| LoadError::Invalid {
                    source_name: source_name.to_owned(),
                    message: e.to_string(),
                })
        }
        None => verify_bundle(source_name, bundle),
    }
}

/// SHA-256 of `bytes` by `crypto.subtle.digest`, or `None` when it is not available.
async fn platform_sha256(bytes: &[u8]) -> Option<Vec<u8>> {
    let get = |target: &JsValue, key: &str| {
        Reflect::get(target, &JsValue::from_str(key))
            .ok()
            .filter(|v| !v.is_undefined() && !v.is_null())
    };
    let subtle = get(&get(&js_sys::global(), "crypto")?, "subtle")?;
    let digest: Function = get(&subtle, "digest")?.dyn_into().ok()?;
    let data = Uint8Array::from(bytes);
    let promise: Promise = digest
        .call2(&subtle, &JsValue::from_str("SHA-256"), &data)
        .ok()?
        .dyn_into()
        .ok()?;
    let buffer = JsFuture::from(promise).await.ok()?;
    Some(Uint8Array::new(&buffer).to_vec())
}

/// Lower-case hex SHA-256 of `bytes` by `crypto.subtle.digest`, or `None` when it is not
/// available (the caller hashes with core's hasher).
pub async fn sha256_hex(bytes: &[u8]) -> Option<String> {
    platform_sha256(bytes).await.map(|d| hex_digest(&d))
}
