//! The page side: starts a loader worker per load (two at once at most: the shown bundle's
//! and the compared run's, [`Slot`]), receives the bundle's skeleton (the worker
//! keeps the rows and answers the views, [`super::ask::ask_holder`]), and falls back to
//! loading on the main thread without a worker.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;
use std::sync::Arc;

use js_sys::{Function, Uint8Array};
use runlens_core::bundle::Bundle;
use runlens_core::metrics::gold_tables::StatementParses;
use wasm_bindgen::prelude::Closure;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{Event, MessageEvent, Worker, WorkerOptions, WorkerType};

use super::boards;
use super::parses;
use super::pipeline;
use super::prestart;
use super::progress::{self, Phase, Progress};
use super::protocol::{self, FromWorker, ToWorker};
use super::request::{BundleRequest, LoadError, LoadStats, Loaded};
use super::skeleton;
use super::summary::{self, Summary};
use crate::clock::now_ms;

/// The worker script (an ES module written by `scripts/csp.mjs` after trunk's build) that
/// loads the app's own module and calls its `start_loader_worker`.
pub const WORKER_SCRIPT: &str = "./loader-worker.js";

type OnProgress = Box<dyn Fn(Progress)>;
type OnDone = Rc<dyn Fn(Result<Loaded, LoadError>)>;

/// A running (or finished) load; [`LoadHandle::cancel`] stops it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LoadHandle {
    id: u64,
}

impl LoadHandle {
    /// Stops the load if it is still the current one: terminates its worker; its `on_done`
    /// is never called.
    pub fn cancel(&self) {
        let stopped = CURRENT.with_borrow_mut(|slots| {
            slots
                .iter_mut()
                .find(|c| c.as_ref().is_some_and(|c| c.id == self.id))
                .and_then(Option::take)
        });
        if let Some(c) = stopped {
            c.stop();
        }
    }
}

/// Which of the page's two loads: the bundle the views show, or the run the compare view
/// compares it with. Each has its own worker; starting a load stops the earlier one of its
/// slot only.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Slot {
    /// The bundle of `?bundle=` (or opened files): every view's.
    Shown,
    /// The run of `?compare=`: the compare view's run B.
    Compared,
}

pub(super) struct Current {
    id: u64,
    pub(super) worker: Option<Worker>,
    pub(super) state: Rc<RefCell<State>>,
}

impl Current {
    fn stop(self) {
        if let Some(w) = &self.worker {
            w.terminate();
        }
        let mut state = self.state.borrow_mut();
        state.on_done = None;
        state.after_done = None;
        // Questions the stopped worker will never answer resolve to `null` (an error
        // for the caller) instead of waiting forever.
        for (_, resolve) in state.pending.drain() {
            let _ = resolve.call1(&JsValue::NULL, &JsValue::NULL);
        }
    }
}

#[derive(Default)]
pub(super) struct State {
    ready: bool,
    request: Option<BundleRequest>,
    source: String,
    on_progress: Option<OnProgress>,
    on_done: Option<OnDone>,
    /// `on_done` again after a bundle was handed over: the worker checks the content hash
    /// after `Done`, and a mismatch replaces the bundle with the error.
    after_done: Option<OnDone>,
    /// The leaderboards the worker sent ahead of the bundle ([`FromWorker::Boards`]).
    boards: Option<Vec<u8>>,
    /// Content hash of the bundle the worker sent (the key of its gold parses).
    hash: String,
    /// The summary shown ahead of the bundle (its rows go to the bundle's leaderboard cache).
    summary: Option<Summary>,
    /// The loaded bundle when it was loaded on the main thread (the page answers itself).
    pub(super) local: Option<Arc<Bundle>>,
    pub(super) pending: HashMap<u32, Function>,
    pub(super) next_question: u32,
}

impl State {
    /// Whether the worker holds `bundle` (it sent a bundle with its content hash; re-labels
    /// make new bundles with the same hash and change no ranking, cell or text).
    pub(super) fn holds(&self, bundle: &Bundle) -> bool {
        self.local.is_none() && !self.hash.is_empty() && self.hash == bundle.content_hash
    }
}

thread_local! {
    /// The current load of each [`Slot`], by its index.
    pub(super) static CURRENT: RefCell<[Option<Current>; 2]> = const { RefCell::new([None, None]) };
    static NEXT_ID: RefCell<u64> = const { RefCell::new(0) };
}

