//! The failures view: why runs failed. Sub-mode bars coloured by FM crosswalk bucket (the
//! published chart), family bars, per-model family profile, the FM1–FM5 heatmap, the
//! `correct_despite_fail` and `schema_hint_would_help` histograms, rule tables and the
//! failure list. Filters (corpus, models, confidence range, threshold, clicked element `f`)
//! live in the URL; every number is recomputed by `runlens-core` from the filtered rows.

mod chart_panel;
pub mod charts;
mod controls;
pub mod list;
mod stages;
mod tables;
pub mod url;

use std::cell::RefCell;
use std::sync::Arc;

use leptos::prelude::*;
use runlens_charts::{LEGEND_BAND, format_threshold};
use runlens_core::bundle::Bundle;
use runlens_core::metrics::failures_view::{BaseFilter, FailuresAnswer, FailuresQuery};

use crate::components::{MetricValue, NavItem, PageNav, caption};
use crate::derived::answers::ViewQuery;
use crate::derived::newest_answer::NewestAnswer;
use crate::state::{UrlState, relabels_in_force};
use crate::theme::chart_theme;
use chart_panel::FilterChart;
use controls::FailureControls;
use list::FailureList;
use stages::{STAGES, stage_signal};
use tables::{RuleBlameTable, VerdictTable};

thread_local! {
    /// The last answer shown, with its bundle's content hash and its question. The view
    /// mounted again for the same bundle (the whole bundle replacing a v2 summary's head: the
    /// same hash, the same labels) shows it at once, not "Counting…" while the worker is busy
    /// (checking the content hash takes it seconds on a large run).
    static LAST: RefCell<Option<(String, FailuresQuery, Arc<FailuresAnswer>)>> =
        const { RefCell::new(None) };
}

/// The failures view of a loaded bundle. Its numbers and list are answers of the data's
/// owner (the loader worker, else the page in the `queries` chunk) to the view's question:
/// the URL's filters and the re-labels in force. The newest question's answer is shown; the
/// last one stays meanwhile (`data-pending` says a newer one is on its way).
#[component]
pub fn FailuresView(
    /// The loaded bundle.
    bundle: Arc<Bundle>,
) -> impl IntoView {
    let state = UrlState::use_context();
    let relabels = relabels_in_force();
    let query = Memo::new(move |_| {
        let relabels = relabels.get();
        state.with(|s| FailuresQuery {
            base: BaseFilter {
                corpus: s.corpus.clone(),
                models: s.models.clone(),
                conf: (s.failures.conf_min, s.failures.conf_max),
            },
            filter: s.failures.filter.clone(),
            cdf_threshold: s.failures.cdf_threshold,
            relabels,
        })
    });
    // The last answer shown for this bundle and question starts the view; every answer
    // that is one is kept for the next mount.
    let hash = bundle.content_hash.clone();
    let asked = query.get_untracked();
    let seed = LAST
        .with_borrow(Clone::clone)
        .filter(|(h, q, _)| *h == hash && *q == asked)
        .map(|(_, q, a)| (q, a));
    let asked = NewestAnswer::<_, FailuresAnswer>::ask_seeded(
        bundle.clone(),
        query,
        |q| Some(ViewQuery::Failures(q)),
        seed,
    );
    Effect::new(move |_| {
        if let Some((q, a)) = asked.last_answer_with_query() {
            LAST.set(Some((hash.clone(), q, a)));
        }
    });
    // The last answer stays shown beside an error, and while the next is computed.
    let answer = Memo::new(move |_| asked.last_answer().unwrap_or_default());
    let error = Signal::derive(move || asked.error());
    let pending = Memo::new(move |_| asked.pending());
    // 0: waiting for the first answer, 1: no labels, 2: shown.
    let phase = Memo::new(move |_| match asked.last_answer() {
        None => 0,
        Some(a) if a.corpora.is_empty() => 1,
        Some(_) => 2,
    });
    move || {
        match phase.get() {
        0 => view! {
            <section class="failures" data-testid="failures-view" data-answered="false">
                <h2>"Failures"</h2>
                {move || match error.get() {
                    Some(e) => view! { <p class="error" role="alert">{format!("The failures could not be computed: {e}")}</p> }.into_any(),
                    None => view! { <p class="notice" role="status" data-testid="failures-loading">"Counting the failures…"</p> }.into_any(),
                }}
            </section>
        }
        .into_any(),
        1 => view! {
            <section class="failures" data-testid="failures-view" data-answered="true">
                <h2>"Failures"</h2>
                <p>"This bundle has no failure labels (out/failure_labels.jsonl)."</p>
            </section>
        }
        .into_any(),
        _ => view! {
            <FailuresShown bundle=bundle.clone() query=query answer=answer pending=pending error=error />
        }
        .into_any(),
    }
    }
}

