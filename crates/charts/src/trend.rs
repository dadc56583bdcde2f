//! A trend across runs: x = the runs in order (categories, not numbers), one line per model
//! with its interval as a whisker at each run; a run a model is missing from breaks its line.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::curves::{Marker, draw_legend, draw_markers};
use crate::text::truncate_chars;
use crate::title::titled;
use crate::{ChartError, Theme};

/// One model's value at one run.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TrendValue {
    /// The value, in y units.
    pub value: f64,
    /// Its 95 % interval, in y units.
    pub ci: Option<(f64, f64)>,
}

/// One line of a trend.
#[derive(Debug, Clone, PartialEq)]
pub struct TrendSeries {
    /// Legend and read-out text.
    pub label: String,
    /// Line, whisker and marker colour.
    pub color: RGBColor,
    /// Marker at every value.
    pub marker: Marker,
    /// Whether the legend lists it (a chart of many lines greys most of them out and lists
    /// the coloured ones).
    pub in_legend: bool,
    /// One entry per run (`None`: no value there).
    pub points: Vec<Option<TrendValue>>,
}

/// A trend chart.
#[derive(Debug, Clone, PartialEq)]
pub struct TrendChart {
    /// Title above the plot.
    pub title: String,
    /// Y axis description.
    pub y_desc: String,
    /// Y range.
    pub y_range: (f64, f64),
    /// The runs' names, in x order (shown cut to [`RUN_LABEL_CHARS`], thinned to fit).
    pub runs: Vec<String>,
    /// The lines, drawn in order (the first on the bottom).
    pub series: Vec<TrendSeries>,
    /// Colours of background, text and grid.
    pub theme: Theme,
}

/// Most characters of a run's name under the axis.
pub const RUN_LABEL_CHARS: usize = 18;
/// Most legend entries drawn in the plot; past it the read-out and the table name them.
pub const TREND_LEGEND_MAX: usize = 10;
/// How near (px) the pointer must be to a marker to pick that one model.
const POINT_REACH: i32 = 8;

/// Where a trend landed, for hover read-outs and clicks.
#[derive(Debug, Clone, PartialEq)]
pub struct TrendLayout {
    /// Pixel x of each run's column.
    pub x_px: Vec<i32>,
    /// Pixel y of the y range's low and high end.
    pub y_px: (i32, i32),
    /// Each series' marker positions, per run (`None` where it has no value).
    pub points: Vec<Vec<Option<(i32, i32)>>>,
}

impl TrendLayout {
    /// The run whose column is nearest to pixel `x`, within half a column's step (12 px for
    /// one run) and inside the plot.
    pub fn run_at(&self, x: i32) -> Option<usize> {
        let step = match self.x_px.as_slice() {
            [] => return None,
            [_] => 24,
            [a, b, ..] => (b - a).max(1),
        };
        self.x_px
            .iter()
            .enumerate()
            .min_by_key(|(_, px)| (*px - x).abs())
            .filter(|(_, px)| (*px - x).abs() * 2 <= step)
            .map(|(i, _)| i)
    }

    /// The marker nearest to `(x, y)` within a few pixels, as `(series, run)`; of markers
    /// drawn on top of each other, the last drawn (the one seen).
    pub fn point_at(&self, x: i32, y: i32) -> Option<(usize, usize)> {
        let mut best: Option<(i32, (usize, usize))> = None;
        for (s, line) in self.points.iter().enumerate() {
            for (r, p) in line.iter().enumerate() {
                let Some((px, py)) = p else { continue };
                let d = (px - x).abs().max((py - y).abs());
                if d <= POINT_REACH && best.is_none_or(|(bd, _)| d <= bd) {
                    best = Some((d, (s, r)));
                }
            }
        }
        best.map(|(_, hit)| hit)
    }
}

