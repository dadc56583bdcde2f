//! Two runs compared (issue 21, docs/metrics.md "Comparing two runs"): per corpus of the same
//! name, questions matched by `trace_id` and models by key, each model's paired difference
//! in pass rate from run A to run B.

use std::collections::{HashMap, HashSet};
use std::fmt;

use serde::{Deserialize, Serialize};

use super::run_scores::{CorpusScores, RunScores, ScoreColumn};
use super::stats::{mean, normal_two_sided_p, sample_std};
use crate::bundle::{Bundle, LossRule};

/// One model's paired difference over the questions scored in both runs.
///
/// ## Definition
/// A question's score is the leaderboard's (pass 1, tie 0.5, fail 0; `error` cells and,
/// under the default rule, legacy `loss` cells have none). Over the `n` questions with a
/// score in both runs, `d = score_B − score_A`: `delta = mean(d)`,
/// `se = std(d, ddof 1) / √n`, `p = 2·(1 − Φ(|delta / se|))`. `n = 0` leaves every mean
/// undefined; `n = 1` leaves `se` and `p` undefined; `se = 0` gives `p = 1` when every `d`
/// is 0, else 0 (as the leaderboard's paired test). `improved` / `regressed` count `d > 0` /
/// `d < 0`.
/// ## Example
/// A = (1, 0, 0.5, 1), B = (1, 1, 1, 0): d = (0, 1, 0.5, −1), delta = 0.5 / 4 = 0.125.
/// ```
/// use runlens_core::metrics::compare::paired_delta;
/// let a = [1.0, 0.0, 0.5, 1.0].map(Some);
/// let b = [1.0, 1.0, 1.0, 0.0].map(Some);
/// let d = paired_delta(&a, &b);
/// assert_eq!((d.n, d.delta, d.improved, d.regressed), (4, Some(0.125), 2, 1));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct PairedDelta {
    /// Questions with a score in both runs.
    pub n: usize,
    /// Mean score in A over those questions.
    pub pass_a: Option<f64>,
    /// Mean score in B over those questions.
    pub pass_b: Option<f64>,
    /// Mean of `score_B − score_A`.
    pub delta: Option<f64>,
    /// Standard error of `delta`.
    pub se: Option<f64>,
    /// Two-sided normal p of `delta / se`.
    pub p: Option<f64>,
    /// Questions whose score rose from A to B.
    pub improved: usize,
    /// Questions whose score fell.
    pub regressed: usize,
}

impl PairedDelta {
    /// The normal 95% interval of `delta`, `delta ± 1.96·se` (none without both).
    pub fn interval95(&self) -> Option<(f64, f64)> {
        let (d, se) = (self.delta?, self.se?);
        Some((d - 1.96 * se, d + 1.96 * se))
    }
}

/// [`PairedDelta`] of aligned scores (`None`: no score); pairs past the shorter side are
/// ignored.
pub fn paired_delta(a: &[Option<f64>], b: &[Option<f64>]) -> PairedDelta {
    let pairs: Vec<(f64, f64)> = a
        .iter()
        .zip(b)
        .filter_map(|(x, y)| Some(((*x)?, (*y)?)))
        .collect();
    let d: Vec<f64> = pairs.iter().map(|(x, y)| y - x).collect();
    let n = d.len();
    let side = |pick: fn(&(f64, f64)) -> f64| mean(&pairs.iter().map(pick).collect::<Vec<_>>());
    let delta = mean(&d);
    let se = sample_std(&d).map(|sd| sd / (n as f64).sqrt());
    let p = match (delta, se) {
        (Some(m), Some(0.0)) => Some(if m == 0.0 { 1.0 } else { 0.0 }),
        (Some(m), Some(se)) => Some(normal_two_sided_p(m / se)),
        _ => None,
    };
    PairedDelta {
        n,
        pass_a: side(|p| p.0),
        pass_b: side(|p| p.1),
        delta,
        se,
        p,
        improved: d.iter().filter(|&&x| x > 0.0).count(),
        regressed: d.iter().filter(|&&x| x < 0.0).count(),
    }
}

