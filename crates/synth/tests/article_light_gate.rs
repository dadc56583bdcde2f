//! The `article` preset's gate rows read light (kept as columns, [`Corpus::gate`]) are the
//! rows read whole, and the gate view's numbers and fired lists are the same from either.

mod common;

use common::article;
use runlens_core::bundle::v2::text::inflate;
use runlens_core::bundle::v2::{
    MANIFEST, MemoryEntries, read_bundle_inflated, read_bundle_light, write_entries,
};
use runlens_core::bundle::{Bundle, GateFacts};
use runlens_core::import::{ImportOptions, InputFile, import_files};
use runlens_core::metrics::gate::{ALL, gate_analysis, gate_counts_analysis};
use runlens_core::metrics::gate_view::fired_rows;

/// Every file under `root`, named by its path relative to it.
fn files(root: &std::path::Path) -> Vec<InputFile> {
    let mut out = Vec::new();
    let mut dirs = vec![root.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else {
                let rel = path.strip_prefix(root).unwrap().to_string_lossy();
                out.push(InputFile {
                    path: rel.replace('\\', "/"),
                    bytes: std::fs::read(&path).unwrap(),
                });
            }
        }
    }
    out.sort_by(|a, b| a.path.cmp(&b.path));
    out
}

/// The article preset as a bundle, and its v2 entries read light and read whole.
fn read_both() -> (Bundle, Bundle) {
    let imported = import_files(&files(&article().root), &ImportOptions::default()).unwrap();
    let (manifest, entries) = write_entries(&imported.bundle).unwrap();
    let mut memory = MemoryEntries::default();
    memory.0.insert(MANIFEST.to_owned(), manifest);
    for e in entries {
        let bytes = if e.path.ends_with(".gz") {
            inflate(&e.bytes).unwrap()
        } else {
            e.bytes
        };
        memory.0.insert(e.path, bytes);
    }
    let light = read_bundle_light(&mut MemoryEntries(memory.0.clone())).unwrap();
    let whole = read_bundle_inflated(&mut memory).unwrap();
    (light, whole)
}

#[test]
fn gate_rows_read_light_are_the_rows_read_whole_with_the_same_analysis_and_fired_lists() {
    let (light, whole) = read_both();
    let mut compared = 0;
    for (l, w) in light.body.corpora.iter().zip(&whole.body.corpora) {
        assert!(l.gate_rows.is_empty(), "a light corpus holds no gate rows");
        assert_eq!(l.gate().len(), w.gate_rows.len());
        if w.gate_rows.is_empty() {
            assert!(l.light_gate.source().is_none() || l.gate().is_empty());
            continue;
        }
        assert!(l.light_gate.source().is_some());
        for (i, row) in w.gate_rows.iter().enumerate() {
            assert_eq!(l.gate().get(i).as_deref(), Some(row), "row {i}");
            assert_eq!(l.gate().trace_id(i), Some(row.trace_id.as_str()));
            assert_eq!(l.gate().model(i), Some(row.model.as_str()));
            assert_eq!(l.gate().facts(i), Some(GateFacts::of(row)));
        }
        assert_eq!(l.gate().get(w.gate_rows.len()), None);
        assert_eq!(
            gate_analysis(l.gate(), 200, 7),
            gate_analysis(w.gate(), 200, 7)
        );
        let counts = gate_counts_analysis(l.gate());
        assert_eq!(counts, gate_counts_analysis(w.gate()));
        // The facts say something: rows fired, the chain, drift and recovery occur.
        let all = &counts.iter().find(|g| g.model == ALL).unwrap().counts;
        assert_eq!(all.cells, w.gate_rows.len());
        assert!(
            all.fired > 0 && all.chain > 0 && all.recovered > 0,
            "{all:?}"
        );
        for model in &w.models {
            let fired = fired_rows(l.gate(), model);
            assert_eq!(fired, fired_rows(w.gate(), model));
            let by_hand = w
                .gate_rows
                .iter()
                .filter(|r| &r.model == model && r.fired.unwrap_or(0) >= 1)
                .count();
            assert_eq!(fired.len(), by_hand);
        }
        compared += 1;
    }
    assert!(compared > 0, "the article preset has gate rows");
}
