//! The failures view's charts drawn to SVG: coloured sub-mode bars with counts and legend,
//! stacked shares, the FM heatmap's cell text and ink, the histogram's bins and threshold,
//! and hit boxes that land on the drawn rectangles.

use plotters::prelude::*;
use plotters_svg::SVGBackend;
use runlens_charts::{
    AnyChart, AnyLayout, HBar, HBarChart, HeatmapChart, HistogramChart, HitLayout, StackRow,
    StackedChart, Theme, Threshold, draw_any, hex_color, render_svg, yl_or_br,
};

fn render(chart: &AnyChart) -> (String, HitLayout) {
    let mut svg = String::new();
    let layout = {
        let root = SVGBackend::with_string(&mut svg, (720, 420)).into_drawing_area();
        let l = draw_any(&root, chart, "").unwrap();
        root.present().unwrap();
        l
    };
    match layout {
        AnyLayout::Hits(h) => (svg, h),
        other => panic!("unexpected layout {other:?}"),
    }
}

fn attr(s: &str, name: &str) -> i32 {
    let start = s.find(&format!(" {name}=\"")).unwrap() + name.len() + 3;
    let end = start + s[start..].find('"').unwrap();
    s[start..end].parse().unwrap()
}

/// `(x, y, width, height)` of filled rectangles with `fill`.
fn rects(svg: &str, fill: &str) -> Vec<(i32, i32, i32, i32)> {
    svg.match_indices("<rect")
        .map(|(i, _)| &svg[i..i + svg[i..].find("/>").unwrap()])
        .filter(|r| r.contains(&format!("fill=\"{fill}\"")) && !r.contains("fill-opacity=\"0"))
        .map(|r| {
            (
                attr(r, "x"),
                attr(r, "y"),
                attr(r, "width"),
                attr(r, "height"),
            )
        })
        .collect()
}

fn sub_mode_chart() -> AnyChart {
    let c = |h: &str| hex_color(h).unwrap();
    AnyChart::HBars(HBarChart {
        title: "Jev sub-modes (n=12), colored by blog failure mode".into(),
        x_desc: "failed cells".into(),
        bars: vec![
            HBar {
                label: "wrong_identifier".into(),
                value: 6,
                color: c("#009E73"),
            },
            HBar {
                label: "stopped_early".into(),
                value: 4,
                color: c("#0072B2"),
            },
            HBar {
                label: "<b>correct_but_judged_fail</b>".into(),
                value: 2,
                color: c("#999999"),
            },
        ],
        legend: (
            "blog failure mode".into(),
            vec![("FM1 no attempt".into(), c("#0072B2"))],
        ),
        label_width: 190,
        theme: Theme::LIGHT,
    })
}

#[test]
fn sub_mode_bars_are_coloured_sized_and_counted() {
    let (svg, hits) = render(&sub_mode_chart());
    let green = rects(&svg, "#009E73");
    let grey = rects(&svg, "#999999");
    assert_eq!((green.len(), grey.len()), (1, 1), "{svg}");
    // Legend swatch + the stopped_early bar are both #0072B2.
    assert_eq!(rects(&svg, "#0072B2").len(), 2);
    // Bar lengths follow the counts: 6 : 2 = 3.
    let ratio = f64::from(green[0].2) / f64::from(grey[0].2);
    assert!((ratio - 3.0).abs() < 0.1, "{ratio}");
    // Largest on top.
    assert!(green[0].1 < grey[0].1);
    for text in [
        "\n6\n",
        "\n4\n",
        "\n2\n",
        "blog failure mode",
        "failed cells",
        "n=12",
    ] {
        assert!(svg.contains(text), "{text}");
    }
    // Hostile labels are escaped text.
    assert!(svg.contains("&lt;b&gt;correct_but_judged_fail&lt;/b&gt;"));
    assert!(!svg.contains("<b>"));
    // Hit boxes: one per bar, in order, centred on the drawn bars.
    assert_eq!(hits.boxes.len(), 3);
    let (cx, cy) = hits.boxes[0].centre();
    let g = green[0];
    assert!(cx >= g.0 && cx <= g.0 + g.2 && cy >= g.1 && cy <= g.1 + g.3);
    assert_eq!(hits.at(cx, cy).map(|b| b.row), Some(0));
    let (gx, gy) = hits.boxes[2].centre();
    assert_eq!(hits.at(gx, gy).map(|b| b.row), Some(2));
}

