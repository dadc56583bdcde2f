//! The overrides file: re-labelled failures with provenance, loaded on top of a bundle.
//!
//! ```json
//! {
//!   "format": "runlens-overrides",
//!   "version": 1,
//!   "bundle_hash": "<the bundle's content_hash>",
//!   "overrides": [
//!     {"key": "gpt-4.1/ex-007", "corpus": "dev",
//!      "original": {"trace_id": "ex-007", "model": "gpt-4.1", "sub_mode": "wrong_join", "...": "..."},
//!      "new": {"trace_id": "ex-007", "model": "gpt-4.1", "sub_mode": "correct_but_judged_fail", "...": "..."},
//!      "model_id": "jev-1.13.0", "request_hash": "<64 hex>", "applied_at": "2026-12-02T18:00:00Z",
//!      "answers": {"sub_mode": {"type": "choice", "choice": "correct_but_judged_fail",
//!                               "confidence": 0.4, "probabilities": {"...": 0.1}},
//!                  "correct_despite_fail": {"type": "noul", "noul": 0.93}, "...": {}}}
//!   ]
//! }
//! ```
//! `original` and `new` are `failure_labels.jsonl` records (§7.6); `original` is `null` when
//! the cell had no label. `answers` (optional; absent in files written before it existed) is
//! the Jev response's `answers` object the new label was derived from, as received: per
//! question id its type and P(yes), or choice, confidence and every probability. Written
//! pretty-printed; unknown fields are ignored on import.

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::audit::{Errors, FormatError, describe, first_error_line, string_field};
use crate::bundle::FailureLabel;
use crate::jev::Answer;

/// The `format` tag of an overrides file.
pub const OVERRIDES_FORMAT: &str = "runlens-overrides";

const ERRORS: Errors = Errors {
    what: "overrides file",
};

/// One applied re-label with its provenance.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LabelOverride {
    /// `"<model key>/<trace_id>"`; must equal `new.model + "/" + new.trace_id`.
    pub key: String,
    /// The corpus name.
    pub corpus: String,
    /// The label before (`None` when the cell had none).
    pub original: Option<FailureLabel>,
    /// The label to use.
    pub new: FailureLabel,
    /// The labelling model that answered (e.g. `jev-1.13.0`, `sparrow-nano-general-v1.1`).
    pub model_id: String,
    /// [`request_hash`] of the request sent.
    pub request_hash: String,
    /// When it was applied, RFC 3339 UTC from the caller.
    pub applied_at: String,
    /// The raw answers of the response `new` was derived from (question id → answer, in
    /// the response's order); `None` in files written before this field existed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answers: Option<IndexMap<String, Answer>>,
}

/// A set of overrides for one bundle.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OverridesFile {
    /// Always [`OVERRIDES_FORMAT`].
    pub format: String,
    /// Always 1.
    pub version: u32,
    /// The `content_hash` of the bundle the overrides were made on.
    pub bundle_hash: String,
    /// In application order (a later override of the same key wins).
    pub overrides: Vec<LabelOverride>,
}

/// Lower-case hex SHA-256 of the exact request JSON bytes sent to Jev.
///
/// Example: `request_hash(b"")` =
/// `e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855`.
pub fn request_hash(request_json: &[u8]) -> String {
    crate::bundle::hex_lower(&Sha256::digest(request_json))
}

impl OverridesFile {
    /// An empty file for the bundle with this content hash.
    pub fn new(bundle_hash: impl Into<String>) -> OverridesFile {
        OverridesFile {
            format: OVERRIDES_FORMAT.into(),
            version: 1,
            bundle_hash: bundle_hash.into(),
            overrides: Vec::new(),
        }
    }

    /// The new labels this file puts in force in `corpus`, in the order applied.
    pub fn news_in<'a>(&'a self, corpus: &'a str) -> impl Iterator<Item = &'a FailureLabel> {
        self.overrides
            .iter()
            .filter(move |o| o.corpus == corpus)
            .map(|o| &o.new)
    }

