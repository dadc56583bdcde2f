//! Handing the main thread back to the browser between slices of heavy work.

/// Lets the browser paint and handle input (a zero-delay timeout) before going on.
pub async fn yield_now() {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        if let Some(w) = web_sys::window() {
            let _ = w.set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, 0);
        }
    });
    let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
}
