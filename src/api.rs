//! The only module that makes HTTP requests (gloo-net, or the global `fetch` as a stream in
//! the loader worker). Errors are data, never `None`.

use gloo_net::http::Request;
use js_sys::{Function, Object, Promise, Reflect, Uint8Array};
use runlens_core::jev::{SystemOneRequest, SystemOneResponse, error_message};
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
    /// The Jev proxy answered with an error status (message from its `{"detail": …}` body).
    #[error("the Jev proxy at {url} answered HTTP {status}: {message}")]
    Jev {
        /// The URL asked.
        url: String,
        /// HTTP status.
        status: u16,
        /// The error body's message (official SDK extraction order), or the status text.
        message: String,
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
    Ok(fetch_stream(url, None, progress).await?.bytes)
}

/// Bytes of a file to ask for with an HTTP `Range` request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ByteRange {
    /// The last `n` bytes (`bytes=-n`).
    Last(u64),
    /// Bytes `start..end` (end exclusive).
    Span(u64, u64),
}

impl ByteRange {
    /// The `Range` header's value.
    pub fn header(self) -> String {
        match self {
            ByteRange::Last(n) => format!("bytes=-{n}"),
            ByteRange::Span(start, end) => format!("bytes={start}-{}", end.saturating_sub(1)),
        }
    }
}

/// What a host answered to a `Range` request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RangeReply {
    /// `206`: the bytes asked for, and the file's whole size.
    Partial {
        /// The bytes of the range.
        bytes: Vec<u8>,
        /// The file's size (from `Content-Range`).
        file_size: u64,
    },
    /// `200`: the host ignored `Range` and sent the whole file.
    Whole(Vec<u8>),
}

/// Asks `url` for `range` (streamed, `progress` as for [`fetch_bytes_with_progress`]). A
/// `416` is an error that says the file may have changed; a `206` without a readable
/// `Content-Range` is an error that names the header.
pub async fn fetch_range(
    url: &str,
    range: ByteRange,
    progress: &dyn Fn(u64, Option<u64>),
) -> Result<RangeReply, ApiError> {
    let got = fetch_stream(url, Some(range), progress).await?;
    range_reply(url, range, got.status, got.content_range, got.bytes)
}

/// What an answer to `range` (its 2xx `status`, `Content-Range` header and body) says, as
/// [`fetch_range`] reads it: a `206` without a readable `Content-Range` is an error that names
/// the header.
pub fn range_reply(
    url: &str,
    range: ByteRange,
    status: u16,
    content_range: Option<String>,
    bytes: Vec<u8>,
) -> Result<RangeReply, ApiError> {
    if status != 206 {
        return Ok(RangeReply::Whole(bytes));
    }
    let file_size = content_range
        .as_deref()
        .and_then(|v| v.rsplit_once('/'))
        .and_then(|(_, total)| total.trim().parse::<u64>().ok())
        .ok_or_else(|| ApiError::Body {
            url: url.to_owned(),
            message: format!(
                "the server answered {} with 206 but no readable Content-Range header (found \
                 {:?}); a host on another origin must list it in Access-Control-Expose-Headers",
                range.header(),
                content_range.unwrap_or_default()
            ),
        })?;
    Ok(RangeReply::Partial { bytes, file_size })
}

/// A streamed answer: its status, `Content-Range` and body.
struct Streamed {
    status: u16,
    content_range: Option<String>,
    bytes: Vec<u8>,
}

