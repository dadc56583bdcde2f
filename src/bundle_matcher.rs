//! The one place views get a bundle's [`TableMatcher`]: its namespace regexes are compiled
//! once per bundle (not per trajectory or ranking build), and once the loader worker has sent
//! the parser-rule outcome of every gold statement ([`StatementParses`], found off this
//! thread right after the bundle arrived), the matcher answers from it instead of parsing
//! SQL on the page.

use std::cell::RefCell;
use std::sync::Arc;

use runlens_core::bundle::Bundle;
use runlens_core::metrics::gold_tables::{StatementParses, TableMatcher};

use crate::per_bundle::PerBundle;

#[derive(Default)]
struct Slot {
    /// The compiled matcher (`Some(None)`: the bundle has no valid namespaces).
    matcher: Option<Option<TableMatcher>>,
    parses: Option<Arc<StatementParses>>,
    /// The worker will send parses for this bundle.
    pending: bool,
}

thread_local! {
    /// Keyed by content hash only: the loader names the bundle by its hash before the page has
    /// it, and re-labels (a new bundle, same hash) change no SQL or namespace.
    static SLOT: RefCell<PerBundle<String, Slot>> = RefCell::default();
}

fn with_slot<T>(hash: &str, f: impl FnOnce(&mut Slot) -> T) -> T {
    SLOT.with_borrow_mut(|s| f(s.of(hash.to_owned())))
}

/// The loader says parses for the bundle with `hash` will follow.
pub fn expect_parses(hash: &str) {
    with_slot(hash, |s| s.pending = s.parses.is_none());
}

/// The loader hands over the parses for the bundle with `hash`.
pub fn install_parses(hash: &str, parses: StatementParses) {
    with_slot(hash, |s| {
        let parses = Arc::new(parses);
        s.matcher = s
            .matcher
            .take()
            .map(|m| m.map(|m| m.with_parses(parses.clone())));
        s.parses = Some(parses);
        s.pending = false;
    });
}

/// Whether parses for `bundle` are on their way (a build that would parse its gold SQL can
/// run in slices until they arrive, instead of blocking the page).
pub fn parses_pending(bundle: &Bundle) -> bool {
    with_slot(&bundle.content_hash, |s| s.pending)
}

/// The matcher of `bundle`'s namespaces (`None` when it has none or they are invalid), with
/// the worker's parses when they have arrived. Cloning it is cheap.
pub fn bundle_matcher(bundle: &Bundle) -> Option<TableMatcher> {
    with_slot(&bundle.content_hash, |s| {
        s.matcher
            .get_or_insert_with(|| {
                let m = (!bundle.body.namespaces.is_empty())
                    .then(|| TableMatcher::new(&bundle.body.namespaces).ok())
                    .flatten();
                match (&s.parses, m) {
                    (Some(p), Some(m)) => Some(m.with_parses(p.clone())),
                    (_, m) => m,
                }
            })
            .clone()
    })
}
