//! Mechanical rule checks, the Jev failure label (sub-mode probabilities as bars, family,
//! blamed rule, the two yes/no probabilities), the FM1–FM5 label, and the re-label slot.

use leptos::prelude::*;
use runlens_core::bundle::{FailureLabel, FmLabel};
use runlens_core::rules::RulesConfig;

use crate::derived::compiled_rules::compiled_rules;

/// Class of the re-label panel's slot (filled by the re-label panel's owner).
pub const RELABEL_SLOT_CLASS: &str = "relabel-slot";

/// The open cell, provided as context by the trajectory view so the re-label panel placed in
/// [`relabel_slot`] can read which cell it labels.
#[derive(Debug, Clone, PartialEq)]
pub struct OpenCell {
    /// Corpus name.
    pub corpus: String,
    /// Model key.
    pub model: String,
    /// Trace id.
    pub trace: String,
}

/// The re-label panel's place, right after the Jev label.
pub fn relabel_slot(panel: impl IntoView) -> impl IntoView {
    view! { <div class="relabel-slot" data-testid="relabel-slot">{panel}</div> }
}

/// The checks shown: `(rule, verdict)` rows, statement count, repeated statement, and
/// whether they were computed here (`true`) or recorded with the label.
type RuleRows = (Vec<(String, String)>, Option<u64>, Option<bool>, bool);

/// The rule checks: computed from the candidate SQL with the bundle's rules config when it
/// has one, else the label's recorded checks.
pub fn rule_rows(
    rules: Option<&RulesConfig>,
    sqls: &[String],
    label: Option<&FailureLabel>,
) -> Option<RuleRows> {
    let compiled = rules.map(compiled_rules);
    if let Some(Ok(compiled)) = compiled.as_deref() {
        let c = compiled.checks(sqls);
        let rows = c
            .decidable
            .iter()
            .map(|(k, v)| (k.clone(), v.as_str().to_owned()))
            .collect();
        return Some((
            rows,
            Some(c.n_queries as u64),
            Some(c.has_repeated_query),
            true,
        ));
    }
    let checks = label?.checks.as_ref()?;
    let rows = checks
        .decidable
        .iter()
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    Some((rows, checks.n_queries, checks.has_repeated_query, false))
}

/// The rule checks table.
#[component]
pub fn RuleChecks(
    rules: Option<RulesConfig>,
    sqls: Vec<String>,
    label: Option<FailureLabel>,
) -> impl IntoView {
    let body = match rule_rows(rules.as_ref(), &sqls, label.as_ref()) {
        None => view! { <p class="hint">"No rules config in the bundle and no recorded checks."</p> }.into_any(),
        Some((rows, n, repeated, computed)) => view! {
            <p class="hint">{if computed { "Computed here from the candidate SQL with the bundle's rules config." } else { "As recorded with the Jev label (the bundle has no rules config)." }}</p>
            <table class="rule-checks" data-testid="rule-checks">
                <thead><tr><th>"rule"</th><th>"verdict"</th></tr></thead>
                <tbody>{rows.into_iter().map(|(k, v)| {
                    let (rule, class) = (k.clone(), format!("verdict verdict-{}", v.replace('/', "")));
                    view! { <tr data-rule=rule><td><code>{k}</code></td><td class=class>{v}</td></tr> }
                }).collect_view()}</tbody>
            </table>
            <p>{format!("statements: {} · repeated statement: {}",
                n.map_or_else(|| "unknown".into(), |n| n.to_string()),
                repeated.map_or("unknown", |r| if r { "yes" } else { "no" }))}</p>
        }.into_any(),
    };
    view! { <section class="rule-checks-section"><h4>"Mechanical rule checks"</h4>{body}</section> }
}

/// Sub-mode probabilities from `extra["sub_mode_probabilities"]`, largest first.
pub fn sub_mode_probabilities(label: &FailureLabel) -> Option<Vec<(String, f64)>> {
    let map = label.extra.get("sub_mode_probabilities")?.as_object()?;
    let mut v: Vec<(String, f64)> = map
        .iter()
        .filter_map(|(k, p)| p.as_f64().map(|p| (k.clone(), p)))
        .collect();
    v.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    (!v.is_empty()).then_some(v)
}

