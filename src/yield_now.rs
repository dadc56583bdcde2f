//! Handing the thread back to the event loop between slices of heavy work (the page: paint
//! and input; the loader worker: messages such as detail requests).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use js_sys::{Function, Promise, Reflect};
use wasm_bindgen::{JsCast, JsValue};

/// Lets the event loop run (a zero-delay `setTimeout`, in a window or a worker) before going on.
pub async fn yield_now() {
    let _ = wasm_bindgen_futures::JsFuture::from(timeout(0)).await;
}

/// A promise that resolves after `ms` (`setTimeout`, in a window or a worker; at once where
/// there is none).
pub fn timeout(ms: u32) -> Promise {
    Promise::new(&mut |resolve, _| {
        let global = js_sys::global();
        let set_timeout = Reflect::get(&global, &JsValue::from_str("setTimeout"))
            .ok()
            .and_then(|f| f.dyn_into::<Function>().ok());
        match set_timeout {
            Some(f) => {
                let _ = f.call2(&global, &resolve, &JsValue::from(ms));
            }
            None => {
                let _ = resolve.call0(&JsValue::NULL);
            }
        }
    })
}

/// A flag that turns true `tasks` tasks from now (each a [`yield_now`]): the part of a view
/// shown behind it renders in a task of its own, after the rest of the view.
pub fn ready_after_tasks(tasks: u32) -> leptos::prelude::ReadSignal<bool> {
    use leptos::prelude::{RwSignal, Set};
    let ready = RwSignal::new(false);
    leptos::task::spawn_local(async move {
        for _ in 0..tasks {
            yield_now().await;
        }
        ready.try_set(true);
    });
    ready.read_only()
}

/// Longest wait of [`yield_idle`] for an idle moment before the work runs anyway, ms.
const IDLE_WAIT_MS: u32 = 2_000;

/// A flag that turns false when the component being built is cleaned up: background work it
/// starts checks it between tasks and stops once the view has left.
pub fn mounted_flag() -> Arc<AtomicBool> {
    let alive = Arc::new(AtomicBool::new(true));
    leptos::prelude::on_cleanup({
        let alive = alive.clone();
        move || alive.store(false, Ordering::Relaxed)
    });
    alive
}

/// Waits until the browser is idle (`requestIdleCallback`, at most [`IDLE_WAIT_MS`] later):
/// for work that may help later but must not delay what the page is doing now (slices of a
/// view being built, input). Where there is no `requestIdleCallback` (workers, some
/// browsers), the same as [`yield_now`].
pub async fn yield_idle() {
    let global = js_sys::global();
    let idle = Reflect::get(&global, &JsValue::from_str("requestIdleCallback"))
        .ok()
        .and_then(|f| f.dyn_into::<Function>().ok());
    let Some(idle) = idle else {
        return yield_now().await;
    };
    let promise = Promise::new(&mut |resolve, _| {
        let options = js_sys::Object::new();
        let _ = Reflect::set(&options, &"timeout".into(), &JsValue::from(IDLE_WAIT_MS));
        let _ = idle.call2(&global, &resolve, &options);
    });
    let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
}