/// One model in both runs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ModelDelta {
    /// Model key.
    pub model: String,
    /// Its paired difference.
    #[serde(flatten)]
    pub delta: PairedDelta,
}

/// One corpus of both runs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CorpusCompare {
    /// Corpus name.
    pub name: String,
    /// Questions (by `trace_id`) in both runs.
    pub questions: usize,
    /// Models in both runs, in A's order.
    pub models: Vec<ModelDelta>,
    /// Models only A ran, in A's order.
    pub only_in_a: Vec<String>,
    /// Models only B ran, in B's order.
    pub only_in_b: Vec<String>,
}

/// Two runs compared: the corpora of both, in A's order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunCompare {
    /// The corpora compared.
    pub corpora: Vec<CorpusCompare>,
}

/// Why two runs cannot be compared.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CompareError {
    /// Both are the same run (same content hash).
    SameRun {
        /// The content hash.
        hash: String,
    },
    /// The corpus asked for is not in a run.
    NoSuchCorpus {
        /// `A` or `B`.
        run: char,
        /// The corpus asked for.
        corpus: String,
        /// The run's corpora.
        has: Vec<String>,
    },
    /// No corpus name is in both.
    NoCorpusInCommon {
        /// A's corpora.
        a: Vec<String>,
        /// B's corpora.
        b: Vec<String>,
    },
    /// The corpora in both share no question.
    NoSharedQuestions {
        /// The corpora in both.
        corpora: Vec<String>,
    },
    /// A question key twice in one corpus: questions could not be matched.
    DuplicateQuestion {
        /// `A` or `B`.
        run: char,
        /// The corpus.
        corpus: String,
        /// The key.
        trace_id: String,
    },
}

impl fmt::Display for CompareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CompareError::SameRun { hash } => write!(
                f,
                "both bundles are the same run (content hash {hash}): there is nothing to compare"
            ),
            CompareError::NoSuchCorpus { run, corpus, has } => write!(
                f,
                "run {run} has no corpus `{corpus}` (it has: {})",
                has.join(", ")
            ),
            CompareError::NoCorpusInCommon { a, b } => write!(
                f,
                "the runs have no corpus in common (A: {}; B: {}): questions are compared \
                 within a corpus of the same name",
                a.join(", "),
                b.join(", ")
            ),
            CompareError::NoSharedQuestions { corpora } => write!(
                f,
                "the runs share no question in {} (questions are matched by trace_id)",
                corpora.join(", ")
            ),
            CompareError::DuplicateQuestion {
                run,
                corpus,
                trace_id,
            } => write!(
                f,
                "run {run}, corpus `{corpus}`: trace_id `{trace_id}` is on two result rows, so \
                 its questions cannot be matched"
            ),
        }
    }
}

impl std::error::Error for CompareError {}

/// Compares run `a` with run `b` (every corpus of both, or only `corpus`), legacy `loss`
/// cells scored as `loss` says.
pub fn compare_runs(
    a: &Bundle,
    b: &Bundle,
    loss: LossRule,
    corpus: Option<&str>,
) -> Result<RunCompare, CompareError> {
    if a.content_hash == b.content_hash {
        return Err(CompareError::SameRun {
            hash: a.content_hash.clone(),
        });
    }
    compare_scores(&RunScores::of(a, loss), &RunScores::of(b, loss), corpus)
}

