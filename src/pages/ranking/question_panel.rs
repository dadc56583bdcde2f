//! One question (URL `question=`): P(yes) for every table with the threshold and gold tables
//! marked — the published per-question figure — the high-confidence set and what the
//! in-loop gate would use.

use std::sync::Arc;

use leptos::prelude::*;
use runlens_core::bundle::Bundle;
use runlens_core::metrics::gate_preview::gate_preview;
use runlens_core::metrics::question_rows::QuestionRow;
use runlens_core::metrics::ranking_view::{QuestionAnswer, RankingQuery};
use runlens_core::metrics::report::ReportOptions;

use runlens_charts::{AnyChart, ProbabilityBar, ProbabilityChart};

use crate::components::{ChartCanvas, ExportButtons, MetricValue, caption};
use crate::derived::answers::ViewQuery;
use crate::derived::newest_answer::NewestAnswer;
use crate::pages::relabel::RerankPanel;
use crate::state::{OverridesState, UrlState};
use crate::theme::chart_theme;

/// A cell of the open question: `(corpus, model key, outcome)`.
pub type CellLink = (String, String, String);

/// The open question (asked of the data's owner in full: its row with every table's
/// score, and its cells), or a notice when `question=` names no row of the shown corpus.
#[component]
pub fn QuestionPanel(
    /// The bundle the view shows.
    bundle: Arc<Bundle>,
    /// The view's choices (corpus, gold rule, threshold).
    query: Memo<RankingQuery>,
    /// Every question row of the shown corpus (to know at once whether the id is one).
    #[prop(into)]
    rows: Signal<Arc<Vec<QuestionRow>>>,
) -> impl IntoView {
    let state = UrlState::use_context();
    let id = Memo::new(move |_| state.with(|s| s.ranking.question.clone()));
    let known = Memo::new(move |_| {
        let id = id.get()?;
        rows.with(|r| r.iter().any(|q| q.trace_id == id))
            .then_some(id)
    });
    let asked = Memo::new(move |_| (known.get(), query.get()));
    let answer = NewestAnswer::<_, QuestionAnswer>::ask_when(bundle, asked, |(id, query)| {
        id.map(|trace_id| ViewQuery::RankingQuestion { query, trace_id })
    });
    let current = move || {
        let id = known.get()?;
        answer
            .answer_with_query()
            .filter(|((t, _), _)| t.as_ref() == Some(&id))
            .map(|(_, a)| (*a).clone())
    };
    let missing = move || {
        id.get()
            .filter(|_| known.with(Option::is_none) && rows.with(|r| !r.is_empty()))
    };
    view! {
        {move || missing().map(|id| view! {
            <p class="notice" data-testid="question-missing">
                "Question " <code>{id}</code> " is not in this corpus's ranking rows."
            </p>
        })}
        {move || answer.error().map(|e| view! {
            <p class="error" role="alert" data-testid="question-error">{format!("This question could not be shown: {e}")}</p>
        })}
        {move || current().and_then(|a| {
            let row = a.row?;
            let trace = row.trace_id.clone();
            Some(view! { <QuestionDetail row=row /> <QuestionCells trace=trace cells=a.cells /> })
        })}
    }
}

/// The question's model cells with their outcome; each opens the trajectory viewer.
#[component]
fn QuestionCells(trace: String, cells: Vec<CellLink>) -> impl IntoView {
    let state = UrlState::use_context();
    (!cells.is_empty()).then(|| {
        view! {
            <section class="question-cells" data-testid="question-cells">
                <h4>"Trajectories on this question"</h4>
                <ul>{cells.into_iter().map(|(corpus, model, outcome)| {
                    let (t, label) = (trace.clone(), format!("{model}: {outcome}"));
                    view! { <li><button class="link" data-model=model.clone() on:click=move |_| {
                        state.push(|s| s.open_cell(&corpus, &model, &t, "question"));
                    }>{label}</button></li> }
                }).collect_view()}</ul>
            </section>
        }
    })
}

