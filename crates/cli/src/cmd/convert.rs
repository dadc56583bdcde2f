//! `runlens convert IN OUT`: the same run in another form (`.json`, `.json.gz` → v1; `.zip`
//! → v2 in one file; any other name → v2 as a directory). The content hash stays the same.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Result, bail};

use crate::bundle_file::{self, Form};
use crate::progress;

/// Arguments of `runlens convert`.
#[derive(clap::Args)]
pub struct Args {
    /// The bundle to read (any form).
    pub input: PathBuf,
    /// Where to write it; the form follows the name.
    pub output: PathBuf,
    /// Print nothing but errors.
    #[arg(short, long)]
    pub quiet: bool,
}

/// Runs `runlens convert`.
pub fn run(args: Args) -> Result<ExitCode> {
    if args.input == args.output {
        bail!(
            "{}: input and output are the same path",
            args.input.display()
        );
    }
    let form = Form::of_output(&args.output)?;
    let bar = progress::bytes(args.quiet, Some(0), "reading");
    let written = bundle_file::read_with(&args.input, &bar).and_then(|bundle| {
        bar.set_message("checking the content hash");
        bundle.verify_content_hash()?;
        bar.set_message(format!("writing {}", form.label()));
        Ok((
            bundle_file::write(&bundle, &args.output)?,
            bundle.content_hash,
        ))
    });
    bar.finish_and_clear();
    let (written, hash) = written?;
    if !args.quiet {
        eprintln!(
            "wrote {} ({}, {written} bytes, content hash {})",
            args.output.display(),
            form.label(),
            &hash[..12.min(hash.len())]
        );
    }
    Ok(ExitCode::SUCCESS)
}
