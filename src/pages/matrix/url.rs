//! The matrix view's keys in the page address (in the state layer, `src/layers.txt`): `mxfail`,
//! `mxsub`, `mxq`, `mxsort`.

use runlens_core::metrics::matrix_view::MatrixSort;

use crate::state::params::{Pairs, UrlParams, non_empty};

/// The matrix view's state.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct MatrixParams {
    /// `mxfail=1`: only questions some shown model failed.
    pub failures_only: bool,
    /// `mxsub`: only questions with a label of this sub-mode.
    pub sub_mode: Option<String>,
    /// `mxq`: search text (question text or trace id).
    pub search: String,
    /// `mxsort`: the order of the rows.
    pub sort: MatrixSort,
}

impl UrlParams for MatrixParams {
    fn read(&mut self, key: &str, value: &str) -> bool {
        match key {
            "mxfail" => self.failures_only = value == "1",
            "mxsub" => self.sub_mode = non_empty(value),
            "mxq" => self.search = value.to_owned(),
            "mxsort" => self.sort = MatrixSort::from_key(value).unwrap_or_default(),
            _ => return false,
        }
        true
    }

    fn write(&self, out: &mut Pairs) {
        out.flag("mxfail", self.failures_only);
        out.put("mxsub", self.sub_mode.clone());
        out.put(
            "mxq",
            (!self.search.is_empty()).then(|| self.search.clone()),
        );
        out.put(
            "mxsort",
            (self.sort != MatrixSort::default()).then(|| self.sort.key().to_owned()),
        );
    }
}
