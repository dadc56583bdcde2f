//! Re-labelling a failure with Jev (issue 7): the exact harness request as an editable form,
//! the answer beside the recorded label, "Apply" into the overrides, and re-ranking a
//! question's tables. The panels are self-contained; the trajectory viewer and the ranking
//! question panel mount them.

mod answer_view;
pub mod apply;
pub mod draft;
pub mod failed_cell;
mod overrides_bar;
mod panel;
mod request_form;
mod rerank;
mod token_prompt;
pub mod transport;

use runlens_core::jev::{SystemOneRequest, SystemOneResponse};

pub use answer_view::AnswerView;
pub use apply::WhatChangedView;
pub use overrides_bar::OverridesBar;
pub use panel::RelabelPanel;
pub use request_form::RequestForm;
pub use rerank::RerankPanel;
pub use transport::{HttpJev, Jev, JevTransport, LOCAL_MODEL_ID, OFFLINE_WARNING};

/// One answered request, kept with what was sent.
#[derive(Debug, Clone, PartialEq)]
pub struct AskOutcome {
    /// The request sent.
    pub request: SystemOneRequest,
    /// Its exact JSON text (what the request hash is taken of).
    pub request_json: String,
    /// The answers.
    pub response: SystemOneResponse,
    /// Round-trip time, milliseconds.
    pub latency_ms: f64,
    /// `x-typesafe-request-id`, when sent.
    pub request_id: Option<String>,
    /// The proxy's backend (`local`, `typesafe`, or `unknown`).
    pub backend: String,
}
