//! Adopting the loader worker that `assets/prestart.js` starts while the app's own module is
//! still downloading (only when the page was opened with `?bundle=`): the worker's start-up
//! (fetching and compiling its module) then overlaps the page's, instead of following it.

use js_sys::{Array, Function, Reflect};
use wasm_bindgen::{JsCast, JsValue};
use web_sys::Worker;

/// The `window` property `prestart.js` leaves `{ worker, early, stop }` in.
const SLOT: &str = "__runlensLoader";

/// A worker started before the app, and the events it sent before the app listened.
pub struct Prestarted {
    /// The loader worker.
    pub worker: Worker,
    /// `message` and `error` events received so far, in order (usually just `Ready`).
    pub early: Vec<JsValue>,
}

/// Takes the prestarted worker, if there is one (once: later loads start their own).
pub fn take() -> Option<Prestarted> {
    let window = JsValue::from(web_sys::window()?);
    let slot = Reflect::get(&window, &SLOT.into()).ok()?;
    if slot.is_undefined() || slot.is_null() {
        return None;
    }
    let _ = Reflect::delete_property(window.unchecked_ref::<js_sys::Object>(), &SLOT.into());
    let worker = Reflect::get(&slot, &"worker".into()).ok()?;
    if !worker.is_object() {
        return None;
    }
    // Not `dyn_into`: a page script that wraps `window.Worker` (profilers, test harnesses)
    // breaks `instanceof Worker` for real workers.
    let worker: Worker = worker.unchecked_into();
    // Stop buffering; the caller installs its own handlers in the same task, so no event
    // falls between the two.
    if let Some(stop) = Reflect::get(&slot, &"stop".into())
        .ok()
        .and_then(|f| f.dyn_into::<Function>().ok())
    {
        let _ = stop.call0(&slot);
    }
    let early = Reflect::get(&slot, &"early".into())
        .ok()
        .and_then(|a| a.dyn_into::<Array>().ok())
        .map(|a| a.iter().collect())
        .unwrap_or_default();
    Some(Prestarted { worker, early })
}
