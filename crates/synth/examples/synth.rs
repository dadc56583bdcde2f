//! `cargo run -p runlens-synth --example synth -- article 1 OUT`: the generator without the CLI.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [preset, seed, out] = args.as_slice() else {
        eprintln!("usage: synth PRESET SEED OUT");
        return ExitCode::FAILURE;
    };
    let (Ok(preset), Ok(seed)) = (preset.parse::<runlens_synth::Preset>(), seed.parse::<u64>())
    else {
        eprintln!("bad preset or seed");
        return ExitCode::FAILURE;
    };
    let start = Instant::now();
    match runlens_synth::generate(preset, seed, &PathBuf::from(out)) {
        Ok(s) => {
            let bytes: u64 = s.files.iter().map(|f| f.1).sum();
            println!(
                "{} files, {:.1} MB, {:.2} s",
                s.files.len(),
                bytes as f64 / 1e6,
                start.elapsed().as_secs_f64()
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
