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

/// What the loader said about the gold parses of the bundle with `hash`. Only the loader
/// writes it ([`expect_parses`], [`install_parses`]); views only read it, so a view of another
/// bundle (one still leaving the page) cannot reset it.
#[derive(Default)]
struct Parses {
    hash: String,
    /// The worker will send parses for this bundle.
    pending: bool,
    parses: Option<Arc<StatementParses>>,
}

thread_local! {
    static PARSES: RefCell<Parses> = RefCell::default();
    /// The compiled matcher (`None`: the bundle has no valid namespaces), keyed by content
    /// hash only: re-labels (a new bundle, same hash) change no SQL or namespace.
    static MATCHER: RefCell<PerBundle<String, Option<Option<TableMatcher>>>> = RefCell::default();
}

/// The loader says parses for the bundle with `hash` will follow.
pub fn expect_parses(hash: &str) {
    PARSES.with_borrow_mut(|p| {
        if p.hash != hash {
            *p = Parses {
                hash: hash.to_owned(),
                ..Parses::default()
            };
        }
        p.pending = p.parses.is_none();
    });
}

/// The loader hands over the parses for the bundle with `hash`.
pub fn install_parses(hash: &str, parses: StatementParses) {
    let parses = Arc::new(parses);
    PARSES.set(Parses {
        hash: hash.to_owned(),
        pending: false,
        parses: Some(parses.clone()),
    });
    MATCHER.with_borrow_mut(|m| {
        let slot = m.of(hash.to_owned());
        *slot = slot
            .take()
            .map(|m| m.map(|m| m.with_parses(parses.clone())));
    });
}

/// Whether parses for `bundle` are on their way (a build that would parse its gold SQL can
/// run in slices until they arrive, instead of blocking the page).
pub fn parses_pending(bundle: &Bundle) -> bool {
    PARSES.with_borrow(|p| p.hash == bundle.content_hash && p.pending)
}

/// The matcher of `bundle`'s namespaces (`None` when it has none or they are invalid), with
/// the worker's parses when they have arrived. Cloning it is cheap.
pub fn bundle_matcher(bundle: &Bundle) -> Option<TableMatcher> {
    let parses = PARSES.with_borrow(|p| {
        (p.hash == bundle.content_hash)
            .then(|| p.parses.clone())
            .flatten()
    });
    MATCHER.with_borrow_mut(|m| {
        m.of(bundle.content_hash.clone())
            .get_or_insert_with(|| {
                let m = (!bundle.body.namespaces.is_empty())
                    .then(|| TableMatcher::new(&bundle.body.namespaces).ok())
                    .flatten();
                match (parses, m) {
                    (Some(p), Some(m)) => Some(m.with_parses(p)),
                    (_, m) => m,
                }
            })
            .clone()
    })
}
