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

/// The caption lines drawn in `svg` (the text at x = 8 px), top to bottom.
fn caption_lines(svg: &str) -> Vec<String> {
    svg.split("</text>")
        .filter(|t| t.contains("<text x=\"8\""))
        .filter_map(|t| t.rsplit_once('>').map(|(_, text)| text.trim().to_owned()))
        .collect()
}

#[test]
fn captions_wrap_to_the_width_and_are_never_cut_when_they_fit() {
    // #17, bug 5: captions used to be cut with "…", in the page and in exported files.
    let words: Vec<String> = (1..=30).map(|i| format!("word{i:02}")).collect();
    let caption = words.join(" ");
    let svg = render_svg(&charts()[0], &caption, 400, 300).unwrap();
    let lines = caption_lines(&svg);
    assert!(lines.len() >= 2, "{lines:?}");
    assert_eq!(lines.join(" "), caption);
    assert!(!svg.contains('…'));
    // Wide enough: one line.
    let svg = render_svg(&charts()[0], "bundle 0123456789ab · corpus dev", 800, 400).unwrap();
    assert_eq!(caption_lines(&svg), ["bundle 0123456789ab · corpus dev"]);
}

#[test]
fn a_caption_longer_than_a_third_of_the_chart_ends_in_an_ellipsis() {
    let caption = vec!["word"; 500].join(" ");
    let svg = render_svg(&charts()[0], &caption, 400, 300).unwrap();
    let lines = caption_lines(&svg);
    // A band of at most 300 / 3 = 100 px: 22 px for the first line, 14 for each other: 6.
    assert_eq!(lines.len(), 6, "{lines:?}");
    assert!(lines[5].ends_with('…'));
    assert!(lines[..5].iter().all(|l| !l.ends_with('…')));
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

#[test]
fn every_chart_has_a_text_alternative_with_its_numbers() {
    use runlens_charts::{HBar, HBarChart};
    let bars = AnyChart::CiBars(CiBarChart {
        title: "Pass rate on dev".into(),
        x_desc: "pass rate, %".into(),
        x_range: (0.0, 100.0),
        bars: vec![
            CiBar {
                label: "gpt-4.1 (top)".into(),
                value: 62.5,
                ci: Some((58.125, 66.875)),
                color: Palette::RECALL,
            },
            CiBar {
                label: "o3".into(),
                value: 100.0 * (2.0 / 3.0),
                ci: None,
                color: Palette::OTHER,
            },
        ],
        theme: Theme::LIGHT,
        label_width: 120,
    });
    assert_eq!(
        bars.text_alternative(),
        "Pass rate on dev: gpt-4.1 (top) 62.5 [58.125, 66.875]; o3 66.667."
    );
    let counts = AnyChart::HBars(HBarChart {
        title: "Sub-modes".into(),
        x_desc: "failed cells".into(),
        bars: vec![HBar {
            label: "wrong_join".into(),
            value: 12,
            color: Palette::OTHER,
        }],
        legend: (String::new(), Vec::new()),
        label_width: 120,
        theme: Theme::LIGHT,
    });
    assert_eq!(counts.text_alternative(), "Sub-modes: wrong_join 12.");
    for chart in charts() {
        let text = chart.text_alternative();
        assert!(text.ends_with('.') && text.len() > 10, "{text}");
    }
}
