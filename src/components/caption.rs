//! Captions of exported figures and tables: which bundle, which view settings.

use leptos::prelude::*;

/// The loaded bundle's identity, provided by the overview for captions.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct BundleInfo {
    /// First 12 hex characters of the content hash.
    pub short_hash: String,
    /// Where the bundle came from.
    pub source: String,
}

/// `"runlens · bundle <hash> (<source>) · <settings>"`, using the provided [`BundleInfo`].
pub fn caption(settings: &str) -> String {
    let info = use_context::<BundleInfo>().unwrap_or_default();
    format!(
        "runlens · bundle {} ({}) · {settings}",
        info.short_hash, info.source
    )
}
