//! A row × column heatmap of percentages (the FM1–FM5 shares per model, `11_fm_heatmap.py`):
//! colour map YlOrBr over 0..90, integer percent in each cell, black below 55 else white.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::title::titled;
use crate::{ChartError, HitBox, HitLayout, Theme};

/// A heatmap of percentages.
#[derive(Debug, Clone, PartialEq)]
pub struct HeatmapChart {
    /// Title above the plot.
    pub title: String,
    /// Row labels, first on top.
    pub rows: Vec<String>,
    /// Column labels.
    pub cols: Vec<String>,
    /// `percent[row][col]` in 0..=100.
    pub percent: Vec<Vec<f64>>,
    /// Width in pixels of the row-label column.
    pub label_width: u32,
    /// Colours of background and text.
    pub theme: Theme,
}

/// matplotlib's YlOrBr stops, light to dark.
const YL_OR_BR: [(u8, u8, u8); 9] = [
    (0xff, 0xff, 0xe5),
    (0xff, 0xf7, 0xbc),
    (0xfe, 0xe3, 0x91),
    (0xfe, 0xc4, 0x4f),
    (0xfe, 0x99, 0x29),
    (0xec, 0x70, 0x14),
    (0xcc, 0x4c, 0x02),
    (0x99, 0x34, 0x04),
    (0x66, 0x25, 0x06),
];

/// The YlOrBr colour of `percent` with vmin 0 and vmax 90 (clamped; NaN → lightest).
pub fn yl_or_br(percent: f64) -> RGBColor {
    let t = if percent.is_nan() {
        0.0
    } else {
        (percent / 90.0).clamp(0.0, 1.0)
    };
    let pos = t * (YL_OR_BR.len() - 1) as f64;
    let i = (pos.floor() as usize).min(YL_OR_BR.len() - 2);
    let f = pos - i as f64;
    let (a, b) = (YL_OR_BR[i], YL_OR_BR[i + 1]);
    let mix = |x: u8, y: u8| (f64::from(x) + (f64::from(y) - f64::from(x)) * f).round() as u8;
    RGBColor(mix(a.0, b.0), mix(a.1, b.1), mix(a.2, b.2))
}

/// Draws `chart`; hit boxes have `row` and `col` of the cell.
pub fn draw_heatmap<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    chart: &HeatmapChart,
) -> Result<HitLayout, ChartError<DB>> {
    let theme = chart.theme;
    let (nr, nc) = (chart.rows.len(), chart.cols.len());
    area.fill(&theme.background)?;
    let title_style = ("sans-serif", 17).into_font().color(&theme.text);
    let plot_area = titled(area, &chart.title, &title_style, 14)?;
    let ctx = ChartBuilder::on(&plot_area)
        .margin(14)
        .margin_top(0)
        .x_label_area_size(30)
        .y_label_area_size(chart.label_width)
        .build_cartesian_2d(0.0..(nc.max(1) as f64), 0.0..(nr.max(1) as f64))?;
    let text = ("sans-serif", 12).into_font().color(&theme.text);
    let mut boxes = Vec::with_capacity(nr * nc);
    let centre = text.clone().pos(Pos::new(HPos::Center, VPos::Center));
    for r in 0..nr {
        for c in 0..nc {
            let p = chart
                .percent
                .get(r)
                .and_then(|row| row.get(c))
                .copied()
                .unwrap_or(0.0);
            let (y0, y1) = ((nr - 1 - r) as f64, (nr - r) as f64);
            let (l, t) = ctx.backend_coord(&(c as f64, y1));
            let (rt, b) = ctx.backend_coord(&((c + 1) as f64, y0));
            area.draw(&Rectangle::new([(l, t), (rt, b)], yl_or_br(p).filled()))?;
            area.draw(&Rectangle::new([(l, t), (rt, b)], theme.background))?;
            let ink = if p < 55.0 { BLACK } else { WHITE };
            let label = format!("{}", p.round() as i64);
            let style = ("sans-serif", 13).into_font().color(&ink);
            let style = style.pos(Pos::new(HPos::Center, VPos::Center));
            area.draw(&Text::new(label, ((l + rt) / 2, (t + b) / 2), style))?;
            boxes.push(HitBox {
                rect: (l, t, rt, b),
                row: r,
                col: c,
            });
        }
    }
    let right = text.clone().pos(Pos::new(HPos::Right, VPos::Center));
    for (r, label) in chart.rows.iter().enumerate() {
        if let Some(b) = boxes.iter().find(|b| b.row == r && b.col == 0) {
            area.draw(&Text::new(
                label.clone(),
                (b.rect.0 - 6, b.centre().1),
                right.clone(),
            ))?;
        }
    }
    for (c, label) in chart.cols.iter().enumerate() {
        if let Some(b) = boxes.iter().find(|b| b.row + 1 == nr && b.col == c) {
            area.draw(&Text::new(
                label.clone(),
                (b.centre().0, b.rect.3 + 14),
                centre.clone(),
            ))?;
        }
    }
    Ok(HitLayout { boxes })
}
