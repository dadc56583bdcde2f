//! Full cells on demand: the page's copy of a large bundle has no trajectory text, the
//! worker that loaded it keeps the full bundle and answers `detail` requests.

use js_sys::{Promise, Uint8Array};
use runlens_core::bundle::{Bundle, Cell};
use serde::{Deserialize, Serialize};
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;

use super::client::{CURRENT, State};
use super::protocol::{self, ToWorker};
use super::request::LoadError;
use super::view_query::ViewQuery;

/// The text of one model × question that a stripped page bundle lacks.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct CellDetail {
    /// The full cell (SQL results, final answer, judge reasoning); `None` when there is none.
    pub cell: Option<Cell>,
    /// The FM1–FM5 label's reason, when the cell has an FM label with one.
    #[serde(default)]
    pub fm_reason: Option<String>,
}

impl CellDetail {
    /// The detail of `model` × `trace_id` in `corpus` of a full `bundle`.
    pub fn of(bundle: &Bundle, corpus: &str, model: &str, trace_id: &str) -> CellDetail {
        let Some(c) = bundle.body.corpus(corpus) else {
            return CellDetail::default();
        };
        CellDetail {
            cell: c.cell(trace_id, model).cloned(),
            fm_reason: c
                .fm_labels
                .iter()
                .find(|l| l.trace_id == trace_id && l.model == model)
                .and_then(|l| l.reason.clone()),
        }
    }
}

/// The full text of one cell of the current bundle (see `crate::data::cell_detail`).
pub async fn cell_detail(
    corpus: &str,
    model: &str,
    trace_id: &str,
) -> Result<CellDetail, LoadError> {
    let none = || LoadError::Loader("no bundle is loaded".to_owned());
    let (worker, state) = CURRENT
        .with_borrow(|c| c.as_ref().map(|c| (c.worker.clone(), c.state.clone())))
        .ok_or_else(none)?;
    if let Some(bundle) = state.borrow().local.clone() {
        return Ok(CellDetail::of(&bundle, corpus, model, trace_id));
    }
    let worker = worker.ok_or_else(none)?;
    let bytes = ask_worker(
        &worker,
        &state,
        |id| ToWorker::Detail {
            id,
            corpus: corpus.to_owned(),
            model: model.to_owned(),
            trace_id: trace_id.to_owned(),
        },
        None,
    )
    .await?;
    serde_json::from_slice(&bytes)
        .map_err(|e| LoadError::Loader(format!("loader: a malformed cell detail ({e})")))
}

/// The loader worker's answer to `query`, when it holds `bundle` (the same content hash:
/// re-labels do not matter); `None` when the page answers itself (no worker, or a bundle
/// the worker did not load).
pub async fn ask_holder(
    bundle: &Arc<Bundle>,
    query: &ViewQuery,
) -> Option<Result<Vec<u8>, LoadError>> {
    let (worker, state) = CURRENT.with_borrow(|c| {
        c.as_ref()
            .filter(|c| c.state.borrow().holds(bundle))
            .and_then(|c| c.worker.clone().map(|w| (w, c.state.clone())))
    })?;
    let early = query.answered_early();
    // Plain data: writing it cannot fail.
    let body = serde_json::to_vec(query).unwrap_or_default();
    Some(
        ask_worker(
            &worker,
            &state,
            |id| ToWorker::Query { id, early },
            Some(&body),
        )
        .await,
    )
}

/// Sends the worker the request `head(id)` and waits for the answer's body (the answers to
/// [`ToWorker::Detail`] and [`ToWorker::Query`]).
async fn ask_worker(
    worker: &web_sys::Worker,
    state: &Rc<RefCell<State>>,
    head: impl FnOnce(u32) -> ToWorker,
    body: Option<&[u8]>,
) -> Result<Vec<u8>, LoadError> {
    let id = {
        let mut s = state.borrow_mut();
        s.next_detail += 1;
        s.next_detail
    };
    let mut resolve_fn = None;
    let promise = Promise::new(&mut |resolve, _reject| resolve_fn = Some(resolve));
    if let Some(resolve) = resolve_fn {
        state.borrow_mut().pending.insert(id, resolve);
    }
    let (message, transfer) = protocol::encode(&head(id), body, &[]);
    worker
        .post_message_with_transfer(&message, &transfer)
        .map_err(|_| LoadError::Loader("the loader is not running".to_owned()))?;
    let answer = JsFuture::from(promise)
        .await
        .map_err(|_| LoadError::Loader("the loader did not answer".to_owned()))?;
    if answer.is_null() {
        return Err(LoadError::Loader(
            "another bundle was opened before the answer arrived".to_owned(),
        ));
    }
    if let Some(message) = answer.as_string() {
        return Err(LoadError::Loader(message));
    }
    Ok(answer
        .dyn_into::<Uint8Array>()
        .map(|a| a.to_vec())
        .unwrap_or_default())
}
