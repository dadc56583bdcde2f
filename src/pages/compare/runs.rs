//! Two loaded runs compared: each run's scores are asked of the worker that holds it (the
//! two workers answer at once), and the page pairs them with the CLI's code
//! (`runlens_core::metrics::compare::compare_scores`).

use std::sync::Arc;

use leptos::prelude::*;
use runlens_core::bundle::{Bundle, LossRule};
use runlens_core::metrics::compare::{CompareError, RunCompare, compare_scores};
use runlens_core::metrics::run_scores::RunScores;

use super::flips::{CorpusPair, Flips};
use super::failures::CompareFailures;
use super::forest::DeltaForest;
use super::retrieval::CompareRetrieval;
use super::table::DeltaTable;
use crate::components::{HashNotice, hash_disagrees, short_hash};
use crate::derived::answers::ViewQuery;
use crate::derived::newest_answer::NewestAnswer;
use crate::state::UrlState;
use crate::yield_now::ready_after_tasks;

/// Which run is which, with their hashes (and the link's notice when B changed).
#[component]
fn RunsHeader(a: Arc<Bundle>, b: Arc<Bundle>, source_b: String) -> impl IntoView {
    let state = UrlState::use_context();
    let source_a = state.with_untracked(|s| s.bundle.clone()).unwrap_or_default();
    // The link's `ch=` as opened; from now on the address carries run B's hash.
    let link_hash = state
        .with_untracked(|s| s.compare.hash.clone())
        .unwrap_or_default();
    let mismatch = hash_disagrees(&link_hash, &b.content_hash);
    let hash_b = short_hash(&b.content_hash);
    let for_url = hash_b.clone();
    state.replace(|s| s.compare.hash = Some(for_url));
    let line = |which: &'static str, source: String, bundle: &Bundle| {
        let created = bundle.provenance.created_at.clone();
        view! {
            <li data-testid=format!("compare-run-{}", which.to_lowercase())
                data-hash=bundle.content_hash.clone()>
                <strong>{format!("Run {which}: ")}</strong>
                <code class="source">{source}</code>
                " · bundle " <code>{short_hash(&bundle.content_hash)}</code>
                {(!created.is_empty()).then(|| format!(" · created {created}"))}
            </li>
        }
    };
    let choose_again = move |_| {
        state.push(|s| {
            s.compare = Default::default();
        });
    };
    view! {
        {mismatch.then(|| view! { <HashNotice link_hash=link_hash.clone() bundle_hash=hash_b.clone() /> })}
        <ul class="compare-which">
            {line("A", source_a, &a)}
            {line("B", source_b, &b)}
        </ul>
        <button type="button" data-testid="compare-choose" on:click=choose_again>
            "Compare with another run"
        </button>
    }
}

/// `a` against `b`: per corpus, the table and forest plot of the models' paired differences,
/// or why the runs cannot be compared.
#[component]
pub fn CompareRuns(a: Arc<Bundle>, b: Arc<Bundle>, source_b: String) -> impl IntoView {
    let state = UrlState::use_context();
    let header = view! { <RunsHeader a=a.clone() b=b.clone() source_b=source_b /> };
    if a.content_hash == b.content_hash {
        let e = CompareError::SameRun {
            hash: a.content_hash.clone(),
        };
        return view! { {header} <CannotCompare message=e.to_string() /> }.into_any();
    }
    let loss = Memo::new(move |_| state.with(|s| s.leaderboard.loss));
    let scores_a =
        NewestAnswer::<LossRule, RunScores>::ask(a.clone(), loss, |loss| ViewQuery::Scores { loss });
    let scores_b =
        NewestAnswer::<LossRule, RunScores>::ask(b.clone(), loss, |loss| ViewQuery::Scores { loss });
    let corpus = Memo::new(move |_| state.with(|s| s.corpus.clone()));
    // `None` until both runs answered; then the comparison or why there is none.
    let compared = Memo::new(move |_| {
        if let Some(e) = scores_a.error().or_else(|| scores_b.error()) {
            return Some(Err(format!("The runs' scores could not be read: {e}")));
        }
        let (sa, sb) = (scores_a.answer()?, scores_b.answer()?);
        Some(
            compare_scores(&sa, &sb, corpus.get().as_deref())
                .map(|result| (Arc::new(result), sa, sb))
                .map_err(|e| e.to_string()),
        )
    });
    let body = move || match compared.get() {
        None => view! {
            <p class="notice" role="status" data-testid="compare-loading">
                "Reading both runs' scores…"
            </p>
        }
        .into_any(),
        Some(Err(message)) => view! { <CannotCompare message=message /> }.into_any(),
        Some(Ok((result, sa, sb))) => {
            let runs = Runs {
                a: a.clone(),
                b: b.clone(),
                scores_a: sa,
                scores_b: sb,
            };
            view! { <Compared result=result runs=runs /> }.into_any()
        }
    };
    view! {
        {header}
        <LossSwitch />
        <div data-testid="compare-body" data-answered=move || compared.with(Option::is_some).to_string()>
            {body}
        </div>
    }
    .into_any()
}

