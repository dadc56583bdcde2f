//! The curve chart drawn to SVG: exact marker positions, legend and title, hover mapping.

mod common;

use common::circles;
use plotters::prelude::*;
use plotters_svg::SVGBackend;
use runlens_charts::{CurveChart, Marker, Palette, Series, Theme, draw_curves};

fn chart(points: Vec<(u32, f64)>, k_max: u32) -> CurveChart {
    CurveChart {
        title: "recall@k <synthetic & \"quoted\">".into(),
        k_max,
        series: vec![Series {
            label: "recall@k (share of gold tables found)".into(),
            color: Palette::RECALL,
            marker: Marker::Circle,
            points,
        }],
        theme: Theme::LIGHT,
    }
}

fn render(c: &CurveChart) -> (String, runlens_charts::CurveLayout) {
    let mut svg = String::new();
    let layout = {
        let root = SVGBackend::with_string(&mut svg, (640, 400)).into_drawing_area();
        let layout = draw_curves(&root, c).unwrap();
        root.present().unwrap();
        layout
    };
    (svg, layout)
}

#[test]
fn one_marker_per_point_at_its_exact_position() {
    let (svg, layout) = render(&chart(vec![(1, 0.5), (2, 1.0), (3, 1.0)], 3));
    let c = circles(&svg);
    // Three markers, then the legend's sample marker.
    assert_eq!(c.len(), 4);
    // k = 1 sits on the left end, k = 3 on the right end; value 1.0 at the y of 1.0.
    assert_eq!(c[0].0, layout.x_px.0);
    assert_eq!(c[2].0, layout.x_px.1);
    assert_eq!(c[1].1, layout.y_px.1);
    // 0.5 is halfway between 0 and 1 (±1 px of rounding).
    let mid = f64::from(layout.y_px.0 + layout.y_px.1) / 2.0;
    assert!(
        (f64::from(c[0].1) - mid).abs() <= 1.0,
        "{} vs {mid}",
        c[0].1
    );
    // k = 2 is halfway between k = 1 and k = 3.
    assert!((c[1].0 - (layout.x_px.0 + layout.x_px.1) / 2).abs() <= 1);
}

#[test]
fn title_and_legend_are_escaped_text() {
    let (svg, layout) = render(&chart(vec![(1, 0.25)], 10));
    assert!(
        svg.contains("recall@k &lt;synthetic &amp; &quot;quoted&quot;&gt;"),
        "{svg}"
    );
    assert!(svg.contains("recall@k (share of gold tables found)"));
    assert!(!svg.contains("<synthetic"));
    // The legend sits inside the plot's lower-right corner: its sample marker (the last
    // circle) is left of k = 10 and above value 0, in the right half and the lower third.
    let (cx, cy) = *circles(&svg).last().unwrap();
    assert!(
        cx < layout.x_px.1 && cx > (layout.x_px.0 + layout.x_px.1) / 2,
        "{cx}"
    );
    assert!(
        cy < layout.y_px.0 && cy > layout.y_px.0 - (layout.y_px.0 - layout.y_px.1) / 3,
        "{cy}"
    );
    assert!(svg.contains("k (tables retrieved)"));
}

#[test]
fn hover_maps_pixels_back_to_k() {
    let (_, layout) = render(&chart(vec![(1, 0.1)], 10));
    assert_eq!(layout.k_max, 10);
    assert_eq!(layout.k_at(layout.x_px.0), Some(1));
    assert_eq!(layout.k_at(layout.x_px.1), Some(10));
    let step = f64::from(layout.x_px.1 - layout.x_px.0) / 9.0;
    assert_eq!(
        layout.k_at(layout.x_px.0 + (4.0 * step) as i32 + 1),
        Some(5)
    );
    assert_eq!(layout.k_at(layout.x_px.0 - 200), None);
    assert_eq!(layout.k_at(layout.x_px.1 + 200), None);
}

#[test]
fn empty_chart_draws_axes_without_legend() {
    let mut c = chart(vec![], 5);
    c.series.clear();
    let (svg, _) = render(&c);
    assert!(svg.contains("score"));
    assert_eq!(circles(&svg).len(), 0);
}

