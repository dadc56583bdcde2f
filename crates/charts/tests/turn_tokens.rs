//! The per-call token chart drawn to SVG: one stacked column per call, input below output,
//! heights proportional to tokens, zero parts not drawn, call numbers under the columns.

mod common;

use common::{attr, elements, svg_of};
use runlens_charts::{
    AnyChart, Theme, TurnTokens, TurnTokensChart, TurnTokensLayout, draw_turn_tokens, render_svg,
};

fn chart(turns: &[(u64, u64)]) -> TurnTokensChart {
    TurnTokensChart {
        title: "tokens per call".into(),
        turns: turns
            .iter()
            .map(|&(input, output)| TurnTokens { input, output })
            .collect(),
        theme: Theme::LIGHT,
    }
}

fn render(c: &TurnTokensChart) -> (String, TurnTokensLayout) {
    svg_of((600, 260), |root| draw_turn_tokens(root, c).unwrap())
}

/// `(x, y, height)` of the rectangles filled with `fill`, left to right, legend excluded
/// (the legend swatches are 10 px wide at the top right).
fn rects(svg: &str, fill: &str) -> Vec<(i32, i32, i32)> {
    let mut out: Vec<(i32, i32, i32)> = elements(svg, "rect")
        .into_iter()
        .filter(|r| r.contains(fill) && attr(r, "width") > 11)
        .map(|r| (attr(r, "x"), attr(r, "y"), attr(r, "height")))
        .collect();
    out.sort();
    out
}

#[test]
fn stacked_columns_follow_the_tokens() {
    // Totals 150, 300, 300: the axis top is 330 tokens.
    let (svg, layout) = render(&chart(&[(100, 50), (300, 0), (200, 100)]));
    let input = rects(&svg, "#56B4E9");
    let output = rects(&svg, "#E69F00");
    assert_eq!(input.len(), 3, "{input:?}");
    // The second call has no output tokens: no rectangle.
    assert_eq!(output.len(), 2, "{output:?}");
    let (zero, top) = layout.y_px;
    let px_per_token = f64::from(zero - top) / 330.0;
    for (r, tokens) in input.iter().zip([100.0, 300.0, 200.0]) {
        assert!(
            (f64::from(r.2) - tokens * px_per_token).abs() <= 1.0,
            "{r:?}"
        );
        // Input parts stand on the axis.
        assert!((r.1 + r.2 - zero).abs() <= 1, "{r:?} vs {zero}");
    }
    for (r, tokens) in output.iter().zip([50.0, 100.0]) {
        assert!(
            (f64::from(r.2) - tokens * px_per_token).abs() <= 1.0,
            "{r:?}"
        );
    }
    // Output sits on its call's input part (same x, touching).
    assert_eq!(output[0].0, input[0].0);
    assert!((output[0].1 + output[0].2 - input[0].1).abs() <= 1);
    assert_eq!(output[1].0, input[2].0);
    assert_eq!(layout.columns_px.len(), 3);
    for label in ["\n1\n", "\n2\n", "\n3\n", "\ninput\n", "\noutput\n"] {
        assert!(svg.contains(label), "{label:?} missing");
    }
}

#[test]
fn per_turn_entries_sum_prompt_and_cache_and_keep_reasoning_inside_output() {
    // [prompt, completion, reasoning, cache_read, cache_write]
    let t = TurnTokens::from_per_turn([4615, 958, 556, 100, 7]);
    assert_eq!(
        t,
        TurnTokens {
            input: 4615 + 100 + 7,
            output: 958
        }
    );
}

#[test]
fn empty_chart_renders_through_any_chart() {
    let svg = render_svg(&AnyChart::TurnTokens(chart(&[])), "cap <x>", 400, 200).unwrap();
    assert!(svg.contains("tokens per call"));
    assert!(svg.contains("cap &lt;x&gt;"));
    assert!(rects(&svg, "#56B4E9").is_empty());
}
