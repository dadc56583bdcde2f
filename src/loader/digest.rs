//! The content-hash check with the platform's SHA-256 (`crypto.subtle.digest`), several
//! times faster than hashing in WASM; falls back to the core's hasher where the platform
//! has none (pages served over plain HTTP from another host are not a secure context).

use std::cell::RefCell;

use js_sys::{Function, Promise, Reflect, Uint8Array};
use runlens_core::bundle::raw_body_span;
use runlens_core::bundle::{Bundle, hex_digest};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

use super::decode::verify_bundle;
use super::request::LoadError;

thread_local! {
    /// The browser's SHA-256 of the body's bytes as downloaded ([`start_raw_body_digest`]).
    static RAW_BODY: RefCell<Option<Promise>> = const { RefCell::new(None) };
}

/// Starts hashing the body's bytes in `json`, a v1 document as downloaded (the browser copies
/// them and hashes off this thread): a document runlens wrote holds the body's canonical JSON
/// as is (`raw_body_span`), so [`verify_bundle_fast`] need not serialise a large body again
/// (2–3 s on the `large` run, during which the worker could answer no view).
pub fn start_raw_body_digest(json: &[u8]) {
    let promise = raw_body_span(json).and_then(|span| digest_promise(&json[span]));
    RAW_BODY.set(promise);
}

/// Checks `bundle.content_hash` against its body, as [`verify_bundle`] does: first against
/// the digest of the body's bytes as downloaded when one was started; when that does not match
/// (a document written otherwise), against the body serialised canonically.
pub async fn verify_bundle_fast(source_name: &str, bundle: &Bundle) -> Result<(), LoadError> {
    if let Some(promise) = RAW_BODY.take()
        && let Ok(buffer) = JsFuture::from(promise).await
        && hex_digest(&Uint8Array::new(&buffer).to_vec()) == bundle.content_hash
    {
        return Ok(());
    }
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
    let buffer = JsFuture::from(digest_promise(bytes)?).await.ok()?;
    Some(Uint8Array::new(&buffer).to_vec())
}

/// `crypto.subtle.digest("SHA-256", bytes)` (the bytes are copied at once), or `None` when
/// there is no such function.
fn digest_promise(bytes: &[u8]) -> Option<Promise> {
    let get = |target: &JsValue, key: &str| {
        Reflect::get(target, &JsValue::from_str(key))
            .ok()
            .filter(|v| !v.is_undefined() && !v.is_null())
    };
    let subtle = get(&get(&js_sys::global(), "crypto")?, "subtle")?;
    let digest: Function = get(&subtle, "digest")?.dyn_into().ok()?;
    let data = Uint8Array::from(bytes);
    digest
        .call2(&subtle, &JsValue::from_str("SHA-256"), &data)
        .ok()?
        .dyn_into()
        .ok()
}

/// Lower-case hex SHA-256 of `bytes` by `crypto.subtle.digest`, or `None` when it is not
/// available (the caller hashes with core's hasher).
pub async fn sha256_hex(bytes: &[u8]) -> Option<String> {
    platform_sha256(bytes).await.map(|d| hex_digest(&d))
}
