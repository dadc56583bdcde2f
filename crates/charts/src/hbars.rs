//! Horizontal count bars, largest on top, each with its own colour and a count label, and
//! an optional legend at the lower right (the harness's `fm_crosswalk.png`).

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::frame::{RowStyle, XLabels, framed};
use crate::{ChartError, HitBox, HitLayout, Theme};

/// One bar.
#[derive(Debug, Clone, PartialEq)]
pub struct HBar {
    /// Row label, left of the plot.
    pub label: String,
    /// Count (bar length).
    pub value: usize,
    /// Bar colour.
    pub color: RGBColor,
}

/// A chart of [`HBar`]s, drawn top to bottom in the given order.
#[derive(Debug, Clone, PartialEq)]
pub struct HBarChart {
    /// Title above the plot.
    pub title: String,
    /// X axis description, e.g. "failed cells".
    pub x_desc: String,
    /// Bars, first on top.
    pub bars: Vec<HBar>,
    /// Legend title and entries (none drawn when empty).
    pub legend: (String, Vec<(String, RGBColor)>),
    /// Width in pixels of the label column.
    pub label_width: u32,
    /// Colours of background, text and grid.
    pub theme: Theme,
}

/// Draws `chart`; hit boxes have `row` = bar index, `col` = 0.
pub fn draw_hbars<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    chart: &HBarChart,
) -> Result<HitLayout, ChartError<DB>> {
    let theme = chart.theme;
    let n = chart.bars.len();
    let top = chart.bars.iter().map(|b| b.value).max().unwrap_or(0).max(1) as f64 * 1.12;
    area.fill(&theme.background)?;
    let style = RowStyle::COUNTS;
    let frame = framed(
        area,
        &chart.title,
        &chart.x_desc,
        style,
        chart.label_width,
        theme,
    )?;
    let label_style = frame.labels.clone();
    let mut ctx = frame.coords(0.0..top, n)?;
    frame.mesh(&mut ctx, XLabels::Whole)?;
    // Bar i occupies y in [n-1-i, n-i): the first bar is on top.
    let band = |i: usize| ((n - 1 - i) as f64 + 0.15, (n - i) as f64 - 0.15);
    ctx.draw_series(chart.bars.iter().enumerate().map(|(i, b)| {
        let (lo, hi) = band(i);
        Rectangle::new([(0.0, lo), (b.value as f64, hi)], b.color.filled())
    }))?;
    let mut boxes = Vec::with_capacity(n);
    let left = label_style.clone().pos(Pos::new(HPos::Left, VPos::Center));
    let right = label_style.clone().pos(Pos::new(HPos::Right, VPos::Center));
    for (i, b) in chart.bars.iter().enumerate() {
        let (lo, hi) = band(i);
        let (l, t) = ctx.backend_coord(&(0.0, hi));
        let (r, bt) = ctx.backend_coord(&(b.value as f64, lo));
        boxes.push(HitBox {
            rect: (l, t, r.max(l + 2), bt),
            row: i,
            col: 0,
        });
        let mid = (t + bt) / 2;
        area.draw(&Text::new(b.value.to_string(), (r + 4, mid), left.clone()))?;
        area.draw(&Text::new(b.label.clone(), (l - 6, mid), right.clone()))?;
    }
    draw_legend(area, &ctx.backend_coord(&(top, 0.0)), &chart.legend, theme)?;
    Ok(HitLayout { boxes })
}

/// A boxed legend whose lower-right corner is at `corner`.
fn draw_legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    corner: &(i32, i32),
    legend: &(String, Vec<(String, RGBColor)>),
    theme: Theme,
) -> Result<(), ChartError<DB>> {
    let (title, entries) = legend;
    if entries.is_empty() {
        return Ok(());
    }
    let line = 17;
    let width = 10
        + 7 * entries
            .iter()
            .map(|e| e.0.chars().count())
            .max()
            .unwrap_or(0) as i32;
    let width = width.max(7 * title.chars().count() as i32) + 24;
    let height = line * (entries.len() as i32 + 1) + 8;
    let (x1, y1) = (corner.0 - 6, corner.1 - 6);
    let (x0, y0) = (x1 - width, y1 - height);
    area.draw(&Rectangle::new(
        [(x0, y0), (x1, y1)],
        theme.background.filled(),
    ))?;
    area.draw(&Rectangle::new([(x0, y0), (x1, y1)], theme.grid))?;
    let style = ("sans-serif", 12).into_font().color(&theme.text);
    let style = style.pos(Pos::new(HPos::Left, VPos::Center));
    area.draw(&Text::new(
        title.clone(),
        (x0 + 6, y0 + 4 + line / 2),
        style.clone(),
    ))?;
    for (i, (label, color)) in entries.iter().enumerate() {
        let y = y0 + 4 + line * (i as i32 + 1) + line / 2;
        area.draw(&Rectangle::new(
            [(x0 + 6, y - 5), (x0 + 18, y + 5)],
            color.filled(),
        ))?;
        area.draw(&Text::new(label.clone(), (x0 + 24, y), style.clone()))?;
    }
    Ok(())
}
