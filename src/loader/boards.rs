//! The leaderboards the worker computes from the full bundle right after handing it over
//! ([`super::protocol::FromWorker::Boards`]), and those of a v2 summary shown before the
//! bundle arrived: the page keeps them here, and its leaderboard takes them instead of
//! asking ([`crate::derived::board_cache`]).

use std::cell::RefCell;
use std::sync::Arc;

use runlens_core::bundle::{Bundle, LossRule};
use runlens_core::metrics::board_run::{CorpusBoard, boards};

use super::summary::Summary;
use crate::per_bundle::{Loaded, loaded};

/// The boards received for one loaded bundle, by `loss` rule.
type Received = Option<(Loaded, Vec<(LossRule, Vec<CorpusBoard>)>)>;

thread_local! {
    static RECEIVED: RefCell<Received> = const { RefCell::new(None) };
}

/// Keeps `boards` for `bundle` under `loss` unless boards of that rule are kept already
/// (boards kept for another bundle are dropped); whether they were kept.
fn keep_if_missing(bundle: &Arc<Bundle>, loss: LossRule, boards: Vec<CorpusBoard>) -> bool {
    let owner = loaded(bundle);
    RECEIVED.with_borrow_mut(|r| {
        if r.as_ref().is_none_or(|(o, _)| *o != owner) {
            *r = Some((owner, Vec::new()));
        }
        let kept = &mut r.as_mut().expect("set above").1;
        let missing = !kept.iter().any(|(l, _)| *l == loss);
        if missing {
            kept.push((loss, boards));
        }
        missing
    })
}

/// Page side: the boards received for `bundle` under `loss`, if any.
pub fn received(bundle: &Arc<Bundle>, loss: LossRule) -> Option<Vec<CorpusBoard>> {
    let owner = loaded(bundle);
    RECEIVED.with_borrow(|r| {
        let (o, kept) = r.as_ref()?;
        (*o == owner)
            .then(|| kept.iter().find(|(l, _)| *l == loss))
            .flatten()
            .map(|(_, boards)| boards.clone())
    })
}

/// Worker side: every corpus's board as JSON, under the default `loss` rule; empty when
/// some row would not come back exactly (serde_json writes a non-finite number as `null`):
/// the page then asks.
pub fn json(bundle: &Bundle) -> Vec<u8> {
    let boards = boards(&bundle.body, LossRule::default());
    let Ok(json) = serde_json::to_vec(&boards) else {
        return Vec::new();
    };
    let back: Option<Vec<CorpusBoard>> = serde_json::from_slice(&json).ok();
    if back.as_ref() == Some(&boards) {
        json
    } else {
        Vec::new()
    }
}

/// Page side: keeps the boards of a summary shown before `bundle` arrived (under both
/// rules) for `bundle`, so its leaderboard shows them at once.
pub fn install_summary(bundle: &Arc<Bundle>, summary: &Summary) {
    for loss in [LossRule::Excluded, LossRule::AsFail] {
        keep_if_missing(bundle, loss, summary.boards(loss));
    }
}

/// Page side: keeps the boards in `json` for `bundle` under the default rule, unless kept
/// already; whether they were kept. Anything but boards keeps nothing: the page asks.
pub fn install(bundle: &Arc<Bundle>, json: &[u8]) -> bool {
    let Ok(boards) = serde_json::from_slice::<Vec<CorpusBoard>>(json) else {
        return false;
    };
    keep_if_missing(bundle, LossRule::default(), boards)
}
