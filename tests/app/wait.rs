//! Waiting in the browser tests: for a timer, and for an element that comes with an answer.

use wasm_bindgen_futures::JsFuture;

/// Waits `ms` milliseconds (a timer task).
pub async fn sleep(ms: i32) {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        let _ = web_sys::window()
            .unwrap()
            .set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms);
    });
    let _ = JsFuture::from(promise).await;
}

/// Waits (at most 5 s) until `selector` is in `host` (a view's numbers are answers that come
/// after the mount's task).
pub async fn wait_for(host: &web_sys::HtmlElement, selector: &str) {
    for _ in 0..500 {
        if host.query_selector(selector).unwrap().is_some() {
            return;
        }
        sleep(10).await;
    }
    panic!("{selector} never appeared");
}
