//! `runlens synth` (being written).

use std::process::ExitCode;

/// Arguments of `runlens synth`.
#[derive(clap::Args)]
pub struct Args {}

/// Runs `runlens synth`.
pub fn run(_args: Args) -> anyhow::Result<ExitCode> {
    anyhow::bail!("runlens synth is not built yet")
}