fn prob(name: &str, p: Option<f64>) -> impl IntoView {
    let text = p.map_or_else(|| "—".to_owned(), |p| format!("{p:.3}"));
    view! {
        <span class="prob" data-metric=name.to_owned() data-value=p.map(|p| p.to_string()).unwrap_or_default()>{text}</span>
    }
}

fn bars(rows: Vec<(String, f64)>, chosen: Option<String>) -> impl IntoView {
    view! {
        <ul class="prob-bars" data-testid="sub-mode-bars">
            {rows.into_iter().map(|(k, p)| {
                let width = format!("width: {:.1}%", (p.clamp(0.0, 1.0)) * 100.0);
                let is_chosen = chosen.as_deref() == Some(k.as_str());
                let key = k.clone();
                view! {
                    <li class="prob-bar" class:chosen=is_chosen data-sub-mode=key data-value=p.to_string()>
                        <span class="prob-label">{k}</span>
                        <span class="prob-track"><span class="prob-fill" style=width></span></span>
                        <span class="prob-num">{format!("{p:.3}")}</span>
                    </li>
                }
            }).collect_view()}
        </ul>
    }
}

/// The Jev failure label.
#[component]
pub fn JevLabel(label: Option<FailureLabel>) -> impl IntoView {
    let Some(l) = label else {
        return view! { <section class="jev-label"><h4>"Jev failure label"</h4><p class="hint">"No Jev label for this cell."</p></section> }.into_any();
    };
    let chosen = l.sub_mode.clone();
    let probs = sub_mode_probabilities(&l);
    let bar_view = match probs {
        Some(rows) => bars(rows, chosen.clone()).into_any(),
        None => {
            let only: Vec<(String, f64)> = chosen
                .clone()
                .zip(l.sub_mode_confidence)
                .into_iter()
                .collect();
            view! {
                <p class="hint">"Only the chosen sub-mode's confidence is recorded (no per-sub-mode probabilities)."</p>
                {bars(only, chosen.clone())}
            }
            .into_any()
        }
    };
    let rule = l.prevented_by_rule.clone().unwrap_or_else(|| "—".into());
    view! {
        <section class="jev-label" data-testid="jev-label">
            <h4>"Jev failure label"</h4>
            <p>"sub-mode: " <strong>{chosen.clone().unwrap_or_else(|| "—".into())}</strong>
               " (confidence " {prob("label:sub_mode_confidence", l.sub_mode_confidence)} ")"</p>
            {bar_view}
            <dl class="label-facts">
                <div><dt>"family"</dt><dd>{l.family.clone().unwrap_or_else(|| "—".into())} " (" {prob("label:family_confidence", l.family_confidence)} ")"</dd></div>
                <div><dt>"blamed rule"</dt><dd><code>{rule}</code> " (" {prob("label:prevented_by_rule_confidence", l.prevented_by_rule_confidence)} ")"</dd></div>
                <div><dt>"P(schema hint would help)"</dt><dd>{prob("label:schema_hint_would_help", l.schema_hint_would_help)}</dd></div>
                <div><dt>"P(correct despite fail)"</dt><dd>{prob("label:correct_despite_fail", l.correct_despite_fail)}</dd></div>
            </dl>
        </section>
    }
    .into_any()
}

/// The FM1–FM5 label.
#[component]
pub fn FmLabelView(label: Option<FmLabel>) -> impl IntoView {
    view! {
        <section class="fm-label" data-testid="fm-label">
            <h4>"FM1–FM5 label"</h4>
            {match label {
                Some(f) => {
                    let reason = f.reason.filter(|r| !r.is_empty());
                    view! { <p><strong>{f.fm}</strong>{reason.map(|r| format!(" — {r}"))}</p> }.into_any()
                }
                None => view! { <p class="hint">"No FM label for this cell."</p> }.into_any(),
            }}
        </section>
    }
}
