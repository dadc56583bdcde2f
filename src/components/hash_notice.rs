//! Notices about where the bundle came from: a link made for another version of it, a zip
//! its host sent whole.

use leptos::prelude::*;

/// Explains that the bundle at the link's address has changed since the link was made
/// (`link_hash` is the `h=` of the link, `bundle_hash` the first 12 hex of the loaded one).
#[component]
pub fn HashNotice(link_hash: String, bundle_hash: String) -> impl IntoView {
    view! {
        <p class="notice hash-mismatch" role="alert" data-testid="hash-mismatch">
            "This link was made for bundle " <code>{link_hash}</code> ", but the file at its \
             address is now bundle " <code>{bundle_hash}</code> ". The data changed since the \
             link was shared, so the numbers may differ from what its sender saw."
        </p>
    }
}

/// Says that a v2 zip was downloaded whole because its host ignored HTTP `Range` requests.
#[component]
pub fn WholeZipNotice(bytes: usize) -> impl IntoView {
    let mb = format!("{:.1} MB", bytes as f64 / 1e6);
    view! {
        <p class="notice whole-zip" role="status" data-testid="whole-zip">
            "This bundle's host ignored HTTP Range requests, so the whole zip (" {mb} ") was \
             downloaded to open it. A host that answers Range requests (any static file \
             server, runlens serve) lets runlens read it in parts instead."
        </p>
    }
}

/// The first 12 hex characters of a content hash, as links (`h=`, `ch=`) and headers show it.
pub fn short_hash(content_hash: &str) -> String {
    content_hash.chars().take(12).collect()
}

/// Whether a link's `h=` disagrees with a bundle hash (compared on the link's length, at
/// most 64 hex characters; an empty `h` never disagrees).
pub fn hash_disagrees(link_hash: &str, content_hash: &str) -> bool {
    let n = link_hash.len();
    !link_hash.is_empty()
        && content_hash
            .get(..n)
            .is_none_or(|prefix| !prefix.eq_ignore_ascii_case(link_hash))
}
