//! The leaderboard rows the worker computes from the full bundle right after handing it over
//! ([`super::protocol::FromWorker::Boards`]): the page's leaderboard shows them instead of
//! building its own in slices ([`crate::pages::board_cache`]), the last step of the first
//! view after a load.

use std::sync::Arc;

use runlens_core::bundle::{Bundle, LossRule};
use runlens_core::metrics::board_run::BoardRun;
use runlens_core::metrics::report_board::LeaderboardEntry;

use super::summary::Summary;
use crate::pages::board_cache;

/// Rows of one corpus, by corpus name.
type Boards = Vec<(String, Vec<LeaderboardEntry>)>;

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
                board_cache::keep_if_missing(bundle, &corpus.name, *loss, rows);
            }
        }
    }
}

/// Page side: keeps the rows in `json` for `bundle` (corpora it has, not yet built); returns
/// how many corpora were kept. Malformed JSON keeps nothing: the page builds the rows itself.
pub fn install(bundle: &Arc<Bundle>, json: &[u8]) -> usize {
    let Ok(boards) = serde_json::from_slice::<Boards>(json) else {
        return 0;
    };
    boards
        .into_iter()
        .filter(|(name, _)| bundle.body.corpora.iter().any(|c| &c.name == name))
        .filter(|(name, rows)| {
            board_cache::keep_if_missing(bundle, name, LossRule::default(), rows)
        })
        .count()
}
