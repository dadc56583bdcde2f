//! JSON output in the harness's byte style: Python `json.dumps(obj, ensure_ascii=False)`.
//!
//! Python separates items with `", "` and keys from values with `": "`, writes non-ASCII
//! characters raw and escapes only `"`, `\` and control characters. serde_json already
//! escapes the same set; this module only changes the separators.

use std::io::{self, Write};

use serde::Serialize;
use serde_json::ser::Formatter;

/// A serde_json formatter with Python's default separators (`", "` and `": "`).
#[derive(Debug, Default, Clone, Copy)]
pub struct PythonFormatter;

impl Formatter for PythonFormatter {
    fn begin_array_value<W: ?Sized + Write>(
        &mut self,
        writer: &mut W,
        first: bool,
    ) -> io::Result<()> {
        if first {
            Ok(())
        } else {
            writer.write_all(b", ")
        }
    }

    fn begin_object_key<W: ?Sized + Write>(
        &mut self,
        writer: &mut W,
        first: bool,
    ) -> io::Result<()> {
        if first {
            Ok(())
        } else {
            writer.write_all(b", ")
        }
    }

    fn begin_object_value<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        writer.write_all(b": ")
    }
}

/// Serialises `value` as one Python-style JSON line (no trailing newline) into `out`.
///
/// Example: `{"a": [1, 2], "b": "é"}`.
pub fn push_line<T: Serialize>(out: &mut Vec<u8>, value: &T) -> Result<(), serde_json::Error> {
    let mut ser = serde_json::Serializer::with_formatter(&mut *out, PythonFormatter);
    value.serialize(&mut ser)?;
    out.push(b'\n');
    Ok(())
}

/// Serialises `value` compactly (ClickHouse JSONEachRow style: no spaces), e.g. `{"n":"3"}`.
pub fn compact<T: Serialize>(value: &T) -> String {
    serde_json::to_string(value).unwrap_or_default()
}

/// Serialises `value` with Python's `indent=2` layout (used for `board_manifest.json`).
pub fn pretty<T: Serialize>(value: &T) -> Result<Vec<u8>, serde_json::Error> {
    let mut out = serde_json::to_vec_pretty(value)?;
    out.push(b'\n');
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn python_separators_and_raw_non_ascii() {
        let mut out = Vec::new();
        let v = serde_json::json!({"a": [1, 2.5], "b": "é\u{202E}"});
        push_line(&mut out, &v).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "{\"a\": [1, 2.5], \"b\": \"é\u{202E}\"}\n"
        );
    }
}
