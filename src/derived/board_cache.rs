//! The leaderboard rows of each corpus and `loss` rule, kept across mounts (per bundle). They
//! come from the data's owner: the rows the worker sends right after a load
//! ([`crate::loader::boards`], under the default rule) or a v2 summary's, else the answer
//! to the leaderboard's question ([`ViewQuery::Boards`]: every corpus under a rule,
//! computed where the bundle lives). The page never builds them.

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::Arc;

use runlens_core::bundle::{Bundle, LossRule};
use runlens_core::metrics::board_run::CorpusBoard;
use runlens_core::metrics::report_board::LeaderboardEntry;

use super::answers::{ViewQuery, ask};
use crate::loader::boards;
use crate::per_bundle::{Loaded, PerBundle, loaded};

/// The rows of one corpus, by pass descending.
pub type Rows = Arc<Vec<LeaderboardEntry>>;

/// Rows are kept by corpus name and the rule that scored legacy `loss` cells.
type Key = (String, LossRule);

thread_local! {
    /// The rows of each corpus received or answered.
    static CACHE: RefCell<PerBundle<Loaded, HashMap<Key, Rows>>> = RefCell::default();
}

/// Runs `f` on the rows kept for `bundle`.
fn with_cache<T>(bundle: &Arc<Bundle>, f: impl FnOnce(&mut HashMap<Key, Rows>) -> T) -> T {
    CACHE.with_borrow_mut(|c| f(c.of(loaded(bundle))))
}

/// The kept rows of the corpus named `name` under `loss`, if answered or received from the
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

/// Asks the data's owner for every corpus's board under `loss` and keeps the rows: each
/// corpus's name and rows, in bundle order.
pub async fn ask_boards(
    bundle: &Arc<Bundle>,
    loss: LossRule,
) -> Result<Vec<(String, Rows)>, String> {
    let answer: Vec<CorpusBoard> = ask(bundle, ViewQuery::Boards { loss })
        .await
        .map_err(|e| e.to_string())?;
    Ok(answer
        .into_iter()
        .map(|b| {
            let rows = keep(bundle, &b.corpus, loss, b.rows);
            (b.corpus, rows)
        })
        .collect())
}
