//! Reading a view's in-page navigation (`PageNav`) in the wasm tests.

use wasm_bindgen::JsCast;

/// The navigation's buttons under `host`: each one's label and the `id` it scrolls to.
pub fn items(host: &web_sys::HtmlElement) -> Vec<(String, String)> {
    let items = host.query_selector_all(".page-nav-item").unwrap();
    (0..items.length())
        .filter_map(|i| items.item(i)?.dyn_into::<web_sys::Element>().ok())
        .map(|e| {
            (
                e.text_content().unwrap_or_default(),
                e.get_attribute("data-target").unwrap_or_default(),
            )
        })
        .collect()
}

/// The buttons' labels, after checking that each names an element under `host`.
pub fn labels_of_shown_sections(host: &web_sys::HtmlElement) -> Vec<String> {
    items(host)
        .into_iter()
        .map(|(label, target)| {
            assert!(
                host.query_selector(&format!("#{target}"))
                    .unwrap()
                    .is_some(),
                "{target}"
            );
            label
        })
        .collect()
}

/// Clicks the button for section `target` and returns the `id` of the element that has the
/// keyboard focus then.
pub fn click_and_focused(host: &web_sys::HtmlElement, target: &str) -> String {
    let button: web_sys::HtmlElement = host
        .query_selector(&format!(".page-nav-item[data-target='{target}']"))
        .unwrap()
        .unwrap()
        .unchecked_into();
    button.click();
    web_sys::window()
        .unwrap()
        .document()
        .unwrap()
        .active_element()
        .map(|e| e.id())
        .unwrap_or_default()
}
