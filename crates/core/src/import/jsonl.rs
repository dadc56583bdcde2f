//! Splitting JSON Lines input into parsed objects, with exact errors for malformed bytes.
//!
//! Conventions: lines split on `\n`; a trailing `\r` (CRLF files) is ignored; blank lines are
//! skipped (the harness's loaders skip them too); a UTF-8 BOM at the start of the file is
//! skipped with a warning. Python's `NaN`/`Infinity` tokens are rejected with a message that
//! says so, because JSON has no such values.

use std::io::BufRead;

use serde_json::{Map, Value};

use super::ImportError;
use crate::bundle::Warning;

const UTF8_BOM: &[u8] = &[0xef, 0xbb, 0xbf];

/// Where a line's JSON text is in its file: byte offset and length (line end not included).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Span {
    pub offset: u64,
    pub len: usize,
}

/// Parses every non-blank line of `bytes` as a JSON object and calls `each` with its 1-based
/// line number; stops at the first error.
pub(crate) fn for_each_line(
    file: &str,
    bytes: &[u8],
    warnings: &mut Vec<Warning>,
    mut each: impl FnMut(usize, Map<String, Value>, &mut Vec<Warning>) -> Result<(), ImportError>,
) -> Result<(), ImportError> {
    for_each_line_read(file, bytes, warnings, |number, _, object, warnings| {
        each(number, object, warnings)
    })
}

/// [`for_each_line`] over a reader (a file too large to hold), giving each line's [`Span`].
pub(crate) fn for_each_line_read(
    file: &str,
    mut reader: impl BufRead,
    warnings: &mut Vec<Warning>,
    mut each: impl FnMut(usize, Span, Map<String, Value>, &mut Vec<Warning>) -> Result<(), ImportError>,
) -> Result<(), ImportError> {
    let io = |e: std::io::Error| ImportError::at(file, None, "a readable file", e.to_string());
    let mut offset = 0u64;
    if reader.fill_buf().map_err(io)?.starts_with(UTF8_BOM) {
        bom_warning(file, warnings);
        reader.consume(UTF8_BOM.len());
        offset = UTF8_BOM.len() as u64;
    }
    if reader.fill_buf().map_err(io)?.is_empty() {
        warnings.push(Warning {
            file: file.to_owned(),
            line: None,
            kind: "empty_file".to_owned(),
            message: "the file is empty; it contributes no rows".to_owned(),
        });
    }
    let mut line = Vec::new();
    for number in 1.. {
        line.clear();
        let n = reader.read_until(b'\n', &mut line).map_err(io)?;
        if n == 0 {
            break;
        }
        let start = offset;
        offset += n as u64;
        let raw = line.strip_suffix(b"\n").unwrap_or(&line);
        let raw = raw.strip_suffix(b"\r").unwrap_or(raw);
        if raw.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let object = parse_object(file, Some(number), raw)?;
        let span = Span {
            offset: start,
            len: raw.len(),
        };
        each(number, span, object, warnings)?;
    }
    Ok(())
}

/// Parses a whole-file JSON document that must be an object (e.g. `board_manifest.json`).
pub(crate) fn parse_document(
    file: &str,
    bytes: &[u8],
    warnings: &mut Vec<Warning>,
) -> Result<Map<String, Value>, ImportError> {
    let bytes = strip_bom(file, bytes, warnings);
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(ImportError::at(
            file,
            None,
            "a JSON object",
            "an empty file".to_owned(),
        ));
    }
    parse_object(file, None, bytes)
}

fn strip_bom<'a>(file: &str, bytes: &'a [u8], warnings: &mut Vec<Warning>) -> &'a [u8] {
    match bytes.strip_prefix(UTF8_BOM) {
        Some(rest) => {
            bom_warning(file, warnings);
            rest
        }
        None => bytes,
    }
}

fn bom_warning(file: &str, warnings: &mut Vec<Warning>) {
    warnings.push(Warning {
        file: file.to_owned(),
        line: Some(1),
        kind: "utf8_bom".to_owned(),
        message: "the file starts with a UTF-8 byte-order mark; it was skipped".to_owned(),
    });
}

/// Parses one line (or document) as a JSON object, with a precise error.
pub(crate) fn parse_object(
    file: &str,
    line: Option<usize>,
    raw: &[u8],
) -> Result<Map<String, Value>, ImportError> {
    if let Err(e) = std::str::from_utf8(raw) {
        // In a whole document, the line of the bad byte.
        let line = line.or_else(|| {
            Some(
                1 + raw[..e.valid_up_to()]
                    .iter()
                    .filter(|b| **b == b'\n')
                    .count(),
            )
        });
        return Err(ImportError::at(
            file,
            line,
            "UTF-8 text",
            format!("an invalid UTF-8 byte at byte {}", e.valid_up_to() + 1),
        ));
    }
    match serde_json::from_slice::<Value>(raw) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(other) => Err(ImportError::at(
            file,
            line.or(Some(1)),
            "a JSON object",
            super::error::describe(&other),
        )),
        Err(err) => Err(syntax_error(file, line, raw, &err)),
    }
}

fn syntax_error(
    file: &str,
    line: Option<usize>,
    raw: &[u8],
    err: &serde_json::Error,
) -> ImportError {
    // serde_json columns are 1-based and count bytes within the error's line; in a whole
    // document (no line given) its line is the document's.
    let what = if line.is_some() { "line" } else { "file" };
    let line = line.or(Some(err.line()));
    let column = err.column();
    let offset = offset_of(raw, err.line(), column);
    let offset = offset.min(raw.len());
    let rest = &raw[offset..];
    // serde_json stops at the `N` of `NaN` but after the sign of `-Infinity`.
    let negative = offset > 0 && raw[offset - 1] == b'-';
    for token in ["NaN", "Infinity"] {
        if rest.starts_with(token.as_bytes()) {
            let (text, column) = if negative && token == "Infinity" {
                ("-Infinity", column - 1)
            } else {
                (token, column)
            };
            return ImportError::at(
                file,
                line,
                "a JSON number or null",
                format!(
                    "{text} at column {column} (Python's json.dumps writes it; JSON has no {text})"
                ),
            );
        }
    }
    let found = if err.is_eof() {
        format!("the {what} ending early at column {column} (truncated {what}?)")
    } else {
        let msg = err.to_string();
        let msg = msg.split(" at line ").next().unwrap_or(&msg).to_owned();
        format!("invalid JSON at column {column}: {msg}")
    };
    ImportError::at(file, line, "a complete JSON object", found)
}

/// Byte offset of serde_json's (line, column) position; the column points at the
/// offending byte (1-based) or one past it.
fn offset_of(raw: &[u8], line: usize, column: usize) -> usize {
    let mut start = 0;
    for _ in 1..line {
        match raw[start..].iter().position(|b| *b == b'\n') {
            Some(p) => start += p + 1,
            None => break,
        }
    }
    (start + column).saturating_sub(1)
}
