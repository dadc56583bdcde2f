//! What the page's single-key shortcuts share: a key typed into a field types, it does not act.

use wasm_bindgen::JsCast;

/// True when `ev` comes from a text field, a select or editable content (the key then types,
/// not acts) or carries Ctrl, Alt or Meta (the browser's and the system's shortcuts).
pub fn not_a_page_key(ev: &web_sys::KeyboardEvent) -> bool {
    ev.ctrl_key() || ev.meta_key() || ev.alt_key() || typing(ev)
}

/// True when `ev` comes from a text field, a select or editable content.
pub fn typing(ev: &web_sys::KeyboardEvent) -> bool {
    let Some(el) = ev
        .target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
    else {
        return false;
    };
    matches!(
        el.tag_name().to_ascii_lowercase().as_str(),
        "input" | "textarea" | "select"
    ) || el
        .dyn_ref::<web_sys::HtmlElement>()
        .is_some_and(|h| h.is_content_editable())
}

/// True while a modal dialog is open (the page behind it is inert; its own keys only).
pub fn modal_open() -> bool {
    web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.query_selector("dialog[open]").ok().flatten())
        .is_some()
}
