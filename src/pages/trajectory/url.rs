//! The trajectory viewer's keys in the page address (in the state layer, `src/layers.txt`):
//! `tmodel`, `trace`, `from`, `diff`.

use crate::state::params::{Pairs, UrlParams, non_empty};

/// The trajectory viewer's state.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct TrajectoryParams {
    /// `tmodel`: the open trajectory's model key.
    pub model: Option<String>,
    /// `trace`: the open trajectory's trace id.
    pub trace: Option<String>,
    /// `from`: the list `j` / `k` walk (`failures`, `audit`, `gate`, `question`).
    pub from: Option<String>,
    /// `diff`: the gold / candidate SQL diff is shown.
    pub diff: bool,
}

impl UrlParams for TrajectoryParams {
    fn read(&mut self, key: &str, value: &str) -> bool {
        match key {
            "tmodel" => self.model = non_empty(value),
            "trace" => self.trace = non_empty(value),
            "from" => self.from = non_empty(value),
            "diff" => self.diff = value == "1",
            _ => return false,
        }
        true
    }

    fn write(&self, out: &mut Pairs) {
        out.put("tmodel", self.model.clone());
        out.put("trace", self.trace.clone());
        out.put("from", self.from.clone());
        out.flag("diff", self.diff);
    }
}
