//! The leaderboards of each `loss` rule, kept across mounts (per bundle). They come from the
//! data's owner: the boards the worker sends right after a load ([`crate::loader::boards`],
//! under the default rule) or a v2 summary's, else the answer to the leaderboard's question
//! ([`ViewQuery::Boards`]: every corpus under a rule, computed where the bundle lives). The
//! page never builds them.

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::Arc;

use runlens_core::bundle::{Bundle, LossRule};
use runlens_core::metrics::board_run::{CorpusBoard, PooledBoard};

use super::answers::{ViewQuery, ask};
use crate::loader::boards;
use crate::per_bundle::{Loaded, PerBundle, loaded};

/// Every corpus's board under one rule, in bundle order.
pub type Boards = Arc<Vec<CorpusBoard>>;

/// The corpora pooled into one board under one rule (none with fewer than two corpora).
pub type Pooled = Arc<Option<PooledBoard>>;

thread_local! {
    /// The boards of each rule received or answered.
    static CACHE: RefCell<PerBundle<Loaded, HashMap<LossRule, Boards>>> = RefCell::default();
    /// The pooled board of each rule answered.
    static POOLED: RefCell<PerBundle<Loaded, HashMap<LossRule, Pooled>>> = RefCell::default();
}

/// Runs `f` on the boards kept for `bundle`.
fn with_cache<T>(bundle: &Arc<Bundle>, f: impl FnOnce(&mut HashMap<LossRule, Boards>) -> T) -> T {
    CACHE.with_borrow_mut(|c| f(c.of(loaded(bundle))))
}

/// The boards kept for `bundle` under `loss`, if answered or received from the loader.
pub fn cached(bundle: &Arc<Bundle>, loss: LossRule) -> Option<Boards> {
    if let Some(hit) = with_cache(bundle, |c| c.get(&loss).cloned()) {
        return Some(hit);
    }
    let received = boards::received(bundle, loss)?;
    Some(keep(bundle, loss, received))
}

fn keep(bundle: &Arc<Bundle>, loss: LossRule, boards: Vec<CorpusBoard>) -> Boards {
    let boards = Arc::new(boards);
    with_cache(bundle, |c| c.insert(loss, boards.clone()));
    boards
}

/// Asks the data's owner for every corpus's board under `loss` and keeps them.
pub async fn ask_boards(bundle: &Arc<Bundle>, loss: LossRule) -> Result<Boards, String> {
    let answer: Vec<CorpusBoard> = ask(bundle, ViewQuery::Boards { loss })
        .await
        .map_err(|e| e.to_string())?;
    Ok(keep(bundle, loss, answer))
}

/// The pooled board kept for `bundle` under `loss`, if answered.
pub fn cached_pooled(bundle: &Arc<Bundle>, loss: LossRule) -> Option<Pooled> {
    POOLED.with_borrow_mut(|c| c.of(loaded(bundle)).get(&loss).cloned())
}

/// Asks the data's owner for the corpora pooled into one board under `loss` and keeps it.
pub async fn ask_pooled(bundle: &Arc<Bundle>, loss: LossRule) -> Result<Pooled, String> {
    let answer: Option<PooledBoard> = ask(bundle, ViewQuery::PooledBoard { loss })
        .await
        .map_err(|e| e.to_string())?;
    let answer = Arc::new(answer);
    POOLED.with_borrow_mut(|c| c.of(loaded(bundle)).insert(loss, answer.clone()));
    Ok(answer)
}
