//! `runlens.bundle/2`: the directory and zip forms read back into exactly the v1 bundle, and
//! every kind of damage is an error naming the entry (and the row where there is one).
//! Native only: the zip form and the directory form read files (the codec, split and text
//! chunk unit tests in `src/bundle/v2/` also run on wasm32).
#![cfg(not(target_arch = "wasm32"))]

mod common;

use std::io::Cursor;

use runlens_core::bundle::v2::packed::encode;
use runlens_core::bundle::v2::schema::{Column, Kind};
use runlens_core::bundle::v2::split::ColumnData;
use runlens_core::bundle::v2::zip_form::{ZipEntries, write_zip, zip_order};
use runlens_core::bundle::v2::{
    DirEntries, Entry, EntrySource, FORMAT_V2, MANIFEST, Manifest, MemoryEntries, V2Error,
    read_bundle, write_entries,
};
use runlens_core::bundle::{Bundle, hex_digest};
use runlens_core::import::{ImportOptions, import_files};
use sha2::{Digest, Sha256};

fn dev_bundle() -> Bundle {
    let opts = ImportOptions {
        runlens_version: "0.1.0".into(),
        created_at: "2026-12-02T12:00:00Z".into(),
        ..ImportOptions::default()
    };
    let mut bundle = import_files(&common::dev_corpus_files(), &opts)
        .unwrap()
        .bundle;
    // An unrounded float, and a null cell next to a real one, survive.
    let row = &mut bundle.body.corpora[0].results[1];
    let cell = row.candidates.get_mut("gpt-4.1").unwrap().as_mut().unwrap();
    cell.latency = Some(0.1 + 0.2);
    row.candidates.insert("absent-model".into(), None);
    Bundle::new(bundle.provenance.clone(), bundle.body)
}

/// Entries held in memory, as a test can damage them.
struct Memory(Vec<(String, Vec<u8>)>);

impl Memory {
    fn of(manifest: Vec<u8>, entries: Vec<Entry>) -> Memory {
        let mut all = vec![(MANIFEST.to_owned(), manifest)];
        all.extend(entries.into_iter().map(|e| (e.path, e.bytes)));
        Memory(all)
    }

    fn get_mut(&mut self, path: &str) -> &mut Vec<u8> {
        &mut self.0.iter_mut().find(|(p, _)| p == path).unwrap().1
    }

    fn manifest(&self) -> Manifest {
        serde_json::from_slice(&self.0[0].1).unwrap()
    }

    fn set_manifest(&mut self, m: &Manifest) {
        self.0[0].1 = serde_json::to_vec(m).unwrap();
    }

    /// Replaces an entry and writes its new size and digest into the manifest.
    fn replace(&mut self, path: &str, bytes: Vec<u8>) {
        let mut m = self.manifest();
        let info = m.entries.iter_mut().find(|e| e.path == path).unwrap();
        info.size = bytes.len() as u64;
        info.sha256 = hex_digest(&Sha256::digest(&bytes));
        self.set_manifest(&m);
        *self.get_mut(path) = bytes;
    }
}

impl EntrySource for Memory {
    fn entry(&mut self, path: &str) -> Result<Vec<u8>, V2Error> {
        self.0
            .iter()
            .find(|(p, _)| p == path)
            .map(|(_, b)| b.clone())
            .ok_or_else(|| V2Error::Missing {
                path: path.to_owned(),
            })
    }
}

fn memory() -> (Bundle, Memory) {
    let bundle = dev_bundle();
    let (manifest, entries) = write_entries(&bundle).unwrap();
    (bundle, Memory::of(manifest, entries))
}

