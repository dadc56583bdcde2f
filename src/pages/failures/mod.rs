//! The failures view: why runs failed. Sub-mode bars coloured by FM crosswalk bucket (the
//! published chart), family bars, per-model family profile, the FM1–FM5 heatmap, the
//! `correct_despite_fail` and `schema_hint_would_help` histograms, rule tables and the
//! failure list. Filters (corpus, models, confidence range, threshold, clicked element `f`)
//! live in the URL; every number is recomputed by `runlens-core` from the filtered rows.

mod chart_panel;
pub mod charts;
mod controls;
pub mod filters;
pub mod list;
pub mod rows;
mod stages;
mod tables;

use std::sync::Arc;
use std::sync::atomic::Ordering;

use leptos::prelude::*;
use runlens_charts::{LEGEND_BAND, format_threshold};
use runlens_core::bundle::Bundle;

use crate::components::{MetricValue, caption};
use crate::pages::trajectory::list::{ListKey, walk_list_of};
use crate::state::{UrlState, ViewState};
use crate::theme::chart_theme;
use crate::yield_now::{mounted_flag, yield_idle};
use chart_panel::FilterChart;
use controls::FailureControls;
use filters::Filter;
use list::FailureList;
use rows::{BaseFilter, FailRow, all_rows, cdf_above, summarise};
use stages::{STAGES, stage_signal};
use tables::{RuleBlameTable, VerdictTable};

/// The failures view of a loaded bundle.
#[component]
pub fn FailuresView(
    /// The loaded bundle.
    bundle: Arc<Bundle>,
) -> impl IntoView {
    let state = UrlState::use_context();
    let names: Vec<String> = bundle
        .body
        .corpora
        .iter()
        .filter(|c| !c.failure_labels.is_empty())
        .map(|c| c.name.clone())
        .collect();
    if names.is_empty() {
        return view! {
            <section class="failures" data-testid="failures-view">
                <h2>"Failures"</h2>
                <p>"This bundle has no failure labels (out/failure_labels.jsonl)."</p>
            </section>
        }
        .into_any();
    }
    // On large bundles the view mounts one stage per task (stages.rs): the rows and
    // aggregates (lazy memos) are first computed when stage 1 mounts.
    let n_labels = bundle
        .body
        .corpora
        .iter()
        .map(|c| c.failure_labels.len())
        .sum();
    let stage = stage_signal(n_labels);
    prefetch_walk_lists(bundle.clone(), names.clone(), state);
    let body = StoredValue::new(bundle);
    let all = Memo::new(move |_| body.with_value(|b| all_rows(b)));
    let prefix = caption("");
    let known = names.clone();
    let base = Memo::new(move |_| {
        state.with(|s| BaseFilter {
            corpus: s.corpus.clone().filter(|c| known.contains(c)),
            models: s.models.clone(),
            conf: (s.conf_min, s.conf_max),
        })
    });
    let kept = Memo::new(move |_| {
        let f = base.get();
        body.with_value(|b| {
            all.with(|rows| {
                rows.iter()
                    .filter(|r| f.keeps(b, r))
                    .copied()
                    .collect::<Vec<FailRow>>()
            })
        })
    });
    let models = Memo::new(move |_| {
        let corpus = base.with(|f| f.corpus.clone());
        let mut out: Vec<String> = Vec::new();
        body.with_value(|b| {
            for c in b
                .body
                .corpora
                .iter()
                .filter(|c| corpus.as_deref().is_none_or(|n| n == c.name))
            {
                for l in &c.failure_labels {
                    if !out.contains(&l.model) {
                        out.push(l.model.clone());
                    }
                }
            }
        });
        out
    });
    let summary = Memo::new(move |_| {
        let f = base.get();
        kept.with(|rows| body.with_value(|b| summarise(b, rows, &f)))
    });
    let ct = Memo::new(move |_| state.with(|s| s.cdf_threshold));
    let above = Memo::new(move |_| {
        let t = ct.get();
        kept.with(|rows| body.with_value(|b| cdf_above(b, rows, t)))
    });
    let filter_text = Memo::new(move |_| state.with(|s| s.filter.clone()));
    let filter = Memo::new(move |_| filter_text.get().as_deref().and_then(Filter::parse));
    let listed = Memo::new(move |_| {
        let Some(f) = filter.get() else {
            return kept.get();
        };
        kept.with(|rows| {
            body.with_value(|b| rows.iter().filter(|r| f.matches(b, r)).copied().collect())
        })
    });
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
    let clear = move |_| state.push(|s| s.filter = None);
    let at = move |k: u8| move || stage.get() >= k;
    let all_charts = move || if at(STAGES)() { "all" } else { "some" };
    view! {
        <section class="failures" data-testid="failures-view">
            <h2>"Failures"</h2>
            {move || (stage.get() < STAGES).then(|| view! {
                <p class="notice" role="status" data-testid="failures-progress">
                    {format!("Drawing the failures view… {} of {STAGES}", stage.get())}
                </p>
            })}
            <Show when=at(1)>
                <FailureControls corpora=names.clone() models=models />
                <dl class="headline">
                    {move || headline().into_iter().map(|(name, value)| view! {
                        <div><dt>{name.clone()}</dt><dd><MetricValue name=name value=value digits=0 /></dd></div>
                    }).collect_view()}
                    <div>
                        <dt>{move || format!("correct_despite_fail ≥ {}", format_threshold(ct.get()))}</dt>
                        <dd><MetricValue name="cdf:above" value=Signal::derive(move || above.get() as f64) digits=0 /></dd>
                    </div>
                </dl>
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
                    let known = filter.get().is_some();
                    view! {
                        <p class="chip" data-testid="filter-chip">
                            {if known { "showing " } else { "unknown filter (ignored): " }}
                            <code>{f}</code>
                            " " <button type="button" aria-label="clear the chart filter" on:click=clear>"× clear"</button>
                        </p>
                    }
                })}
                <FailureList bundle=body rows=listed caption=cap />
            </Show>
        </section>
    }
    .into_any()
}

/// Builds, in idle moments, the walk list (`j` / `k`) a trajectory opened from this view uses
/// for each corpus in `names`, so opening one does not (~20 ms on the `large` preset).
fn prefetch_walk_lists(bundle: Arc<Bundle>, names: Vec<String>, state: UrlState) {
    let alive = mounted_flag();
    // The list of a trajectory opened from the view as it is now (its filters and `ct`).
    let opened = state.with_untracked(|s| ViewState {
        from: Some("failures".into()),
        ..s.clone()
    });
    leptos::task::spawn_local(async move {
        for name in names {
            yield_idle().await;
            if !alive.load(Ordering::Relaxed) {
                return;
            }
            walk_list_of(&bundle, &ListKey::of(name, &opened));
        }
    });
}
