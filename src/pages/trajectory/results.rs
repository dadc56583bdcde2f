//! A run's steps (statement, tables, result) and each `sql_results` entry as core's
//! [`ResultView`]: a table, `(empty result)`, `Error: …`, truncated or unparsed text, each
//! shown distinctly.

use leptos::prelude::*;
use runlens_core::trajectory::{ResultView, Step};

use super::sql::{SqlCode, TableMarks};

/// One result.
#[component]
pub fn ResultBlock(result: Option<ResultView>) -> impl IntoView {
    match result {
        None => view! { <p class="result-none hint" data-result="none">"No result recorded."</p> }
            .into_any(),
        Some(ResultView::Empty) => view! {
            <p class="result-empty" data-result="empty">"(empty result)"</p>
        }
        .into_any(),
        Some(ResultView::Error(message)) => view! {
            <p class="result-error" data-result="error" role="note">
                <strong>"Error: "</strong><span class="error-message">{message}</span>
            </p>
        }
        .into_any(),
        Some(ResultView::Text { text, note }) => view! {
            <div class="result-text" data-result="text">
                <p class="hint">{format!("Not shown as a table: {note}")}</p>
                <pre>{text}</pre>
            </div>
        }
        .into_any(),
        Some(ResultView::Table {
            columns,
            rows,
            truncated,
            partial_line_dropped,
        }) => {
            let n = rows.len();
            let kind = if truncated { "truncated" } else { "table" };
            view! {
                <div class="result-table" data-result=kind>
                    <table class="result">
                        <thead><tr>{columns.into_iter().map(|c| view! { <th>{c}</th> }).collect_view()}</tr></thead>
                        <tbody>
                            {rows.into_iter().map(|row| view! {
                                <tr>{row.into_iter().map(|v| match v {
                                    Some(v) => view! { <td>{v}</td> }.into_any(),
                                    None => view! { <td class="missing" title="no such column in this row">"—"</td> }.into_any(),
                                }).collect_view()}</tr>
                            }).collect_view()}
                        </tbody>
                    </table>
                    <p class="hint">{format!("{n} row{}", if n == 1 { "" } else { "s" })}</p>
                    {truncated.then(|| view! {
                        <p class="result-truncated" data-testid="result-truncated">
                            "Truncated: the warehouse cut this result at 30,000 characters, so rows are missing"
                            {partial_line_dropped.then_some(" (a cut-off last row was dropped)")} "."
                        </p>
                    })}
                </div>
            }
            .into_any()
        }
    }
}

/// One run (gold or candidate) as a list of steps.
#[component]
pub fn RunColumn(
    /// Heading, e.g. `Gold (claude-sonnet)`.
    title: String,
    /// `gold` or `candidate` (the `data-run` attribute).
    run: &'static str,
    /// The steps.
    steps: Vec<Step>,
) -> impl IntoView {
    let empty = steps.is_empty();
    view! {
        <section class=format!("run run-{run}") data-run=run>
            <h4>{title}</h4>
            {empty.then(|| view! { <p class="hint">"No SQL statements."</p> })}
            <ol class="steps">
                {steps.into_iter().map(|s| view! {
                    <li class="step" data-step=s.index>
                        <SqlCode spans=s.sql />
                        <TableMarks tables=s.tables />
                        <ResultBlock result=s.result />
                    </li>
                }).collect_view()}
            </ol>
        </section>
    }
}
