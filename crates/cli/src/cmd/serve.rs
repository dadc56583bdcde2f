//! `runlens serve` (being written).

use std::process::ExitCode;

/// Arguments of `runlens serve`.
#[derive(clap::Args)]
pub struct Args {}

/// Runs `runlens serve`.
pub fn run(_args: Args) -> anyhow::Result<ExitCode> {
    anyhow::bail!("runlens serve is not built yet")
}
