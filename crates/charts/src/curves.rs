//! Metric-versus-k line charts (recall@k, all-required@k, nDCG@k), after the harness's
//! `sr_retrieval_curve.png`: x = k with a tick at every k, y = score from 0 to 1.02.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::title::titled;
use crate::{ChartError, Theme};

/// Point marker of a series.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Marker {
    /// Filled circle (the harness's recall@k marker).
    Circle,
    /// Filled square (the harness's all-required@k marker).
    Square,
    /// Filled triangle.
    Triangle,
    /// Filled diamond.
    Diamond,
    /// Filled triangle pointing down.
    TriangleDown,
}

/// One line: a label for the legend, a colour, a marker and `(k, value)` points.
#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    /// Legend text.
    pub label: String,
    /// Line and marker colour.
    pub color: RGBColor,
    /// Marker drawn at every point.
    pub marker: Marker,
    /// `(k, value)` pairs, k ≥ 1, values in [0, 1].
    pub points: Vec<(u32, f64)>,
}

/// A metric-versus-k chart.
#[derive(Debug, Clone, PartialEq)]
pub struct CurveChart {
    /// Title above the plot.
    pub title: String,
    /// Largest k on the x axis (at least 1).
    pub k_max: u32,
    /// The lines, drawn in order.
    pub series: Vec<Series>,
    /// Colours of background, text and grid.
    pub theme: Theme,
}

/// Where the plot landed, so a caller can map a mouse position back to k (hover read-outs).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CurveLayout {
    /// Pixel x of k = 1 and of k = `k_max` (relative to the drawing area).
    pub x_px: (i32, i32),
    /// Pixel y of value 0 and of value 1.
    pub y_px: (i32, i32),
    /// The chart's k_max.
    pub k_max: u32,
}

impl CurveLayout {
    /// The k whose x position is nearest to pixel `x`, or `None` outside the plot.
    pub fn k_at(&self, x: i32) -> Option<u32> {
        let (x0, x1) = self.x_px;
        if self.k_max <= 1 {
            return (x >= x0 - 8 && x <= x0 + 8).then_some(1);
        }
        let step = f64::from(x1 - x0) / f64::from(self.k_max - 1);
        let k = (f64::from(x - x0) / step).round() + 1.0;
        (k >= 1.0 && k <= f64::from(self.k_max)).then_some(k as u32)
    }
}

/// Y axis top: the harness plots scores on 0..1.02 so that 1.0 stays visible.
const Y_TOP: f64 = 1.02;

/// Draws `chart` on `area` and returns the plot's pixel layout.
pub fn draw_curves<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    chart: &CurveChart,
) -> Result<CurveLayout, ChartError<DB>> {
    let theme = chart.theme;
    let k_max = chart.k_max.max(1);
    area.fill(&theme.background)?;
    // A single k gets a small margin so the point is not drawn on the frame.
    let x_range = if k_max == 1 {
        0.5..1.5
    } else {
        1.0..f64::from(k_max)
    };
    let title_style = ("sans-serif", 18).into_font().color(&theme.text);
    let plot_area = titled(area, &chart.title, &title_style, 14)?;
    let mut ctx = ChartBuilder::on(&plot_area)
        .margin(14)
        .margin_top(0)
        .x_label_area_size(40)
        .y_label_area_size(48)
        .build_cartesian_2d(x_range, 0.0..Y_TOP)?;
    let label_style = ("sans-serif", 13).into_font().color(&theme.text);
    ctx.configure_mesh()
        .x_desc("k (tables retrieved)")
        .y_desc("score")
        .x_labels(k_max.min(20) as usize)
        .x_label_formatter(&|x| format!("{}", x.round() as i64))
        .y_labels(6)
        .y_label_formatter(&|y| format!("{y:.1}"))
        .label_style(label_style.clone())
        .axis_desc_style(label_style.clone())
        .axis_style(theme.text)
        .bold_line_style(theme.grid)
        .light_line_style(theme.background)
        .draw()?;
    for s in &chart.series {
        let pts: Vec<(f64, f64)> = s.points.iter().map(|&(k, v)| (f64::from(k), v)).collect();
        let color = s.color;
        ctx.draw_series(LineSeries::new(pts.clone(), color.stroke_width(2)))?;
        draw_markers(&mut ctx, &pts, color, s.marker)?;
    }
    let (x0, y0) = ctx.backend_coord(&(1.0, 0.0));
    let (x1, y1) = ctx.backend_coord(&(f64::from(k_max), 1.0));
    let lines: Vec<Vec<(i32, i32)>> = chart
        .series
        .iter()
        .map(|s| {
            s.points
                .iter()
                .map(|&(k, v)| ctx.backend_coord(&(f64::from(k), v)))
                .collect()
        })
        .collect();
    let plot = [(x0, y1), (x1, y0)];
    let entries: Vec<(&str, RGBColor, Marker)> = chart
        .series
        .iter()
        .map(|s| (s.label.as_str(), s.color, s.marker))
        .collect();
    draw_legend(area, plot, &lines, &entries, &label_style, theme)?;
    Ok(CurveLayout {
        x_px: (x0, x1),
        y_px: (y0, y1),
        k_max,
    })
}

