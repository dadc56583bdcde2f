//! The published per-question figure: P(yes) of every table as horizontal bars sorted
//! descending, a dashed threshold line, gold tables marked by colour **and** by "★".

use plotters::coord::Shift;
use plotters::element::DashedPathElement;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::text::{format_threshold, truncate_chars};
use crate::title::titled;
use crate::{ChartError, Palette, Theme};

/// One table's bar.
#[derive(Debug, Clone, PartialEq)]
pub struct ProbabilityBar {
    /// Table name (drawn as text).
    pub table: String,
    /// P(yes); non-finite values draw as 0, values are clipped to [0, 1].
    pub p: f64,
    /// Whether the table is gold (drawn in [`Palette::GOLD`] with a "★" before its name).
    pub is_gold: bool,
}

/// A per-question P(yes) chart.
#[derive(Debug, Clone, PartialEq)]
pub struct ProbabilityChart {
    /// The question text; truncated to [`TITLE_CHARS`] characters with "…".
    pub title: String,
    /// The bars, in any order: they are drawn by P descending (ties keep this order).
    pub bars: Vec<ProbabilityBar>,
    /// Threshold `t`, drawn as a dashed vertical line labelled "t = …".
    pub threshold: f64,
    /// Colours of background, text and grid.
    pub theme: Theme,
    /// Width in pixels of the label column.
    pub label_width: u32,
}

/// Margin around the chart, px.
const MARGIN: i32 = 14;
/// Title font size, px.
const TITLE_PX: i32 = 16;
/// Threshold label font size, px (the axis labels' size).
const T_LABEL_PX: i32 = 13;
/// Space between the title, the threshold label and the plot, px.
const GAP: i32 = 4;

/// Longest title drawn, in characters.
pub const TITLE_CHARS: usize = 90;

/// Marker text before gold tables' names and in the key.
pub const GOLD_MARK: &str = "★";

/// Pixel geometry of the drawn bars, for hit-testing.
#[derive(Debug, Clone, PartialEq)]
pub struct ProbabilityLayout {
    /// Per drawn row (top to bottom): `(top, bottom)` pixel y.
    pub rows_px: Vec<(i32, i32)>,
    /// Per drawn row: the index of its bar in [`ProbabilityChart::bars`].
    pub order: Vec<usize>,
    /// Pixel x of P = 0 and of P = 1.
    pub x_px: (i32, i32),
    /// Pixel x of the threshold line.
    pub threshold_px: i32,
}

impl ProbabilityLayout {
    /// Index into [`ProbabilityChart::bars`] of the bar under pixel `y`, if any.
    pub fn bar_at(&self, y: i32) -> Option<usize> {
        let row = self.rows_px.iter().position(|&(t, b)| y >= t && y <= b)?;
        self.order.get(row).copied()
    }
}

fn clean(p: f64) -> f64 {
    if p.is_finite() {
        p.clamp(0.0, 1.0)
    } else {
        0.0
    }
}

