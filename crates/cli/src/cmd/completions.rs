//! `runlens completions SHELL`: the shell completion script on stdout (clap_complete), e.g.
//! `runlens completions bash > ~/.local/share/bash-completion/completions/runlens`.

use std::process::ExitCode;

use clap_complete::Shell;

/// Arguments of `runlens completions`.
#[derive(clap::Args)]
pub struct Args {
    /// The shell: bash, elvish, fish, powershell or zsh.
    #[arg(value_enum)]
    pub shell: Shell,
}

/// Writes the script for `args.shell` describing `command` (the whole CLI).
pub fn run(args: Args, command: &mut clap::Command) -> anyhow::Result<ExitCode> {
    clap_complete::generate(args.shell, command, "runlens", &mut std::io::stdout());
    Ok(ExitCode::SUCCESS)
}
