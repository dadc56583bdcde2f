//! The views' questions to the data's owner. A view asks ([`ask`]) and gets the answer it
//! shows; the loader worker that holds the bundle computes it (so the page never holds the
//! rows behind it, and long computations never run on the main thread). A bundle loaded on
//! the main thread (no worker) or mounted directly (the wasm tests) is answered in the page
//! by the same code ([`answer_json`], in the `queries` chunk of a split build).

use std::cell::RefCell;
use std::sync::Arc;

use runlens_core::bundle::Bundle;
use runlens_core::metrics::gate_view::{self, GateAnswerer, GateQuery};
use runlens_core::metrics::gold_tables::TableMatcher;
use runlens_core::metrics::ranking_view::{RankingAnswerer, RankingQuery};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use super::client::CURRENT;
use super::detail::ask_worker;
use super::protocol::ToWorker;
use crate::data::LoadError;
use crate::per_bundle::PerBundle;

/// A view's question.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "view", rename_all = "snake_case")]
pub enum ViewQuery {
    /// The ranking view's section and question rows
    /// ([`runlens_core::metrics::ranking_view::RankingAnswer`]).
    Ranking(RankingQuery),
    /// One question of the ranking view in full
    /// ([`runlens_core::metrics::ranking_view::QuestionAnswer`]).
    RankingQuestion {
        /// The view's choices.
        query: RankingQuery,
        /// The question.
        trace_id: String,
    },
    /// The gate view's groups ([`runlens_core::metrics::gate_view::GateAnswer`]).
    Gate(GateQuery),
    /// One model's fired gate rows (a list of `GateRow`).
    GateFired {
        /// Corpus name.
        corpus: String,
        /// Model key.
        model: String,
    },
}

impl ViewQuery {
    /// Whether the rows read ahead of a v2 bundle's whole (its questions, rankings and gate
    /// rows: [`runlens_core::bundle::v2::read_ranking_tables`]) answer it; a ranking
    /// question's list of cells needs the whole bundle.
    pub fn answered_early(&self) -> bool {
        !matches!(self, ViewQuery::RankingQuestion { .. })
    }
}

/// What the answers keep between questions about one bundle.
#[derive(Default)]
struct Answerers {
    ranking: RankingAnswerer,
    gate: GateAnswerer,
}

thread_local! {
    /// Keyed by the bundle's content hash and address (see `crate::per_bundle`).
    static ANSWERERS: RefCell<PerBundle<(String, usize), Answerers>> = RefCell::default();
}

/// The answer to `query` about `bundle`, as JSON, with the bundle's table matcher from
/// `crate::bundle_matcher` (compiled once per bundle; answering from the gold SQL's parses
/// once the loader installed them). The loader worker and the page both answer with this, in
/// the `queries` chunk, so the matcher's regex and SQL parser code stays out of the first load.
pub fn answer_json(bundle: &Bundle, query: &ViewQuery) -> Vec<u8> {
    let matcher = || crate::bundle_matcher::bundle_matcher(bundle);
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
        };
        // Answers are plain data (no maps with non-string keys): writing them cannot fail.
        json.unwrap_or_default()
    })
}

/// Asks the owner of the shown data `query` about `bundle` (the bundle the view was given):
/// the loader worker when it loaded that bundle, else the page itself.
pub async fn ask<T: DeserializeOwned>(
    bundle: &Arc<Bundle>,
    query: ViewQuery,
) -> Result<T, LoadError> {
    let worker = CURRENT.with_borrow(|c| {
        c.as_ref()
            .filter(|c| c.state.borrow().holds(bundle))
            .and_then(|c| c.worker.clone().map(|w| (w, c.state.clone())))
    });
    let json = match worker {
        Some((worker, state)) => {
            ask_worker(&worker, &state, |id| ToWorker::Query { id, query }).await?
        }
        None => crate::split_points::split_call!(answer_query(bundle, &query))
            .map_err(|e| LoadError::Loader(e.to_string()))?,
    };
    serde_json::from_slice(&json)
        .map_err(|e| LoadError::Loader(format!("loader: a malformed answer ({e})")))
}
