//! `runlens site` end to end: a site of two runs, added to again, and its bad inputs.

// Expected values are written as arithmetic (e.g. `1.5 / 2.0`).
#![allow(clippy::eq_op)]

mod common;

use std::fs;
use std::path::Path;

use common::{body, runlens, write_created};
use serde_json::{Value, json};

/// A stand-in for trunk's output: an index.html, an asset, and a sample bundle that a site
/// must not take over.
fn fake_dist(dir: &Path) -> String {
    let dist = dir.join("dist");
    fs::create_dir_all(dist.join("bundles")).unwrap();
    fs::write(
        dist.join("index.html"),
        "<!doctype html><title>runlens</title>",
    )
    .unwrap();
    fs::write(dist.join("app.wasm"), b"\0asm").unwrap();
    fs::write(dist.join("bundles/index.json"), "[]").unwrap();
    fs::write(dist.join("bundles/sample.zip"), b"PK").unwrap();
    // The app ships an empty index of runs (no trend outside a site).
    fs::write(
        dist.join("runs.json"),
        "{\"format\": \"runlens.site/1\", \"runs\": []}",
    )
    .unwrap();
    dist.display().to_string()
}

fn site(args: &[&str]) -> (bool, String, String) {
    let mut all = vec!["site"];
    all.extend_from_slice(args);
    runlens(&all)
}

fn read(path: &Path) -> Value {
    serde_json::from_slice(&fs::read(path).unwrap()).unwrap()
}

