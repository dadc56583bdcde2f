//! A `<canvas>` that draws a chart with `runlens-charts` whenever the chart changes.

use leptos::{html::Canvas, prelude::*};
use plotters::prelude::IntoDrawingArea;
use plotters_canvas::CanvasBackend;
use runlens_charts::{CiBarChart, CurveChart, draw_ci_bars, draw_curves};

/// Any chart the dashboard draws.
#[derive(Debug, Clone, PartialEq)]
pub enum AnyChart {
    /// Metric-versus-k lines.
    Curves(CurveChart),
    /// Bars with interval whiskers.
    CiBars(CiBarChart),
}

/// Draws `chart` on a canvas of `width` × `height` pixels; shows an inline message if the
/// canvas cannot be drawn on.
#[component]
pub fn ChartCanvas(
    /// The chart to draw; redrawn whenever it changes.
    #[prop(into)]
    chart: Signal<AnyChart>,
    /// Canvas width in pixels.
    #[prop(default = 720)]
    width: u32,
    /// Canvas height in pixels (may change with the data, e.g. one bar per model).
    #[prop(into, default = Signal::stored(420))]
    height: Signal<u32>,
    /// `id` of the canvas element.
    #[prop(into)]
    id: String,
) -> impl IntoView {
    let canvas = NodeRef::<Canvas>::new();
    let (failure, set_failure) = signal(None::<String>);
    Effect::new(move |_| {
        let chart = chart.get();
        let h = height.get();
        let Some(el) = canvas.get() else { return };
        // Resizing clears the canvas, so it happens here, before drawing.
        if el.height() != h {
            el.set_height(h);
        }
        let outcome = CanvasBackend::with_canvas_object(el)
            .ok_or_else(|| "this browser gave no 2D drawing context".to_owned())
            .and_then(|backend| {
                let root = backend.into_drawing_area();
                match &chart {
                    AnyChart::Curves(c) => draw_curves(&root, c).map(drop),
                    AnyChart::CiBars(c) => draw_ci_bars(&root, c).map(drop),
                }
                .map_err(|e| e.to_string())?;
                root.present().map_err(|e| e.to_string())
            });
        set_failure.set(outcome.err());
    });
    view! {
        <canvas id=id node_ref=canvas width=width height=height.get_untracked() class="chart"></canvas>
        <Show when=move || failure.get().is_some()>
            <p class="chart-error">"The chart could not be drawn: " {move || failure.get()}</p>
        </Show>
    }
}
