//! Mounting the charts of a large failures view over several tasks: each stage (a chart or
//! two, with its element list) mounts and draws in its own task, with a yield to the browser
//! in between, so that opening the view never blocks the page for long.

use std::sync::atomic::Ordering;

use leptos::prelude::*;
use leptos::task::spawn_local;

use crate::yield_now::{mounted_flag, yield_now};

/// Failure labels above which the charts are mounted in stages (the unit-test fixtures are
/// smaller and mount at once).
pub const STAGED_LABELS: usize = 100;

/// The number of stages; the view is complete at this stage.
pub const STAGES: u8 = 5;

/// The current stage: [`STAGES`] at once for `n_labels ≤ STAGED_LABELS`, else 0, then one
/// more per task until [`STAGES`] (stops when the view leaves).
pub fn stage_signal(n_labels: usize) -> RwSignal<u8> {
    if n_labels <= STAGED_LABELS {
        return RwSignal::new(STAGES);
    }
    let stage = RwSignal::new(0);
    let alive = mounted_flag();
    spawn_local(async move {
        for k in 1..=STAGES {
            yield_now().await;
            if !alive.load(Ordering::Relaxed) {
                return;
            }
            stage.set(k);
        }
    });
    stage
}