/// The runs' names in the index, in order.
fn names(index: &Value) -> Vec<&str> {
    index["runs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["name"].as_str().unwrap())
        .collect()
}

#[test]
fn a_site_holds_the_app_each_run_as_a_zip_and_an_index_of_runs() {
    let dir = tempfile::tempdir().unwrap();
    let dist = fake_dist(dir.path());
    // Given newest first: the index orders them by creation time.
    let late = write_created(
        dir.path(),
        "nightly 2.json",
        body(
            "dev",
            &["m1", "m2"],
            &[("q1", &["pass", "fail"]), ("q2", &["tie", "fail"])],
        ),
        "2026-12-02T00:00:00Z",
    );
    let early = write_created(
        dir.path(),
        "nightly-1.json",
        body(
            "dev",
            &["m1", "m2"],
            &[("q1", &["fail", "fail"]), ("q2", &["pass", "error"])],
        ),
        "2026-12-01T00:00:00Z",
    );
    let out = dir.path().join("site");
    let (o, l, e) = (
        out.to_str().unwrap(),
        late.to_str().unwrap(),
        early.to_str().unwrap(),
    );
    let (ok, stdout, stderr) = site(&[o, l, e, "--dist", &dist]);
    assert!(ok, "{stderr}");
    assert!(stdout.contains("nightly_2: written"), "{stdout}");
    // The app is copied; its own samples are not.
    assert!(out.join("index.html").is_file() && out.join("app.wasm").is_file());
    assert!(!out.join("bundles/sample.zip").exists());
    let index = read(&out.join("runs.json"));
    assert_eq!(index["format"], "runlens.site/1");
    assert_eq!(names(&index), ["nightly-1", "nightly_2"]);
    let run = &index["runs"][1];
    assert_eq!(run["file"], "bundles/nightly_2.zip");
    assert_eq!(run["created_at"], "2026-12-02T00:00:00Z");
    let dev = &run["corpora"][0];
    assert_eq!(
        (dev["name"].clone(), dev["questions"].clone()),
        (json!("dev"), json!(2))
    );
    // m1: pass, tie → 1.5 / 2; m2: fail, fail → 0; pass descending.
    assert_eq!(dev["models"][0]["model"], "m1");
    assert_eq!(dev["models"][0]["pass"].as_f64(), Some(1.5 / 2.0));
    assert_eq!(dev["models"][1]["pass"].as_f64(), Some(0.0));
    // nightly-1's m2 has one scored cell (q2 is an error).
    assert_eq!(index["runs"][0]["corpora"][0]["models"][1]["n"], 1);
    // Each run is a v2 zip with the hash of its input; the start page lists them in order.
    let zip = out.join("bundles/nightly_2.zip");
    let (ok, stdout, stderr) = runlens(&["validate", zip.to_str().unwrap()]);
    assert!(ok, "{stderr}");
    assert!(
        stdout.contains(&run["content_hash"].as_str().unwrap()[..12]),
        "{stdout}"
    );
    let list = read(&out.join("bundles/index.json"));
    assert_eq!(list[0]["file"], "nightly-1.zip");
    assert_eq!(list[1]["file"], "nightly_2.zip");
    assert_eq!(list[1]["title"], "nightly_2");
    assert_eq!(
        list[1]["description"],
        format!(
            "Created 2026-12-02 00:00 UTC; 2 models; corpora dev; content hash {}.",
            &run["content_hash"].as_str().unwrap()[..12]
        )
    );

    // Again with a third run and one of the two: the unchanged zip is not rewritten, the
    // other run stays in the index.
    let before = fs::metadata(&zip).unwrap().modified().unwrap();
    let third = write_created(
        dir.path(),
        "nightly-3.zip.json",
        body("dev", &["m1"], &[("q1", &["pass"])]),
        "2026-12-03T00:00:00Z",
    );
    let (ok, stdout, stderr) = site(&[o, l, third.to_str().unwrap(), "--dist", &dist]);
    assert!(ok, "{stderr}");
    assert!(stdout.contains("nightly_2: unchanged"), "{stdout}");
    assert_eq!(fs::metadata(&zip).unwrap().modified().unwrap(), before);
    let index = read(&out.join("runs.json"));
    assert_eq!(names(&index), ["nightly-1", "nightly_2", "nightly-3.zip"]);
    // Display names travel with the figures (these runs' registry names none: the key).
    assert_eq!(
        index["runs"][2]["corpora"][0]["models"][0]["display_name"],
        "m1"
    );

    // A run that fails after the app was copied leaves the site's index as it was (the
    // app's own empty runs.json is never copied over it).
    let edited = dir.path().join("edited.json");
    let text = fs::read_to_string(&third)
        .unwrap()
        .replace("\"q1\"", "\"q9\"");
    fs::write(&edited, text).unwrap();
    let (ok, _, _) = site(&[o, edited.to_str().unwrap(), "--dist", &dist]);
    assert!(!ok);
    let index = read(&out.join("runs.json"));
    assert_eq!(names(&index), ["nightly-1", "nightly_2", "nightly-3.zip"]);
}

#[test]
fn bad_inputs_are_named() {
    let dir = tempfile::tempdir().unwrap();
    let run = write_created(
        dir.path(),
        "a.json",
        body("dev", &["m1"], &[("q1", &["pass"])]),
        "2026-12-01T00:00:00Z",
    );
    let out = dir.path().join("site");
    let (o, r) = (out.to_str().unwrap(), run.to_str().unwrap());
    let nowhere = dir.path().join("nowhere");
    let (ok, _, stderr) = site(&[o, r, "--dist", nowhere.to_str().unwrap()]);
    assert!(!ok);
    assert!(
        stderr.contains("nowhere: no built app (index.html) there"),
        "{stderr}"
    );
    let dist = fake_dist(dir.path());
    let copy = dir.path().join("sub").join("a.json");
    fs::create_dir_all(copy.parent().unwrap()).unwrap();
    fs::copy(&run, &copy).unwrap();
    let (ok, _, stderr) = site(&[o, r, copy.to_str().unwrap(), "--dist", &dist]);
    assert!(!ok);
    assert!(stderr.contains("two runs would be named `a`"), "{stderr}");
    fs::create_dir_all(&out).unwrap();
    fs::write(out.join("runs.json"), "{\"not\": \"an index\"}").unwrap();
    let (ok, _, stderr) = site(&[o, r, "--dist", &dist]);
    assert!(!ok);
    assert!(
        stderr.contains("runs.json: not an index of runs (runlens.site/1)"),
        "{stderr}"
    );
    // A run edited after export: its body no longer has the hash it names.
    fs::remove_file(out.join("runs.json")).unwrap();
    let edited = dir.path().join("edited.json");
    let text = fs::read_to_string(&run)
        .unwrap()
        .replace("\"q1\"", "\"q2\"");
    fs::write(&edited, text).unwrap();
    let (ok, _, stderr) = site(&[o, edited.to_str().unwrap(), "--dist", &dist]);
    assert!(!ok);
    assert!(
        stderr.contains(
            "edited.json: not written to the site (its content hash does not match its body)"
        ),
        "{stderr}"
    );
    assert!(
        stderr.contains("does not match the body (computed "),
        "{stderr}"
    );
    assert!(!out.join("bundles/edited.zip").exists());
    let (ok, _, stderr) = runlens(&[
        "serve",
        "--site",
        dir.path().to_str().unwrap(),
        "--addr",
        "127.0.0.1:0",
    ]);
    assert!(!ok);
    assert!(
        stderr.contains("not a report site (no runs.json)"),
        "{stderr}"
    );
}
