//! The notice shown when a link was made for a different version of the bundle.

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

/// Whether a link's `h=` disagrees with a bundle hash (compared on the link's length, at
/// most 64 hex characters; an empty `h` never disagrees).
pub fn hash_disagrees(link_hash: &str, content_hash: &str) -> bool {
    let n = link_hash.len();
    !link_hash.is_empty()
        && content_hash
            .get(..n)
            .is_none_or(|prefix| !prefix.eq_ignore_ascii_case(link_hash))
}
