//! The loader worker's entry point, as `app.rs` is the page's: runs in the loader Web Worker
//! (`loader-worker.js`), loads one request, sends the page the bundle's skeleton (see
//! [`crate::loader::skeleton`]) and the leaderboards, then the gold SQL's parses, then checks
//! the content hash, and keeps the full bundle to answer the views' questions.

use std::cell::RefCell;
use std::rc::{Rc, Weak};

use runlens_core::bundle::Bundle;
use runlens_core::metrics::gold_tables::{StatementParses, TableMatcher};
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::Closure;
use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

use crate::chunks::{LocalTask, split_call, split_point};
use crate::clock::now_ms;
use crate::derived::answers::{answer_query_json, opened_by_json, queries_ready};
use crate::loader::boards;
use crate::loader::cell_text::{CellTexts, Filled};
use crate::loader::digest::verify_bundle_fast;
use crate::loader::pipeline;
use crate::loader::progress::Early;
use crate::loader::protocol::{self, FromWorker, ToWorker};
use crate::loader::request::BundleRequest;
use crate::loader::skeleton;
use crate::yield_now::yield_now;

thread_local! {
    static FULL: RefCell<Option<Rc<Bundle>>> = const { RefCell::new(None) };
    /// A v2 bundle's early tables (questions, ranking rows, labels, gate rows), until the
    /// whole bundle is in: the ranking, failures and gate views are answered from it. Weak:
    /// the loader moves them into the whole bundle.
    static EARLY: RefCell<Option<Weak<Bundle>>> = const { RefCell::new(None) };
    /// Questions that came before the bundle was in: id, whether the early tables answer it,
    /// the question's JSON.
    static WAITING: RefCell<Vec<Waiting>> = const { RefCell::new(Vec::new()) };
    /// The cells' text chunks of a v2 bundle read without them (`None`: the bundle holds its
    /// text): an opened cell's chunk is fetched from here.
    static TEXTS: RefCell<Option<Rc<CellTexts>>> = const { RefCell::new(None) };
}

/// Entry point of the worker (`start_loader_worker` in src/main.rs): installs the message
/// handler and says `Ready`.
pub fn start() {
    std::panic::set_hook(Box::new(|info| {
        post(
            &FromWorker::Failed {
                message: format!("the loader hit an internal error: {info}"),
                warnings: Vec::new(),
            },
            None,
        );
    }));
    let on_message = Closure::<dyn FnMut(MessageEvent)>::new(|ev: MessageEvent| handle(&ev));
    scope().set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    // The handler lives as long as the worker.
    on_message.forget();
    post(&FromWorker::Ready, None);
}

fn scope() -> DedicatedWorkerGlobalScope {
    js_sys::global().unchecked_into()
}

fn post(head: &FromWorker, body: Option<&[u8]>) {
    let (message, transfer) = protocol::encode(head, body, &[]);
    let _ = scope().post_message_with_transfer(&message, &transfer);
}

fn handle(ev: &MessageEvent) {
    let message = match protocol::decode::<ToWorker>(&ev.data()) {
        Ok(m) => m,
        Err(message) => {
            let failed = FromWorker::Failed {
                message,
                warnings: Vec::new(),
            };
            return post(&failed, None);
        }
    };
    match message.head {
        ToWorker::LoadUrl { url } => {
            wasm_bindgen_futures::spawn_local(run(BundleRequest::Url(url)));
        }
        ToWorker::LoadFiles => {
            wasm_bindgen_futures::spawn_local(run(BundleRequest::Files(message.files)));
        }
        ToWorker::Query { id, early } => {
            let query = message.body.unwrap_or_default();
            match answerable(early) {
                Some(_) => wasm_bindgen_futures::spawn_local(answer(early, id, query)),
                None => WAITING.with_borrow_mut(|w| w.push((id, early, query))),
            }
        }
    }
}

/// A question waiting for the bundle: id, whether the early tables answer it, its JSON.
type Waiting = (u32, bool, Vec<u8>);

