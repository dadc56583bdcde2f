//! The view of one loaded bundle: header with provenance, then the views.

use std::sync::Arc;

use leptos::prelude::*;
use runlens_core::bundle::Bundle;

use crate::components::ImportWarnings;
use crate::data::LoadStats;
use crate::pages::{LeaderboardView, RankingView};

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
) -> impl IntoView {
    let short_hash: String = bundle.content_hash.chars().take(12).collect();
    let synthetic = bundle.body.synthetic;
    let notice = bundle.body.notice.clone().unwrap_or_default();
    let corpora: Vec<String> = bundle.body.corpora.iter().map(|c| c.name.clone()).collect();
    let warnings = bundle.body.warnings.clone();
    view! {
        <header
            class="bundle-header"
            data-load-download-bytes=stats.download_bytes
            data-load-json-bytes=stats.json_bytes
            data-load-download-ms=stats.download_ms
            data-load-gunzip-ms=stats.gunzip_ms
            data-load-parse-ms=stats.parse_ms
            data-load-verify-ms=stats.verify_ms
        >
            <h1><a href="./">"runlens"</a></h1>
            <p class="bundle-source">
                <span class="label">"bundle "</span><code>{source}</code>
                <span class="label">" · hash "</span><code data-testid="bundle-hash">{short_hash}</code>
                <span class="label">" · corpora "</span>{corpora.join(", ")}
            </p>
            <Show when=move || synthetic>
                <p class="badge synthetic" data-testid="synthetic-badge">
                    "synthetic sample: generated data, not real benchmark results"
                </p>
            </Show>
            <Show when={let n = notice.clone(); move || !n.is_empty()}>
                <p class="notice">{notice.clone()}</p>
            </Show>
            <ImportWarnings warnings=warnings />
        </header>
        <main>
            <LeaderboardView bundle=bundle.clone() />
            <RankingView bundle=bundle />
        </main>
    }
}
