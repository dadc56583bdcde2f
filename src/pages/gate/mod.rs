//! The gate view: paired on/off runs per model and pooled (cells, fired share, pass rates,
//! net with a bootstrap 95% interval, recovered / regressed, the exact chain, turn and
//! output-token deltas on fired cells, the over-exploring split), a forest plot of the
//! per-model net deltas, and the fired cells of the model chosen (URL `gmodel`).

mod fired;
mod forest;
mod groups;
mod table;

use std::sync::Arc;

use leptos::prelude::*;
use leptos::task::spawn_local;
use runlens_core::bundle::{Bundle, GateRow};
use runlens_core::metrics::gate::GateGroup;

use crate::state::UrlState;
use crate::yield_now::yield_now;
use fired::FiredCells;
use forest::GateForest;
pub use groups::{ALL, counts_only, full, grouping};
use table::GateTable;

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

/// One corpus's gate rows, read from the bundle (not copied: opening the view on `large`
/// spent ~10 ms cloning them).
#[derive(Clone)]
pub struct GateRows {
    bundle: Arc<Bundle>,
    corpus: usize,
}

impl GateRows {
    /// The rows, in file order.
    pub fn rows(&self) -> &[GateRow] {
        self.bundle
            .body
            .corpora
            .get(self.corpus)
            .map_or(&[], |c| &c.gate_rows)
    }
}

/// The view of the chosen corpus (the first with gate rows when none is chosen).
#[component]
fn GateCorpus(bundle: Arc<Bundle>, chosen: Option<String>) -> impl IntoView {
    let state = UrlState::use_context();
    let with_rows: Vec<String> = bundle
        .body
        .corpora
        .iter()
        .filter(|c| !c.gate_rows.is_empty())
        .map(|c| c.name.clone())
        .collect();
    let name = match chosen {
        Some(c) => c,
        None => match with_rows.first() {
            Some(c) => c.clone(),
            None => String::new(),
        },
    };
    let index = bundle
        .body
        .corpora
        .iter()
        .position(|c| c.name == name && !c.gate_rows.is_empty());
    let Some(index) = index else {
        let what = if name.is_empty() {
            "This bundle".to_owned()
        } else {
            format!("Corpus {name}")
        };
        return view! {
            <section class="gate" data-testid="gate-view">
                <h2>"Gate"</h2>
                <p data-testid="gate-empty">{format!(
                    "{what} has no gate rows (out/schema_retrieval_agent.jsonl), so there is no on/off comparison to show."
                )}</p>
                <CorpusPicker corpora=with_rows shown=name.clone() />
            </section>
        }
        .into_any();
    };
    let rows = GateRows {
        bundle: bundle.clone(),
        corpus: index,
    };
    let grouping = Arc::new(grouping(rows.rows()));
    let groups = RwSignal::new(
        grouping
            .iter()
            .map(|(m, idx)| counts_only(rows.rows(), m, idx))
            .collect::<Vec<GateGroup>>(),
    );
    let (ready, set_ready) = signal(false);
    let alive = Arc::new(std::sync::atomic::AtomicBool::new(true));
    {
        let (rows, grouping, alive) = (rows.clone(), grouping.clone(), alive.clone());
        spawn_local(async move {
            for (i, (_, idx)) in grouping.iter().enumerate() {
                yield_now().await;
                if !alive.load(std::sync::atomic::Ordering::Relaxed) {
                    return;
                }
                let mut cis = Vec::with_capacity(3);
                for run in groups::interval_runs(rows.rows(), idx) {
                    let Some(mut run) = run else {
                        cis.push(None);
                        continue;
                    };
                    let per_step = groups::resamples_per_step(run.len());
                    while !run.step(per_step) {
                        yield_now().await;
                        if !alive.load(std::sync::atomic::Ordering::Relaxed) {
                            return;
                        }
                    }
                    cis.push(run.finish());
                }
                let [net, turns, tokens] = <[_; 3]>::try_from(cis).unwrap_or([None, None, None]);
                groups.try_update(|v| {
                    if let Some(slot) = v.get_mut(i) {
                        slot.net_ci = net;
                        slot.turn_delta_ci = turns;
                        slot.output_token_delta_ci = tokens;
                    }
                });
            }
            let _ = set_ready.try_set(true);
        });
    }
    on_cleanup(move || alive.store(false, std::sync::atomic::Ordering::Relaxed));
    let corpus_name = name.clone();
    view! {
        <section class="gate" data-testid="gate-view" data-corpus=name.clone()
            data-ci-ready=move || ready.get().to_string()>
            <h2>"Gate: paired on/off runs"</h2>
            <CorpusPicker corpora=with_rows shown=name.clone() />
            <p class="hint">"Strict pass rates (a tie counts 0) over every row, error rows included. Net = gated − baseline with a paired bootstrap 95% interval (10,000 resamples, seed 42, as runlens metrics)."</p>
            <GateTable groups=groups corpus=name.clone() />
            <GateForest groups=groups corpus=name.clone() />
            {move || state.with(|s| s.gate_model.clone()).map(|m| view! {
                <FiredCells rows=rows.clone() corpus=corpus_name.clone() model=m />
            })}
        </section>
    }
    .into_any()
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
                        state.push(|s| { s.corpus = Some(v); s.gate_model = None; });
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
