//! `runlens metrics` (being written).

use std::process::ExitCode;

/// Arguments of `runlens metrics`.
#[derive(clap::Args)]
pub struct Args {}

/// Runs `runlens metrics`.
pub fn run(_args: Args) -> anyhow::Result<ExitCode> {
    anyhow::bail!("runlens metrics is not built yet")
}