/// The bundle a question can be answered from now: the whole one, or the rows read ahead of
/// it when they answer it (`early`: the page's `ViewQuery::answered_early`; `None`: wait).
fn answerable(early: bool) -> Option<Rc<Bundle>> {
    FULL.with_borrow(Clone::clone).or_else(|| {
        early
            .then(|| EARLY.with_borrow(|e| e.as_ref().and_then(Weak::upgrade)))
            .flatten()
    })
}

/// Answers the questions waiting for what came in.
fn answer_waiting() {
    let waiting = WAITING.take();
    let mut still = Vec::new();
    for (id, early, query) in waiting {
        match answerable(early) {
            Some(_) => wasm_bindgen_futures::spawn_local(answer(early, id, query)),
            None => still.push((id, early, query)),
        }
    }
    WAITING.with_borrow_mut(|w| w.extend(still));
}

/// Answers a view's question about the bundle this worker holds (`early`: whether the rows
/// read ahead of the whole bundle answer it). The `queries` chunk is loaded before the
/// bundle is taken: an answer that held the early tables while its chunk loaded made the
/// loader copy them (it moves them into the whole bundle only when nothing else holds them;
/// docs/performance.md, "The summary's views stay, and early answers take no copy").
async fn answer(early: bool, id: u32, query: Vec<u8>) {
    if let Err(e) = split_call!(queries_ready()) {
        let error = Some(e.to_string());
        return post(&FromWorker::Answer { id, error }, None);
    }
    let Some(bundle) = answerable(early) else {
        WAITING.with_borrow_mut(|w| w.push((id, early, query)));
        return;
    };
    let filled = match fill_opened(&bundle, &query).await {
        Ok(filled) => filled,
        Err(e) => return post(&FromWorker::Answer { id, error: Some(e) }, None),
    };
    let answer = split_call!(answer_query_json(&bundle, &query, filled.as_ref()))
        .map_err(|e| e.to_string())
        .and_then(|a| a);
    match answer {
        Ok(json) => post(&FromWorker::Answer { id, error: None }, Some(&json)),
        Err(e) => post(&FromWorker::Answer { id, error: Some(e) }, None),
    }
}

/// The cell `query` opens (a trajectory, a cell asked for in full) whole, when the bundle
/// was read without the cells' text: its chunk is fetched (or kept) and its record put back.
async fn fill_opened(bundle: &Bundle, query: &[u8]) -> Result<Option<Filled>, String> {
    let Some(texts) = TEXTS.with_borrow(Clone::clone) else {
        return Ok(None);
    };
    let opened = split_call!(opened_by_json(bundle, query)).map_err(|e| e.to_string())?;
    let Some((corpus, cell)) = opened else {
        return Ok(None);
    };
    texts.fill(corpus, &cell).await.map_err(|e| e.to_string())
}

