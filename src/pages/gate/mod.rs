//! The gate view: paired on/off runs per model and pooled (cells, fired share, pass rates,
//! net with a bootstrap 95% interval, recovered / regressed, the exact chain, turn and
//! output-token deltas on fired cells, the over-exploring split), a forest plot of the
//! per-model net deltas, and the fired cells of the model chosen (URL `gmodel`).

mod fired;
mod forest;
mod table;
pub mod url;

use std::sync::Arc;

use leptos::prelude::*;
use runlens_core::bundle::Bundle;
use runlens_core::metrics::gate_view::{GateAnswer, GateQuery};

use crate::derived::answers::ViewQuery;
use crate::derived::newest_answer::NewestAnswer;
use crate::state::UrlState;
use fired::FiredCells;
use forest::GateForest;
pub use runlens_core::metrics::gate_view::ALL;
use table::{GateHeadline, GateTable};

/// The gate view of a loaded bundle.
#[component]
pub fn GateView(
    /// The loaded bundle.
    bundle: Arc<Bundle>,
) -> impl IntoView {
    let state = UrlState::use_context();
    let chosen = Memo::new(move |_| state.with(|s| s.corpus.clone()));
    move || view! { <GateCorpus bundle=bundle.clone() chosen=chosen.get() /> }
}

/// The view of the chosen corpus (the first with gate rows when none is chosen). Its numbers
/// are answers of the data's owner (the loader worker): the counts first, then the bootstrap
/// intervals (10,000 resamples each: seconds on a large run, never on the page's thread).
#[component]
fn GateCorpus(bundle: Arc<Bundle>, chosen: Option<String>) -> impl IntoView {
    let state = UrlState::use_context();
    // The counts first, then (when the corpus has gate rows) the intervals: two questions,
    // the second asked once the first is answered.
    let corpus = chosen.clone();
    let counts_q = Memo::new(move |_| GateQuery {
        corpus: corpus.clone(),
        intervals: false,
    });
    let counts = NewestAnswer::<_, GateAnswer>::ask(bundle.clone(), counts_q, ViewQuery::Gate);
    let full_q = Memo::new(move |_| {
        let with_rows = counts.answer().is_some_and(|a| !a.groups.is_empty());
        with_rows.then(|| GateQuery {
            corpus: chosen.clone(),
            intervals: true,
        })
    });
    let full =
        NewestAnswer::<_, GateAnswer>::ask_when(bundle.clone(), full_q, |q| q.map(ViewQuery::Gate));
    // Which corpora can be picked, the one shown and whether it has no rows, set by the first
    // answer; an error of either question instead.
    let head = Memo::new(
        move |_| match (counts.answer(), counts.error().or(full.error())) {
            (_, Some(e)) => Some(Err(e)),
            (Some(a), None) => Some(Ok((a.names.clone(), a.shown.clone(), a.groups.is_empty()))),
            (None, None) => None,
        },
    );
    let groups = Memo::new(move |_| {
        full.answer()
            .or_else(|| counts.answer())
            .map(|a| a.groups.clone())
            .unwrap_or_default()
    });
    let ready =
        Memo::new(move |_| full.answered() || counts.answer().is_some_and(|a| a.groups.is_empty()));
    move || {
        match head.get() {
        None => view! {
            <section class="gate" data-testid="gate-view" data-answered="false">
                <h2>"Gate: paired on/off runs"</h2>
                <p class="notice" role="status" data-testid="gate-loading">"Computing the gate groups…"</p>
            </section>
        }
        .into_any(),
        Some(Err(e)) => view! {
            <section class="gate" data-testid="gate-view" data-answered="true">
                <h2>"Gate: paired on/off runs"</h2>
                <p class="error" role="alert">{format!("The gate groups could not be computed: {e}")}</p>
            </section>
        }
        .into_any(),
        Some(Ok((names, name, true))) => {
            let what = if name.is_empty() {
                "This bundle".to_owned()
            } else {
                format!("Corpus {name}")
            };
            view! {
                <section class="gate" data-testid="gate-view" data-answered="true">
                    <h2>"Gate"</h2>
                    <p data-testid="gate-empty">{format!(
                        "{what} has no gate rows (out/schema_retrieval_agent.jsonl), so there is no on/off comparison to show."
                    )}</p>
                    <CorpusPicker corpora=names shown=name.clone() />
                </section>
            }
            .into_any()
        }
        Some(Ok((names, name, false))) => {
            let (corpus_name, b) = (name.clone(), bundle.clone());
            view! {
                <section class="gate" data-testid="gate-view" data-corpus=name.clone()
                    data-answered="true" data-ci-ready=move || ready.get().to_string()>
                    <h2>"Gate: paired on/off runs"</h2>
                    <CorpusPicker corpora=names shown=name.clone() />
                    <GateHeadline groups=groups />
                    <p class="hint">"Strict pass rates (a tie counts 0) over every row, error rows included. Net = gated − baseline pass rate, in percentage points, with a paired bootstrap 95% interval (10,000 resamples, seed 42, as runlens metrics). \"more\" opens a row's details."</p>
                    <GateTable groups=groups corpus=name.clone() bundle=bundle.clone() />
                    <GateForest groups=groups corpus=name.clone() bundle=bundle.clone() />
                    {move || state.with(|s| s.gate.model.clone()).map(|m| view! {
                        <FiredCells bundle=b.clone() corpus=corpus_name.clone() model=m />
                    })}
                </section>
            }
            .into_any()
        }
    }
    }
}

/// Which corpus the view shows (only corpora with gate rows are offered); `shown` is the one
/// shown, also when the URL names none (the select showed nothing then: #17, bug 2).
#[component]
fn CorpusPicker(corpora: Vec<String>, shown: String) -> impl IntoView {
    let state = UrlState::use_context();
    (corpora.len() > 1).then(|| {
        view! {
            <label>"corpus "
                <select data-testid="gate-corpus"
                    prop:value=shown.clone()
                    on:change=move |ev| {
                        let v = event_target_value(&ev);
                        state.push(|s| { s.corpus = Some(v); s.gate.model = None; });
                    }>
                    {corpora.into_iter().map(|c| {
                        let (selected, label) = (c == shown, c.clone());
                        view! { <option value=c selected=selected>{label}</option> }
                    }).collect_view()}
                </select>
            </label>
        }
    })
}

crate::pages::views::lazy_view! {
    /// The gate view. In a chunk of its own (`split_gate`).
    gate: GateView
}

/// This view in the registry (`pages::registry`).
pub const VIEW: crate::pages::views::ViewDef = crate::pages::views::ViewDef {
    tab: crate::state::Tab::Gate,
    label: "Gate",
    needs: crate::pages::views::Needs::Summary,
    code: crate::pages::views::Code::Chunk(CHUNK),
};
