//! Readying fonts while the page waits for a bundle. A browser sets up a font (and the
//! fallback fonts of characters it lacks) the first time text is laid out or drawn in it:
//! a long task per font in Chromium, measured in docs/performance.md. Without this, that cost
//! lands in the tasks that show the first view after loading; with it, in idle time before.

use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, Document, HtmlCanvasElement, HtmlElement};

use crate::yield_now::yield_now;

/// Letters, digits and the punctuation of labels, numbers and notices (the last ones are
/// outside Latin-1 and may come from a fallback font).
const SAMPLE: &str =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZ abcdefghijklmnopqrstuvwxyz 0123456789 .,:;%+-_/()[]<>=*#@ –…·×≥→★";

/// Every element style of the first views whose font differs (weight, size, family,
/// numeral style), with the app's own classes: laid out once, off screen, then removed.
const PAGE_SAMPLER: &str = r#"<h1>S</h1><h2>S</h2><h3>S</h3><p class="lede">S</p>
<button class="tab" aria-selected="true">S</button><button class="tab">S</button>
<p class="notice">S</p><p class="hint">S</p><span class="badge">S</span><code>S</code>
<dl class="headline"><dt>S</dt><dd>S</dd></dl>
<table class="board"><thead><tr><th><button class="sort">S</button></th></tr></thead>
<tbody><tr><td>S</td><td class="num">S</td></tr></tbody></table>
<div class="controls"><output>S</output></div><p class="load-phase">S</p>"#;

/// Readies the page's fonts, then the charts' fonts one per task (each is slow the first
/// time, so together they would be a long task). Returns how many chart fonts the
/// canvas accepted (it ignores a malformed font string).
pub async fn warm_fonts() -> usize {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return 0;
    };
    warm_page_fonts(&document);
    let Some(context) = chart_context(&document) else {
        return 0;
    };
    let mut accepted = 0;
    for &(family, size) in runlens_charts::FONTS {
        yield_now().await;
        accepted += usize::from(warm_chart_font(&context, family, size));
    }
    accepted
}

/// A detached canvas's 2D context.
fn chart_context(document: &Document) -> Option<CanvasRenderingContext2d> {
    document
        .create_element("canvas")
        .ok()
        .and_then(|c| c.dyn_into::<HtmlCanvasElement>().ok())
        .and_then(|c| c.get_context("2d").ok().flatten())
        .and_then(|c| c.dyn_into::<CanvasRenderingContext2d>().ok())
}

/// Draws [`SAMPLE`] in one font of [`runlens_charts::FONTS`]; whether the canvas accepted
/// the font string.
fn warm_chart_font(context: &CanvasRenderingContext2d, family: &str, size: u32) -> bool {
    // The font string plotters-canvas sets for a text style.
    context.set_font(&format!("normal {size}px {family}"));
    let accepted = context.font() == format!("{size}px {family}");
    let _ = context.fill_text(SAMPLE, 0.0, f64::from(size));
    accepted
}

/// Lays out [`PAGE_SAMPLER`] (every "S" replaced by [`SAMPLE`]) off screen and removes it.
pub fn warm_page_fonts(document: &Document) {
    let (Some(body), Ok(host)) = (document.body(), document.create_element("div")) else {
        return;
    };
    let _ = host.set_attribute("class", "font-warm");
    let _ = host.set_attribute("aria-hidden", "true");
    host.set_inner_html(&PAGE_SAMPLER.replace(">S<", &format!(">{SAMPLE}<")));
    if body.append_child(&host).is_ok() {
        if let Some(el) = host.dyn_ref::<HtmlElement>() {
            // Reading a size forces the layout (and the fonts) now.
            let _ = el.offset_height();
        }
        host.remove();
    }
}
