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

/// The answer of `outcome` next to `recorded` (`new` is the label it gives).
#[component]
pub fn AnswerView(
    outcome: AskOutcome,
    recorded: Option<FailureLabel>,
    new: FailureLabel,
) -> impl IntoView {
    let offline = outcome.response.model == LOCAL_MODEL_ID;
    let warning = move || {
        offline.then(|| view! { <span class="badge offline" data-testid="offline-warning">{OFFLINE_WARNING}</span> })
    };
    let r = recorded.clone().unwrap_or_default();
    let rows: Vec<(&str, String, String)> = vec![
        ("sub_mode", text(&r.sub_mode), text(&new.sub_mode)),
        (
            "sub_mode_confidence",
            num(r.sub_mode_confidence),
            num(new.sub_mode_confidence),
        ),
        ("family", text(&r.family), text(&new.family)),
        (
            "family_confidence",
            num(r.family_confidence),
            num(new.family_confidence),
        ),
        (
            "prevented_by_rule",
            text(&r.prevented_by_rule),
            text(&new.prevented_by_rule),
        ),
        (
            "prevented_by_rule_confidence",
            num(r.prevented_by_rule_confidence),
            num(new.prevented_by_rule_confidence),
        ),
        (
            "schema_hint_would_help",
            num(r.schema_hint_would_help),
            num(new.schema_hint_would_help),
        ),
        (
            "correct_despite_fail",
            num(r.correct_despite_fail),
            num(new.correct_despite_fail),
        ),
    ];
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
                <thead><tr><th>"field"</th><th>{if recorded.is_some() { "recorded" } else { "recorded (no label)" }}</th><th>"new answer"</th></tr></thead>
                <tbody>
                    {rows.into_iter().map(|(field, old, new)| { let changed = old != new; view! {
                        <tr data-field=field class:changed=changed>
                            <th scope="row">{field}</th><td>{old}</td><td data-new=field>{new}</td>
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
