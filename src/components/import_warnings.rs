//! The import warnings a bundle carries (problems that did not stop `runlens export`).

use leptos::prelude::*;
use runlens_core::bundle::Warning;

/// A collapsed list of warnings with their count; nothing when there are none.
#[component]
pub fn ImportWarnings(
    /// The bundle's warnings, in import order.
    warnings: Vec<Warning>,
) -> impl IntoView {
    let n = warnings.len();
    (n > 0).then(|| {
        view! {
            <details class="import-warnings" data-testid="import-warnings" data-count=n>
                <summary>{format!("{n} import warning{}", if n == 1 { "" } else { "s" })}</summary>
                <ul>
                    {warnings.into_iter().map(|w| view! { <li><code>{w.to_string()}</code></li> }).collect_view()}
                </ul>
            </details>
        }
    })
}
