//! `runlens export DIR [DIR ...] --output PATH`: import harness folders into one run bundle:
//! `runlens.bundle/2` in one zip (`.zip`) or a directory (any other name), or v1 (`.json`,
//! `.json.gz`). Shows a progress bar on a terminal; quiet when piped.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Result, bail};
use runlens_core::import::{ImportOptions, import_files};

use crate::bundle_file::{self, Form};
use crate::io;
use crate::progress::{self, Counting};

/// Arguments of `runlens export`.
#[derive(clap::Args)]
pub struct Args {
    /// Harness folders: corpus folders, Jev `out/` folders, or a root holding both.
    #[arg(required_unless_present = "corpus")]
    pub dirs: Vec<PathBuf>,
    /// Output bundle: `.zip` (v2, one file), `.json` / `.json.gz` (v1), else a v2 directory.
    #[arg(short, long)]
    pub output: PathBuf,
    /// A corpus folder with an explicit name (`NAME=DIR`); repeatable.
    #[arg(long, value_name = "NAME=DIR")]
    pub corpus: Vec<String>,
    /// The schema prompt (else `schema.md`, `system.md` or `prompts/system.md` in a DIR).
    #[arg(long, value_name = "FILE")]
    pub schema: Option<PathBuf>,
    /// The rules YAML (else `rules*.yaml` or `config/rules*.yaml` in a DIR).
    #[arg(long, value_name = "FILE")]
    pub rules: Option<PathBuf>,
    /// Table namespaces for the universe, comma-separated (default: derived).
    #[arg(long, value_delimiter = ',', value_name = "NS,NS")]
    pub namespaces: Option<Vec<String>>,
    /// A display name for a model key (`KEY=NAME`); repeatable.
    #[arg(long = "name", value_name = "KEY=NAME")]
    pub names: Vec<String>,
    /// Mark the bundle as synthetic data.
    #[arg(long)]
    pub synthetic: bool,
    /// Notice text shown in the dashboard.
    #[arg(long)]
    pub notice: Option<String>,
    /// Print nothing but errors.
    #[arg(short, long)]
    pub quiet: bool,
    /// Print one JSON object on stdout: `{"output", "form", "bytes", "content_hash",
    /// "seconds", "summary", "warnings"}`.
    #[arg(long)]
    pub json: bool,
}

/// Runs `runlens export`.
pub fn run(args: Args) -> Result<ExitCode> {
    let started = Instant::now();
    let form = Form::of_output(&args.output)?;
    let mut sources = io::Sources {
        schema: args.schema.clone(),
        rules: args.rules.clone(),
        ..io::Sources::default()
    };
    for spec in &args.corpus {
        let (name, dir) = split_pair(spec, "--corpus", "NAME=DIR")?;
        sources
            .dirs
            .push((Some(name.to_owned()), PathBuf::from(dir)));
    }
    sources
        .dirs
        .extend(args.dirs.iter().map(|d| (None, d.clone())));

    let bar = progress::bytes(args.quiet || args.json, None, "reading");
    let display_names = args
        .names
        .iter()
        .map(|spec| {
            split_pair(spec, "--name", "KEY=NAME").map(|(k, n)| (k.to_owned(), n.to_owned()))
        })
        .collect::<Result<_>>()?;
    let mut opts = ImportOptions {
        runlens_version: env!("CARGO_PKG_VERSION").to_owned(),
        created_at: io::now_rfc3339(),
        schema_path: None,
        rules_path: None,
        namespaces: args.namespaces.clone(),
        display_names,
        synthetic: args.synthetic,
        notice: args.notice.clone(),
    };
    let (written, summary, hash, warnings) = if let Form::V1 { .. } = form {
        let collected = io::collect(&sources, |n| bar.inc(n))?;
        opts.schema_path = collected.schema_path.clone();
        opts.rules_path = collected.rules_path.clone();
        bar.set_message("importing");
        let imported = import_files(&collected.files, &opts)?;
        drop(collected);
        bar.set_message(format!("writing {}", form.label()));
        let written = bundle_file::write(&imported.bundle, &args.output)?;
        let summary = imported.bundle.body.summary();
        (
            written,
            summary,
            imported.bundle.content_hash,
            imported.warnings,
        )
    } else {
        // v2 is written as the files are read (twice: rows, then each kept row again), so
        // memory does not grow with the run.
        let found = io::find(&sources)?;
        opts.schema_path = found.schema_path.clone();
        opts.rules_path = found.rules_path.clone();
        let paths: Vec<String> = found.files.iter().map(|f| f.path.clone()).collect();
        bar.set_message(format!("importing into {}", form.label()));
        let counter = bar.clone();
        let (written, streamed) =
            bundle_file::export_v2(&paths, &found.disk, &opts, &args.output, move |file| {
                Box::new(Counting(file, counter.clone()))
            })?;
        let hash = streamed.written.manifest.content_hash.clone();
        (written, streamed.summary, hash, streamed.warnings)
    };
    bar.finish_and_clear();

    if args.json {
        let doc = serde_json::json!({
            "output": args.output.display().to_string(),
            "form": form.label(),
            "bytes": written,
            "content_hash": hash,
            "seconds": started.elapsed().as_secs_f64(),
            "summary": summary,
            "warnings": warnings,
        });
        println!("{doc}");
    } else if !args.quiet {
        let s = summary;
        eprintln!(
            "wrote {} ({}, {} bytes, content hash {}): {} corpora, {} questions, {} result rows, {} models, {} cells, {} failure labels, {} FM labels, {} rankings, {} gate rows, universe of {} tables",
            args.output.display(),
            form.label(),
            written,
            &hash[..hash.len().min(12)],
            s.corpora,
            s.questions,
            s.result_rows,
            s.models,
            s.cells,
            s.failure_labels,
            s.fm_labels,
            s.rankings,
            s.gate_rows,
            s.universe,
        );
        for w in &warnings {
            eprintln!("warning: {w}");
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn split_pair<'a>(spec: &'a str, flag: &str, shape: &str) -> Result<(&'a str, &'a str)> {
    match spec.split_once('=') {
        Some((a, b)) if !a.is_empty() && !b.is_empty() => Ok((a, b)),
        _ => bail!("{flag} {spec:?}: expected {shape}"),
    }
}
