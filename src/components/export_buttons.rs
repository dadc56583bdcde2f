//! PNG / SVG / CSV export buttons for a chart or a table; every download goes through
//! [`crate::export`].

use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;

use leptos::prelude::*;
use leptos::task::spawn_local;
use runlens_charts::{AnyChart, SvgError};

use super::chart_canvas::{drawn_scale, render_scaled};
use crate::chunks::{split_call, split_point};
use crate::export::{
    ExportError, download_canvas_element_png, download_canvas_png, download_text, safe_filename,
};

/// Canvas pixels per CSS pixel of an exported PNG.
pub const PNG_SCALE: u32 = 2;

/// The size, in CSS pixels, `<canvas id=id>` is laid out for on the page.
fn shown_size(id: &str) -> Option<(u32, u32)> {
    use wasm_bindgen::JsCast;
    let canvas: web_sys::HtmlCanvasElement = web_sys::window()?
        .document()?
        .get_element_by_id(id)?
        .dyn_into()
        .ok()?;
    let s = drawn_scale(&canvas);
    Some((canvas.width() / s, canvas.height() / s))
}

split_point! {
    /// `chart` as SVG text with `caption`, `width` × `height` pixels
    /// (`runlens_charts::render_svg`: plotters' SVG backend), in the `svg` chunk: most
    /// readers never export one.
    svg: fn svg_of(chart: &AnyChart, caption: &str, width: u32, height: u32) -> Result<String, SvgError> {
        runlens_charts::render_svg(chart, caption, width, height)
    }
}

/// Produces CSV text later: the answer of the data's owner (the loader worker) for a list
/// the page does not hold, or why there is none.
#[derive(Clone)]
pub struct CsvLater(pub Rc<dyn Fn() -> CsvText>);

/// The CSV text when it comes, or why there is none.
pub type CsvText = Pin<Box<dyn Future<Output = Result<String, String>>>>;

/// Export buttons. Each button appears only when its source is given: PNG needs
/// `canvas_id`, SVG needs `chart`, CSV needs `csv`. With `chart`, the PNG is the chart drawn
/// again at [`PNG_SCALE`]× the size shown (sharp, the caption whole); without, the canvas's
/// pixels. A failure is shown as text under the buttons.
#[component]
pub fn ExportButtons(
    /// File name without extension (made safe by [`safe_filename`]), e.g. `ranking-dev`.
    #[prop(into)]
    base_name: Signal<String>,
    /// `id` of the chart's `<canvas>` (PNG button).
    #[prop(optional, into)]
    canvas_id: Option<String>,
    /// The chart drawn on that canvas (SVG button), rendered by `runlens_charts::render_svg`.
    #[prop(optional, into)]
    chart: Option<Signal<AnyChart>>,
    /// Caption under the exported SVG (bundle hash and view settings).
    #[prop(optional, into)]
    caption: Signal<String>,
    /// SVG size in pixels when there is no canvas to take it from (default 720 × 420).
    #[prop(default = (720, 420))]
    svg_size: (u32, u32),
    /// Produces the CSV text (CSV button), e.g. with `runlens_core::csv::to_csv`.
    #[prop(optional)]
    csv: Option<Callback<(), String>>,
    /// Produces the CSV text asynchronously (CSV button, instead of `csv`).
    #[prop(optional)]
    csv_later: Option<CsvLater>,
) -> impl IntoView {
    let (error, set_error) = signal(None::<String>);
    let report = move |r: Result<(), ExportError>| set_error.set(r.err().map(|e| e.to_string()));
    // The SVG is drawn for the size the chart is shown at, when it is on a canvas.
    let svg_canvas = canvas_id.clone();
    let png = canvas_id.map(|id| {
        let on_click = move |_| {
            let id = id.clone();
            let file = safe_filename(&base_name.get_untracked(), "png");
            let sharp = chart.map(|c| (c.get_untracked(), caption.get_untracked()));
            spawn_local(async move {
                let drawn = sharp.and_then(|(chart, caption)| {
                    let size = shown_size(&id)?;
                    Some(render_scaled(&chart, &caption, size, PNG_SCALE))
                });
                report(match drawn {
                    Some(Ok((canvas, _))) => download_canvas_element_png(&canvas, &file).await,
                    Some(Err(reason)) => Err(ExportError::Render { file, reason }),
                    None => download_canvas_png(&id, &file).await,
                })
            });
        };
        view! {
            <button type="button" class="export" aria-label="Download chart as PNG" on:click=on_click>
                "PNG"
            </button>
        }
    });
    let svg = chart.map(|chart| {
        let on_click = move |_| {
            let file = safe_filename(&base_name.get_untracked(), "svg");
            let (w, h) = svg_canvas.as_deref().and_then(shown_size).unwrap_or(svg_size);
            let (chart, caption) = (chart.get_untracked(), caption.get_untracked());
            spawn_local(async move {
                let drawn = match split_call!(svg_of(&chart, &caption, w, h)) {
                    Ok(drawn) => drawn.map_err(|e| e.to_string()),
                    Err(e) => Err(e.to_string()),
                };
                report(match drawn {
                    Ok(text) => download_text(&file, "image/svg+xml", &text),
                    Err(reason) => Err(ExportError::Render { file, reason }),
                });
            });
        };
        view! {
            <button type="button" class="export" aria-label="Download chart as SVG" on:click=on_click>
                "SVG"
            </button>
        }
    });
    let csv_button = csv.map(|produce| {
        let on_click = move |_| {
            let file = safe_filename(&base_name.get_untracked(), "csv");
            report(download_text(&file, "text/csv;charset=utf-8", &produce.run(())));
        };
        view! {
            <button type="button" class="export" aria-label="Download table as CSV" on:click=on_click>
                "CSV"
            </button>
        }
    });
    let csv_later_button = csv_later.map(|produce| {
        let on_click = move |_| {
            let file = safe_filename(&base_name.get_untracked(), "csv");
            let text = (produce.0)();
            spawn_local(async move {
                report(match text.await {
                    Ok(text) => download_text(&file, "text/csv;charset=utf-8", &text),
                    Err(reason) => Err(ExportError::Render { file, reason }),
                });
            });
        };
        view! {
            <button type="button" class="export" aria-label="Download table as CSV" on:click=on_click>
                "CSV"
            </button>
        }
    });
    view! {
        <div class="export-buttons" role="group" aria-label="Export">
            {png}
            {svg}
            {csv_button}
            {csv_later_button}
            <Show when=move || error.get().is_some()>
                <p class="export-error" role="alert">{move || error.get()}</p>
            </Show>
        </div>
    }
}
