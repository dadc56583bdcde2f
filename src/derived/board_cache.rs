//! The leaderboard rows of each corpus and `loss` rule, kept across mounts (per bundle) and, on large
//! corpora, built in slices that yield to the browser so that opening the view does not
//! freeze the page. After a load the worker sends the rows it computed from the full bundle
//! ([`crate::loader::boards`], under the default rule); they are taken instead of a build,
//! and a build in progress stops at its next slice when they are in.

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::Ordering;

use leptos::prelude::*;
use leptos::task::spawn_local;

use runlens_core::bundle::{Bundle, Corpus, LossRule};
use runlens_core::metrics::board_run::BoardRun;
use runlens_core::metrics::report_board::LeaderboardEntry;

use crate::clock::now_ms;
use crate::loader::boards;
use crate::per_bundle::{Loaded, PerBundle, loaded};
use crate::yield_now::{mounted_flag, yield_now};

/// Cells (questions × models) up to which a corpus is built at once, in the mount's task
/// (the sample's corpora, 2,720 and 4,020 cells, took ~50 ms each in the task that also
/// renders the first view after loading, so they are built in slices too).
pub const SYNC_CELLS: usize = 2_000;

/// Time one task may compute before yielding, ms.
const SLICE_MS: f64 = 30.0;

/// The rows of one corpus, by pass descending.
pub type Rows = Arc<Vec<LeaderboardEntry>>;

/// Rows are kept by corpus name and the rule that scored legacy `loss` cells.
type Key = (String, LossRule);

thread_local! {
    /// The rows of each built corpus.
    static CACHE: RefCell<PerBundle<Loaded, HashMap<Key, Rows>>> = RefCell::default();
}

/// Runs `f` on the rows kept for `bundle`.
fn with_cache<T>(bundle: &Arc<Bundle>, f: impl FnOnce(&mut HashMap<Key, Rows>) -> T) -> T {
    CACHE.with_borrow_mut(|c| f(c.of(loaded(bundle))))
}

/// The cached rows of the corpus named `name` under `loss`, if built or received from the
/// loader.
pub fn cached(bundle: &Arc<Bundle>, name: &str, loss: LossRule) -> Option<Rows> {
    if let Some(hit) = with_cache(bundle, |c| c.get(&(name.to_owned(), loss)).cloned()) {
        return Some(hit);
    }
    let rows = boards::received(bundle, name, loss)?;
    Some(keep(bundle, name, loss, rows))
}

fn keep(bundle: &Arc<Bundle>, name: &str, loss: LossRule, rows: Vec<LeaderboardEntry>) -> Rows {
    let rows = Arc::new(rows);
    with_cache(bundle, |c| c.insert((name.to_owned(), loss), rows.clone()));
    rows
}

/// Whether the corpus is small enough to build at once.
pub fn is_small(corpus: &Corpus) -> bool {
    corpus.results.len().saturating_mul(corpus.models.len()) <= SYNC_CELLS
}

/// The rows of `corpus` under `loss` (cached, or built at once and cached).
pub fn rows_now(bundle: &Arc<Bundle>, corpus: &Corpus, loss: LossRule) -> Rows {
    if let Some(hit) = cached(bundle, &corpus.name, loss) {
        return hit;
    }
    let rows = BoardRun::new(&bundle.body, corpus, loss).finish();
    keep(bundle, &corpus.name, loss, rows)
}

/// Builds the rows of the corpus named `name` in slices of about [`SLICE_MS`] (one model's
/// column or row per step), reporting `(done, total)` before each yield; `None` when
/// `alive()` turned false (the view left) or there is no such corpus.
pub async fn rows_in_steps(
    bundle: Arc<Bundle>,
    name: String,
    loss: LossRule,
    alive: impl Fn() -> bool,
    progress: impl Fn(usize, usize),
) -> Option<Rows> {
    if let Some(hit) = cached(&bundle, &name, loss) {
        return Some(hit);
    }
    let corpus = bundle.body.corpora.iter().find(|c| c.name == name)?;
    let mut run = BoardRun::new(&bundle.body, corpus, loss);
    let mut start = now_ms();
    while !run.step(1) {
        if now_ms() - start > SLICE_MS {
            progress(run.done(), run.len());
            yield_now().await;
            if !alive() {
                return None;
            }
            // The loader worker's rows may have come in meanwhile.
            if let Some(hit) = cached(&bundle, &name, loss) {
                return Some(hit);
            }
            start = now_ms();
        }
    }
    let rows = run.finish();
    Some(keep(&bundle, &name, loss, rows))
}

/// Builds the `(index, corpus, work)` boards not yet built under `loss`, one after the other,
/// in slices; stops when the view leaves.
pub fn build_pending(
    bundle: Arc<Bundle>,
    loss: LossRule,
    pending: Vec<(usize, String, usize)>,
    boards: RwSignal<Vec<Option<Rows>>>,
    progress: RwSignal<Option<(String, usize, usize)>>,
) {
    let alive = mounted_flag();
    spawn_local(async move {
        let is_alive = || alive.load(Ordering::Relaxed);
        // Not in the mounting task (after a load, that task also rendered the whole page).
        yield_now().await;
        let last = pending.len().saturating_sub(1);
        for (n, (i, name, _)) in pending.into_iter().enumerate() {
            let report = |done, total| {
                if is_alive() {
                    progress.set(Some((name.clone(), done, total)));
                }
            };
            let rows = rows_in_steps(bundle.clone(), name.clone(), loss, is_alive, report);
            let Some(rows) = rows.await else { return };
            // The board renders in a task of its own, not after the corpus's last slice.
            yield_now().await;
            if !is_alive() {
                return;
            }
            boards.update(|b| {
                if let Some(slot) = b.get_mut(i) {
                    *slot = Some(rows);
                }
            });
            if n == last {
                // Every board is there: the notice goes in the same render.
                progress.set(None);
                return;
            }
            // Nor with the next corpus's first slice.
            yield_now().await;
            if !is_alive() {
                return;
            }
        }
        // Nothing was pending.
        if is_alive() {
            progress.set(None);
        }
    });
}
