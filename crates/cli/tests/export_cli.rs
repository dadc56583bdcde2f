//! `runlens export` and `runlens validate` end to end on the core crate's hand-written
//! harness corpus, laid out as `runlens synth` writes its output.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn core_data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../core/tests/data")
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(entry.path(), to.join(entry.file_name())).unwrap();
    }
}

/// ROOT/{dev/, out/, schema.md, rules.yaml, SYNTHETIC.md}.
fn synth_like_root() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("root");
    copy_dir(&core_data().join("import/dev"), &root.join("dev"));
    copy_dir(&core_data().join("import/out"), &root.join("out"));
    std::fs::copy(
        core_data().join("harness-examples/saas/schema.md"),
        root.join("schema.md"),
    )
    .unwrap();
    std::fs::copy(
        core_data().join("harness-examples/config/rules.example.yaml"),
        root.join("rules.yaml"),
    )
    .unwrap();
    std::fs::write(root.join("SYNTHETIC.md"), "# Synthetic\n\nInvented data.\n").unwrap();
    tmp
}

fn runlens(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_runlens"))
        .args(args)
        .output()
        .unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn validate_json(path: &Path) -> serde_json::Value {
    let out = runlens(&["validate", "--json", path.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stdout));
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn a_root_folder_and_explicit_folders_give_the_same_bundle_body() {
    let tmp = synth_like_root();
    let root = tmp.path().join("root");
    let a = tmp.path().join("a.json.gz");
    let out = runlens(&[
        "export",
        root.to_str().unwrap(),
        "--output",
        a.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    // Piped stderr: no progress bar, the summary line comes first.
    assert!(
        text(&out.stderr).starts_with("wrote "),
        "{}",
        text(&out.stderr)
    );

    let b = tmp.path().join("b.json");
    let r = |p: &str| root.join(p).to_str().unwrap().to_owned();
    let (dev, jev, schema, rules) = (r("dev"), r("out"), r("schema.md"), r("rules.yaml"));
    let out = runlens(&[
        "export",
        &dev,
        &jev,
        "--schema",
        &schema,
        "--rules",
        &rules,
        "--output",
        b.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));

    let (va, vb) = (validate_json(&a), validate_json(&b));
    assert_eq!(va["content_hash"], vb["content_hash"]);
    let s = &va["summary"];
    assert_eq!(
        (
            &s["corpora"],
            &s["questions"],
            &s["result_rows"],
            &s["models"],
            &s["cells"]
        ),
        (&1.into(), &3.into(), &2.into(), &3.into(), &4.into())
    );
    assert_eq!(
        (
            &s["rankings"],
            &s["gate_rows"],
            &s["universe"],
            &s["warnings"]
        ),
        (&2.into(), &2.into(), &4.into(), &5.into())
    );

    let bundle = runlens_core::bundle::Bundle::from_slice(&std::fs::read(&a).unwrap()).unwrap();
    assert!(bundle.body.synthetic);
    assert_eq!(bundle.body.rules.as_ref().unwrap().semantic_rules.len(), 4);
    assert_eq!(bundle.provenance.runlens_version, env!("CARGO_PKG_VERSION"));
}

#[test]
fn corpus_names_can_be_overridden() {
    let tmp = synth_like_root();
    let spec = format!("board={}", tmp.path().join("root/dev").display());
    let out_file = tmp.path().join("x.json");
    let out = runlens(&[
        "export",
        "--corpus",
        &spec,
        "-o",
        out_file.to_str().unwrap(),
        "--name",
        "kimi-k3=Kimi",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let bundle =
        runlens_core::bundle::Bundle::from_slice(&std::fs::read(&out_file).unwrap()).unwrap();
    assert_eq!(bundle.body.corpora[0].name, "board");
    assert_eq!(bundle.body.display_name("kimi-k3"), "Kimi");
}

#[test]
fn validate_reports_the_exact_import_error_and_exits_1() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("c");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(
        core_data().join("broken/wrong_type.jsonl"),
        dir.join("results.jsonl"),
    )
    .unwrap();
    let out = runlens(&["validate", dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains(
            "error: c/results.jsonl:2: field candidates.m.turns: expected a non-negative integer or null, found string \"5\""
        ),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn validate_rejects_a_tampered_bundle() {
    let tmp = synth_like_root();
    let file = tmp.path().join("t.json");
    let out = runlens(&[
        "export",
        tmp.path().join("root").to_str().unwrap(),
        "-o",
        file.to_str().unwrap(),
    ]);
    assert!(out.status.success());
    let json = std::fs::read_to_string(&file).unwrap().replacen(
        "\"gt_answer\":\"1234.5\"",
        "\"gt_answer\":\"9\"",
        1,
    );
    std::fs::write(&file, json).unwrap();
    let out = runlens(&["validate", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("does not match the body"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn export_refuses_unknown_output_extensions_and_empty_folders() {
    let tmp = synth_like_root();
    let root = tmp.path().join("root");
    let out = runlens(&[
        "export",
        root.to_str().unwrap(),
        "-o",
        tmp.path().join("x.txt").to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("the output must end in .json or .json.gz"));
    let empty = tmp.path().join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let out = runlens(&[
        "export",
        empty.to_str().unwrap(),
        "-o",
        tmp.path().join("y.json").to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("no harness files here"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn two_corpus_folders_with_the_same_name_are_refused() {
    let tmp = synth_like_root();
    let other = tmp.path().join("elsewhere/dev");
    copy_dir(&core_data().join("import/dev"), &other);
    let dev = tmp.path().join("root/dev");
    let out = runlens(&[
        "export",
        dev.to_str().unwrap(),
        other.to_str().unwrap(),
        "-o",
        tmp.path().join("z.json").to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr)
            .contains("a second corpus named \"dev\"; name them apart with --corpus NAME=DIR"),
        "{}",
        text(&out.stderr)
    );
}
