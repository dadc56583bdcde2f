//! `runlens metrics BUNDLE [--json] [--k-max N] [--corpus NAME] [--gold-rule RULE]
//! [--confidence-threshold T] [--loss-as-fail]`:
//! compute the harness's metrics from a run bundle and print tables or one JSON object
//! (schema: `docs/metrics-json.md`).

use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, bail};
use runlens_core::bundle::LossRule;
use runlens_core::metrics::ranking_metrics::RANKING_METRICS;
use runlens_core::metrics::{GoldRule, MetricsReport, ReportOptions, metrics_report};

/// Arguments of `runlens metrics`.
#[derive(clap::Args)]
pub struct Args {
    /// The bundle: v1 `.json` / `.json.gz`, or v2 `.zip` or directory.
    pub bundle: PathBuf,
    /// Print one JSON object (all floats unrounded) instead of tables.
    #[arg(long)]
    pub json: bool,
    /// Largest cutoff K of the ranking curves (k = 1..=K).
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u16).range(1..=1000))]
    pub k_max: u16,
    /// Corpus name (default: the bundle's first corpus).
    #[arg(long)]
    pub corpus: Option<String>,
    /// Gold-table definition.
    #[arg(long, value_enum, default_value_t = GoldRuleChoice::Harness)]
    pub gold_rule: GoldRuleChoice,
    /// High-confidence threshold t of the table sets (P(yes) ≥ t; the gate's `--min-p`).
    #[arg(long, default_value_t = 0.5, value_parser = parse_probability)]
    pub confidence_threshold: f64,
    /// Bootstrap resamples for the gate intervals.
    #[arg(long, default_value_t = 10_000)]
    pub resamples: usize,
    /// Bootstrap seed.
    #[arg(long, default_value_t = 42)]
    pub seed: u64,
    /// Score legacy `loss` cells 0 on the leaderboard (06_eval's tally) instead of excluding
    /// them as the harness's board script (08_results_stats) does.
    #[arg(long)]
    pub loss_as_fail: bool,
}

/// `--gold-rule` (core's [`GoldRule`], which knows nothing of clap).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum GoldRuleChoice {
    /// The harness's FROM/JOIN regex, quirks included.
    Harness,
    /// Tables named by the parsed SQL (sqlparser).
    Parser,
}

impl From<GoldRuleChoice> for GoldRule {
    fn from(choice: GoldRuleChoice) -> GoldRule {
        match choice {
            GoldRuleChoice::Harness => GoldRule::Harness,
            GoldRuleChoice::Parser => GoldRule::Parser,
        }
    }
}

fn parse_probability(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(t) if (0.0..=1.0).contains(&t) => Ok(t),
        _ => Err(format!("expected a number from 0 to 1, got `{s}`")),
    }
}

/// Runs `runlens metrics`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let bundle = crate::bundle_file::read(&args.bundle, false)?;
    let body = &bundle.body;
    let corpus = match &args.corpus {
        Some(name) => match body.corpus(name) {
            Some(c) => c,
            None => {
                let names: Vec<&str> = body.corpora.iter().map(|c| c.name.as_str()).collect();
                bail!(
                    "{}: no corpus named `{name}` (corpora: {})",
                    args.bundle.display(),
                    names.join(", ")
                )
            }
        },
        None => body
            .corpora
            .first()
            .with_context(|| format!("{}: the bundle has no corpus", args.bundle.display()))?,
    };
    let options = ReportOptions {
        k_max: usize::from(args.k_max),
        gold_rule: args.gold_rule.into(),
        confidence_threshold: args.confidence_threshold,
        bootstrap_resamples: args.resamples.max(1),
        bootstrap_seed: args.seed,
        loss_rule: if args.loss_as_fail {
            LossRule::AsFail
        } else {
            LossRule::Excluded
        },
        ..ReportOptions::default()
    };
    let spinner = crate::progress::bytes(false, None, "computing the metrics");
    let report = metrics_report(body, corpus, &options);
    spinner.finish_and_clear();
    if args.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        print!("{}", render_tables(&report));
    }
    Ok(ExitCode::SUCCESS)
}

/// The line said when a corpus has legacy `loss` cells, under either rule.
pub fn loss_notice(cells: usize, rule: LossRule) -> String {
    let s = if cells == 1 { "" } else { "s" };
    match rule {
        LossRule::Excluded => format!(
            "{cells} legacy loss cell{s} excluded, as the harness's board does (--loss-as-fail scores them 0)"
        ),
        LossRule::AsFail => format!(
            "{cells} legacy loss cell{s} scored as fail (--loss-as-fail; the harness's board excludes them)"
        ),
    }
}

