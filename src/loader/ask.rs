//! Asking the loader worker: a view's question goes to the worker that loaded the bundle it
//! asks about (the shown bundle's, or the compared run's) (it keeps the full bundle), and the answer comes back by request id.

use js_sys::{Promise, Uint8Array};
use runlens_core::bundle::Bundle;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;

use super::client::{CURRENT, State};
use super::protocol::{self, ToWorker};
use super::request::LoadError;
use super::view_query::ViewQuery;

/// The loader worker's answer to `query`, when it holds `bundle` (the same content hash:
/// re-labels do not matter); `None` when the page answers itself (no worker, or a bundle
/// the worker did not load).
pub async fn ask_holder(
    bundle: &Arc<Bundle>,
    query: &ViewQuery,
) -> Option<Result<Vec<u8>, LoadError>> {
    let (worker, state) = CURRENT.with_borrow(|slots| {
        slots
            .iter()
            .flatten()
            .find(|c| c.state.borrow().holds(bundle))
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

/// Sends the worker the request `head(id)` and waits for the answer's body (the answer to
/// [`ToWorker::Query`]).
async fn ask_worker(
    worker: &web_sys::Worker,
    state: &Rc<RefCell<State>>,
    head: impl FnOnce(u32) -> ToWorker,
    body: Option<&[u8]>,
) -> Result<Vec<u8>, LoadError> {
    let id = {
        let mut s = state.borrow_mut();
        s.next_question += 1;
        s.next_question
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
