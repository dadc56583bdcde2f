//! The one place views get a bundle's [`TableMatcher`]: its namespace regexes are compiled
//! once per bundle (not per trajectory or ranking build), and once the loader worker has sent
//! the parser-rule outcome of every gold statement ([`crate::loader::parses`], found off this
//! thread right after the bundle arrived), the matcher answers from it instead of parsing
//! SQL on the page.

use std::cell::RefCell;

use runlens_core::bundle::Bundle;
use runlens_core::metrics::gold_tables::TableMatcher;

use crate::loader::parses;
use crate::per_bundle::PerBundle;

/// A bundle's compiled matcher (`None`: no valid namespaces) and whether it has the
/// loader's parses.
type Compiled = Option<(Option<TableMatcher>, bool)>;

thread_local! {
    /// Keyed by content hash only: re-labels (a new bundle, same hash) change no SQL or
    /// namespace.
    static MATCHER: RefCell<PerBundle<String, Compiled>> = RefCell::default();
}

/// The matcher of `bundle`'s namespaces (`None` when it has none or they are invalid), with
/// the loader's parses when they have arrived. Cloning it is cheap.
pub fn bundle_matcher(bundle: &Bundle) -> Option<TableMatcher> {
    MATCHER.with_borrow_mut(|m| {
        let slot = m.of(bundle.content_hash.clone());
        let (matcher, with_parses) = slot.get_or_insert_with(|| {
            let m = (!bundle.body.namespaces.is_empty())
                .then(|| TableMatcher::new(&bundle.body.namespaces).ok())
                .flatten();
            (m, false)
        });
        if !*with_parses && let Some(found) = parses::parses(&bundle.content_hash) {
            *matcher = matcher.take().map(|m| m.with_parses(found));
            *with_parses = true;
        }
        matcher.clone()
    })
}
