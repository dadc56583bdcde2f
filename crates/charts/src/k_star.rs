//! Histogram of k*: how many questions need the top k to hold every gold table, for
//! k = 1..K, plus a "not found" bar for questions with a gold table that is never ranked.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::title::{titled, x_described};
use crate::{ChartError, Palette, Theme};

/// A k* histogram.
#[derive(Debug, Clone, PartialEq)]
pub struct KStarChart {
    /// Title above the plot.
    pub title: String,
    /// `counts[i]` = questions whose k* is `i + 1`; the x axis runs over `1..=counts.len()`.
    pub counts: Vec<usize>,
    /// Questions whose gold set is never fully ranked; a "not found" bar when > 0.
    pub not_found: usize,
    /// Colours of background, text and grid.
    pub theme: Theme,
}

/// Label of the bar for questions whose gold set is never fully ranked.
pub const NOT_FOUND_LABEL: &str = "not found";

/// Columns narrower than this (pixels) are labelled sparsely.
const MIN_LABEL_PX: u32 = 22;

/// Pixel geometry of the drawn columns, for hit-testing.
#[derive(Debug, Clone, PartialEq)]
pub struct KStarLayout {
    /// Per column, left to right: `(left, right)` pixel x of the bar (k = 1.. then "not
    /// found" if drawn).
    pub columns_px: Vec<(i32, i32)>,
    /// Pixel y of count 0 and of the axis top.
    pub y_px: (i32, i32),
}

impl KStarLayout {
    /// The column under pixel `x`: `Some(i)` is k = `i + 1`, or "not found" when `i` equals
    /// the chart's `counts.len()`.
    pub fn column_at(&self, x: i32) -> Option<usize> {
        self.columns_px.iter().position(|&(l, r)| x >= l && x <= r)
    }
}

/// Draws `chart` on `area`; returns where the columns landed.
pub fn draw_k_star_histogram<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    chart: &KStarChart,
) -> Result<KStarLayout, ChartError<DB>> {
    let theme = chart.theme;
    let mut columns: Vec<(String, usize, RGBColor)> = chart
        .counts
        .iter()
        .enumerate()
        .map(|(i, &c)| ((i + 1).to_string(), c, Palette::K_STAR))
        .collect();
    if chart.not_found > 0 {
        columns.push((NOT_FOUND_LABEL.to_string(), chart.not_found, Palette::OTHER));
    }
    let n = columns.len().max(1) as f64;
    let top = columns.iter().map(|c| c.1).max().unwrap_or(0).max(1) as f64 * 1.15;
    area.fill(&theme.background)?;
    let title_style = ("sans-serif", 18).into_font().color(&theme.text);
    let plot_area = titled(area, &chart.title, &title_style, 14)?;
    let label_style = ("sans-serif", 13).into_font().color(&theme.text);
    // A description wider than the plot wraps under it instead of running off (#17, 390 px).
    let (plot_area, x_desc) = x_described(
        &plot_area,
        "k* (tables needed to hold every gold table)",
        &label_style,
        14,
        48,
    )?;
    let mut ctx = ChartBuilder::on(&plot_area)
        .margin(14)
        .margin_top(0)
        .x_label_area_size(40)
        .y_label_area_size(48)
        .build_cartesian_2d(0.0..n, 0.0..top)?;
    ctx.configure_mesh()
        .x_desc(x_desc)
        .y_desc("questions")
        .disable_x_mesh()
        .x_labels(0)
        .y_labels(6)
        .y_label_formatter(&|y| format!("{}", y.round() as i64))
        .label_style(label_style.clone())
        .axis_desc_style(label_style.clone())
        .axis_style(theme.text)
        .bold_line_style(theme.grid)
        .light_line_style(theme.background)
        .draw()?;
    let span = |i: usize| (i as f64 + 0.12, i as f64 + 0.88);
    ctx.draw_series(columns.iter().enumerate().map(|(i, (_, c, color))| {
        let (l, r) = span(i);
        Rectangle::new([(l, 0.0), (r, *c as f64)], color.filled())
    }))?;
    let columns_px: Vec<(i32, i32)> = (0..columns.len())
        .map(|i| {
            let (l, r) = span(i);
            (
                ctx.backend_coord(&(l, 0.0)).0,
                ctx.backend_coord(&(r, 0.0)).0,
            )
        })
        .collect();
    let y_px = (
        ctx.backend_coord(&(0.0, 0.0)).1,
        ctx.backend_coord(&(0.0, top)).1,
    );
    let above = label_style.pos(Pos::new(HPos::Center, VPos::Bottom));
    let below = label_style.pos(Pos::new(HPos::Center, VPos::Top));
    // Narrow columns label every `every`-th k (and always "not found") so text never overlaps.
    let width = columns_px
        .first()
        .map_or(1, |&(l, r)| (r - l).max(1).unsigned_abs());
    let every = MIN_LABEL_PX.div_ceil(width) as usize;
    for (i, ((label, count, _), &(l, r))) in columns.iter().zip(&columns_px).enumerate() {
        if i % every != 0 && label != NOT_FOUND_LABEL {
            continue;
        }
        let mid = (l + r) / 2;
        let bar_top = ctx.backend_coord(&(0.0, *count as f64)).1;
        area.draw(&Text::new(
            count.to_string(),
            (mid, bar_top - 3),
            above.clone(),
        ))?;
        area.draw(&Text::new(label.clone(), (mid, y_px.0 + 5), below.clone()))?;
    }
    Ok(KStarLayout { columns_px, y_px })
}
