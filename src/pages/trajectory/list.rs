//! The list `j` / `k` walk (URL `from=`), as the trajectory view's question names it (the
//! worker builds it: [`runlens_core::trajectory::walk_list`]).

use runlens_core::trajectory::{FailuresScope, WalkFrom};

use crate::state::ViewState;

/// The failures view's filters in the view state `s` (what its list keeps).
pub fn failures_scope(s: &ViewState) -> FailuresScope {
    FailuresScope {
        filter: s.failures.filter.clone(),
        models: s.models.clone(),
        conf: (s.failures.conf_min, s.failures.conf_max),
    }
}

/// The list a trajectory walks under the view state `s`: its `from`, and only what that
/// list depends on (a change of anything else, the open cell mostly, keeps the list).
pub fn walk_from(s: &ViewState) -> WalkFrom {
    let from = s.trajectory.from.as_deref();
    WalkFrom {
        gate_model: (from == Some("gate"))
            .then(|| s.gate.model.clone().or_else(|| s.trajectory.model.clone()))
            .flatten(),
        question: (from == Some("question"))
            .then(|| s.trajectory.trace.clone())
            .flatten(),
        failures: if from == Some("failures") {
            failures_scope(s)
        } else {
            FailuresScope::default()
        },
        from: s.trajectory.from.clone(),
        cdf_threshold: s.failures.cdf_threshold,
    }
}
