//! A run's pass-rate scores, all a comparison of two runs reads ([`super::compare`]): per
//! corpus, its questions' keys, its models and each model's score per question. The app's
//! loader worker answers them for the bundle it holds, so the page compares two runs without
//! either run's rows; the CLI builds them from the bundles it read. Both then compare with the
//! same code.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::leaderboard::scores;
use super::report_board::model_column;
use crate::bundle::{Bundle, Corpus, LossRule};

/// One model's scores in question order: pass 1, tie 0.5, fail 0, `None` for no score
/// (`error` cells, cells the model did not run, and legacy `loss` cells unless scored as
/// fail). On the wire, one character a question: `p`, `t`, `f` or `.` (a run of 5,000
/// questions is 5 kB a model, not 60).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ScoreColumn(pub Vec<Option<f64>>);

impl ScoreColumn {
    /// The code of one score (a cell's score is 1, 0.5 or 0; anything else would be
    /// written as none).
    fn code(score: Option<f64>) -> char {
        match score {
            Some(1.0) => 'p',
            Some(0.5) => 't',
            Some(0.0) => 'f',
            _ => '.',
        }
    }

    /// Reads the wire form; `Err` names the first character that is not a code.
    pub fn parse(codes: &str) -> Result<ScoreColumn, String> {
        codes
            .chars()
            .enumerate()
            .map(|(i, c)| match c {
                'p' => Ok(Some(1.0)),
                't' => Ok(Some(0.5)),
                'f' => Ok(Some(0.0)),
                '.' => Ok(None),
                other => Err(format!(
                    "score {}: `{other}` is not a score code (expected p, t, f or .)",
                    i + 1
                )),
            })
            .collect::<Result<_, _>>()
            .map(ScoreColumn)
    }

    /// The wire form.
    pub fn codes(&self) -> String {
        self.0.iter().map(|&s| Self::code(s)).collect()
    }
}

impl Serialize for ScoreColumn {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.codes())
    }
}

impl<'de> Deserialize<'de> for ScoreColumn {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<ScoreColumn, D::Error> {
        let codes = String::deserialize(d)?;
        ScoreColumn::parse(&codes).map_err(serde::de::Error::custom)
    }
}

/// One corpus's scores.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CorpusScores {
    /// Corpus name.
    pub name: String,
    /// Each question's `trace_id`, in the corpus's row order.
    pub trace_ids: Vec<String>,
    /// Model keys, in the corpus's order.
    pub models: Vec<String>,
    /// One column per model, in `models`' order, each as long as `trace_ids`.
    pub scores: Vec<ScoreColumn>,
}

impl CorpusScores {
    /// The scores of `corpus`, legacy `loss` cells scored as `loss` says.
    pub fn of(corpus: &Corpus, loss: LossRule) -> CorpusScores {
        CorpusScores {
            name: corpus.name.clone(),
            trace_ids: corpus.results.iter().map(|r| r.trace_id.clone()).collect(),
            models: corpus.models.clone(),
            scores: (0..corpus.models.len())
                .map(|i| ScoreColumn(scores(&model_column(corpus, i, loss))))
                .collect(),
        }
    }
}

/// A run's scores: its content hash and every corpus's scores.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunScores {
    /// The bundle's content hash.
    pub content_hash: String,
    /// Every corpus, in the bundle's order.
    pub corpora: Vec<CorpusScores>,
}

impl RunScores {
    /// The scores of `bundle`, legacy `loss` cells scored as `loss` says.
    pub fn of(bundle: &Bundle, loss: LossRule) -> RunScores {
        RunScores {
            content_hash: bundle.content_hash.clone(),
            corpora: bundle
                .body
                .corpora
                .iter()
                .map(|c| CorpusScores::of(c, loss))
                .collect(),
        }
    }

    /// The corpus named `name`.
    pub fn corpus(&self, name: &str) -> Option<&CorpusScores> {
        self.corpora.iter().find(|c| c.name == name)
    }

    /// The corpora's names, in order.
    pub fn names(&self) -> Vec<String> {
        self.corpora.iter().map(|c| c.name.clone()).collect()
    }
}
