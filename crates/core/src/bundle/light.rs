//! What a corpus read light keeps outside its own lists: a source that makes its rows when a
//! reader asks ([`super::CellSource`] for the cells, [`super::GateSource`] for the gate rows).

use std::fmt;
use std::sync::Arc;

/// A corpus's source of made rows, if it keeps them outside its own lists (then those lists
/// are empty). Each kind is equal to another when both make the same rows.
pub struct Light<S: ?Sized>(Option<Arc<S>>);

impl<S: ?Sized> Light<S> {
    /// Rows made by `source`.
    pub fn new(source: Arc<S>) -> Self {
        Light(Some(source))
    }

    /// The source, if any.
    pub fn source(&self) -> Option<&S> {
        self.0.as_deref()
    }
}

impl<S: ?Sized> Default for Light<S> {
    fn default() -> Self {
        Light(None)
    }
}

impl<S: ?Sized> Clone for Light<S> {
    fn clone(&self) -> Self {
        Light(self.0.clone())
    }
}

impl<S: ?Sized + fmt::Debug> fmt::Debug for Light<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            Some(s) => s.fmt(f),
            None => f.write_str("None"),
        }
    }
}
