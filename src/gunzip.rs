//! gzip decoding by the browser itself (`DecompressionStream`), which is several times faster
//! than inflating in WebAssembly and streams outside the WASM heap. Core's own gunzip
//! (`Bundle::from_slice`) remains the fallback where the API is missing.

use js_sys::{Array, Function, Reflect, Uint8Array};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{Blob, ReadableWritablePair, Response};

/// True when `bytes` start with the gzip magic number `1f 8b`.
pub fn is_gzip(bytes: &[u8]) -> bool {
    bytes.starts_with(&[0x1f, 0x8b])
}

/// Inflates gzip `bytes` with the browser's `DecompressionStream`.
///
/// `Ok(None)` when the browser has no `DecompressionStream` (the caller falls back to core);
/// `Err` with the browser's message when the data are corrupt or truncated.
pub async fn gunzip(bytes: &[u8]) -> Result<Option<Vec<u8>>, String> {
    let ctor = Reflect::get(&js_sys::global(), &JsValue::from_str("DecompressionStream"))
        .ok()
        .and_then(|c| c.dyn_into::<Function>().ok());
    let Some(ctor) = ctor else { return Ok(None) };
    let stream =
        Reflect::construct(&ctor, &Array::of1(&JsValue::from_str("gzip"))).map_err(js_message)?;
    let pair: ReadableWritablePair = stream.unchecked_into();
    let blob = Blob::new_with_u8_array_sequence(&Array::of1(&Uint8Array::from(bytes)))
        .map_err(js_message)?;
    let inflated = blob.stream().pipe_through(&pair);
    let response = Response::new_with_opt_readable_stream(Some(&inflated)).map_err(js_message)?;
    let buffer = JsFuture::from(response.array_buffer().map_err(js_message)?)
        .await
        .map_err(|e| corrupt(&js_message(e)))?;
    Ok(Some(Uint8Array::new(&buffer).to_vec()))
}

/// The error for gzip data the browser could not inflate (its message inside).
pub(crate) fn corrupt(message: &str) -> String {
    format!("gzip data are corrupt or truncated ({message})")
}

fn js_message(value: JsValue) -> String {
    crate::api::js_message(&value)
}
