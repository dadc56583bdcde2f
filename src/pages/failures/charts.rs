//! The failures view's charts built from a [`FailuresSummary`], each with its keyboard-reachable
//! items (same numbers, same filters) for the list beneath the canvas.

use runlens_charts::{
    AnyChart, HBar, HBarChart, HeatmapChart, HistogramChart, StackRow, StackedChart, Theme,
    Threshold, format_threshold, hex_color,
};
use runlens_core::metrics::failures::NO_FAMILY;
use runlens_core::metrics::fm_shares::FM_CODES;
use runlens_core::metrics::taxonomy::{FAMILIES, FmBucket, bucket_of};

use runlens_core::metrics::failures_view::{BINS, FailuresSummary, MODEL_SEP};

/// One chart element as a button: its hit-box `(row, col)`, text, filter and number.
#[derive(Debug, Clone, PartialEq)]
pub struct ChartItem {
    /// Hit-box row and column of the drawn element (`None` when not drawn, e.g. a zero bar).
    pub hit: Option<(usize, usize)>,
    /// Button text.
    pub label: String,
    /// The `f` value a click sets.
    pub filter: String,
    /// `data-metric` name of the number, if it is a headline figure.
    pub metric: Option<String>,
    /// The number (a count, or a percent for the heatmap).
    pub value: f64,
}

/// Okabe-Ito colours of the 7 families (grey for `(none)`).
pub fn family_colour(family: &str) -> &'static str {
    match family {
        "comprehension" => "#E69F00",
        "entity_resolution" => "#56B4E9",
        "schema_choice" => "#009E73",
        "query_construction" => "#CC79A7",
        "execution" => "#D55E00",
        "process" => "#0072B2",
        "grading" => "#F0E442",
        _ => "#999999",
    }
}

fn rgb(hex: &str) -> plotters::style::RGBColor {
    hex_color(hex).unwrap_or(plotters::style::RGBColor(0x99, 0x99, 0x99))
}

/// `(key, count)` largest first, ties in the given order; zeros last (not drawn).
fn ranked<'a>(counts: impl Iterator<Item = (&'a String, &'a usize)>) -> Vec<(String, usize)> {
    let mut v: Vec<(String, usize)> = counts.map(|(k, c)| (k.clone(), *c)).collect();
    v.sort_by_key(|(_, c)| std::cmp::Reverse(*c));
    v
}

fn bar_items(kind: &str, ranked: &[(String, usize)]) -> Vec<ChartItem> {
    let mut drawn = 0;
    ranked
        .iter()
        .map(|(k, c)| {
            let hit = (*c > 0).then(|| {
                drawn += 1;
                (drawn - 1, 0)
            });
            ChartItem {
                hit,
                label: k.clone(),
                filter: format!("{kind}:{k}"),
                metric: Some(format!("{kind}:{k}")),
                value: *c as f64,
            }
        })
        .collect()
}

/// Sub-mode bars coloured by FM crosswalk bucket, largest first (`fm_crosswalk.png`).
pub fn sub_mode_chart(s: &FailuresSummary, theme: Theme) -> (AnyChart, Vec<ChartItem>) {
    let ranked = ranked(s.counts.sub_mode.iter());
    let bars = ranked
        .iter()
        .filter(|(_, c)| *c > 0)
        .map(|(k, c)| HBar {
            label: k.clone(),
            value: *c,
            color: rgb(bucket_of(k).colour()),
        })
        .collect();
    let legend = FmBucket::ORDER
        .iter()
        .map(|b| (b.label().to_owned(), rgb(b.colour())))
        .collect();
    let chart = AnyChart::HBars(HBarChart {
        title: format!(
            "Jev sub-modes (n={}), colored by blog failure mode",
            s.counts.n
        ),
        x_desc: "failed cells".into(),
        bars,
        legend: ("blog failure mode".into(), legend),
        label_width: 190,
        theme,
    });
    (chart, bar_items("sub_mode", &ranked))
}

/// Family bars, largest first.
pub fn family_chart(s: &FailuresSummary, theme: Theme) -> (AnyChart, Vec<ChartItem>) {
    let ranked = ranked(s.counts.family.iter());
    let bars = ranked
        .iter()
        .filter(|(_, c)| *c > 0)
        .map(|(k, c)| HBar {
            label: k.clone(),
            value: *c,
            color: rgb(family_colour(k)),
        })
        .collect();
    let chart = AnyChart::HBars(HBarChart {
        title: format!("Jev failure families (n={})", s.counts.n),
        x_desc: "failed cells".into(),
        bars,
        legend: (String::new(), Vec::new()),
        label_width: 150,
        theme,
    });
    (chart, bar_items("family", &ranked))
}

