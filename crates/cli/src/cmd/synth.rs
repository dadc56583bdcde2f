//! `runlens synth`: write realistic, clearly synthetic harness-format files.
//!
//! The output is the harness's own layout (not a bundle), so `runlens export` exercises
//! the importer on it. Same preset and seed give byte-identical files.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::Context;
use runlens_synth::Preset;

/// Arguments of `runlens synth`.
#[derive(clap::Args)]
pub struct Args {
    /// Data set to write: `article` (the published study's shape), `large` or `huge` (scale tests).
    #[arg(long, value_parser = parse_preset)]
    pub preset: Preset,
    /// Seed; the same seed gives byte-identical files.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Output directory (created if missing; existing files are overwritten).
    #[arg(long)]
    pub out: PathBuf,
}

fn parse_preset(s: &str) -> Result<Preset, String> {
    s.parse::<Preset>().map_err(|e| e.to_string())
}

/// Runs `runlens synth`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let start = Instant::now();
    let summary =
        runlens_synth::generate(args.preset, args.seed, &args.out).with_context(|| {
            format!(
                "generating preset `{}` into {}",
                args.preset.name(),
                args.out.display()
            )
        })?;
    let bytes: u64 = summary.files.iter().map(|f| f.1).sum();
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