    /// True when the file was made on the bundle with this content hash.
    pub fn matches_bundle(&self, content_hash: &str) -> bool {
        self.bundle_hash == content_hash
    }

    /// The file as pretty-printed JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// Reads and checks a file; errors name the line, the field and what was expected.
    pub fn from_json(text: &str) -> Result<OverridesFile, FormatError> {
        let value = ERRORS.parse_json(text)?;
        read(&value).map_err(|mut e| {
            e.line = first_error_line::<OverridesFile>(text);
            e
        })
    }
}

fn read(value: &Value) -> Result<OverridesFile, FormatError> {
    let Value::Object(top) = value else {
        return Err(FormatError {
            what: ERRORS.what,
            line: None,
            field: None,
            expected: "an object".into(),
            found: describe(value),
        });
    };
    let format = string_field(ERRORS, top, "", "format")?;
    if format != OVERRIDES_FORMAT {
        return Err(ERRORS.field("format", "\"runlens-overrides\"", format!("{format:?}")));
    }
    if top.get("version").and_then(Value::as_u64) != Some(1) {
        let found = top
            .get("version")
            .map_or("nothing (missing)".into(), describe);
        return Err(ERRORS.field("version", "1", found));
    }
    let bundle_hash = string_field(ERRORS, top, "", "bundle_hash")?;
    let Some(Value::Array(items)) = top.get("overrides") else {
        let found = top
            .get("overrides")
            .map_or("nothing (missing)".into(), describe);
        return Err(ERRORS.field("overrides", "an array", found));
    };
    let mut overrides = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        overrides.push(read_override(item, &format!("overrides[{i}]"))?);
    }
    Ok(OverridesFile {
        format,
        version: 1,
        bundle_hash,
        overrides,
    })
}

fn read_override(item: &Value, path: &str) -> Result<LabelOverride, FormatError> {
    let Value::Object(o) = item else {
        return Err(ERRORS.field(path, "an object", describe(item)));
    };
    let key = string_field(ERRORS, o, path, "key")?;
    let corpus = string_field(ERRORS, o, path, "corpus")?;
    let original = match o.get("original") {
        None | Some(Value::Null) => None,
        Some(v) => Some(label(v, &format!("{path}.original"))?),
    };
    let new = match o.get("new") {
        Some(v) => label(v, &format!("{path}.new"))?,
        None => {
            let expected = "a failure label object";
            return Err(ERRORS.field(format!("{path}.new"), expected, "nothing (missing)".into()));
        }
    };
    let expected_key = crate::audit::audit_key(&new.model, &new.trace_id);
    if key != expected_key {
        let expected = format!("{expected_key:?} (new.model/new.trace_id)");
        return Err(ERRORS.field(format!("{path}.key"), &expected, format!("{key:?}")));
    }
    let request_hash = string_field(ERRORS, o, path, "request_hash")?;
    let is_hex =
        |s: &str| s.len() == 64 && s.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'));
    if !is_hex(&request_hash) {
        let expected = "64 lower-case hex digits (SHA-256)";
        return Err(ERRORS.field(
            format!("{path}.request_hash"),
            expected,
            format!("{request_hash:?}"),
        ));
    }
    let answers = match o.get("answers") {
        None | Some(Value::Null) => None,
        Some(v) => Some(IndexMap::<String, Answer>::deserialize(v).map_err(|e| {
            let expected = "an object of Jev answers (question id → {\"type\": ...})";
            ERRORS.field(format!("{path}.answers"), expected, e.to_string())
        })?),
    };
    Ok(LabelOverride {
        key,
        corpus,
        original,
        new,
        model_id: string_field(ERRORS, o, path, "model_id")?,
        request_hash,
        applied_at: string_field(ERRORS, o, path, "applied_at")?,
        answers,
    })
}

fn label(value: &Value, path: &str) -> Result<FailureLabel, FormatError> {
    FailureLabel::deserialize(value)
        .map_err(|e| ERRORS.field(path, "a failure label object (§7.6)", e.to_string()))
}
