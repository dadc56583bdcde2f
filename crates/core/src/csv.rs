//! The one CSV writer of every table export (the `csv` crate, as the audit log's import and
//! export use), with a spreadsheet formula-injection guard.
//!
//! ## Conventions
//! - Records end with **CRLF** (`\r\n`), the last one included, as RFC 4180 §2 specifies;
//!   spreadsheets and Python's `csv` module read it as is.
//! - A field is quoted when it contains `,`, `"`, CR or LF; inner `"` are doubled.
//! - **Formula injection** (OWASP "CSV injection"): a cell whose text starts with `=`, `+`,
//!   `-`, `@`, TAB or CR gets a leading `'`, so a spreadsheet shows it as text instead of
//!   running it, unless the whole cell parses as a finite number (`-0.5`, `+1e3`), which
//!   stays a number. Header cells are guarded the same way.
//! - No byte-order mark. An empty record is written `""` (one empty field), as `csv` does.

/// Characters that make a spreadsheet treat a cell as a formula.
const FORMULA_STARTS: [char; 6] = ['=', '+', '-', '@', '\t', '\r'];

/// Writes `header` then `rows` as CSV (see the module docs).
///
/// Rows may have any length; nothing is padded.
/// ```
/// use runlens_core::csv::to_csv;
/// let csv = to_csv(&["q", "ndcg@10"], &[vec!["a, b".into(), "-0.5".into()]]);
/// assert_eq!(csv, "q,ndcg@10\r\n\"a, b\",-0.5\r\n");
/// ```
pub fn to_csv(header: &[&str], rows: &[Vec<String>]) -> String {
    let mut writer = csv::WriterBuilder::new()
        .terminator(csv::Terminator::CRLF)
        .quote_style(csv::QuoteStyle::Necessary)
        .flexible(true)
        .from_writer(Vec::new());
    let records = std::iter::once(header.iter().map(|c| guarded(c)).collect::<Vec<_>>()).chain(
        rows.iter()
            .map(|row| row.iter().map(|c| guarded(c)).collect()),
    );
    for record in records {
        let written = writer.write_record(record.iter().map(|c| c.as_bytes()));
        // Writing to a Vec cannot fail.
        debug_assert!(written.is_ok());
    }
    let bytes = writer.into_inner().unwrap_or_default();
    String::from_utf8(bytes).unwrap_or_default()
}

/// A number cell: the shortest text that round-trips (`0.1` → `"0.1"`), `""` for `None`
/// or a non-finite value.
pub fn number_cell(value: Option<f64>) -> String {
    match value {
        Some(v) if v.is_finite() => format!("{v}"),
        _ => String::new(),
    }
}

/// `cell`, with a leading `'` when a spreadsheet would run it as a formula (see the module
/// docs): it starts with one of [`FORMULA_STARTS`] and is not a finite number.
fn guarded(cell: &str) -> std::borrow::Cow<'_, str> {
    let formula =
        cell.starts_with(FORMULA_STARTS) && !cell.parse::<f64>().is_ok_and(f64::is_finite);
    if formula {
        format!("'{cell}").into()
    } else {
        cell.into()
    }
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;

    fn row(cells: &[&str]) -> Vec<String> {
        cells.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn plain_cells_and_crlf_records() {
        let csv = to_csv(&["a", "b"], &[row(&["1", "x"]), row(&["", "y"])]);
        assert_eq!(csv, "a,b\r\n1,x\r\n,y\r\n");
        // An empty record is written as one empty quoted field (the csv crate's way of keeping
        // it a record when read back).
        assert_eq!(to_csv(&[], &[]), "\"\"\r\n");
    }

    #[test]
    fn quoting_doubles_quotes_and_keeps_newlines() {
        let csv = to_csv(
            &["text"],
            &[
                row(&["say \"hi\""]),
                row(&["a,b"]),
                row(&["l1\nl2"]),
                row(&["x\r"]),
            ],
        );
        assert_eq!(
            csv,
            "text\r\n\"say \"\"hi\"\"\"\r\n\"a,b\"\r\n\"l1\nl2\"\r\n\"x\r\"\r\n"
        );
    }

    #[test]
    fn formula_cells_are_defused_but_numbers_are_not() {
        let cells = [
            "=HYPERLINK(\"http://x\")",
            "+cmd",
            "-2+3",
            "@SUM(A1)",
            "\tx",
            "-0.5",
            "+1e3",
            "-inf",
            "a=b",
        ];
        let csv = to_csv(&["=h"], &[row(&cells)]);
        assert_eq!(
            csv,
            "'=h\r\n\"'=HYPERLINK(\"\"http://x\"\")\",'+cmd,'-2+3,'@SUM(A1),'\tx,-0.5,+1e3,'-inf,a=b\r\n"
        );
    }

    #[test]
    fn number_cells_round_trip() {
        assert_eq!(number_cell(Some(0.1)), "0.1");
        assert_eq!(number_cell(Some(1.0 / 3.0)), "0.3333333333333333");
        assert_eq!(number_cell(Some(2.0)), "2");
        assert_eq!(number_cell(None), "");
        assert_eq!(number_cell(Some(f64::NAN)), "");
    }
}