#[test]
fn stacked_segments_are_row_shares() {
    let chart = AnyChart::Stacked(StackedChart {
        title: "Family profile per model".into(),
        rows: vec![
            StackRow {
                label: "gpt-4.1".into(),
                counts: vec![3, 1],
            },
            StackRow {
                label: "gemini".into(),
                counts: vec![0, 5],
            },
        ],
        series: vec![
            ("comprehension".into(), hex_color("#E69F00").unwrap()),
            ("process".into(), hex_color("#56B4E9").unwrap()),
        ],
        label_width: 120,
        theme: Theme::LIGHT,
    });
    let (svg, hits) = render(&chart);
    let orange = rects(&svg, "#E69F00");
    let blue = rects(&svg, "#56B4E9");
    // 1 orange segment + legend swatch; 2 blue segments + legend swatch.
    assert_eq!((orange.len(), blue.len()), (2, 3));
    // Empty segments get no hit box: 2 + 1.
    assert_eq!(hits.boxes.len(), 3);
    let w = |b: &runlens_charts::HitBox| b.rect.2 - b.rect.0;
    // gpt-4.1: 75 % vs 25 %; gemini: 100 %.
    let (a, b, c) = (w(&hits.boxes[0]), w(&hits.boxes[1]), w(&hits.boxes[2]));
    assert!((f64::from(a) / f64::from(b) - 3.0).abs() < 0.1, "{a} {b}");
    assert!((a + b - c).abs() <= 1, "{a} {b} {c}");
    assert_eq!((hits.boxes[2].row, hits.boxes[2].col), (1, 1));
    assert!(svg.contains("gpt-4.1") && svg.contains("process"));
}

#[test]
fn heatmap_cells_show_integer_percent_with_contrasting_ink() {
    let chart = AnyChart::Heatmap(HeatmapChart {
        title: "Failure modes, % of concluded failures (row-normalised)".into(),
        rows: vec!["m1".into(), "m2".into()],
        cols: ["FM1", "FM2", "FM3", "FM4", "FM5"]
            .map(String::from)
            .to_vec(),
        percent: vec![
            vec![0.0, 50.0, 0.0, 0.0, 25.0],
            vec![60.0, 40.0, 0.0, 0.0, 0.0],
        ],
        label_width: 80,
        theme: Theme::LIGHT,
    });
    let (svg, hits) = render(&chart);
    assert_eq!(hits.boxes.len(), 10);
    // Zero cells: FM1, FM3, FM4 of m1 and FM3, FM4, FM5 of m2.
    assert_eq!(svg.matches("\n0\n").count(), 6, "{svg}");
    for t in ["\n50\n", "\n25\n", "\n60\n", "\n40\n", "FM3", "m2"] {
        assert!(svg.contains(t), "{t}");
    }
    // 60 ≥ 55 is drawn in white; the rest in black.
    assert!(svg.contains("fill=\"#FFFFFF\">\n60\n"));
    assert!(svg.contains("fill=\"#000000\">\n50\n"));
    let c = yl_or_br(60.0);
    let hex = format!("#{:02X}{:02X}{:02X}", c.0, c.1, c.2);
    assert_eq!(rects(&svg, &hex).len(), 1, "{hex}");
    assert_eq!(yl_or_br(0.0), RGBColor(0xff, 0xff, 0xe5));
    assert_eq!(yl_or_br(95.0), RGBColor(0x66, 0x25, 0x06));
}

#[test]
fn histogram_has_twenty_bins_and_a_threshold_with_its_count() {
    let mut counts = vec![0; 20];
    counts[0] = 8;
    counts[13] = 3; // [0.65, 0.70)
    counts[19] = 1;
    let chart = AnyChart::Histogram(HistogramChart {
        title: "Judge-of-judges flag across 12 failures".into(),
        x_desc: "Jev correct_despite_fail".into(),
        y_desc: "failed cells".into(),
        counts,
        color: hex_color("#0072B2").unwrap(),
        threshold: Some(Threshold {
            at: 0.65,
            label: "0.65: genuine grader errors above".into(),
            above: 4,
        }),
        theme: Theme::LIGHT,
    });
    let (svg, hits) = render(&chart);
    let bars = rects(&svg, "#0072B2");
    assert_eq!(bars.len(), 3);
    assert_eq!(hits.boxes.len(), 20);
    assert!(svg.contains("0.65: genuine grader errors above"));
    assert!(svg.contains("n ≥ 0.65: 4"));
    // The bin-13 box lies right of the threshold line's x and its bar is 3/8 of bin 0's.
    let tall = bars.iter().max_by_key(|b| b.3).unwrap();
    let b13 = bars
        .iter()
        .find(|b| b.3 != tall.3 && b.0 > tall.0 && b.0 < hits.boxes[19].rect.0)
        .unwrap();
    assert!((f64::from(b13.3) / f64::from(tall.3) - 3.0 / 8.0).abs() < 0.05);
    let (x13, y13) = hits.boxes[13].centre();
    assert_eq!(hits.at(x13, y13).map(|b| b.col), Some(13));
    let svg2 = render_svg(&chart, "caption", 720, 420).unwrap();
    assert!(svg2.contains("caption"));
}