/// Why the two runs cannot be compared, in plain words.
#[component]
fn CannotCompare(message: String) -> impl IntoView {
    view! {
        <p class="error" role="alert" data-testid="compare-error">
            {format!("These runs cannot be compared: {message}")}
        </p>
    }
}

/// The leaderboard's "loss as fail" switch (`loss=fail`), which the comparison honours.
#[component]
fn LossSwitch() -> impl IntoView {
    let state = UrlState::use_context();
    let on = move || state.with(|s| s.leaderboard.loss == LossRule::AsFail);
    view! {
        <label class="compare-loss">
            <input type="checkbox" data-testid="compare-loss" prop:checked=on
                on:change=move |ev| {
                    let checked = event_target_checked(&ev);
                    state.push(move |s| s.leaderboard.loss = if checked { LossRule::AsFail } else { LossRule::Excluded });
                } />
            " score legacy " <code>"loss"</code> " cells as fail (as the leaderboard's switch)"
        </label>
    }
}

/// Both runs and their scores.
#[derive(Clone)]
struct Runs {
    a: Arc<Bundle>,
    b: Arc<Bundle>,
    scores_a: Arc<RunScores>,
    scores_b: Arc<RunScores>,
}

impl Runs {
    /// Both runs' scores of corpus `name`, with the bundles.
    fn pair(&self, name: &str) -> Option<CorpusPair> {
        Some(CorpusPair {
            a: Arc::new(self.scores_a.corpus(name)?.clone()),
            b: Arc::new(self.scores_b.corpus(name)?.clone()),
            bundle_a: self.a.clone(),
            bundle_b: self.b.clone(),
        })
    }
}

/// Every compared corpus.
#[component]
fn Compared(result: Arc<RunCompare>, runs: Runs) -> impl IntoView {
    let state = UrlState::use_context();
    let a = runs.a.clone();
    // Each corpus after the one before it, its plot and changed questions a task after its
    // table: one task for everything was 181 ms on `large` (docs/performance.md).
    result
        .corpora
        .iter()
        .filter(|c| state.with_untracked(|s| s.shows_corpus(&c.name)))
        .enumerate()
        .map(|(i, c)| {
            let pair = runs.pair(&c.name);
            let c = Arc::new(c.clone());
            let (only_a, only_b) = (names(&runs.a, &c.only_in_a), names(&runs.b, &c.only_in_b));
            let table_ready = ready_after_tasks(2 * i as u32);
            let rest_ready = ready_after_tasks(2 * i as u32 + 1);
            let (a, table_c, rest_c, rest_a) = (a.clone(), c.clone(), c.clone(), a.clone());
            let rest_b = runs.b.clone();
            let table = move || {
                table_ready
                    .get()
                    .then(|| view! { <DeltaTable corpus=table_c.clone() bundle=a.clone() /> })
            };
            let rest = move || {
                let c = rest_c.clone();
                rest_ready.get().then(|| {
                    view! {
                        <DeltaForest corpus=c.clone() bundle=rest_a.clone() />
                        <OnlyIn which="A" models=only_a.clone() />
                        <OnlyIn which="B" models=only_b.clone() />
                        {pair.clone().map(|pair| view! { <Flips corpus=c.clone() pair=pair /> })}
                        <CompareRetrieval a=rest_a.clone() b=rest_b.clone() corpus=c.name.clone() />
                        <CompareFailures a=rest_a.clone() b=rest_b.clone() corpus=c.name.clone() />
                    }
                })
            };
            view! {
                <section class="compare-corpus" data-corpus=c.name.clone()>
                    <h3>{format!("Corpus {} · {} questions in both runs", c.name, c.questions)}</h3>
                    {table}
                    {rest}
                </section>
            }
        })
        .collect_view()
}

/// The display names of `models` in `bundle`.
fn names(bundle: &Bundle, models: &[String]) -> Vec<String> {
    models
        .iter()
        .map(|m| bundle.body.display_name(m).to_owned())
        .collect()
}

/// The models only one run has.
#[component]
fn OnlyIn(which: &'static str, models: Vec<String>) -> impl IntoView {
    (!models.is_empty()).then(|| {
        view! {
            <p class="compare-only" data-testid=format!("only-in-{}", which.to_lowercase())>
                {format!("Only in run {which} (not compared): ")}
                {models.join(", ")}
            </p>
        }
    })
}
