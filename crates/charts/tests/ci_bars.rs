//! CI bar chart drawn to SVG: one rectangle per row with its exact length, whiskers at the
//! interval ends, labels as escaped text, rows hit-testable.

mod common;

use common::{attr, elements, numbers, svg_of, texts};
use plotters::style::RGBColor;
use runlens_charts::{BarLayout, CiBar, CiBarChart, Theme, draw_ci_bars};

const BAR: RGBColor = RGBColor(0x00, 0x72, 0xb2);

fn chart(bars: Vec<CiBar>) -> CiBarChart {
    CiBarChart {
        title: "pass rate (synthetic)".into(),
        x_desc: "pass rate".into(),
        x_range: (0.0, 1.0),
        bars,
        theme: Theme::LIGHT,
        label_width: 160,
    }
}

fn bar(label: &str, value: f64, ci: Option<(f64, f64)>) -> CiBar {
    CiBar {
        label: label.into(),
        value,
        ci,
        color: BAR,
    }
}

fn render(c: &CiBarChart) -> (String, BarLayout) {
    svg_of((640, 300), |root| draw_ci_bars(root, c).unwrap())
}

/// `(x, y, width, height)` of the filled bar rectangles (fill = the bar colour).
fn bars(svg: &str) -> Vec<(i32, i32, i32, i32)> {
    elements(svg, "rect")
        .into_iter()
        .filter(|r| r.contains("fill=\"#0072B2\""))
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

#[test]
fn bars_have_exact_lengths_in_row_order() {
    let (svg, layout) = render(&chart(vec![
        bar("Kimi K3", 0.8, None),
        bar("GPT-4.1", 0.4, None),
    ]));
    let b = bars(&svg);
    assert_eq!(b.len(), 2);
    let full = layout.x_px.1 - layout.x_px.0;
    // Widths are value × plot width (±1 px of rounding); first row on top.
    assert!(
        (b[0].2 - (0.8 * f64::from(full)) as i32).abs() <= 1,
        "{b:?} {full}"
    );
    assert!(
        (b[1].2 - (0.4 * f64::from(full)) as i32).abs() <= 1,
        "{b:?} {full}"
    );
    assert!(b[0].1 < b[1].1);
    assert_eq!(b[0].0, layout.x_px.0);
    assert_eq!(
        layout.row_at((layout.rows_px[1].0 + layout.rows_px[1].1) / 2),
        Some(1)
    );
    assert_eq!(layout.row_at(0), None);
}

#[test]
fn whiskers_span_the_interval_and_are_clipped() {
    let (svg, layout) = render(&chart(vec![bar("a", 0.5, Some((0.25, 1.4)))]));
    let full = f64::from(layout.x_px.1 - layout.x_px.0);
    let lo_px = layout.x_px.0 + (0.25 * full).round() as i32;
    let hi_px = layout.x_px.1; // 1.4 is clipped to the range end 1.0
    // The whisker span: a horizontal path from the low end (±1 px of rounding) to the
    // clipped high end; plus two vertical caps at those x positions.
    let paths: Vec<Vec<(i32, i32)>> = svg
        .match_indices("points=\"")
        .map(|(i, _)| {
            let rest = &svg[i + 8..];
            rest[..rest.find('"').unwrap()]
                .split_whitespace()
                .map(|p| {
                    let (x, y) = p.split_once(',').unwrap();
                    (x.parse().unwrap(), y.parse().unwrap())
                })
                .collect()
        })
        .collect();
    let span = paths
        .iter()
        .find(|p| {
            p.len() == 2 && p[0].1 == p[1].1 && (p[0].0 - lo_px).abs() <= 1 && p[1].0 == hi_px
        })
        .unwrap_or_else(|| panic!("no whisker from {lo_px} to {hi_px} in {paths:?}"));
    let caps = paths
        .iter()
        .filter(|p| {
            p.len() == 2
                && p[0].0 == p[1].0
                && p[0].1 != p[1].1
                && (p[0].0 == span[0].0 || p[0].0 == hi_px)
                && p[0].1.min(p[1].1) < span[0].1
                && p[0].1.max(p[1].1) > span[0].1
        })
        .count();
    assert_eq!(caps, 2);
}

#[test]
fn labels_are_escaped_text() {
    let (svg, _) = render(&chart(vec![bar("<script>alert(1)</script>", 0.1, None)]));
    assert!(svg.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
    assert!(!svg.contains("<script>"));
}

#[test]
fn no_rows_draws_an_empty_frame() {
    let (svg, layout) = render(&chart(vec![]));
    assert!(bars(&svg).is_empty());
    assert!(layout.rows_px.is_empty());
    assert!(svg.contains("pass rate"));
}

/// #17, a narrow chart: about one x-axis label per 56 px of plot, so the labels do not run
/// together (a 390 px screen drew "0102030…" with the default ten).
#[test]
fn a_narrow_chart_has_fewer_axis_labels() {
    let c = CiBarChart {
        x_range: (0.0, 100.0),
        ..chart(vec![bar("a", 61.5, Some((55.0, 68.0)))])
    };
    let labels = |width: u32| numbers(&svg(&c, width));
    // 320 px: 320 − 2 × 14 margin − 160 label width = 132 px of plot → 2 labels' worth.
    assert!(labels(320) <= 3, "{}", labels(320));
    // 720 px: 532 px of plot → up to 9 labels (0, 20, …, 100 as plotters rounds them).
    assert!(labels(720) >= 5, "{}", labels(720));
}

/// `c` drawn `width` px wide, 300 high.
fn svg(c: &CiBarChart, width: u32) -> String {
    svg_of((width, 300), |root| draw_ci_bars(root, c).unwrap()).0
}

/// #17, a 390 px screen: the leaderboard's x-axis description is wider than the plot, so it
/// wraps under the chart in whole words instead of running off the canvas (plotters centres
/// it under the plot, in one line); on a wide chart it stays plotters' one line.
#[test]
fn a_description_wider_than_the_plot_wraps_under_the_chart() {
    let desc = "pass rate, % (95% CI); dark: the top model and those tied with it (p ≥ 0.05)";
    let c = CiBarChart {
        x_desc: desc.into(),
        x_range: (0.0, 100.0),
        ..chart(vec![bar("a", 61.5, Some((55.0, 68.0)))])
    };
    let draw = |width: u32| texts(&svg(&c, width));
    let wide = draw(1400);
    assert!(wide.iter().any(|t| t == desc), "{wide:?}");
    let narrow = draw(390);
    assert!(!narrow.iter().any(|t| t == desc));
    // The lines drawn under the chart, in order, are the description's words.
    let mut joined = String::new();
    let mut lines = 0;
    for t in narrow.iter().skip_while(|t| !desc.starts_with(t.as_str())) {
        let next = if joined.is_empty() {
            t.clone()
        } else {
            format!("{joined} {t}")
        };
        if !desc.starts_with(&next) {
            break;
        }
        (joined, lines) = (next, lines + 1);
    }
    assert!(lines >= 2, "{narrow:?}");
    assert_eq!(joined, desc);
}
