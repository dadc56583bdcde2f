//! The leaderboard rows the worker computes from the full bundle right after handing it over
//! ([`super::protocol::FromWorker::Boards`]), and those of a v2 summary shown before the
//! bundle arrived: the page keeps them here, and its leaderboard takes them instead of
//! building its own in slices ([`crate::derived::board_cache`]).

use std::cell::RefCell;
use std::sync::Arc;

use runlens_core::bundle::{Bundle, LossRule};
use runlens_core::metrics::board_run::BoardRun;
use runlens_core::metrics::report_board::LeaderboardEntry;

use super::summary::Summary;
use crate::per_bundle::{Loaded, loaded};

/// Rows of one corpus, by corpus name.
type Boards = Vec<(String, Vec<LeaderboardEntry>)>;

/// Rows received for one loaded bundle: by corpus name and `loss` rule, the first kept.
type Received = Option<(Loaded, Vec<(String, LossRule, Vec<LeaderboardEntry>)>)>;

thread_local! {
    static RECEIVED: RefCell<Received> = const { RefCell::new(None) };
}

/// Keeps `rows` for `bundle` unless rows of that corpus and rule are kept already (rows kept
/// for another bundle are dropped); whether they were kept.
fn keep_if_missing(
    bundle: &Arc<Bundle>,
    name: &str,
    loss: LossRule,
    rows: &[LeaderboardEntry],
) -> bool {
    let owner = loaded(bundle);
    RECEIVED.with_borrow_mut(|r| {
        if r.as_ref().is_none_or(|(o, _)| *o != owner) {
            *r = Some((owner, Vec::new()));
        }
        let kept = &mut r.as_mut().expect("set above").1;
        if kept.iter().any(|(n, l, _)| n == name && *l == loss) {
            return false;
        }
        kept.push((name.to_owned(), loss, rows.to_vec()));
        true
    })
}

/// Page side: the rows received for `bundle`'s corpus `name` under `loss`, if any.
pub fn received(bundle: &Arc<Bundle>, name: &str, loss: LossRule) -> Option<Vec<LeaderboardEntry>> {
    let owner = loaded(bundle);
    RECEIVED.with_borrow(|r| {
        let (o, kept) = r.as_ref()?;
        (*o == owner)
            .then(|| kept.iter().find(|(n, l, _)| n == name && *l == loss))
            .flatten()
            .map(|(_, _, rows)| rows.clone())
    })
}

/// Worker side: the rows of every corpus as JSON, under the default `loss` rule. A corpus whose rows would not come back
/// exactly (serde_json writes a non-finite number as `null`) is left out; the page builds it.
pub fn json(bundle: &Bundle) -> Vec<u8> {
    let boards: Boards = bundle
        .body
        .corpora
        .iter()
        .filter_map(|corpus| {
            let rows = BoardRun::new(&bundle.body, corpus, LossRule::default()).finish();
            let json = serde_json::to_vec(&rows).ok()?;
            let back: Vec<LeaderboardEntry> = serde_json::from_slice(&json).ok()?;
            (back == rows).then(|| (corpus.name.clone(), rows))
        })
        .collect();
    serde_json::to_vec(&boards).unwrap_or_default()
}

/// Page side: keeps the rows of a summary shown before `bundle` arrived (every rule it
/// computed) for `bundle`, so its leaderboard shows them at once.
pub fn install_summary(bundle: &Arc<Bundle>, summary: &Summary) {
    for corpus in summary.corpora.iter() {
        if bundle.body.corpora.iter().any(|c| c.name == corpus.name) {
            for (loss, rows) in &corpus.boards {
                keep_if_missing(bundle, &corpus.name, *loss, rows);
            }
        }
    }
}

/// Page side: keeps the rows in `json` for `bundle` (corpora it has, not yet received);
/// returns how many corpora were kept. Malformed JSON keeps nothing: the page builds the rows itself.
pub fn install(bundle: &Arc<Bundle>, json: &[u8]) -> usize {
    let Ok(boards) = serde_json::from_slice::<Boards>(json) else {
        return 0;
    };
    boards
        .into_iter()
        .filter(|(name, _)| bundle.body.corpora.iter().any(|c| &c.name == name))
        .filter(|(name, rows)| keep_if_missing(bundle, name, LossRule::default(), rows))
        .count()
}
