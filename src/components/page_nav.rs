//! In-page navigation for a long view: a row of buttons, one per section, each scrolling its
//! section into view (no address change: the view's state stays what the URL says).

use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// One section of a view: the button's label and the element it scrolls to.
#[derive(Debug, Clone, PartialEq)]
pub struct NavItem {
    /// The button's text.
    pub label: &'static str,
    /// The `id` of the section's element.
    pub target: &'static str,
}

/// Scrolls the section `target` (an element id) of the view holding `from` (the button) to
/// the top and moves the keyboard focus there (made focusable for it), so the next Tab
/// continues inside the section. The section is looked for from the button outwards, so a
/// second view on the page (a test's) never takes the click.
fn go_to(from: Option<web_sys::Element>, target: &str) {
    let selector = format!("#{target}");
    let mut at = from;
    let found = loop {
        let Some(el) = at else { return };
        if let Ok(Some(found)) = el.query_selector(&selector) {
            break found;
        }
        at = el.parent_element();
    };
    found.scroll_into_view();
    if !found.has_attribute("tabindex") {
        let _ = found.set_attribute("tabindex", "-1");
    }
    if let Some(el) = found.dyn_ref::<web_sys::HtmlElement>() {
        let _ = el.focus();
    }
}

/// The navigation: `items` in order, under an accessible name.
#[component]
pub fn PageNav(
    /// The sections.
    items: Vec<NavItem>,
    /// What the sections are of (`aria-label`, e.g. "Sections of this trajectory").
    label: &'static str,
) -> impl IntoView {
    view! {
        <nav class="page-nav" aria-label=label data-testid="page-nav">
            {items.into_iter().map(|item| {
                let target = item.target;
                view! {
                    <button type="button" class="page-nav-item" data-target=target
                        on:click=move |ev| {
                            let button = ev.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok());
                            go_to(button, target);
                        }>{item.label}</button>
                }
            }).collect_view()}
        </nav>
    }
}
