//! Audit-log export and import as JSON and CSV.
//!
//! ## JSON
//! ```json
//! {
//!   "format": "runlens-audit",
//!   "version": 1,
//!   "decisions": [
//!     {"key": "gpt-4.1/ex-007", "verdict": "grader_wrong", "note": "", "decided_at": "2026-12-02T18:00:00Z"}
//!   ]
//! }
//! ```
//! (written pretty-printed, two-space indent). `verdict` is `grader_wrong`, `grader_right`
//! or `unsure`; every field is required; unknown fields are ignored.
//!
//! ## CSV
//! RFC 4180: the header `key,verdict,note,decided_at`, then one record per decision; a field
//! holding `,`, `"` or a line break is quoted with `"` and inner quotes doubled; records end
//! with `\n` (`\r\n` is read too, as is a leading UTF-8 byte-order mark). Blank lines are
//! skipped.
//!
//! Import keeps the latest decision per key ([`AuditLog::record`]); errors name the line,
//! the field and what was expected.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::error::{Errors, FormatError, describe, first_error_line, string_field};
use super::log::{AuditDecision, AuditLog, Verdict};

/// The `format` tag of an audit JSON file.
pub const AUDIT_FORMAT: &str = "runlens-audit";
/// The CSV header.
pub const CSV_HEADER: [&str; 4] = ["key", "verdict", "note", "decided_at"];

const JSON: Errors = Errors { what: "audit JSON" };
const CSV: Errors = Errors { what: "audit CSV" };
const VERDICTS: &str = "one of grader_wrong, grader_right, unsure";

#[derive(Serialize, Deserialize)]
struct AuditFile {
    format: String,
    version: u32,
    decisions: Vec<AuditDecision>,
}

impl AuditLog {
    /// The JSON export (see the module docs).
    pub fn to_json(&self) -> String {
        let file = AuditFile {
            format: AUDIT_FORMAT.into(),
            version: 1,
            decisions: self.decisions().cloned().collect(),
        };
        serde_json::to_string_pretty(&file).unwrap_or_default()
    }

    /// Reads a JSON export.
    pub fn from_json(text: &str) -> Result<AuditLog, FormatError> {
        let value = JSON.parse_json(text)?;
        read_json(&value).map_err(|mut e| {
            e.line = first_error_line::<AuditFile>(text);
            e
        })
    }

    /// The CSV export (see the module docs).
    pub fn to_csv(&self) -> String {
        let mut writer = csv::WriterBuilder::new()
            .terminator(csv::Terminator::Any(b'\n'))
            .from_writer(Vec::new());
        let _ = writer.write_record(CSV_HEADER);
        for d in self.decisions() {
            let _ = writer.write_record([&d.key, d.verdict.as_str(), &d.note, &d.decided_at]);
        }
        let bytes = writer.into_inner().unwrap_or_default();
        String::from_utf8(bytes).unwrap_or_default()
    }

    /// Reads a CSV export.
    pub fn from_csv(text: &str) -> Result<AuditLog, FormatError> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let mut reader = csv::ReaderBuilder::new()
            .has_headers(false)
            .flexible(true)
            .from_reader(text.as_bytes());
        let mut log = AuditLog::new();
        let mut header_seen = false;
        for record in reader.records() {
            let record = record.map_err(|e| csv_error(&e))?;
            let line = record.position().map(|p| p.line() as usize);
            let at = |mut e: FormatError| {
                e.line = line;
                e
            };
            if !header_seen {
                header_seen = true;
                if record.iter().ne(CSV_HEADER) {
                    let found = record.iter().collect::<Vec<_>>().join(",");
                    return Err(at(FormatError {
                        what: CSV.what,
                        line: None,
                        field: None,
                        expected: format!("the header {}", CSV_HEADER.join(",")),
                        found: format!("{found:?}"),
                    }));
                }
                continue;
            }
            if record.len() != CSV_HEADER.len() {
                return Err(at(FormatError {
                    what: CSV.what,
                    line: None,
                    field: None,
                    expected: format!("4 fields ({})", CSV_HEADER.join(",")),
                    found: format!("{} fields", record.len()),
                }));
            }
            let get = |i: usize| record.get(i).unwrap_or_default().to_owned();
            let verdict = Verdict::parse(&get(1))
                .ok_or_else(|| at(CSV.field("verdict", VERDICTS, format!("{:?}", get(1)))))?;
            if get(0).is_empty() {
                return Err(at(CSV.field(
                    "key",
                    "a non-empty key",
                    "an empty field".into(),
                )));
            }
            log.record(AuditDecision {
                key: get(0),
                verdict,
                note: get(2),
                decided_at: get(3),
            });
        }
        if !header_seen {
            return Err(FormatError {
                what: CSV.what,
                line: Some(1),
                field: None,
                expected: format!("the header {}", CSV_HEADER.join(",")),
                found: "an empty file".into(),
            });
        }
        Ok(log)
    }
}

fn csv_error(e: &csv::Error) -> FormatError {
    FormatError {
        what: CSV.what,
        line: e.position().map(|p| p.line() as usize),
        field: None,
        expected: "UTF-8 CSV".into(),
        found: e.to_string(),
    }
}

fn read_json(value: &Value) -> Result<AuditLog, FormatError> {
    let Value::Object(top) = value else {
        return Err(FormatError {
            what: JSON.what,
            line: None,
            field: None,
            expected: "an object".into(),
            found: describe(value),
        });
    };
    let format = string_field(JSON, top, "", "format")?;
    if format != AUDIT_FORMAT {
        return Err(JSON.field("format", "\"runlens-audit\"", format!("{format:?}")));
    }
    match top.get("version") {
        Some(v) if v.as_u64() == Some(1) => {}
        other => {
            let found = other.map_or("nothing (missing)".into(), describe);
            return Err(JSON.field("version", "1", found));
        }
    }
    let decisions = match top.get("decisions") {
        Some(Value::Array(a)) => a,
        other => {
            let found = other.map_or("nothing (missing)".into(), describe);
            return Err(JSON.field("decisions", "an array", found));
        }
    };
    let mut log = AuditLog::new();
    for (i, d) in decisions.iter().enumerate() {
        let path = format!("decisions[{i}]");
        let Value::Object(d) = d else {
            return Err(JSON.field(path, "an object", describe(d)));
        };
        let key = string_field(JSON, d, &path, "key")?;
        let verdict_text = string_field(JSON, d, &path, "verdict")?;
        let verdict = Verdict::parse(&verdict_text).ok_or_else(|| {
            JSON.field(
                format!("{path}.verdict"),
                VERDICTS,
                format!("{verdict_text:?}"),
            )
        })?;
        let note = string_field(JSON, d, &path, "note")?;
        let decided_at = string_field(JSON, d, &path, "decided_at")?;
        log.record(AuditDecision {
            key,
            verdict,
            note,
            decided_at,
        });
    }
    Ok(log)
}
