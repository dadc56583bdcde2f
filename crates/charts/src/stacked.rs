//! One horizontal 100 % stacked bar per row (a model's share of each family), first row on
//! top, with a legend band under the plot.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::title::titled;
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
    let title_style = ("sans-serif", 17).into_font().color(&theme.text);
    let plot_area = titled(&plot, &chart.title, &title_style, 14)?;
    let mut ctx = ChartBuilder::on(&plot_area)
        .margin(14)
        .margin_top(0)
        .x_label_area_size(36)
        .y_label_area_size(chart.label_width)
        .build_cartesian_2d(0.0..100.0, 0.0..(n.max(1) as f64))?;
    let label_style = ("sans-serif", 12).into_font().color(&theme.text);
    ctx.configure_mesh()
        .x_desc("share of the model's failures (%)")
        .disable_y_mesh()
        .y_labels(0)
        .label_style(label_style.clone())
        .axis_desc_style(label_style.clone())
        .axis_style(theme.text)
        .bold_line_style(theme.grid)
        .light_line_style(theme.background)
        .draw()?;
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
