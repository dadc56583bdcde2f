//! The frame of the charts with one horizontal band per row (interval bars, the forest plot,
//! count bars, stacked shares): a wrapped title, the x description under the plot (wrapped
//! when wider than it), a label column on the left, and vertical grid lines only.

use std::ops::Range;

use plotters::coord::Shift;
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;

use crate::title::{titled, x_described, x_label_count};
use crate::{ChartError, Theme};

/// The coordinates of a row chart: x in data units, y in rows (row `i` of `n` occupies
/// `[n − 1 − i, n − i)`, so the first row is on top).
/// Pixel geometry of a chart with one band per row, for hit-testing clicks and hovers.
#[derive(Debug, Clone, PartialEq)]
pub struct RowsLayout {
    /// Per row: `(top, bottom)` pixel y of its band.
    pub rows_px: Vec<(i32, i32)>,
    /// Pixel x of the x range's start and end.
    pub x_px: (i32, i32),
}

impl RowsLayout {
    /// The row under pixel `y`, if any.
    pub fn row_at(&self, y: i32) -> Option<usize> {
        self.rows_px
            .iter()
            .position(|&(top, bottom)| y >= top && y <= bottom)
    }
}

pub(crate) type RowContext<'a, DB> =
    ChartContext<'a, DB, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

/// Text sizes and margins of a row chart, in pixels.
#[derive(Debug, Clone, Copy)]
pub(crate) struct RowStyle {
    /// Title font size.
    pub title: u32,
    /// Row and axis label font size.
    pub labels: u32,
    /// Height of the x labels and description under the plot.
    pub x_label_area: u32,
    /// Right margin: room for the last x label centred on the plot's right edge.
    pub right: u32,
}

impl RowStyle {
    /// Interval bars and the forest plot (their last x label, "100.0", needs 24 px).
    pub const INTERVALS: RowStyle = RowStyle {
        title: 18,
        labels: 13,
        x_label_area: 40,
        right: 24,
    };
    /// Count bars and stacked shares.
    pub const COUNTS: RowStyle = RowStyle {
        title: 17,
        labels: 12,
        x_label_area: 40,
        right: 14,
    };
}

/// How the x axis is labelled.
#[derive(Debug, Clone, Copy)]
pub(crate) enum XLabels {
    /// As many as fit the plot's width, at least this many.
    Fit(u32),
    /// plotters' choice, written as whole numbers.
    Whole,
    /// plotters' choice and format.
    Plain,
}

/// A row chart's title drawn, its plot area and what its axes need.
pub(crate) struct Framed<'t, DB: DrawingBackend> {
    /// Where the chart's coordinates go.
    pub plot: DrawingArea<DB, Shift>,
    /// Row and axis labels.
    pub labels: TextStyle<'static>,
    x_desc: &'t str,
    style: RowStyle,
    label_width: u32,
    theme: Theme,
}

/// Draws the title and, when it is wider than the plot, the x description (#17: it ran off
/// a 390 px chart); returns the rest of the frame. `label_width` is the label column's width.
pub(crate) fn framed<'t, DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    title: &str,
    x_desc: &'t str,
    style: RowStyle,
    label_width: u32,
    theme: Theme,
) -> Result<Framed<'t, DB>, ChartError<DB>> {
    let title_style = ("sans-serif", style.title).into_font().color(&theme.text);
    let plot = titled(area, title, &title_style, 14)?;
    let labels = ("sans-serif", style.labels).into_font().color(&theme.text);
    let (plot, x_desc) = x_described(&plot, x_desc, &labels, 14, label_width)?;
    Ok(Framed {
        plot,
        labels,
        x_desc,
        style,
        label_width,
        theme,
    })
}

impl<DB: DrawingBackend> Framed<'_, DB> {
    /// The coordinates of `rows` rows over `x` (margins of 14 px, none on top: the title
    /// has its own).
    pub fn coords(&self, x: Range<f64>, rows: usize) -> Result<RowContext<'_, DB>, ChartError<DB>> {
        let ctx = ChartBuilder::on(&self.plot)
            .margin(14)
            .margin_top(0)
            .margin_right(self.style.right)
            .x_label_area_size(self.style.x_label_area)
            .y_label_area_size(self.label_width)
            .build_cartesian_2d(x, 0.0..(rows.max(1) as f64))?;
        Ok(ctx)
    }

    /// Draws the x axis, its labels and vertical grid lines in the theme's grid colour; the
    /// rows carry their own labels, so there is no y mesh.
    pub fn mesh(&self, ctx: &mut RowContext<DB>, x_labels: XLabels) -> Result<(), ChartError<DB>> {
        let theme = self.theme;
        let whole = |x: &f64| format!("{}", x.round() as i64);
        let width = ctx.plotting_area().dim_in_pixel().0;
        let mut mesh = ctx.configure_mesh();
        mesh.x_desc(self.x_desc)
            .disable_y_mesh()
            .y_labels(0)
            .label_style(self.labels.clone())
            .axis_desc_style(self.labels.clone())
            .axis_style(theme.text)
            .bold_line_style(theme.grid)
            .light_line_style(theme.background);
        match x_labels {
            XLabels::Fit(at_least) => {
                mesh.x_labels(x_label_count(width, at_least));
            }
            XLabels::Whole => {
                mesh.x_label_formatter(&whole);
            }
            XLabels::Plain => {}
        }
        mesh.draw()?;
        Ok(())
    }
}
