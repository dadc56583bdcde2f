//! The broken-file corpus (tests/data/broken): one test per case, asserting the exact error
//! (or the exact warning for damage the importer can safely get past). Never a panic.

mod common;

use runlens_core::import::{ImportError, ImportOptions, Imported, InputFile, import_files};

fn import_as(rel: &str, as_path: &str) -> Result<Imported, ImportError> {
    let file = common::input(&format!("broken/{rel}"), as_path);
    import_files(&[file], &ImportOptions::default())
}

fn error_as(rel: &str, as_path: &str) -> String {
    match import_as(rel, as_path) {
        Ok(_) => panic!("{rel} imported without error"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn truncated_line() {
    // Line 2 is 56 bytes long and stops after `"res`; the end is reported at column 56.
    assert_eq!(
        error_as("truncated.jsonl", "c/results.jsonl"),
        "c/results.jsonl:2: expected a complete JSON object, found the line ending early at column 56 (truncated line?)"
    );
}

#[test]
fn wrong_type() {
    assert_eq!(
        error_as("wrong_type.jsonl", "c/results.jsonl"),
        "c/results.jsonl:2: field candidates.m.turns: expected a non-negative integer or null, found string \"5\""
    );
}

#[test]
fn nan_token() {
    // `NaN` starts at byte 52 of the line (1-based): 51 bytes of `{"trace_id": ... "latency": ` precede it.
    assert_eq!(
        error_as("nan.jsonl", "c/results.jsonl"),
        "c/results.jsonl:1: expected a JSON number or null, found NaN at column 52 (Python's json.dumps writes it; JSON has no NaN)"
    );
}

#[test]
fn infinity_token() {
    // Same prefix as the NaN case: `-Infinity` starts at byte 52.
    assert_eq!(
        error_as("infinity.jsonl", "c/results.jsonl"),
        "c/results.jsonl:1: expected a JSON number or null, found -Infinity at column 52 (Python's json.dumps writes it; JSON has no -Infinity)"
    );
}

#[test]
fn byte_order_mark_is_skipped_with_a_warning() {
    let imported = import_as("bom.jsonl", "c/results.jsonl").unwrap();
    assert_eq!(imported.bundle.body.corpora[0].results[0].trace_id, "q1");
    assert_eq!(
        imported.warnings[0].to_string(),
        "c/results.jsonl:1: the file starts with a UTF-8 byte-order mark; it was skipped (utf8_bom)"
    );
}

#[test]
fn crlf_line_endings_read_like_lf() {
    let crlf = import_as("crlf.jsonl", "c/results.jsonl").unwrap();
    let lf_bytes = std::fs::read(common::data_dir().join("broken/crlf.jsonl")).unwrap();
    let lf: Vec<u8> = lf_bytes.into_iter().filter(|b| *b != b'\r').collect();
    let lf = import_files(
        &[InputFile {
            path: "c/results.jsonl".into(),
            bytes: lf,
        }],
        &ImportOptions::default(),
    )
    .unwrap();
    assert_eq!(crlf.bundle.body, lf.bundle.body);
    assert_eq!(crlf.bundle.body.corpora[0].results.len(), 2);
    assert!(crlf.warnings.is_empty());
}

#[test]
fn invalid_utf8() {
    // `caf` then byte 0xE9: the 39th byte of line 2 is the first invalid one.
    assert_eq!(
        error_as("invalid_utf8.jsonl", "c/annotated.jsonl"),
        "c/annotated.jsonl:2: expected UTF-8 text, found an invalid UTF-8 byte at byte 39"
    );
}

#[test]
fn empty_jsonl_file_is_a_warning() {
    let imported = import_as("empty.jsonl", "c/annotated.jsonl").unwrap();
    assert!(imported.bundle.body.corpora[0].questions.is_empty());
    assert_eq!(
        imported.warnings[0].to_string(),
        "c/annotated.jsonl: the file is empty; it contributes no rows (empty_file)"
    );
}

#[test]
fn empty_json_document() {
    assert_eq!(
        error_as("empty_manifest.json", "c/board_manifest.json"),
        "c/board_manifest.json: expected a JSON object, found an empty file"
    );
}

#[test]
fn line_that_is_not_an_object() {
    assert_eq!(
        error_as("not_object.jsonl", "c/results.jsonl"),
        "c/results.jsonl:1: expected a JSON object, found an array of 2 items"
    );
}

#[test]
fn missing_trace_id() {
    assert_eq!(
        error_as("missing_trace_id.jsonl", "c/results.jsonl"),
        "c/results.jsonl:1: field trace_id: expected a string, found no such field"
    );
}

#[test]
fn per_turn_entry_of_the_wrong_length() {
    assert_eq!(
        error_as("per_turn_short.jsonl", "c/results.jsonl"),
        "c/results.jsonl:1: field candidates.m.usage.per_turn[1]: expected [prompt, completion, reasoning, cache_read, cache_write] (5 non-negative integers), found an array of 2 items"
    );
}

#[test]
fn gt_sql_of_the_wrong_type() {
    assert_eq!(
        error_as("gt_sql_number.jsonl", "c/annotated.jsonl"),
        "c/annotated.jsonl:1: field gt_sql: expected a list of strings or a string, found number 42"
    );
}

#[test]
fn vote_that_is_not_an_object() {
    assert_eq!(
        error_as("wrong_vote.jsonl", "c/results.jsonl"),
        "c/results.jsonl:1: field candidates.m.result_score.votes[1]: expected an object, found string \"pass\""
    );
}

/// A 10 MB result string on one line: parsed whole, and the same line cut short reports
/// the column where it ends.
#[test]
fn ten_megabyte_line() {
    let big = "x".repeat(10 * 1024 * 1024);
    let line =
        format!(r#"{{"trace_id": "q1", "candidates": {{"m": {{"sql_results": ["{big}"]}}}}}}"#);
    let file = InputFile {
        path: "c/results.jsonl".into(),
        bytes: line.clone().into_bytes(),
    };
    let imported = import_files(&[file], &ImportOptions::default()).unwrap();
    let cell = imported.bundle.body.corpora[0].cell("q1", "m").unwrap();
    assert_eq!(cell.sql_results[0].len(), 10 * 1024 * 1024);

    let cut = &line.as_bytes()[..line.len() - 10];
    let file = InputFile {
        path: "c/results.jsonl".into(),
        bytes: cut.to_vec(),
    };
    let err = import_files(&[file], &ImportOptions::default()).unwrap_err();
    assert_eq!(err.line, Some(1));
    assert_eq!(
        err.found,
        format!(
            "the line ending early at column {} (truncated line?)",
            cut.len()
        )
    );
}

/// A failed import keeps the warnings met before the error: the dashboard shows both.
#[test]
fn failed_import_keeps_earlier_warnings() {
    use runlens_core::import::import_files_keeping_warnings;
    let notes = InputFile {
        path: "c/notes.txt".into(),
        bytes: b"not a harness file".to_vec(),
    };
    let broken = common::input("broken/truncated.jsonl", "c/results.jsonl");
    let failed =
        import_files_keeping_warnings(&[notes, broken], &ImportOptions::default()).unwrap_err();
    assert_eq!(
        failed.error.to_string(),
        "c/results.jsonl:2: expected a complete JSON object, found the line ending early at column 56 (truncated line?)"
    );
    assert_eq!(failed.warnings.len(), 1);
    assert_eq!(failed.warnings[0].file, "c/notes.txt");
    assert_eq!(failed.warnings[0].kind, "unrecognised_file");
}