#[test]
fn a_title_longer_than_the_chart_is_wide_wraps_and_keeps_every_word() {
    // #17, bug 5: "…: the smallest k whose top k holds every gold table (text2sqlbench-
    // synthetic-de" ended at the canvas edge.
    let title =
        "k*: the smallest k whose top k holds every gold table (text2sqlbench-synthetic-dev)";
    let titled = |width: u32| {
        let mut svg = String::new();
        let layout = {
            let root = SVGBackend::with_string(&mut svg, (width, 400)).into_drawing_area();
            let c = CurveChart {
                title: title.into(),
                ..chart(vec![(1, 0.25)], 10)
            };
            let layout = draw_curves(&root, &c).unwrap();
            root.present().unwrap();
            layout
        };
        // The title lines: the text drawn centred above the plot.
        let lines: Vec<String> = svg
            .split("</text>")
            .filter_map(|t| {
                let (head, text) = t.rsplit_once('>')?;
                let tag = head.rsplit("<text").next()?;
                let y: f64 = tag.split("y=\"").nth(1)?.split('"').next()?.parse().ok()?;
                (tag.contains("text-anchor=\"middle\"") && (y as i32) < layout.y_px.1)
                    .then(|| text.trim().to_owned())
            })
            .collect();
        (lines, layout)
    };
    let (narrow, narrow_layout) = titled(390);
    assert!(narrow.len() >= 2, "{narrow:?}");
    assert_eq!(narrow.join(" "), title);
    let (wide, wide_layout) = titled(1400);
    assert_eq!(wide, [title]);
    // The extra lines take room from the plot, not from the canvas edge.
    assert!(narrow_layout.y_px.1 > wide_layout.y_px.1);
}

/// The `points` of every `<polygon>` in document order.
fn polygons(svg: &str) -> Vec<Vec<(i32, i32)>> {
    svg.match_indices("<polygon")
        .map(|(i, _)| {
            let s = &svg[i..];
            let start = s.find("points=\"").unwrap() + 8;
            let end = start + s[start..].find('"').unwrap();
            s[start..end]
                .split_whitespace()
                .map(|p| {
                    let (x, y) = p.split_once(',').unwrap();
                    (x.parse().unwrap(), y.parse().unwrap())
                })
                .collect()
        })
        .collect()
}

#[test]
fn diamond_and_down_triangle_markers_sit_on_their_points() {
    for (marker, shape) in [
        (Marker::Diamond, vec![(0, -5), (5, 0), (0, 5), (-5, 0)]),
        (Marker::TriangleDown, vec![(0, 5), (-5, -4), (5, -4)]),
    ] {
        let mut c = chart(vec![(1, 1.0), (2, 0.0)], 2);
        c.series[0].marker = marker;
        let (svg, layout) = render(&c);
        assert!(circles(&svg).is_empty(), "{marker:?}");
        let drawn = polygons(&svg);
        // Two markers, then the legend's sample marker.
        assert_eq!(drawn.len(), 3, "{marker:?}");
        for (polygon, (cx, cy)) in drawn.iter().zip([
            (layout.x_px.0, layout.y_px.1),
            (layout.x_px.1, layout.y_px.0),
        ]) {
            let want: Vec<(i32, i32)> = shape.iter().map(|(dx, dy)| (cx + dx, cy + dy)).collect();
            assert_eq!(polygon, &want, "{marker:?}");
        }
    }
}

#[test]
fn the_legend_leaves_the_lower_right_when_a_falling_curve_runs_through_it() {
    // Lower right is free: the legend's sample circle is in the right half, lower third.
    let (svg, layout) = render(&chart(vec![(1, 0.2), (5, 0.9), (10, 1.0)], 10));
    let (cx, cy) = *circles(&svg).last().unwrap();
    let (x_mid, y_third) = (
        (layout.x_px.0 + layout.x_px.1) / 2,
        layout.y_px.0 - (layout.y_px.0 - layout.y_px.1) / 3,
    );
    assert!(cx > x_mid && cy > y_third, "({cx}, {cy})");
    // A curve falling from 1.0 to 0.05 crosses the lower right (and the middle right): the
    // legend goes to the lower left, which the curve only enters near 1.0.
    let (svg, layout) = render(&chart(
        (1..=10).map(|k| (k, 1.0 / f64::from(k) - 0.05)).collect(),
        10,
    ));
    let (cx, cy) = *circles(&svg).last().unwrap();
    assert!(cx < (layout.x_px.0 + layout.x_px.1) / 2, "({cx}, {cy})");
    assert!(
        cy > layout.y_px.0 - (layout.y_px.0 - layout.y_px.1) / 3,
        "({cx}, {cy})"
    );
}
