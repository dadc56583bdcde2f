//! Forest plot drawn to SVG: one dot per model row at its exact x, one diamond for the
//! pooled row, whiskers at the interval ends, a zero line, labels as escaped text.

mod common;

use common::{attr, elements, numbers, svg_of};
use plotters::style::RGBColor;
use runlens_charts::{ForestChart, ForestLayout, ForestRow, Theme, draw_forest};

const DOT: RGBColor = RGBColor(0x00, 0x72, 0xb2);

fn row(label: &str, estimate: f64, ci: Option<(f64, f64)>, pooled: bool) -> ForestRow {
    ForestRow {
        label: label.into(),
        estimate,
        ci,
        pooled,
    }
}

fn render(rows: Vec<ForestRow>) -> (String, ForestLayout) {
    let chart = ForestChart {
        title: "net pass-rate change (gated − baseline)".into(),
        x_desc: "net".into(),
        x_range: (-0.5, 0.5),
        rows,
        color: DOT,
        theme: Theme::LIGHT,
        label_width: 160,
    };
    svg_of((640, 300), |root| draw_forest(root, &chart).unwrap())
}

/// Pixel x of value `v` in the layout.
fn px(layout: &ForestLayout, v: f64) -> f64 {
    let (a, b) = layout.x_px;
    f64::from(a) + (v + 0.5) * f64::from(b - a)
}

#[test]
fn dots_diamond_whiskers_and_zero_line() {
    let (svg, layout) = render(vec![
        row("Kimi <K3>", 0.25, Some((0.1, 0.4)), false),
        row("GPT-4.1", -0.1, None, false),
        row("(all)", 0.05, Some((-0.05, 0.15)), true),
    ]);
    let circles = elements(&svg, "circle");
    assert_eq!(circles.len(), 2, "{svg}");
    // Dots sit at their estimates (±1 px), first row on top.
    let cx: Vec<i32> = circles.iter().map(|c| attr(c, "cx")).collect();
    assert!(
        (f64::from(cx[0]) - px(&layout, 0.25)).abs() <= 1.0,
        "{cx:?}"
    );
    assert!(
        (f64::from(cx[1]) - px(&layout, -0.1)).abs() <= 1.0,
        "{cx:?}"
    );
    assert!(attr(circles[0], "cy") < attr(circles[1], "cy"));
    // The pooled row is one diamond.
    let diamonds: Vec<&str> = elements(&svg, "polygon")
        .into_iter()
        .filter(|p| p.contains("#0072B2"))
        .collect();
    assert_eq!(diamonds.len(), 1);
    // Two rows with intervals × (whisker + two caps) = 6 blue polylines.
    let blue_lines = elements(&svg, "polyline")
        .into_iter()
        .filter(|p| p.contains("#0072B2"))
        .count();
    assert_eq!(blue_lines, 6);
    // Labels are escaped text; rows are hit-testable.
    assert!(svg.contains("Kimi &lt;K3&gt;"));
    assert!(!svg.contains("<K3>"));
    assert_eq!(layout.rows_px.len(), 3);
    let (t, b) = layout.rows_px[2];
    assert_eq!(layout.row_at((t + b) / 2), Some(2));
    assert_eq!(layout.row_at(0), None);
}

#[test]
fn an_empty_plot_draws_without_rows() {
    let (svg, layout) = render(Vec::new());
    assert!(elements(&svg, "circle").is_empty());
    assert!(layout.rows_px.is_empty());
}

/// #17, a 390 px screen: about one x-axis label per 56 px of plot (the labels ran together).
#[test]
fn a_narrow_forest_plot_has_fewer_axis_labels() {
    let labels = |width: u32| {
        let chart = ForestChart {
            title: "net".into(),
            x_desc: "pp".into(),
            x_range: (-20.0, 20.0),
            rows: vec![row("a", 2.0, Some((-1.0, 5.0)), false)],
            color: DOT,
            theme: Theme::LIGHT,
            label_width: 160,
        };
        numbers(&svg_of((width, 300), |root| draw_forest(root, &chart).unwrap()).0)
    };
    // 390 px: 390 − 2 × 14 − 160 = 202 px of plot → 3 labels' worth (plotters may round up
    // to a nicer step, never more).
    assert!(labels(390) <= 4, "{}", labels(390));
    // 1400 px: 1,212 px of plot → the usual ten or so.
    assert!(labels(1400) >= 8, "{}", labels(1400));
}