async fn run(request: BundleRequest) {
    TEXTS.set(None);
    let progress = |p| post(&FromWorker::Progress(p), None);
    // A summary carries the leaderboard rows already: no `Boards` after it.
    let summary_sent = std::cell::Cell::new(false);
    let summary = |body: Vec<u8>, skeleton_len: usize| {
        let head = FromWorker::Summary {
            skeleton_len: skeleton_len as u64,
        };
        post(&head, Some(&body));
        summary_sent.set(true);
        // The views' questions come as soon as the summary is shown: their chunk loads while
        // the rows they need download, so the early tables answer them when they come (an
        // answer whose chunk was still loading then waited for the whole bundle; loaded
        // before the summary, the chunk delayed the leaderboard).
        wasm_bindgen_futures::spawn_local(async {
            let _ = split_call!(queries_ready());
        });
    };
    let tables = |bundle: Rc<Bundle>| {
        EARLY.set(Some(Rc::downgrade(&bundle)));
        answer_waiting();
    };
    let cell_texts = |texts: CellTexts| TEXTS.set(Some(Rc::new(texts)));
    let early = Early {
        summary: &summary,
        tables: &tables,
        cell_texts: Some(&cell_texts),
    };
    let loaded = pipeline::load_full(&request, &progress, early, false).await;
    let (bundle, mut stats) = match loaded {
        Ok(loaded) => loaded,
        Err(e) => {
            return post(
                &FromWorker::Failed {
                    message: e.to_string(),
                    warnings: e.warnings().to_vec(),
                },
                None,
            );
        }
    };
    // The page gets the skeleton only: its views ask this worker, which keeps the rows.
    let skeleton = skeleton::skeleton_json(&bundle);
    stats.in_worker = true;
    stats.worker_wasm_bytes = crate::loader::wasm_memory_bytes();
    // The leaderboards come first, so the page's leaderboard shows them when it mounts.
    if !summary_sent.get() {
        post(&FromWorker::Boards, Some(&boards::json(&bundle)));
    }
    // The gold SQL is parsed for the page's matcher (see crate::derived::bundle_matcher)
    // after this, then the content hash is checked: a mismatch replaces the shown bundle
    // with the error.
    post(&FromWorker::Done { stats }, Some(&skeleton));
    let bundle = Rc::new(bundle);
    FULL.set(Some(bundle.clone()));
    EARLY.set(None);
    answer_waiting();
    // Without the parser's chunk the page keeps the harness rule only (as for a bundle
    // without namespaces).
    let parses = match split_call!(gold_parses_task(bundle.clone())) {
        Ok(task) => task.await,
        Err(_) => None,
    };
    post(
        &FromWorker::GoldParses,
        Some(&serde_json::to_vec(&parses).unwrap_or_default()),
    );
    // The answers' matcher (`crate::derived::bundle_matcher`, as on the page) answers from them now.
    if let Some(parses) = parses {
        crate::loader::parses::install_parses(&bundle.content_hash, parses);
    }
    // A v2 bundle read without its cells' text: each entry was checked against the
    // manifest's SHA-256 as it came (a text chunk is when it is fetched); its content hash is
    // the manifest's (`runlens validate` rebuilds the body and checks it).
    if stats.imported || TEXTS.with_borrow(Option::is_some) {
        return;
    }
    let t0 = now_ms();
    match verify_bundle_fast(&request.source(), &bundle).await {
        Ok(()) => post(
            &FromWorker::Verified {
                verify_ms: now_ms() - t0,
            },
            None,
        ),
        Err(e) => post(
            &FromWorker::Failed {
                message: e.to_string(),
                warnings: Vec::new(),
            },
            None,
        ),
    }
}

/// Statements parsed per slice; the worker answers the views' questions between slices.
const PARSE_SLICE: usize = 64;

/// The parser rule's outcome for the bundle's gold SQL (none without namespaces), a slice
/// at a time; in the `gold_sql` chunk of a split build.
pub async fn gold_parses(bundle: Rc<Bundle>) -> Option<StatementParses> {
    let statements: Vec<String> = StatementParses::gold_statements(&bundle.body)
        .into_iter()
        .map(str::to_owned)
        .collect();
    let matcher = (!bundle.body.namespaces.is_empty())
        .then(|| TableMatcher::new(&bundle.body.namespaces).ok())
        .flatten()?;
    drop(bundle);
    Some(parse_slices(&matcher, &statements).await)
}

async fn parse_slices(matcher: &TableMatcher, statements: &[String]) -> StatementParses {
    let mut out = matcher.statement_parses(std::iter::empty());
    for slice in statements.chunks(PARSE_SLICE) {
        let part = matcher.statement_parses(slice.iter().map(String::as_str));
        out.statements.extend(part.statements);
        yield_now().await;
    }
    out
}

split_point! {
    /// The parser rule's gold tables ([`gold_parses`]), after the bundle is shown, in the
    /// `gold_sql` chunk.
    gold_sql: fn gold_parses_task(bundle: Rc<Bundle>) -> LocalTask<Option<StatementParses>> {
        Box::pin(gold_parses(bundle))
    }
}
