//! The trajectory view (being built; replaced by its owner).

use std::sync::Arc;

use leptos::prelude::*;
use runlens_core::bundle::Bundle;

/// The trajectory view of a loaded bundle.
#[component]
pub fn TrajectoryView(
    /// The loaded bundle.
    bundle: Arc<Bundle>,
) -> impl IntoView {
    let _ = bundle;
    view! { <section data-testid="trajectory-view"></section> }
}