/// Compares two runs' scores (every corpus of both, or only `corpus`): [`compare_runs`] once
/// each run's scores are read, which the app's loader workers answer for the bundles they hold.
pub fn compare_scores(
    a: &RunScores,
    b: &RunScores,
    corpus: Option<&str>,
) -> Result<RunCompare, CompareError> {
    if a.content_hash == b.content_hash {
        return Err(CompareError::SameRun {
            hash: a.content_hash.clone(),
        });
    }
    let pairs: Vec<(&CorpusScores, &CorpusScores)> = match corpus {
        Some(name) => vec![(find_corpus('A', a, name)?, find_corpus('B', b, name)?)],
        None => a
            .corpora
            .iter()
            .filter_map(|ca| Some((ca, b.corpus(&ca.name)?)))
            .collect(),
    };
    if pairs.is_empty() {
        return Err(CompareError::NoCorpusInCommon {
            a: a.names(),
            b: b.names(),
        });
    }
    let corpora = pairs
        .into_iter()
        .map(|(ca, cb)| compare_corpus(ca, cb))
        .collect::<Result<Vec<_>, _>>()?;
    if corpora.iter().all(|c| c.questions == 0) {
        return Err(CompareError::NoSharedQuestions {
            corpora: corpora.into_iter().map(|c| c.name).collect(),
        });
    }
    Ok(RunCompare { corpora })
}

/// `run`'s corpus `name` (of run `which`), or an error listing its corpora.
fn find_corpus<'a>(
    which: char,
    run: &'a RunScores,
    name: &str,
) -> Result<&'a CorpusScores, CompareError> {
    run.corpus(name).ok_or_else(|| CompareError::NoSuchCorpus {
        run: which,
        corpus: name.to_owned(),
        has: run.names(),
    })
}

/// The rows of `corpus` by `trace_id`; a key on two rows is an error.
fn rows_by_key(run: char, corpus: &CorpusScores) -> Result<HashMap<&str, usize>, CompareError> {
    let mut at = HashMap::with_capacity(corpus.trace_ids.len());
    for (i, key) in corpus.trace_ids.iter().enumerate() {
        if at.insert(key.as_str(), i).is_some() {
            return Err(CompareError::DuplicateQuestion {
                run,
                corpus: corpus.name.clone(),
                trace_id: key.clone(),
            });
        }
    }
    Ok(at)
}

/// One corpus of both runs compared.
fn compare_corpus(a: &CorpusScores, b: &CorpusScores) -> Result<CorpusCompare, CompareError> {
    // A key on two rows of A is an error as in B, though only B's rows are looked up.
    rows_by_key('A', a)?;
    let in_b = rows_by_key('B', b)?;
    // (row in A, row in B) of each question in both, in A's order.
    let matched: Vec<(usize, usize)> = a
        .trace_ids
        .iter()
        .enumerate()
        .filter_map(|(i, key)| Some((i, *in_b.get(key.as_str())?)))
        .collect();
    let models_b: HashMap<&str, usize> = b
        .models
        .iter()
        .enumerate()
        .map(|(i, m)| (m.as_str(), i))
        .collect();
    let models_a: HashSet<&str> = a.models.iter().map(String::as_str).collect();
    let none = ScoreColumn::default();
    let models = a
        .models
        .iter()
        .enumerate()
        .filter_map(|(ia, model)| {
            let ib = *models_b.get(model.as_str())?;
            let (sa, sb) = (
                &a.scores.get(ia).unwrap_or(&none).0,
                &b.scores.get(ib).unwrap_or(&none).0,
            );
            let at = |s: &[Option<f64>], i: usize| s.get(i).copied().flatten();
            let (xa, xb): (Vec<Option<f64>>, Vec<Option<f64>>) =
                matched.iter().map(|&(i, j)| (at(sa, i), at(sb, j))).unzip();
            Some(ModelDelta {
                model: model.clone(),
                delta: paired_delta(&xa, &xb),
            })
        })
        .collect();
    Ok(CorpusCompare {
        name: a.name.clone(),
        questions: matched.len(),
        models,
        only_in_a: a
            .models
            .iter()
            .filter(|m| !models_b.contains_key(m.as_str()))
            .cloned()
            .collect(),
        only_in_b: b
            .models
            .iter()
            .filter(|m| !models_a.contains(m.as_str()))
            .cloned()
            .collect(),
    })
}

#[cfg(test)]
#[path = "compare_tests.rs"]
mod tests;