/// Starts loading `request` in `slot`, replacing (and stopping) the slot's earlier load.
pub fn start(
    slot: Slot,
    request: BundleRequest,
    on_progress: OnProgress,
    on_done: OnDone,
) -> LoadHandle {
    let id = NEXT_ID.with_borrow_mut(|n| {
        *n += 1;
        *n
    });
    let old = CURRENT.with_borrow_mut(|slots| slots[slot as usize].take());
    if let Some(old) = old {
        old.stop();
    }
    on_progress(Progress {
        phase: Phase::Starting,
        done: 0,
        total: None,
    });
    let state = Rc::new(RefCell::new(State {
        source: request.source(),
        request: Some(request),
        on_progress: Some(on_progress),
        on_done: Some(on_done),
        ..State::default()
    }));
    // The worker `prestart.js` started is for the shown bundle's address.
    let prestarted = (slot == Slot::Shown).then(prestart::take).flatten();
    let (worker, early) = match prestarted {
        Some(p) => (Some(p.worker), p.early),
        None => {
            let options = WorkerOptions::new();
            options.set_type(WorkerType::Module);
            (
                Worker::new_with_options(WORKER_SCRIPT, &options).ok(),
                Vec::new(),
            )
        }
    };
    // Current before wiring: the handlers ignore events of loads that are not current, and
    // a prestarted worker's early events (its `Ready`) are handed to them right away.
    CURRENT.with_borrow_mut(|slots| {
        slots[slot as usize] = Some(Current {
            id,
            worker: worker.clone(),
            state: state.clone(),
        });
    });
    match &worker {
        Some(w) => wire(w, id, &state, early),
        None => run_locally(id, state),
    }
    LoadHandle { id }
}

fn is_current(id: u64) -> bool {
    CURRENT.with_borrow(|slots| slots.iter().flatten().any(|c| c.id == id))
}

/// Installs the load's handlers on `worker`, then hands them the `early` events a
/// prestarted worker sent before (see [`prestart`]).
fn wire(worker: &Worker, id: u64, state: &Rc<RefCell<State>>, early: Vec<JsValue>) {
    let st = state.clone();
    let w = worker.clone();
    let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |ev: MessageEvent| {
        if is_current(id) {
            on_message(&w, &st, &ev.data());
        }
    });
    let st = state.clone();
    let w = worker.clone();
    // A worker script that fails to load fires a plain `Event`; an uncaught error inside the
    // worker an `ErrorEvent` with a message.
    let on_error = Closure::<dyn FnMut(Event)>::new(move |ev: Event| {
        ev.prevent_default();
        if !is_current(id) {
            return;
        }
        let ready = st.borrow().ready;
        if ready {
            finish(
                &st,
                Err(LoadError::Loader(format!(
                    "the loader stopped: {}",
                    js_sys::Reflect::get(&ev, &"message".into())
                        .ok()
                        .and_then(|m| m.as_string())
                        .unwrap_or_else(|| "no message".to_owned())
                ))),
            );
        } else {
            // No worker script here (e.g. a test page): load on the main thread instead.
            w.terminate();
            CURRENT.with_borrow_mut(|slots| {
                if let Some(c) = slots.iter_mut().flatten().find(|c| c.id == id) {
                    c.worker = None;
                }
            });
            run_locally(id, st.clone());
        }
    });
    worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
    for ev in early {
        let handler: &Function = if ev.is_instance_of::<MessageEvent>() {
            on_message.as_ref().unchecked_ref()
        } else {
            on_error.as_ref().unchecked_ref()
        };
        let _ = handler.call1(&JsValue::NULL, &ev);
    }
    // Kept for the life of the worker; a stale load's handlers only check `is_current`.
    on_message.forget();
    on_error.forget();
}