/// The view once the first answer is in.
#[component]
fn FailuresShown(
    bundle: Arc<Bundle>,
    query: Memo<FailuresQuery>,
    answer: Memo<Arc<FailuresAnswer>>,
    pending: Memo<bool>,
    error: Signal<Option<String>>,
) -> impl IntoView {
    let state = UrlState::use_context();
    let names = answer.with_untracked(|a| a.corpora.clone());
    // On large runs the view mounts one stage per task (stages.rs).
    let stage = stage_signal(answer.with_untracked(|a| a.summary.counts.n));
    let prefix = caption("");
    let known = names.clone();
    let base = Memo::new(move |_| {
        query.with(|q| BaseFilter {
            corpus: q.base.corpus.clone().filter(|c| known.contains(c)),
            ..q.base.clone()
        })
    });
    let summary = Memo::new(move |_| answer.with(|a| a.summary.clone()));
    let above = Memo::new(move |_| answer.with(|a| a.above));
    let listed = Memo::new(move |_| answer.with(|a| a.listed));
    let filter_known = Memo::new(move |_| answer.with(|a| a.filter_known));
    let ct = Memo::new(move |_| state.with(|s| s.failures.cdf_threshold));
    let filter_text = Memo::new(move |_| state.with(|s| s.failures.filter.clone()));
    let settings = Signal::derive(move || {
        let (b, t) = (base.get(), ct.get());
        format!(
            "failures · {} · models: {} · sub-mode confidence {}–{} · correct_despite_fail ≥ {}{}",
            b.corpus.unwrap_or_else(|| "all corpora".into()),
            if b.models.is_empty() {
                "all".into()
            } else {
                b.models.join(", ")
            },
            format_threshold(b.conf.0),
            format_threshold(b.conf.1),
            format_threshold(t),
            filter_text
                .get()
                .map(|f| format!(" · f = {f}"))
                .unwrap_or_default()
        )
    });
    let cap = Signal::derive(move || format!("{prefix}{}", settings.get()));
    let sub_modes =
        Signal::derive(move || summary.with(|s| charts::sub_mode_chart(s, chart_theme())));
    let families = Memo::new(move |_| summary.with(|s| charts::family_chart(s, chart_theme())));
    let profile = Memo::new(move |_| summary.with(|s| charts::profile_chart(s, chart_theme())));
    let fm = Memo::new(move |_| summary.with(|s| !s.fm.is_empty()));
    let fm_chart = Memo::new(move |_| {
        let theme = chart_theme();
        // Without FM labels the chart is hidden; the fallback is never drawn.
        summary
            .with(|s| charts::fm_chart(s, theme).unwrap_or_else(|| charts::family_chart(s, theme)))
    });
    let cdf = Memo::new(move |_| {
        summary.with(|s| charts::cdf_chart(s, ct.get(), above.get(), chart_theme()))
    });
    let hint = Memo::new(move |_| summary.with(|s| charts::hint_chart(s, chart_theme())));
    let bars_h = |n: usize, per: u32, extra: u32| (extra + per * n as u32).max(300);
    let sub_h = Signal::derive(move || {
        summary.with(|s| {
            bars_h(
                s.counts.sub_mode.values().filter(|c| **c > 0).count(),
                28,
                150,
            )
        })
    });
    let fam_h = Signal::derive(move || {
        summary.with(|s| {
            bars_h(
                s.counts.family.values().filter(|c| **c > 0).count(),
                30,
                130,
            )
        })
    });
    let prof_h =
        Signal::derive(move || summary.with(|s| bars_h(s.by_model.len(), 30, 130 + LEGEND_BAND)));
    let fm_h = Signal::derive(move || summary.with(|s| bars_h(s.fm.len(), 30, 140)));
    let headline = move || {
        summary.with(|s| {
            let mut v = vec![("failures:count".to_owned(), s.counts.n as f64)];
            v.extend(
                s.counts
                    .fm_bucket
                    .iter()
                    .map(|(k, c)| (format!("fm_bucket:{k}"), *c as f64)),
            );
            v
        })
    };
    let clear = move |_| state.push(|s| s.failures.filter = None);
    let at = move |k: u8| move || stage.get() >= k;
    let all_charts = move || if at(STAGES)() { "all" } else { "some" };
    view! {
        <section class="failures" data-testid="failures-view" data-answered="true"
            data-pending=move || pending.get().to_string()>
            <h2>"Failures"</h2>
            {move || (stage.get() < STAGES).then(|| view! {
                <p class="notice" role="status" data-testid="failures-progress">
                    {format!("Drawing the failures view… {} of {STAGES}", stage.get())}
                </p>
            })}
            {move || error.get().map(|e| view! {
                <p class="error" role="alert">{format!("The failures could not be updated: {e}")}</p>
            })}
            <Show when=at(1)>
                <FailureControls corpora=names.clone() />
                <dl class="headline">
                    {move || {
                        let figures = headline();
                        let total = figures.iter().find(|(n, _)| n == "failures:count").map(|(_, v)| *v);
                        figures.into_iter().map(|(name, value)| {
                            let share = share_text(&name, value, total);
                            view! {
                                <div><dt>{headline_label(&name)}</dt><dd>
                                    <MetricValue name=name value=value digits=0 />
                                    {share.map(|s| view! { " " <span class="share" title="share of the failures">{s}</span> })}
                                </dd></div>
                            }
                        }).collect_view()
                    }}
                    <div>
                        <dt>{move || format!("correct_despite_fail ≥ {}", format_threshold(ct.get()))}</dt>
                        <dd><MetricValue name="cdf:above" value=Signal::derive(move || above.get() as f64) digits=0 /></dd>
                    </div>
                </dl>
                {move || view! { <PageNav items=sections(fm.get()) label="Sections of the failures view" /> }}
            </Show>
            <div class="failure-charts" data-charts=all_charts>
                <Show when=at(2)>
                    <FilterChart id="fail-sub-modes" heading="Sub-modes" data=sub_modes height=sub_h caption=cap />
                    <FilterChart id="fail-families" heading="Families" data=families height=fam_h caption=cap />
                </Show>
                <Show when=at(3)>
                    <FilterChart id="fail-profile" heading="Family profile per model" data=profile height=prof_h caption=cap />
                </Show>
                <Show when=move || at(4)() && fm.get()>
                    <FilterChart id="fail-fm" heading="FM1–FM5 per model (07 labels)" data=fm_chart height=fm_h caption=cap />
                </Show>
                <Show when=at(5)>
                    <FilterChart id="fail-cdf" heading="Correct despite fail?" data=cdf height=360 caption=cap />
                    <FilterChart id="fail-hint" heading="Would a schema hint help?" data=hint height=360 caption=cap />
                </Show>
            </div>
            <Show when=at(1)>
                <RuleBlameTable blame=Signal::derive(move || summary.with(|s| s.blame.clone())) caption=cap />
                <VerdictTable verdicts=Signal::derive(move || summary.with(|s| s.verdicts.clone())) caption=cap />
                {move || filter_text.get().map(|f| {
                    let known = filter_known.get();
                    view! {
                        <p class="chip" data-testid="filter-chip">
                            {if known { "showing " } else { "unknown filter (ignored): " }}
                            <code>{f}</code>
                            " " <button type="button" aria-label="clear the chart filter" on:click=clear>"× clear"</button>
                        </p>
                    }
                })}
                <FailureList bundle=bundle.clone() query=query listed=listed caption=cap />
            </Show>
        </section>
    }
}

