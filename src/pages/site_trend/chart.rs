//! The trend chart of a site's runs: each shown model's pass rate (percent) with its 95%
//! interval, one column per run that has the corpus. Colours and markers follow the model's
//! place in the trend, so a model keeps its look whichever others are shown.

use runlens_charts::{
    Marker, Palette, TREND_LEGEND_MAX, Theme, TrendChart, TrendSeries, TrendValue,
};
use runlens_core::site::{RunIndex, Trend};

/// The markers, cycled once the colours run out (8 colours × 5 markers tell 40 lines apart).
const MARKERS: [Marker; 5] = [
    Marker::Circle,
    Marker::Square,
    Marker::Triangle,
    Marker::Diamond,
    Marker::TriangleDown,
];

/// The colour and marker of the trend's `i`-th model.
pub fn look(i: usize) -> (plotters::style::RGBColor, Marker) {
    let n = Palette::SERIES.len();
    (Palette::SERIES[i % n], MARKERS[(i / n) % MARKERS.len()])
}

/// The y range in percent: the shown values and intervals with 2 points of room, widened to
/// tens, at least 20 points tall, within 0–100.
pub fn y_range(trend: &Trend, shown: impl Fn(&str) -> bool) -> (f64, f64) {
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for m in trend.models.iter().filter(|m| shown(&m.model)) {
        for p in m.points.iter().flatten() {
            let [a, b] = p.ci95.unwrap_or([p.pass, p.pass]);
            lo = lo.min(100.0 * a.min(p.pass));
            hi = hi.max(100.0 * b.max(p.pass));
        }
    }
    if !lo.is_finite() {
        return (0.0, 100.0);
    }
    let mut lo = (((lo - 2.0) / 10.0).floor() * 10.0).max(0.0);
    let mut hi = (((hi + 2.0) / 10.0).ceil() * 10.0).min(100.0);
    while hi - lo < 20.0 {
        if lo > 0.0 {
            lo -= 10.0;
        } else {
            hi += 10.0;
        }
    }
    (lo.max(0.0), hi.min(100.0))
}

/// Lines in colour when more than [`TREND_LEGEND_MAX`] are shown: the first ones of the
/// trend's order (highest pass rate in the newest run); the others are grey.
pub const COLOURED: usize = 8;

/// The chart of `trend` over `index`'s runs, the models `shown` only. With more than
/// [`TREND_LEGEND_MAX`] of them, the first [`COLOURED`] are in colour and in the legend and
/// the others grey (drawn first, under them); a model keeps its colour either way.
pub fn trend_chart(
    trend: &Trend,
    index: &RunIndex,
    shown: impl Fn(&str) -> bool + Copy,
    theme: Theme,
) -> TrendChart {
    TrendChart {
        title: format!("Pass rate across runs ({})", trend.corpus),
        y_desc: "pass rate (%)".into(),
        y_range: y_range(trend, shown),
        runs: trend
            .runs
            .iter()
            .map(|&i| index.runs[i].name.clone())
            .collect(),
        series: {
            let picked: Vec<(usize, &runlens_core::site::TrendModel)> = trend
                .models
                .iter()
                .enumerate()
                .filter(|(_, m)| shown(&m.model))
                .collect();
            let crowded = picked.len() > TREND_LEGEND_MAX;
            let (top, rest) = picked.split_at(if crowded { COLOURED } else { picked.len() });
            rest.iter()
                .map(|p| (p, false))
                .chain(top.iter().map(|p| (p, true)))
                .map(|(&(i, m), coloured)| {
                    let (color, marker) = if coloured {
                        look(i)
                    } else {
                        let grey = if theme == Theme::DARK {
                            Palette::CONTEXT_DARK
                        } else {
                            Palette::CONTEXT_LIGHT
                        };
                        (grey, Marker::Circle)
                    };
                    TrendSeries {
                        label: m.name.clone(),
                        color,
                        marker,
                        in_legend: coloured,
                        points: m
                            .points
                            .iter()
                            .map(|p| {
                                p.map(|p| TrendValue {
                                    value: 100.0 * p.pass,
                                    ci: p.ci95.map(|[a, b]| (100.0 * a, 100.0 * b)),
                                })
                            })
                            .collect(),
                    }
                })
                .collect()
        },
        theme,
    }
}
