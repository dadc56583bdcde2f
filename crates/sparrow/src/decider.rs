//! [`Decider`]: the loaded model and the Jev-shaped `answer` call.

use crate::SparrowError;
use crate::answer::answer_object;
use crate::archive::read_model_files;
use crate::model::{Kind, StaticModel};
use crate::question::ParsedQuestion;
use crate::text::content_text;
use crate::wordpiece::WordPiece;
use indexmap::IndexMap;
use serde_json::Value;

/// The `sparrow-nano-general-v1.1.sparrow` file of PyPI `sparrow-decider` 0.2.0, unchanged
/// (see `assets/PROVENANCE.md`).
pub static EMBEDDED_MODEL: &[u8] = include_bytes!("../assets/sparrow-nano-general-v1.1.sparrow");

/// The loaded decision model. Immutable after loading: `Send + Sync`, share it in an `Arc`.
///
/// ```
/// use runlens_sparrow::{Decider, MODEL_ID};
/// let decider = Decider::load_embedded().unwrap();
/// assert_eq!(decider.model_name(), MODEL_ID);
/// let questions = serde_json::from_value(serde_json::json!({
///     "team": {"type": "choice", "instructions": "Which team should handle this?",
///              "criteria": {"billing": "refunds and charges", "technical": "bugs and outages"}}
/// })).unwrap();
/// let answers = decider.answer(&serde_json::json!("I was charged twice"), &questions).unwrap();
/// assert_eq!(answers["team"]["type"], "choice");
/// ```
#[derive(Debug, Clone)]
pub struct Decider {
    name: String,
    max_len: usize,
    tokenizer: WordPiece,
    model: StaticModel,
}

impl Decider {
    /// Loads the model compiled into this crate (inflate, parse, dequantise).
    pub fn load_embedded() -> Result<Decider, SparrowError> {
        Decider::from_sparrow_bytes("sparrow-nano-general-v1.1.sparrow", EMBEDDED_MODEL)
    }

    /// Loads a `.sparrow` archive held in memory; `archive` names it in errors. Only the
    /// static architecture with `kv` off is supported (an error otherwise).
    pub fn from_sparrow_bytes(archive: &str, bytes: &[u8]) -> Result<Decider, SparrowError> {
        let files = read_model_files(archive, bytes)?;
        let model = StaticModel::from_files(&files)?;
        let rows = model.vocab_size();
        if let Some((token, id)) = files.vocab.iter().find(|(_, id)| **id as usize >= rows) {
            return Err(SparrowError::Config {
                file: "tokenizer.json".into(),
                message: format!("token {token:?} has id {id}, but the table has {rows} rows"),
            });
        }
        let tokenizer = WordPiece::new(files.vocab).ok_or_else(|| SparrowError::Config {
            file: "tokenizer.json".into(),
            message: "the vocabulary has no [UNK] token".into(),
        })?;
        Ok(Decider {
            name: files.config.name.clone(),
            max_len: files.config.max_len,
            tokenizer,
            model,
        })
    }

    /// The model id from `config.json` (`sparrow-nano-general-v1.1` for the embedded one).
    pub fn model_name(&self) -> &str {
        &self.name
    }

    /// Token ids of `text` as the model reads it (WordPiece, at most 512, no `[CLS]`/`[SEP]`).
    pub fn tokenize(&self, text: &str) -> Vec<u32> {
        self.tokenizer.encode(text, self.max_len)
    }

    /// Answers a Jev request's questions against one state, returning Jev answer objects
    /// (`{"type":"noul","noul":p}`,
    /// `{"type":"choice","choice":k,"confidence":c,"probabilities":{..}}`,
    /// `{"type":"score","score":x,"confidence":c,"legend":{"0":..},"probabilities":{"0":..}}`)
    /// keyed by the same ids, in the same order.
    ///
    /// The state is tokenized and pooled once per call, whatever the number of questions.
    /// Content (state, instructions, descriptions, levels) may be a string (read stripped), an
    /// object or array (read as `json.dumps(indent=2, ensure_ascii=False)` text, keys in the
    /// `Value`'s order) or null (empty text). A choice with a single option answers it with
    /// probability 1 and confidence 1 without running the model. Formulas and rounding: see
    /// [`crate::answer`]. Returns an error, never panics, on a question that is not an object,
    /// an unknown `type`, or criteria of the wrong shape (see [`crate::question`]).
    pub fn answer(
        &self,
        state: &Value,
        questions: &IndexMap<String, Value>,
    ) -> Result<IndexMap<String, Value>, SparrowError> {
        let parsed = questions
            .iter()
            .map(|(id, q)| ParsedQuestion::parse(id, q).map(|p| (id, p)))
            .collect::<Result<Vec<_>, _>>()?;
        let s = self.state_vector(state);
        Ok(parsed
            .into_iter()
            .map(|(id, q)| {
                let probs = self.probabilities_for(&s, &q);
                (id.clone(), answer_object(&q, &probs))
            })
            .collect())
    }

    /// Unrounded option probabilities of one question, in option order (for parity tests and
    /// callers that want more than 4 decimals).
    pub fn question_probabilities(
        &self,
        state: &Value,
        id: &str,
        question: &Value,
    ) -> Result<Vec<f32>, SparrowError> {
        let parsed = ParsedQuestion::parse(id, question)?;
        Ok(self.probabilities_for(&self.state_vector(state), &parsed))
    }

    /// The unit state vector `s`.
    fn state_vector(&self, state: &Value) -> Vec<f32> {
        self.model.pooled_unit(&self.tokenize(&content_text(state)))
    }

    fn probabilities_for(&self, s: &[f32], q: &ParsedQuestion) -> Vec<f32> {
        if q.kind == Kind::Choice && q.options.len() == 1 {
            return vec![1.0];
        }
        let qv = self
            .model
            .question_vector(&self.tokenize(&q.instructions), q.kind);
        let options: Vec<Vec<f32>> = q
            .options
            .iter()
            .map(|(name, desc)| {
                self.model
                    .pooled_unit(&self.tokenize(&format!("{name} {desc}")))
            })
            .collect();
        self.model.probabilities(s, &qv, &options, q.kind)
    }
}