fn pct(v: Option<f64>) -> String {
    v.map_or_else(|| "-".into(), |v| format!("{:.1}", 100.0 * v))
}

fn num(v: Option<f64>) -> String {
    v.map_or_else(|| "-".into(), |v| format!("{v:.3}"))
}

/// Renders the readable tables (3 dp for retrieval, percent at 1 dp elsewhere).
pub fn render_tables(r: &MetricsReport) -> String {
    let mut out = String::new();
    let rt = &r.retrieval;
    let _ = writeln!(out, "# runlens metrics: corpus {}\n", r.corpus);
    let _ = writeln!(
        out,
        "## Table ranking ({} questions, universe {}, gold rule {:?})",
        rt.curves.n_questions, rt.universe_size, rt.gold_rule
    );
    let mut header = format!("{:>4}", "k");
    for metric in RANKING_METRICS {
        let _ = write!(header, " {:>8}", metric.column);
    }
    let _ = writeln!(out, "{header}");
    for (j, k) in rt.curves.k.iter().enumerate() {
        let mut line = format!("{k:>4}");
        for (_, curve) in rt.curves.series() {
            let _ = write!(line, " {:>8.3}", curve[j]);
        }
        let _ = writeln!(out, "{line}");
    }
    let hc = &rt.high_confidence;
    let _ = writeln!(
        out,
        "k* never reached: {}; gold-rule differences: {}",
        rt.k_star.never,
        rt.gold_rule_differences.len()
    );
    let _ = writeln!(
        out,
        "high-confidence set (P >= {}): size {:.2}, precision {:.3}, recall {:.3}, full coverage {:.3}",
        hc.threshold, hc.mean_size, hc.precision, hc.recall, hc.full_coverage
    );
    let _ = writeln!(
        out,
        "latency: median {} s, p90 {} s (report conventions)\n",
        num(rt.latency.median_report),
        num(rt.latency.p90_report)
    );
    let f = &r.failures;
    let _ = writeln!(out, "## Failures ({} labels)", f.counts.n);
    for (bucket, n) in &f.counts.fm_bucket {
        let _ = writeln!(out, "{bucket:<22} {n:>6}");
    }
    for (t, n) in &f.correct_despite_fail_at_least {
        let _ = writeln!(out, "correct_despite_fail >= {t}: {n}");
    }
    let _ = writeln!(
        out,
        "\n## Leaderboard ({} questions, top {})",
        r.board.n_questions,
        r.board.top_model.as_deref().unwrap_or("-")
    );
    let _ = writeln!(
        out,
        "{:<28} {:>6} {:>6} {:>5} {:>6} {:>6} {:>4} {:>6} {:>7}",
        "model", "pass", "se", "n", "z", "p", "tl", "turns", "queries"
    );
    let loss_cells: usize = r.leaderboard.iter().map(|e| e.row.loss_cells).sum();
    if loss_cells > 0 {
        let _ = writeln!(out, "{}", loss_notice(loss_cells, r.options.loss_rule));
    }
    for e in &r.leaderboard {
        let row = &e.row;
        let _ = writeln!(
            out,
            "{:<28} {:>6} {:>6} {:>5} {:>6} {:>6} {:>4} {:>6} {:>7}",
            e.name,
            pct(row.pass),
            pct(row.se),
            row.n,
            row.vs_top
                .z
                .map_or_else(|| "-".into(), |z| format!("{z:.2}")),
            num(row.vs_top.p),
            row.tl,
            row.turns.map_or_else(|| "-".into(), |t| format!("{t}")),
            row.queries.map_or_else(|| "-".into(), |q| format!("{q}")),
        );
    }
    let _ = writeln!(out, "\n## Gate (strict pass; summary rule)");
    let _ = writeln!(
        out,
        "{:<28} {:>6} {:>6} {:>7} {:>7} {:>7} {:>5} {:>5}",
        "model", "cells", "fired", "base", "gated", "net", "rec", "reg"
    );
    for g in &r.gate {
        let c = &g.counts;
        let _ = writeln!(
            out,
            "{:<28} {:>6} {:>6} {:>7} {:>7} {:>7} {:>5} {:>5}",
            g.model,
            c.cells,
            c.fired,
            pct(Some(c.baseline_rate)),
            pct(Some(c.gated_rate)),
            pct(Some(c.net)),
            c.recovered,
            c.regressed
        );
    }
    out
}
