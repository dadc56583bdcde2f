//! The compare view's keys in the page address (in the state layer, `src/layers.txt`):
//! `compare`, `ch`, `cm`, `cq`, `cc`.

use crate::state::params::{Pairs, UrlParams, hash_prefix, non_empty};

/// The compare view's state.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct CompareParams {
    /// `compare`: where run B lives (relative or absolute URL, as `bundle`). A link with it
    /// and no `tab` opens the compare view.
    pub url: Option<String>,
    /// `ch`: the first 12 hex characters of run B's content hash the link was made for.
    pub hash: Option<String>,
    /// `cm`: the model whose changed questions are listed.
    pub model: Option<String>,
    /// `cq`: the question whose two runs are shown side by side (of `cm`).
    pub trace: Option<String>,
    /// `cc`: the corpus of `cq` (two corpora may share a question).
    pub corpus: Option<String>,
}

impl UrlParams for CompareParams {
    fn read(&mut self, key: &str, value: &str) -> bool {
        match key {
            "compare" => self.url = non_empty(value),
            "ch" => self.hash = hash_prefix(value),
            "cm" => self.model = non_empty(value),
            "cq" => self.trace = non_empty(value),
            "cc" => self.corpus = non_empty(value),
            _ => return false,
        }
        true
    }

    fn write(&self, out: &mut Pairs) {
        out.put("compare", self.url.clone());
        out.put("ch", self.hash.clone());
        out.put("cm", self.model.clone());
        out.put("cq", self.trace.clone());
        out.put("cc", self.corpus.clone());
    }
}
