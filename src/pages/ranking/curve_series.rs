//! The registry's ranking metrics as the view shows them: which curves the chart draws
//! (`curves=` in the URL, the harness's three by default), each curve's colour and marker,
//! the chart, and the CSV of every curve. Nothing here names a metric: a metric added to
//! `runlens_core::metrics::ranking_metrics` appears in all of them.

use leptos::prelude::*;
use plotters::style::RGBColor;
use runlens_charts::{CurveChart, Marker, Palette, Series, Theme};
use runlens_core::csv::to_csv;
use runlens_core::metrics::curves::RetrievalCurves;
use runlens_core::metrics::ranking_metrics::{RANKING_METRICS, RankingMetric};

use crate::state::UrlState;

/// The metrics the chart draws for a `curves=` list: those keys in registry order, or the
/// harness's own metrics when the list is empty.
pub fn shown_metrics(keys: &[String]) -> Vec<&'static RankingMetric> {
    RANKING_METRICS
        .into_iter()
        .filter(|m| {
            if keys.is_empty() {
                m.harness
            } else {
                keys.iter().any(|k| k == m.key)
            }
        })
        .collect()
}

/// Colour and marker of the curve of the registry's `index`-th metric: the harness's
/// colours for its recall and all-required, Okabe-Ito green for nDCG, then Okabe-Ito
/// orange, reddish purple and sky blue, each with its own marker.
pub fn curve_style(index: usize) -> (RGBColor, Marker) {
    const COLORS: [RGBColor; 6] = [
        Palette::NDCG,
        Palette::RECALL,
        Palette::ALL_REQUIRED,
        Palette::MORE_CURVES[0],
        Palette::MORE_CURVES[1],
        Palette::MORE_CURVES[2],
    ];
    const MARKERS: [Marker; 5] = [
        Marker::Triangle,
        Marker::Circle,
        Marker::Square,
        Marker::Diamond,
        Marker::TriangleDown,
    ];
    (COLORS[index % COLORS.len()], MARKERS[index % MARKERS.len()])
}

/// The curve chart of `shown` metrics, in registry order.
pub fn curve_chart(
    title: String,
    curves: &RetrievalCurves,
    shown: &[&RankingMetric],
    theme: Theme,
) -> CurveChart {
    let series = curves
        .series()
        .enumerate()
        .filter(|(_, (metric, _))| shown.iter().any(|s| s.key == metric.key))
        .map(|(i, (metric, values))| {
            let (color, marker) = curve_style(i);
            Series {
                label: metric.label.into(),
                color,
                marker,
                points: curves
                    .k
                    .iter()
                    .zip(values)
                    .map(|(&k, &y)| (k as u32, y))
                    .collect(),
            }
        })
        .collect();
    CurveChart {
        title,
        k_max: curves.k.len() as u32,
        series,
        theme,
    }
}

/// Every curve as CSV: one row per k, one column per metric key, unrounded.
pub fn curves_csv(c: &RetrievalCurves) -> String {
    let mut header = vec!["k"];
    header.extend(RANKING_METRICS.iter().map(|m| m.key));
    let rows: Vec<Vec<String>> =
        c.k.iter()
            .enumerate()
            .map(|(i, k)| {
                let mut row = vec![k.to_string()];
                row.extend(
                    c.series()
                        .map(|(_, v)| v.get(i).map_or_else(String::new, f64::to_string)),
                );
                row
            })
            .collect();
    to_csv(&header, &rows)
}

/// One checkbox per metric: which curves the chart draws (`shown`, from
/// [`shown_metrics`]). The last one shown cannot be unticked (an empty chart explains
/// nothing); choosing the harness's three again leaves `curves=` out of the link.
#[component]
pub fn CurvePicker(shown: Memo<Vec<&'static RankingMetric>>) -> impl IntoView {
    let state = UrlState::use_context();
    let toggle = move |key: &'static str| {
        // The shown metrics with `key` toggled, in registry order.
        let chosen: Vec<&'static RankingMetric> = RANKING_METRICS
            .into_iter()
            .filter(|m| shown.with_untracked(|s| s.contains(m)) != (m.key == key))
            .collect();
        let keys = if chosen == shown_metrics(&[]) {
            Vec::new()
        } else {
            chosen.iter().map(|m| m.key.to_owned()).collect()
        };
        state.push(move |s| s.ranking.curves = keys);
    };
    view! {
        <fieldset class="curve-picker" data-testid="curve-picker">
            <legend>"curves"</legend>
            {RANKING_METRICS.into_iter().enumerate().map(|(i, m)| {
                let (color, _) = curve_style(i);
                let swatch = format!("background: rgb({}, {}, {})", color.0, color.1, color.2);
                let on = move || shown.with(|s| s.contains(&m));
                let only = move || on() && shown.with(Vec::len) == 1;
                view! {
                    <label title=m.definition>
                        <input type="checkbox" data-curve=m.key
                            prop:checked=on
                            prop:disabled=only
                            on:change=move |_| toggle(m.key) />
                        <span class="swatch" style=swatch aria-hidden="true"></span>
                        {m.label}
                        {(!m.harness).then(|| view! { <span class="hint">" (runlens)"</span> })}
                    </label>
                }
            }).collect_view()}
        </fieldset>
    }
}
