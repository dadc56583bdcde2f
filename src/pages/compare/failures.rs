//! One corpus's labelled failures in both runs (#21, "Failures"): the sub-mode and FM-bucket
//! histograms side by side (each element's share of the run's labelled failures, A and B
//! bars with their 95% intervals) and their shift B − A
//! (`runlens_core::metrics::compare_failures`), for the models the link shows.
//! `data-metric="fshift:<histogram>:<element>"` carries the unrounded shift.

use std::sync::Arc;

use leptos::prelude::*;
use runlens_charts::{AnyChart, CiBar, CiBarChart, Palette};
use runlens_core::bundle::Bundle;
use runlens_core::csv::to_csv;
use runlens_core::metrics::compare_failures::{ShareShift, share_interval, share_shifts};
use runlens_core::metrics::failures_view::{BaseFilter, FailuresAnswer, FailuresQuery};

use super::retrieval::signed3;
use super::table::signed_points;
use crate::components::{ChartCanvas, ExportButtons, caption};
use crate::derived::answers::ViewQuery;
use crate::derived::newest_answer::NewestAnswer;
use crate::state::{DEFAULT_CDF_THRESHOLD, UrlState};
use crate::theme::chart_theme;

/// Run A's bars (Okabe-Ito blue) and run B's (orange).
const COLOR_A: plotters::style::RGBColor = Palette::SERIES[0];
const COLOR_B: plotters::style::RGBColor = Palette::SERIES[1];

/// The grouped bars of `rows`: per element, A's share then B's, in percent.
pub fn shares_chart(title: String, rows: &[ShareShift], n: (usize, usize)) -> CiBarChart {
    let mut bars = Vec::new();
    for r in rows {
        for (run, share, total, color) in [
            ("A", r.share_a, n.0, COLOR_A),
            ("B", r.share_b, n.1, COLOR_B),
        ] {
            let Some(p) = share else { continue };
            bars.push(CiBar {
                label: format!("{} · {run}", r.key),
                value: 100.0 * p,
                ci: share_interval(p, total).map(|(lo, hi)| (100.0 * lo, 100.0 * hi)),
                color,
            });
        }
    }
    let top = bars
        .iter()
        .map(|b| b.ci.map_or(b.value, |c| c.1))
        .fold(0.0f64, f64::max);
    CiBarChart {
        title,
        x_desc: "share of the run's labelled failures (%), normal 95% interval".into(),
        x_range: (0.0, ((top / 10.0).ceil() * 10.0).clamp(10.0, 100.0)),
        bars,
        theme: chart_theme(),
        label_width: 230,
    }
}

/// `rows` as CSV, unrounded.
fn shifts_csv(rows: &[ShareShift]) -> String {
    let o = |v: Option<f64>| v.map_or_else(String::new, |v| v.to_string());
    let lines: Vec<Vec<String>> = rows
        .iter()
        .map(|r| {
            vec![
                r.key.clone(),
                r.count_a.to_string(),
                o(r.share_a),
                r.count_b.to_string(),
                o(r.share_b),
                o(r.shift),
                o(r.ci95.map(|c| c.0)),
                o(r.ci95.map(|c| c.1)),
            ]
        })
        .collect();
    to_csv(
        &["element", "count_a", "share_a", "count_b", "share_b", "shift", "lo", "hi"],
        &lines,
    )
}