/// The families shown as series: the 7 known ones, plus `(none)` when any row has it.
fn family_series(s: &FailuresSummary) -> Vec<String> {
    let mut v: Vec<String> = FAMILIES.iter().map(|f| f.to_string()).collect();
    if s.counts.family.get(NO_FAMILY).is_some_and(|c| *c > 0) {
        v.push(NO_FAMILY.to_owned());
    }
    v
}

/// Per-model stacked family shares, models by failure count (most on top).
pub fn profile_chart(s: &FailuresSummary, theme: Theme) -> (AnyChart, Vec<ChartItem>) {
    let series = family_series(s);
    let mut items = Vec::new();
    let rows = s
        .by_model
        .iter()
        .enumerate()
        .map(|(i, (model, c))| {
            let counts: Vec<usize> = series
                .iter()
                .map(|f| c.family.get(f).copied().unwrap_or(0))
                .collect();
            for (j, (f, n)) in series.iter().zip(&counts).enumerate() {
                if *n > 0 {
                    items.push(ChartItem {
                        hit: Some((i, j)),
                        label: format!("{} · {f}", s.name(model)),
                        filter: format!("family:{f}{MODEL_SEP}{model}"),
                        metric: None,
                        value: 100.0 * *n as f64 / c.n.max(1) as f64,
                    });
                }
            }
            StackRow {
                label: s.name(model).to_owned(),
                counts,
            }
        })
        .collect();
    let chart = AnyChart::Stacked(StackedChart {
        title: "Failure-family profile by model (share of each model's failures)".into(),
        rows,
        series: series
            .iter()
            .map(|f| (f.clone(), rgb(family_colour(f))))
            .collect(),
        label_width: 170,
        theme,
    });
    (chart, items)
}

/// FM1–FM5 heatmap per model (`11_fm_heatmap.py`); `None` without FM labels.
pub fn fm_chart(s: &FailuresSummary, theme: Theme) -> Option<(AnyChart, Vec<ChartItem>)> {
    if s.fm.is_empty() {
        return None;
    }
    let mut items = Vec::new();
    for (i, r) in s.fm.iter().enumerate() {
        for (j, code) in FM_CODES.iter().enumerate() {
            items.push(ChartItem {
                hit: Some((i, j)),
                label: format!("{} · {code}", s.name(&r.model)),
                filter: format!("fm:{code}{MODEL_SEP}{}", r.model),
                metric: None,
                value: r.percent[j],
            });
        }
    }
    let chart = AnyChart::Heatmap(HeatmapChart {
        title: "Failure modes, % of concluded failures (row-normalised)".into(),
        rows: s.fm.iter().map(|r| s.name(&r.model).to_owned()).collect(),
        cols: [
            "FM1 no attempt",
            "FM2 wrong plan",
            "FM3 wrong data",
            "FM4 wrong impl.",
            "FM5 runtime",
        ]
        .map(String::from)
        .to_vec(),
        percent: s.fm.iter().map(|r| r.percent.to_vec()).collect(),
        label_width: 170,
        theme,
    });
    Some((chart, items))
}

fn bin_items(kind: &str, counts: &[usize]) -> Vec<ChartItem> {
    let w = 1.0 / BINS as f64;
    counts
        .iter()
        .enumerate()
        .map(|(i, c)| ChartItem {
            hit: Some((0, i)),
            label: format!("{:.2}–{:.2}", i as f64 * w, (i + 1) as f64 * w),
            filter: format!("{kind}:{i}"),
            metric: None,
            value: *c as f64,
        })
        .collect()
}

/// The `correct_despite_fail` histogram with the threshold line at `ct` (`fm_cdf.png`).
pub fn cdf_chart(
    s: &FailuresSummary,
    ct: f64,
    above: usize,
    theme: Theme,
) -> (AnyChart, Vec<ChartItem>) {
    let chart = AnyChart::Histogram(HistogramChart {
        title: format!("Judge-of-judges flag across {} failures", s.counts.n),
        x_desc: "Jev correct_despite_fail (probability the candidate is right despite the fail)"
            .into(),
        y_desc: "failed cells".into(),
        counts: s.cdf_hist.clone(),
        color: rgb("#0072B2"),
        threshold: Some(Threshold {
            at: ct,
            label: format!("{}: genuine grader errors above", format_threshold(ct)),
            above,
        }),
        theme,
    });
    (chart, bin_items("cdf", &s.cdf_hist))
}

/// The `schema_hint_would_help` distribution.
pub fn hint_chart(s: &FailuresSummary, theme: Theme) -> (AnyChart, Vec<ChartItem>) {
    let chart = AnyChart::Histogram(HistogramChart {
        title: format!("Would a schema hint help? ({} failures)", s.counts.n),
        x_desc: "Jev schema_hint_would_help (probability)".into(),
        y_desc: "failed cells".into(),
        counts: s.hint_hist.clone(),
        color: rgb("#009E73"),
        threshold: None,
        theme,
    });
    (chart, bin_items("hint", &s.hint_hist))
}
