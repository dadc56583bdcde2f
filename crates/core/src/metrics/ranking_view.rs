//! What the table-ranking view shows for one choice of corpus, gold rule, k and threshold,
//! computed where the bundle lives (the dashboard's loader worker, or the page for a bundle
//! it holds itself) and sent to the view as a [`RankingAnswer`]: the section, the question
//! rows without their per-table scores, and one question's full row on demand
//! ([`QuestionAnswer`]). A view never holds the ranking rows themselves.

use std::collections::HashMap;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::gold_tables::{GoldRule, TableMatcher};
use super::question_rows::{QuestionRow, QuestionRowsRun};
use super::report::ReportOptions;
use super::report_retrieval::{
    RetrievalInputs, RetrievalInputsRun, RetrievalSection, retrieval_section_with,
};
use super::stepwise::Stepwise;
use crate::bundle::{BundleBody, Corpus};

/// Name of the pooled corpus (every corpus with ranking rows).
pub const POOLED: &str = "all corpora";

/// Question rows kept per answerer before its row cache is emptied (one per corpus, gold
/// rule and threshold asked for).
const MAX_ROW_SETS: usize = 8;

/// What the view asks for.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RankingQuery {
    /// The chosen corpus (`None`: none chosen); the shown one is [`RankingScope::shown`].
    pub corpus: Option<String>,
    /// The gold rule.
    pub gold: GoldRule,
    /// The largest k (clamped to `1..=k_limit`).
    pub k: usize,
    /// The high-confidence threshold.
    pub threshold: f64,
}

/// What can be chosen in a bundle.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RankingScope {
    /// Corpora with ranking rows, in bundle order.
    pub names: Vec<String>,
    /// The largest k: the longest `ranked` list or the universe, at least 1.
    pub k_limit: usize,
    /// Namespaces and some gold SQL exist, so the parser rule can be chosen.
    pub parser_available: bool,
}

impl RankingScope {
    /// The scope of `body`.
    pub fn of(body: &BundleBody) -> RankingScope {
        let with_rows: Vec<&Corpus> = body
            .corpora
            .iter()
            .filter(|c| !c.rankings.is_empty())
            .collect();
        RankingScope {
            names: with_rows.iter().map(|c| c.name.clone()).collect(),
            k_limit: with_rows
                .iter()
                .flat_map(|c| c.rankings.iter().map(|r| r.ranked.len()))
                .max()
                .unwrap_or(0)
                .max(body.universe.len())
                .max(1),
            parser_available: !body.namespaces.is_empty()
                && with_rows
                    .iter()
                    .any(|c| c.questions.iter().any(|q| !q.gt_sql.is_empty())),
        }
    }

    /// The corpus shown for the `chosen` one: it if it has rankings, else the only one with
    /// rankings, else all pooled (`None`).
    pub fn shown(&self, chosen: Option<&str>) -> Option<String> {
        shown_corpus(&self.names, chosen)
    }

    /// The report options of `q` (k clamped to `1..=k_limit`).
    pub fn options(&self, q: &RankingQuery) -> ReportOptions {
        ReportOptions {
            k_max: q.k.clamp(1, self.k_limit),
            gold_rule: q.gold,
            confidence_threshold: q.threshold,
            ..ReportOptions::default()
        }
    }
}

/// The corpus shown among `names` (the corpora with rankings) for the `chosen` one: it if
/// it is among them, else the only one, else all pooled (`None`).
pub fn shown_corpus(names: &[String], chosen: Option<&str>) -> Option<String> {
    match chosen {
        Some(c) if names.iter().any(|n| n == c) => Some(c.to_owned()),
        _ if names.len() == 1 => names.first().cloned(),
        _ => None,
    }
}

/// The answer to a [`RankingQuery`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RankingAnswer {
    /// What can be chosen.
    pub scope: RankingScope,
    /// The corpus shown (`None`: every corpus with rankings, pooled).
    pub shown: Option<String>,
    /// The section (`None` when the bundle has no ranking rows).
    pub section: Option<RetrievalSection>,
    /// One row per ranking row of the shown corpus, in row order, each **without** its
    /// per-table `scores` (a large run's scores are hundreds of MB; [`QuestionAnswer`] has
    /// one question's).
    pub rows: Vec<QuestionRow>,
}

/// One question of the shown corpus in full.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct QuestionAnswer {
    /// Its row with every ranked table's score (`None`: not among the ranking rows).
    pub row: Option<QuestionRow>,
    /// `(corpus, model, outcome)` of every cell on the question in the shown corpus (every
    /// corpus when pooled); `outcome` is `unscored` for a cell without one.
    pub cells: Vec<(String, String, String)>,
}

type InputsKey = (Option<String>, GoldRule);

/// Answers ranking queries on one bundle, keeping what depends only on the corpus and gold
/// rule (the SQL parsing) and the question rows per threshold between queries. Make a new
/// one for another bundle.
#[derive(Debug, Default)]
pub struct RankingAnswerer {
    scope: Option<RankingScope>,
    pooled: Option<Corpus>,
    inputs: HashMap<InputsKey, Arc<RetrievalInputs>>,
    /// Question rows without scores, per corpus, gold rule and threshold.
    rows: HashMap<(InputsKey, u64), Arc<Vec<QuestionRow>>>,
}

impl RankingAnswerer {
    /// The scope of `body` (computed once).
    pub fn scope(&mut self, body: &BundleBody) -> RankingScope {
        self.scope
            .get_or_insert_with(|| RankingScope::of(body))
            .clone()
    }

