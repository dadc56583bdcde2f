//! The view of one loaded bundle: header with provenance, then the views.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use leptos::prelude::*;
use runlens_core::bundle::Bundle;
use wasm_bindgen::JsCast;

use crate::chunks::{LocalTask, split_call, split_point};
use crate::components::bundle_loader::{LoadProgressSignal, WholeArrived};
use crate::components::{
    BundleInfo, CopyLink, HashNotice, ImportWarnings, ModelChoice, ModelFilter, TabBar,
    WholeZipNotice, hash_disagrees,
};
use crate::data::LoadStats;
use crate::derived::bundle_matcher::bundle_matcher;
use crate::derived::compiled_rules::compiled_rules;
use crate::loader::summary::Summary;
use crate::pages::registry;
use crate::pages::relabel::OverridesBar;
use crate::pages::views::Needs;
use crate::pages::views::ViewChunks;
use crate::state::{OverridesState, UrlState};
use crate::yield_now::{mounted_flag, yield_idle};

/// Shows a loaded bundle. Takes the data as a prop so it is testable without a server.
#[component]
pub fn Overview(
    /// The loaded bundle.
    bundle: Arc<Bundle>,
    /// Where it came from (shown in the header).
    #[prop(into)]
    source: String,
    /// Sizes and timings of the load, exposed as `data-load-*` attributes.
    #[prop(optional)]
    stats: LoadStats,
    /// A v2 bundle's summary, while only it is in (`bundle` is then its head): the
    /// leaderboard shows its rows, the other views ask the worker (which has the ranking,
    /// failures and gate views' rows soon after, the matrix and audit queue's with the whole
    /// bundle); the trajectory waits for the whole bundle.
    #[prop(default = None)]
    summary: Option<Summary>,
) -> impl IntoView {
    let summary_shown = summary.is_some();
    if let Some(summary) = summary {
        provide_context(summary);
    }
    // A summary's overview stays when the whole bundle arrives (components::bundle_loader):
    // from then on it is the whole bundle's (its figures, and the skeleton new views get).
    let whole = use_context::<WholeArrived>().map(|w| w.0);
    let arrived = move || whole.and_then(|w| w.with(|l| l.clone()));
    let waiting = Memo::new(move |_| summary_shown && arrived().is_none());
    let stats = Memo::new(move |_| arrived().map_or(stats, |l| l.stats));
    let short_hash = crate::components::short_hash(&bundle.content_hash);
    let synthetic = bundle.body.synthetic;
    let notice = bundle.body.notice.clone().unwrap_or_default();
    let corpora: Vec<String> = bundle.body.corpora.iter().map(|c| c.name.clone()).collect();
    let warnings = bundle.body.warnings.clone();
    let models: Vec<ModelChoice> = bundle
        .body
        .models
        .iter()
        .map(|m| ModelChoice {
            key: m.key.clone(),
            name: m.display_name.clone(),
        })
        .collect();
    let state = UrlState::use_context();
    provide_context(BundleInfo {
        short_hash: short_hash.clone(),
        source: source.clone(),
    });
    // The link's `h=` as opened; from now on the address carries this bundle's hash.
    let link_hash = state.with_untracked(|s| s.hash.clone()).unwrap_or_default();
    let mismatch = hash_disagrees(&link_hash, &bundle.content_hash);
    let hash_for_url = short_hash.clone();
    state.replace(|s| s.hash = Some(hash_for_url));
    let tab = Memo::new(move |_| state.with(|s| s.tab));
    // Every view reads the bundle as loaded: the re-labels in force travel with the views'
    // questions (`state::relabels_in_force`), so applying one re-renders no view, it changes
    // their questions.
    OverridesState::provide(bundle.clone());
    let first = bundle.clone();
    // The skeleton a view mounts with: the whole bundle's once it is in, else the one shown.
    let current = move || {
        whole
            .and_then(|w| w.with_untracked(|l| l.as_ref().map(|l| l.bundle.clone())))
            .unwrap_or_else(|| first.clone())
    };
    let alive = mounted_flag();
    let warmed = StoredValue::new(false);
    let warm_bundle = current.clone();
    Effect::new(move |_| {
        if waiting.get() || warmed.get_value() {
            return;
        }
        warmed.set_value(true);
        let (bundle, alive) = (warm_bundle(), alive.clone());
        leptos::task::spawn_local(async move {
            yield_idle().await;
            if alive.load(Ordering::Relaxed) {
                // Without its chunk there is nothing to warm; the views say so when opened.
                if let Ok(task) = split_call!(warm_up_task(bundle, alive)) {
                    task.await;
                }
            }
        });
    });
    let chunks = ViewChunks::provide();
    // What the view area shows: the tab, and whether it waits for the whole bundle (the
    // registry says what each view needs). A view that needs the whole bundle only for its
    // answers mounts at once under a "rest loading" line: its questions wait in the worker,
    // which answers them the moment the whole bundle is in (mounting it only then cost a
    // mount and a round trip). So the whole bundle's arrival leaves every view mounted but
    // those that need it in the page, which mount then.
    let shown_kind = Memo::new(move |_| {
        let tab = tab.get();
        let needs = registry::view_def(tab).needs;
        (tab, needs, needs == Needs::WholeToMount && waiting.get())
    });
    let views = move || {
        chunks.track();
        let (tab, needs, rest_loading) = shown_kind.get();
        let bundle = current();
        release_focus_in_main();
        if rest_loading {
            return view! { <RestLoading /> }.into_any();
        }
        let view = registry::mount(tab, bundle);
        match needs {
            Needs::WholeForAnswers => {
                let line = move || waiting.get().then(|| view! { <RestLoading /> });
                view! { {line} {view} }.into_any()
            }
            Needs::Summary | Needs::WholeToMount => view,
        }
    };
    // The view mounts one task after the header, the header's tools (model filter, import
    // warnings, overrides) one more task later: together they were one long task on `large`
    // (docs/performance.md, the long tasks of 2026-12-06 10:09).
    let views_ready = crate::yield_now::ready_after_tasks(1);
    let tools_ready = crate::yield_now::ready_after_tasks(2);
    // The skip link: past the header's controls to the view (focus, no address change).
    let main_ref = NodeRef::<leptos::html::Main>::new();
    let skip = move |ev: leptos::ev::MouseEvent| {
        ev.prevent_default();
        if let Some(main) = main_ref.get_untracked() {
            let _ = main.focus();
        }
    };
    view! {
        <a class="skip-link" href="#view" data-testid="skip-link" on:click=skip>"Skip to the view"</a>
        <header
            class="bundle-header"
            data-load-download-bytes=move || stats.get().download_bytes
            data-load-json-bytes=move || stats.get().json_bytes
            data-load-download-ms=move || stats.get().download_ms
            data-load-gunzip-ms=move || stats.get().gunzip_ms
            data-load-parse-ms=move || stats.get().parse_ms
            data-load-verify-ms=move || stats.get().verify_ms
            data-load-v2=move || stats.get().v2.to_string()
            data-load-requests=move || stats.get().requests
            data-load-prefetched=move || stats.get().prefetched.to_string()
            data-load-worker-wasm-bytes=move || stats.get().worker_wasm_bytes
            data-load-summary=move || waiting.get().to_string()
        >
            // One line (#17): name, bundle, hash, corpora and the synthetic badge; it wraps on
            // a narrow screen.
            <div class="header-line">
            <h1><a href="./">"runlens"</a></h1>
            <p class="bundle-source">
                <span class="label">"bundle "</span><code>{source}</code>
                <span class="label">" · hash "</span><code data-testid="bundle-hash">{short_hash.clone()}</code>
                <span class="label">" · corpora "</span>{corpora.join(", ")}
            </p>
            // One notice (#17): a synthetic bundle's own notice in the synthetic badge (or the
            // default words when it has none); another bundle's notice as plain text.
            {match (synthetic, notice.is_empty()) {
                (true, true) => Some(view! { <p class="badge synthetic" data-testid="synthetic-badge">
                    "synthetic sample: generated data, not real benchmark results"</p> }.into_any()),
                (true, false) => Some(view! { <p class="badge synthetic" data-testid="synthetic-badge">{notice.clone()}</p> }.into_any()),
                (false, false) => Some(view! { <p class="notice">{notice.clone()}</p> }.into_any()),
                (false, true) => None,
            }}
            </div>
            <Show when=move || stats.get().whole_zip>
                <WholeZipNotice bytes=stats.get_untracked().download_bytes />
            </Show>
            <Show when=move || mismatch>
                <HashNotice link_hash=link_hash.clone() bundle_hash=short_hash.clone() />
            </Show>
            <div class="header-tools">
                <Show when=move || tools_ready.get()>
                    <ModelFilter models=models.clone() />
                    <ImportWarnings warnings=warnings.clone() />
                    <OverridesBar />
                </Show>
            </div>
            <div class="view-bar">
                <TabBar />
                <CopyLink />
            </div>
        </header>
        <main id="view" tabindex="-1" node_ref=main_ref>{move || views_ready.get().then(views.clone())}</main>
    }
}

