//! A report site's index of runs (`runs.json`, `runlens.site/1`, docs/site.md): written by
//! `runlens site`, read by the app's start page, whose trend view ([`trend`]) shows each
//! model's headline pass rate across the runs.

use serde::{Deserialize, Serialize};

/// `runs.json`'s format.
pub const SITE_FORMAT: &str = "runlens.site/1";

/// The index of runs (`OUT/runs.json`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunIndex {
    /// Always [`SITE_FORMAT`].
    pub format: String,
    /// The runs, in run order.
    pub runs: Vec<RunEntry>,
}

/// One run of the index.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunEntry {
    /// The run's name (its zip is `bundles/NAME.zip`).
    pub name: String,
    /// Its zip, relative to the site.
    pub file: String,
    /// `provenance.created_at`.
    pub created_at: String,
    /// The body's content hash.
    pub content_hash: String,
    /// Whether the data are synthetic.
    pub synthetic: bool,
    /// Each corpus with results: its questions and each model's headline figures.
    pub corpora: Vec<RunCorpus>,
}

/// One corpus of a run in the index.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunCorpus {
    /// Corpus name.
    pub name: String,
    /// Result rows.
    pub questions: usize,
    /// The leaderboard's rows (default `loss` rule), pass descending.
    pub models: Vec<RunModel>,
}

/// One model's headline figures (unrounded, as the leaderboard computes them).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunModel {
    /// Model key.
    pub model: String,
    /// Display name (the bundle's model registry); absent in indexes written before it was.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub display_name: Option<String>,
    /// Scored cells.
    pub n: usize,
    /// Pass rate.
    pub pass: Option<f64>,
    /// Its 95 % interval.
    pub ci95: Option<[f64; 2]>,
}

/// Why a `runs.json` could not be read: where (line and column when the JSON says) and
/// what was expected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IndexError(pub String);

impl std::fmt::Display for IndexError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "runs.json: {}", self.0)
    }
}

impl std::error::Error for IndexError {}

/// Reads `runs.json`'s text. Errors name the line, the column and what was expected;
/// another `format` is refused by name.
pub fn parse_index(text: &str) -> Result<RunIndex, IndexError> {
    let index: RunIndex = serde_json::from_str(text).map_err(|e| {
        IndexError(format!(
            "line {}, column {}: {e} (expected an index of runs, {SITE_FORMAT})",
            e.line(),
            e.column()
        ))
    })?;
    if index.format != SITE_FORMAT {
        return Err(IndexError(format!(
            "field `format`: `{}`, expected `{SITE_FORMAT}`",
            index.format
        )));
    }
    Ok(index)
}

/// `2026-12-01T09:30:00Z` as `2026-12-01 09:30 UTC`; any other text as it is.
pub fn readable_time(rfc3339: &str) -> String {
    let b = rfc3339.as_bytes();
    let shaped = b.len() == 20
        && b[4] == b'-'
        && b[7] == b'-'
        && b[10] == b'T'
        && b[13] == b':'
        && b[16] == b':'
        && b[19] == b'Z';
    if shaped {
        format!("{} {} UTC", &rfc3339[..10], &rfc3339[11..16])
    } else {
        rfc3339.to_owned()
    }
}

/// One model's figures in one run of a trend.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TrendPoint {
    /// Pass rate, 0..1.
    pub pass: f64,
    /// Its 95 % interval.
    pub ci95: Option<[f64; 2]>,
    /// Scored cells.
    pub n: usize,
}

/// One model across the runs of a trend.
#[derive(Debug, Clone, PartialEq)]
pub struct TrendModel {
    /// Model key.
    pub model: String,
    /// Display name (the newest run's that names it; the key when none does).
    pub name: String,
    /// One entry per run of the trend: `None` where the model has no pass rate.
    pub points: Vec<Option<TrendPoint>>,
}

/// Each model's pass rate on one corpus across the runs that have it, in run order.
#[derive(Debug, Clone, PartialEq)]
pub struct Trend {
    /// The corpus.
    pub corpus: String,
    /// Indexes into [`RunIndex::runs`] of the runs with this corpus, in run order.
    pub runs: Vec<usize>,
    /// The models, ordered by pass rate in the newest run that has them (descending), then
    /// by key.
    pub models: Vec<TrendModel>,
}

/// The corpora of `index`, in order of first appearance.
pub fn corpora(index: &RunIndex) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for c in index.runs.iter().flat_map(|r| &r.corpora) {
        if !out.contains(&c.name) {
            out.push(c.name.clone());
        }
    }
    out
}

/// The corpus a trend opens on: the one in most runs, then with the most questions in the
/// newest run that has it, then the first of equals.
pub fn default_corpus(index: &RunIndex) -> Option<String> {
    let score = |name: &str| {
        let runs = index
            .runs
            .iter()
            .filter(|r| r.corpora.iter().any(|c| c.name == name))
            .count();
        let questions = index
            .runs
            .iter()
            .rev()
            .find_map(|r| r.corpora.iter().find(|c| c.name == name))
            .map_or(0, |c| c.questions);
        (runs, questions)
    };
    let all = corpora(index);
    let best = all.iter().map(|c| score(c)).max()?;
    all.into_iter().find(|c| score(c) == best)
}

/// The trend of `corpus` over `index`.
///
/// Example: runs r1 {m: 0.5, k: 0.7} and r2 {m: 0.8} give runs [0, 1], models m (0.8 in r2)
/// then k (0.7 in r1), k's points [Some(0.7), None].
pub fn trend(index: &RunIndex, corpus: &str) -> Trend {
    let runs: Vec<usize> = index
        .runs
        .iter()
        .enumerate()
        .filter(|(_, r)| r.corpora.iter().any(|c| c.name == corpus))
        .map(|(i, _)| i)
        .collect();
    let corpus_of = |i: usize| index.runs[i].corpora.iter().find(|c| c.name == corpus);
    let mut models: Vec<TrendModel> = Vec::new();
    for (col, &i) in runs.iter().enumerate() {
        for m in corpus_of(i).map_or(&[][..], |c| &c.models[..]) {
            let at = match models.iter().position(|t| t.model == m.model) {
                Some(at) => at,
                None => {
                    models.push(TrendModel {
                        model: m.model.clone(),
                        name: m.model.clone(),
                        points: vec![None; runs.len()],
                    });
                    models.len() - 1
                }
            };
            if let Some(name) = &m.display_name {
                models[at].name = name.clone();
            }
            models[at].points[col] = m.pass.map(|pass| TrendPoint {
                pass,
                ci95: m.ci95,
                n: m.n,
            });
        }
    }
    let newest = |t: &TrendModel| t.points.iter().rev().find_map(|p| p.map(|p| p.pass));
    models.sort_by(|a, b| {
        newest(b)
            .unwrap_or(-1.0)
            .total_cmp(&newest(a).unwrap_or(-1.0))
            .then_with(|| a.model.cmp(&b.model))
    });
    Trend {
        corpus: corpus.to_owned(),
        runs,
        models,
    }
}

#[cfg(test)]
#[path = "site_tests.rs"]
mod tests;
