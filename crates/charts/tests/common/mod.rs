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