/// The series legend (`(label, colour, marker)` per line), boxed, in the corner or side of the plot (`[top left, bottom right]`
/// of values 0..1 in pixels) that the drawn `lines` cross least: the lower right (where the
/// harness puts it) unless a curve runs through it, as precision@k, falling with k, does.
/// Text is measured by the backend (`DrawingArea::estimate_text_size`): on a canvas that is
/// the canvas's own `measureText`, where plotters' built-in series labels would measure each
/// label with a `<span>` in the page and force a layout of it.
pub(crate) fn draw_legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    plot: [(i32, i32); 2],
    lines: &[Vec<(i32, i32)>],
    series: &[(&str, RGBColor, Marker)],
    style: &TextStyle,
    theme: Theme,
) -> Result<(), ChartError<DB>> {
    if series.is_empty() {
        return Ok(());
    }
    let mut text_w = 0;
    let mut text_h = 0;
    for (label, _, _) in series {
        let (w, h) = area.estimate_text_size(label, style)?;
        text_w = text_w.max(w as i32);
        text_h = text_h.max(h as i32);
    }
    let (pad, swatch, line) = (6, 22, text_h.max(10) + 6);
    let width = pad + swatch + 6 + text_w + pad;
    let height = pad + line * series.len() as i32 + pad - 6;
    let (x0, y0) = legend_spot(plot, (width, height), lines);
    let (x1, y1) = (x0 + width, y0 + height);
    area.draw(&Rectangle::new(
        [(x0, y0), (x1, y1)],
        theme.background.mix(0.9).filled(),
    ))?;
    area.draw(&Rectangle::new([(x0, y0), (x1, y1)], theme.grid))?;
    let style = style.pos(Pos::new(HPos::Left, VPos::Center));
    for (i, &(label, color, marker)) in series.iter().enumerate() {
        let y = y0 + pad + line * i as i32 + (line - 6) / 2;
        let (a, b) = (x0 + pad, x0 + pad + swatch);
        area.draw(&PathElement::new(
            vec![(a, y), (b, y)],
            color.stroke_width(2),
        ))?;
        let mid = (a + b) / 2;
        let fill = color.filled();
        match marker {
            Marker::Circle => area.draw(&Circle::new((mid, y), 4, fill))?,
            Marker::Square => {
                area.draw(&Rectangle::new([(mid - 4, y - 4), (mid + 4, y + 4)], fill))?
            }
            Marker::Triangle => area.draw(&Polygon::new(
                vec![(mid, y - 5), (mid - 5, y + 4), (mid + 5, y + 4)],
                fill,
            ))?,
            Marker::Diamond => area.draw(&(EmptyElement::at((mid, y)) + diamond(fill)))?,
            Marker::TriangleDown => {
                area.draw(&(EmptyElement::at((mid, y)) + triangle_down(fill)))?
            }
        }
        area.draw(&Text::new(label.to_owned(), (b + 6, y), style.clone()))?;
    }
    Ok(())
}

