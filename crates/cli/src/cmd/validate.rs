//! `runlens validate` (being written).

use std::process::ExitCode;

/// Arguments of `runlens validate`.
#[derive(clap::Args)]
pub struct Args {}

/// Runs `runlens validate`.
pub fn run(_args: Args) -> anyhow::Result<ExitCode> {
    anyhow::bail!("runlens validate is not built yet")
}
