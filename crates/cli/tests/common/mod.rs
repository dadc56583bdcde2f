//! Small hand-built runs and a `runlens` runner, shared by the CLI tests.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

use runlens_core::bundle::{Bundle, BundleBody, Provenance};
use serde_json::{Value, json};

pub fn cell(outcome: &str) -> Value {
    json!({"sqls": ["SELECT 1"], "turns": 2, "result_score": {"outcome": outcome}})
}

/// One corpus `dev` with `models` and a result row per `(trace_id, outcome of each model)`.
pub fn body(corpus: &str, models: &[&str], rows: &[(&str, &[&str])]) -> BundleBody {
    let results: Vec<Value> = rows
        .iter()
        .map(|(trace, outcomes)| {
            let candidates: serde_json::Map<String, Value> = models
                .iter()
                .zip(outcomes.iter())
                .map(|(m, o)| ((*m).to_owned(), cell(o)))
                .collect();
            json!({"trace_id": trace, "candidates": candidates})
        })
        .collect();
    let questions: Vec<Value> = rows
        .iter()
        .map(|(trace, _)| json!({"trace_id": trace, "nl_question": "?", "gt_sql": ["SELECT 1"]}))
        .collect();
    serde_json::from_value(json!({
        "models": models.iter().map(|m| json!({"key": m, "display_name": m})).collect::<Vec<_>>(),
        "corpora": [{"name": corpus, "models": models, "questions": questions, "results": results}]
    }))
    .unwrap()
}

pub fn write(dir: &Path, name: &str, body: BundleBody) -> PathBuf {
    write_created(dir, name, body, "")
}

/// [`write`] with `provenance.created_at` set.
pub fn write_created(dir: &Path, name: &str, body: BundleBody, created_at: &str) -> PathBuf {
    let path = dir.join(name);
    let provenance = Provenance {
        created_at: created_at.to_owned(),
        ..Provenance::default()
    };
    std::fs::write(&path, Bundle::new(provenance, body).to_json_vec()).unwrap();
    path
}

pub fn runlens(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_runlens"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}
