//! The per-question P(yes) chart drawn to SVG: bar order and lengths, value labels,
//! threshold line and label, gold marking by colour and by text, safe title truncation.

mod common;

use common::{attr, elements, svg_of};
use runlens_charts::{
    ProbabilityBar, ProbabilityChart, ProbabilityLayout, Theme, draw_probability_bars,
};

fn bar(table: &str, p: f64, is_gold: bool) -> ProbabilityBar {
    ProbabilityBar {
        table: table.into(),
        p,
        is_gold,
    }
}

fn chart(title: &str, bars: Vec<ProbabilityBar>) -> ProbabilityChart {
    ProbabilityChart {
        title: title.into(),
        bars,
        threshold: 0.5,
        theme: Theme::LIGHT,
        label_width: 200,
    }
}

fn render(c: &ProbabilityChart) -> (String, ProbabilityLayout) {
    svg_of((720, 360), |root| draw_probability_bars(root, c).unwrap())
}

/// `(y, width, fill)` of the bar rectangles (gold or grey fill), top to bottom.
fn bars(svg: &str) -> Vec<(i32, i32, &str)> {
    let mut out: Vec<(i32, i32, &str)> = elements(svg, "rect")
        .into_iter()
        .filter_map(|r| {
            let fill = ["#D55E00", "#999999"].into_iter().find(|f| r.contains(f))?;
            Some((attr(r, "y"), attr(r, "width"), fill))
        })
        .collect();
    out.sort();
    out
}

fn published() -> ProbabilityChart {
    chart(
        "MRR by month?",
        vec![
            bar("crm.dim_account", 0.62, false),
            bar("marts.usage_daily", 0.97, true),
            bar("crm.fct_support_case", 0.27, true),
        ],
    )
}

#[test]
fn bars_sorted_by_p_with_exact_lengths_and_gold_colour() {
    let (svg, layout) = render(&published());
    let b = bars(&svg);
    let full = f64::from(layout.x_px.1 - layout.x_px.0);
    let expected = [(0.97, "#D55E00"), (0.62, "#999999"), (0.27, "#D55E00")];
    assert_eq!(b.len(), 3);
    for ((_, width, fill), (p, colour)) in b.iter().zip(expected) {
        assert!(
            (width - (p * full).round() as i32).abs() <= 1,
            "{b:?} {full}"
        );
        assert_eq!(*fill, colour);
    }
    assert_eq!(layout.order, vec![1, 0, 2]);
    let (top, bottom) = layout.rows_px[1];
    assert_eq!(layout.bar_at((top + bottom) / 2), Some(0));
    assert_eq!(layout.bar_at(0), None);
}

#[test]
fn labels_values_and_gold_marker_are_text() {
    let (svg, _) = render(&published());
    for needle in ["0.97", "0.62", "0.27", "t = 0.5", "★ gold", "MRR by month?"] {
        assert!(svg.contains(needle), "{needle} missing");
    }
    let at = |s: &str| {
        svg.find(&format!("\n{s}\n"))
            .unwrap_or_else(|| panic!("{s}"))
    };
    // Rows top to bottom by P; gold names carry the star, others do not.
    assert!(at("★ marts.usage_daily") < at("crm.dim_account"));
    assert!(at("crm.dim_account") < at("★ crm.fct_support_case"));
    assert!(!svg.contains("★ crm.dim_account"));
}

#[test]
fn threshold_is_a_dashed_line_at_t() {
    let mut c = published();
    c.threshold = 0.65;
    let (svg, layout) = render(&c);
    let full = f64::from(layout.x_px.1 - layout.x_px.0);
    let expected = layout.x_px.0 + (0.65 * full).round() as i32;
    assert!((layout.threshold_px - expected).abs() <= 1);
    let x = layout.threshold_px;
    let dashes = svg.matches(&format!("points=\"{x},")).count();
    assert!(dashes >= 10, "{dashes} dashes at x = {x}");
    assert!(svg.contains("t = 0.65") && !svg.contains("t = 0.5\n"));
}

#[test]
fn long_multibyte_titles_are_truncated_wrapped_and_escaped() {
    let title = format!("<b>{}</b>", "é★".repeat(100));
    let (svg, _) = render(&chart(&title, vec![bar("a", 0.5, false)]));
    // "<b>" + 43 × "é★" = 89 characters, then "…": TITLE_CHARS = 90 in all, in lines that
    // fit the chart's width (one word: cut between characters), drawn first.
    let texts: Vec<&str> = svg
        .split("</text>")
        .filter_map(|t| t.rsplit_once('>').map(|(_, text)| text.trim_matches('\n')))
        .collect();
    let last = texts
        .iter()
        .position(|t| t.ends_with('…'))
        .expect("a cut title");
    assert!(last >= 1, "{texts:?}");
    let expected = format!("&lt;b&gt;{}…", "é★".repeat(43));
    assert_eq!(texts[..=last].concat(), expected);
    assert!(!svg.contains("<b>"));
}

#[test]
fn non_finite_and_out_of_range_p_are_clipped() {
    let (svg, layout) = render(&chart(
        "",
        vec![
            bar("nan", f64::NAN, false),
            bar("big", 1.5, true),
            bar("neg", -0.2, false),
        ],
    ));
    assert_eq!(layout.order, vec![1, 0, 2]);
    assert!(svg.contains("\n1.00\n") && svg.contains("\n0.00\n"));
    assert_eq!(bars(&svg)[0].1, layout.x_px.1 - layout.x_px.0);
}

#[test]
fn no_bars_draws_the_frame_and_threshold() {
    let (svg, layout) = render(&chart("empty", vec![]));
    assert!(bars(&svg).is_empty() && layout.rows_px.is_empty());
    assert!(svg.contains("t = 0.5"));
}

/// `(y, font size, dy)` of the SVG text element whose content is `content`.
fn text_at(svg: &str, content: &str) -> (f64, f64, String) {
    let end = svg
        .find(&format!(">\n{content}\n</text>"))
        .unwrap_or_else(|| panic!("no text {content}"));
    let start = svg[..end].rfind("<text").unwrap();
    let tag = &svg[start..end];
    let value = |name: &str| {
        tag.split(&format!(" {name}=\""))
            .nth(1)
            .and_then(|s| s.split('"').next())
            .unwrap_or("")
            .to_owned()
    };
    let number = |name: &str| value(name).parse::<f64>().unwrap();
    (number("y"), number("font-size"), value("dy"))
}

#[test]
fn the_threshold_label_sits_between_the_title_and_the_plot() {
    // #17, bug 10: "t = 0.5" was drawn over the title's lower half.
    let (svg, layout) = render(&published());
    let (title_y, title_size, title_dy) = text_at(&svg, "MRR by month?");
    let (t_y, t_size, t_dy) = text_at(&svg, "t = 0.5");
    // The title hangs from its y (dy 0.76em): its glyphs end at most one em below. The label
    // stands on its y raised by half an ex (dy -0.5ex, about a quarter em): its glyphs start
    // at most one em above that.
    assert_eq!((title_dy.as_str(), t_dy.as_str()), ("0.76em", "-0.5ex"));
    let title_bottom = title_y + title_size;
    let label_top = t_y - 0.25 * t_size - t_size;
    assert!(
        title_bottom <= label_top,
        "title ends at {title_bottom}, label starts at {label_top}"
    );
    // And the label stands above the plot's first row.
    assert!(
        t_y < f64::from(layout.rows_px[0].0),
        "{t_y} {:?}",
        layout.rows_px[0]
    );
}
