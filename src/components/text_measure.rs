//! A canvas backend that measures text with the canvas's own `measureText` instead of
//! plotters' default for the web (a `<span>` appended to `<body>` and read back with
//! `offsetHeight`, which forces a layout of the whole page for every label: most of the
//! ranking view's first draw, as profiled in docs/performance.md).
//! Drawing is delegated unchanged to [`CanvasBackend`].

use plotters::prelude::DrawingBackend;
use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingErrorKind,
};
use plotters_canvas::CanvasBackend;
use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};

/// The canvas backend's error type (not exported by plotters-canvas by name).
type CanvasError = <CanvasBackend as DrawingBackend>::ErrorType;

/// [`CanvasBackend`] with text measured by `CanvasRenderingContext2d::measureText`.
pub struct MeasuringCanvas {
    inner: CanvasBackend,
    context: CanvasRenderingContext2d,
    /// Canvas pixels per drawing unit: 1 on screen, 2 for a sharp PNG export.
    scale: u32,
}

impl MeasuringCanvas {
    /// The backend for `canvas`, or `None` when the browser gives no 2D context.
    pub fn new(canvas: HtmlCanvasElement) -> Option<MeasuringCanvas> {
        let context = canvas
            .get_context("2d")
            .ok()
            .flatten()?
            .dyn_into::<CanvasRenderingContext2d>()
            .ok()?;
        let inner = CanvasBackend::with_canvas_object(canvas)?;
        Some(MeasuringCanvas {
            inner,
            context,
            scale: 1,
        })
    }

    /// The backend for `canvas` drawing at `scale` canvas pixels per unit: the chart is laid
    /// out for the canvas's size divided by `scale` and every mark and letter drawn `scale`
    /// times as sharp (the context is scaled, nothing is resampled).
    pub fn scaled(canvas: HtmlCanvasElement, scale: u32) -> Option<MeasuringCanvas> {
        let mut backend = MeasuringCanvas::new(canvas)?;
        let scale = scale.max(1);
        backend
            .context
            .scale(f64::from(scale), f64::from(scale))
            .ok()?;
        backend.scale = scale;
        Some(backend)
    }
}

/// Width and height in pixels of `text` in `font` (CSS shorthand): the advance width rounded
/// up, and the font's ascent + descent (what a `line-height: normal` box is tall), or 1.2 ×
/// `size` where the browser reports no font box.
fn measure(context: &CanvasRenderingContext2d, font: &str, size: f64, text: &str) -> (u32, u32) {
    context.set_font(font);
    match context.measure_text(text) {
        Ok(m) => {
            let font_box = m.font_bounding_box_ascent() + m.font_bounding_box_descent();
            let height = if font_box.is_finite() && font_box > 0.0 {
                font_box
            } else {
                1.2 * size
            };
            (m.width().ceil().max(0.0) as u32, height.round() as u32)
        }
        Err(_) => (
            (0.6 * size * text.chars().count() as f64) as u32,
            (1.2 * size) as u32,
        ),
    }
}

impl DrawingBackend for MeasuringCanvas {
    type ErrorType = CanvasError;

    fn get_size(&self) -> (u32, u32) {
        let (w, h) = self.inner.get_size();
        (w / self.scale, h / self.scale)
    }

    fn ensure_prepared(&mut self) -> Result<(), DrawingErrorKind<CanvasError>> {
        self.inner.ensure_prepared()
    }

    fn present(&mut self) -> Result<(), DrawingErrorKind<CanvasError>> {
        self.inner.present()
    }

    fn draw_pixel(
        &mut self,
        point: BackendCoord,
        color: BackendColor,
    ) -> Result<(), DrawingErrorKind<CanvasError>> {
        self.inner.draw_pixel(point, color)
    }

    fn draw_line<S: BackendStyle>(
        &mut self,
        from: BackendCoord,
        to: BackendCoord,
        style: &S,
    ) -> Result<(), DrawingErrorKind<CanvasError>> {
        self.inner.draw_line(from, to, style)
    }

    fn draw_rect<S: BackendStyle>(
        &mut self,
        upper_left: BackendCoord,
        bottom_right: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<CanvasError>> {
        self.inner.draw_rect(upper_left, bottom_right, style, fill)
    }

    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Result<(), DrawingErrorKind<CanvasError>> {
        self.inner.draw_path(path, style)
    }

    fn draw_circle<S: BackendStyle>(
        &mut self,
        center: BackendCoord,
        radius: u32,
        style: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<CanvasError>> {
        self.inner.draw_circle(center, radius, style, fill)
    }

    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        style: &S,
    ) -> Result<(), DrawingErrorKind<CanvasError>> {
        self.inner.fill_polygon(vert, style)
    }

    fn draw_text<S: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &S,
        pos: BackendCoord,
    ) -> Result<(), DrawingErrorKind<CanvasError>> {
        self.inner.draw_text(text, style, pos)
    }

    fn estimate_text_size<S: BackendTextStyle>(
        &self,
        text: &str,
        style: &S,
    ) -> Result<(u32, u32), DrawingErrorKind<CanvasError>> {
        // The same font string CanvasBackend::draw_text sets.
        let font = format!(
            "{} {}px {}",
            style.style().as_str(),
            style.size(),
            style.family().as_str()
        );
        Ok(measure(&self.context, &font, style.size(), text))
    }

    fn blit_bitmap(
        &mut self,
        pos: BackendCoord,
        size: (u32, u32),
        src: &[u8],
    ) -> Result<(), DrawingErrorKind<CanvasError>> {
        self.inner.blit_bitmap(pos, size, src)
    }
}
