//! The start page: the bundles shipped with the app, and how to open another one.

use leptos::prelude::*;

use crate::components::ErrorPanel;
use crate::data::{self, SampleEntry};

/// Lists `bundles/index.json` with a link to open each sample.
#[component]
pub fn StartPage() -> impl IntoView {
    let samples = LocalResource::new(data::load_samples);
    view! {
        <section class="start">
            <h1>"runlens"</h1>
            <p class="lede">
                "Results explorer for agentic text-to-SQL benchmarks: leaderboards, table-ranking \
                 curves, failure taxonomies and gate deltas, recomputed in your browser from the \
                 raw run bundle."
            </p>
            <h2>"Bundled samples"</h2>
            <Suspense fallback=|| view! { <p>"Loading the sample list…"</p> }>
                {move || Suspend::new(async move {
                    match samples.await {
                        Ok(list) if list.is_empty() => view! { <p>"No bundled samples."</p> }.into_any(),
                        Ok(list) => view! { <SampleList samples=list /> }.into_any(),
                        Err(e) => view! {
                            <ErrorPanel title="Could not list the bundled samples" message=e.to_string() />
                        }.into_any(),
                    }
                })}
            </Suspense>
            <h2>"Open another bundle"</h2>
            <p>
                "Add " <code>"?bundle=URL"</code> " to this page's address, with the URL of a "
                <code>".json"</code> " or " <code>".json.gz"</code> " bundle written by "
                <code>"runlens export"</code> "."
            </p>
        </section>
    }
}

#[component]
fn SampleList(samples: Vec<SampleEntry>) -> impl IntoView {
    view! {
        <ul class="samples">
            {samples.into_iter().map(|s| {
                let href = format!("?bundle={}", s.url());
                view! {
                    <li>
                        <a class="sample-link" href=href>{s.title.clone()}</a>
                        <Show when=move || s.synthetic>
                            <span class="badge synthetic">"synthetic sample"</span>
                        </Show>
                        <p>{s.description.clone()}</p>
                    </li>
                }
            }).collect_view()}
        </ul>
    }
}
