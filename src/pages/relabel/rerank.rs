//! Re-ranking one question: re-asks the harness's per-table yes/no questions
//! (harness-formats.md §5.3) and shows the new ranking and its metrics beside the recorded.

use std::collections::HashSet;
use std::sync::Arc;

use leptos::prelude::*;
use leptos::task::spawn_local;
use runlens_core::bundle::Bundle;
use runlens_core::jev::retrieval_request::{
    DEFAULT_MAX_SCHEMA_CHARS, rank_tables, retrieval_request, schema_text,
};
use runlens_core::metrics::question_rows::QuestionRow;
use runlens_core::metrics::ranking::{all_required_at_k, ndcg_at_k, recall_at_k};

use super::token_prompt::{TokenPrompt, token_needed};
use super::transport::{Jev, LOCAL_MODEL_ID, OFFLINE_WARNING, explain, proxy_base};
use crate::components::MetricValue;
use crate::state::UrlState;

/// A new ranking: tables with P(yes), model id, latency.
#[derive(Debug, Clone, PartialEq)]
struct Reranked {
    ranked: Vec<(String, f64)>,
    model: String,
    latency_ms: f64,
}

/// The re-rank panel of a question row (recorded ranking, gold set and metrics).
#[component]
pub fn RerankPanel(bundle: Arc<Bundle>, row: QuestionRow) -> impl IntoView {
    let jev = Jev::use_context();
    let base = proxy_base();
    let k = UrlState::use_context()
        .with_untracked(|s| s.ranking.k)
        .max(1);
    let schema_only = RwSignal::new(false);
    let result = RwSignal::new(None::<Result<Reranked, String>>);
    let busy = RwSignal::new(false);
    let prompt = bundle.body.schema_prompt.as_ref().map(|p| p.text.clone());
    let universe = bundle.body.universe.clone();
    let question = row.question.clone();
    let has_prompt = prompt.is_some();
    let needs_token = RwSignal::new(None::<bool>);
    let ask = Callback::new(move |()| {
        let Some(prompt) = prompt.clone() else { return };
        let schema = schema_text(
            &prompt,
            DEFAULT_MAX_SCHEMA_CHARS,
            schema_only.get_untracked(),
        );
        let request = retrieval_request(&question, &schema, &universe);
        let (jev, base, universe) = (jev.clone(), base.clone(), universe.clone());
        busy.set(true);
        needs_token.set(None);
        spawn_local(async move {
            let reply = jev.0.ask(&base, &request).await;
            match reply {
                Err(e) if let Some(refused) = token_needed(&e) => {
                    result.try_set(None);
                    needs_token.try_set(Some(refused));
                }
                reply => {
                    let r = reply
                        .map(|(response, latency_ms, _)| Reranked {
                            ranked: rank_tables(&universe, &response.answers),
                            model: response.model,
                            latency_ms,
                        })
                        .map_err(|e| explain(&e, &base));
                    result.try_set(Some(r));
                }
            }
            busy.try_set(false);
        });
    });
    let gold: HashSet<String> = row.gold.iter().cloned().collect();
    let recorded = row
        .scores
        .iter()
        .map(|s| (s.table.clone(), s.p))
        .collect::<Vec<_>>();
    let old = (row.ndcg_at(10), row.recall_at(k), row.all_required_at(k));
    let shown = move || {
        result.get().map(|r| match r {
            Err(e) => view! { <p class="error" role="alert" data-testid="rerank-error">{e}</p> }
                .into_any(),
            Ok(new) => comparison(&recorded, &new, &gold, old, k).into_any(),
        })
    };
    view! {
        <section class="rerank-panel" data-testid="rerank-panel">
            <h4>"Re-rank with Jev"</h4>
            <Show when=move || has_prompt fallback=|| view! {
                <p class="notice">"This bundle has no schema prompt, so the ranking request cannot be rebuilt."</p>
            }>
                <label><input type="checkbox" on:change=move |ev| schema_only.set(event_target_checked(&ev)) />
                    " schema only (--schema-only)"</label>
                " "
                <button data-testid="rerank-ask" on:click=move |_| ask.run(()) disabled=move || busy.get()>
                    {move || if busy.get() { "Asking…" } else { "Re-rank" }}
                </button>
            </Show>
            {shown}
            {move || needs_token.get().map(|refused| view! { <TokenPrompt refused retry=ask /> })}
        </section>
    }
}

fn comparison(
    recorded: &[(String, f64)],
    new: &Reranked,
    gold: &HashSet<String>,
    old: (f64, f64, bool),
    k: usize,
) -> impl IntoView + use<> {
    let names: Vec<&str> = new.ranked.iter().map(|(t, _)| t.as_str()).collect();
    let ndcg = ndcg_at_k(&names, gold, 10);
    let recall = recall_at_k(&names, gold, k);
    let all = all_required_at_k(&names, gold, k);
    let n = recorded.len().max(new.ranked.len());
    let cell = |list: &[(String, f64)], i: usize| {
        list.get(i).map(|(t, p)| {
            let star = if gold.contains(t) { " ★" } else { "" };
            format!("{t}{star} ({p:.3})")
        })
    };
    let rows: Vec<(usize, String, String)> = (0..n)
        .map(|i| {
            (
                i + 1,
                cell(recorded, i).unwrap_or_default(),
                cell(&new.ranked, i).unwrap_or_default(),
            )
        })
        .collect();
    let offline = (new.model == LOCAL_MODEL_ID).then_some(OFFLINE_WARNING);
    view! {
        <p class="answer-meta">
            "answered by " <code>{new.model.clone()}</code>
            {format!(" · {:.0} ms ", new.latency_ms)}
            {offline.map(|w| view! { <span class="badge offline" data-testid="offline-warning">{w}</span> })}
        </p>
        <table class="rerank-metrics">
            <thead><tr><th>"metric"</th><th>"recorded"</th><th>"re-ranked"</th></tr></thead>
            <tbody>
                <tr><th>"nDCG@10"</th><td class="num">{format!("{:.3}", old.0)}</td>
                    <td><MetricValue name="rerank:ndcg@10" value=ndcg /></td></tr>
                <tr><th>{format!("recall@{k}")}</th><td class="num">{format!("{:.3}", old.1)}</td>
                    <td><MetricValue name=format!("rerank:recall@{k}") value=recall /></td></tr>
                <tr><th>{format!("all-required@{k}")}</th><td>{if old.2 { "yes" } else { "no" }}</td>
                    <td data-metric=format!("rerank:all_required@{k}") data-value=if all { "1" } else { "0" }>{if all { "yes" } else { "no" }}</td></tr>
            </tbody>
        </table>
        <table class="rerank-tables" data-testid="rerank-tables">
            <thead><tr><th>"rank"</th><th>"recorded"</th><th>"re-ranked"</th></tr></thead>
            <tbody>{rows.into_iter().map(|(rank, a, b)| view! {
                <tr><td class="num">{rank}</td><td>{a}</td><td data-rank=rank>{b}</td></tr>
            }).collect_view()}</tbody>
        </table>
    }
}
