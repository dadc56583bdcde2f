//! Each chart's read-out at the centre of one of its marks, drawn to SVG; nothing off the
//! marks.

use plotters::prelude::*;
use plotters_svg::SVGBackend;

use super::*;
use crate::{
    CiBar, CiBarChart, CurveChart, ForestChart, ForestRow, HBar, HBarChart, HeatmapChart,
    HistogramChart, KStarChart, Marker, ProbabilityBar, ProbabilityChart, Series, StackRow,
    StackedChart, Theme, TurnTokens, TurnTokensChart, draw_any,
};

const INK: RGBColor = RGBColor(0x00, 0x72, 0xb2);

fn layout_of(chart: &AnyChart) -> AnyLayout {
    let mut svg = String::new();
    let root = SVGBackend::with_string(&mut svg, (720, 420)).into_drawing_area();
    draw_any(&root, chart, "").unwrap()
}

/// The read-out at the middle of pixel rows `rows` (any x inside the plot).
fn at_row(chart: &AnyChart, pick: impl Fn(&AnyLayout) -> (i32, i32)) -> Option<String> {
    let layout = layout_of(chart);
    let (x, y) = pick(&layout);
    chart.read_out(&layout, x, y)
}

#[test]
fn ci_bars_and_forest_rows() {
    let bars = AnyChart::CiBars(CiBarChart {
        title: "pass rate".into(),
        x_desc: "pass rate, %".into(),
        x_range: (0.0, 100.0),
        bars: vec![
            CiBar {
                label: "GPT-4.1 (top)".into(),
                value: 61.54,
                ci: Some((55.21, 67.86)),
                color: INK,
            },
            CiBar {
                label: "o4-mini".into(),
                value: 40.0,
                ci: None,
                color: INK,
            },
        ],
        theme: Theme::LIGHT,
        label_width: 160,
    });
    let row = |i: usize| {
        move |l: &AnyLayout| match l {
            AnyLayout::CiBars(b) => (400, (b.rows_px[i].0 + b.rows_px[i].1) / 2),
            _ => panic!("a bar layout"),
        }
    };
    assert_eq!(
        at_row(&bars, row(0)).as_deref(),
        Some("GPT-4.1 (top): 61.5 (95% CI 55.2–67.9)")
    );
    assert_eq!(at_row(&bars, row(1)).as_deref(), Some("o4-mini: 40.0"));
    // Above the first bar: nothing.
    assert_eq!(at_row(&bars, |_| (400, 1)), None);
    let forest = AnyChart::Forest(ForestChart {
        title: "gate".into(),
        x_desc: "net change".into(),
        x_range: (-0.5, 0.5),
        rows: vec![ForestRow {
            label: "m1".into(),
            estimate: -0.0625,
            ci: Some((-0.125, 0.0)),
            pooled: false,
        }],
        color: INK,
        theme: Theme::LIGHT,
        label_width: 120,
    });
    let first = |l: &AnyLayout| match l {
        AnyLayout::Forest(f) => (400, (f.rows_px[0].0 + f.rows_px[0].1) / 2),
        _ => panic!("a forest layout"),
    };
    assert_eq!(
        at_row(&forest, first).as_deref(),
        Some("m1: -0.062 (95% CI -0.125–0.000)")
    );
}

#[test]
fn probability_k_star_and_turn_tokens() {
    let p = AnyChart::Probability(ProbabilityChart {
        title: "P(yes)".into(),
        bars: vec![
            ProbabilityBar {
                table: "orders".into(),
                p: 0.9125,
                is_gold: true,
            },
            ProbabilityBar {
                table: "users".into(),
                p: 0.25,
                is_gold: false,
            },
        ],
        threshold: 0.5,
        theme: Theme::LIGHT,
        label_width: 120,
    });
    let layout = layout_of(&p);
    let AnyLayout::Probability(pl) = &layout else {
        panic!("a probability layout")
    };
    let texts: Vec<String> = pl
        .rows_px
        .iter()
        .map(|&(t, b)| p.read_out(&layout, 400, (t + b) / 2).unwrap())
        .collect();
    let mut sorted = texts.clone();
    sorted.sort();
    assert_eq!(
        sorted,
        ["orders (gold): P(yes) = 0.912", "users: P(yes) = 0.250"]
    );
    let k = AnyChart::KStar(KStarChart {
        title: "k*".into(),
        counts: vec![3, 1],
        not_found: 2,
        theme: Theme::LIGHT,
    });
    let layout = layout_of(&k);
    let AnyLayout::KStar(kl) = &layout else {
        panic!("a k* layout")
    };
    let mid = |i: usize| (kl.columns_px[i].0 + kl.columns_px[i].1) / 2;
    let y = 200;
    assert_eq!(
        k.read_out(&layout, mid(0), y).as_deref(),
        Some("k* = 1: 3 questions")
    );
    assert_eq!(
        k.read_out(&layout, mid(1), y).as_deref(),
        Some("k* = 2: 1 question")
    );
    assert_eq!(
        k.read_out(&layout, mid(2), y).as_deref(),
        Some("not found in the ranking: 2 questions")
    );
    let t = AnyChart::TurnTokens(TurnTokensChart {
        title: "tokens".into(),
        turns: vec![
            TurnTokens {
                input: 1200,
                output: 80,
            },
            TurnTokens {
                input: 1500,
                output: 95,
            },
        ],
        theme: Theme::LIGHT,
    });
    let layout = layout_of(&t);
    let AnyLayout::TurnTokens(tl) = &layout else {
        panic!("a turn-tokens layout")
    };
    let x = (tl.columns_px[1].0 + tl.columns_px[1].1) / 2;
    assert_eq!(
        t.read_out(&layout, x, 200).as_deref(),
        Some("call 2: 1500 input, 95 output tokens")
    );
}

