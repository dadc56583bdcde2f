//! The trend chart drawn to SVG: one column per run, gaps where a model is missing, thinned
//! run names, hover read-outs and the text alternative.

mod common;

use common::{circles, svg_of};
use runlens_charts::{
    AnyChart, AnyLayout, Marker, Palette, Theme, TrendChart, TrendLayout, TrendSeries, TrendValue,
    draw_trend,
};

fn value(v: f64) -> Option<TrendValue> {
    Some(TrendValue {
        value: v,
        ci: Some((v - 5.0, v + 5.0)),
    })
}

fn chart(runs: usize, series: Vec<TrendSeries>) -> TrendChart {
    TrendChart {
        title: "Pass rate across runs <dev & \"x\">".into(),
        y_desc: "pass rate (%)".into(),
        y_range: (0.0, 100.0),
        runs: (0..runs).map(|i| format!("nightly-{i:03}")).collect(),
        series,
        theme: Theme::LIGHT,
    }
}

fn line(label: &str, marker: Marker, points: Vec<Option<TrendValue>>) -> TrendSeries {
    TrendSeries {
        label: label.into(),
        color: Palette::K_STAR,
        marker,
        in_legend: true,
        points,
    }
}

fn render(c: &TrendChart, size: (u32, u32)) -> (String, TrendLayout) {
    svg_of(size, |root| draw_trend(root, c).unwrap())
}

#[test]
fn one_marker_per_value_on_evenly_spaced_run_columns() {
    let c = chart(
        4,
        vec![line(
            "m",
            Marker::Circle,
            vec![value(50.0), value(100.0), None, value(0.0)],
        )],
    );
    let (svg, l) = render(&c, (800, 420));
    let dots = circles(&svg);
    // Three values (run 2 has none), then the legend's sample marker.
    assert_eq!(dots.len(), 4);
    assert_eq!(l.x_px.len(), 4);
    let step = l.x_px[1] - l.x_px[0];
    assert!(step > 100, "{step}");
    for w in l.x_px.windows(2) {
        assert!((w[1] - w[0] - step).abs() <= 1, "{:?}", l.x_px);
    }
    assert_eq!(dots[0].0, l.x_px[0]);
    assert_eq!(dots[2], (l.x_px[3], l.y_px.0));
    assert_eq!(dots[1].1, l.y_px.1);
    // 50 % halfway between 0 and 100 (±1 px).
    assert!((dots[0].1 - (l.y_px.0 + l.y_px.1) / 2).abs() <= 1);
    assert_eq!(l.points[0][2], None);
    // The gap breaks the line: one line for runs 0–1, none for the lone run 3 (and the
    // legend's sample line).
    let lines = svg.matches("stroke=\"#0072B2\" stroke-width=\"2\"").count();
    assert_eq!(lines, 2, "{svg}");
}

#[test]
fn pointer_maps_to_a_run_and_to_a_marker() {
    let c = chart(
        3,
        vec![
            line(
                "low",
                Marker::Circle,
                vec![value(20.0), value(30.0), value(40.0)],
            ),
            line("high", Marker::Square, vec![value(80.0), None, value(90.0)]),
        ],
    );
    let (_, l) = render(&c, (800, 420));
    let (x, y) = l.points[1][2].unwrap();
    assert_eq!(l.point_at(x + 3, y - 3), Some((1, 2)));
    assert_eq!(l.point_at(x, y + 40), None);
    let half = (l.x_px[1] - l.x_px[0]) / 2;
    assert_eq!(l.run_at(l.x_px[1] + half - 1), Some(1));
    assert_eq!(l.run_at(l.x_px[2] + half + 2), None);
    let any = AnyChart::Trend(c.clone());
    let layout = AnyLayout::Trend(l.clone());
    assert_eq!(
        any.read_out(&layout, x, y).as_deref(),
        Some("high in nightly-002: 90.0 (95% CI 85.0–95.0)")
    );
    assert_eq!(
        any.read_out(&layout, l.x_px[1], 5).as_deref(),
        Some("nightly-001: low 30.0")
    );
    assert_eq!(
        any.read_out(&layout, l.x_px[0], 5).as_deref(),
        Some("nightly-000: high 80.0 · low 20.0")
    );
    assert_eq!(
        any.text_alternative(),
        "Pass rate across runs <dev & \"x\">: low from 20 in nightly-000 to 40 in nightly-002 \
         (3 runs); high from 80 in nightly-000 to 90 in nightly-002 (2 runs)."
    );
}

#[test]
fn many_runs_get_thinned_names_inside_the_canvas_and_no_legend_past_ten_entries() {
    let points = |base: f64| (0..100).map(|i| value(base + f64::from(i % 7))).collect();
    let series: Vec<TrendSeries> = (0..11)
        .map(|s| {
            line(
                &format!("model-{s}"),
                Marker::Circle,
                points(5.0 * f64::from(s)),
            )
        })
        .collect();
    let c = chart(100, series);
    let (svg, l) = render(&c, (720, 420));
    let named = svg.matches("\nnightly-").count();
    assert!((5..50).contains(&named), "{named} run names");
    assert!(svg.contains("\nnightly-000\n"));
    // Past ten lines, all in the legend here (the app greys out all but eight): 11 lines ×
    // 100 runs of markers, and no legend.
    assert_eq!(circles(&svg).len(), 1100);
    assert!(!svg.contains("\nmodel-0\n"));
    // Title escaped.
    assert!(svg.contains("&lt;dev &amp; &quot;x&quot;&gt;"));
    assert_eq!(l.x_px.len(), 100);
}

#[test]
fn the_legend_lists_only_the_lines_marked_for_it() {
    let mut grey = line("grey", Marker::Circle, vec![value(10.0), value(20.0)]);
    grey.in_legend = false;
    let c = chart(
        2,
        vec![
            grey,
            line("shown", Marker::Square, vec![value(50.0), value(60.0)]),
        ],
    );
    let (svg, _) = svg_of((800, 420), |root| draw_trend(root, &c).unwrap());
    assert!(svg.contains("\nshown\n"));
    assert!(!svg.contains("\ngrey\n"));
    // Whiskers (three strokes a value, at 45 % opacity) for the listed line's two values only.
    assert_eq!(svg.matches("opacity=\"0.45\"").count(), 6, "{svg}");
    // Markers: none on the grey line (its two values make a line), two squares on the
    // listed one plus its legend sample; no circle at all.
    assert_eq!(circles(&svg).len(), 0);
}
