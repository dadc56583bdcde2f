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
    /// Data set to write.
    #[arg(long, value_enum)]
    pub preset: PresetChoice,
    /// Seed; the same seed gives byte-identical files.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Output directory (created if missing; existing files are overwritten).
    #[arg(long)]
    pub out: PathBuf,
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

/// Runs `runlens synth`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let start = Instant::now();
    let preset = Preset::from(args.preset);
    let summary = runlens_synth::generate(preset, args.seed, &args.out).with_context(|| {
        format!(
            "generating preset `{}` into {}",
            preset.name(),
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
