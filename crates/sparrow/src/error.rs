//! The one error type of this crate.

/// Everything that can go wrong while loading the embedded model or answering a request.
///
/// Loading errors name the archive member (and the array, for `.npy` files) and what was
/// expected; question errors name the question id and the field. None of them is a panic:
/// a caller (the proxy) can turn any of them into an HTTP error body.
///
/// ```
/// use runlens_sparrow::SparrowError;
/// let e = SparrowError::Question { id: "q1".into(), message: "criteria must be a list".into() };
/// assert_eq!(e.to_string(), "question `q1`: criteria must be a list");
/// ```
#[derive(Debug, thiserror::Error)]
pub enum SparrowError {
    /// The `.sparrow` zip or the `model.npz` zip inside it could not be read.
    #[error("model archive `{archive}`: {message}")]
    Archive {
        /// Which archive (`sparrow-nano-general-v1.1.sparrow` or `model.npz`) or member.
        archive: String,
        /// What went wrong.
        message: String,
    },
    /// A `.npy` array inside `model.npz` is malformed or has an unexpected dtype or shape.
    #[error("array `{name}`: {message}")]
    Npy {
        /// The array's member name, e.g. `emb.weight.q8.npy`.
        name: String,
        /// What was expected and what was found.
        message: String,
    },
    /// `config.json` or `tokenizer.json` is not what this port understands.
    #[error("model file `{file}`: {message}")]
    Config {
        /// `config.json` or `tokenizer.json`.
        file: String,
        /// What was expected and what was found.
        message: String,
    },
    /// A question is not one this model can answer (unknown type, bad criteria).
    #[error("question `{id}`: {message}")]
    Question {
        /// The caller's question id.
        id: String,
        /// What was expected and what was found.
        message: String,
    },
}

impl SparrowError {
    /// Shorthand for [`SparrowError::Question`].
    pub(crate) fn question(id: &str, message: impl Into<String>) -> Self {
        SparrowError::Question {
            id: id.to_owned(),
            message: message.into(),
        }
    }
}
