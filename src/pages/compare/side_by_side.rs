//! One question of one model in both runs, side by side: run A left, run B right, each with
//! its verdict, the queries it ran with the results it saw, and its final answer; then the
//! diff of their SQL (A −, B +). Each cell is asked of the worker that holds its run.

use std::collections::BTreeSet;
use std::sync::Arc;

use leptos::prelude::*;
use runlens_core::bundle::Bundle;
use runlens_core::trajectory::{OpenedCell, gold_set, sql_diff_statements};

use crate::derived::answers::{ViewQuery, ask};
use crate::derived::bundle_matcher::bundle_matcher;
use crate::pages::trajectory::cell_view::{run_title, steps};
use crate::pages::trajectory::results::RunColumn;
use crate::pages::trajectory::sql::DiffView;
use crate::pages::trajectory::usage::FinalAnswer;
use crate::pages::trajectory::verdict::Verdict;

/// A cell as its run's worker answers it: loading, the cell (or none), or why not.
type Asked = Option<Result<Option<OpenedCell>, String>>;

/// Asks `bundle`'s owner for the cell into `into`.
fn ask_cell(bundle: Arc<Bundle>, corpus: String, model: String, trace: String, into: RwSignal<Asked>) {
    leptos::task::spawn_local(async move {
        let query = ViewQuery::Cell {
            corpus,
            model,
            trace,
        };
        let answer = ask::<Option<OpenedCell>>(&bundle, query).await;
        into.try_set(Some(answer.map_err(|e| e.to_string())));
    });
}

/// One run's column.
#[component]
fn RunSide(which: &'static str, bundle: Arc<Bundle>, model: String, asked: RwSignal<Asked>) -> impl IntoView {
    let matcher = bundle_matcher(&bundle);
    let display = bundle.body.display_name(&model).to_owned();
    move || match asked.get() {
        None => view! { <p class="hint">{format!("Reading run {which}'s cell…")}</p> }.into_any(),
        Some(Err(e)) => view! { <p class="error" role="alert">{format!("Run {which}'s cell could not be read: {e}")}</p> }.into_any(),
        Some(Ok(None)) => view! { <p class="hint">{format!("Run {which} has no cell for this question and model.")}</p> }.into_any(),
        Some(Ok(Some(opened))) => {
            let gold: BTreeSet<String> = matcher
                .as_ref()
                .map(|m| gold_set(m, opened.question.as_ref(), opened.ranking.as_ref()))
                .unwrap_or_default();
            let cell = opened.cell;
            let run_steps = steps(
                matcher.as_ref(),
                &cell.sqls,
                &cell.sql_results,
                &gold,
                opened.ranking.as_ref(),
            );
            let title = format!("Run {which}: {}", run_title(&display, cell.sqls.len(), cell.turns));
            view! {
                <Verdict cell=cell.clone() />
                <RunColumn title=title run="candidate" steps=run_steps />
                <FinalAnswer cell=cell />
            }
            .into_any()
        }
    }
}

/// `model` on `trace` in run A and run B.
#[component]
pub fn SideBySide(
    a: Arc<Bundle>,
    b: Arc<Bundle>,
    corpus: String,
    model: String,
    trace: String,
) -> impl IntoView {
    let (in_a, in_b) = (RwSignal::new(None::<Result<Option<OpenedCell>, String>>), RwSignal::new(None));
    ask_cell(a.clone(), corpus.clone(), model.clone(), trace.clone(), in_a);
    ask_cell(b.clone(), corpus.clone(), model.clone(), trace.clone(), in_b);
    let question = move || {
        let text = in_a
            .with(|x| x.as_ref().and_then(|r| r.as_ref().ok().cloned().flatten()))
            .or_else(|| in_b.with(|x| x.as_ref().and_then(|r| r.as_ref().ok().cloned().flatten())))
            .map(|o| o.question_text)
            .unwrap_or_default();
        (!text.is_empty()).then(|| view! { <p class="question-text">{text}</p> })
    };
    let diff = move || {
        let sqls = |x: &Asked| match x {
            Some(Ok(Some(o))) => Some(o.cell.sqls.clone()),
            Some(Ok(None)) => Some(Vec::new()),
            _ => None,
        };
        let (sa, sb) = (in_a.with(sqls)?, in_b.with(sqls)?);
        Some(view! {
            <DiffView lines=sql_diff_statements(&sa, &sb) title="Run A (−) vs run B (+) SQL" />
        })
    };
    let display = a.body.display_name(&model).to_owned();
    let model_b = model.clone();
    view! {
        <article class="side-by-side" data-testid="side-by-side" data-trace=trace.clone() data-model=model.clone()>
            <h4>{format!("{display} on ")} <code>{trace.clone()}</code></h4>
            {question}
            <div class="side-columns">
                <section class="side" data-run="a" aria-label="Run A">
                    <RunSide which="A" bundle=a model=model.clone() asked=in_a />
                </section>
                <section class="side" data-run="b" aria-label="Run B">
                    <RunSide which="B" bundle=b model=model_b asked=in_b />
                </section>
            </div>
            {diff}
        </article>
    }
}
