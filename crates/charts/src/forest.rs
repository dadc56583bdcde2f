//! A forest plot: one row per group, the estimate as a dot (a diamond for the pooled row),
//! its 95% interval as a whisker with end caps, and a vertical line at zero (the gate's
//! per-model net pass-rate deltas).

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::frame::{RowStyle, RowsLayout, XLabels, framed};
use crate::{ChartError, Theme};

/// One row of a forest plot.
#[derive(Debug, Clone, PartialEq)]
pub struct ForestRow {
    /// Row label (text, left of the plot).
    pub label: String,
    /// Point estimate, in x units.
    pub estimate: f64,
    /// 95% interval `(low, high)`, when known.
    pub ci: Option<(f64, f64)>,
    /// The pooled row: drawn as a diamond.
    pub pooled: bool,
}

/// A forest plot.
#[derive(Debug, Clone, PartialEq)]
pub struct ForestChart {
    /// Title above the plot.
    pub title: String,
    /// X axis description.
    pub x_desc: String,
    /// X range; points and whiskers are clipped to it.
    pub x_range: (f64, f64),
    /// Rows, drawn top to bottom.
    pub rows: Vec<ForestRow>,
    /// Colour of the estimates.
    pub color: RGBColor,
    /// Background, text and grid colours.
    pub theme: Theme,
    /// Width in pixels of the label column.
    pub label_width: u32,
}

/// Pixel geometry of a drawn forest plot, for hit-testing.
pub type ForestLayout = RowsLayout;

/// Radius of an estimate dot in pixels (the diamond's half-width is 1.5×).
pub const DOT_RADIUS: i32 = 5;

/// Draws `chart` on `area`; returns where the rows landed.
pub fn draw_forest<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    chart: &ForestChart,
) -> Result<ForestLayout, ChartError<DB>> {
    let theme = chart.theme;
    let n = chart.rows.len();
    let (x0, x1) = chart.x_range;
    area.fill(&theme.background)?;
    let style = RowStyle::INTERVALS;
    let frame = framed(
        area,
        &chart.title,
        &chart.x_desc,
        style,
        chart.label_width,
        theme,
    )?;
    let label_style = frame.labels.clone();
    let mut ctx = frame.coords(x0..x1, n)?;
    // At least 3 x labels: with 2, plotters' round steps can leave the zero alone.
    frame.mesh(&mut ctx, XLabels::Fit(3))?;
    let clip = |v: f64| v.clamp(x0, x1);
    if x0 <= 0.0 && 0.0 <= x1 {
        let top = n.max(1) as f64;
        ctx.draw_series([PathElement::new(
            vec![(0.0, 0.0), (0.0, top)],
            theme.text.stroke_width(1),
        )])?;
    }
    // Row i is centred on y = n - i - 0.5: the first row on top.
    let mid = |i: usize| (n - i) as f64 - 0.5;
    let whisker = chart.color.stroke_width(2);
    for (i, r) in chart.rows.iter().enumerate() {
        let Some((lo, hi)) = r.ci else { continue };
        let (a, z, y) = (clip(lo), clip(hi), mid(i));
        let cap = 0.15;
        ctx.draw_series([
            PathElement::new(vec![(a, y), (z, y)], whisker),
            PathElement::new(vec![(a, y - cap), (a, y + cap)], whisker),
            PathElement::new(vec![(z, y - cap), (z, y + cap)], whisker),
        ])?;
    }
    let fill = chart.color.filled();
    for (i, r) in chart.rows.iter().enumerate() {
        let (x, y) = ctx.backend_coord(&(clip(r.estimate), mid(i)));
        if r.pooled {
            let w = DOT_RADIUS * 3 / 2;
            let pts = vec![(x - w, y), (x, y - w), (x + w, y), (x, y + w)];
            area.draw(&Polygon::new(pts, fill))?;
        } else {
            area.draw(&Circle::new((x, y), DOT_RADIUS, fill))?;
        }
    }
    let rows_px: Vec<(i32, i32)> = (0..n)
        .map(|i| {
            let y = mid(i);
            (
                ctx.backend_coord(&(x0, y + 0.5)).1,
                ctx.backend_coord(&(x0, y - 0.5)).1,
            )
        })
        .collect();
    let x_px = (
        ctx.backend_coord(&(x0, 0.0)).0,
        ctx.backend_coord(&(x1, 0.0)).0,
    );
    let right = label_style.pos(Pos::new(HPos::Right, VPos::Center));
    for (r, &(top, bottom)) in chart.rows.iter().zip(&rows_px) {
        area.draw(&Text::new(
            r.label.clone(),
            (x_px.0 - 6, (top + bottom) / 2),
            right.clone(),
        ))?;
    }
    Ok(ForestLayout { rows_px, x_px })
}
