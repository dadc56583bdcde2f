//! The compare view: the shown bundle (run A) against another run (B, `?compare=`, loaded by
//! a loader worker of its own): per corpus of the same name, each model's paired difference
//! in pass rate over the questions scored in both (docs/metrics.md, "Comparing two runs"),
//! as a table and a forest plot; models in one run only listed apart; a model's questions
//! that changed, each opening both runs' cells side by side with the diff of their SQL.

mod choose;
mod failures;
mod flips;
mod forest;
mod load;
mod picked;
mod retrieval;
mod runs;
mod side_by_side;
mod table;
pub mod url;

use std::sync::Arc;

use leptos::prelude::*;
use runlens_core::bundle::Bundle;

use crate::data::BundleRequest;
use crate::state::UrlState;
use choose::ChooseRun;
use load::LoadCompared;
use picked::PickedFiles;
pub use runs::CompareRuns;

/// The compare view of a loaded bundle.
#[component]
pub fn CompareView(
    /// The loaded bundle (run A).
    bundle: Arc<Bundle>,
) -> impl IntoView {
    let state = UrlState::use_context();
    let picked = PickedFiles(RwSignal::new_local(None));
    provide_context(picked);
    let url = Memo::new(move |_| state.with(|s| s.compare.url.clone()));
    move || {
        let a = bundle.clone();
        let request = match url.get() {
            Some(u) => Some(BundleRequest::Url(u)),
            None => picked.0.get().map(BundleRequest::Files),
        };
        view! {
            <section class="compare" data-testid="compare-view">
                <h2>"Compare two runs"</h2>
                {match request {
                    Some(r) => view! { <LoadCompared a=a request=r /> }.into_any(),
                    None => view! { <ChooseRun /> }.into_any(),
                }}
            </section>
        }
    }
}

crate::pages::views::lazy_view! {
    /// The compare view. In a chunk of its own (`split_compare`).
    compare: CompareView
}

/// This view in the registry (`pages::registry`).
pub const VIEW: crate::pages::views::ViewDef = crate::pages::views::ViewDef {
    tab: crate::state::Tab::Compare,
    label: "Compare",
    needs: crate::pages::views::Needs::WholeForAnswers,
    code: crate::pages::views::Code::Chunk(CHUNK),
};
