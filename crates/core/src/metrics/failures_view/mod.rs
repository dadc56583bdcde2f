//! What the failures view shows, computed where the bundle lives (the dashboard's loader
//! worker) and sent to the view: the aggregates of the rows under the base filter (corpus,
//! models, sub-mode confidence range), the `correct_despite_fail` count above a threshold,
//! the length of the list under the clicked-element filter `f`, and pages of that list or
//! the whole of it as CSV. Re-labels the reader applied travel with each question
//! ([`Relabel`]) and count as the bundle's labels do.

mod filter;
mod list;
mod rows;
mod summary;

use serde::{Deserialize, Serialize};

pub use filter::{Filter, MODEL_SEP, bin_of};
pub use list::{CSV_HEADER, ListRow, list_csv, list_page};
pub use rows::{BINS, BaseFilter, FailRow, Labelled, all_rows};
pub use summary::{FailuresSummary, RuleVerdicts, cdf_above, summarise};

use crate::bundle::BundleBody;
pub use crate::overrides::Relabel;
use crate::overrides::RelabelledLabels;

/// What the view asks for.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FailuresQuery {
    /// Corpus, models, confidence range. A corpus without failure labels counts as none
    /// chosen (every corpus).
    pub base: BaseFilter,
    /// The clicked element, `f=` ([`Filter`]); an unknown one lists every row.
    pub filter: Option<String>,
    /// The `correct_despite_fail` threshold of the headline count.
    pub cdf_threshold: f64,
    /// Re-labels in force, in the order applied.
    pub relabels: Vec<Relabel>,
}

/// The answer to a [`FailuresQuery`].
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct FailuresAnswer {
    /// Corpora with failure labels, in bundle order (empty: the bundle has none).
    pub corpora: Vec<String>,
    /// Models with failure labels in the chosen corpus (every corpus when none), first seen
    /// first: key and display name.
    pub models: Vec<(String, String)>,
    /// The aggregates of the rows under the base filter.
    pub summary: FailuresSummary,
    /// Those rows with `correct_despite_fail ≥ cdf_threshold`.
    pub above: usize,
    /// Rows in the list (the base filter and `f`).
    pub listed: usize,
    /// Whether `f` was understood (an unknown one is ignored).
    pub filter_known: bool,
}

/// Answers failures queries on one bundle, keeping the rows (per set of re-labels) and the
/// last lists between questions. Make a new one for another bundle.
#[derive(Debug, Default)]
pub struct FailuresAnswerer {
    relabelled: RelabelledLabels,
    rows: Vec<FailRow>,
    kept: Option<(BaseFilter, Vec<FailRow>)>,
    listed: Option<(BaseFilter, Option<String>, Vec<FailRow>)>,
}

impl FailuresAnswerer {
    /// The answer to `q`.
    pub fn answer(&mut self, body: &BundleBody, q: &FailuresQuery) -> FailuresAnswer {
        let base = self.prepare(body, q);
        let listed = self.listed(body, &base, q.filter.as_deref()).len();
        self.kept(body, &base);
        let kept = self.kept.as_ref().map_or(&[][..], |(_, rows)| rows);
        let b = Labelled::with(body, self.relabelled.labels());
        let corpora = b.corpora_with_labels();
        let mut models: Vec<(String, String)> = Vec::new();
        for (i, c) in body.corpora.iter().enumerate() {
            if base.corpus.as_deref().is_none_or(|n| n == c.name) {
                for l in b.labels(i) {
                    if !models.iter().any(|(k, _)| *k == l.model) {
                        let name = body.display_name(&l.model).to_owned();
                        models.push((l.model.clone(), name));
                    }
                }
            }
        }
        let summary = summarise(b, kept, &base);
        let above = cdf_above(b, kept, q.cdf_threshold);
        let filter_known = q
            .filter
            .as_deref()
            .is_none_or(|f| Filter::parse(f).is_some());
        FailuresAnswer {
            corpora,
            models,
            summary,
            above,
            listed,
            filter_known,
        }
    }

    /// Rows `[start, end)` of the list of `q`.
    pub fn page(
        &mut self,
        body: &BundleBody,
        q: &FailuresQuery,
        start: usize,
        end: usize,
    ) -> Vec<ListRow> {
        let base = self.prepare(body, q);
        self.listed(body, &base, q.filter.as_deref());
        let listed = self.listed.as_ref().map_or(&[][..], |(_, _, l)| l);
        list_page(
            Labelled::with(body, self.relabelled.labels()),
            listed,
            start,
            end,
        )
    }

    /// The whole list of `q` as CSV ([`list_csv`]).
    pub fn csv(&mut self, body: &BundleBody, q: &FailuresQuery) -> String {
        let base = self.prepare(body, q);
        self.listed(body, &base, q.filter.as_deref());
        let listed = self.listed.as_ref().map_or(&[][..], |(_, _, l)| l);
        list_csv(Labelled::with(body, self.relabelled.labels()), listed)
    }

    /// Puts `q`'s re-labels in force (rebuilding the rows when they changed) and returns its
    /// base filter with a corpus lacking labels taken as none.
    fn prepare(&mut self, body: &BundleBody, q: &FailuresQuery) -> BaseFilter {
        if self.relabelled.put(body, &q.relabels) {
            self.rows = all_rows(Labelled::with(body, self.relabelled.labels()));
            self.kept = None;
            self.listed = None;
        }
        let b = Labelled::with(body, self.relabelled.labels());
        let has_labels = |name: &str| {
            body.corpora
                .iter()
                .position(|c| c.name == name)
                .is_some_and(|i| !b.labels(i).is_empty())
        };
        BaseFilter {
            corpus: q.base.corpus.clone().filter(|n| has_labels(n)),
            ..q.base.clone()
        }
    }

    /// The rows `base` keeps (kept for the next question).
    fn kept(&mut self, body: &BundleBody, base: &BaseFilter) -> &[FailRow] {
        if self.kept.as_ref().is_none_or(|(k, _)| k != base) {
            let b = Labelled::with(body, self.relabelled.labels());
            let rows = self.rows.iter().filter(|r| base.keeps(b, r)).copied();
            self.kept = Some((base.clone(), rows.collect()));
        }
        self.kept.as_ref().map_or(&[], |(_, rows)| rows)
    }

    /// The rows `base` keeps that `filter` matches (all of them for no or an unknown filter).
    fn listed(&mut self, body: &BundleBody, base: &BaseFilter, filter: Option<&str>) -> &[FailRow] {
        let same = |(k, f, _): &(BaseFilter, Option<String>, Vec<FailRow>)| {
            k == base && f.as_deref() == filter
        };
        if !self.listed.as_ref().is_some_and(same) {
            let parsed = filter.and_then(Filter::parse);
            let kept = self.kept(body, base).to_vec();
            let b = Labelled::with(body, self.relabelled.labels());
            let rows = match parsed {
                Some(f) => kept.into_iter().filter(|r| f.matches(b, r)).collect(),
                None => kept,
            };
            self.listed = Some((base.clone(), filter.map(str::to_owned), rows));
        }
        self.listed.as_ref().map_or(&[], |(_, _, rows)| rows)
    }
}

#[cfg(test)]
mod tests;
