//! One queue item in full: question, gold answer and results, the candidate's answer and
//! results, the judges' votes, the deterministic comparator's verdict and the Jev label.
//! The full cell and its question are the data owner's answer ([`ViewQuery::Cell`]); the
//! queue item's own fields show meanwhile.

use std::sync::Arc;

use leptos::prelude::*;
use runlens_core::audit::AuditItem;
use runlens_core::bundle::{Bundle, Cell, Vote};
use runlens_core::trajectory::OpenedCell;

use super::entries::Entry;
use crate::derived::answers::{ViewQuery, ask};

/// Longest text shown per result before it is cut (the full text is in the trajectory).
const MAX_RESULT_CHARS: usize = 4000;

fn cut(s: &str) -> String {
    match s.char_indices().nth(MAX_RESULT_CHARS) {
        Some((i, _)) => format!("{}… [cut; open the trajectory for all of it]", &s[..i]),
        None => s.to_owned(),
    }
}

fn pct(p: Option<f64>) -> String {
    p.map_or_else(|| "–".into(), |p| format!("{p:.3}"))
}

/// The comparator verdict: `data_equiv` of the votes, else of `result_score`'s extra fields.
pub fn comparator(item: &AuditItem, cell: Option<&Cell>) -> String {
    let from_votes = cell
        .and_then(|c| c.result_score.as_ref())
        .and_then(|s| s.votes.as_ref())
        .and_then(|v| v.iter().find_map(|v| v.data_equiv.clone()));
    let from_extra = cell
        .and_then(|c| c.result_score.as_ref())
        .and_then(|s| s.extra.get("data_equiv"))
        .and_then(|v| v.as_str().map(str::to_owned));
    from_votes
        .or(from_extra)
        .or_else(|| item.data_equiv.clone())
        .unwrap_or_else(|| {
            "not recorded (the judges short-circuited: a side had no usable result)".into()
        })
}

/// The detail panel of `entry`.
#[component]
pub fn ItemDetail(entry: Entry, bundle: Arc<Bundle>) -> impl IntoView {
    let item = entry.item.clone();
    let query = ViewQuery::Cell {
        corpus: entry.corpus.clone(),
        model: item.model.clone(),
        trace: item.trace_id.clone(),
    };
    let opened = LocalResource::new(move || {
        let (bundle, query) = (bundle.clone(), query.clone());
        async move {
            ask::<Option<OpenedCell>>(&bundle, query)
                .await
                .ok()
                .flatten()
        }
    });
    let cell = Signal::derive(move || opened.get().flatten().map(|o| o.cell));
    let gold_results = move || {
        opened
            .get()
            .flatten()
            .and_then(|o| o.question)
            .map(|q| q.gt_results)
            .unwrap_or_default()
    };
    let label = item.label.clone();
    let it = item.clone();
    let it2 = item.clone();
    let key = item.key.clone();
    let it3 = item.clone();
    view! {
        <article class="audit-detail" data-testid="audit-detail" data-key=key.clone()>
            <h3>{key.clone()}" · "{entry.corpus.clone()}</h3>
            <p class="question">{item.question.clone()}</p>
            <dl class="audit-facts">
                <dt>"correct despite fail"</dt><dd>{format!("{:.4}", item.correct_despite_fail)}</dd>
                <dt>"outcome"</dt><dd>{item.outcome.as_ref().map_or("–", |o| o.as_str()).to_owned()}</dd>
                <dt>"comparator"</dt><dd data-testid="audit-comparator">{move || comparator(&it, cell.get().as_ref())}</dd>
                <dt>"label"</dt>
                <dd>{format!("{} ({}) · family {} ({}) · rule {} ({}) · schema hint would help {}",
                    label.sub_mode.clone().unwrap_or_else(|| "–".into()), pct(label.sub_mode_confidence),
                    label.family.clone().unwrap_or_else(|| "–".into()), pct(label.family_confidence),
                    label.prevented_by_rule.clone().unwrap_or_else(|| "–".into()),
                    pct(label.prevented_by_rule_confidence), pct(label.schema_hint_would_help))}</dd>
            </dl>
            <div class="audit-sides">
                <section>
                    <h4>"Gold"</h4>
                    <p class="answer">{item.gold_answer.clone().unwrap_or_else(|| "(not annotated)".into())}</p>
                    {item.gold_sql.iter().map(|s| view! { <pre class="sql">{s.clone()}</pre> }).collect_view()}
                    {move || gold_results().into_iter().map(|r| view! { <pre class="result" tabindex="0">{cut(&r)}</pre> }).collect_view()}
                </section>
                <section>
                    <h4>"Candidate"</h4>
                    <p class="answer">{move || cell.get().and_then(|c| c.final_answer)
                        .or_else(|| it2.candidate_answer.clone())
                        .unwrap_or_else(|| "(no final answer)".into())}</p>
                    {move || cell.get().map(|c| c.sql_results).unwrap_or_default().into_iter()
                        .map(|r| view! { <pre class="result" tabindex="0">{cut(&r)}</pre> }).collect_view()}
                </section>
            </div>
            <h4>"Judge votes"</h4>
            <ul class="votes">
                {move || votes(cell.get().as_ref(), &it3).into_iter().map(|v| view! {
                    <li>
                        <strong>{v.judge.clone().unwrap_or_else(|| "judge".into())}</strong>
                        {format!(": {} ({}) ", v.outcome.as_ref().map_or("–", |o| o.as_str()),
                            v.verdict.clone().unwrap_or_default())}
                        <span class="reason">{v.reasoning.clone().unwrap_or_default()}</span>
                    </li>
                }).collect_view()}
            </ul>
        </article>
    }
}

fn votes(cell: Option<&Cell>, item: &AuditItem) -> Vec<Vote> {
    cell.and_then(|c| c.result_score.as_ref())
        .and_then(|s| s.votes.clone())
        .unwrap_or_else(|| item.votes.clone())
}
