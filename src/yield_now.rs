//! Handing the thread back to the event loop between slices of heavy work (the page: paint
//! and input; the loader worker: messages such as detail requests).

use js_sys::{Function, Promise, Reflect};
use wasm_bindgen::{JsCast, JsValue};

/// Lets the event loop run (a zero-delay `setTimeout`, in a window or a worker) before going on.
pub async fn yield_now() {
    let promise = Promise::new(&mut |resolve, _| {
        let global = js_sys::global();
        let set_timeout = Reflect::get(&global, &JsValue::from_str("setTimeout"))
            .ok()
            .and_then(|f| f.dyn_into::<Function>().ok());
        match set_timeout {
            Some(f) => {
                let _ = f.call2(&global, &resolve, &JsValue::from(0));
            }
            None => {
                let _ = resolve.call0(&JsValue::NULL);
            }
        }
    });
    let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
}

/// Waits until the browser is idle (`requestIdleCallback`, at most `timeout_ms` later): for
/// work that may help later but must not delay what the page is doing now (slices of a view
/// being built, input). Where there is no `requestIdleCallback` (workers, some browsers),
/// the same as [`yield_now`].
pub async fn yield_idle(timeout_ms: u32) {
    let global = js_sys::global();
    let idle = Reflect::get(&global, &JsValue::from_str("requestIdleCallback"))
        .ok()
        .and_then(|f| f.dyn_into::<Function>().ok());
    let Some(idle) = idle else {
        return yield_now().await;
    };
    let promise = Promise::new(&mut |resolve, _| {
        let options = js_sys::Object::new();
        let _ = Reflect::set(&options, &"timeout".into(), &JsValue::from(timeout_ms));
        let _ = idle.call2(&global, &resolve, &options);
    });
    let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
}
