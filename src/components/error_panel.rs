//! A visible, plain-text error panel.

use leptos::prelude::*;

/// Shows `title` and `message` as text (never HTML), with an optional list of details.
#[component]
pub fn ErrorPanel(
    /// Short headline, e.g. "Could not load the bundle".
    #[prop(into)]
    title: String,
    /// The full error, naming file, line, field and what was expected.
    #[prop(into)]
    message: String,
) -> impl IntoView {
    view! {
        <section class="error-panel" role="alert" data-testid="error-panel">
            <h2>{title}</h2>
            <p class="error-message">{message}</p>
            <p><a href="./">"Back to the start page"</a>" to load another bundle."</p>
        </section>
    }
}