/// `GET url` (with a `Range` header when asked) through the global `fetch`, read as a
/// stream; any status but 2xx is an error.
async fn fetch_stream(
    url: &str,
    range: Option<ByteRange>,
    progress: &dyn Fn(u64, Option<u64>),
) -> Result<Streamed, ApiError> {
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
    let promise = match range {
        None => fetch.call1(&js_sys::global(), &JsValue::from_str(url)),
        Some(range) => {
            let headers = Object::new();
            let _ = Reflect::set(&headers, &"Range".into(), &range.header().into());
            let init = Object::new();
            let _ = Reflect::set(&init, &"headers".into(), &headers);
            fetch.call2(&js_sys::global(), &JsValue::from_str(url), &init)
        }
    }
    .map_err(|e| network(js_message(&e)))?;
    let response: Response = JsFuture::from(Promise::from(promise))
        .await
        .map_err(|e| network(js_message(&e)))?
        .dyn_into()
        .map_err(|_| network("the answer is not an HTTP response".to_owned()))?;
    if !response.ok() {
        return Err(status_error(url, response.status(), response.status_text()));
    }
    let header = |name: &str| response.headers().get(name).ok().flatten();
    let total = header("content-length").and_then(|v| v.trim().parse::<u64>().ok());
    let status = response.status();
    let content_range = header("content-range");
    progress(0, total);
    let Some(stream) = response.body() else {
        return Ok(Streamed {
            status,
            content_range,
            bytes: Vec::new(),
        });
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
    Ok(Streamed {
        status,
        content_range,
        bytes,
    })
}

/// The address of `path` (e.g. `v1/systemone`) under the proxy `base` (`./`, `/`,
/// `http://127.0.0.1:8080`, with or without a trailing slash).
pub fn jev_url(base: &str, path: &str) -> String {
    let base = base.trim();
    let base = if base.is_empty() {
        "."
    } else {
        base.trim_end_matches('/')
    };
    format!("{base}/{path}")
}

thread_local! {
    /// The proxy's access token, once the reader has given it: in this page's memory only
    /// (gone on reload), sent only to the Jev proxy's `/v1/*`.
    static PROXY_TOKEN: std::cell::RefCell<Option<String>> = const { std::cell::RefCell::new(None) };
}

/// Sets (or with `None` forgets) the access token sent to the Jev proxy.
pub fn set_proxy_token(token: Option<String>) {
    PROXY_TOKEN.with_borrow_mut(|t| *t = token);
}

/// The access token the reader gave, if any.
pub fn proxy_token() -> Option<String> {
    PROXY_TOKEN.with_borrow(Clone::clone)
}

/// One answered decision request: the answers, the round-trip time in milliseconds and the
/// `x-typesafe-request-id` header when the server sent one.
pub type SystemOneReply = (SystemOneResponse, f64, Option<String>);

/// `POST {base}/v1/systemone` with `request` as JSON, with `Authorization: Bearer` when the
/// reader gave an access token ([`set_proxy_token`]).
pub async fn post_systemone(
    base: &str,
    request: &SystemOneRequest,
) -> Result<SystemOneReply, ApiError> {
    let url = jev_url(base, "v1/systemone");
    let network = |message: String| ApiError::Network {
        url: url.clone(),
        message,
    };
    let started = crate::clock::now_ms();
    let mut builder = Request::post(&url);
    if let Some(token) = proxy_token() {
        builder = builder.header("Authorization", &format!("Bearer {token}"));
    }
    let response = builder
        .json(request)
        .map_err(|e| network(e.to_string()))?
        .send()
        .await
        .map_err(|e| network(e.to_string()))?;
    let latency_ms = crate::clock::now_ms() - started;
    let request_id = response.headers().get("x-typesafe-request-id");
    let text = response.text().await.map_err(|e| ApiError::Body {
        url: url.clone(),
        message: e.to_string(),
    })?;
    if !response.ok() {
        let message = serde_json::from_str(&text)
            .ok()
            .and_then(|body| error_message(&body))
            .unwrap_or_else(|| format!("{} {}", response.status(), response.status_text()));
        return Err(ApiError::Jev {
            url,
            status: response.status(),
            message,
        });
    }
    let answers = serde_json::from_str(&text).map_err(|e| ApiError::Body {
        url: url.clone(),
        message: format!("not a Jev answer ({e})"),
    })?;
    Ok((answers, latency_ms, request_id))
}

/// `GET {base}/healthz` (runlens serve: `backend`, `model`), falling back to
/// `GET {base}/v1/models` (any Jev server: the first model's `name`, backend unknown).
/// Returns `(backend, model id)`.
pub async fn jev_info(base: &str) -> Result<(String, String), ApiError> {
    let field = |body: &serde_json::Value, key: &str| {
        body.get(key)
            .and_then(serde_json::Value::as_str)
            .map(str::to_owned)
    };
    if let Ok(bytes) = fetch_bytes(&jev_url(base, "healthz")).await
        && let Ok(body) = serde_json::from_slice::<serde_json::Value>(&bytes)
        && let Some(model) = field(&body, "model")
    {
        return Ok((field(&body, "backend").unwrap_or_default(), model));
    }
    let url = jev_url(base, "v1/models");
    let bytes = fetch_bytes(&url).await?;
    let body: serde_json::Value = serde_json::from_slice(&bytes).map_err(|e| ApiError::Body {
        url: url.clone(),
        message: e.to_string(),
    })?;
    let model = body
        .get("models")
        .and_then(|m| m.get(0))
        .and_then(|m| field(m, "name"))
        .unwrap_or_default();
    Ok(("unknown".to_owned(), model))
}

/// The error for an HTTP error `status`, with a hint for the common ones.
pub(crate) fn status_error(url: &str, status: u16, status_text: String) -> ApiError {
    let hint = match status {
        404 => " (not found: check the bundle address)",
        401 | 403 => " (access denied)",
        416 => {
            " (the server refused the byte range asked for: the file may have changed since \
             its end was read; reload the page)"
        }
        _ => "",
    };
    ApiError::Status {
        url: url.to_owned(),
        status,
        status_text,
        hint: hint.to_owned(),
    }
}

/// A thrown JS value's message.
pub(crate) fn js_message(value: &JsValue) -> String {
    value
        .dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| value.as_string())
        .unwrap_or_else(|| format!("{value:?}"))
}