#[component]
fn QuestionDetail(row: QuestionRow) -> impl IntoView {
    let state = UrlState::use_context();
    let t = state.with_untracked(|s| s.ranking.threshold);
    let options = ReportOptions {
        confidence_threshold: t,
        ..ReportOptions::default()
    };
    let gate = gate_preview(&row, &options);
    let close = move |_| state.push(|s| s.ranking.question = None);
    let rerank = OverridesState::use_context().map(|o| {
        let bundle = o.base.get_value();
        view! { <RerankPanel bundle=bundle row=row.clone() /> }
    });
    let height = 70 + 22 * row.scores.len().max(1) as u32;
    let chart = Signal::derive({
        let row = row.clone();
        move || {
            AnyChart::Probability(ProbabilityChart {
                title: if row.question.is_empty() {
                    row.trace_id.clone()
                } else {
                    row.question.clone()
                },
                bars: row
                    .scores
                    .iter()
                    .map(|s| ProbabilityBar {
                        table: s.table.clone(),
                        p: s.p,
                        is_gold: s.is_gold,
                    })
                    .collect(),
                threshold: t,
                theme: chart_theme(),
                label_width: 190,
            })
        }
    });
    let caption_text = caption(&format!("question {} · t = {t}", row.trace_id));
    let hc = row.high_confidence_score;
    let in_set = |table: &str| row.high_confidence.iter().any(|h| h == table);
    let table_rows: Vec<_> = row
        .scores
        .iter()
        .enumerate()
        .map(|(i, s)| (i + 1, s.table.clone(), s.p, s.is_gold, in_set(&s.table)))
        .collect();
    let missing_gold: Vec<String> = row
        .gold
        .iter()
        .filter(|g| !row.scores.iter().any(|s| &s.table == *g))
        .cloned()
        .collect();
    view! {
        <article class="question-detail" data-testid="question-detail" data-trace=row.trace_id.clone()>
            <header class="question-head">
                <h3>{format!("Question {}", row.trace_id)}</h3>
                <button class="close" on:click=close aria-label="Close the question">"Close"</button>
            </header>
            <p class="question-text">{row.question.clone()}</p>
            <p>
                "gold tables: " {row.gold.join(", ")}
                {row.gold_fallback.then_some(" (stored gold: no gold SQL to parse)")}
            </p>
            <Show when={let m = missing_gold.clone(); move || !m.is_empty()}>
                <p class="notice">{format!("Not in the ranking at all: {}", missing_gold.join(", "))}</p>
            </Show>
            <dl class="headline">
                <div><dt>"nDCG@10"</dt><dd><MetricValue name="question:ndcg@10" value=row.ndcg_at_10 /></dd></div>
                <div><dt>"recall@5"</dt><dd><MetricValue name="question:recall@5" value=row.recall_at_5 /></dd></div>
                <div><dt>"k*"</dt><dd>{row.k_star.map_or_else(|| "never".to_owned(), |k| k.to_string())}</dd></div>
                <div><dt>{format!("set size (P ≥ {t})")}</dt><dd><MetricValue name="question:hc_size" value=hc.size as f64 digits=0 /></dd></div>
                <div><dt>"set precision"</dt><dd><MetricValue name="question:hc_precision" value=hc.precision /></dd></div>
                <div><dt>"set recall"</dt><dd><MetricValue name="question:hc_recall" value=hc.recall /></dd></div>
            </dl>
            <ChartCanvas id="question-probabilities" chart=chart height=height caption=caption_text.clone() />
            <ExportButtons base_name=format!("question-{}", row.trace_id) canvas_id="question-probabilities"
                chart=chart caption=caption_text svg_size=(720, height) />
            <details>
            <summary>"Every table with its P(yes)"</summary>
            <table class="questions scores" data-testid="question-scores">
                <thead><tr><th>"rank"</th><th>"table"</th><th>"P(yes)"</th><th>"gold"</th><th>{format!("P ≥ {t}")}</th></tr></thead>
                <tbody>
                    {table_rows.into_iter().map(|(rank, table, p, gold, set)| view! {
                        <tr class:gold=gold data-table=table.clone()>
                            <td class="num">{rank}</td>
                            <td>{table.clone()}</td>
                            <td class="num" data-value=p.to_string()>{format!("{p:.4}")}</td>
                            <td>{if gold { "★ gold" } else { "" }}</td>
                            <td>{if set { "in set" } else { "" }}</td>
                        </tr>
                    }).collect_view()}
                </tbody>
            </table>
            </details>
            {rerank}
            <section class="gate-preview">
                <h4>"What the gate would say"</h4>
                <p>
                    {format!("Confident set (P ≥ {}): ", gate.min_p)}
                    <strong>{gate.confident.join(", ")}</strong>
                    {gate.confident_is_fallback.then_some(" — no table reaches the threshold, so the gate falls back to the top-ranked table")}
                </p>
                <p class="hint">"Divergence mode fires at most once, after a query whose tables (and every table read before it) miss the confident set, with this hint:"</p>
                <pre class="prompt-text">{gate.hint.clone()}</pre>
                <p class="hint">"Prepend mode always puts this note before the system prompt:"</p>
                <pre class="prompt-text">{gate.note.clone()}</pre>
            </section>
        </article>
    }
}
