//! A `<canvas>` that draws a chart with `runlens-charts` whenever the chart changes.

use crate::components::text_measure::MeasuringCanvas;
use leptos::{html::Canvas, prelude::*};
use plotters::prelude::IntoDrawingArea;
pub use runlens_charts::AnyChart;
use runlens_charts::{AnyLayout, draw_any};

/// Draws `chart` on a canvas of `width` × `height` pixels (narrower when its container is:
/// a 390 px screen gets a chart drawn for its width, titles wrapped, not a shrunken 720 px
/// picture; redrawn when the window is resized), with an optional caption under
/// the plot (so PNG exports carry it); shows an inline message if the canvas cannot be drawn
/// on. The canvas is an image whose text alternative is the chart's title and numbers
/// (`AnyChart::text_alternative`) and the caption.
#[component]
pub fn ChartCanvas(
    /// The chart to draw; redrawn whenever it changes.
    #[prop(into)]
    chart: Signal<AnyChart>,
    /// Canvas width in pixels, at most (the container's width when it is narrower).
    #[prop(default = 720)]
    width: u32,
    /// Canvas height in pixels (may change with the data, e.g. one bar per model).
    #[prop(into, default = Signal::stored(420))]
    height: Signal<u32>,
    /// `id` of the canvas element.
    #[prop(into)]
    id: String,
    /// Caption drawn under the plot (e.g. bundle hash and view settings); none when empty.
    #[prop(optional, into)]
    caption: Signal<String>,
    /// Called with the drawn chart's pixel geometry after every draw (hover read-outs and
    /// hit-testing: `CurveLayout::k_at`, `ProbabilityLayout::bar_at`, …).
    #[prop(optional)]
    on_layout: Option<Callback<AnyLayout>>,
) -> impl IntoView {
    let canvas = NodeRef::<Canvas>::new();
    let (failure, set_failure) = signal(None::<String>);
    let resized = RwSignal::new(0u32);
    let handle = window_event_listener(leptos::ev::resize, move |_| {
        resized.try_update(|n| *n = n.wrapping_add(1));
    });
    on_cleanup(move || handle.remove());
    Effect::new(move |_| {
        resized.track();
        let chart = chart.get();
        let h = height.get();
        let caption = caption.get();
        let Some(el) = canvas.get() else { return };
        // Resizing clears the canvas, so it happens here, before drawing.
        let w = fit_width(&el, width);
        if el.width() != w {
            el.set_width(w);
        }
        if el.height() != h {
            el.set_height(h);
        }
        let outcome = MeasuringCanvas::new(el)
            .ok_or_else(|| "this browser gave no 2D drawing context".to_owned())
            .and_then(|backend| {
                let root = backend.into_drawing_area();
                let layout = draw_any(&root, &chart, &caption).map_err(|e| e.to_string())?;
                root.present().map_err(|e| e.to_string())?;
                Ok(layout)
            });
        match outcome {
            Ok(layout) => {
                set_failure.set(None);
                if let Some(cb) = on_layout {
                    cb.run(layout);
                }
            }
            Err(e) => set_failure.set(Some(e)),
        }
    });
    let alt = move || {
        let text = chart.with(AnyChart::text_alternative);
        let caption = caption.get();
        if caption.is_empty() {
            text
        } else {
            format!("{text} ({caption})")
        }
    };
    view! {
        <canvas id=id node_ref=canvas width=width height=height.get_untracked() class="chart"
            role="img" aria-label=alt></canvas>
        <Show when=move || failure.get().is_some()>
            <p class="chart-error">"The chart could not be drawn: " {move || failure.get()}</p>
        </Show>
    }
}

/// The width to draw `canvas` at: its container's inner width less the canvas's 1 px
/// borders, at most `max`, at least 240 px; `max` while the container has no width yet.
fn fit_width(canvas: &web_sys::HtmlCanvasElement, max: u32) -> u32 {
    let room = canvas
        .parent_element()
        .map(|p| p.client_width())
        .filter(|w| *w > 0)
        .map_or(max, |w| u32::try_from(w - 2).unwrap_or(0));
    room.clamp(240.min(max), max)
}
