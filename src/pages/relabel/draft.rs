//! An editable copy of a [`SystemOneRequest`]: every state field, instruction and option as
//! text. `RequestDraft::from_request(r).to_request()` gives `r` back exactly for the
//! harness's requests (string instructions and option descriptions).

use indexmap::IndexMap;
use runlens_core::jev::{
    NoulCriteria, Question, SystemOneRequest, error_message, validate_request,
};
use serde_json::{Map, Value};

/// One state field's value as edited.
#[derive(Debug, Clone, PartialEq)]
pub enum FieldValue {
    /// A string, edited as plain text.
    Text(String),
    /// A list of strings (SQL, results), one text box per item.
    Lines(Vec<String>),
    /// Anything else (numbers, null, objects), edited as JSON text.
    Json(String),
}

/// The three question types.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Yes/no.
    Noul,
    /// One of several labelled options.
    Choice,
    /// An ordered rubric.
    Score,
}

impl Kind {
    /// The wire tag.
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Noul => "noul",
            Kind::Choice => "choice",
            Kind::Score => "score",
        }
    }
}

/// One question as edited. `options` are `(label, description)` for a choice and
/// `("", level description)` for a score; a noul has none.
#[derive(Debug, Clone, PartialEq)]
pub struct QuestionDraft {
    /// Question id.
    pub id: String,
    /// Type.
    pub kind: Kind,
    /// Instruction text (empty = none).
    pub instructions: String,
    /// Options or levels.
    pub options: Vec<(String, String)>,
    /// A noul's criteria, kept as they were.
    pub noul_criteria: Option<NoulCriteria>,
}

impl QuestionDraft {
    /// A fresh question of `kind` with placeholder options.
    pub fn blank(id: String, kind: Kind) -> QuestionDraft {
        let options = match kind {
            Kind::Noul => Vec::new(),
            Kind::Choice => vec![("yes".into(), String::new()), ("no".into(), String::new())],
            Kind::Score => vec![
                (String::new(), "low".into()),
                (String::new(), "high".into()),
            ],
        };
        QuestionDraft {
            id,
            kind,
            instructions: String::new(),
            options,
            noul_criteria: None,
        }
    }
}

/// The whole request as edited.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RequestDraft {
    /// Model asked (empty = the server's default).
    pub model: String,
    /// State fields in order; a non-object state is one field named `""`.
    pub state: Vec<(String, FieldValue)>,
    /// Questions in order.
    pub questions: Vec<QuestionDraft>,
}

fn text_of(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        other => other.to_string(),
    }
}

fn field(value: &Value) -> FieldValue {
    match value {
        Value::String(s) => FieldValue::Text(s.clone()),
        Value::Array(items) if items.iter().all(Value::is_string) => {
            FieldValue::Lines(items.iter().map(text_of).collect())
        }
        other => FieldValue::Json(serde_json::to_string_pretty(other).unwrap_or_default()),
    }
}

impl RequestDraft {
    /// The draft of `request`.
    pub fn from_request(request: &SystemOneRequest) -> RequestDraft {
        let state = match &request.state {
            Value::Object(map) => map.iter().map(|(k, v)| (k.clone(), field(v))).collect(),
            other => vec![(String::new(), field(other))],
        };
        let questions = request
            .questions
            .iter()
            .map(|(id, q)| {
                let (kind, instructions, options, noul_criteria) = match q {
                    Question::Noul {
                        instructions,
                        criteria,
                    } => (Kind::Noul, instructions, Vec::new(), criteria.clone()),
                    Question::Choice {
                        instructions,
                        criteria,
                    } => {
                        let options = criteria.iter().map(|(k, v)| (k.clone(), text_of(v)));
                        (Kind::Choice, instructions, options.collect(), None)
                    }
                    Question::Score {
                        instructions,
                        criteria,
                    } => {
                        let levels = criteria.iter().map(|v| (String::new(), text_of(v)));
                        (Kind::Score, instructions, levels.collect(), None)
                    }
                };
                QuestionDraft {
                    id: id.clone(),
                    kind,
                    instructions: instructions.as_ref().map(text_of).unwrap_or_default(),
                    options,
                    noul_criteria,
                }
            })
            .collect();
        RequestDraft {
            model: request.model.clone().unwrap_or_default(),
            state,
            questions,
        }
    }

    /// The request, checked with the API's own validation; errors name the field.
    pub fn to_request(&self) -> Result<SystemOneRequest, String> {
        let mut state = Map::new();
        for (key, value) in &self.state {
            let value = match value {
                FieldValue::Text(s) => Value::from(s.as_str()),
                FieldValue::Lines(items) => Value::from(
                    items
                        .iter()
                        .map(|s| Value::from(s.as_str()))
                        .collect::<Vec<_>>(),
                ),
                FieldValue::Json(text) => serde_json::from_str(text).map_err(|e| {
                    format!("state field \"{key}\" is not valid JSON ({e}); quote text as \"...\"")
                })?,
            };
            if key.is_empty() && self.state.len() == 1 {
                return self.finish(value);
            }
            state.insert(key.clone(), value);
        }
        self.finish(Value::Object(state))
    }

    fn finish(&self, state: Value) -> Result<SystemOneRequest, String> {
        let mut questions = IndexMap::new();
        for q in &self.questions {
            let instructions =
                (!q.instructions.is_empty()).then(|| Value::from(q.instructions.as_str()));
            let question = match q.kind {
                Kind::Noul => Question::Noul {
                    instructions,
                    criteria: q.noul_criteria.clone(),
                },
                Kind::Choice => Question::Choice {
                    instructions,
                    criteria: q
                        .options
                        .iter()
                        .map(|(label, d)| {
                            let d = if d.is_empty() {
                                Value::Null
                            } else {
                                Value::from(d.as_str())
                            };
                            (label.clone(), d)
                        })
                        .collect(),
                },
                Kind::Score => Question::Score {
                    instructions,
                    criteria: q
                        .options
                        .iter()
                        .map(|(_, d)| Value::from(d.as_str()))
                        .collect(),
                },
            };
            if questions.insert(q.id.clone(), question).is_some() {
                return Err(format!("two questions have the id \"{}\"", q.id));
            }
        }
        let request = SystemOneRequest {
            model: (!self.model.trim().is_empty()).then(|| self.model.trim().to_owned()),
            state,
            questions,
        };
        let body = serde_json::to_value(&request).map_err(|e| e.to_string())?;
        validate_request(&body).map_err(|e| {
            error_message(&e.body()).unwrap_or_else(|| "the request is not valid".to_owned())
        })?;
        Ok(request)
    }
}