#[test]
fn the_zip_and_the_directory_read_back_into_the_same_bundle_and_hash() {
    let bundle = dev_bundle();
    let (manifest, entries) = write_entries(&bundle).unwrap();
    let zip = write_zip(Cursor::new(Vec::new()), &manifest, &entries)
        .unwrap()
        .into_inner();
    let back = read_bundle(&mut ZipEntries::new(Cursor::new(zip.clone())).unwrap()).unwrap();
    assert_eq!(back, bundle);
    assert_eq!(back.body.content_hash(), bundle.content_hash);
    assert_eq!(back.to_json_vec(), bundle.to_json_vec());
    // The zip's first entry is the manifest, stored: its bytes stand in the file as they are.
    assert_eq!(&zip[..4], b"PK\x03\x04");
    assert_eq!(&zip[30..30 + MANIFEST.len()], MANIFEST.as_bytes());
    assert!(
        zip.windows(manifest.len())
            .any(|w| w == manifest.as_slice())
    );

    let dir = std::env::temp_dir().join(format!("runlens-v2-dir-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    for (path, bytes) in std::iter::once((MANIFEST.to_owned(), manifest))
        .chain(entries.into_iter().map(|e| (e.path, e.bytes)))
    {
        let file = dir.join(&path);
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(file, bytes).unwrap();
    }
    assert_eq!(read_bundle(&mut DirEntries(dir.clone())).unwrap(), bundle);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_manifest_lists_every_entry_with_size_and_digest_and_the_v1_hash() {
    let (bundle, mem) = memory();
    let m = mem.manifest();
    assert_eq!(m.format, FORMAT_V2);
    assert_eq!(m.content_hash, bundle.content_hash);
    assert_eq!(m.entries.len(), mem.0.len() - 1);
    for (info, (path, bytes)) in m.entries.iter().zip(&mem.0[1..]) {
        assert_eq!(&info.path, path);
        assert_eq!(info.size, bytes.len() as u64);
        assert_eq!(info.sha256, hex_digest(&Sha256::digest(bytes)));
    }
    let corpus = &m.corpora[0];
    assert_eq!(corpus.dir, "corpora/0");
    let c = &bundle.body.corpora[0];
    let cells: usize = c.results.iter().map(|r| r.candidates.len()).sum();
    assert_eq!(corpus.rows["cells"], cells as u64);
    assert_eq!(corpus.rows["results"], c.results.len() as u64);
    assert_eq!(corpus.rows["gate_rows"], c.gate_rows.len() as u64);
    assert!(m.head.get("corpora").is_none());
    assert_eq!(m.head["universe"], serde_json::json!(bundle.body.universe));
}

fn error(mem: &mut Memory) -> String {
    read_bundle(mem).unwrap_err().to_string()
}

#[test]
fn a_missing_entry_or_a_changed_byte_names_the_entry() {
    let (_, mut mem) = memory();
    mem.0.retain(|(p, _)| p != "corpora/0/cells.cols.gz");
    assert_eq!(
        error(&mut mem),
        "bundle: entry corpora/0/cells.cols.gz is missing"
    );

    let (_, mut mem) = memory();
    let m = mem.manifest();
    let info = m
        .entries
        .iter()
        .find(|e| e.path == "corpora/0/rankings.cols.gz")
        .unwrap()
        .clone();
    let last = mem.get_mut(&info.path).last_mut().unwrap();
    *last ^= 1;
    let flipped = hex_digest(&Sha256::digest(mem.entry(&info.path).unwrap()));
    assert_eq!(
        error(&mut mem),
        format!(
            "bundle: entry corpora/0/rankings.cols.gz: sha256 {flipped} does not match the manifest's {}",
            info.sha256
        )
    );

    let (_, mut mem) = memory();
    mem.get_mut("corpora/0/questions.cols.gz").push(0);
    let size = mem
        .manifest()
        .entries
        .iter()
        .find(|e| e.path == "corpora/0/questions.cols.gz")
        .unwrap()
        .size;
    assert_eq!(
        error(&mut mem),
        format!(
            "bundle: entry corpora/0/questions.cols.gz: size {} does not match the manifest's {size}",
            size + 1
        )
    );
}

#[test]
fn a_manifest_of_another_format_or_shape_is_refused() {
    let (_, mut mem) = memory();
    let mut m = mem.manifest();
    m.format = "runlens.bundle/3".into();
    mem.set_manifest(&m);
    assert_eq!(
        error(&mut mem),
        "bundle: manifest.json has format \"runlens.bundle/3\"; expected \"runlens.bundle/2\""
    );
    let (_, mut mem) = memory();
    mem.0[0].1 = b"{\"format\": \"runlens.bundle/2\",\n \"provenance\": 7}".to_vec();
    assert!(
        error(&mut mem)
            .starts_with("bundle: manifest.json line 0, column 0: invalid type: integer `7`"),
        "{}",
        error(&mut mem)
    );
    let (_, mut mem) = memory();
    mem.0[0].1 = b"{\"format\": ".to_vec();
    assert_eq!(
        error(&mut mem),
        "bundle: manifest.json line 1, column 11: EOF while parsing a value at line 1 column 11"
    );
}

#[test]
fn a_column_of_the_wrong_type_or_length_names_entry_and_column() {
    let (bundle, mut mem) = memory();
    // fm_labels with `fm` as UInt64 instead of dictionary strings.
    let n = bundle.body.corpora[0].fm_labels.len();
    let spec = [
        Column {
            name: "trace_id",
            path: &["trace_id"],
            kind: Kind::Text,
            take: true,
        },
        Column {
            name: "model",
            path: &["model"],
            kind: Kind::Dict,
            take: true,
        },
        Column {
            name: "fm",
            path: &["fm"],
            kind: Kind::U64,
            take: true,
        },
    ];
    let cols = vec![
        ColumnData::Str(vec![Some("q".into()); n]),
        ColumnData::Str(vec![Some("m".into()); n]),
        ColumnData::U64(vec![Some(1); n].into_iter().collect()),
    ];
    mem.replace("corpora/0/fm_labels.cols.gz", encode(&spec, &cols, n));
    assert_eq!(
        error(&mut mem),
        "bundle: entry corpora/0/fm_labels.cols.gz: column fm: expected dictionary strings, found unsigned integers"
    );
    // A table with fewer rows than the manifest says.
    let (_, mut mem) = memory();
    let mut m = mem.manifest();
    m.corpora[0].rows.insert("rankings".into(), 99);
    mem.set_manifest(&m);
    let rows = bundle.body.corpora[0].rankings.len();
    assert_eq!(
        error(&mut mem),
        format!("bundle: entry corpora/0/rankings.cols.gz: {rows} rows; the manifest says 99")
    );
    // Bytes that are not a table at all.
    let (_, mut mem) = memory();
    mem.replace("corpora/0/gate_rows.cols.gz", b"not a table".to_vec());
    assert!(
        error(&mut mem)
            .starts_with("bundle: entry corpora/0/gate_rows.cols.gz: not a readable table: gzip: "),
        "{}",
        error(&mut mem)
    );
}

#[test]
fn a_text_index_past_its_chunk_names_entry_and_row() {
    let (_, mut mem) = memory();
    // The first cells text chunk, cut to 10 bytes (and re-listed in the manifest).
    let path = "corpora/0/cells.text/0.gz";
    let text = runlens_core::bundle::v2::text::inflate(&mem.entry(path).unwrap()).unwrap();
    let mut short = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    std::io::Write::write_all(&mut short, &text[..10]).unwrap();
    mem.replace(path, short.finish().unwrap());
    let err = error(&mut mem);
    assert!(
        err.starts_with("bundle: entry corpora/0/cells.cols.gz, row 0: text record 0..")
            && err.ends_with("is past the end of chunk 0 (10 bytes)"),
        "{err}"
    );
}

#[test]
fn a_truncated_zip_is_a_zip_error() {
    let bundle = dev_bundle();
    let (manifest, entries) = write_entries(&bundle).unwrap();
    let zip = write_zip(Cursor::new(Vec::new()), &manifest, &entries)
        .unwrap()
        .into_inner();
    let cut = zip[..zip.len() - 40].to_vec();
    let err = ZipEntries::new(Cursor::new(cut)).err().unwrap().to_string();
    assert!(
        err.starts_with("bundle: zip: not a readable zip (truncated?)"),
        "{err}"
    );
}

#[test]
fn the_v1_reader_says_what_a_v2_zip_is() {
    let bundle = dev_bundle();
    let (manifest, entries) = write_entries(&bundle).unwrap();
    let zip = write_zip(Cursor::new(Vec::new()), &manifest, &entries)
        .unwrap()
        .into_inner();
    assert_eq!(
        Bundle::from_slice(&zip).unwrap_err().to_string(),
        "bundle: this is a runlens.bundle/2 zip, which this reader does not open; \
         convert it with `runlens convert RUN.zip RUN.json.gz`"
    );
}

mod zip_index {
    use super::*;
    use runlens_core::bundle::v2::zip_index::{
        LOCAL_HEADER, TAIL_BYTES, ZipIndexError, central_directory, coalesce, data_offset, entries,
        entry_bytes, spans,
    };
    use runlens_core::bundle::v2::{MemoryEntries, parse_manifest};

    fn zip_of_dev() -> (Vec<u8>, Vec<(String, Vec<u8>)>) {
        let (manifest, list) = write_entries(&dev_bundle()).unwrap();
        let zip = write_zip(Cursor::new(Vec::new()), &manifest, &list)
            .unwrap()
            .into_inner();
        // In the zip's order, as the browser reads it: the manifest, the cells columns, the
        // questions, rankings, labels and gate rows with their text, the other columns, the
        // other text, the cells' text.
        let mut all = vec![(MANIFEST.to_owned(), manifest)];
        let paths: Vec<&str> = list.iter().map(|e| e.path.as_str()).collect();
        all.extend(
            zip_order(&paths)
                .into_iter()
                .map(|i| (list[i].path.clone(), list[i].bytes.clone())),
        );
        let names: Vec<&str> = all.iter().map(|(p, _)| p.as_str()).collect();
        assert_eq!(
            names[..12],
            [
                MANIFEST,
                "corpora/0/cells.cols.gz",
                "corpora/0/questions.cols.gz",
                "corpora/0/questions.text/0.gz",
                "corpora/0/rankings.cols.gz",
                "corpora/0/rankings.text/0.gz",
                "corpora/0/failure_labels.cols.gz",
                "corpora/0/failure_labels.text/0.gz",
                "corpora/0/fm_labels.cols.gz",
                "corpora/0/fm_labels.text/0.gz",
                "corpora/0/gate_rows.cols.gz",
                "corpora/0/gate_rows.text/0.gz",
            ]
        );
        let text_from = all
            .iter()
            .position(|(p, _)| p.contains("results.text/") || p.contains("cells.text/"))
            .unwrap();
        assert!(all[text_from..].iter().all(|(p, _)| p.contains(".text/")));
        assert!(
            all[12..text_from]
                .iter()
                .all(|(p, _)| !p.contains(".text/"))
        );
        // The cells' text chunks last (read one at a time, when a cell is opened).
        let cells_from = all
            .iter()
            .position(|(p, _)| p.contains("cells.text/"))
            .unwrap();
        assert!(cells_from > text_from);
        assert!(
            all[cells_from..]
                .iter()
                .all(|(p, _)| p.contains("cells.text/"))
        );
        (zip, all)
    }

    fn tail(zip: &[u8]) -> &[u8] {
        &zip[zip.len().saturating_sub(TAIL_BYTES as usize)..]
    }

    #[test]
    fn every_entry_is_found_by_byte_ranges_alone() {
        let (zip, all) = zip_of_dev();
        let (offset, size) = central_directory(tail(&zip), zip.len() as u64).unwrap();
        let cd = &zip[offset as usize..(offset + size) as usize];
        let found = entries(cd).unwrap();
        let names: Vec<&str> = found.iter().map(|e| e.name.as_str()).collect();
        let expected: Vec<&str> = all.iter().map(|(p, _)| p.as_str()).collect();
        assert_eq!(names, expected);
        for (entry, (_, bytes)) in found.iter().zip(&all) {
            let h = entry.header_offset as usize;
            let start = data_offset(entry, &zip[h..h + LOCAL_HEADER]).unwrap() as usize;
            assert_eq!(entry.size, bytes.len() as u64);
            assert_eq!(
                &zip[start..start + bytes.len()],
                bytes.as_slice(),
                "{}",
                entry.name
            );
        }
    }

    #[test]
    fn a_cut_file_a_compressed_entry_and_a_wrong_header_are_named() {
        let (zip, _) = zip_of_dev();
        let cut = &zip[..zip.len() - 10];
        let n = tail(cut).len();
        assert_eq!(
            central_directory(tail(cut), cut.len() as u64)
                .unwrap_err()
                .to_string(),
            format!(
                "zip: no end-of-central-directory record in the last {n} bytes (truncated, or not a zip)"
            )
        );
        // The first central record says "deflated" (method 8 at byte 10 of the record).
        let (offset, size) = central_directory(tail(&zip), zip.len() as u64).unwrap();
        let mut cd = zip[offset as usize..(offset + size) as usize].to_vec();
        cd[10] = 8;
        assert_eq!(
            entries(&cd).unwrap_err(),
            ZipIndexError::Compressed {
                name: MANIFEST.to_owned(),
                method: 8
            }
        );
        // A central directory cut in its first record.
        assert_eq!(
            entries(&zip[offset as usize..offset as usize + 20])
                .unwrap_err()
                .to_string(),
            "zip: central directory cut at byte 0"
        );
        let first = &entries(&zip[offset as usize..(offset + size) as usize]).unwrap()[0];
        assert_eq!(
            data_offset(first, &[0u8; LOCAL_HEADER])
                .unwrap_err()
                .to_string(),
            "zip: entry manifest.json: no local header at 0"
        );
    }

    #[test]
    fn spans_coalesced_into_one_range_give_every_entry_and_read_back_the_bundle() {
        let (zip, all) = zip_of_dev();
        let (offset, size) = central_directory(tail(&zip), zip.len() as u64).unwrap();
        let found = entries(&zip[offset as usize..(offset + size) as usize]).unwrap();
        let spans = spans(&found, offset);
        // Entries are written back to back: every span ends where the next header starts,
        // the last where the central directory starts.
        for (pair, next) in spans.iter().zip(spans.iter().skip(1)) {
            assert_eq!(pair.1, next.0);
        }
        assert_eq!(spans.last().unwrap().1, offset);
        assert_eq!(spans[0].0, 0);
        // Everything but the manifest: one request, from the second header to the directory.
        let ranges = coalesce(spans[1..].to_vec(), 0);
        assert_eq!(ranges, vec![(spans[1].0, offset)]);
        let (start, end) = ranges[0];
        let buf = &zip[start as usize..end as usize];
        let mut memory = MemoryEntries::default();
        for (entry, (path, bytes)) in found.iter().zip(&all).skip(1) {
            let got = entry_bytes(entry, buf, start).unwrap();
            assert_eq!(got, bytes.as_slice(), "{path}");
            memory.0.insert(path.clone(), got.to_vec());
        }
        // The manifest out of the whole file, as when a host ignores Range.
        let manifest = entry_bytes(&found[0], &zip, 0).unwrap();
        assert_eq!(parse_manifest(manifest).unwrap().format, FORMAT_V2);
        memory.0.insert(MANIFEST.to_owned(), manifest.to_vec());
        let bundle = read_bundle(&mut memory).unwrap();
        assert_eq!(bundle, dev_bundle());
        // The manifest's span does not hold the second entry.
        let (s0, e0) = spans[0];
        assert_eq!(
            entry_bytes(&found[1], &zip[s0 as usize..e0 as usize], s0)
                .unwrap_err()
                .to_string(),
            format!(
                "zip: entry {}: no local header at {}",
                found[1].name, found[1].header_offset
            )
        );
        // A buffer that starts after the entry's header.
        assert_eq!(
            entry_bytes(&found[0], &zip[1..], 1)
                .unwrap_err()
                .to_string(),
            format!(
                "zip: entry manifest.json: its bytes ({} from 0) are outside the range read",
                found[0].size
            )
        );
    }

    #[test]
    fn coalesce_merges_ranges_within_the_gap_in_file_order() {
        let ranges = vec![(100, 200), (0, 10), (15, 50), (60, 70), (205, 300)];
        assert_eq!(
            coalesce(ranges.clone(), 0),
            vec![(0, 10), (15, 50), (60, 70), (100, 200), (205, 300)]
        );
        assert_eq!(
            coalesce(ranges.clone(), 5),
            vec![(0, 50), (60, 70), (100, 300)]
        );
        assert_eq!(coalesce(ranges, 30), vec![(0, 300)]);
        assert_eq!(coalesce(vec![(0, 100), (10, 20)], 0), vec![(0, 100)]);
    }
}

mod facts {
    use super::*;
    use runlens_core::bundle::v2::facts::model_columns;
    use runlens_core::bundle::{LossRule, Outcome, ResultScore};
    use runlens_core::metrics::Stepwise;
    use runlens_core::metrics::board_run::{BoardRun, rows_of_columns};

    /// The dev bundle with the cells the leaderboard treats specially: legacy `loss`, an
    /// error, a turn limit, a cell without usage, an unknown outcome.
    fn varied() -> Bundle {
        let mut bundle = dev_bundle();
        let corpus = &mut bundle.body.corpora[0];
        let model = corpus.models[0].clone();
        for (i, row) in corpus.results.iter_mut().enumerate() {
            let Some(Some(cell)) = row.candidates.get_mut(model.as_str()) else {
                continue;
            };
            let score = cell.result_score.get_or_insert_with(ResultScore::default);
            match i % 5 {
                0 => score.outcome = Some(Outcome::Loss),
                1 => cell.error = Some("max turns (60)".into()),
                2 => cell.usage = None,
                3 => score.outcome = Some(Outcome::Other("judge-timeout".into())),
                _ => {}
            }
        }
        Bundle::new(bundle.provenance.clone(), bundle.body)
    }

    #[test]
    fn the_leaderboard_from_the_cells_columns_equals_the_one_from_the_bundle() {
        for bundle in [dev_bundle(), varied()] {
            let (manifest, entries) = write_entries(&bundle).unwrap();
            let manifest: Manifest = serde_json::from_slice(&manifest).unwrap();
            for (info, corpus) in manifest.corpora.iter().zip(&bundle.body.corpora) {
                let cells = entries
                    .iter()
                    .find(|e| e.path == format!("{}/cells.cols.gz", info.dir))
                    .unwrap();
                for loss in [LossRule::Excluded, LossRule::AsFail] {
                    let columns = model_columns(info, &cells.bytes, loss).unwrap();
                    assert_eq!(columns.len(), corpus.models.len());
                    let expected = BoardRun::new(&bundle.body, corpus, loss).finish();
                    assert!(!expected.is_empty());
                    assert_eq!(
                        rows_of_columns(&bundle.body, &columns),
                        expected,
                        "{loss:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn the_cells_entry_is_named_by_its_path() {
        use runlens_core::bundle::v2::facts::is_cells_path;
        assert!(is_cells_path("corpora/0/cells.cols.gz"));
        assert!(is_cells_path("corpora/12/cells.cols.gz"));
        assert!(!is_cells_path("corpora/0/cells.text/0.gz"));
        assert!(!is_cells_path("corpora/0/results.cols.gz"));
        assert!(!is_cells_path("corpora/0/xcells.cols.gz"));
    }

    #[test]
    fn a_damaged_cells_table_is_named() {
        let bundle = dev_bundle();
        let (manifest, _) = write_entries(&bundle).unwrap();
        let manifest: Manifest = serde_json::from_slice(&manifest).unwrap();
        let info = &manifest.corpora[0];
        assert_eq!(
            model_columns(info, b"not gzip", LossRule::Excluded)
                .unwrap_err()
                .to_string(),
            format!(
                "bundle: entry {}/cells.cols.gz: not a readable table: gzip: unexpected end of file",
                info.dir
            )
        );
    }
}

#[test]
fn entries_inflated_by_the_caller_read_back_the_same_bundle_and_facts() {
    use runlens_core::bundle::LossRule;
    use runlens_core::bundle::v2::facts::{model_columns, model_columns_plain};
    use runlens_core::bundle::v2::text::inflate;
    use runlens_core::bundle::v2::{MemoryEntries, check_entry, read_bundle_inflated};
    let bundle = dev_bundle();
    let (manifest_bytes, entries) = write_entries(&bundle).unwrap();
    let manifest: Manifest = serde_json::from_slice(&manifest_bytes).unwrap();
    let mut memory = MemoryEntries::default();
    memory.0.insert(MANIFEST.to_owned(), manifest_bytes);
    for e in &entries {
        let info = manifest.entries.iter().find(|i| i.path == e.path).unwrap();
        check_entry(info, &e.bytes).unwrap();
        let bytes = if e.path.ends_with(".gz") {
            inflate(&e.bytes).unwrap()
        } else {
            e.bytes.clone()
        };
        memory.0.insert(e.path.clone(), bytes);
    }
    let cells = format!("{}/cells.cols.gz", manifest.corpora[0].dir);
    let compressed = &entries.iter().find(|e| e.path == cells).unwrap().bytes;
    assert_eq!(
        model_columns_plain(&manifest.corpora[0], &memory.0[&cells], LossRule::Excluded).unwrap(),
        model_columns(&manifest.corpora[0], compressed, LossRule::Excluded).unwrap()
    );
    // JSON entries are still checked here: a changed byte in one is named.
    let mut damaged = MemoryEntries(memory.0.clone());
    damaged.0.get_mut(MANIFEST).unwrap();
    let board = format!("{}/board_manifest.json", manifest.corpora[0].dir);
    damaged.0.get_mut(&board).unwrap()[2] ^= 1;
    let e = read_bundle_inflated(&mut damaged).unwrap_err().to_string();
    assert!(
        e.starts_with(&format!("bundle: entry {board}: sha256 ")),
        "{e}"
    );
    assert_eq!(read_bundle_inflated(&mut memory).unwrap(), bundle);
}

#[test]
fn the_early_tables_alone_read_the_questions_rankings_labels_and_gate_rows_of_the_whole_bundle() {
    use runlens_core::bundle::v2::text::inflate;
    use runlens_core::bundle::v2::{
        CopiedEntries, MemoryEntries, is_early_table_path, read_bundle_inflated, read_early_tables,
    };
    let bundle = dev_bundle();
    let (manifest_bytes, entries) = write_entries(&bundle).unwrap();
    let mut memory = MemoryEntries::default();
    memory.0.insert(MANIFEST.to_owned(), manifest_bytes);
    let inflated = |e: &Entry| {
        if e.path.ends_with(".gz") {
            inflate(&e.bytes).unwrap()
        } else {
            e.bytes.clone()
        }
    };
    // Only the manifest and the early tables are in, as in the browser after the summary.
    let (ranking, rest): (Vec<&Entry>, Vec<&Entry>) =
        entries.iter().partition(|e| is_early_table_path(&e.path));
    let mut names: Vec<&str> = ranking.iter().map(|e| e.path.as_str()).collect();
    names.sort_unstable();
    assert_eq!(
        names,
        [
            "corpora/0/failure_labels.cols.gz",
            "corpora/0/failure_labels.text/0.gz",
            "corpora/0/fm_labels.cols.gz",
            "corpora/0/fm_labels.text/0.gz",
            "corpora/0/gate_rows.cols.gz",
            "corpora/0/gate_rows.text/0.gz",
            "corpora/0/questions.cols.gz",
            "corpora/0/questions.text/0.gz",
            "corpora/0/rankings.cols.gz",
            "corpora/0/rankings.text/0.gz",
        ]
    );
    for e in &ranking {
        memory.0.insert(e.path.clone(), inflated(e));
    }
    let partial = read_early_tables(&mut CopiedEntries(&memory)).unwrap();
    assert_eq!(partial.content_hash, bundle.content_hash);
    assert_eq!(partial.body.universe, bundle.body.universe);
    assert_eq!(partial.body.namespaces, bundle.body.namespaces);
    let (got, want) = (&partial.body.corpora[0], &bundle.body.corpora[0]);
    assert_eq!((&got.name, &got.models), (&want.name, &want.models));
    assert_eq!(got.questions, want.questions);
    assert_eq!(got.rankings, want.rankings);
    assert_eq!(got.gate_rows, want.gate_rows);
    assert_eq!(got.failure_labels, want.failure_labels);
    assert_eq!(got.fm_labels, want.fm_labels);
    assert!(!want.gate_rows.is_empty(), "the test bundle has gate rows");
    assert!(!want.failure_labels.is_empty() && !want.fm_labels.is_empty());
    assert!(got.results.is_empty());
    // Copied, not taken: the whole bundle still reads from the same entries.
    for e in &rest {
        memory.0.insert(e.path.clone(), inflated(e));
    }
    assert_eq!(read_bundle_inflated(&mut memory).unwrap(), bundle);
    for other in [
        "corpora/0/cells.cols.gz",
        "corpora/0/cells.text/0.gz",
        "corpora/0/questionsx.cols.gz",
        "manifest.json",
        "questions.cols.gz",
    ] {
        assert!(!is_early_table_path(other), "{other}");
    }
}

/// The body's canonical JSON a slice at a time (the loader worker hashes it between other
/// work) is, joined, exactly `canonical_json`, and hashes to the content hash: for the dev
/// corpus with every optional part, with text that looks like the splice points, for any
/// piece size, and for a body without corpora.
#[test]
fn the_canonical_json_in_pieces_is_the_canonical_json() {
    use runlens_core::bundle::{BodyHasher, CanonicalPieces, FailureLabel, Warning};
    let mut bundle = dev_bundle();
    let body = &mut bundle.body;
    body.notice = Some("synthetic \"questions\":[] {\"corpora\":[]}".into());
    body.corpora[0].questions[0].nl_question = "\",\"results\":[],\"x\":\"".into();
    body.corpora[0].board_manifest = Some(serde_json::json!({"questions": [], "k": [1, 2]}));
    body.corpora[0].failure_labels.push(FailureLabel {
        model: "m".into(),
        trace_id: "t\\\"".into(),
        ..FailureLabel::default()
    });
    body.warnings.push(Warning {
        file: "out/\"gate_rows\":[].jsonl".into(),
        line: Some(3),
        kind: "k".into(),
        message: "[]".into(),
    });
    let mut second = body.corpora[0].clone();
    second.name = "second".into();
    second.results.clear();
    body.corpora.push(second);
    let bundle = Bundle::new(bundle.provenance.clone(), bundle.body);
    let whole = bundle.body.canonical_json();
    for piece_bytes in [1, 100, 4096, usize::MAX] {
        let joined: Vec<u8> = CanonicalPieces::new(&bundle.body, piece_bytes)
            .flatten()
            .collect();
        if joined != whole {
            let at = joined
                .iter()
                .zip(&whole)
                .position(|(a, b)| a != b)
                .unwrap_or(joined.len().min(whole.len()));
            let ctx = |v: &[u8]| {
                String::from_utf8_lossy(&v[at.saturating_sub(80)..(at + 80).min(v.len())])
                    .into_owned()
            };
            panic!(
                "pieces of {piece_bytes} bytes differ at {at} (lengths {} / {}):\n{}\n---\n{}",
                joined.len(),
                whole.len(),
                ctx(&joined),
                ctx(&whole)
            );
        }
    }
    // Pieces of about 100 bytes: many, each whole rows.
    assert!(CanonicalPieces::new(&bundle.body, 100).count() > 20);
    let mut hasher = BodyHasher::new(&bundle.body, 256);
    let mut steps = 0;
    let digest = loop {
        steps += 1;
        if let Some(d) = hasher.step(1024) {
            break d;
        }
    };
    assert!(steps > 3, "{steps}");
    assert_eq!(digest, bundle.content_hash);
    let empty = runlens_core::bundle::BundleBody::default();
    let joined: Vec<u8> = CanonicalPieces::new(&empty, 10).flatten().collect();
    assert_eq!(joined, empty.canonical_json());
}

#[test]
fn a_bundle_read_without_the_cells_text_has_the_same_metrics_and_each_cell_fills_back_exactly() {
    use runlens_core::bundle::LossRule;
    use runlens_core::bundle::v2::text::inflate;
    use runlens_core::bundle::v2::{
        MemoryEntries, TakenEntries, cell_text_path, fill_cell, is_cell_text_path,
        read_bundle_after, read_bundle_light, read_early_tables, read_early_tables_light,
    };
    use runlens_core::metrics::board_run::boards;
    let bundle = dev_bundle();
    let (manifest_bytes, entries) = write_entries(&bundle).unwrap();
    let manifest: Manifest = serde_json::from_slice(&manifest_bytes).unwrap();
    let inflated = |e: &Entry| {
        if e.path.ends_with(".gz") {
            inflate(&e.bytes).unwrap()
        } else {
            e.bytes.clone()
        }
    };
    // The cells' text chunks are not in the source at all.
    let mut memory = MemoryEntries::default();
    memory.0.insert(MANIFEST.to_owned(), manifest_bytes);
    let mut chunks = Vec::new();
    for e in &entries {
        if is_cell_text_path(&e.path) {
            chunks.push((e.path.clone(), inflated(e)));
        } else {
            memory.0.insert(e.path.clone(), inflated(e));
        }
    }
    assert!(!chunks.is_empty());
    // Read after the early tables, which took their entries and are moved in instead of
    // read again: the same bundle, with or without the cells' text.
    let mut rest = MemoryEntries(memory.0.clone());
    let early = read_early_tables_light(&mut TakenEntries(&mut rest)).unwrap();
    assert!(!rest.0.keys().any(|p| p.contains("rankings")));
    let after = read_bundle_after(&mut rest, early, false).unwrap();
    let light = read_bundle_light(&mut memory).unwrap();
    assert_eq!(after, light);
    // A light read's questions are the whole bundle's but for the annotators' runs, which
    // the test corpus has.
    for (light_c, whole_c) in light.body.corpora.iter().zip(&bundle.body.corpora) {
        assert_eq!(light_c.questions.len(), whole_c.questions.len());
        for (l, w) in light_c.questions.iter().zip(&whole_c.questions) {
            assert_eq!(l.annotators, None);
            let mut w = w.clone();
            w.annotators = None;
            assert_eq!(l, &w);
        }
    }
    assert!(
        bundle.body.corpora[0]
            .questions
            .iter()
            .any(|q| q.annotators.as_ref().is_some_and(|a| !a.is_empty()))
    );
    let mut whole = MemoryEntries::default();
    for e in &entries {
        whole.0.insert(e.path.clone(), inflated(e));
    }
    whole
        .0
        .insert(MANIFEST.to_owned(), write_entries(&bundle).unwrap().0);
    let early = read_early_tables(&mut TakenEntries(&mut whole)).unwrap();
    assert_eq!(read_bundle_after(&mut whole, early, true).unwrap(), bundle);
    assert_eq!(light.content_hash, bundle.content_hash);
    for loss in [LossRule::Excluded, LossRule::AsFail] {
        assert_eq!(boards(&light.body, loss), boards(&bundle.body, loss));
    }
    // The matrix of every corpus, all rows, the same from cells made or held.
    {
        use runlens_core::metrics::matrix_view::{MatrixAnswerer, MatrixQuery};
        for c in &bundle.body.corpora {
            let q = MatrixQuery {
                corpus: Some(c.name.clone()),
                ..MatrixQuery::default()
            };
            let (mut a, mut b) = (MatrixAnswerer::default(), MatrixAnswerer::default());
            assert_eq!(a.answer(&light.body, &q), b.answer(&bundle.body, &q));
            let rows = a.page(&light.body, &q, 0, usize::MAX);
            assert_eq!(rows.len(), c.results.len());
            assert_eq!(rows, b.page(&bundle.body, &q, 0, usize::MAX));
        }
    }
    let dir = &manifest.corpora[0].dir;
    let (mut filled, mut with_sql) = (0, 0);
    let light_corpus = &light.body.corpora[0];
    // The light rows hold no cells: the corpus makes them from its columns.
    assert!(light_corpus.results.iter().all(|r| r.candidates.is_empty()));
    assert!(light_corpus.light_cells.source().is_some());
    assert_eq!(
        light_corpus.cell_count(),
        bundle.body.corpora[0].cell_count()
    );
    for (i, (full_row, light_row)) in bundle.body.corpora[0]
        .results
        .iter()
        .zip(&light_corpus.results)
        .enumerate()
    {
        assert_eq!(full_row.trace_id, light_row.trace_id);
        let light_cells = light_corpus.row_cells(i);
        assert_eq!(
            full_row.candidates.keys().collect::<Vec<_>>(),
            light_cells.iter().map(|(m, _)| m).collect::<Vec<_>>()
        );
        for (k, (model, full)) in full_row.candidates.iter().enumerate() {
            let Some(full) = full else {
                assert_eq!(light_cells.position(model), Some(k));
                assert_eq!(light_cells.get(model), None);
                assert_eq!(light_cells.parts(k), None);
                continue;
            };
            let cell = light_cells.get(model).unwrap();
            let cell = &*cell;
            // What the metrics read, made without the cell, is the made cell's.
            assert_eq!(
                light_cells.parts(k),
                Some(runlens_core::bundle::CellParts::of(cell))
            );
            assert_eq!(light_cells.parts(k).unwrap().n_sqls, full.sqls.len());
            assert!(cell.sqls.is_empty() && cell.final_answer.is_none());
            assert_eq!(cell.n_sqls(), full.sqls.len());
            assert_eq!(cell.outcome(), full.outcome());
            let Some(at) = cell.text_at else {
                assert_eq!(cell, full);
                continue;
            };
            let path = cell_text_path(dir, at.chunk);
            let chunk = &chunks.iter().find(|(p, _)| *p == path).unwrap().1;
            assert_eq!(&fill_cell(cell, chunk, &path).unwrap(), full);
            filled += 1;
            with_sql += usize::from(!full.sqls.is_empty());
        }
    }
    // Every cell of the dev corpus but the null one has a record, most of them SQL.
    let cells: usize = bundle.body.corpora[0]
        .results
        .iter()
        .map(|r| r.candidates.values().flatten().count())
        .sum();
    assert_eq!(filled, cells);
    assert!(with_sql > 0);
}

#[test]
fn a_light_cell_index_past_32_bits_names_entry_row_and_column() {
    use runlens_core::bundle::v2::read_bundle_light;
    use runlens_core::bundle::v2::schema::CELLS;
    use runlens_core::bundle::v2::stored_columns;
    let path = "corpora/0/cells.cols.gz";
    let spec = stored_columns(&CELLS);
    let column = |name: &str| spec.iter().position(|c| c.name == name).unwrap();
    let mut row = 0;
    let mut memory = with_cells_changed(|cols, _| {
        let ColumnData::U64(lens) = &cols[column("text_len")] else {
            panic!("text_len is not a U64 column")
        };
        // The first cell with a text record; its offset one past u32::MAX.
        row = lens.iter().position(|l| l.unwrap_or(0) > 0).unwrap();
        let ColumnData::U64(offsets) = &mut cols[column("text_offset")] else {
            panic!("text_offset is not a U64 column")
        };
        offsets.set(row, Some(u64::from(u32::MAX) + 1));
    });
    assert_eq!(
        read_bundle_light(&mut memory).unwrap_err().to_string(),
        format!("bundle: entry {path}, row {row}: text_offset: 4294967296 is larger than a u32")
    );
}

/// `column`'s rows in the order `order` gives (row `j` of the result is row `order[j]`).
fn permuted(column: &ColumnData, order: &[usize]) -> ColumnData {
    use runlens_core::bundle::v2::nullable::{Nullable, Numbers};
    use runlens_core::bundle::v2::split::Coded;
    match column {
        ColumnData::U64(v) => {
            let mut out = Numbers::default();
            order.iter().for_each(|&i| out.push(v.get(i)));
            ColumnData::U64(out)
        }
        ColumnData::F64(v) => {
            let mut out = Nullable::with_capacity(order.len());
            order.iter().for_each(|&i| out.push(v.get(i)));
            ColumnData::F64(out)
        }
        ColumnData::Bool(v) => ColumnData::Bool(order.iter().map(|&i| v[i]).collect()),
        ColumnData::Str(v) => ColumnData::Str(order.iter().map(|&i| v[i].clone()).collect()),
        ColumnData::StrList(v) => {
            ColumnData::StrList(order.iter().map(|&i| v[i].clone()).collect())
        }
        ColumnData::Coded(c) => {
            let mut codes = Nullable::with_capacity(order.len());
            order.iter().for_each(|&i| codes.push(c.codes.get(i)));
            ColumnData::Coded(Coded {
                dict: c.dict.clone(),
                codes,
            })
        }
    }
}

/// The dev bundle's entries, inflated, with the first corpus's cells table changed by
/// `change` (its columns and rows, as decoded).
fn with_cells_changed(change: impl FnOnce(&mut Vec<ColumnData>, usize)) -> MemoryEntries {
    use runlens_core::bundle::v2::codec::decode;
    use runlens_core::bundle::v2::schema::CELLS;
    use runlens_core::bundle::v2::stored_columns;
    use runlens_core::bundle::v2::text::inflate;
    let (manifest, entries) = write_entries(&dev_bundle()).unwrap();
    let path = "corpora/0/cells.cols.gz";
    let spec = stored_columns(&CELLS);
    let cells = &entries.iter().find(|e| e.path == path).unwrap().bytes;
    let (mut cols, rows) = decode(&spec, cells).unwrap();
    change(&mut cols, rows);
    let mut memory = MemoryEntries::default();
    memory.0.insert(MANIFEST.to_owned(), manifest);
    for e in &entries {
        let bytes = if e.path == path {
            encode(&spec, &cols, rows)
        } else {
            e.bytes.clone()
        };
        let plain = if e.path.ends_with(".gz") {
            inflate(&bytes).unwrap()
        } else {
            bytes
        };
        memory.0.insert(e.path.clone(), plain);
    }
    memory
}

/// Every row's candidates of a light corpus: model, and the cell with its place in the
/// cells table left out (it moves with the table's order).
fn light_rows(
    corpus: &runlens_core::bundle::Corpus,
) -> Vec<Vec<(String, Option<runlens_core::bundle::Cell>)>> {
    (0..corpus.results.len())
        .map(|r| {
            corpus
                .row_cells(r)
                .iter()
                .map(|(model, cell)| {
                    let cell = cell.map(|c| {
                        let mut c = c.into_owned();
                        if let Some(at) = c.text_at.as_mut() {
                            at.row = 0;
                        }
                        c
                    });
                    (model.to_string(), cell)
                })
                .collect()
        })
        .collect()
}

#[test]
fn light_cells_stored_out_of_row_order_are_each_rows_cells_in_candidate_order() {
    use runlens_core::bundle::v2::read_bundle_light;
    let mut as_written = with_cells_changed(|_, _| {});
    let light = read_bundle_light(&mut as_written).unwrap();
    // The last result row's cells first, then the one before, ...; within a row, as written.
    let mut moved = with_cells_changed(|cols, rows| {
        let row = |i: usize| cols[CELLS_ROW].u64_at(i).unwrap();
        let mut order: Vec<usize> = (0..rows).collect();
        order.sort_by_key(|&i| std::cmp::Reverse(row(i)));
        assert_ne!(order, (0..rows).collect::<Vec<_>>());
        for c in cols.iter_mut() {
            *c = permuted(c, &order);
        }
    });
    let out_of_order = read_bundle_light(&mut moved).unwrap();
    let (a, b) = (&light.body.corpora[0], &out_of_order.body.corpora[0]);
    assert_eq!(light_rows(a), light_rows(b));
    assert_eq!(a.cell_count(), b.cell_count());
    // The cells the rows of the bundle as imported hold, null ones included.
    let whole = &dev_bundle().body.corpora[0];
    let expected: Vec<Vec<(String, Option<bool>)>> = whole
        .results
        .iter()
        .map(|r| {
            r.candidates
                .iter()
                .map(|(m, c)| (m.to_string(), c.as_ref().map(|c| c.sqls.is_empty())))
                .collect()
        })
        .collect();
    let got: Vec<Vec<(String, Option<bool>)>> = light_rows(b)
        .into_iter()
        .map(|r| {
            r.into_iter()
                .map(|(m, c)| (m, c.map(|c| c.n_sqls() == 0)))
                .collect()
        })
        .collect();
    assert_eq!(got, expected);
    assert!(
        expected[1]
            .iter()
            .any(|(m, c)| m == "absent-model" && c.is_none())
    );
}

/// The place of the `row` column among the cells table's columns (after the 18 stored ones).
const CELLS_ROW: usize = 18;

#[test]
fn a_model_with_two_cells_on_one_row_is_an_error_read_light_or_whole() {
    use runlens_core::bundle::v2::{read_bundle_inflated, read_bundle_light};
    let model_of_first = std::cell::RefCell::new(String::new());
    let damage = |cols: &mut Vec<ColumnData>, _rows: usize| {
        // Cells 0 and 1 are the first result row's first two candidates; 1 becomes 0's model.
        assert_eq!(cols[CELLS_ROW].u64_at(0), Some(0));
        assert_eq!(cols[CELLS_ROW].u64_at(1), Some(0));
        let ColumnData::Coded(models) = &mut cols[CELLS_ROW + 1] else {
            panic!("model is not a coded column")
        };
        let first = models.codes.get(0);
        *model_of_first.borrow_mut() = models.get(0).unwrap().to_owned();
        models.codes.set(1, first);
    };
    let light = read_bundle_light(&mut with_cells_changed(damage)).unwrap_err();
    let whole = read_bundle_inflated(&mut with_cells_changed(damage)).unwrap_err();
    let expected = format!(
        "bundle: entry corpora/0/cells.cols.gz, row 1: model {} has a second cell on result row 0",
        model_of_first.borrow()
    );
    assert_eq!(light.to_string(), expected);
    assert_eq!(whole.to_string(), expected);
}
