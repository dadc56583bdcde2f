//! `runlens synth`: write realistic, clearly synthetic harness-format files.
//!
//! The output is the harness's own layout (not a bundle), so `runlens export` exercises
//! the importer on it. Same preset and seed give byte-identical files.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use anyhow::Context;
use indicatif::ProgressBar;
use runlens_synth::Preset;

use crate::progress;

/// Arguments of `runlens synth`.
#[derive(clap::Args)]
pub struct Args {
    /// Data set to write.
    #[arg(long, value_enum)]
    pub preset: PresetChoice,
    /// Seed; the same seed gives byte-identical files.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Write variant N of the preset (0: the preset itself): the same questions, one model
    /// dropped and one added, two models passing more often and two less often, every other
    /// model's outcomes unchanged (to try `runlens compare` and report sites on).
    #[arg(long, default_value_t = 0)]
    pub variant: u32,
    /// Output directory (created if missing; existing files are overwritten).
    #[arg(long)]
    pub out: PathBuf,
    /// Print one JSON object on stdout: `{"preset", "seed", "variant", "out", "seconds", "bytes",
    /// "files": [{"path", "bytes"}], "tables", "dev_questions", "board_questions", "models",
    /// "labelled_failures", "labelled_attempts"}`.
    #[arg(long)]
    pub json: bool,
}

/// `--preset` (synth's [`Preset`], which knows nothing of clap).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum PresetChoice {
    /// The published study's shape: 18 tables, 136 dev + 201 board questions, 20 models.
    Article,
    /// Scale test: 710 tables, 5,000 questions, 40 models (200,000 cells).
    Large,
    /// Bigger scale test: 20,000 questions, 100 models (2,000,000 cells, about 4.5 GB).
    Huge,
}

impl From<PresetChoice> for Preset {
    fn from(choice: PresetChoice) -> Preset {
        match choice {
            PresetChoice::Article => Preset::Article,
            PresetChoice::Large => Preset::Large,
            PresetChoice::Huge => Preset::Huge,
        }
    }
}

/// Sets `bar`'s position to the bytes under `out` twice a second until the returned flag is
/// cleared (synth writes its files without reporting progress itself).
fn watch_bytes(out: &Path, bar: &ProgressBar) -> Arc<AtomicBool> {
    let running = Arc::new(AtomicBool::new(true));
    let (flag, out, bar) = (running.clone(), out.to_path_buf(), bar.clone());
    std::thread::spawn(move || {
        while flag.load(Ordering::Relaxed) {
            bar.set_position(crate::bundle_file::size(&out));
            std::thread::sleep(Duration::from_millis(500));
        }
    });
    running
}

/// Runs `runlens synth`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let start = Instant::now();
    let preset = Preset::from(args.preset);
    let bar = progress::bytes(
        args.json,
        None,
        &format!("writing preset {}", preset.name()),
    );
    let watching = watch_bytes(&args.out, &bar);
    let generated = runlens_synth::generate_variant(preset, args.seed, args.variant, &args.out);
    watching.store(false, Ordering::Relaxed);
    bar.finish_and_clear();
    let summary = generated.with_context(|| {
        format!(
            "generating preset `{}` into {}",
            preset.name(),
            args.out.display()
        )
    })?;
    let bytes: u64 = summary.files.iter().map(|f| f.1).sum();
    if args.json {
        let files: Vec<_> = summary
            .files
            .iter()
            .map(|(path, bytes)| serde_json::json!({"path": path, "bytes": bytes}))
            .collect();
        let doc = serde_json::json!({
            "preset": summary.preset,
            "seed": summary.seed,
            "variant": summary.variant.as_ref().map_or(0, |v| v.n),
            "out": args.out.display().to_string(),
            "seconds": start.elapsed().as_secs_f64(),
            "bytes": bytes,
            "files": files,
            "tables": summary.tables,
            "dev_questions": summary.dev_questions,
            "board_questions": summary.board_questions,
            "models": summary.models,
            "labelled_failures": summary.labelled_failures,
            "labelled_attempts": summary.labelled_attempts,
        });
        println!("{doc}");
        return Ok(ExitCode::SUCCESS);
    }
    println!(
        "wrote {} files ({:.1} MB) to {} in {:.2} s",
        summary.files.len(),
        bytes as f64 / 1e6,
        args.out.display(),
        start.elapsed().as_secs_f64()
    );
    println!(
        "preset {} seed {}: {} tables, {} dev + {} leaderboard questions, {} models",
        summary.preset,
        summary.seed,
        summary.tables,
        summary.dev_questions,
        summary.board_questions,
        summary.models
    );
    println!(
        "labelled failures: {} of {} attempts",
        summary.labelled_failures, summary.labelled_attempts
    );
    Ok(ExitCode::SUCCESS)
}
