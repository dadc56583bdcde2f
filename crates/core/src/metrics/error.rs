//! Errors raised by the metrics layer (bad configuration, never bad arithmetic).

use thiserror::Error;

/// What went wrong while preparing a metric computation.
///
/// Metric kernels are infallible (they return `f64`); errors come only from inputs that must
/// be validated once, such as regexes in a rules config or a threshold outside `[0, 1]`.
#[derive(Debug, Error, Clone, PartialEq)]
#[non_exhaustive]
pub enum MetricsError {
    /// A regex in a rules config does not compile.
    #[error("rules config: rule `{rule}` field `{field}`: invalid regex: {message}")]
    InvalidRuleRegex {
        /// The decidable rule key.
        rule: String,
        /// The field holding the regex (`forbidden_regex`, `ok_regex`, ...).
        field: &'static str,
        /// The regex engine's message.
        message: String,
    },
    /// A rule key appears both as a semantic and as a decidable rule.
    #[error(
        "rules config: key `{0}` is both a semantic and a decidable rule (expected disjoint groups)"
    )]
    DuplicateRuleKey(String),
    /// A namespace for the table matcher is not a plain identifier.
    #[error("table namespace `{0}`: expected an identifier matching [A-Za-z_][A-Za-z0-9_]*")]
    InvalidNamespace(String),
    /// A numeric parameter is outside its domain.
    #[error("parameter `{name}` = {value}: expected {expected}")]
    InvalidParameter {
        /// Parameter name.
        name: &'static str,
        /// The rejected value, printed.
        value: String,
        /// What was expected.
        expected: &'static str,
    },
}
