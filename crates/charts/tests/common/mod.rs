//! What the chart tests read from a drawn SVG.
#![allow(dead_code)]

/// The text of every `<text>` element, in order.
pub fn texts(svg: &str) -> Vec<String> {
    svg.split("</text>")
        .filter_map(|t| Some(t.rsplit_once('>')?.1.trim().to_owned()))
        .filter(|t| !t.is_empty())
        .collect()
}

/// How many `<text>` elements are numbers (the axis labels of a chart without numeric row
/// labels).
pub fn numbers(svg: &str) -> usize {
    svg.split("<text")
        .skip(1)
        .filter_map(|t| t.split('>').nth(1)?.split('<').next())
        .filter(|t| t.trim().parse::<f64>().is_ok())
        .count()
}

/// `(cx, cy)` of every `<circle>`, in document order.
pub fn circles(svg: &str) -> Vec<(i32, i32)> {
    let attr = |s: &str, name: &str| -> i32 {
        let start = s.find(&format!("{name}=\"")).unwrap() + name.len() + 2;
        let end = start + s[start..].find('"').unwrap();
        s[start..end].parse().unwrap()
    };
    svg.match_indices("<circle")
        .map(|(i, _)| &svg[i..])
        .map(|s| (attr(s, "cx"), attr(s, "cy")))
        .collect()
}

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters_svg::SVGBackend;

/// Draws with `draw` on an SVG of `size` pixels; returns the SVG and what `draw` returned
/// (the chart's layout).
pub fn svg_of<L>(
    size: (u32, u32),
    draw: impl FnOnce(&DrawingArea<SVGBackend, Shift>) -> L,
) -> (String, L) {
    let mut svg = String::new();
    let layout = {
        let root = SVGBackend::with_string(&mut svg, size).into_drawing_area();
        let layout = draw(&root);
        root.present().unwrap();
        layout
    };
    (svg, layout)
}

/// The integer attribute `name` of one element's text (` name="12"`).
pub fn attr(element: &str, name: &str) -> i32 {
    let start = element.find(&format!(" {name}=\"")).unwrap() + name.len() + 3;
    let end = start + element[start..].find('"').unwrap();
    element[start..end].parse().unwrap()
}

/// The text of every `<tag …>` element, in document order.
pub fn elements<'a>(svg: &'a str, tag: &str) -> Vec<&'a str> {
    svg.match_indices(&format!("<{tag} "))
        .map(|(i, _)| &svg[i..i + svg[i..].find('>').unwrap()])
        .collect()
}
