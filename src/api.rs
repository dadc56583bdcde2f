//! The only module that makes HTTP requests (gloo-net, or the global `fetch` as a stream in
//! the loader worker). Errors are data, never `None`.

use gloo_net::http::Request;
use js_sys::{Function, Promise, Reflect, Uint8Array};
use thiserror::Error;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{ReadableStreamDefaultReader, Response};

/// Why a download failed, in words a reader can act on.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum ApiError {
    /// The request never got an HTTP answer.
    #[error(
        "could not download {url}: {message}. The server may be down or unreachable, or it \
         does not allow this page to read it (cross-origin requests need CORS headers on the \
         server that hosts the file)"
    )]
    Network {
        /// The URL asked for.
        url: String,
        /// The browser's message.
        message: String,
    },
    /// The server answered with an error status.
    #[error("could not download {url}: the server answered HTTP {status} {status_text}{hint}")]
    Status {
        /// The URL asked for.
        url: String,
        /// HTTP status.
        status: u16,
        /// HTTP status text.
        status_text: String,
        /// A plain-words hint for common statuses.
        hint: String,
    },
    /// The body could not be read.
    #[error("could not read the answer from {url}: {message}")]
    Body {
        /// The URL asked for.
        url: String,
        /// What went wrong.
        message: String,
    },
}

/// Downloads `url` and returns its bytes.
pub async fn fetch_bytes(url: &str) -> Result<Vec<u8>, ApiError> {
    let response = Request::get(url)
        .send()
        .await
        .map_err(|e| ApiError::Network {
            url: url.to_owned(),
            message: e.to_string(),
        })?;
    if !response.ok() {
        return Err(status_error(url, response.status(), response.status_text()));
    }
    response.binary().await.map_err(|e| ApiError::Body {
        url: url.to_owned(),
        message: e.to_string(),
    })
}

/// Downloads `url` with the global `fetch` (page or worker) as a stream, calling
/// `progress(bytes so far, Content-Length)` after every piece.
pub async fn fetch_bytes_with_progress(
    url: &str,
    progress: &dyn Fn(u64, Option<u64>),
) -> Result<Vec<u8>, ApiError> {
    let network = |message: String| ApiError::Network {
        url: url.to_owned(),
        message,
    };
    let body_error = |message: String| ApiError::Body {
        url: url.to_owned(),
        message,
    };
    let fetch = Reflect::get(&js_sys::global(), &"fetch".into())
        .ok()
        .and_then(|f| f.dyn_into::<Function>().ok())
        .ok_or_else(|| network("this browser has no fetch".to_owned()))?;
    let promise = fetch
        .call1(&js_sys::global(), &JsValue::from_str(url))
        .map_err(|e| network(js_message(&e)))?;
    let response: Response = JsFuture::from(Promise::from(promise))
        .await
        .map_err(|e| network(js_message(&e)))?
        .dyn_into()
        .map_err(|_| network("the answer is not an HTTP response".to_owned()))?;
    if !response.ok() {
        return Err(status_error(url, response.status(), response.status_text()));
    }
    let total = response
        .headers()
        .get("content-length")
        .ok()
        .flatten()
        .and_then(|v| v.trim().parse::<u64>().ok());
    progress(0, total);
    let Some(stream) = response.body() else {
        return Ok(Vec::new());
    };
    let reader: ReadableStreamDefaultReader = stream.get_reader().unchecked_into();
    let mut bytes = Vec::with_capacity(total.unwrap_or(0).min(1 << 30) as usize);
    loop {
        let chunk = JsFuture::from(reader.read())
            .await
            .map_err(|e| body_error(js_message(&e)))?;
        let done = Reflect::get(&chunk, &"done".into())
            .ok()
            .and_then(|d| d.as_bool())
            .unwrap_or(true);
        if done {
            break;
        }
        if let Ok(piece) =
            Reflect::get(&chunk, &"value".into()).and_then(|v| v.dyn_into::<Uint8Array>())
        {
            let start = bytes.len();
            bytes.resize(start + piece.length() as usize, 0);
            piece.copy_to(&mut bytes[start..]);
        }
        progress(bytes.len() as u64, total);
    }
    Ok(bytes)
}

fn status_error(url: &str, status: u16, status_text: String) -> ApiError {
    let hint = match status {
        404 => " (not found: check the bundle address)",
        401 | 403 => " (access denied)",
        _ => "",
    };
    ApiError::Status {
        url: url.to_owned(),
        status,
        status_text,
        hint: hint.to_owned(),
    }
}

fn js_message(value: &JsValue) -> String {
    value
        .dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| value.as_string())
        .unwrap_or_else(|| format!("{value:?}"))
}
