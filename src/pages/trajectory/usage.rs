//! What the run spent (turns, latency, tokens, with the per-call token chart from
//! `usage.per_turn`) and its final answer, as the story tells them after the queries.

use leptos::prelude::*;
use runlens_charts::{TurnTokens, TurnTokensChart};
use runlens_core::bundle::Cell;

use crate::components::{AnyChart, ChartCanvas, ExportButtons, caption};
use crate::theme::chart_theme;

fn opt<T: ToString>(v: Option<T>) -> String {
    v.map_or_else(|| "unknown".to_owned(), |v| v.to_string())
}

/// The run's final answer (and its runner error, if any).
#[component]
pub fn FinalAnswer(
    /// The cell.
    cell: Cell,
) -> impl IntoView {
    view! {
        <section class="trajectory-answer">
            <h4>"Final answer"</h4>
            {match cell.final_answer.clone() {
                Some(a) => view! { <pre class="final-answer" data-testid="final-answer">{a}</pre> }.into_any(),
                None => view! { <p class="hint" data-testid="final-answer">"No final answer."</p> }.into_any(),
            }}
            {cell.error.clone().map(|e| view! { <p class="result-error">"Runner error: " {e}</p> })}
        </section>
    }
}

/// What the run spent: turns, latency, tokens and the tokens of each model call. The harness
/// does not record which call issued which query (harness-formats §3.2), so the calls are
/// told apart from the queries.
#[component]
pub fn UsageSection(
    /// The cell.
    cell: Cell,
    /// `<model>/<trace>` for captions and file names.
    key: String,
) -> impl IntoView {
    let usage = cell.usage.clone().unwrap_or_default();
    let per_turn = usage.per_turn.clone().unwrap_or_default();
    let latency = cell
        .latency
        .map_or_else(|| "unknown".to_owned(), |s| format!("{s:.2} s"));
    let missing = usage.calls_missing_usage().filter(|n| *n > 0);
    let chart = Signal::derive({
        let turns: Vec<TurnTokens> = per_turn
            .iter()
            .map(|t| TurnTokens::from_per_turn(*t))
            .collect();
        move || {
            AnyChart::TurnTokens(TurnTokensChart {
                title: "Tokens per model call".into(),
                turns: turns.clone(),
                theme: chart_theme(),
            })
        }
    });
    let caption_text = caption(&format!(
        "trajectory {key} · input = prompt + cache; output includes reasoning"
    ));
    let has_chart = !per_turn.is_empty();
    let base = format!("turn-tokens-{}", key.replace(['/', ' '], "-"));
    view! {
        <section class="trajectory-usage">
            <h4>"What it spent"</h4>
            <dl class="headline" data-testid="trajectory-usage">
                <div><dt>"turns"</dt><dd data-value=opt(cell.turns)>{opt(cell.turns)}</dd></div>
                <div><dt>"latency"</dt><dd data-value=opt(cell.latency)>{latency}</dd></div>
                <div><dt>"total tokens"</dt><dd data-value=opt(usage.total_tokens())>{opt(usage.total_tokens())}</dd></div>
                <div><dt>"prompt"</dt><dd>{opt(usage.prompt_tokens())}</dd></div>
                <div><dt>"completion"</dt><dd>{opt(usage.completion_tokens())}</dd></div>
                <div><dt>"reasoning"</dt><dd>{opt(usage.reasoning_tokens())}</dd></div>
                <div><dt>"cache read / write"</dt><dd>{format!("{} / {}", opt(usage.cache_read_tokens()), opt(usage.cache_write_tokens()))}</dd></div>
            </dl>
            {cell.served_model.clone().map(|m| view! { <p class="hint">"Served model: " <code>{m}</code></p> })}
            {missing.map(|n| view! { <p class="hint">{format!("{n} calls reported no usage: totals are lower bounds.")}</p> })}
            {has_chart.then(|| view! {
                <ChartCanvas id="trajectory-turn-tokens" chart=chart height=240 caption=caption_text.clone() />
                <ExportButtons base_name=base canvas_id="trajectory-turn-tokens" chart=chart
                    caption=caption_text svg_size=(720, 240) />
            })}
            {has_chart.then(|| view! { <p class="hint">"The harness records each model call's tokens, not which call ran which query."</p> })}
            {(!has_chart).then(|| view! { <p class="hint">"No per-call usage recorded."</p> })}
        </section>
    }
}
