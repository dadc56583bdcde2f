//! The trajectory view (being built; replaced by its owner). In the `wt-relabel` branch only,
//! the placeholder mounts the re-label panel of the open cell for the e2e test.

use std::sync::Arc;

use leptos::prelude::*;
use runlens_core::bundle::Bundle;

use crate::pages::relabel::RelabelPanel;
use crate::state::UrlState;

/// The trajectory view of a loaded bundle.
#[component]
pub fn TrajectoryView(
    /// The loaded bundle.
    bundle: Arc<Bundle>,
) -> impl IntoView {
    let state = UrlState::use_context();
    let open = Memo::new(move |_| {
        state.with(|s| Some((s.corpus.clone()?, s.cell_model.clone()?, s.trace.clone()?)))
    });
    view! {
        <section data-testid="trajectory-view">
            {move || open.get().map(|(corpus, model, trace)| view! {
                <RelabelPanel bundle=bundle.clone() corpus=corpus model=model trace_id=trace />
            })}
        </section>
    }
}
