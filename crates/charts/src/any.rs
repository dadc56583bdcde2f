//! Every chart behind one enum, drawn with an optional caption line under the plot, to any
//! backend (the app's canvas) or to SVG text (the export).

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters_svg::SVGBackend;

use crate::text::wrap_words;
use crate::{
    BarLayout, ChartError, CiBarChart, CurveChart, CurveLayout, ForestChart, ForestLayout,
    HBarChart, HeatmapChart, HistogramChart, HitLayout, KStarChart, KStarLayout, ProbabilityChart,
    ProbabilityLayout, StackedChart, TrendChart, TrendLayout, TurnTokensChart, TurnTokensLayout,
    draw_ci_bars, draw_curves, draw_forest, draw_hbars, draw_heatmap, draw_histogram,
    draw_k_star_histogram, draw_probability_bars, draw_stacked, draw_trend, draw_turn_tokens,
};

/// Any chart the dashboard draws.
#[derive(Debug, Clone, PartialEq)]
pub enum AnyChart {
    /// Metric-versus-k lines.
    Curves(CurveChart),
    /// Bars with interval whiskers.
    CiBars(CiBarChart),
    /// The per-question P(yes) bars.
    Probability(ProbabilityChart),
    /// The k* histogram.
    KStar(KStarChart),
    /// Tokens per model call of one trajectory.
    TurnTokens(TurnTokensChart),
    /// Estimates with intervals around zero.
    Forest(ForestChart),
    /// Coloured count bars (failure sub-modes, families).
    HBars(HBarChart),
    /// Row-normalised stacked bars (family profile per model).
    Stacked(StackedChart),
    /// Percent heatmap (FM1–FM5 per model).
    Heatmap(HeatmapChart),
    /// Probability histogram with a threshold line.
    Histogram(HistogramChart),
    /// Values across runs (a site's trend).
    Trend(TrendChart),
}

impl AnyChart {
    /// The chart's background colour (the caption band uses it too).
    fn background(&self) -> RGBColor {
        self.theme().background
    }

    fn theme(&self) -> crate::Theme {
        match self {
            AnyChart::Curves(c) => c.theme,
            AnyChart::CiBars(c) => c.theme,
            AnyChart::Probability(c) => c.theme,
            AnyChart::KStar(c) => c.theme,
            AnyChart::TurnTokens(c) => c.theme,
            AnyChart::Forest(c) => c.theme,
            AnyChart::HBars(c) => c.theme,
            AnyChart::Stacked(c) => c.theme,
            AnyChart::Heatmap(c) => c.theme,
            AnyChart::Histogram(c) => c.theme,
            AnyChart::Trend(c) => c.theme,
        }
    }
}

/// The geometry returned by the drawn chart, for hit-testing and hover read-outs.
#[derive(Debug, Clone, PartialEq)]
pub enum AnyLayout {
    /// From [`draw_curves`].
    Curves(CurveLayout),
    /// From [`draw_ci_bars`].
    CiBars(BarLayout),
    /// From [`draw_probability_bars`].
    Probability(ProbabilityLayout),
    /// From [`draw_k_star_histogram`].
    KStar(KStarLayout),
    /// From [`draw_turn_tokens`].
    TurnTokens(TurnTokensLayout),
    /// From [`draw_forest`].
    Forest(ForestLayout),
    /// From [`draw_trend`].
    Trend(TrendLayout),
    /// Hit boxes of bars / cells from [`draw_hbars`], [`draw_stacked`], [`draw_heatmap`]
    /// and [`draw_histogram`].
    Hits(HitLayout),
}

/// Height in pixels of a one-line caption band under the plot; each further line adds
/// [`CAPTION_LINE`].
pub const CAPTION_HEIGHT: u32 = 22;
/// Height in pixels of one caption line.
pub const CAPTION_LINE: u32 = 14;

