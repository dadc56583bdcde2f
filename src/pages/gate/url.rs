//! The gate view's keys in the page address (in the state layer, `src/layers.txt`): `gmodel`.

use crate::state::params::{Pairs, UrlParams, non_empty};

/// The gate view's state.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct GateParams {
    /// `gmodel`: the selected model (its fired rows; the trajectory viewer walks them).
    pub model: Option<String>,
}

impl UrlParams for GateParams {
    fn read(&mut self, key: &str, value: &str) -> bool {
        match key {
            "gmodel" => self.model = non_empty(value),
            _ => return false,
        }
        true
    }

    fn write(&self, out: &mut Pairs) {
        out.put("gmodel", self.model.clone());
    }
}
