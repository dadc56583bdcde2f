//! The `local` backend: an embedded offline model answering in Jev's shapes.

use std::sync::Arc;

use axum::body::Bytes;
use indexmap::IndexMap;
use serde::Serialize;
use serde_json::Value;

use crate::error::ProxyError;

/// Top-level field added to every local answer so the UI can warn next to it.
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
    runlens_notice: &'static str,
}

/// Runs `model` on a blocking thread and returns the JSON response body
/// (`model`, `answers`, zero `usage`, `runlens_notice`).
pub async fn answer_locally(
    model: Arc<dyn LocalModel>,
    state: Value,
    questions: IndexMap<String, Value>,
) -> Result<Bytes, ProxyError> {
    tokio::task::spawn_blocking(move || {
        let answers = model
            .answer(&state, &questions)
            .map_err(ProxyError::LocalModel)?;
        let response = LocalResponse {
            model: model.model_id(),
            answers,
            usage: runlens_core::jev::Usage::default(),
            runlens_notice: LOCAL_NOTICE,
        };
        serde_json::to_vec(&response)
            .map(Bytes::from)
            .map_err(|err| ProxyError::Internal(format!("serialising local answer: {err}")))
    })
    .await
    .map_err(|err| ProxyError::Internal(format!("local model worker: {err}")))?
}
