//! Choosing run B: a run listed on this site (`bundles/index.json`), or any bundle the app
//! can open (URL, files, a folder, a drop).

use leptos::prelude::*;

use super::picked::PickedFiles;
use crate::components::OpenBundle;
use crate::data::{self, BundleRequest, SampleEntry};
use crate::state::UrlState;

/// Puts `url` in the address as run B (`compare=`; its hash is filled in once it loads).
fn compare_with(state: UrlState, url: String) {
    state.push(move |s| {
        s.compare = crate::state::CompareParams {
            url: Some(url),
            ..Default::default()
        };
        s.tab = crate::state::Tab::Compare;
    });
}

/// The site's other runs and the open controls.
#[component]
pub fn ChooseRun() -> impl IntoView {
    let state = UrlState::use_context();
    let picked = expect_context::<PickedFiles>();
    let shown = state.with_untracked(|s| s.bundle.clone()).unwrap_or_default();
    let samples = LocalResource::new(data::load_samples);
    let on_open = Callback::new(move |req: BundleRequest| match req {
        BundleRequest::Url(url) => compare_with(state, url),
        BundleRequest::Files(files) => picked.0.set(Some(files)),
    });
    view! {
        <p>
            "Compare this run (A) with another run (B) of the same questions: a later night, a \
             new prompt, the gate switched on. Questions are matched by " <code>"trace_id"</code>
            " within corpora of the same name, models by key."
        </p>
        <h3>"Runs on this site"</h3>
        <Suspense fallback=|| view! { <p>"Loading the list of runs…"</p> }>
            {move || {
                let shown = shown.clone();
                Suspend::new(async move {
                    let others: Vec<SampleEntry> = samples
                        .await
                        .unwrap_or_default()
                        .into_iter()
                        .filter(|s| s.url() != shown)
                        .collect();
                    if others.is_empty() {
                        return view! { <p data-testid="compare-no-runs">"No other run is listed on this site."</p> }.into_any();
                    }
                    view! {
                        <ul class="compare-runs" data-testid="compare-runs">
                            {others.into_iter().map(|s| {
                                let url = s.url();
                                view! {
                                    <li>
                                        <button type="button" data-url=url.clone()
                                            on:click=move |_| compare_with(state, url.clone())>
                                            {s.title.clone()}
                                        </button>
                                        " " <span class="hint">{s.description.clone()}</span>
                                    </li>
                                }
                            }).collect_view()}
                        </ul>
                    }.into_any()
                })
            }}
        </Suspense>
        <h3>"Another bundle"</h3>
        <div data-testid="compare-open">
            <OpenBundle on_open=on_open />
        </div>
        <p class="hint">"Opened files are compared here but cannot travel in a link; a URL can."</p>
    }
}