/// The failures section of `corpus`: both runs' failure summaries asked of their workers.
#[component]
pub fn CompareFailures(a: Arc<Bundle>, b: Arc<Bundle>, corpus: String) -> impl IntoView {
    let state = UrlState::use_context();
    let name = corpus.clone();
    let query = Memo::new(move |_| {
        state.with(|s| FailuresQuery {
            base: BaseFilter {
                corpus: Some(name.clone()),
                models: s.models.clone(),
                conf: (0.0, 1.0),
            },
            filter: None,
            cdf_threshold: DEFAULT_CDF_THRESHOLD,
            relabels: Vec::new(),
        })
    });
    let ans_a = NewestAnswer::<_, FailuresAnswer>::ask(a, query, ViewQuery::Failures);
    let ans_b = NewestAnswer::<_, FailuresAnswer>::ask(b, query, ViewQuery::Failures);
    let name = corpus.clone();
    let compared = Memo::new(move |_| {
        let (fa, fb) = (ans_a.answer()?, ans_b.answer()?);
        let labelled = |f: &FailuresAnswer| f.corpora.contains(&name);
        Some((labelled(&fa) && labelled(&fb)).then(|| Arc::new((fa, fb))))
    });
    let error = move || ans_a.error().or_else(|| ans_b.error());
    let name = corpus.clone();
    let body = move || {
        if let Some(e) = error() {
            return view! { <p class="error" role="alert">{format!("The failure labels could not be read: {e}")}</p> }.into_any();
        }
        match compared.get() {
            None => view! { <p class="notice" role="status">"Reading both runs' failure labels…"</p> }.into_any(),
            Some(None) => view! {
                <p class="notice" data-testid="compare-failures-none">
                    "Both runs need failure labels in this corpus to compare them; at least one has none."
                </p>
            }
            .into_any(),
            Some(Some(pair)) => {
                let (fa, fb) = (&pair.0.summary.counts, &pair.1.summary.counts);
                let n = (fa.n, fb.n);
                let sub = Arc::new(share_shifts(&fa.sub_mode, &fb.sub_mode));
                let fm = Arc::new(share_shifts(&fa.fm_bucket, &fb.fm_bucket));
                view! {
                    <p data-testid="compare-failures-n">
                        {format!("{} labelled failures in run A, {} in run B (the models shown).", n.0, n.1)}
                    </p>
                    <Histogram corpus=name.clone() which="sub-mode" rows=sub n=n />
                    <Histogram corpus=name.clone() which="FM bucket" rows=fm n=n />
                }
                .into_any()
            }
        }
    };
    view! {
        <section class="compare-failures" data-testid="compare-failures">
            <h4>"Failures"</h4>
            {body}
        </section>
    }
}

/// One histogram of both runs: the grouped bars and the table of shifts.
#[component]
fn Histogram(
    corpus: String,
    which: &'static str,
    rows: Arc<Vec<ShareShift>>,
    n: (usize, usize),
) -> impl IntoView {
    let key = which.replace(' ', "-").to_lowercase();
    let title = format!("Failures by {which}, run A and run B ({corpus})");
    let r = rows.clone();
    let chart = Signal::derive(move || AnyChart::CiBars(shares_chart(title.clone(), &r, n)));
    let height = 90 + 22 * (2 * rows.len()).max(1) as u32;
    let cap = caption(&format!("{corpus} · {which} shares of each run's labelled failures"));
    let r = rows.clone();
    let csv = Callback::new(move |()| shifts_csv(&r));
    let slug = corpus.replace(char::is_whitespace, "-");
    let id = format!("compare-{key}-{slug}");
    let lines = rows
        .iter()
        .map(|r| {
            let pct = |v: Option<f64>| v.map_or_else(|| "–".to_owned(), |v| format!("{:.1}", 100.0 * v));
            let ci = r
                .ci95
                .map(|(lo, hi)| format!("{} to {}", signed_points(Some(lo)), signed_points(Some(hi))))
                .unwrap_or_default();
            view! {
                <tr>
                    <th scope="row">{r.key.clone()}</th>
                    <td class="num">{r.count_a}</td>
                    <td class="num">{pct(r.share_a)}</td>
                    <td class="num">{r.count_b}</td>
                    <td class="num">{pct(r.share_b)}</td>
                    <td class="num">
                        <span class="metric" data-metric=format!("fshift:{key}:{}", r.key)
                            data-value=r.shift.map(|v| v.to_string()).unwrap_or_default()
                            title=r.shift.map(|v| signed3(Some(v))).unwrap_or_default()>
                            {signed_points(r.shift)}
                        </span>
                    </td>
                    <td class="num ci">{ci}</td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <div class="chart-wrap">
            <ChartCanvas id=id.clone() chart=chart height=Signal::stored(height) caption=cap.clone() />
        </div>
        <ExportButtons base_name=format!("compare-{key}-{slug}") canvas_id=id chart=chart
            caption=cap csv=csv svg_size=(720, height) />
        <div class="table-scroll">
            <table class="board compare-failures-table" data-testid=format!("compare-{key}-table")>
                <caption class="visually-hidden">{format!("Failures by {which}: count and share in each run, and the shift B − A in percentage points")}</caption>
                <thead>
                    <tr>
                        <th scope="col">{which}</th>
                        <th scope="col" class="num">"A"</th>
                        <th scope="col" class="num">"A %"</th>
                        <th scope="col" class="num">"B"</th>
                        <th scope="col" class="num">"B %"</th>
                        <th scope="col" class="num">"shift (pp)"</th>
                        <th scope="col" class="num">"95% interval"</th>
                    </tr>
                </thead>
                <tbody>{lines}</tbody>
            </table>
        </div>
    }
}
