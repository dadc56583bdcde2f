//! `runlens synth` end to end: the article preset writes the documented layout, the
//! importer accepts it (`runlens export` + `runlens validate`), and bad input fails cleanly.

use std::path::Path;
use std::process::{Command, Output};

fn runlens(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_runlens"))
        .args(args)
        .output()
        .expect("run runlens")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn path(p: &Path) -> &str {
    p.to_str().expect("utf-8 temp path")
}

#[test]
fn article_preset_writes_the_layout_and_imports_with_only_the_planted_duplicates() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let out = tmp.path().join("sample");
    let run = runlens(&[
        "synth",
        "--preset",
        "article",
        "--seed",
        "1",
        "--out",
        path(&out),
        "--json",
    ]);
    assert!(run.status.success(), "{}", text(&run.stderr));
    // --json: one object on stdout, nothing else there.
    let summary: serde_json::Value = serde_json::from_slice(&run.stdout).expect("one JSON object");
    assert_eq!(summary["preset"], "article");
    assert_eq!(summary["seed"], 1);
    assert_eq!(
        (
            &summary["dev_questions"],
            &summary["board_questions"],
            &summary["models"]
        ),
        (
            &serde_json::json!(136),
            &serde_json::json!(201),
            &serde_json::json!(20)
        )
    );
    assert_eq!(summary["labelled_failures"], 277);
    let files = summary["files"].as_array().unwrap();
    let listed: u64 = files.iter().map(|f| f["bytes"].as_u64().unwrap()).sum();
    assert_eq!(summary["bytes"], listed);
    let on_disk = files
        .iter()
        .map(|f| {
            std::fs::metadata(out.join(f["path"].as_str().unwrap()))
                .unwrap()
                .len()
        })
        .sum::<u64>();
    assert_eq!(listed, on_disk);
    for rel in [
        "SYNTHETIC.md",
        "schema.md",
        "rules.yaml",
        "text2sqlbench-synthetic-dev/annotated.jsonl",
        "text2sqlbench-synthetic-dev/results.jsonl",
        "text2sqlbench-synthetic-dev/fm_labels.jsonl",
        "text2sqlbench-synthetic/annotated.jsonl",
        "text2sqlbench-synthetic/results.jsonl",
        "text2sqlbench-synthetic/board_manifest.json",
        "out/schema_retrieval.jsonl",
        "out/failure_labels.jsonl",
        "out/schema_retrieval_agent.jsonl",
    ] {
        assert!(out.join(rel).is_file(), "missing {rel}");
    }
    let bundle = tmp.path().join("sample.json");
    let export = runlens(&["export", path(&out), "-o", path(&bundle), "--json"]);
    assert!(
        export.status.success(),
        "{}{}",
        text(&export.stdout),
        text(&export.stderr)
    );
    let exported: serde_json::Value =
        serde_json::from_slice(&export.stdout).expect("export --json");
    assert_eq!(exported["form"], "runlens.bundle/1");
    assert_eq!(exported["bytes"], std::fs::metadata(&bundle).unwrap().len());
    assert_eq!(exported["summary"]["models"], 20);
    assert_eq!(exported["content_hash"].as_str().map(str::len), Some(64));
    let validate = runlens(&["validate", "--json", path(&bundle)]);
    assert!(validate.status.success(), "{}", text(&validate.stdout));
    let report = text(&validate.stdout);
    // The three duplicate rows are planted on purpose (two results rows, one gate row).
    assert_eq!(report.matches("duplicate_row").count(), 3, "{report}");
}

#[test]
fn unknown_preset_is_rejected_with_the_expected_names() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let run = runlens(&["synth", "--preset", "giant", "--out", path(tmp.path())]);
    assert!(!run.status.success());
    assert!(
        text(&run.stderr).starts_with(
            "error: invalid value 'giant' for '--preset <PRESET>'\n  [possible values: article, large, huge]\n"
        ),
        "{}",
        text(&run.stderr)
    );
}
