//! The content-hash check: a v1 document's body bytes as downloaded hashed by the platform's
//! SHA-256 (`crypto.subtle.digest`, off the worker's thread), else the body serialised
//! canonically and hashed by the core's hasher a slice at a time.

use std::cell::RefCell;

use js_sys::{Function, Promise, Reflect, Uint8Array};
use runlens_core::bundle::raw_body_span;
use runlens_core::bundle::{BodyHasher, Bundle, hex_digest};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

use super::request::LoadError;
use crate::yield_now::yield_now;

thread_local! {
    /// The browser's SHA-256 of the body's bytes as downloaded ([`start_raw_body_digest`]).
    static RAW_BODY: RefCell<Option<Promise>> = const { RefCell::new(None) };
}

/// Starts hashing the body's bytes in `json`, a v1 document as downloaded (the browser copies
/// them and hashes off this thread): a document runlens wrote holds the body's canonical JSON
/// as is (`raw_body_span`), so [`verify_bundle_fast`] need not serialise a large body again
/// (seconds on the `large` run, during which the worker could answer no view).
pub fn start_raw_body_digest(json: &[u8]) {
    let promise = raw_body_span(json).and_then(|span| digest_promise(&json[span]));
    RAW_BODY.set(promise);
}

/// Bytes of the body's canonical JSON hashed per slice of [`verify_bundle_fast`]'s fallback
/// (tens of ms in the worker); the worker answers the views' questions between slices.
const HASH_SLICE_BYTES: usize = 4 << 20;

/// Checks `bundle.content_hash` against its body, as [`verify_bundle`] does: first against
/// the digest of the body's bytes as downloaded when one was started; when that does not match
/// (a v2 bundle, or a document written otherwise), against the body serialised canonically,
/// hashed a slice at a time (`BodyHasher`) with a yield to the event loop between slices, so
/// the worker keeps answering while it checks a large body (and never holds its whole
/// serialisation).
pub async fn verify_bundle_fast(source_name: &str, bundle: &Bundle) -> Result<(), LoadError> {
    if let Some(promise) = RAW_BODY.take()
        && let Ok(buffer) = JsFuture::from(promise).await
        && hex_digest(&Uint8Array::new(&buffer).to_vec()) == bundle.content_hash
    {
        return Ok(());
    }
    let mut hasher = BodyHasher::new(&bundle.body, 64 << 10);
    let digest = loop {
        if let Some(digest) = hasher.step(HASH_SLICE_BYTES) {
            break digest;
        }
        yield_now().await;
    };
    bundle
        .check_content_hash(digest)
        .map_err(|e| LoadError::Invalid {
            source_name: source_name.to_owned(),
            message: e.to_string(),
        })
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
