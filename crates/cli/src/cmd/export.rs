//! `runlens export` (being written).

use std::process::ExitCode;

/// Arguments of `runlens export`.
#[derive(clap::Args)]
pub struct Args {}

/// Runs `runlens export`.
pub fn run(_args: Args) -> anyhow::Result<ExitCode> {
    anyhow::bail!("runlens export is not built yet")
}