fn on_message(worker: &Worker, state: &Rc<RefCell<State>>, data: &JsValue) {
    let message = match protocol::decode::<FromWorker>(data) {
        Ok(m) => m,
        Err(e) => return finish(state, Err(LoadError::Loader(e))),
    };
    let body = message.body.unwrap_or_default();
    match message.head {
        FromWorker::Ready => {
            let request = {
                let mut s = state.borrow_mut();
                s.ready = true;
                s.request.take()
            };
            send_request(worker, request);
        }
        FromWorker::Progress(p) => progress(state, p),
        FromWorker::Summary { skeleton_len } => {
            // A summary the page cannot read is skipped: the page waits for the bundle.
            let Ok(summary) = summary::decode(&body, skeleton_len as usize) else {
                return;
            };
            let (cb, source) = {
                let mut s = state.borrow_mut();
                s.summary = Some(summary.clone());
                // The worker answers the views' questions about this bundle from now on.
                s.hash.clone_from(&summary.skeleton.content_hash);
                (s.on_done.clone(), s.source.clone())
            };
            let loaded = Loaded {
                bundle: summary.skeleton.clone(),
                stats: LoadStats {
                    in_worker: true,
                    v2: true,
                    ..LoadStats::default()
                },
                source,
                summary: Some(summary),
            };
            if let Some(cb) = cb {
                cb(Ok(loaded));
            }
        }
        FromWorker::Done { mut stats } => {
            let t0 = now_ms();
            let skeleton = skeleton::read_skeleton(&body);
            stats.assemble_ms = now_ms() - t0;
            stats.transfer_bytes = body.len();
            let (source, shown_summary, boards_json) = {
                let mut s = state.borrow_mut();
                (s.source.clone(), s.summary.take(), s.boards.take())
            };
            let result = skeleton
                .map(|bundle| Loaded {
                    bundle: Arc::new(bundle),
                    stats,
                    source,
                    summary: None,
                })
                .map_err(LoadError::Loader);
            if let Ok(loaded) = &result {
                if let Some(summary) = shown_summary {
                    boards::install_summary(&loaded.bundle, &summary);
                }
                if let Some(json) = boards_json {
                    boards::install(&loaded.bundle, &json);
                }
                let hash = loaded.bundle.content_hash.clone();
                parses::expect_parses(&hash);
                state.borrow_mut().hash = hash;
            }
            finish(state, result);
        }
        FromWorker::Boards => state.borrow_mut().boards = Some(body),
        FromWorker::GoldParses => {
            // Malformed or `null`: nothing recorded, and the page parses what it needs.
            let parses: Option<StatementParses> = serde_json::from_slice(&body).ok().flatten();
            let hash = state.borrow().hash.clone();
            parses::install_parses(&hash, parses.unwrap_or_default());
        }
        FromWorker::Failed { message, warnings } if !warnings.is_empty() => {
            finish(state, Err(LoadError::Import { message, warnings }));
        }
        FromWorker::Failed { message, .. } => finish(state, Err(LoadError::Loader(message))),
        FromWorker::Verified { verify_ms } => record_verify_ms(verify_ms),
        FromWorker::Answer { id, error: None } => {
            let resolve = state.borrow_mut().pending.remove(&id);
            if let Some(resolve) = resolve {
                let _ = resolve.call1(&JsValue::NULL, &Uint8Array::from(body.as_slice()));
            }
        }
        FromWorker::Answer {
            id,
            error: Some(message),
        } => {
            let resolve = state.borrow_mut().pending.remove(&id);
            if let Some(resolve) = resolve {
                let _ = resolve.call1(&JsValue::NULL, &JsValue::from_str(&message));
            }
        }
    }
}

fn send_request(worker: &Worker, request: Option<BundleRequest>) {
    let (message, transfer) = match request {
        Some(BundleRequest::Url(url)) => {
            let url = absolute(&url);
            protocol::encode(&ToWorker::LoadUrl { url }, None, &[])
        }
        Some(BundleRequest::Files(files)) => protocol::encode(&ToWorker::LoadFiles, None, &files),
        None => return,
    };
    let _ = worker.post_message_with_transfer(&message, &transfer);
}

/// `url` resolved against the page (the worker would resolve it against its script).
fn absolute(url: &str) -> String {
    let base = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.base_uri().ok().flatten());
    base.and_then(|b| web_sys::Url::new_with_base(url, &b).ok())
        .map_or_else(|| url.to_owned(), |u| u.href())
}

fn progress(state: &Rc<RefCell<State>>, p: Progress) {
    // Take the callback out while it runs, so it may start another load.
    let cb = state.borrow_mut().on_progress.take();
    if let Some(cb) = cb {
        cb(p);
        let mut s = state.borrow_mut();
        if s.on_done.is_some() && s.on_progress.is_none() {
            s.on_progress = Some(cb);
        }
    }
}

/// Hands `result` to the load's `on_done`: the first result, or an error after a bundle was
/// handed over (a content-hash mismatch found after `Done`); nothing else after that.
fn finish(state: &Rc<RefCell<State>>, result: Result<Loaded, LoadError>) {
    let cb = {
        let mut s = state.borrow_mut();
        s.on_progress = None;
        match s.on_done.take() {
            Some(cb) => {
                if result.is_ok() {
                    s.after_done = Some(cb.clone());
                }
                Some(cb)
            }
            None if result.is_err() => s.after_done.take(),
            None => None,
        }
    };
    if let Some(cb) = cb {
        cb(result);
    }
}

/// The worker's content-hash check time, on `<html data-load-verify-ms>` (the check ends after
/// the bundle is shown; e2e/bench/load.mjs reads it there).
fn record_verify_ms(ms: f64) {
    if let Some(root) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element())
    {
        let _ = root.set_attribute("data-load-verify-ms", &format!("{ms}"));
    }
}

fn run_locally(id: u64, state: Rc<RefCell<State>>) {
    let Some(request) = state.borrow_mut().request.take() else {
        return;
    };
    wasm_bindgen_futures::spawn_local(async move {
        let st = state.clone();
        let on_progress = move |p| {
            if is_current(id) {
                progress(&st, p);
            }
        };
        let result = pipeline::load_full(&request, &on_progress, progress::Early::NONE, true).await;
        if !is_current(id) {
            return;
        }
        let result = result.map(|(bundle, stats)| {
            let bundle = Arc::new(bundle);
            state.borrow_mut().local = Some(bundle.clone());
            Loaded {
                bundle,
                stats: LoadStats {
                    in_worker: false,
                    ..stats
                },
                source: request.source(),
                summary: None,
            }
        });
        finish(&state, result);
    });
}