/// Draws `chart` on `area`; a non-empty `caption` (e.g. bundle hash and view settings) is
/// drawn in small type in a band at the bottom, wrapped onto as many lines as the width
/// needs (never cut: an exported chart carries its whole caption), the band taking at most
/// a third of the height (a caption that still does not fit ends in "…"). The plot keeps
/// the top-left origin, so the returned pixel geometry is in `area` coordinates either way.
pub fn draw_any<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    chart: &AnyChart,
    caption: &str,
) -> Result<AnyLayout, ChartError<DB>> {
    let (w, h) = area.dim_in_pixel();
    let plot = if caption.is_empty() || h <= 2 * CAPTION_HEIGHT {
        area.clone()
    } else {
        let theme = chart.theme();
        let style = ("sans-serif", 11).into_font().color(&theme.text);
        let width = w.saturating_sub(16);
        let fits = |s: &str| {
            area.estimate_text_size(s, &style)
                .map_or(true, |(tw, _)| tw <= width)
        };
        let mut lines = wrap_words(caption, fits);
        let room = ((h / 3).saturating_sub(CAPTION_HEIGHT - CAPTION_LINE) / CAPTION_LINE).max(1);
        if lines.len() > room as usize {
            lines.truncate(room as usize);
            if let Some(last) = lines.last_mut() {
                let keep = last.chars().count().saturating_sub(1);
                *last = format!("{}…", last.chars().take(keep).collect::<String>());
            }
        }
        let band_h = CAPTION_HEIGHT + CAPTION_LINE * (lines.len() as u32 - 1);
        let (plot, band) = area.split_vertically(h - band_h);
        band.fill(&chart.background())?;
        let style = style.pos(Pos::new(HPos::Left, VPos::Center));
        for (i, line) in lines.into_iter().enumerate() {
            let y = (CAPTION_HEIGHT / 2 + CAPTION_LINE * i as u32) as i32;
            band.draw(&Text::new(line, (8, y), style.clone()))?;
        }
        plot
    };
    Ok(match chart {
        AnyChart::Curves(c) => AnyLayout::Curves(draw_curves(&plot, c)?),
        AnyChart::CiBars(c) => AnyLayout::CiBars(draw_ci_bars(&plot, c)?),
        AnyChart::Probability(c) => AnyLayout::Probability(draw_probability_bars(&plot, c)?),
        AnyChart::KStar(c) => AnyLayout::KStar(draw_k_star_histogram(&plot, c)?),
        AnyChart::TurnTokens(c) => AnyLayout::TurnTokens(draw_turn_tokens(&plot, c)?),
        AnyChart::Forest(c) => AnyLayout::Forest(draw_forest(&plot, c)?),
        AnyChart::HBars(c) => AnyLayout::Hits(draw_hbars(&plot, c)?),
        AnyChart::Stacked(c) => AnyLayout::Hits(draw_stacked(&plot, c)?),
        AnyChart::Heatmap(c) => AnyLayout::Hits(draw_heatmap(&plot, c)?),
        AnyChart::Histogram(c) => AnyLayout::Hits(draw_histogram(&plot, c)?),
        AnyChart::Trend(c) => AnyLayout::Trend(draw_trend(&plot, c)?),
    })
}

/// Why an SVG could not be rendered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SvgError(pub String);

impl std::fmt::Display for SvgError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "the SVG could not be drawn: {}", self.0)
    }
}

impl std::error::Error for SvgError {}

/// The SVG text of `chart` with `caption`, `width` × `height` pixels: the same drawing as
/// the canvas, through plotters' `SVGBackend`. Text is escaped by the backend.
pub fn render_svg(
    chart: &AnyChart,
    caption: &str,
    width: u32,
    height: u32,
) -> Result<String, SvgError> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (width, height)).into_drawing_area();
        draw_any(&root, chart, caption).map_err(|e| SvgError(e.to_string()))?;
        root.present().map_err(|e| SvgError(e.to_string()))?;
    }
    Ok(svg)
}
