//! The `local` backend: an embedded offline model answering in Jev's shapes.

use std::sync::Arc;

use axum::body::Bytes;
use indexmap::IndexMap;
use serde::Serialize;
use serde_json::Value;

use runlens_core::jev::confidence::{choice_confidence, score_confidence};

use crate::error::ProxyError;

/// Top-level field added to every local answer (`x_runlens_notice`: extension fields carry the
/// `x_` prefix) so the UI can warn next to it.
pub const LOCAL_NOTICE: &str = "offline model, low accuracy; set TYPESAFE_API_KEY for Jev";

/// An offline decision model (the embedded sparrow model, or a test double).
pub trait LocalModel: Send + Sync + 'static {
    /// The id reported as `model` in answers.
    fn model_id(&self) -> &str;
    /// Answers validated questions about `state`, keyed by the same ids, in order.
    fn answer(
        &self,
        state: &Value,
        questions: &IndexMap<String, Value>,
    ) -> Result<IndexMap<String, Value>, String>;
}

impl LocalModel for runlens_sparrow::Decider {
    fn model_id(&self) -> &str {
        self.model_name()
    }

    fn answer(
        &self,
        state: &Value,
        questions: &IndexMap<String, Value>,
    ) -> Result<IndexMap<String, Value>, String> {
        runlens_sparrow::Decider::answer(self, state, questions).map_err(|err| err.to_string())
    }
}

#[derive(Serialize)]
struct LocalResponse<'a> {
    model: &'a str,
    answers: IndexMap<String, Value>,
    usage: runlens_core::jev::Usage,
    x_runlens_notice: &'static str,
}

/// Runs `model` on a blocking thread and returns the JSON response body
/// (`model`, `answers`, zero `usage`, `x_runlens_notice`). Choice and score answers carry the
/// reference `confidence` of their probabilities ([`reference_confidence`]), not the ported
/// model's own number.
pub async fn answer_locally(
    model: Arc<dyn LocalModel>,
    state: Value,
    questions: IndexMap<String, Value>,
) -> Result<Bytes, ProxyError> {
    tokio::task::spawn_blocking(move || {
        let mut answers = model
            .answer(&state, &questions)
            .map_err(ProxyError::LocalModel)?;
        answers.values_mut().for_each(reference_confidence);
        let response = LocalResponse {
            model: model.model_id(),
            answers,
            usage: runlens_core::jev::Usage::default(),
            x_runlens_notice: LOCAL_NOTICE,
        };
        serde_json::to_vec(&response)
            .map(Bytes::from)
            .map_err(|err| ProxyError::Internal(format!("serialising local answer: {err}")))
    })
    .await
    .map_err(|err| ProxyError::Internal(format!("local model worker: {err}")))?
}

/// Replaces a choice or score answer's `confidence` with the reference formula applied to its
/// `probabilities` ([`runlens_core::jev::confidence`]), rounded to 4 decimals like every number
/// of a local answer. Other answers, and answers without probabilities, are left as they are.
///
/// ```
/// use runlens_proxy::local::reference_confidence;
/// let mut score = serde_json::json!({"type": "score", "score": 0.8495, "confidence": 0.2849,
///     "probabilities": {"0": 0.1505, "1": 0.8495}});
/// reference_confidence(&mut score);
/// assert_eq!(score["confidence"], 0.699); // 1 − 0.1505 / 0.5
/// ```
pub fn reference_confidence(answer: &mut Value) {
    let kind = answer
        .get("type")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let Some(probabilities) = answer
        .get("probabilities")
        .and_then(Value::as_object)
        .filter(|p| !p.is_empty())
    else {
        return;
    };
    let confidence = match kind {
        "choice" => {
            let p: Option<Vec<f64>> = probabilities.values().map(Value::as_f64).collect();
            p.map(|p| choice_confidence(&p))
        }
        "score" => {
            let mut levels: Vec<(usize, f64)> = Vec::with_capacity(probabilities.len());
            for (level, p) in probabilities {
                match (level.parse::<usize>(), p.as_f64()) {
                    (Ok(level), Some(p)) => levels.push((level, p)),
                    _ => return,
                }
            }
            levels.sort_by_key(|(level, _)| *level);
            let in_order = levels.iter().enumerate().all(|(i, (level, _))| i == *level);
            in_order.then(|| score_confidence(&levels.iter().map(|(_, p)| *p).collect::<Vec<_>>()))
        }
        _ => None,
    };
    if let (Some(confidence), Some(object)) = (confidence, answer.as_object_mut()) {
        let rounded = (confidence * 1e4).round() / 1e4;
        object.insert("confidence".to_owned(), Value::from(rounded));
    }
}
