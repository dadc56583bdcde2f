//! A panic in WebAssembly kills the page. runlens should never panic, but if it does the
//! reader sees a visible banner instead of a frozen page, and the console gets the details.

use wasm_bindgen::JsCast;

/// Installs `console_error_panic_hook` plus a hook that shows a banner with the message.
pub fn install() {
    std::panic::set_hook(Box::new(|info| {
        console_error_panic_hook::hook(info);
        show_banner(&info.to_string());
    }));
}

fn show_banner(message: &str) {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    let Ok(banner) = document.create_element("div") else {
        return;
    };
    banner.set_id("panic-banner");
    banner.set_attribute("role", "alert").ok();
    // Text only: the message may contain bundle text.
    banner.set_text_content(Some(&format!(
        "runlens hit an internal error and stopped. Reload the page to continue. Details: {message}"
    )));
    if let Some(body) = document.body() {
        body.prepend_with_node_1(banner.unchecked_ref()).ok();
    }
}