#[test]
fn curves_at_the_nearest_k() {
    let series = |label: &str, points: Vec<(u32, f64)>| Series {
        label: label.into(),
        color: INK,
        marker: Marker::Circle,
        points,
    };
    let c = AnyChart::Curves(CurveChart {
        title: "curves".into(),
        k_max: 3,
        series: vec![
            series("nDCG", vec![(1, 0.5), (2, 0.625), (3, 0.75)]),
            series("recall", vec![(1, 0.25), (2, 0.5)]),
        ],
        theme: Theme::LIGHT,
    });
    let layout = layout_of(&c);
    let AnyLayout::Curves(cl) = &layout else {
        panic!("a curve layout")
    };
    let x = |k: i32| cl.x_px.0 + (cl.x_px.1 - cl.x_px.0) * (k - 1) / 2;
    assert_eq!(
        c.read_out(&layout, x(2), 100).as_deref(),
        Some("k = 2: nDCG 0.6250 · recall 0.5000")
    );
    // A series without a point at k is left out.
    assert_eq!(
        c.read_out(&layout, x(3), 100).as_deref(),
        Some("k = 3: nDCG 0.7500")
    );
    // A whole step left of k = 1: no k.
    assert_eq!(c.read_out(&layout, x(0), 100), None);
}

#[test]
fn hit_box_charts() {
    let centre = |chart: &AnyChart, row: usize, col: usize| {
        let layout = layout_of(chart);
        let AnyLayout::Hits(h) = &layout else {
            panic!("hit boxes")
        };
        let (x, y) = h.find(row, col).unwrap().centre();
        chart.read_out(&layout, x, y)
    };
    let hbars = AnyChart::HBars(HBarChart {
        title: "sub-modes".into(),
        x_desc: "failed cells".into(),
        bars: vec![
            HBar {
                label: "wrong_join".into(),
                value: 6,
                color: INK,
            },
            HBar {
                label: "tool_loop".into(),
                value: 2,
                color: INK,
            },
        ],
        legend: (String::new(), Vec::new()),
        label_width: 140,
        theme: Theme::LIGHT,
    });
    assert_eq!(centre(&hbars, 1, 0).as_deref(), Some("tool_loop: 2"));
    let stacked = AnyChart::Stacked(StackedChart {
        title: "families".into(),
        rows: vec![StackRow {
            label: "gpt-4.1".into(),
            counts: vec![3, 1],
        }],
        series: vec![("comprehension".into(), INK), ("process".into(), INK)],
        label_width: 100,
        theme: Theme::LIGHT,
    });
    // 3 of 4 = 75 %.
    assert_eq!(
        centre(&stacked, 0, 0).as_deref(),
        Some("gpt-4.1 · comprehension: 3 of 4 (75.0%)")
    );
    let heat = AnyChart::Heatmap(HeatmapChart {
        title: "FM".into(),
        rows: vec!["m1".into()],
        cols: vec!["FM1".into(), "FM2".into()],
        percent: vec![vec![12.5, 87.5]],
        label_width: 80,
        theme: Theme::LIGHT,
    });
    assert_eq!(centre(&heat, 0, 1).as_deref(), Some("m1 · FM2: 87.5%"));
    let hist = AnyChart::Histogram(HistogramChart {
        title: "cdf".into(),
        x_desc: "p".into(),
        y_desc: "cells".into(),
        counts: vec![1, 0, 4, 2],
        color: INK,
        threshold: None,
        theme: Theme::LIGHT,
    });
    // Bin 2 of 4 covers [0.5, 0.75).
    assert_eq!(centre(&hist, 0, 2).as_deref(), Some("0.50–0.75: 4"));
}
