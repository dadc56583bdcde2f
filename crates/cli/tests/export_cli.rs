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
    assert!(
        text(&out.stderr).contains(
            "x.txt: the output must end in .zip (v2, one file), .json or .json.gz (v1), or be a \
             folder name without an extension (v2, a directory)"
        ),
        "{}",
        text(&out.stderr)
    );
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

fn metrics_json(path: &Path) -> String {
    let out = runlens(&[
        "metrics",
        "--json",
        "--resamples",
        "300",
        path.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    text(&out.stdout)
}

#[test]
fn v2_zip_and_directory_give_the_same_bundle_and_metrics_bit_for_bit() {
    let tmp = synth_like_root();
    let root = tmp.path().join("root");
    let v1 = tmp.path().join("run.json.gz");
    let zip = tmp.path().join("run.zip");
    let dir = tmp.path().join("run");
    for out in [&v1, &zip, &dir] {
        let done = runlens(&[
            "export",
            root.to_str().unwrap(),
            "-q",
            "-o",
            out.to_str().unwrap(),
        ]);
        assert!(done.status.success(), "{}", text(&done.stderr));
    }
    assert!(dir.join("manifest.json").is_file());
    assert_eq!(&std::fs::read(&zip).unwrap()[..4], b"PK\x03\x04");
    let hash = validate_json(&v1)["content_hash"].clone();
    assert_eq!(hash.as_str().map(str::len), Some(64));
    assert_eq!(validate_json(&zip)["content_hash"], hash);
    assert_eq!(validate_json(&dir)["content_hash"], hash);
    assert_eq!(
        validate_json(&zip)["summary"],
        validate_json(&v1)["summary"]
    );
    let want = metrics_json(&v1);
    assert_eq!(metrics_json(&zip), want);
    assert_eq!(metrics_json(&dir), want);
    // export to v2 streams the files; convert writes from a bundle in memory: the same
    // entries, byte for byte (each entry's SHA-256 in the manifest), and nothing left over.
    let converted = tmp.path().join("converted");
    let done = runlens(&[
        "convert",
        v1.to_str().unwrap(),
        converted.to_str().unwrap(),
        "-q",
    ]);
    assert!(done.status.success(), "{}", text(&done.stderr));
    let manifest = |d: &Path| -> serde_json::Value {
        serde_json::from_slice(&std::fs::read(d.join("manifest.json")).unwrap()).unwrap()
    };
    assert_eq!(manifest(&dir)["entries"], manifest(&converted)["entries"]);
    assert!(manifest(&dir)["entries"].as_array().unwrap().len() > 10);
    let mut names: Vec<String> = std::fs::read_dir(tmp.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(
        names,
        ["converted", "root", "run", "run.json.gz", "run.zip"]
    );
    // convert: v2 back to v1 writes the same body, byte for byte.
    let back = tmp.path().join("back.json");
    let done = runlens(&[
        "convert",
        zip.to_str().unwrap(),
        back.to_str().unwrap(),
        "-q",
    ]);
    assert!(done.status.success(), "{}", text(&done.stderr));
    let plain = tmp.path().join("plain.json");
    assert!(
        runlens(&[
            "convert",
            v1.to_str().unwrap(),
            plain.to_str().unwrap(),
            "-q"
        ])
        .status
        .success()
    );
    let body = |p: &Path| {
        let v: serde_json::Value = serde_json::from_slice(&std::fs::read(p).unwrap()).unwrap();
        serde_json::to_vec(&v["body"]).unwrap()
    };
    assert_eq!(body(&back), body(&plain));
    // Exporting to the directory again replaces it; a folder that is not a bundle is kept.
    let done = runlens(&[
        "export",
        root.to_str().unwrap(),
        "-q",
        "-o",
        dir.to_str().unwrap(),
    ]);
    assert!(done.status.success(), "{}", text(&done.stderr));
    let other = tmp.path().join("notabundle");
    std::fs::create_dir_all(&other).unwrap();
    let refused = runlens(&["convert", v1.to_str().unwrap(), other.to_str().unwrap()]);
    assert_eq!(refused.status.code(), Some(1));
    assert!(
        text(&refused.stderr).contains("exists and is not a bundle directory; not overwriting it")
    );
}

#[test]
fn a_damaged_v2_bundle_is_invalid_with_the_entry_named() {
    let tmp = synth_like_root();
    let root = tmp.path().join("root");
    let dir = tmp.path().join("run");
    assert!(
        runlens(&[
            "export",
            root.to_str().unwrap(),
            "-q",
            "-o",
            dir.to_str().unwrap()
        ])
        .status
        .success()
    );
    let entry = dir.join("corpora/0/cells.cols.gz");
    let mut bytes = std::fs::read(&entry).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0xff;
    std::fs::write(&entry, bytes).unwrap();
    let out = runlens(&["validate", "--json", dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let error = doc["error"].as_str().unwrap();
    assert!(
        error.contains("bundle: entry corpora/0/cells.cols.gz: sha256 ")
            && error.contains("does not match the manifest's"),
        "{error}"
    );
    std::fs::remove_file(&entry).unwrap();
    let out = runlens(&["metrics", dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("bundle: entry corpora/0/cells.cols.gz is missing"),
        "{}",
        text(&out.stderr)
    );
}
