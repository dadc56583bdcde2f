//! `runlens compare A B [--json] [--corpus NAME] [--loss-as-fail]`: each model's paired
//! difference in pass rate from run A to run B, over the questions (matched by `trace_id`)
//! scored in both (core's `metrics::compare`; definitions in docs/metrics.md).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use runlens_core::bundle::LossRule;
use runlens_core::metrics::compare::{RunCompare, compare_runs};

use crate::bundle_file::read;

/// Arguments of `runlens compare`.
#[derive(clap::Args)]
pub struct Args {
    /// Run A (the baseline): v1 `.json` / `.json.gz`, or v2 `.zip` or directory.
    pub a: PathBuf,
    /// Run B (compared with A), in any of those forms.
    pub b: PathBuf,
    /// Print one JSON object (all floats unrounded) instead of a table.
    #[arg(long)]
    pub json: bool,
    /// Compare only this corpus (default: every corpus of A that B has too).
    #[arg(long)]
    pub corpus: Option<String>,
    /// Score legacy `loss` cells 0 instead of leaving them out (as `runlens metrics`).
    #[arg(long)]
    pub loss_as_fail: bool,
}

/// Runs `runlens compare`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let a = read(&args.a, false)?;
    let b = read(&args.b, false)?;
    let loss = if args.loss_as_fail {
        LossRule::AsFail
    } else {
        LossRule::Excluded
    };
    let compared = compare_runs(&a, &b, loss, args.corpus.as_deref()).with_context(|| {
        format!(
            "cannot compare {} with {}",
            args.a.display(),
            args.b.display()
        )
    })?;
    if args.json {
        println!("{}", serde_json::to_string_pretty(&compared)?);
    } else {
        print!("{}", render_table(&compared, &args.a, &args.b));
    }
    Ok(ExitCode::SUCCESS)
}

fn pct(v: Option<f64>) -> String {
    v.map_or_else(|| "-".into(), |v| format!("{:.1}", 100.0 * v))
}

fn signed_pct(v: Option<f64>) -> String {
    v.map_or_else(|| "-".into(), |v| format!("{:+.1}", 100.0 * v))
}

fn p_value(v: Option<f64>) -> String {
    match v {
        None => "-".into(),
        Some(p) if p < 0.001 => "<0.001".into(),
        Some(p) => format!("{p:.3}"),
    }
}

/// The comparison as aligned tables, one per corpus (percentages to one decimal; the
/// interval is `delta ± 1.96·se`).
pub fn render_table(r: &RunCompare, a: &Path, b: &Path) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "# runlens compare: A = {}, B = {}",
        a.display(),
        b.display()
    );
    for corpus in &r.corpora {
        let _ = writeln!(
            out,
            "\n## {} ({} questions in both; pass % over the questions scored in both)",
            corpus.name, corpus.questions
        );
        let width = corpus
            .models
            .iter()
            .map(|m| m.model.chars().count())
            .max()
            .unwrap_or(0)
            .max("model".len());
        let _ = writeln!(
            out,
            "{:<width$} {:>6} {:>7} {:>7} {:>7} {:>16} {:>7} {:>8} {:>9}",
            "model", "n", "pass A", "pass B", "delta", "95% interval", "p", "improved", "regressed"
        );
        for m in &corpus.models {
            let d = &m.delta;
            let interval = d.interval95().map_or_else(
                || "-".into(),
                |(lo, hi)| format!("{} .. {}", signed_pct(Some(lo)), signed_pct(Some(hi))),
            );
            let _ = writeln!(
                out,
                "{:<width$} {:>6} {:>7} {:>7} {:>7} {:>16} {:>7} {:>8} {:>9}",
                m.model,
                d.n,
                pct(d.pass_a),
                pct(d.pass_b),
                signed_pct(d.delta),
                interval,
                p_value(d.p),
                d.improved,
                d.regressed
            );
        }
        for (label, models) in [
            ("only in A", &corpus.only_in_a),
            ("only in B", &corpus.only_in_b),
        ] {
            if !models.is_empty() {
                let _ = writeln!(out, "{label}: {}", models.join(", "));
            }
        }
    }
    out
}
