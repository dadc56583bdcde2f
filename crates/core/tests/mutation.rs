//! A bounded, seeded mutation test of everything that reads user files: harness files (the
//! hand-written corpus in `tests/data/import`, the harness's own layout), the v1 bundle made
//! from them and its v2 entries. Each iteration applies one mutation — a truncation, a bit
//! flip, a duplicated line or a deleted line — to one file, then imports or parses. Nothing
//! may panic, and every error names its file (and, for the harness's line files and the v1
//! JSON, the line). Natively 2,000 iterations per reader (5,000 also pass, in 5 s); in wasm
//! (Node) 60.

mod common;

use runlens_core::bundle::Bundle;
use runlens_core::bundle::v2::{MANIFEST, MemoryEntries, read_bundle, write_entries};
use runlens_core::import::{ImportOptions, InputFile, import_files};

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

#[cfg(not(target_arch = "wasm32"))]
const ITERATIONS: u64 = 2000;
#[cfg(target_arch = "wasm32")]
const ITERATIONS: u64 = 60;

/// The corpus, embedded (the wasm test has no file system).
const FILES: [(&str, &[u8]); 7] = [
    (
        "dev/annotated.jsonl",
        include_bytes!("data/import/dev/annotated.jsonl"),
    ),
    (
        "dev/results.jsonl",
        include_bytes!("data/import/dev/results.jsonl"),
    ),
    (
        "dev/fm_labels.jsonl",
        include_bytes!("data/import/dev/fm_labels.jsonl"),
    ),
    (
        "dev/board_manifest.json",
        include_bytes!("data/import/dev/board_manifest.json"),
    ),
    (
        "out/schema_retrieval.jsonl",
        include_bytes!("data/import/out/schema_retrieval.jsonl"),
    ),
    (
        "out/failure_labels.jsonl",
        include_bytes!("data/import/out/failure_labels.jsonl"),
    ),
    (
        "out/schema_retrieval_agent.jsonl",
        include_bytes!("data/import/out/schema_retrieval_agent.jsonl"),
    ),
];

/// SplitMix64: a fixed, dependency-free sequence per seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// One mutation of `bytes`, named for the failure message.
fn mutate(bytes: &[u8], rng: &mut Rng) -> (Vec<u8>, String) {
    let mut out = bytes.to_vec();
    let lines: Vec<(usize, usize)> = line_spans(bytes);
    match rng.below(4) {
        0 => {
            let at = rng.below(out.len());
            out.truncate(at);
            (out, format!("truncated at byte {at}"))
        }
        1 => {
            let at = rng.below(out.len());
            let bit = rng.below(8);
            out[at] ^= 1 << bit;
            (out, format!("bit {bit} of byte {at} flipped"))
        }
        2 => {
            let n = rng.below(lines.len());
            let (start, end) = lines[n];
            out.splice(end..end, bytes[start..end].to_vec());
            (out, format!("line {} duplicated", n + 1))
        }
        _ => {
            let n = rng.below(lines.len());
            let (start, end) = lines[n];
            out.drain(start..end);
            (out, format!("line {} deleted", n + 1))
        }
    }
}

/// Byte ranges of each line, its newline included.
fn line_spans(bytes: &[u8]) -> Vec<(usize, usize)> {
    let mut spans = Vec::new();
    let mut start = 0;
    for (i, b) in bytes.iter().enumerate() {
        if *b == b'\n' {
            spans.push((start, i + 1));
            start = i + 1;
        }
    }
    if start < bytes.len() {
        spans.push((start, bytes.len()));
    }
    spans
}

fn corpus() -> Vec<InputFile> {
    FILES
        .iter()
        .map(|(path, bytes)| InputFile {
            path: (*path).to_owned(),
            bytes: bytes.to_vec(),
        })
        .collect()
}

#[test]
fn damaged_harness_files_give_errors_naming_file_and_line_never_a_panic() {
    let mut errors = 0;
    for seed in 0..ITERATIONS {
        let mut rng = Rng(seed);
        let mut files = corpus();
        let target = rng.below(files.len());
        let (bytes, what) = mutate(&files[target].bytes, &mut rng);
        files[target].bytes = bytes;
        let path = files[target].path.clone();
        if let Err(err) = import_files(&files, &ImportOptions::default()) {
            errors += 1;
            let case = format!("seed {seed}: {path} {what}: {err}");
            assert!(
                FILES.iter().any(|(p, _)| *p == err.file),
                "the error names no input file ({case})"
            );
            // Only a whole-file fault has no line.
            let whole_file = err.found == "an empty file";
            assert!(
                err.line.is_some() || whole_file,
                "the error names no line ({case})"
            );
        }
    }
    // The test means something only if damage is found often.
    assert!(
        errors > ITERATIONS / 4,
        "only {errors} errors in {ITERATIONS} iterations"
    );
}

fn sample_bundle() -> Bundle {
    import_files(&corpus(), &ImportOptions::default())
        .expect("the corpus imports")
        .bundle
}

#[test]
fn a_damaged_v1_bundle_is_an_error_with_a_line_or_a_hash_mismatch_never_a_panic() {
    let json = sample_bundle().to_json_vec();
    let mut errors = 0;
    for seed in 0..ITERATIONS {
        let mut rng = Rng(seed);
        let (bytes, what) = mutate(&json, &mut rng);
        let outcome = Bundle::from_slice(&bytes).map(|b| b.verify_content_hash().map(|_| ()));
        match outcome {
            Err(err) => {
                errors += 1;
                let text = err.to_string();
                // A syntax or type error names its line; a changed `format` is the document's.
                let whole = text.contains("unsupported format");
                assert!(
                    text.contains("line ") || whole,
                    "seed {seed}: {what}: no line in {text}"
                );
            }
            Ok(Err(mismatch)) => {
                errors += 1;
                assert!(!mismatch.to_string().is_empty());
            }
            Ok(Ok(())) => {}
        }
    }
    assert!(
        errors > ITERATIONS / 2,
        "only {errors} errors in {ITERATIONS} iterations"
    );
}

#[test]
fn a_damaged_v2_entry_is_an_error_naming_the_entry_never_a_panic() {
    let (manifest, entries) = write_entries(&sample_bundle()).expect("v2 entries");
    let mut all: Vec<(String, Vec<u8>)> = vec![(MANIFEST.to_owned(), manifest)];
    all.extend(entries.into_iter().map(|e| (e.path, e.bytes)));
    let mut errors = 0;
    for seed in 0..ITERATIONS {
        let mut rng = Rng(seed);
        let target = rng.below(all.len());
        let (bytes, what) = mutate(&all[target].1, &mut rng);
        let mut source = MemoryEntries(all.iter().cloned().collect());
        source.0.insert(all[target].0.clone(), bytes);
        let path = &all[target].0;
        if let Err(err) = read_bundle(&mut source) {
            errors += 1;
            let text = err.to_string();
            // A damaged manifest can make a sound entry look wrong (a changed chunk count):
            // the error then names that entry and row.
            assert!(
                all.iter().any(|(p, _)| text.contains(p.as_str())),
                "seed {seed}: {path} {what}: the error names no entry of the bundle: {text}"
            );
        }
    }
    assert!(
        errors > ITERATIONS / 2,
        "only {errors} errors in {ITERATIONS} iterations"
    );
}
