//! Adopting the early download that the loader worker starts before its module is compiled
//! (`assets/loader-prefetch.js`, started for `?bundle=` pages by `assets/prestart.js`): the
//! download and the browser's gunzip then overlap the start-up of both modules. Failures are
//! worded exactly as [`crate::api::fetch_bytes_with_progress`] and [`crate::gunzip`] word them.

use js_sys::{Array, Function, Object, Promise, Reflect, Uint8Array};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

use super::progress::{Phase, Progress};
use super::request::LoadError;
use crate::api::{self, ApiError};
use crate::gunzip;
use crate::yield_now;

/// How often the download's progress is read while waiting, ms.
const POLL_MS: u32 = 100;

/// The global `loader-prefetch.js` leaves its download in.
const SLOT: &str = "__runlensPrefetch";
/// A download started before the worker's module ran: a v1 bundle whole, or a v2 zip's tail.
pub struct Prefetched {
    state: JsValue,
    url: String,
}

/// What the early download produced.
#[derive(Debug, Clone, PartialEq)]
pub struct Fetched {
    /// The body, inflated when it was gzip and the browser could inflate it.
    pub bytes: Vec<u8>,
    /// Whether `bytes` were inflated (else they are as downloaded).
    pub inflated: bool,
    /// Bytes downloaded.
    pub download_bytes: usize,
    /// Download time, ms.
    pub download_ms: f64,
    /// The answer's status (2xx): 206 when a range asked for was answered.
    pub status: u16,
    /// The answer's `Content-Range` header.
    pub content_range: Option<String>,
    /// Inflate time, ms (0 when not inflated).
    pub gunzip_ms: f64,
}

/// Takes the early download if it is of `url` and asked for `range` (the `Range` header;
/// `None`: the whole file), once. Any other is aborted and dropped: the page asked for
/// something else.
pub fn take(url: &str, range: Option<&str>) -> Option<Prefetched> {
    let global = js_sys::global();
    let state = Reflect::get(&global, &SLOT.into()).ok()?;
    if !state.is_object() {
        return None;
    }
    let _ = Reflect::delete_property(global.unchecked_ref::<Object>(), &SLOT.into());
    let text = |name: &str| {
        Reflect::get(&state, &name.into())
            .ok()
            .and_then(|v| v.as_string())
    };
    let same = text("url").is_some_and(|u| u == url) && text("range").as_deref() == range;
    if !same {
        if let Some(abort) = function(&state, "abort") {
            let _ = abort.call0(&state);
        }
        return None;
    }
    Some(Prefetched {
        state,
        url: url.to_owned(),
    })
}

impl Prefetched {
    /// Waits for the download (and inflate), reporting its progress (every [`POLL_MS`]).
    pub async fn finish(self, progress: &dyn Fn(Progress)) -> Result<Fetched, LoadError> {
        let result = match Reflect::get(&self.state, &"result".into()) {
            Ok(r) if r.is_instance_of::<Promise>() => Promise::from(r),
            _ => Promise::reject(&JsValue::from_str("the early download has no result")),
        };
        let mut last = None;
        loop {
            let now = self.progress();
            if last != Some(now) {
                progress(now);
                last = Some(now);
            }
            if Reflect::get(&self.state, &"settled".into()).is_ok_and(|s| s.is_truthy()) {
                break;
            }
            let race = Promise::race(&Array::of2(&result, &yield_now::timeout(POLL_MS)));
            if JsFuture::from(race).await.is_err() {
                break;
            }
        }
        self.outcome(JsFuture::from(result).await)
    }

    /// The download's phase and counts as the script last left them (inflating is shown
    /// without counts, as `super::decode::inflate` shows it).
    fn progress(&self) -> Progress {
        let phase = Reflect::get(&self.state, &"phase".into())
            .ok()
            .and_then(|p| p.as_string());
        if phase.as_deref() == Some("inflating") {
            return Progress {
                phase: Phase::Inflating,
                done: 0,
                total: None,
            };
        }
        Progress {
            phase: Phase::Downloading,
            done: number(&self.state, "done").unwrap_or(0.0) as u64,
            total: number(&self.state, "total").map(|t| t as u64),
        }
    }

    fn outcome(&self, result: Result<JsValue, JsValue>) -> Result<Fetched, LoadError> {
        let url = &self.url;
        let value = result.map_err(|e| ApiError::Network {
            url: url.clone(),
            message: api::js_message(&e),
        })?;
        let field = |name: &str| Reflect::get(&value, &name.into()).unwrap_or(JsValue::UNDEFINED);
        if let Some(kind) = field("failed").as_string() {
            let message = api::js_message(&field("message"));
            return Err(match kind.as_str() {
                "status" => api::status_error(
                    url,
                    number(&value, "status").unwrap_or(0.0) as u16,
                    field("statusText").as_string().unwrap_or_default(),
                )
                .into(),
                "body" => ApiError::Body {
                    url: url.clone(),
                    message,
                }
                .into(),
                "inflate" => LoadError::Invalid {
                    source_name: url.clone(),
                    message: gunzip::corrupt(&message),
                },
                _ => ApiError::Network {
                    url: url.clone(),
                    message,
                }
                .into(),
            });
        }
        let bytes = field("bytes")
            .dyn_into::<Uint8Array>()
            .map_err(|_| ApiError::Body {
                url: url.clone(),
                message: "the early download returned no bytes".to_owned(),
            })?
            .to_vec();
        Ok(Fetched {
            bytes,
            inflated: field("inflated").as_bool().unwrap_or(false),
            download_bytes: number(&value, "downloadBytes").unwrap_or(0.0) as usize,
            download_ms: number(&value, "downloadMs").unwrap_or(0.0),
            gunzip_ms: number(&value, "gunzipMs").unwrap_or(0.0),
            status: number(&value, "status").unwrap_or(200.0) as u16,
            content_range: field("contentRange").as_string(),
        })
    }
}

fn function(target: &JsValue, name: &str) -> Option<Function> {
    Reflect::get(target, &name.into()).ok()?.dyn_into().ok()
}

fn number(target: &JsValue, name: &str) -> Option<f64> {
    Reflect::get(target, &name.into()).ok()?.as_f64()
}
