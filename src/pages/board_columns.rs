//! The leaderboard's columns: key (URL and CSV header), label, how to read and show a value.

use std::cmp::Ordering;

use runlens_core::metrics::report_board::LeaderboardEntry;

/// A cell value for sorting and CSV.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// A number (missing = `None`).
    Num(Option<f64>),
    /// Text.
    Text(String),
}

impl Value {
    /// Whether the value is missing (sorts last).
    pub fn is_missing(&self) -> bool {
        matches!(self, Value::Num(None))
    }

    /// Total order: numbers by value, text by code points.
    pub fn order(&self, other: &Value) -> Ordering {
        match (self, other) {
            (Value::Num(Some(a)), Value::Num(Some(b))) => a.total_cmp(b),
            (Value::Text(a), Value::Text(b)) => a.cmp(b),
            _ => Ordering::Equal,
        }
    }

    /// Unrounded text for CSV (empty when missing).
    pub fn raw(&self) -> String {
        match self {
            Value::Num(Some(v)) => v.to_string(),
            Value::Num(None) => String::new(),
            Value::Text(t) => t.clone(),
        }
    }
}

/// One column of the leaderboard.
pub struct Column {
    /// URL and CSV key.
    pub key: &'static str,
    /// Header text.
    pub label: &'static str,
    /// Tooltip explaining the column.
    pub help: &'static str,
    /// Whether it holds numbers (right-aligned, sorts descending first).
    pub numeric: bool,
    /// The value.
    pub value: fn(&LeaderboardEntry) -> Value,
    /// The rounded text shown.
    pub display: fn(&LeaderboardEntry) -> String,
}

fn pct(v: Option<f64>) -> String {
    v.map_or_else(|| "–".into(), |x| format!("{:.1}", 100.0 * x))
}

fn fixed(v: Option<f64>, digits: usize) -> String {
    v.map_or_else(|| "–".into(), |x| format!("{x:.digits$}"))
}

/// A p-value to three places; below 0.001 as "< 0.001" (never a bare "0.000").
pub fn p_text(p: Option<f64>) -> String {
    match p {
        Some(p) if p < 0.001 => "< 0.001".to_owned(),
        other => fixed(other, 3),
    }
}

fn count(n: usize) -> Option<f64> {
    Some(n as f64)
}

/// Every column, in display order.
pub static COLUMNS: [Column; 14] = [
    Column {
        key: "model",
        label: "model",
        help: "display name (hover a row for the model key)",
        numeric: false,
        value: |e| Value::Text(e.name.clone()),
        display: |e| e.name.clone(),
    },
    Column {
        key: "pass",
        label: "pass %",
        help: "mean score: pass 1, tie 0.5, fail 0 (errors and legacy loss excluded)",
        numeric: true,
        value: |e| Value::Num(e.row.pass),
        display: |e| pct(e.row.pass),
    },
    Column {
        key: "ci95",
        label: "95% CI",
        help: "normal interval, pass ± 1.96·SE",
        numeric: true,
        value: |e| Value::Num(e.row.ci95.map(|c| c[0])),
        display: |e| {
            e.row.ci95.map_or_else(
                || "–".into(),
                |[lo, hi]| format!("[{:.1}, {:.1}]", 100.0 * lo, 100.0 * hi),
            )
        },
    },
    Column {
        key: "se",
        label: "SE %",
        help: "standard error of the pass rate",
        numeric: true,
        value: |e| Value::Num(e.row.se),
        display: |e| pct(e.row.se),
    },
    Column {
        key: "n",
        label: "n",
        help: "scored cells (errors and legacy loss excluded)",
        numeric: true,
        value: |e| Value::Num(count(e.row.n)),
        display: |e| e.row.n.to_string(),
    },
    Column {
        key: "answered",
        label: "answered %",
        help: "pass rate over scored cells that did not hit the turn limit",
        numeric: true,
        value: |e| Value::Num(e.row.answered),
        display: |e| pct(e.row.answered),
    },
    Column {
        key: "tl",
        label: "turn-limited",
        help: "cells that hit the turn budget",
        numeric: true,
        value: |e| Value::Num(count(e.row.tl)),
        display: |e| e.row.tl.to_string(),
    },
    Column {
        key: "turns",
        label: "turns",
        help: "median turns",
        numeric: true,
        value: |e| Value::Num(e.row.turns),
        display: |e| fixed(e.row.turns, 1),
    },
    Column {
        key: "queries",
        label: "queries",
        help: "median SQL queries",
        numeric: true,
        value: |e| Value::Num(e.row.queries),
        display: |e| fixed(e.row.queries, 1),
    },
    Column {
        key: "qpt",
        label: "q/turn",
        help: "median queries per turn",
        numeric: true,
        value: |e| Value::Num(e.row.queries_per_turn),
        display: |e| fixed(e.row.queries_per_turn, 2),
    },
    Column {
        key: "tokens",
        label: "output tokens",
        help: "median output tokens per cell",
        numeric: true,
        value: |e| Value::Num(e.row.tokens.median_output_tokens),
        display: |e| fixed(e.row.tokens.median_output_tokens, 0),
    },
    Column {
        key: "z",
        label: "z vs top",
        help: "paired z against the top model",
        numeric: true,
        value: |e| Value::Num(e.row.vs_top.z),
        display: |e| fixed(e.row.vs_top.z, 2),
    },
    Column {
        key: "p",
        label: "p",
        help: "two-sided p of the paired test against the top model",
        numeric: true,
        value: |e| Value::Num(e.row.vs_top.p),
        display: |e| p_text(e.row.vs_top.p),
    },
    Column {
        key: "key",
        label: "model key",
        help: "the harness's model key",
        numeric: false,
        value: |e| Value::Text(e.row.model.clone()),
        display: |e| e.row.model.clone(),
    },
];
