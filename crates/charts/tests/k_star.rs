//! The k* histogram drawn to SVG: bar heights proportional to counts, counts above bars,
//! the "not found" bar, sparse labels for many columns, column hit-testing.

mod common;

use common::{attr, elements, svg_of};
use runlens_charts::{KStarChart, KStarLayout, Theme, draw_k_star_histogram};

fn chart(counts: Vec<usize>, not_found: usize) -> KStarChart {
    KStarChart {
        title: "k* (synthetic)".into(),
        counts,
        not_found,
        theme: Theme::LIGHT,
    }
}

fn render(c: &KStarChart) -> (String, KStarLayout) {
    svg_of((640, 360), |root| draw_k_star_histogram(root, c).unwrap())
}

/// `(x, height, fill)` of the column rectangles, left to right.
fn columns(svg: &str) -> Vec<(i32, i32, &str)> {
    let mut out: Vec<(i32, i32, &str)> = elements(svg, "rect")
        .into_iter()
        .filter_map(|r| {
            let fill = ["#0072B2", "#999999"].into_iter().find(|f| r.contains(f))?;
            Some((attr(r, "x"), attr(r, "height"), fill))
        })
        .collect();
    out.sort();
    out
}

#[test]
fn heights_follow_counts_and_not_found_is_last_and_grey() {
    let (svg, layout) = render(&chart(vec![6, 3, 0, 1], 2));
    let c = columns(&svg);
    // The zero-count column draws a zero-height rectangle (or none at all).
    let drawn: Vec<_> = c.iter().filter(|c| c.1 > 0).collect();
    assert_eq!(drawn.len(), 4, "{c:?}");
    let unit = f64::from(drawn[0].1) / 6.0;
    for (col, count) in drawn.iter().zip([6.0, 3.0, 1.0, 2.0]) {
        assert!((f64::from(col.1) - count * unit).abs() <= 1.0, "{c:?}");
    }
    assert_eq!(drawn[3].2, "#999999");
    assert!(drawn[..3].iter().all(|c| c.2 == "#0072B2"));
    assert_eq!(layout.columns_px.len(), 5);
    for label in [
        "\n6\n",
        "\n3\n",
        "\n0\n",
        "\n1\n",
        "\n2\n",
        "\n4\n",
        "\nnot found\n",
    ] {
        assert!(svg.contains(label), "{label:?} missing");
    }
    let (l, r) = layout.columns_px[4];
    assert_eq!(layout.column_at((l + r) / 2), Some(4));
    assert_eq!(layout.column_at(0), None);
}

#[test]
fn no_not_found_bar_when_every_gold_set_is_ranked() {
    let (svg, layout) = render(&chart(vec![1, 1], 0));
    assert_eq!(layout.columns_px.len(), 2);
    assert!(!svg.contains("not found"));
}

#[test]
fn many_columns_are_labelled_sparsely() {
    let (svg, layout) = render(&chart(vec![1; 200], 0));
    assert_eq!(layout.columns_px.len(), 200);
    // Column labels "1".."200" are drawn every n-th column only: fewer than 40 of them.
    let labels = (1..=200)
        .filter(|k| svg.contains(&format!(">\n{k}\n<")))
        .count();
    assert!(labels > 0 && labels < 40, "{labels}");
}

#[test]
fn empty_histogram_draws_axes() {
    let (svg, layout) = render(&chart(vec![], 0));
    assert!(layout.columns_px.is_empty() && columns(&svg).is_empty());
    assert!(svg.contains("questions"));
}
