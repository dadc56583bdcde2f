//! A `<canvas>` that draws a [`CurveChart`] with `runlens-charts` whenever the chart changes.

use leptos::{html::Canvas, prelude::*};
use plotters::prelude::IntoDrawingArea;
use plotters_canvas::CanvasBackend;
use runlens_charts::{CurveChart, draw_curves};

/// Draws `chart` on a canvas of `width` × `height` pixels; shows an inline message if the
/// canvas cannot be drawn on.
#[component]
pub fn CurveCanvas(
    /// The chart to draw; redrawn whenever it changes.
    #[prop(into)]
    chart: Signal<CurveChart>,
    /// Canvas width in pixels.
    #[prop(default = 720)]
    width: u32,
    /// Canvas height in pixels.
    #[prop(default = 420)]
    height: u32,
    /// `id` of the canvas element.
    #[prop(into)]
    id: String,
) -> impl IntoView {
    let canvas = NodeRef::<Canvas>::new();
    let (failure, set_failure) = signal(None::<String>);
    Effect::new(move |_| {
        let chart = chart.get();
        let Some(el) = canvas.get() else { return };
        let outcome = CanvasBackend::with_canvas_object(el)
            .ok_or_else(|| "this browser gave no 2D drawing context".to_owned())
            .and_then(|backend| {
                let root = backend.into_drawing_area();
                draw_curves(&root, &chart).map_err(|e| e.to_string())?;
                root.present().map_err(|e| e.to_string())
            });
        set_failure.set(outcome.err());
    });
    view! {
        <canvas id=id node_ref=canvas width=width height=height class="chart"></canvas>
        <Show when=move || failure.get().is_some()>
            <p class="chart-error">"The chart could not be drawn: " {move || failure.get()}</p>
        </Show>
    }
}