/// The view's sections for its in-page navigation (the FM chart only when the corpus has FM
/// labels).
fn sections(fm: bool) -> Vec<NavItem> {
    let item = |label, target| NavItem { label, target };
    let mut out = vec![
        item("Sub-modes", "fail-sub-modes-section"),
        item("Families", "fail-families-section"),
        item("Per model", "fail-profile-section"),
    ];
    if fm {
        out.push(item("FM1–FM5", "fail-fm-section"));
    }
    out.extend([
        item("Correct despite fail?", "fail-cdf-section"),
        item("Schema hint", "fail-hint-section"),
        item("Rules blamed", "fail-rules-section"),
        item("Rule verdicts", "fail-verdicts-section"),
        item("List", "fail-list-section"),
    ]);
    out
}

/// The share of the failures beside a headline count (#17: "shares beside counts"), one
/// decimal: none for the total itself or without failures.
pub fn share_text(key: &str, value: f64, total: Option<f64>) -> Option<String> {
    let total = total.filter(|t| *t > 0.0)?;
    (key != "failures:count").then(|| format!("{:.1}%", 100.0 * value / total))
}

/// The words shown for a headline figure (its `data-metric` key stays as it is):
/// `failures:count` reads "failures", `fm_bucket:FM2 wrong plan` reads "FM2 wrong plan".
pub fn headline_label(key: &str) -> String {
    match key.split_once(':') {
        Some(("failures", "count")) => "failures".to_owned(),
        Some((_, rest)) => rest.to_owned(),
        None => key.to_owned(),
    }
}

crate::pages::views::lazy_view! {
    /// The failures view. In a chunk of its own (`split_failures`).
    failures: FailuresView
}

/// This view in the registry (`pages::registry`).
pub const VIEW: crate::pages::views::ViewDef = crate::pages::views::ViewDef {
    tab: crate::state::Tab::Failures,
    label: "Failures",
    needs: crate::pages::views::Needs::Summary,
    code: crate::pages::views::Code::Chunk(CHUNK),
};
