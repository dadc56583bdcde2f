//! The page's or the worker's clock.

use wasm_bindgen::JsCast;

/// `performance.now()` of the page or the worker (0 where there is none).
pub fn now_ms() -> f64 {
    js_sys::Reflect::get(&js_sys::global(), &"performance".into())
        .ok()
        .and_then(|p| p.dyn_into::<web_sys::Performance>().ok())
        .map_or(0.0, |p| p.now())
}
