//! The streamed v2 export (harness files read a line at a time, rows never held) writes
//! exactly what the in-memory import and v2 writer write: the same manifest bytes (so the
//! same content hash, provenance, warnings and every entry's SHA-256) and the same entries;
//! a failure reports the same error and warnings.

mod common;

use std::collections::BTreeMap;
use std::io::Cursor;

use common::{dev_corpus_files, input};
use runlens_core::bundle::v2::stream::EntrySink;
use runlens_core::bundle::v2::{V2Error, write_entries};
use runlens_core::import::stream::{ReadSeek, StreamError, Streamed, export_streamed};
use runlens_core::import::{ImportOptions, InputFile, import_files, import_files_keeping_warnings};

#[derive(Default)]
struct Memory(BTreeMap<String, Vec<u8>>);

impl EntrySink for Memory {
    fn put(&mut self, path: &str, bytes: Vec<u8>) -> Result<(), V2Error> {
        assert!(
            self.0.insert(path.to_owned(), bytes).is_none(),
            "{path} twice"
        );
        Ok(())
    }
}

fn stream(files: &[InputFile], opts: &ImportOptions) -> Result<(Streamed, Memory), StreamError> {
    let paths: Vec<String> = files.iter().map(|f| f.path.clone()).collect();
    let mut open = |i: usize| -> std::io::Result<Box<dyn ReadSeek>> {
        Ok(Box::new(Cursor::new(files[i].bytes.clone())))
    };
    let mut sink = Memory::default();
    let streamed = export_streamed(&paths, &mut open, opts, &mut sink)?;
    Ok((streamed, sink))
}

fn opts() -> ImportOptions {
    ImportOptions {
        runlens_version: "0.0.0-test".into(),
        created_at: "2026-12-05T00:00:00Z".into(),
        ..ImportOptions::default()
    }
}

/// Streams `files` and checks the result against the in-memory path, byte for byte.
fn same_as_in_memory(files: &[InputFile], opts: &ImportOptions) -> Streamed {
    let imported = import_files(files, opts).expect("imports in memory");
    let (manifest, entries) = write_entries(&imported.bundle).unwrap();
    let (streamed, sink) = stream(files, opts).expect("streams");
    assert_eq!(
        String::from_utf8_lossy(&streamed.written.json),
        String::from_utf8_lossy(&manifest)
    );
    let want: BTreeMap<String, Vec<u8>> = entries.into_iter().map(|e| (e.path, e.bytes)).collect();
    assert_eq!(
        sink.0.keys().collect::<Vec<_>>(),
        want.keys().collect::<Vec<_>>()
    );
    assert!(sink.0 == want, "an entry's bytes differ");
    assert_eq!(
        streamed.written.manifest.content_hash,
        imported.bundle.content_hash
    );
    assert_eq!(streamed.warnings, imported.warnings);
    assert_eq!(streamed.summary, imported.bundle.body.summary());
    streamed
}

fn with_bytes(path: &str, bytes: &[u8]) -> InputFile {
    InputFile {
        path: path.into(),
        bytes: bytes.to_vec(),
    }
}

#[test]
fn the_dev_corpus_with_its_duplicates_labels_and_config_streams_to_the_same_bundle() {
    let mut files = dev_corpus_files();
    files.push(input("harness-examples/saas/schema.md", "schema.md"));
    files.push(input(
        "harness-examples/config/rules.example.yaml",
        "config/rules.yaml",
    ));
    files.push(with_bytes(
        "SYNTHETIC.md",
        b"# Synthetic\n\nMade up for a test.\n",
    ));
    files.push(with_bytes("notes.txt", b"not a harness file"));
    let s = same_as_in_memory(&files, &opts());
    // The dev corpus has a replaced result row (q2's later row wins in place), labels for
    // cells that do not exist, and the universe from the prompt: warnings to compare.
    let kinds: Vec<&str> = s.warnings.iter().map(|w| w.kind.as_str()).collect();
    assert!(kinds.contains(&"duplicate_row"), "{kinds:?}");
    assert!(kinds.contains(&"unrecognised_file"), "{kinds:?}");
    assert_eq!(s.summary.result_rows, 2);
}

#[test]
fn boms_crlf_blank_lines_an_empty_file_and_a_second_corpus_stream_the_same() {
    let mut files = dev_corpus_files();
    let mut board = dev_corpus_files()
        .into_iter()
        .filter(|f| f.path.starts_with("dev/"))
        .map(|f| with_bytes(&f.path.replacen("dev/", "board/", 1), &f.bytes))
        .collect::<Vec<_>>();
    // BOM and CRLF line ends in the second corpus's results, blank lines between rows.
    for f in &mut board {
        if f.path.ends_with("results.jsonl") {
            let text = String::from_utf8(f.bytes.clone())
                .unwrap()
                .replace('\n', "\r\n\r\n");
            f.bytes = [&[0xef, 0xbb, 0xbf][..], text.as_bytes()].concat();
        }
        if f.path.ends_with("fm_labels.jsonl") {
            f.bytes.clear();
        }
    }
    files.extend(board);
    // Jev rows for a question no corpus has, and a label for a question without the cell.
    files.push(with_bytes(
        "more/failure_labels.jsonl",
        br#"{"trace_id": "nowhere", "model": "gpt-4.1", "outcome": "fail"}
{"trace_id": "q1", "model": "no-such-model", "outcome": "fail"}
"#,
    ));
    let s = same_as_in_memory(&files, &opts());
    assert_eq!(s.summary.corpora, 2);
    let kinds: Vec<&str> = s.warnings.iter().map(|w| w.kind.as_str()).collect();
    for kind in [
        "utf8_bom",
        "empty_file",
        "unknown_question",
        "label_for_unknown_cell",
    ] {
        assert!(kinds.contains(&kind), "{kind} not in {kinds:?}");
    }
}

#[test]
fn jev_files_alone_make_one_corpus_named_after_their_folder() {
    let files: Vec<InputFile> = dev_corpus_files()
        .into_iter()
        .filter(|f| f.path.starts_with("out/"))
        .collect();
    let s = same_as_in_memory(&files, &opts());
    assert_eq!(s.written.manifest.corpora[0].name, "out");
    assert!(s.summary.rankings > 0);
}

#[test]
fn a_broken_line_stops_with_the_same_error_and_warnings_as_in_memory() {
    let mut files = dev_corpus_files();
    files.push(with_bytes("notes.txt", b"x"));
    let results = files
        .iter_mut()
        .find(|f| f.path == "dev/results.jsonl")
        .unwrap();
    results
        .bytes
        .extend_from_slice(b"{\"trace_id\": \"q9\", \"candidates\": {\"m\": {\"turns\": NaN}}}\n");
    let in_memory = import_files_keeping_warnings(&files, &opts()).unwrap_err();
    let Err(StreamError::Import(streamed)) = stream(&files, &opts()) else {
        panic!("expected an import error");
    };
    assert_eq!(streamed.error, in_memory.error);
    assert_eq!(streamed.warnings, in_memory.warnings);
    assert!(
        streamed.error.to_string().contains("dev/results.jsonl"),
        "{}",
        streamed.error
    );
    assert!(
        streamed.error.to_string().contains("NaN"),
        "{}",
        streamed.error
    );
}
