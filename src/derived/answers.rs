//! The views' questions to the data's owner. A view asks ([`ask`]) and gets the answer it
//! shows; the loader worker that holds the bundle computes it (so the page never holds the
//! rows behind it, and long computations never run on the main thread). A bundle loaded on
//! the main thread (no worker) or mounted directly (the wasm tests) is answered in the page
//! by the same code ([`answer_json`], in the `queries` chunk of a split build).

use std::borrow::Cow;
use std::cell::RefCell;
use std::sync::Arc;

use runlens_core::audit::AuditAnswerer;
use runlens_core::bundle::{Bundle, BundleBody, Cell};
use runlens_core::metrics::board_run::{boards, pooled_board};
use runlens_core::metrics::failures_view::FailuresAnswerer;
use runlens_core::metrics::failures_view::Labelled;
use runlens_core::metrics::gate_view::{self, GateAnswerer};
use runlens_core::metrics::gold_tables::TableMatcher;
use runlens_core::metrics::matrix_view::MatrixAnswerer;
use runlens_core::metrics::ranking_view::RankingAnswerer;
use runlens_core::metrics::run_scores::RunScores;
use runlens_core::overrides::what_changed_between;
use runlens_core::trajectory::{OpenedCell, TrajectoryAnswerer, choices, resolve_corpus};
use serde::de::DeserializeOwned;

use crate::chunks::{split_call, split_point};
use crate::loader::ask::ask_holder;
use crate::loader::cell_text::Filled;
use crate::loader::request::LoadError;
pub use crate::loader::view_query::ViewQuery;
use crate::per_bundle::PerBundle;

/// What the answers keep between questions about one bundle.
#[derive(Default)]
struct Answerers {
    ranking: RankingAnswerer,
    gate: GateAnswerer,
    failures: FailuresAnswerer,
    matrix: MatrixAnswerer,
    audit: AuditAnswerer,
    trajectory: TrajectoryAnswerer,
}

thread_local! {
    /// Keyed by the bundle's content hash and address (see `crate::per_bundle`).
    static ANSWERERS: RefCell<PerBundle<(String, usize), Answerers>> = RefCell::default();
}

/// The answer to `query` about `bundle`, as JSON, with the bundle's table matcher from
/// [`super::bundle_matcher`] (compiled once per bundle; answering from the gold SQL's parses
/// once the loader installed them). The loader worker and the page both answer with this, in
/// the `queries` chunk, so the matcher's regex and SQL parser code stays out of the first load.
pub fn answer_json(bundle: &Bundle, query: &ViewQuery) -> Vec<u8> {
    answer_json_filled(bundle, query, None)
}

/// The cell `query` opens (a trajectory with a model and trace, or a cell asked for in
/// full): its corpus's position and the cell as `body` holds it.
pub fn opened_by<'a>(body: &'a BundleBody, query: &ViewQuery) -> Option<(usize, Cow<'a, Cell>)> {
    let (corpus, model, trace) = match query {
        ViewQuery::Trajectory(q) => {
            let (model, trace) = (q.model.as_deref()?, q.trace.as_deref()?);
            let named = q.corpus.as_deref();
            let corpus = resolve_corpus(body, named, Some(model), Some(trace))?;
            (corpus, model, trace)
        }
        ViewQuery::Cell {
            corpus,
            model,
            trace,
        } => (corpus.clone(), model.as_str(), trace.as_str()),
        _ => return None,
    };
    let at = body.corpora.iter().position(|c| c.name == corpus)?;
    Some((at, body.corpora[at].cell(trace, model)?))
}

/// The opened cell of an answer whole: `filled` when it is the cell the answer holds
/// without its text.
fn put_back(opened: Option<&mut OpenedCell>, filled: Option<&Filled>) {
    if let (Some(opened), Some(filled)) = (opened, filled)
        && opened.cell.text_at == Some(filled.at)
    {
        opened.cell = filled.cell.clone();
    }
}

