//! `draw_any` and `render_svg`: every chart kind renders to SVG text, with the caption line
//! under the plot (escaped, truncated to the width) and the same geometry as a direct draw.

use plotters::prelude::*;
use plotters_svg::SVGBackend;
use runlens_charts::{
    AnyChart, AnyLayout, CAPTION_HEIGHT, CiBar, CiBarChart, CurveChart, KStarChart, Marker,
    Palette, ProbabilityBar, ProbabilityChart, Series, Theme, draw_any, draw_probability_bars,
    render_svg,
};

fn charts() -> Vec<AnyChart> {
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
            theme: Theme::DARK,
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
            theme: Theme::LIGHT,
            label_width: 120,
        }),
        AnyChart::Probability(probability()),
        AnyChart::KStar(KStarChart {
            title: "k*".into(),
            counts: vec![3, 1],
            not_found: 1,
            theme: Theme::LIGHT,
        }),
    ]
}

fn probability() -> ProbabilityChart {
    ProbabilityChart {
        title: "question".into(),
        bars: vec![ProbabilityBar {
            table: "crm.a".into(),
            p: 0.97,
            is_gold: true,
        }],
        threshold: 0.5,
        theme: Theme::LIGHT,
        label_width: 120,
    }
}

const CAPTION: &str = "bundle 0123456789ab · corpus dev · gold rule harness · t = 0.5 <&>";

#[test]
fn every_chart_renders_with_its_caption() {
    for chart in charts() {
        let svg = render_svg(&chart, CAPTION, 800, 400).unwrap();
        assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
        assert!(
            svg.contains(
                "bundle 0123456789ab · corpus dev · gold rule harness · t = 0.5 &lt;&amp;&gt;"
            ),
            "{chart:?}"
        );
        assert!(svg.contains("width=\"800\"") && svg.contains("height=\"400\""));
    }
    let svg = render_svg(&charts()[2], CAPTION, 800, 400).unwrap();
    assert!(svg.contains("\n0.97\n") && svg.contains("t = 0.5\n") && svg.contains("★ crm.a"));
}

#[test]
fn caption_is_truncated_to_the_width() {
    let long = "x".repeat(500);
    let svg = render_svg(&charts()[0], &long, 400, 300).unwrap();
    // (400 − 16) / 6 = 64 characters: 63 × "x" then "…".
    assert!(svg.contains(&format!("\n{}…\n", "x".repeat(63))));
    assert!(!svg.contains(&"x".repeat(64)));
}

#[test]
fn caption_band_shrinks_the_plot_but_keeps_its_origin() {
    let draw = |caption: &str| {
        let mut svg = String::new();
        let root = SVGBackend::with_string(&mut svg, (700, 360)).into_drawing_area();
        let layout = draw_any(&root, &AnyChart::Probability(probability()), caption).unwrap();
        root.present().unwrap();
        match layout {
            AnyLayout::Probability(p) => p,
            other => panic!("wrong layout {other:?}"),
        }
    };
    let direct = {
        let mut svg = String::new();
        let root = SVGBackend::with_string(&mut svg, (700, 360)).into_drawing_area();
        draw_probability_bars(&root, &probability()).unwrap()
    };
    assert_eq!(draw(""), direct);
    let with = draw(CAPTION);
    assert_eq!(with.x_px, direct.x_px);
    let shrink = direct.rows_px[0].1 - with.rows_px[0].1;
    // The plot is CAPTION_HEIGHT px shorter, so the bar's bottom moves up by at most that.
    assert!(shrink > 0 && shrink <= CAPTION_HEIGHT as i32, "{shrink}");
    assert!(with.rows_px[0].0 <= direct.rows_px[0].0);
}

#[test]
fn tiny_areas_do_not_panic() {
    for chart in charts() {
        for (w, h) in [(1, 1), (10, 10), (60, 30)] {
            let _ = render_svg(&chart, CAPTION, w, h);
        }
    }
}
