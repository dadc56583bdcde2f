//! A `<canvas>` that draws a chart with `runlens-charts` whenever the chart changes.

use crate::components::text_measure::MeasuringCanvas;
use crate::yield_now::yield_now;
use leptos::task::spawn_local;
use leptos::{html::Canvas, prelude::*};
use plotters::prelude::IntoDrawingArea;
pub use runlens_charts::AnyChart;
use runlens_charts::{AnyLayout, draw_any};

/// Draws `chart` on a canvas of `width` × `height` pixels (narrower when its container is:
/// a 390 px screen gets a chart drawn for its width, titles wrapped, not a shrunken 720 px
/// picture; redrawn when the window is resized), with an optional caption under
/// the plot (so PNG exports carry it); shows an inline message if the canvas cannot be drawn
/// on. The canvas is an image whose text alternative is the chart's title and numbers
/// (`AnyChart::text_alternative`) and the caption. Hovering a mark shows its label and value
/// beside the pointer (`AnyChart::read_out`).
#[component]
pub fn ChartCanvas(
    /// The chart to draw; redrawn whenever it changes.
    #[prop(into)]
    chart: Signal<AnyChart>,
    /// Chart width in CSS pixels, at most (the container's width when it is narrower).
    #[prop(default = 1600)]
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
    // The last draw's layout, for the hover read-out.
    let drawn = StoredValue::new(None::<AnyLayout>);
    // The read-out under the pointer: its words and where the pointer is (CSS px in the box).
    let tip = RwSignal::new(None::<(String, i32, i32)>);
    let resized = RwSignal::new(0u32);
    let handle = window_event_listener(leptos::ev::resize, move |_| {
        resized.try_update(|n| *n = n.wrapping_add(1));
    });
    on_cleanup(move || handle.remove());
    // A canvas keeps its pixels until the browser collects the element, long after its view
    // is gone (the charts of every view visited were held: docs/performance.md, "Charts let
    // go of their pixels"): emptied when the chart leaves the page. (Cleanups run before the
    // owner's node references are dropped.)
    on_cleanup(move || {
        if let Some(Some(el)) = canvas.try_get_untracked() {
            el.set_width(0);
            el.set_height(0);
        }
    });
    // Each draw runs in a task of its own, after the view that holds the chart is built and
    // laid out (a chart's draw and a table's render in one task made the longest tasks of
    // the views: docs/performance.md). Only the latest request is drawn.
    let generation = StoredValue::new(0u64);
    Effect::new(move |_| {
        resized.track();
        let chart = chart.get();
        let h = height.get();
        let caption = caption.get();
        let mine = generation.get_value() + 1;
        generation.set_value(mine);
        spawn_local(async move {
            yield_now().await;
            if generation.try_get_value() != Some(mine) {
                return;
            }
            let Some(Some(el)) = canvas.try_get_untracked() else {
                return;
            };
            match draw(&el, width, h, &chart, &caption) {
                Ok(layout) => {
                    set_failure.try_set(None);
                    drawn.try_set_value(Some(layout.clone()));
                    if let Some(cb) = on_layout {
                        cb.run(layout);
                    }
                }
                Err(e) => {
                    set_failure.try_set(Some(e));
                }
            }
        });
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
    let hover = move |ev: web_sys::MouseEvent| {
        let Some(el) = canvas.get_untracked() else {
            return;
        };
        let (cx, cy) = (ev.offset_x(), ev.offset_y());
        let (x, y) = layout_point(&el, cx, cy);
        let words = drawn.with_value(|l| {
            l.as_ref()
                .and_then(|l| chart.with_untracked(|c| c.read_out(l, x, y)))
        });
        tip.set(words.map(|w| (w, cx, cy)));
    };
    let tip_view = move || {
        tip.get().map(|(words, x, y)| {
            // On the side of the pointer with more room, never wider than that room, so it
            // stays inside the chart (and the page) on a narrow screen.
            let width = canvas.get_untracked().map_or(0, |el| el.client_width());
            let side = if x > width / 2 {
                format!(
                    "right:{}px;max-width:{}px",
                    width - x + 12,
                    (x - 16).max(80)
                )
            } else {
                format!("left:{}px;max-width:{}px", x + 12, (width - x - 16).max(80))
            };
            view! {
                <div class="chart-tip" data-testid="chart-tip" aria-hidden="true"
                    style=format!("{side};top:{y}px")>{words}</div>
            }
        })
    };
    view! {
        <div class="chart-box" on:mousemove=hover on:mouseleave=move |_| tip.set(None)>
            <canvas id=id node_ref=canvas width=width height=height.get_untracked() class="chart"
                role="img" aria-label=alt></canvas>
            {tip_view}
        </div>
        <Show when=move || failure.get().is_some()>
            <p class="chart-error">"The chart could not be drawn: " {move || failure.get()}</p>
        </Show>
    }
}

/// Sizes `el` for `chart` (its container's width, at most `width`; `height` CSS pixels; the
/// screen's pixel density) and draws it; returns the layout.
fn draw(
    el: &web_sys::HtmlCanvasElement,
    width: u32,
    height: u32,
    chart: &AnyChart,
    caption: &str,
) -> Result<AnyLayout, String> {
    // Resizing clears the canvas, so it happens here, before drawing. The chart is laid out
    // for `w` × `h` CSS pixels and drawn at the screen's pixel density.
    let w = fit_width(el, width);
    let s = device_scale();
    if el.width() != w * s {
        el.set_width(w * s);
    }
    if el.height() != height * s {
        el.set_height(height * s);
    }
    let _ = el.set_attribute("data-dpr", &s.to_string());
    let _ = web_sys::HtmlElement::style(el).set_property("width", &format!("{w}px"));
    draw_scaled(el, s, chart, caption)
}

/// `chart` with `caption` drawn on `canvas` (already sized) at `scale` canvas pixels per CSS
/// pixel; its layout in CSS pixels.
fn draw_scaled(
    canvas: &web_sys::HtmlCanvasElement,
    scale: u32,
    chart: &AnyChart,
    caption: &str,
) -> Result<AnyLayout, String> {
    let backend = MeasuringCanvas::scaled(canvas.clone(), scale)
        .ok_or_else(|| "this browser gave no 2D drawing context".to_owned())?;
    let root = backend.into_drawing_area();
    let layout = draw_any(&root, chart, caption).map_err(|e| e.to_string())?;
    root.present().map_err(|e| e.to_string())?;
    Ok(layout)
}

/// `chart` with `caption` drawn on a new canvas laid out for `size` (CSS pixels) at `scale`
/// canvas pixels per CSS pixel, with its layout (in CSS pixels): the PNG export draws at 2×,
/// so a shared figure is sharp on a high-density screen and in print.
pub fn render_scaled(
    chart: &AnyChart,
    caption: &str,
    size: (u32, u32),
    scale: u32,
) -> Result<(web_sys::HtmlCanvasElement, AnyLayout), String> {
    use wasm_bindgen::JsCast;
    let canvas: web_sys::HtmlCanvasElement = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.create_element("canvas").ok())
        .and_then(|e| e.dyn_into().ok())
        .ok_or("this browser made no canvas")?;
    canvas.set_width(size.0 * scale.max(1));
    canvas.set_height(size.1 * scale.max(1));
    let layout = draw_scaled(&canvas, scale, chart, caption)?;
    Ok((canvas, layout))
}

/// Canvas pixels per CSS pixel for a chart drawn now: the screen's pixel density, rounded,
/// 1 to 3 (a 2× screen gets a sharp chart, not an upscaled one).
fn device_scale() -> u32 {
    let dpr = web_sys::window().map_or(1.0, |w| w.device_pixel_ratio());
    (dpr.round().clamp(1.0, 3.0)) as u32
}

/// The canvas pixels per CSS pixel `canvas` was drawn at by [`ChartCanvas`] (1 for others).
pub fn drawn_scale(canvas: &web_sys::HtmlCanvasElement) -> u32 {
    canvas
        .get_attribute("data-dpr")
        .and_then(|s| s.parse().ok())
        .unwrap_or(1u32)
        .max(1)
}

/// A pointer position in CSS pixels within `canvas` (`offset_x`, `offset_y`) in the drawn
/// chart's layout units (the layout is in CSS pixels of the size it was drawn for, which
/// differs from the shown size when the canvas is scaled down by `max-width`).
pub fn layout_point(canvas: &web_sys::HtmlCanvasElement, x: i32, y: i32) -> (i32, i32) {
    let s = f64::from(drawn_scale(canvas));
    let scale = |px: u32, css: i32| f64::from(px) / s / f64::from(css.max(1));
    (
        (f64::from(x) * scale(canvas.width(), canvas.client_width())).round() as i32,
        (f64::from(y) * scale(canvas.height(), canvas.client_height())).round() as i32,
    )
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
