//! Messages between the page and the loader worker (see docs/architecture.md, "Loading").
//!
//! Every message is a JS object `{ head, body?, files? }`: `head` is the JSON of a
//! [`ToWorker`] or [`FromWorker`], `body` an optional `Uint8Array` (JSON bytes, its buffer
//! transferred, never copied twice), `files` the `File`s of a [`ToWorker::LoadFiles`].

use js_sys::{Array, Object, Reflect, Uint8Array};
use runlens_core::bundle::Warning;
use serde::{Deserialize, Serialize};
use wasm_bindgen::{JsCast, JsValue};

use super::progress::Progress;
use super::request::LoadStats;

/// Page → worker.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ToWorker {
    /// Download and decode the bundle at an absolute URL.
    LoadUrl {
        /// Absolute URL (resolved against the page).
        url: String,
    },
    /// Decode a bundle file or import harness files (the message's `files`).
    LoadFiles,
    /// Answer a view's question (`body`: the JSON of a [`super::view_query::ViewQuery`],
    /// read in the `queries` chunk with the answer) from the bundle the worker holds.
    Query {
        /// Request id, echoed in the answer.
        id: u32,
        /// Whether a v2 bundle's early tables answer it
        /// ([`super::view_query::ViewQuery::answered_early`]); else the whole bundle does.
        early: bool,
    },
}

/// Worker → page.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum FromWorker {
    /// The worker's WASM is running.
    Ready,
    /// Progress of the current phase.
    Progress(Progress),
    /// A `runlens.bundle/2`'s summary, before its rows (`body`: the skeleton's JSON, then the
    /// corpora's leaderboards as JSON; see [`super::summary`]).
    Summary {
        /// Bytes of `body` that are the skeleton.
        skeleton_len: u64,
    },
    /// The bundle is loaded (`body`: its skeleton, the bundle without rows, as JSON): the
    /// page shows it, and its views ask the worker, which keeps the rows. The content hash
    /// is checked after this ([`FromWorker::Verified`], or [`FromWorker::Failed`] on a
    /// mismatch).
    Done {
        /// Sizes and timings measured in the worker.
        stats: LoadStats,
    },
    /// Every corpus's leaderboard (`body`: JSON, see [`super::boards`]), computed right
    /// before [`FromWorker::Done`] (not after a [`FromWorker::Summary`], which carries them).
    Boards,
    /// The content hash matched (after [`FromWorker::Done`]; imports have nothing to check).
    Verified {
        /// Time the check took in the worker, ms.
        verify_ms: f64,
    },
    /// Loading failed; the message names file, line, field and what was expected. After
    /// [`FromWorker::Done`]: the content hash did not match.
    Failed {
        /// The error, in plain words.
        message: String,
        /// Import warnings met before the error.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        warnings: Vec<Warning>,
    },
    /// After [`FromWorker::Done`]: the parser-rule outcome of every gold statement (`body`:
    /// JSON of an `Option<StatementParses>`, `null` when the bundle has no valid namespaces),
    /// so the page never parses gold SQL itself (see `crate::derived::bundle_matcher`).
    GoldParses,
    /// Answer to [`ToWorker::Query`] (`body`: JSON of the query's answer).
    Answer {
        /// The request id.
        id: u32,
        /// Why there is no answer (then there is no body).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        error: Option<String>,
    },
}

/// A decoded message.
pub struct Message<H> {
    /// The head.
    pub head: H,
    /// JSON bytes, if any.
    pub body: Option<Vec<u8>>,
    /// Files, if any.
    pub files: Vec<web_sys::File>,
}

/// Builds the JS object for `head` (+ body, files) and the list of buffers to transfer.
pub fn encode<H: Serialize>(
    head: &H,
    body: Option<&[u8]>,
    files: &[web_sys::File],
) -> (JsValue, Array) {
    let obj = Object::new();
    let transfer = Array::new();
    let head = serde_json::to_string(head).unwrap_or_default();
    let _ = Reflect::set(&obj, &"head".into(), &head.into());
    if let Some(bytes) = body {
        let array = Uint8Array::from(bytes);
        transfer.push(&array.buffer());
        let _ = Reflect::set(&obj, &"body".into(), &array);
    }
    if !files.is_empty() {
        let list: Array = files.iter().collect();
        let _ = Reflect::set(&obj, &"files".into(), &list);
    }
    (obj.into(), transfer)
}

/// Reads a message built by [`encode`]; `Err` names what was malformed.
pub fn decode<H: for<'de> Deserialize<'de>>(data: &JsValue) -> Result<Message<H>, String> {
    let head = Reflect::get(data, &"head".into())
        .ok()
        .and_then(|h| h.as_string())
        .ok_or("loader: a message without a head")?;
    let head =
        serde_json::from_str(&head).map_err(|e| format!("loader: a malformed message ({e})"))?;
    let body = Reflect::get(data, &"body".into())
        .ok()
        .and_then(|b| b.dyn_into::<Uint8Array>().ok())
        .map(|b| b.to_vec());
    let files = Reflect::get(data, &"files".into())
        .ok()
        .and_then(|f| f.dyn_into::<Array>().ok())
        .map(|a| a.iter().filter_map(|f| f.dyn_into().ok()).collect())
        .unwrap_or_default();
    Ok(Message { head, body, files })
}
