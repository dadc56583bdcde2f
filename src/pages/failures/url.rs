//! The failures view's keys in the page address (in the state layer, `src/layers.txt`): `f`,
//! `cmin`, `cmax`, `ct` (the audit queue and the trajectory viewer's walk through the failure
//! list read them too).

use crate::state::params::{Pairs, UrlParams, non_empty, set_probability};

/// Default `correct_despite_fail` threshold of the failures histogram and the audit queue.
pub const DEFAULT_CDF_THRESHOLD: f64 = 0.65;

/// The failures view's state.
#[derive(Debug, Clone, PartialEq)]
pub struct FailuresParams {
    /// `f`: the failure-list filter set by clicking a chart element, `kind:value`
    /// (`sub_mode:…`, `family:…`, `bucket:…`, `fm:…`, `rule:…`, `cdf:…`).
    pub filter: Option<String>,
    /// `cmin`: lowest sub-mode confidence shown.
    pub conf_min: f64,
    /// `cmax`: highest sub-mode confidence shown.
    pub conf_max: f64,
    /// `ct`: `correct_despite_fail` threshold (histogram line and audit queue).
    pub cdf_threshold: f64,
}

impl Default for FailuresParams {
    fn default() -> Self {
        FailuresParams {
            filter: None,
            conf_min: 0.0,
            conf_max: 1.0,
            cdf_threshold: DEFAULT_CDF_THRESHOLD,
        }
    }
}

impl UrlParams for FailuresParams {
    fn read(&mut self, key: &str, value: &str) -> bool {
        match key {
            "f" => self.filter = non_empty(value),
            "cmin" => set_probability(&mut self.conf_min, value),
            "cmax" => set_probability(&mut self.conf_max, value),
            "ct" => set_probability(&mut self.cdf_threshold, value),
            _ => return false,
        }
        true
    }

    fn write(&self, out: &mut Pairs) {
        let d = FailuresParams::default();
        out.put("f", self.filter.clone());
        out.differs("cmin", &self.conf_min, &d.conf_min);
        out.differs("cmax", &self.conf_max, &d.conf_max);
        out.differs("ct", &self.cdf_threshold, &d.cdf_threshold);
    }
}
