//! The question × model matrix: one row per question, one column per model, each cell
//! coloured (and marked with a symbol) by the run's outcome; filters (failures only, a
//! sub-mode, a search over the question text), a sort by difficulty, the corpus and the
//! models all live in the URL. A cell opens that trajectory. The counts are the data owner's
//! answer ([`ViewQuery::Matrix`]); the rows come in pages as they scroll into view
//! ([`grid::MatrixGrid`], virtualised on both axes).

mod controls;
pub mod grid;
mod marks;
pub mod url;

use std::sync::Arc;

use leptos::prelude::*;
use runlens_core::bundle::Bundle;
use runlens_core::metrics::matrix_view::{MatrixAnswer, MatrixQuery};

use crate::derived::answers::ViewQuery;
use crate::derived::newest_answer::NewestAnswer;
use crate::state::{UrlState, relabels_in_force};
use controls::MatrixControls;
use grid::MatrixGrid;
use marks::Legend;

/// The matrix view of a loaded bundle.
#[component]
pub fn MatrixView(
    /// The loaded bundle (whose owner answers).
    bundle: Arc<Bundle>,
) -> impl IntoView {
    let state = UrlState::use_context();
    let relabels = relabels_in_force();
    let query = Memo::new(move |_| {
        let relabels = relabels.get();
        state.with(|s| MatrixQuery {
            corpus: s.corpus.clone(),
            models: s.models.clone(),
            failures_only: s.matrix.failures_only,
            sub_mode: s.matrix.sub_mode.clone(),
            search: s.matrix.search.clone(),
            sort: s.matrix.sort,
            relabels,
        })
    });
    // The last answer stays shown beside an error, and while the next is computed.
    let asked = NewestAnswer::<_, MatrixAnswer>::ask(bundle.clone(), query, ViewQuery::Matrix);
    let answer = Memo::new(move |_| asked.last_answer());
    let error = move || asked.error();
    let pending = move || asked.pending();
    // Whether an answer is in and has a corpus: the controls mount once (typing in the
    // search keeps its focus); the counts, legend and grid follow each answer.
    let has_corpus = Memo::new(move |_| answer.with(|a| a.as_ref().map(|a| a.corpus.is_some())));
    let shown = move || match has_corpus.get()? {
        false => Some(view! { <p>"This bundle has no results (results.jsonl)."</p> }.into_any()),
        true => {
            let bundle = bundle.clone();
            Some(
                view! {
                    <MatrixControls answer=answer />
                    {move || answer.get().map(|a| {
                        let questions = a.questions;
                        view! {
                            <p class="matrix-count">
                                <span data-metric="matrix:rows" data-value=a.rows.to_string()>{a.rows.to_string()}</span>
                                {format!(" of {questions} questions × {} models", a.models.len())}
                            </p>
                            <Legend counts=a.counts.clone() />
                        }
                    })}
                    <p class="matrix-hint">"A cell opens its trajectory (j / k then walk that question's models). \
                        With the grid focused, the arrow keys move and Enter opens."</p>
                    {move || answer.get().map(|a| view! { <MatrixGrid bundle=bundle.clone() query=query answer=(*a).clone() /> })}
                }
                .into_any(),
            )
        }
    };
    view! {
        <section class="matrix" data-testid="matrix-view" data-pending=move || pending().to_string()>
            <h2>"Questions × models"</h2>
            {move || error().map(|e| view! {
                <p class="error" role="alert">{format!("The matrix could not be computed: {e}")}</p>
            })}
            {move || (answer.with(Option::is_none) && error().is_none()).then(|| view! {
                <p class="notice" role="status" data-testid="matrix-loading">"Building the matrix…"</p>
            })}
            {shown}
        </section>
    }
}

crate::pages::views::lazy_view! {
    /// The question × model matrix. In a chunk of its own (`split_matrix`).
    matrix: MatrixView
}

/// This view in the registry (`pages::registry`).
pub const VIEW: crate::pages::views::ViewDef = crate::pages::views::ViewDef {
    tab: crate::state::Tab::Matrix,
    label: "Matrix",
    needs: crate::pages::views::Needs::WholeForAnswers,
    code: crate::pages::views::Code::Chunk(CHUNK),
};
