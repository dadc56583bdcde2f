//! Horizontal bars with 95% interval whiskers, one per row, first row on top (the
//! leaderboard's pass rates, per-model gate deltas).

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::frame::{RowStyle, RowsLayout, XLabels, framed};
use crate::{ChartError, Theme};

/// One bar: a label, a value and an optional interval `(low, high)`.
#[derive(Debug, Clone, PartialEq)]
pub struct CiBar {
    /// Row label (drawn as text, left of the plot).
    pub label: String,
    /// Bar length, in x units.
    pub value: f64,
    /// Interval drawn as a whisker with end caps, when known.
    pub ci: Option<(f64, f64)>,
    /// Bar colour.
    pub color: RGBColor,
}

/// A chart of [`CiBar`]s.
#[derive(Debug, Clone, PartialEq)]
pub struct CiBarChart {
    /// Title above the plot.
    pub title: String,
    /// X axis description, e.g. "pass rate".
    pub x_desc: String,
    /// X range; bars and whiskers are clipped to it.
    pub x_range: (f64, f64),
    /// Rows, drawn top to bottom.
    pub bars: Vec<CiBar>,
    /// Colours of background, text and grid.
    pub theme: Theme,
    /// Width in pixels of the label column.
    pub label_width: u32,
}

/// Pixel geometry of the drawn bars, for hit-testing clicks and hovers.
pub type BarLayout = RowsLayout;

/// Draws `chart` on `area`; returns where the bars landed.
pub fn draw_ci_bars<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    chart: &CiBarChart,
) -> Result<BarLayout, ChartError<DB>> {
    let theme = chart.theme;
    let n = chart.bars.len();
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
    frame.mesh(&mut ctx, XLabels::Fit(2))?;
    let clip = |v: f64| v.clamp(x0, x1);
    // Row i occupies y in [n-1-i, n-i): the first row is on top.
    let band = |i: usize| ((n - 1 - i) as f64 + 0.18, (n - i) as f64 - 0.18);
    ctx.draw_series(chart.bars.iter().enumerate().map(|(i, b)| {
        let (lo, hi) = band(i);
        Rectangle::new([(x0, lo), (clip(b.value), hi)], b.color.filled())
    }))?;
    for (i, b) in chart.bars.iter().enumerate() {
        let Some((lo_v, hi_v)) = b.ci else { continue };
        let (lo, hi) = band(i);
        let mid = (lo + hi) / 2.0;
        let cap = (hi - lo) / 4.0;
        let whisker = theme.text.stroke_width(1);
        let (a, z) = (clip(lo_v), clip(hi_v));
        ctx.draw_series([
            PathElement::new(vec![(a, mid), (z, mid)], whisker),
            PathElement::new(vec![(a, mid - cap), (a, mid + cap)], whisker),
            PathElement::new(vec![(z, mid - cap), (z, mid + cap)], whisker),
        ])?;
    }
    let rows_px: Vec<(i32, i32)> = (0..n)
        .map(|i| {
            let (lo, hi) = band(i);
            (
                ctx.backend_coord(&(x0, hi)).1,
                ctx.backend_coord(&(x0, lo)).1,
            )
        })
        .collect();
    let x_px = (
        ctx.backend_coord(&(x0, 0.0)).0,
        ctx.backend_coord(&(x1, 0.0)).0,
    );
    let right_aligned = label_style.pos(Pos::new(HPos::Right, VPos::Center));
    for (b, &(top, bottom)) in chart.bars.iter().zip(&rows_px) {
        area.draw(&Text::new(
            b.label.clone(),
            (x_px.0 - 6, (top + bottom) / 2),
            right_aligned.clone(),
        ))?;
    }
    Ok(BarLayout { rows_px, x_px })
}
