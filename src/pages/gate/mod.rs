//! The gate view (being built; replaced by its owner).

use std::sync::Arc;

use leptos::prelude::*;
use runlens_core::bundle::Bundle;

/// The gate view of a loaded bundle.
#[component]
pub fn GateView(
    /// The loaded bundle.
    bundle: Arc<Bundle>,
) -> impl IntoView {
    let _ = bundle;
    view! { <section data-testid="gate-view"></section> }
}