/// Draws `chart` on `area`; returns where the bars landed.
pub fn draw_probability_bars<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    chart: &ProbabilityChart,
) -> Result<ProbabilityLayout, ChartError<DB>> {
    let theme = chart.theme;
    let n = chart.bars.len();
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| {
        let (pa, pb) = (clean(chart.bars[a].p), clean(chart.bars[b].p));
        pb.total_cmp(&pa)
    });
    let t = clean(chart.threshold);
    area.fill(&theme.background)?;
    let title = truncate_chars(&chart.title, TITLE_CHARS);
    // The title on top, then a band for the threshold's label, then the plot: with plotters'
    // caption the label sat in the caption's padding and crossed the title (#17, bug 10).
    // The title wraps onto more lines on a narrow chart (#17, bug 5).
    let title_style = ("sans-serif", TITLE_PX).into_font().color(&theme.text);
    let below = titled(area, &title, &title_style, MARGIN as u32)?;
    let title_h = area.dim_in_pixel().1 as i32 - below.dim_in_pixel().1 as i32;
    let mut ctx = ChartBuilder::on(area)
        .margin(MARGIN)
        .margin_top(title_h + GAP + T_LABEL_PX + GAP)
        .margin_right(48)
        .x_label_area_size(40)
        .y_label_area_size(chart.label_width)
        .build_cartesian_2d(0.0..1.0, 0.0..(n.max(1) as f64))?;
    let label_style = ("sans-serif", T_LABEL_PX).into_font().color(&theme.text);
    ctx.configure_mesh()
        .x_desc("P(yes)")
        .disable_y_mesh()
        .y_labels(0)
        .x_labels(6)
        .x_label_formatter(&|x| format!("{x:.1}"))
        .label_style(label_style.clone())
        .axis_desc_style(label_style.clone())
        .axis_style(theme.text)
        .bold_line_style(theme.grid)
        .light_line_style(theme.background)
        .draw()?;
    // Drawn row r occupies y in [n-1-r, n-r): the highest P is on top.
    let band = |r: usize| ((n - 1 - r) as f64 + 0.15, (n - r) as f64 - 0.15);
    let color = |b: &ProbabilityBar| {
        if b.is_gold {
            Palette::GOLD
        } else {
            Palette::OTHER
        }
    };
    ctx.draw_series(order.iter().enumerate().map(|(r, &i)| {
        let (lo, hi) = band(r);
        let b = &chart.bars[i];
        Rectangle::new([(0.0, lo), (clean(b.p), hi)], color(b).filled())
    }))?;
    ctx.draw_series([DashedPathElement::new(
        vec![(t, 0.0), (t, n.max(1) as f64)],
        6,
        4,
        theme.text.stroke_width(1),
    )])?;
    let rows_px: Vec<(i32, i32)> = (0..n)
        .map(|r| {
            let (lo, hi) = band(r);
            (
                ctx.backend_coord(&(0.0, hi)).1,
                ctx.backend_coord(&(0.0, lo)).1,
            )
        })
        .collect();
    let x_px = (
        ctx.backend_coord(&(0.0, 0.0)).0,
        ctx.backend_coord(&(1.0, 0.0)).0,
    );
    let (threshold_px, top_px) = ctx.backend_coord(&(t, n.max(1) as f64));
    let left = label_style.pos(Pos::new(HPos::Left, VPos::Center));
    let right = label_style.pos(Pos::new(HPos::Right, VPos::Center));
    for (&i, &(top, bottom)) in order.iter().zip(&rows_px) {
        let b = &chart.bars[i];
        let mid = (top + bottom) / 2;
        let name = if b.is_gold {
            format!("{GOLD_MARK} {}", b.table)
        } else {
            b.table.clone()
        };
        area.draw(&Text::new(name, (x_px.0 - 6, mid), right.clone()))?;
        let end = ctx.backend_coord(&(clean(b.p), 0.0)).0;
        area.draw(&Text::new(
            format!("{:.2}", clean(b.p)),
            (end + 4, mid),
            left.clone(),
        ))?;
    }
    let above = label_style.pos(Pos::new(HPos::Center, VPos::Bottom));
    let t_label = format!("t = {}", format_threshold(t));
    area.draw(&Text::new(t_label, (threshold_px, top_px - GAP), above))?;
    // The key sits right-aligned in the x label band, clear of the threshold label.
    let key = ("sans-serif", 13).into_font().color(&Palette::GOLD);
    let key = key.pos(Pos::new(HPos::Right, VPos::Center));
    let axis_y = ctx.backend_coord(&(0.0, 0.0)).1;
    area.draw(&Text::new(
        format!("{GOLD_MARK} gold"),
        (x_px.1, axis_y + 30),
        key,
    ))?;
    Ok(ProbabilityLayout {
        rows_px,
        order,
        x_px,
        threshold_px,
    })
}
