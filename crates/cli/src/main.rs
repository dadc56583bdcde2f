//! `runlens`: import harness outputs, compute metrics, serve the dashboard and the Jev proxy.
//!
//! A thin shell over `runlens-core`, `runlens-synth` and `runlens-proxy`: argument parsing,
//! file I/O and printing live here, no metric logic.

use std::process::ExitCode;

use clap::{CommandFactory, Parser, Subcommand};

mod bundle_file;
mod cmd;
mod io;
mod progress;

#[derive(Parser)]
#[command(
    name = "runlens",
    version,
    about = "Results explorer for agentic text-to-SQL benchmarks"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Serve the dashboard, bundles and a Jev-compatible API.
    Serve(cmd::serve::Args),
    /// Import harness output folders into one run bundle (v1 .json/.json.gz, v2 .zip or directory).
    Export(cmd::export::Args),
    /// Convert a bundle between forms (v1 .json/.json.gz, v2 .zip, v2 directory).
    Convert(cmd::convert::Args),
    /// Check a bundle or a harness folder; print a summary or the errors.
    Validate(cmd::validate::Args),
    /// Compute the harness's metrics from a bundle.
    Metrics(cmd::metrics::Args),
    /// Compare two runs: each model's paired difference in pass rate from A to B.
    Compare(cmd::compare::Args),
    /// Write (or add runs to) a static report site: the app, the runs and an index of them.
    Site(cmd::site::Args),
    /// Write synthetic harness-format files (not a bundle).
    Synth(cmd::synth::Args),
    /// Print a shell completion script (`runlens completions bash > …`).
    Completions(cmd::completions::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Serve(a) => cmd::serve::run(a),
        Command::Export(a) => cmd::export::run(a),
        Command::Convert(a) => cmd::convert::run(a),
        Command::Validate(a) => cmd::validate::run(a),
        Command::Metrics(a) => cmd::metrics::run(a),
        Command::Compare(a) => cmd::compare::run(a),
        Command::Site(a) => cmd::site::run(a),
        Command::Synth(a) => cmd::synth::run(a),
        Command::Completions(a) => cmd::completions::run(a, &mut Cli::command()),
    };
    match result {
        Ok(code) => code,
        Err(err) => {
            eprintln!("error: {err:#}");
            ExitCode::FAILURE
        }
    }
}
