//! The views' questions ([`ViewQuery`]), as the page sends them to the loader worker (see
//! [`crate::derived::answers`] for who answers them).

use runlens_core::audit::AuditQuery;
use runlens_core::bundle::{FailureLabel, LossRule};
use runlens_core::metrics::failures_view::FailuresQuery;
use runlens_core::metrics::gate_view::GateQuery;
use runlens_core::metrics::matrix_view::MatrixQuery;
use runlens_core::metrics::ranking_view::RankingQuery;
use runlens_core::trajectory::{ChoicesQuery, TrajectoryQuery};
use serde::{Deserialize, Serialize};

/// A view's question.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "view", rename_all = "snake_case")]
pub enum ViewQuery {
    /// The ranking view's section and question rows
    /// ([`runlens_core::metrics::ranking_view::RankingAnswer`]).
    Ranking(RankingQuery),
    /// One question of the ranking view in full
    /// ([`runlens_core::metrics::ranking_view::QuestionAnswer`]).
    RankingQuestion {
        /// The view's choices.
        query: RankingQuery,
        /// The question.
        trace_id: String,
    },
    /// The gate view's groups ([`runlens_core::metrics::gate_view::GateAnswer`]).
    Gate(GateQuery),
    /// One model's fired gate rows (a list of `GateRow`).
    GateFired {
        /// Corpus name.
        corpus: String,
        /// Model key.
        model: String,
    },
    /// The failures view's aggregates and list length
    /// ([`runlens_core::metrics::failures_view::FailuresAnswer`]).
    Failures(FailuresQuery),
    /// Rows `[start, end)` of the failures view's list (a list of
    /// [`runlens_core::metrics::failures_view::ListRow`]).
    FailuresPage {
        /// The view's choices.
        query: FailuresQuery,
        /// First row.
        start: usize,
        /// One past the last row.
        end: usize,
    },
    /// The failures view's whole list as CSV (a JSON string).
    FailuresCsv(FailuresQuery),
    /// The matrix view's columns and counts
    /// ([`runlens_core::metrics::matrix_view::MatrixAnswer`]).
    Matrix(MatrixQuery),
    /// Rows `[start, end)` of the matrix (a list of
    /// [`runlens_core::metrics::matrix_view::MatrixRow`]).
    MatrixPage {
        /// The view's choices.
        query: MatrixQuery,
        /// First row.
        start: usize,
        /// One past the last row.
        end: usize,
    },
    /// The audit view's queue ([`runlens_core::audit::AuditAnswer`]).
    Audit(AuditQuery),
    /// The trajectory view's open cell and its place in its list
    /// ([`runlens_core::trajectory::TrajectoryAnswer`]).
    Trajectory(TrajectoryQuery),
    /// The trajectory chooser's questions (a list of [`runlens_core::trajectory::Choice`]).
    TrajectoryChoices(ChoicesQuery),
    /// Every corpus's leaderboard under a `loss` rule (a list of
    /// [`runlens_core::metrics::board_run::CorpusBoard`]).
    Boards {
        /// How legacy `loss` cells are scored.
        loss: LossRule,
    },
    /// Every corpus pooled into one board under a `loss` rule (an `Option` of
    /// [`runlens_core::metrics::board_run::PooledBoard`]: none with fewer than two corpora).
    PooledBoard {
        /// How legacy `loss` cells are scored.
        loss: LossRule,
    },
    /// Every corpus's pass-rate scores under a `loss` rule (a
    /// [`runlens_core::metrics::run_scores::RunScores`]): what the compare view reads of each
    /// of its two runs.
    Scores {
        /// How legacy `loss` cells are scored.
        loss: LossRule,
    },
    /// One cell in full with its question (an `Option` of
    /// [`runlens_core::trajectory::OpenedCell`], labels as the bundle records them): the
    /// audit queue's item.
    Cell {
        /// Corpus name.
        corpus: String,
        /// Model key.
        model: String,
        /// Trace id.
        trace: String,
    },
    /// What putting `after` in force instead of `before` changes in `corpus`'s labels (a
    /// [`runlens_core::overrides::WhatChanged`]): the "what changed" line after an Apply,
    /// an import or a link.
    WhatChanged {
        /// Corpus name.
        corpus: String,
        /// The new labels in force before the change, in order.
        before: Vec<FailureLabel>,
        /// The new labels in force after it, in order.
        after: Vec<FailureLabel>,
    },
}

impl ViewQuery {
    /// Whether the rows read ahead of a v2 bundle's whole (its questions, rankings, labels
    /// and gate rows: [`runlens_core::bundle::v2::read_early_tables`]) answer it; a ranking
    /// question's list of cells, the matrix and the audit queue (which read the cells'
    /// outcomes and votes), the trajectory view's questions and the leaderboards, pooled or not, and the scores (cells) need the whole
    /// bundle (a v2 summary carries the leaderboards before it).
    pub fn answered_early(&self) -> bool {
        !matches!(
            self,
            ViewQuery::RankingQuestion { .. }
                | ViewQuery::Matrix(_)
                | ViewQuery::MatrixPage { .. }
                | ViewQuery::Audit(_)
                | ViewQuery::Trajectory(_)
                | ViewQuery::TrajectoryChoices(_)
                | ViewQuery::Cell { .. }
                | ViewQuery::Boards { .. }
                | ViewQuery::PooledBoard { .. }
                | ViewQuery::Scores { .. }
        )
    }
}
