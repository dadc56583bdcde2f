//! The rule-blame table (`prevented_by_rule`, ranked) and the decidable-rule verdict table;
//! a row's button sets `f=rule:<rule>`.

use leptos::prelude::*;
use runlens_core::csv::to_csv;
use runlens_core::metrics::failures::RuleBlame;

use crate::components::ExportButtons;
use crate::state::UrlState;
use runlens_core::metrics::failures_view::RuleVerdicts;

fn rule_button(rule: String) -> impl IntoView {
    let state = UrlState::use_context();
    let f = format!("rule:{rule}");
    let active = {
        let f = f.clone();
        move || {
            (state.with(|s| s.failures.filter.clone()).as_deref() == Some(f.as_str())).to_string()
        }
    };
    view! {
        <button type="button" data-filter=f.clone() aria-pressed=active
            on:click=move |_| { let f = f.clone(); state.push(move |s| s.failures.filter = Some(f)) }>
            {rule}
        </button>
    }
}

/// Semantic rules Jev blamed, most first, then the rows mapped to no rule.
#[component]
pub fn RuleBlameTable(
    blame: Signal<RuleBlame>,
    #[prop(into)] caption: Signal<String>,
) -> impl IntoView {
    let csv = Callback::new(move |()| {
        let b = blame.get_untracked();
        let mut rows: Vec<Vec<String>> = b
            .ranked
            .iter()
            .map(|(r, c)| vec![r.clone(), c.to_string()])
            .collect();
        rows.push(vec!["none".into(), b.none.to_string()]);
        rows.push(vec!["(missing)".into(), b.missing.to_string()]);
        to_csv(&["prevented_by_rule", "failures"], &rows)
    });
    view! {
        <section class="rule-blame" id="fail-rules-section">
            <h4>"Semantic rules Jev blamed"</h4>
            <table data-testid="rule-blame">
                <thead><tr><th>"rule"</th><th>"failures"</th></tr></thead>
                <tbody>
                    {move || {
                        let b = blame.get();
                        let mut rows: Vec<(String, usize)> = b.ranked.clone();
                        rows.push(("none".into(), b.none));
                        rows.into_iter().map(|(rule, n)| view! {
                            <tr data-rule=rule.clone()>
                                <td>{rule_button(rule.clone())}</td>
                                <td><span data-metric=format!("rule:{rule}") data-value=n.to_string()>{n}</span></td>
                            </tr>
                        }).collect_view()
                    }}
                </tbody>
            </table>
            <p class="hint">{move || format!("{} labels carry no rule.", blame.with(|b| b.missing))}</p>
            <ExportButtons base_name="rule-blame" caption=caption csv=csv />
        </section>
    }
}

/// The code's verdicts on the decidable rules: ok / violation / n/a (and any other verdict).
#[component]
pub fn VerdictTable(
    verdicts: Signal<Vec<RuleVerdicts>>,
    #[prop(into)] caption: Signal<String>,
) -> impl IntoView {
    let count =
        |v: &[(String, usize)], k: &str| v.iter().find(|(n, _)| n == k).map_or(0, |(_, c)| *c);
    let other = move |v: &[(String, usize)]| {
        v.iter()
            .filter(|(n, _)| !["ok", "violation", "n/a"].contains(&n.as_str()))
            .map(|(_, c)| c)
            .sum::<usize>()
    };
    let csv = Callback::new(move |()| {
        let rows: Vec<Vec<String>> = verdicts.with_untracked(|vs| {
            vs.iter()
                .map(|(r, v)| {
                    let mut row = vec![r.clone()];
                    row.extend(["ok", "violation", "n/a"].map(|k| count(v, k).to_string()));
                    row.push(other(v).to_string());
                    row
                })
                .collect()
        });
        to_csv(&["rule", "ok", "violation", "n/a", "other"], &rows)
    });
    view! {
        <section class="verdicts" id="fail-verdicts-section">
            <h4>"Decidable rule violations (code verdicts)"</h4>
            <table data-testid="verdicts">
                <thead><tr><th>"rule"</th><th>"violation"</th><th>"ok"</th><th>"n/a"</th><th>"other"</th></tr></thead>
                <tbody>
                    {move || verdicts.get().into_iter().map(|(rule, v)| {
                        let bad = count(&v, "violation");
                        view! {
                            <tr data-rule=rule.clone()>
                                <td>{rule_button(rule.clone())}</td>
                                <td><span data-metric=format!("violation:{rule}") data-value=bad.to_string()>{bad}</span></td>
                                <td>{count(&v, "ok")}</td>
                                <td>{count(&v, "n/a")}</td>
                                <td>{other(&v)}</td>
                            </tr>
                        }
                    }).collect_view()}
                </tbody>
            </table>
            <ExportButtons base_name="decidable-verdicts" caption=caption csv=csv />
        </section>
    }
}