/// The top-left corner of a `size` legend inside `plot` (8 px from its edges) that the
/// fewest samples of `lines` fall in (markers' 5 px included), trying the lower right,
/// lower left, middle right, middle left, upper right and upper left in that order.
fn legend_spot(plot: [(i32, i32); 2], size: (i32, i32), lines: &[Vec<(i32, i32)>]) -> (i32, i32) {
    let [(left, top), (right, bottom)] = plot;
    let (w, h) = size;
    let (x_left, x_right) = (left + 8, right - 8 - w);
    let (y_top, y_mid, y_bottom) = (top + 8, (top + bottom - h) / 2, bottom - 8 - h);
    let spots = [
        (x_right, y_bottom),
        (x_left, y_bottom),
        (x_right, y_mid),
        (x_left, y_mid),
        (x_right, y_top),
        (x_left, y_top),
    ];
    let samples: Vec<(i32, i32)> = lines
        .iter()
        .flat_map(|line| {
            line.windows(2)
                .flat_map(|pair| {
                    let ((ax, ay), (bx, by)) = (pair[0], pair[1]);
                    (0..8).map(move |t| (ax + (bx - ax) * t / 8, ay + (by - ay) * t / 8))
                })
                .chain(line.last().copied())
        })
        .collect();
    let covered = |(x, y): (i32, i32)| {
        samples
            .iter()
            .filter(|&&(px, py)| px >= x - 5 && px <= x + w + 5 && py >= y - 5 && py <= y + h + 5)
            .count()
    };
    // `min_by_key` keeps the first of equal counts: the preferred spot wins ties.
    spots
        .into_iter()
        .min_by_key(|&spot| covered(spot))
        .unwrap_or((x_right, y_bottom))
}

pub(crate) type Ctx<'a, DB> = ChartContext<
    'a,
    DB,
    Cartesian2d<plotters::coord::types::RangedCoordf64, plotters::coord::types::RangedCoordf64>,
>;

/// `marker`s in `color` at `pts` (data coordinates).
pub(crate) fn draw_markers<DB: DrawingBackend>(
    ctx: &mut Ctx<'_, DB>,
    pts: &[(f64, f64)],
    color: RGBColor,
    marker: Marker,
) -> Result<(), ChartError<DB>> {
    let style = color.filled();
    match marker {
        Marker::Circle => {
            ctx.draw_series(pts.iter().map(|&p| Circle::new(p, 4, style)))?;
        }
        Marker::Square => {
            ctx.draw_series(
                pts.iter()
                    .map(|&p| EmptyElement::at(p) + Rectangle::new([(-4, -4), (4, 4)], style)),
            )?;
        }
        Marker::Triangle => {
            ctx.draw_series(pts.iter().map(|&p| TriangleMarker::new(p, 5, style)))?;
        }
        Marker::Diamond => {
            ctx.draw_series(pts.iter().map(|&p| EmptyElement::at(p) + diamond(style)))?;
        }
        Marker::TriangleDown => {
            ctx.draw_series(
                pts.iter()
                    .map(|&p| EmptyElement::at(p) + triangle_down(style)),
            )?;
        }
    }
    Ok(())
}

/// A diamond marker 10 px across, relative to its point (series and legend alike).
fn diamond(style: ShapeStyle) -> Polygon<(i32, i32)> {
    Polygon::new(vec![(0, -5), (5, 0), (0, 5), (-5, 0)], style)
}

/// A triangle marker pointing down, relative to its point (series and legend alike).
fn triangle_down(style: ShapeStyle) -> Polygon<(i32, i32)> {
    Polygon::new(vec![(0, 5), (-5, -4), (5, -4)], style)
}
