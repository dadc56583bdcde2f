//! `runlens validate FILE|DIR`: check a bundle in any form (v1 `.json`/`.json.gz`, v2 `.zip`
//! or directory: format, schema, every entry's sha256, content hash) or import a harness folder
//! as `runlens export` would; print a summary and the warnings, or the error.
//! Exit code 0 when valid, 1 otherwise.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use runlens_core::bundle::{Summary, Warning};
use runlens_core::import::{ImportOptions, import_files};

use crate::bundle_file;
use crate::io;
use crate::progress;

/// Arguments of `runlens validate`.
#[derive(clap::Args)]
pub struct Args {
    /// A bundle (`.json` / `.json.gz`, a v2 `.zip` or directory) or a harness folder.
    pub path: PathBuf,
    /// Print one JSON object `{"ok", "error"?, "summary"?, "content_hash"?, "warnings"}`.
    #[arg(long)]
    pub json: bool,
}

/// Runs `runlens validate`.
pub fn run(args: Args) -> Result<ExitCode> {
    let outcome = if args.path.is_dir() && !bundle_file::is_bundle_dir(&args.path) {
        check_dir(&args)
    } else {
        check_file(&args)
    };
    match outcome {
        Ok((summary, hash, warnings)) => {
            if args.json {
                let doc = serde_json::json!({
                    "ok": true, "summary": summary, "content_hash": hash, "warnings": warnings,
                });
                println!("{doc}");
            } else {
                println!("{}: valid", args.path.display());
                print_summary(&summary, &hash, &warnings);
            }
            Ok(ExitCode::SUCCESS)
        }
        Err(err) => {
            if args.json {
                println!(
                    "{}",
                    serde_json::json!({"ok": false, "error": format!("{err:#}"), "warnings": []})
                );
            } else {
                eprintln!("{}: invalid", args.path.display());
                eprintln!("error: {err:#}");
            }
            Ok(ExitCode::FAILURE)
        }
    }
}

type Checked = (Summary, String, Vec<Warning>);

fn check_file(args: &Args) -> Result<Checked> {
    let bar = progress::bytes(args.json, Some(0), "reading");
    let checked = bundle_file::read_with(&args.path, &bar).and_then(|bundle| {
        bar.set_message("checking the content hash");
        bundle.verify_content_hash()?;
        Ok(bundle)
    });
    bar.finish_and_clear();
    let bundle = checked?;
    let summary = bundle.body.summary();
    Ok((summary, bundle.content_hash, bundle.body.warnings))
}

fn check_dir(args: &Args) -> Result<Checked> {
    let sources = io::Sources {
        dirs: vec![(None, args.path.clone())],
        ..io::Sources::default()
    };
    let bar = progress::bytes(args.json, None, "reading harness files");
    let collected = io::collect(&sources, |n| bar.inc(n));
    bar.finish_and_clear();
    let collected = collected?;
    let opts = ImportOptions {
        runlens_version: env!("CARGO_PKG_VERSION").to_owned(),
        schema_path: collected.schema_path.clone(),
        rules_path: collected.rules_path.clone(),
        ..ImportOptions::default()
    };
    let imported = import_files(&collected.files, &opts)?;
    Ok((
        imported.bundle.body.summary(),
        imported.bundle.content_hash,
        imported.warnings,
    ))
}

fn print_summary(s: &Summary, hash: &str, warnings: &[Warning]) {
    println!("  content hash    {hash}");
    for (label, n) in [
        ("corpora", s.corpora),
        ("questions", s.questions),
        ("result rows", s.result_rows),
        ("models", s.models),
        ("cells", s.cells),
        ("failure labels", s.failure_labels),
        ("FM labels", s.fm_labels),
        ("rankings", s.rankings),
        ("gate rows", s.gate_rows),
        ("universe", s.universe),
        ("warnings", s.warnings),
    ] {
        println!("  {label:<15} {n}");
    }
    for w in warnings {
        println!("warning: {w}");
    }
}
