//! The gold SQL's parser-rule outcomes ([`StatementParses`]) the loader worker finds off the
//! main thread right after a bundle arrives. The loader records what it was told here (the
//! page's client and the worker itself); [`crate::derived::bundle_matcher`] reads it.

use std::cell::RefCell;
use std::sync::Arc;

use runlens_core::metrics::gold_tables::StatementParses;

/// What the loader said about the gold parses of the bundle with `hash`.
#[derive(Default)]
struct Parses {
    hash: String,
    parses: Option<Arc<StatementParses>>,
}

thread_local! {
    static PARSES: RefCell<Parses> = RefCell::default();
}

/// Parses for the bundle with `hash` will follow (those of another bundle are dropped).
pub fn expect_parses(hash: &str) {
    PARSES.with_borrow_mut(|p| {
        if p.hash != hash {
            *p = Parses {
                hash: hash.to_owned(),
                parses: None,
            };
        }
    });
}

/// The parses for the bundle with `hash` arrived.
pub fn install_parses(hash: &str, parses: StatementParses) {
    PARSES.set(Parses {
        hash: hash.to_owned(),
        parses: Some(Arc::new(parses)),
    });
}

/// The parses of the bundle with `hash`, once they arrived.
pub fn parses(hash: &str) -> Option<Arc<StatementParses>> {
    PARSES.with_borrow(|p| (p.hash == hash).then(|| p.parses.clone()).flatten())
}
