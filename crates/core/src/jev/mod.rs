//! Jev ("System One", TypeSafe AI) wire types shared by the proxy and the dashboard.
//!
//! The shapes follow the API's own OpenAPI schema as shipped in the official
//! `typesafe-sdk` 0.7.5 (`_schemas/models.py`); see `jev-api.md` §4, §5 and §7.
//!
//! - [`request`]: [`SystemOneRequest`] and the three text question types.
//! - [`response`]: [`SystemOneResponse`] and the answers, tolerant of unknown fields and types.
//! - [`validate`]: [`validate_request`], returning the exact 422/400 error body the API gives.
//! - [`confidence`]: the reference `confidence` of choice and score answers.
//! - [`mod@error_message`]: [`error_message()`], the official SDK's message extraction order.
//! - [`label_request`] and [`retrieval_request`]: the harness's exact requests (§7.4–7.5, §5.3).
//!
//! ```
//! use runlens_core::jev::{validate_request, Question};
//! let body = serde_json::json!({
//!     "state": "I was charged twice.",
//!     "questions": {"billing": {"type": "noul", "instructions": "Is this about billing?"}}
//! });
//! let request = validate_request(&body).unwrap();
//! assert!(matches!(request.questions["billing"], Question::Noul { .. }));
//! ```

pub mod confidence;
pub mod error_message;
pub mod label_request;
pub mod request;
pub mod response;
pub mod retrieval_request;
mod schema_issue;
pub mod validate;

pub use error_message::error_message;
pub use request::{NoulCriteria, Question, SystemOneRequest};
pub use response::{Answer, SystemOneResponse, Usage};
pub use validate::{RequestError, validate_request};
