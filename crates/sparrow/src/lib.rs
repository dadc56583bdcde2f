//! runlens-sparrow: the embedded offline decision model behind the proxy's `local` backend.
//!
//! A Rust port of `sparrow-nano-general-v1.1`, the default model of the PyPI package
//! `sparrow-decider` 0.2.0 (code Apache-2.0; weights MIT, fine-tuned from
//! `minishlab/potion-base-8M`). The 2.2 MB model file is compiled in unchanged. It answers
//! Jev's `noul`, `choice` and `score` questions in Jev's answer shapes, in well under a
//! millisecond, with no network. It is a **weak** model (near chance on yes/no questions): a
//! fallback, never a stand-in for Jev's calibrated answers. Responses built from it should say
//! `"model": MODEL_ID`.
//!
//! ```
//! use runlens_sparrow::Decider;
//! let decider = Decider::load_embedded().unwrap();
//! let questions = serde_json::from_value(serde_json::json!({
//!     "on": {"type": "noul", "instructions": "Is the light on?"},
//!     "mood": {"type": "score", "instructions": "How upset is the writer?",
//!              "criteria": ["calm", "annoyed", "furious"]}
//! })).unwrap();
//! let answers = decider.answer(&serde_json::json!({"message": "The light is on."}), &questions).unwrap();
//! let p = answers["on"]["noul"].as_f64().unwrap();
//! assert!((0.0..=1.0).contains(&p));
//! assert_eq!(answers["mood"]["legend"]["2"], "furious");
//! ```
//!
//! Module map: [`decider`] (load + answer), [`question`] (Jev question → options),
//! [`answer`] (probabilities → Jev answer objects), [`model`] (the static-embedding MLP),
//! [`wordpiece`] (BERT-uncased tokenizer), [`text`] (Python-exact content text),
//! [`kernels`] (GELU, softmax, dot), [`archive`] and [`npy`] (model file reading).

#![warn(missing_docs)]

pub mod answer;
pub mod archive;
pub mod decider;
mod error;
pub mod kernels;
pub mod model;
pub mod npy;
pub mod question;
pub mod text;
pub mod wordpiece;

pub use decider::{Decider, EMBEDDED_MODEL};
pub use error::SparrowError;

/// The id answers from this model carry, e.g. as the response's `"model"` field.
pub const MODEL_ID: &str = "sparrow-nano-general-v1.1";
