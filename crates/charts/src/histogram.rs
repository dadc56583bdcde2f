//! A histogram of probabilities in equal bins over [0, 1] (the harness's `fm_cdf.png`),
//! with an optional dashed threshold line and the count at or above it.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::text::format_threshold;
use crate::title::{titled, x_described};
use crate::{ChartError, HitBox, HitLayout, Palette, Theme};

/// A threshold line: where, its label, and the count at or above it.
#[derive(Debug, Clone, PartialEq)]
pub struct Threshold {
    /// Position on the x axis, in 0..=1.
    pub at: f64,
    /// Text beside the line, e.g. "0.65: genuine grader errors above".
    pub label: String,
    /// Values ≥ `at` (drawn as "n ≥ 0.65: 18").
    pub above: usize,
}

/// A histogram chart.
#[derive(Debug, Clone, PartialEq)]
pub struct HistogramChart {
    /// Title above the plot.
    pub title: String,
    /// X axis description.
    pub x_desc: String,
    /// Y axis description.
    pub y_desc: String,
    /// Counts per bin; bin `i` of `n` covers `[i/n, (i+1)/n)`.
    pub counts: Vec<usize>,
    /// Bar colour.
    pub color: RGBColor,
    /// Dashed threshold line, if any.
    pub threshold: Option<Threshold>,
    /// Colours of background, text and grid.
    pub theme: Theme,
}

/// Draws `chart`; hit boxes have `row` 0 and `col` = bin index (every bin, even empty ones:
/// an empty bin's box spans its column from the axis up to the top).
pub fn draw_histogram<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    chart: &HistogramChart,
) -> Result<HitLayout, ChartError<DB>> {
    let theme = chart.theme;
    let n = chart.counts.len().max(1);
    let top = chart.counts.iter().copied().max().unwrap_or(0).max(1) as f64 * 1.2;
    area.fill(&theme.background)?;
    let title_style = ("sans-serif", 17).into_font().color(&theme.text);
    let plot_area = titled(area, &chart.title, &title_style, 14)?;
    let label_style = ("sans-serif", 12).into_font().color(&theme.text);
    // A description wider than the plot wraps under it instead of running off (#17, 390 px).
    let (plot_area, x_desc) = x_described(&plot_area, &chart.x_desc, &label_style, 14, 48)?;
    let mut ctx = ChartBuilder::on(&plot_area)
        .margin(14)
        .margin_top(0)
        .x_label_area_size(40)
        .y_label_area_size(48)
        .build_cartesian_2d(0.0..1.0, 0.0..top)?;
    ctx.configure_mesh()
        .x_desc(x_desc)
        .y_desc(chart.y_desc.as_str())
        .disable_x_mesh()
        .x_labels(11)
        .y_labels(6)
        .x_label_formatter(&|x| format_threshold(*x))
        .y_label_formatter(&|y| format!("{}", y.round() as i64))
        .label_style(label_style.clone())
        .axis_desc_style(label_style.clone())
        .axis_style(theme.text)
        .bold_line_style(theme.grid)
        .light_line_style(theme.background)
        .draw()?;
    let w = 1.0 / n as f64;
    let mut boxes = Vec::with_capacity(n);
    for (i, &c) in chart.counts.iter().enumerate() {
        let (x0, x1) = (i as f64 * w, (i + 1) as f64 * w);
        if c > 0 {
            ctx.draw_series([
                Rectangle::new([(x0, 0.0), (x1, c as f64)], chart.color.filled()),
                // White edges, as in the harness's plot.
                Rectangle::new([(x0, 0.0), (x1, c as f64)], theme.background),
            ])?;
        }
        let (l, b) = ctx.backend_coord(&(x0, 0.0));
        let (r, t) = ctx.backend_coord(&(x1, if c > 0 { c as f64 } else { top }));
        boxes.push(HitBox {
            rect: (l, t, r, b),
            row: 0,
            col: i,
        });
    }
    if let Some(th) = &chart.threshold {
        let at = th.at.clamp(0.0, 1.0);
        let (x, y0) = ctx.backend_coord(&(at, 0.0));
        let y1 = ctx.backend_coord(&(at, top)).1;
        let dash = Palette::GOLD.stroke_width(2);
        let mut y = y0;
        while y > y1 {
            area.draw(&PathElement::new(vec![(x, y), (x, (y - 6).max(y1))], dash))?;
            y -= 10;
        }
        // Text on the side with more room.
        let (dx, hpos) = if at < 0.6 {
            (6, HPos::Left)
        } else {
            (-6, HPos::Right)
        };
        let style = label_style.pos(Pos::new(hpos, VPos::Top));
        let count = format!("n ≥ {}: {}", format_threshold(at), th.above);
        area.draw(&Text::new(
            th.label.clone(),
            (x + dx, y1 + 4),
            style.clone(),
        ))?;
        area.draw(&Text::new(count, (x + dx, y1 + 20), style))?;
    }
    Ok(HitLayout { boxes })
}
