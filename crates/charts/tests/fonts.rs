//! `FONTS` lists exactly the fonts the charts draw in: one chart of every kind, with every
//! optional part (caption, legend, threshold, gold marks, intervals), drawn to a backend that
//! records the font of every text.

use std::cell::RefCell;
use std::collections::BTreeSet;
use std::rc::Rc;

use plotters::prelude::*;
use plotters_backend::{BackendColor, BackendCoord, BackendTextStyle, DrawingErrorKind};
use runlens_charts::{
    AnyChart, CiBar, CiBarChart, CurveChart, FONTS, ForestChart, ForestRow, HBar, HBarChart,
    HeatmapChart, HistogramChart, KStarChart, Marker, Palette, ProbabilityBar, ProbabilityChart,
    Series, StackRow, StackedChart, Theme, Threshold, TurnTokens, TurnTokensChart, draw_any,
};

fn every_kind() -> Vec<AnyChart> {
    let t = Theme::LIGHT;
    vec![
        AnyChart::Curves(CurveChart {
            title: "curves".into(),
            k_max: 3,
            series: vec![Series {
                label: "recall@k".into(),
                color: Palette::RECALL,
                marker: Marker::Circle,
                points: vec![(1, 0.5), (2, 0.75), (3, 1.0)],
            }],
            theme: t,
        }),
        AnyChart::CiBars(CiBarChart {
            title: "bars".into(),
            x_desc: "pass rate".into(),
            x_range: (0.0, 1.0),
            bars: vec![CiBar {
                label: "model".into(),
                value: 0.4,
                ci: Some((0.3, 0.5)),
                color: Palette::NDCG,
            }],
            theme: t,
            label_width: 120,
        }),
        AnyChart::Probability(ProbabilityChart {
            title: "question".into(),
            bars: vec![
                ProbabilityBar {
                    table: "crm.a".into(),
                    p: 0.97,
                    is_gold: true,
                },
                ProbabilityBar {
                    table: "crm.b".into(),
                    p: 0.2,
                    is_gold: false,
                },
            ],
            threshold: 0.5,
            theme: t,
            label_width: 120,
        }),
        AnyChart::KStar(KStarChart {
            title: "k*".into(),
            counts: vec![3, 1],
            not_found: 1,
            theme: t,
        }),
        AnyChart::TurnTokens(TurnTokensChart {
            title: "tokens per turn".into(),
            turns: vec![
                TurnTokens {
                    input: 1200,
                    output: 80,
                },
                TurnTokens {
                    input: 1500,
                    output: 40,
                },
            ],
            theme: t,
        }),
        AnyChart::Forest(ForestChart {
            title: "net".into(),
            x_desc: "gated - baseline".into(),
            x_range: (-0.2, 0.2),
            rows: vec![
                ForestRow {
                    label: "m1".into(),
                    estimate: 0.05,
                    ci: Some((-0.01, 0.1)),
                    pooled: false,
                },
                ForestRow {
                    label: "all".into(),
                    estimate: 0.02,
                    ci: Some((0.0, 0.04)),
                    pooled: true,
                },
            ],
            color: Palette::NDCG,
            theme: t,
            label_width: 100,
        }),
        AnyChart::HBars(HBarChart {
            title: "sub-modes".into(),
            x_desc: "failed cells".into(),
            bars: vec![HBar {
                label: "wrong_identifier".into(),
                value: 6,
                color: Palette::NDCG,
            }],
            legend: ("bucket".into(), vec![("FM1".into(), Palette::RECALL)]),
            label_width: 190,
            theme: t,
        }),
        AnyChart::Stacked(StackedChart {
            title: "families".into(),
            rows: vec![StackRow {
                label: "m1".into(),
                counts: vec![3, 1],
            }],
            series: vec![
                ("comprehension".into(), Palette::NDCG),
                ("process".into(), Palette::RECALL),
            ],
            label_width: 120,
            theme: t,
        }),
        AnyChart::Heatmap(HeatmapChart {
            title: "FM".into(),
            rows: vec!["m1".into()],
            cols: vec!["FM1".into(), "FM2".into()],
            percent: vec![vec![60.0, 40.0]],
            label_width: 80,
            theme: t,
        }),
        AnyChart::Histogram(HistogramChart {
            title: "correct despite fail".into(),
            x_desc: "P".into(),
            y_desc: "failed cells".into(),
            counts: vec![1; 20],
            color: Palette::NDCG,
            threshold: Some(Threshold {
                at: 0.65,
                label: "0.65".into(),
                above: 7,
            }),
            theme: t,
        }),
    ]
}

/// A backend that draws nothing and records the font of every text drawn or measured.
struct FontRecorder {
    fonts: Rc<RefCell<BTreeSet<(String, u32)>>>,
}

impl DrawingBackend for FontRecorder {
    type ErrorType = std::io::Error;

    fn get_size(&self) -> (u32, u32) {
        (720, 420)
    }

    fn ensure_prepared(&mut self) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        Ok(())
    }

    fn present(&mut self) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        Ok(())
    }

    fn draw_pixel(
        &mut self,
        _: BackendCoord,
        _: BackendColor,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        Ok(())
    }

    fn draw_text<S: BackendTextStyle>(
        &mut self,
        _: &str,
        style: &S,
        _: BackendCoord,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.record(style);
        Ok(())
    }

    fn estimate_text_size<S: BackendTextStyle>(
        &self,
        text: &str,
        style: &S,
    ) -> Result<(u32, u32), DrawingErrorKind<Self::ErrorType>> {
        self.record(style);
        let size = style.size() as u32;
        Ok((text.chars().count() as u32 * size / 2, size))
    }
}

impl FontRecorder {
    fn record<S: BackendTextStyle>(&self, style: &S) {
        // The canvas backend's font string: "<style> <size>px <family>".
        assert_eq!(style.style().as_str(), "normal");
        assert_eq!(style.size().fract(), 0.0);
        self.fonts
            .borrow_mut()
            .insert((style.family().as_str().to_owned(), style.size() as u32));
    }
}

#[test]
fn fonts_lists_exactly_the_fonts_drawn() {
    let charts = every_kind();
    // Every kind once: a new kind must be added here (and its fonts to FONTS).
    assert_eq!(charts.len(), 10);
    let fonts = Rc::new(RefCell::new(BTreeSet::new()));
    let root = FontRecorder {
        fonts: fonts.clone(),
    }
    .into_drawing_area();
    for chart in &charts {
        draw_any(&root, chart, "caption").unwrap();
    }
    let drawn = fonts.borrow().clone();
    let listed: BTreeSet<(String, u32)> = FONTS.iter().map(|&(f, s)| (f.to_owned(), s)).collect();
    assert_eq!(drawn, listed);
}
