//! One horizontal 100 % stacked bar per row (a model's share of each family), first row on
//! top, with a legend band under the plot.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::frame::{RowStyle, XLabels, framed};
use crate::{ChartError, HitBox, HitLayout, Theme};

/// One row: a label and a count per series.
#[derive(Debug, Clone, PartialEq)]
pub struct StackRow {
    /// Row label (model).
    pub label: String,
    /// Count per series; segments are `count / sum` of the row.
    pub counts: Vec<usize>,
}

/// A row-normalised stacked bar chart.
#[derive(Debug, Clone, PartialEq)]
pub struct StackedChart {
    /// Title above the plot.
    pub title: String,
    /// Rows, first on top.
    pub rows: Vec<StackRow>,
    /// Series names and colours, in segment order.
    pub series: Vec<(String, RGBColor)>,
    /// Width in pixels of the label column.
    pub label_width: u32,
    /// Colours of background, text and grid.
    pub theme: Theme,
}

/// Height of the legend band under the plot.
pub const LEGEND_BAND: u32 = 44;

/// Draws `chart`; hit boxes (non-empty segments only) have `row` = row index and `col` =
/// series index.
pub fn draw_stacked<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    chart: &StackedChart,
) -> Result<HitLayout, ChartError<DB>> {
    let theme = chart.theme;
    let n = chart.rows.len();
    area.fill(&theme.background)?;
    let (_, h) = area.dim_in_pixel();
    let (plot, band) = area.split_vertically(h.saturating_sub(LEGEND_BAND).max(1));
    let style = RowStyle {
        x_label_area: 36,
        ..RowStyle::COUNTS
    };
    let x_desc = "share of the model's failures (%)";
    let frame = framed(&plot, &chart.title, x_desc, style, chart.label_width, theme)?;
    let label_style = frame.labels.clone();
    let mut ctx = frame.coords(0.0..100.0, n)?;
    frame.mesh(&mut ctx, XLabels::Plain)?;
    let band_y = |i: usize| ((n - 1 - i) as f64 + 0.15, (n - i) as f64 - 0.15);
    let mut boxes = Vec::new();
    let right = label_style.clone().pos(Pos::new(HPos::Right, VPos::Center));
    for (i, row) in chart.rows.iter().enumerate() {
        let total = row.counts.iter().sum::<usize>();
        let (lo, hi) = band_y(i);
        let mut x = 0.0;
        for (j, &c) in row.counts.iter().enumerate() {
            if c == 0 || total == 0 {
                continue;
            }
            let w = 100.0 * c as f64 / total as f64;
            let color = chart.series.get(j).map_or(theme.grid, |s| s.1);
            ctx.draw_series([Rectangle::new([(x, lo), (x + w, hi)], color.filled())])?;
            let (l, t) = ctx.backend_coord(&(x, hi));
            let (r, b) = ctx.backend_coord(&(x + w, lo));
            boxes.push(HitBox {
                rect: (l, t, r, b),
                row: i,
                col: j,
            });
            x += w;
        }
        let (l, t) = ctx.backend_coord(&(0.0, hi));
        let b = ctx.backend_coord(&(0.0, lo)).1;
        area.draw(&Text::new(
            row.label.clone(),
            (l - 6, (t + b) / 2),
            right.clone(),
        ))?;
    }
    // Legend: entries laid out left to right, wrapping to a second line.
    let style = label_style.pos(Pos::new(HPos::Left, VPos::Center));
    let (w, _) = band.dim_in_pixel();
    let (mut x, mut y) = (14, 12);
    for (name, color) in &chart.series {
        let need = 22 + 7 * name.chars().count() as i32 + 12;
        if x + need > w as i32 && x > 14 {
            (x, y) = (14, y + 18);
        }
        band.draw(&Rectangle::new(
            [(x, y - 5), (x + 12, y + 5)],
            color.filled(),
        ))?;
        band.draw(&Text::new(name.clone(), (x + 18, y), style.clone()))?;
        x += need;
    }
    Ok(HitLayout { boxes })
}
