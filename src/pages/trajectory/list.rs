//! The list `j` / `k` walk (URL `from=`), as the trajectory view's question names it (the
//! worker builds it: [`runlens_core::trajectory::walk_list`]).

use runlens_core::trajectory::{FailuresScope, WalkFrom};

use crate::state::ViewState;

/// The failures view's filters in the view state `s` (what its list keeps).
pub fn failures_scope(s: &ViewState) -> FailuresScope {
    FailuresScope {
        filter: s.filter.clone(),
        models: s.models.clone(),
        conf: (s.conf_min, s.conf_max),
    }
}

/// The list a trajectory walks under the view state `s`: its `from`, and only what that
/// list depends on (a change of anything else, the open cell mostly, keeps the list).
pub fn walk_from(s: &ViewState) -> WalkFrom {
    let from = s.from.as_deref();
    WalkFrom {
        gate_model: (from == Some("gate"))
            .then(|| s.gate_model.clone().or_else(|| s.cell_model.clone()))
            .flatten(),
        question: (from == Some("question"))
            .then(|| s.trace.clone())
            .flatten(),
        failures: if from == Some("failures") {
            failures_scope(s)
        } else {
            FailuresScope::default()
        },
        from: s.from.clone(),
        cdf_threshold: s.cdf_threshold,
    }
}