    /// The answer to `q`; `matcher` gives the bundle's table matcher when the SQL of a
    /// corpus must be parsed (not again for a corpus and gold rule already asked for).
    pub fn answer(
        &mut self,
        body: &BundleBody,
        matcher: &dyn Fn() -> Option<TableMatcher>,
        q: &RankingQuery,
    ) -> RankingAnswer {
        let scope = self.scope(body);
        let shown = scope.shown(q.corpus.as_deref());
        if scope.names.is_empty() {
            return RankingAnswer {
                scope,
                shown,
                section: None,
                rows: Vec::new(),
            };
        }
        let opts = scope.options(q);
        let key = (shown.clone(), q.gold);
        let inputs = self.inputs(body, matcher, &key);
        let rows = self.rows(body, &key, &inputs, q.threshold);
        let corpus = self.corpus(body, shown.as_deref());
        let section = corpus.map(|c| retrieval_section_with(body, c, &inputs, &opts));
        let rows = rows.as_ref().clone();
        RankingAnswer {
            scope,
            shown,
            section,
            rows,
        }
    }

    /// Question `trace_id` of the corpus `q` shows, in full.
    pub fn question(
        &mut self,
        body: &BundleBody,
        matcher: &dyn Fn() -> Option<TableMatcher>,
        q: &RankingQuery,
        trace_id: &str,
    ) -> QuestionAnswer {
        let scope = self.scope(body);
        let shown = scope.shown(q.corpus.as_deref());
        let row = if scope.names.is_empty() {
            None
        } else {
            let key = (shown.clone(), q.gold);
            let inputs = self.inputs(body, matcher, &key);
            let opts = ReportOptions {
                confidence_threshold: q.threshold,
                ..ReportOptions::default()
            };
            self.corpus(body, shown.as_deref()).and_then(|c| {
                let i = c.rankings.iter().position(|r| r.trace_id == trace_id)?;
                QuestionRowsRun::new(c, &inputs, &opts).row_at(i)
            })
        };
        QuestionAnswer {
            row,
            cells: question_cells(body, shown.as_deref(), trace_id),
        }
    }

    /// The corpus named `name`, or every corpus with rankings pooled for `None`.
    fn corpus<'a>(&'a mut self, body: &'a BundleBody, name: Option<&str>) -> Option<&'a Corpus> {
        match name {
            Some(n) => body.corpora.iter().find(|c| c.name == n),
            None => Some(self.pooled.get_or_insert_with(|| pooled(body))),
        }
    }

    fn inputs(
        &mut self,
        body: &BundleBody,
        matcher: &dyn Fn() -> Option<TableMatcher>,
        key: &InputsKey,
    ) -> Arc<RetrievalInputs> {
        if let Some(hit) = self.inputs.get(key) {
            return hit.clone();
        }
        let built = match self.corpus(body, key.0.as_deref()) {
            Some(c) => RetrievalInputsRun::with_matcher(c, key.1, matcher()).finish(),
            None => RetrievalInputs {
                gold_rule: key.1,
                golds: Vec::new(),
                differences: Vec::new(),
            },
        };
        let built = Arc::new(built);
        self.inputs.insert(key.clone(), built.clone());
        built
    }

    fn rows(
        &mut self,
        body: &BundleBody,
        key: &InputsKey,
        inputs: &RetrievalInputs,
        threshold: f64,
    ) -> Arc<Vec<QuestionRow>> {
        let at = (key.clone(), threshold.to_bits());
        if let Some(hit) = self.rows.get(&at) {
            return hit.clone();
        }
        let opts = ReportOptions {
            confidence_threshold: threshold,
            ..ReportOptions::default()
        };
        let rows = self
            .corpus(body, key.0.as_deref())
            .map(|c| {
                QuestionRowsRun::new(c, inputs, &opts)
                    .without_scores()
                    .finish()
            })
            .unwrap_or_default();
        if self.rows.len() >= MAX_ROW_SETS {
            self.rows.clear();
        }
        let rows = Arc::new(rows);
        self.rows.insert(at, rows.clone());
        rows
    }
}

/// Every corpus with ranking rows pooled into one (rankings and questions, in bundle order).
fn pooled(body: &BundleBody) -> Corpus {
    let with: Vec<&Corpus> = body
        .corpora
        .iter()
        .filter(|c| !c.rankings.is_empty())
        .collect();
    Corpus {
        name: POOLED.into(),
        rankings: with.iter().flat_map(|c| c.rankings.clone()).collect(),
        questions: with.iter().flat_map(|c| c.questions.clone()).collect(),
        ..Corpus::default()
    }
}

/// `(corpus, model, outcome)` of every cell on question `trace` in corpus `corpus` (every
/// corpus for `None`), in corpus, row and candidate order.
pub fn question_cells(
    body: &BundleBody,
    corpus: Option<&str>,
    trace: &str,
) -> Vec<(String, String, String)> {
    let mut out = Vec::new();
    for c in body
        .corpora
        .iter()
        .filter(|c| corpus.is_none_or(|n| c.name == n))
    {
        for (i, _) in c
            .results
            .iter()
            .enumerate()
            .filter(|(_, r)| r.trace_id == trace)
        {
            for (model, cell) in c.row_cells(i).iter() {
                if let Some(cell) = cell {
                    let outcome = cell.outcome().map_or("unscored", |o| o.as_str());
                    out.push((c.name.clone(), model.to_string(), outcome.to_owned()));
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests;