/// [`answer_json`], with the opened cell whole when the bundle holds it without its text
/// (`filled`: the loader worker fetched its record, see `crate::loader::cell_text`).
pub fn answer_json_filled(bundle: &Bundle, query: &ViewQuery, filled: Option<&Filled>) -> Vec<u8> {
    let matcher = || super::bundle_matcher::bundle_matcher(bundle);
    let matcher: &dyn Fn() -> Option<TableMatcher> = &matcher;
    let owner = (
        bundle.content_hash.clone(),
        std::ptr::from_ref(bundle) as usize,
    );
    ANSWERERS.with_borrow_mut(|a| {
        let answerers = a.of(owner);
        let body = &bundle.body;
        let json = match query {
            ViewQuery::Ranking(q) => {
                serde_json::to_vec(&answerers.ranking.answer(body, matcher, q))
            }
            ViewQuery::RankingQuestion { query, trace_id } => {
                serde_json::to_vec(&answerers.ranking.question(body, matcher, query, trace_id))
            }
            ViewQuery::Gate(q) => serde_json::to_vec(&answerers.gate.answer(body, q)),
            ViewQuery::GateFired { corpus, model } => {
                serde_json::to_vec(&gate_view::fired(body, corpus, model))
            }
            ViewQuery::Failures(q) => serde_json::to_vec(&answerers.failures.answer(body, q)),
            ViewQuery::FailuresPage { query, start, end } => {
                serde_json::to_vec(&answerers.failures.page(body, query, *start, *end))
            }
            ViewQuery::FailuresCsv(q) => serde_json::to_vec(&answerers.failures.csv(body, q)),
            ViewQuery::Matrix(q) => serde_json::to_vec(&answerers.matrix.answer(body, q)),
            ViewQuery::MatrixPage { query, start, end } => {
                serde_json::to_vec(&answerers.matrix.page(body, query, *start, *end))
            }
            ViewQuery::Audit(q) => serde_json::to_vec(&answerers.audit.answer(body, q)),
            ViewQuery::Trajectory(q) => {
                let mut answer = answerers.trajectory.answer(body, q);
                put_back(answer.opened.as_mut(), filled);
                serde_json::to_vec(&answer)
            }
            ViewQuery::TrajectoryChoices(q) => serde_json::to_vec(&choices(body, q)),
            ViewQuery::Boards { loss } => serde_json::to_vec(&boards(body, *loss)),
            ViewQuery::PooledBoard { loss } => serde_json::to_vec(&pooled_board(body, *loss)),
            ViewQuery::Scores { loss } => serde_json::to_vec(&RunScores::of(bundle, *loss)),
            ViewQuery::Cell {
                corpus,
                model,
                trace,
            } => {
                let mut opened = OpenedCell::of(Labelled::of(body), corpus, model, trace);
                put_back(opened.as_mut(), filled);
                serde_json::to_vec(&opened)
            }
            ViewQuery::WhatChanged {
                corpus,
                before,
                after,
            } => {
                let own = body.corpus(corpus).map_or(&[][..], |c| &c.failure_labels);
                serde_json::to_vec(&what_changed_between(own, before, after))
            }
        };
        // Answers are plain data (no maps with non-string keys): writing them cannot fail.
        json.unwrap_or_default()
    })
}

split_point! {
    /// [`answer_json`] in the `queries` chunk: the views' computations, apart from the
    /// views' own chunks, which only show answers.
    queries: fn answer_query(bundle: &Bundle, query: &ViewQuery) -> Vec<u8> {
        answer_json(bundle, query)
    }
}

split_point! {
    /// The answer to a question as the loader worker receives it (its JSON), read in the
    /// `queries` chunk too: reading the questions is no work for the first load.
    queries: fn answer_query_json(
        bundle: &Bundle,
        query: &[u8],
        filled: Option<&Filled>,
    ) -> Result<Vec<u8>, String> {
        serde_json::from_slice::<ViewQuery>(query)
            .map(|query| answer_json_filled(bundle, &query, filled))
            .map_err(|e| format!("loader: a malformed question ({e})"))
    }
}

split_point! {
    /// Nothing, in the `queries` chunk: the loader worker loads the chunk with it before it
    /// takes the bundle to answer from, so no answer holds the bundle while a chunk loads.
    queries: fn queries_ready() -> () {}
}

split_point! {
    /// [`opened_by`] of a question as the loader worker receives it (a malformed one opens
    /// nothing: its answer says what is wrong), the cell copied.
    queries: fn opened_by_json(bundle: &Bundle, query: &[u8]) -> Option<(usize, Cell)> {
        let query = serde_json::from_slice::<ViewQuery>(query).ok();
        query.and_then(|q| opened_by(&bundle.body, &q).map(|(at, cell)| (at, cell.into_owned())))
    }
}

/// Asks the owner of the shown data `query` about `bundle` (the bundle the view was given):
/// the loader worker when it loaded that bundle, else the page itself.
pub async fn ask<T: DeserializeOwned>(
    bundle: &Arc<Bundle>,
    query: ViewQuery,
) -> Result<T, LoadError> {
    let json = match ask_holder(bundle, &query).await {
        Some(answer) => answer?,
        None => split_call!(answer_query(bundle, &query))
            .map_err(|e| LoadError::Loader(e.to_string()))?,
    };
    serde_json::from_slice(&json)
        .map_err(|e| LoadError::Loader(format!("loader: a malformed answer ({e})")))
}