/// Draws `chart` on `area`; returns where the runs and markers landed.
pub fn draw_trend<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    chart: &TrendChart,
) -> Result<TrendLayout, ChartError<DB>> {
    let theme = chart.theme;
    let n = chart.runs.len().max(1);
    area.fill(&theme.background)?;
    let title_style = ("sans-serif", 18).into_font().color(&theme.text);
    let plot_area = titled(area, &chart.title, &title_style, 14)?;
    let (y0, y1) = chart.y_range;
    let mut ctx = ChartBuilder::on(&plot_area)
        .margin(14)
        .margin_top(0)
        .x_label_area_size(44)
        .y_label_area_size(48)
        .build_cartesian_2d(-0.5..(n as f64 - 0.5), y0..y1)?;
    let label_style = ("sans-serif", 13).into_font().color(&theme.text);
    let wide = (y1 - y0).abs() > 10.0;
    ctx.configure_mesh()
        .x_desc("run")
        .y_desc(chart.y_desc.as_str())
        .x_labels(0)
        .disable_x_mesh()
        .y_labels(6)
        .y_label_formatter(&|y| {
            if wide {
                format!("{y:.0}")
            } else {
                format!("{y:.1}")
            }
        })
        .label_style(label_style.clone())
        .axis_desc_style(label_style.clone())
        .axis_style(theme.text)
        .bold_line_style(theme.grid)
        .light_line_style(theme.background)
        .draw()?;
    let x_px: Vec<i32> = (0..chart.runs.len())
        .map(|i| ctx.backend_coord(&(i as f64, y0)).0)
        .collect();
    let bottom = ctx.backend_coord(&(0.0, y0)).1;
    draw_run_labels(area, &chart.runs, &x_px, bottom, &label_style, theme.text)?;
    // Whiskers first, thin and pale, nudged apart a little so equal intervals stay visible.
    let k = chart.series.len();
    let step = match x_px.as_slice() {
        [a, b, ..] => f64::from(b - a),
        _ => 48.0,
    };
    let nudge = (step / (k as f64 + 1.0)).min(4.0);
    let offset = |s: usize| ((s as f64 - (k as f64 - 1.0) / 2.0) * nudge).round() as i32;
    let clip = |v: f64| v.clamp(y0.min(y1), y0.max(y1));
    // Grey lines (out of the legend) get none: they are context, and a site of many models
    // would draw thousands of them.
    for (s, series) in chart.series.iter().enumerate().filter(|(_, s)| s.in_legend) {
        let stroke = series.color.mix(0.45).stroke_width(1);
        for (i, p) in series.points.iter().enumerate() {
            let Some(TrendValue {
                ci: Some((lo, hi)), ..
            }) = p
            else {
                continue;
            };
            let (x, top) = ctx.backend_coord(&(i as f64, clip(*hi)));
            let (_, low) = ctx.backend_coord(&(i as f64, clip(*lo)));
            let x = x + offset(s);
            area.draw(&PathElement::new(vec![(x, top), (x, low)], stroke))?;
            area.draw(&PathElement::new(vec![(x - 2, top), (x + 2, top)], stroke))?;
            area.draw(&PathElement::new(vec![(x - 2, low), (x + 2, low)], stroke))?;
        }
    }
    let mut points = Vec::with_capacity(k);
    for series in &chart.series {
        // A line per unbroken stretch of values.
        let mut stretch: Vec<(f64, f64)> = Vec::new();
        let mut stretches = Vec::new();
        for (i, p) in series.points.iter().enumerate() {
            match p {
                Some(v) => stretch.push((i as f64, clip(v.value))),
                None => stretches.push(std::mem::take(&mut stretch)),
            }
        }
        stretches.push(stretch);
        for line in stretches.iter().filter(|l| l.len() > 1) {
            ctx.draw_series(LineSeries::new(
                line.iter().copied(),
                series.color.stroke_width(2),
            ))?;
        }
        // Grey lines are context: a line without markers (a lone value keeps its dot).
        let all: Vec<(f64, f64)> = stretches
            .into_iter()
            .filter(|l| series.in_legend || l.len() == 1)
            .flatten()
            .collect();
        draw_markers(&mut ctx, &all, series.color, series.marker)?;
        points.push(
            series
                .points
                .iter()
                .enumerate()
                .map(|(i, p)| p.map(|v| ctx.backend_coord(&(i as f64, clip(v.value)))))
                .collect::<Vec<_>>(),
        );
    }
    let y_px = (
        ctx.backend_coord(&(0.0, y0)).1,
        ctx.backend_coord(&(0.0, y1)).1,
    );
    let listed: Vec<usize> = (0..k).filter(|&s| chart.series[s].in_legend).collect();
    if (1..=TREND_LEGEND_MAX).contains(&listed.len()) {
        let (left, right) = (
            ctx.backend_coord(&(-0.5, y0)).0,
            ctx.backend_coord(&(n as f64 - 0.5, y0)).0,
        );
        let lines: Vec<Vec<(i32, i32)>> = points
            .iter()
            .map(|l: &Vec<Option<(i32, i32)>>| l.iter().flatten().copied().collect())
            .collect();
        let entries: Vec<(&str, RGBColor, Marker)> = listed
            .iter()
            .map(|&i| {
                let s = &chart.series[i];
                (s.label.as_str(), s.color, s.marker)
            })
            .collect();
        let plot = [(left, y_px.1.min(y_px.0)), (right, y_px.0.max(y_px.1))];
        draw_legend(area, plot, &lines, &entries, &label_style, theme)?;
    }
    Ok(TrendLayout { x_px, y_px, points })
}

/// The runs' names under their columns (cut to [`RUN_LABEL_CHARS`]), every m-th one when
/// they would overlap: the first, then every m-th, so the first run is always named.
fn draw_run_labels<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    runs: &[String],
    x_px: &[i32],
    bottom: i32,
    style: &TextStyle,
    tick: RGBColor,
) -> Result<(), ChartError<DB>> {
    let labels: Vec<String> = runs
        .iter()
        .map(|r| truncate_chars(r, RUN_LABEL_CHARS))
        .collect();
    let mut widths = Vec::with_capacity(labels.len());
    for l in &labels {
        widths.push(area.estimate_text_size(l, style)?.0 as i32);
    }
    let widest = widths.iter().copied().max().unwrap_or(0);
    let step = match x_px {
        [a, b, ..] => (b - a).max(1),
        _ => i32::MAX,
    };
    let every = ((widest + 10 + step - 1) / step).max(1) as usize;
    let width = area.dim_in_pixel().0 as i32;
    let style = style.pos(Pos::new(HPos::Center, VPos::Top));
    for (i, (label, &x)) in labels.iter().zip(x_px).enumerate() {
        if i % every != 0 {
            continue;
        }
        area.draw(&PathElement::new(vec![(x, bottom), (x, bottom + 4)], tick))?;
        // Kept inside the canvas: the last run's name sits under the plot's right edge.
        let half = widths[i] / 2;
        let centre = x.min(width - half - 2).max(half + 2);
        area.draw(&Text::new(
            label.clone(),
            (centre, bottom + 6),
            style.clone(),
        ))?;
    }
    Ok(())
}
