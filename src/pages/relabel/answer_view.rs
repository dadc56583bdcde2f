//! A Jev answer beside the recorded label: the label fields side by side, then every answer
//! with all its probabilities as bars, latency, backend and model id. Answers of the offline
//! model carry [`OFFLINE_WARNING`] next to each of them.

use leptos::prelude::*;
use runlens_core::bundle::FailureLabel;
use runlens_core::jev::Answer;

use super::AskOutcome;
use super::transport::{LOCAL_MODEL_ID, OFFLINE_WARNING};
use crate::components::MetricValue;

fn num(v: Option<f64>) -> String {
    v.map_or_else(|| "—".to_owned(), |v| format!("{v:.3}"))
}

fn text(v: &Option<String>) -> String {
    v.clone().unwrap_or_else(|| "—".to_owned())
}

/// The label fields compared, in the harness's record order (§7.6).
const FIELDS: [&str; 8] = [
    "sub_mode",
    "sub_mode_confidence",
    "family",
    "family_confidence",
    "prevented_by_rule",
    "prevented_by_rule_confidence",
    "schema_hint_would_help",
    "correct_despite_fail",
];

fn fields(l: &FailureLabel) -> [String; 8] {
    [
        text(&l.sub_mode),
        num(l.sub_mode_confidence),
        text(&l.family),
        num(l.family_confidence),
        text(&l.prevented_by_rule),
        num(l.prevented_by_rule_confidence),
        num(l.schema_hint_would_help),
        num(l.correct_despite_fail),
    ]
}

/// The answer of `outcome` next to `recorded`, the label in force (`original`: the bundle's
/// own, shown too when an override replaced it; `new`: the label the answer gives).
#[component]
pub fn AnswerView(
    outcome: AskOutcome,
    original: Option<FailureLabel>,
    recorded: Option<FailureLabel>,
    new: FailureLabel,
) -> impl IntoView {
    let offline = outcome.response.model == LOCAL_MODEL_ID;
    let warning = move || {
        offline.then(|| view! { <span class="badge offline" data-testid="offline-warning">{OFFLINE_WARNING}</span> })
    };
    let shown = |l: &Option<FailureLabel>| {
        l.as_ref()
            .map(fields)
            .unwrap_or_else(|| fields(&FailureLabel::default()))
    };
    let (old, now, next) = (shown(&original), shown(&recorded), fields(&new));
    let overridden = original != recorded;
    let rows: Vec<(&str, String, String, String)> = FIELDS
        .iter()
        .enumerate()
        .map(|(i, f)| (*f, old[i].clone(), now[i].clone(), next[i].clone()))
        .collect();
    let in_force = match (&recorded, overridden) {
        (None, _) => "recorded (no label)",
        (Some(_), true) => "in force (override)",
        (Some(_), false) => "recorded",
    };
    let answers = outcome.response.answers.clone();
    view! {
        <section class="relabel-answer" data-testid="relabel-answer" data-model=outcome.response.model.clone()>
            <p class="answer-meta">
                "answered by " <code data-testid="answer-model">{outcome.response.model.clone()}</code>
                " · backend " <code>{outcome.backend.clone()}</code>
                " · " <MetricValue name="relabel:latency_ms" value=outcome.latency_ms digits=0 /> " ms"
                {outcome.request_id.clone().map(|id| view! { " · request " <code>{id}</code> })}
                " " {warning}
            </p>
            <table class="label-compare" data-testid="label-compare">
                <thead><tr><th>"field"</th>{overridden.then(|| view! { <th>"bundle"</th> })}<th>{in_force}</th><th>"new answer"</th></tr></thead>
                <tbody>
                    {rows.into_iter().map(|(field, old, now, new)| { let changed = now != new; view! {
                        <tr data-field=field class:changed=changed>
                            <th scope="row">{field}</th>
                            {overridden.then(|| view! { <td data-original=field>{old}</td> })}
                            <td data-recorded=field>{now}</td><td data-new=field>{new}</td>
                        </tr>
                    }}).collect_view()}
                </tbody>
            </table>
            {answers.into_iter().map(|(id, answer)| view! {
                <div class="answer" data-answer=id.clone()>
                    <h5>{id.clone()} " " {warning}</h5>
                    {answer_body(&answer)}
                </div>
            }).collect_view()}
        </section>
    }
}

fn bar(label: String, p: f64, chosen: bool) -> impl IntoView {
    let width = format!("width: {:.1}%", 100.0 * p.clamp(0.0, 1.0));
    let option = label.clone();
    view! {
        <tr class:chosen=chosen data-option=option data-value=p.to_string()>
            <td>{label}{chosen.then_some(" ✓")}</td>
            <td class="num">{format!("{p:.3}")}</td>
            <td class="bar-cell"><span class="bar" style=width></span></td>
        </tr>
    }
}

fn answer_body(answer: &Answer) -> AnyView {
    match answer {
        Answer::Noul { noul } => view! {
            <table class="probabilities">
                <tbody>{bar("yes".into(), *noul, *noul >= 0.5)}{bar("no".into(), 1.0 - noul, *noul < 0.5)}</tbody>
            </table>
        }
        .into_any(),
        Answer::Choice { choice, confidence, probabilities } => view! {
            <p>"choice " <strong>{choice.clone()}</strong> {format!(" · confidence {confidence:.3}")}</p>
            <table class="probabilities">
                <tbody>{probabilities.iter().map(|(k, p)| bar(k.clone(), *p, k == choice)).collect_view()}</tbody>
            </table>
        }
        .into_any(),
        Answer::Score { score, confidence, legend, probabilities } => view! {
            <p>{format!("score {score:.3} · confidence {confidence:.3}")}</p>
            <table class="probabilities">
                <tbody>{probabilities.iter().map(|(k, p)| {
                    let name = legend.get(k).and_then(|v| v.as_str()).map_or_else(|| k.clone(), |d| format!("{k}: {d}"));
                    bar(name, *p, false)
                }).collect_view()}</tbody>
            </table>
        }
        .into_any(),
        Answer::Unknown => view! { <p>"an answer type this page does not show"</p> }.into_any(),
    }
}
