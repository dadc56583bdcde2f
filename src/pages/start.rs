//! The start page: the bundles shipped with the app (or a report site's runs, with their
//! trend: `pages::site_trend`), and the open controls (file picker, folder picker, drop
//! zone, URL field) for another one.

use std::sync::Arc;

use leptos::prelude::*;

use crate::components::inline_code::InlineCode;
use crate::components::open_bundle::navigate_to_bundle;
use crate::components::{BundleLoader, ErrorPanel, OpenBundle, RenderLoaded};
use crate::data::{self, BundleRequest, Loaded, SampleEntry};
use crate::pages::Overview;
use crate::pages::site_trend::SiteTrend;

/// Renders a loaded bundle with the [`Overview`] (header and views), inside a wrapper that
/// carries the loader's own figures as `data-load-*` attributes (for e2e/bench/load.mjs).
pub fn render_overview() -> RenderLoaded {
    Arc::new(|loaded: Loaded| {
        let s = loaded.stats;
        view! {
            <div
                class="loaded-bundle"
                data-load-in-worker=s.in_worker.to_string()
                data-load-prefetched=s.prefetched.to_string()
                data-load-transfer-bytes=s.transfer_bytes
                data-load-assemble-ms=s.assemble_ms
                data-load-import-ms=s.import_ms
            >
                <Overview bundle=loaded.bundle stats=s source=loaded.source summary=loaded.summary />
            </div>
        }
        .into_any()
    })
}

/// Lists `bundles/index.json` with a link to open each sample, and the open controls; files
/// opened here are loaded in place (URLs become `?bundle=URL`).
#[component]
pub fn StartPage() -> impl IntoView {
    let opened = RwSignal::new_local(None::<BundleRequest>);
    let on_open = Callback::new(move |req: BundleRequest| match req {
        BundleRequest::Url(url) => navigate_to_bundle(&url),
        files => opened.set(Some(files)),
    });
    move || match opened.get() {
        Some(request) => {
            view! { <BundleLoader request=request render=render_overview() /> }.into_any()
        }
        None => view! { <StartContent on_open=on_open /> }.into_any(),
    }
}

#[component]
fn StartContent(on_open: Callback<BundleRequest>) -> impl IntoView {
    let samples = LocalResource::new(data::load_samples);
    let site_index = LocalResource::new(data::load_site_index);
    view! {
        <section class="start">
            <h1>"runlens"</h1>
            <p class="lede">
                "Results explorer for agentic text-to-SQL benchmarks: leaderboards, table-ranking \
                 curves, failure taxonomies and gate deltas, recomputed in your browser from the \
                 raw run bundle."
            </p>
            <Suspense fallback=|| ()>
                {move || Suspend::new(async move {
                    match site_index.await {
                        Ok(Some(index)) => view! { <SiteTrend index=Arc::new(index) /> }.into_any(),
                        Ok(None) => ().into_any(),
                        Err(e) => view! {
                            <ErrorPanel title="Could not read this site's index of runs" message=e.to_string() />
                        }.into_any(),
                    }
                })}
            </Suspense>
            <h2>"Runs on this site"</h2>
            <Suspense fallback=|| view! { <p>"Loading the list of runs…"</p> }>
                {move || Suspend::new(async move {
                    match samples.await {
                        Ok(list) if list.is_empty() => view! { <p>"No runs are listed here (bundles/index.json is empty)."</p> }.into_any(),
                        Ok(list) => view! {
                            <SampleList samples=list.clone() />
                            <ComparePicker samples=list />
                        }.into_any(),
                        Err(e) => view! {
                            <ErrorPanel title="Could not list the bundled samples" message=e.to_string() />
                        }.into_any(),
                    }
                })}
            </Suspense>
            <h2>"Open another bundle"</h2>
            <p>
                "Open a bundle written by " <code>"runlens export"</code> " (a " <code>".zip"</code>
                " or a bundle folder, " <code>"runlens.bundle/2"</code> "; or a " <code>".json"</code>
                " / " <code>".json.gz"</code> "), or the raw harness files themselves (imported "
                "here by the same code as " <code>"runlens export"</code> "), or add "
                <code>"?bundle=URL"</code> " to this page's address."
            </p>
            <OpenBundle on_open=on_open />
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
                        <p><InlineCode text=s.description.clone() /></p>
                    </li>
                }
            }).collect_view()}
        </ul>
    }
}

/// "Compare two runs": run A and run B from the list, opened as `?bundle=A&compare=B` (shown
/// when the list has two runs or more).
#[component]
fn ComparePicker(samples: Vec<SampleEntry>) -> impl IntoView {
    if samples.len() < 2 {
        return None;
    }
    let urls: Vec<(String, String)> = samples.iter().map(|s| (s.url(), s.title.clone())).collect();
    let a = RwSignal::new(urls[0].0.clone());
    let b = RwSignal::new(urls[1].0.clone());
    let options = move |chosen: RwSignal<String>| {
        urls.iter()
            .map(|(url, title)| {
                let selected = chosen.get_untracked() == *url;
                view! { <option value=url.clone() selected=selected>{title.clone()}</option> }
            })
            .collect_view()
    };
    let (options_a, options_b) = (options(a), options(b));
    let href = move || {
        let enc = |u: String| String::from(js_sys::encode_uri_component(&u));
        format!("?bundle={}&compare={}", enc(a.get()), enc(b.get()))
    };
    Some(view! {
        <form class="compare-picker" data-testid="compare-picker" on:submit=move |ev| {
            ev.prevent_default();
            if let Some(w) = web_sys::window() {
                let _ = w.location().set_search(&href());
            }
        }>
            <h3>"Compare two runs"</h3>
            <label>"run A " <select data-testid="compare-a" on:change=move |ev| a.set(event_target_value(&ev))>{options_a}</select></label>
            " "
            <label>"with run B " <select data-testid="compare-b" on:change=move |ev| b.set(event_target_value(&ev))>{options_b}</select></label>
            " "
            <button type="submit">"Compare"</button>
        </form>
    })
}
