//! The audit view (being built; replaced by its owner).

use std::sync::Arc;

use leptos::prelude::*;
use runlens_core::bundle::Bundle;

/// The audit view of a loaded bundle.
#[component]
pub fn AuditView(
    /// The loaded bundle.
    bundle: Arc<Bundle>,
) -> impl IntoView {
    let _ = bundle;
    view! { <section data-testid="audit-view"></section> }
}
