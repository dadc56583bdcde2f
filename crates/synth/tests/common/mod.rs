//! Shared fixture: the `article` preset generated once per test binary.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use runlens_synth::{Preset, Summary};
use serde_json::Value;

pub struct Fixture {
    _dir: tempfile::TempDir,
    pub root: PathBuf,
    pub summary: Summary,
    pub seconds: f64,
}

pub fn article() -> &'static Fixture {
    static F: OnceLock<Fixture> = OnceLock::new();
    F.get_or_init(|| {
        let dir = tempfile::tempdir().expect("temp dir");
        let root = dir.path().join("sample");
        let start = std::time::Instant::now();
        let summary = runlens_synth::generate(Preset::Article, 1, &root).expect("generate article");
        Fixture {
            _dir: dir,
            root,
            summary,
            seconds: start.elapsed().as_secs_f64(),
        }
    })
}

pub fn read_jsonl(path: &Path) -> Vec<Value> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{}: {e}", path.display())))
        .collect()
}

pub fn dev(f: &Fixture, file: &str) -> Vec<Value> {
    read_jsonl(&f.root.join("text2sqlbench-synthetic-dev").join(file))
}

pub fn board(f: &Fixture, file: &str) -> Vec<Value> {
    read_jsonl(&f.root.join("text2sqlbench-synthetic").join(file))
}

pub fn out(f: &Fixture, file: &str) -> Vec<Value> {
    read_jsonl(&f.root.join("out").join(file))
}

/// results.jsonl rows de-duplicated by trace_id, the later row winning.
pub fn dedup(rows: Vec<Value>) -> Vec<Value> {
    let mut map: indexmap::IndexMap<String, Value> = indexmap::IndexMap::new();
    for r in rows {
        map.insert(r["trace_id"].as_str().unwrap_or_default().to_string(), r);
    }
    map.into_values().collect()
}

pub const LABELLED: [&str; 4] = ["sonnet46", "gpt-4.1", "qwen3-coder-30b", "gemini-2.5-flash"];