/// What a view other than the leaderboard shows while only the summary is in: how far the
/// rest of the bundle is.
#[component]
fn RestLoading() -> impl IntoView {
    let progress = use_context::<LoadProgressSignal>();
    let line = move || {
        let Some(p) = progress.map(|p| p.0.get()) else {
            return "Reading the rest of the bundle…".to_owned();
        };
        let pct = p
            .fraction()
            .map(|f| format!(" {:.0}%", f * 100.0))
            .unwrap_or_default();
        format!(
            "Reading the rest of the bundle: {}…{pct}",
            p.phase.label().to_lowercase()
        )
    };
    view! {
        <p class="notice loading-line" role="status" data-testid="rest-loading">{line}</p>
    }
}

/// Moves the focus out of `<main>` before its view is replaced. Removing the focused element
/// (say the failure list's "open" button) made the browser lay out the whole page at once,
/// new view included (a long task on the `large` preset, against almost nothing for the same
/// removal unfocused: docs/performance.md). The focus ends on the body either way.
fn release_focus_in_main() {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    let (Some(active), Ok(Some(main))) =
        (document.active_element(), document.query_selector("main"))
    else {
        return;
    };
    if main.contains(Some(&active))
        && let Ok(el) = active.dyn_into::<web_sys::HtmlElement>()
    {
        let _ = el.blur();
    }
}

/// Compiles what opening a trajectory needs (the bundle's namespace matcher and its rules
/// config) in idle tasks, after the first view is built, so that the first open
/// does not pay for it. (The ranking view's numbers come from the loader worker: nothing to
/// ready here.) Runs in the `warm_up` chunk of a split build, fetched in the idle time after
/// the first view; `alive` is cleared when the overview leaves.
pub async fn warm_up(bundle: Arc<Bundle>, alive: Arc<AtomicBool>) {
    let left = || !alive.load(Ordering::Relaxed);
    let _ = bundle_matcher(&bundle);
    yield_idle().await;
    if left() {
        return;
    }
    if let Some(rules) = &bundle.body.rules {
        let _ = compiled_rules(rules);
    }
}

split_point! {
    /// What the page readies in idle time after the first view ([`warm_up`]), in the
    /// `warm_up` chunk.
    warm_up: fn warm_up_task(bundle: Arc<Bundle>, alive: Arc<AtomicBool>) -> LocalTask<()> {
        Box::pin(warm_up(bundle, alive))
    }
}
