//! Summary first: for a `runlens.bundle/2`, the worker computes each corpus's leaderboard from
//! its `cells` columns alone (core's `v2::facts`) as soon as the entries are in, and sends it
//! with the manifest's bundle head ([`super::protocol::FromWorker::Summary`]); the page shows
//! the leaderboard from it while the worker reads the rest. The other views wait for the
//! whole bundle.

use std::sync::Arc;

use runlens_core::bundle::v2::facts::{cells_path, model_columns_plain};
use runlens_core::bundle::v2::{Manifest, MemoryEntries, V2Error, head_bundle};
use runlens_core::bundle::{Bundle, LossRule};
use runlens_core::metrics::board_run::{CorpusBoard, rows_of_columns};
use runlens_core::metrics::report_board::LeaderboardEntry;
use serde::{Deserialize, Serialize};

use super::skeleton::{read_skeleton, skeleton_json};

/// One corpus's leaderboard rows ahead of its rows.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CorpusSummary {
    /// Corpus name.
    pub name: String,
    /// Result rows (questions) of the corpus.
    pub questions: usize,
    /// Rows under each `loss` rule computed: the default one, and "as fail" when the corpus
    /// has legacy `loss` cells (the only case in which the leaderboard offers the switch).
    pub boards: Vec<(LossRule, Vec<LeaderboardEntry>)>,
}

impl CorpusSummary {
    /// The rows under `loss`, if computed.
    pub fn rows(&self, loss: LossRule) -> Option<&Vec<LeaderboardEntry>> {
        self.boards.iter().find(|(l, _)| *l == loss).map(|(_, r)| r)
    }
}

/// Worker side: the summary message's body, the skeleton's JSON followed by the corpora's,
/// and the skeleton's length; `None` when some rows would not come back exactly from JSON
/// (serde_json writes a non-finite number as `null`): the page then waits for the bundle.
/// The `cells` entries must be checked against the manifest and inflated already
/// (`super::v2::check_and_inflate`).
pub fn encode(
    manifest: &Manifest,
    entries: &MemoryEntries,
) -> Result<Option<(Vec<u8>, usize)>, V2Error> {
    let head = head_bundle(manifest)?;
    let mut corpora = Vec::with_capacity(manifest.corpora.len());
    for info in &manifest.corpora {
        let path = cells_path(info);
        let Some(plain) = entries.0.get(&path) else {
            return Err(V2Error::Missing { path });
        };
        let rows = |loss| {
            model_columns_plain(info, plain, loss)
                .map(|columns| rows_of_columns(&head.body, &columns))
        };
        let default = rows(LossRule::Excluded)?;
        let mut boards = Vec::new();
        if default.iter().any(|r| r.row.loss_cells > 0) {
            boards.push((LossRule::AsFail, rows(LossRule::AsFail)?));
        }
        boards.insert(0, (LossRule::Excluded, default));
        corpora.push(CorpusSummary {
            name: info.name.clone(),
            questions: info.rows.get("results").copied().unwrap_or(0) as usize,
            boards,
        });
    }
    let Ok(json) = serde_json::to_vec(&corpora) else {
        return Ok(None);
    };
    if serde_json::from_slice::<Vec<CorpusSummary>>(&json)
        .ok()
        .as_ref()
        != Some(&corpora)
    {
        return Ok(None);
    }
    let mut body = skeleton_json(&head);
    let skeleton_len = body.len();
    body.extend_from_slice(&json);
    Ok(Some((body, skeleton_len)))
}

/// The page's summary: the bundle head and the corpora's leaderboards.
#[derive(Debug, Clone)]
pub struct Summary {
    /// The head (corpora named, with their models, without rows).
    pub skeleton: Arc<Bundle>,
    /// Each corpus's leaderboard rows.
    pub corpora: Arc<Vec<CorpusSummary>>,
}

impl Summary {
    /// Every corpus's board under `loss`, as [`ViewQuery::Boards`] answers it: a corpus
    /// without legacy `loss` cells has the same rows under both rules (the summary computed
    /// its default ones only).
    ///
    /// [`ViewQuery::Boards`]: super::view_query::ViewQuery::Boards
    pub fn boards(&self, loss: LossRule) -> Vec<CorpusBoard> {
        self.corpora
            .iter()
            .filter(|c| c.questions > 0)
            .map(|c| CorpusBoard {
                corpus: c.name.clone(),
                questions: c.questions,
                rows: c
                    .rows(loss)
                    .or_else(|| c.rows(LossRule::default()))
                    .cloned()
                    .unwrap_or_default(),
            })
            .collect()
    }
}

/// Page side: reads a summary message's body.
pub fn decode(body: &[u8], skeleton_len: usize) -> Result<Summary, String> {
    let (skeleton, corpora) = body
        .split_at_checked(skeleton_len)
        .ok_or("loader: a summary shorter than its skeleton")?;
    let skeleton = read_skeleton(skeleton)?;
    let corpora: Vec<CorpusSummary> = serde_json::from_slice(corpora)
        .map_err(|e| format!("loader: a malformed summary ({e})"))?;
    Ok(Summary {
        skeleton: Arc::new(skeleton),
        corpora: Arc::new(corpora),
    })
}
