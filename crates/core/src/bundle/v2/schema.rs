//! Which fields of each row type become columns (the rest of a row is its text record).
//!
//! A column names a path into the row's JSON (struct fields only: never a key of a map whose
//! order is data, so taking a value out and putting it back cannot reorder anything) and a
//! kind. A value whose JSON type does not fit the kind stays in the text record, so a split
//! is lossless whatever the row holds. `Peek` columns are copies for readers of the columns
//! alone (a count, a tally); the text record keeps the value.

/// A column's type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Unsigned integer (`u64`).
    U64,
    /// Float (`f64`, as JSON floats are written).
    F64,
    /// Boolean.
    Bool,
    /// A string drawn from few values (dictionary-encoded).
    Dict,
    /// A string likely unique per row.
    Text,
    /// A list of strings.
    TextList,
    /// The length of a JSON array (a copy; the array stays in the text record).
    Len,
}

/// One column.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Column {
    /// The column's name in the table.
    pub name: &'static str,
    /// Where in the row's JSON object the value is.
    pub path: &'static [&'static str],
    /// Its type.
    pub kind: Kind,
    /// `true`: the value moves to the column; `false`: the column holds a copy.
    pub take: bool,
}

const fn take(name: &'static str, path: &'static [&'static str], kind: Kind) -> Column {
    Column {
        name,
        path,
        kind,
        take: true,
    }
}

const fn peek(name: &'static str, path: &'static [&'static str], kind: Kind) -> Column {
    Column {
        name,
        path,
        kind,
        take: false,
    }
}

/// A table's columns.
#[derive(Debug, Clone, Copy)]
pub struct Table {
    /// The table's name (its entry is `<corpus>/<name>.cols.gz`).
    pub name: &'static str,
    /// Its columns, in order.
    pub columns: &'static [Column],
}

use Kind::{Bool, Dict, F64, Len, TextList, U64};

/// The usage columns of a cell (`usage.*`) and of a gate arm (`<arm>_usage.*`).
macro_rules! usage_columns {
    ($prefix:literal, $obj:literal) => {
        [
            take(
                concat!($prefix, "prompt_tokens"),
                &[$obj, "prompt_tokens"],
                U64,
            ),
            take(
                concat!($prefix, "completion_tokens"),
                &[$obj, "completion_tokens"],
                U64,
            ),
            take(
                concat!($prefix, "reasoning_tokens"),
                &[$obj, "reasoning_tokens"],
                U64,
            ),
            take(
                concat!($prefix, "cache_read_tokens"),
                &[$obj, "cache_read_tokens"],
                U64,
            ),
            take(
                concat!($prefix, "cache_write_tokens"),
                &[$obj, "cache_write_tokens"],
                U64,
            ),
            take(
                concat!($prefix, "total_tokens"),
                &[$obj, "total_tokens"],
                U64,
            ),
            take(concat!($prefix, "api_calls"), &[$obj, "api_calls"], U64),
            take(
                concat!($prefix, "calls_missing_usage"),
                &[$obj, "calls_missing_usage"],
                U64,
            ),
        ]
    };
}

const CELL_USAGE: [Column; 8] = usage_columns!("usage_", "usage");
const BASELINE_USAGE: [Column; 8] = usage_columns!("baseline_usage_", "baseline_usage");
const GATED_USAGE: [Column; 8] = usage_columns!("gated_usage_", "gated_usage");

/// Questions (`annotated.jsonl`): the text record holds the question, gold SQL and results,
/// the annotators' runs.
pub const QUESTIONS: Table = Table {
    name: "questions",
    columns: &[
        take("trace_id", &["trace_id"], Dict),
        take("excluded", &["excluded"], Bool),
        take("gt_from", &["gt_from"], Dict),
        take("agreers", &["agreers"], TextList),
        peek("n_gt_sql", &["gt_sql"], Len),
    ],
};

/// Result rows (`results.jsonl`) without their candidates (those are [`CELLS`]).
pub const RESULTS: Table = Table {
    name: "results",
    columns: &[
        take("trace_id", &["trace_id"], Dict),
        take("gt_from", &["gt_from"], Dict),
    ],
};

const CELL_HEAD: [Column; 10] = [
    take("outcome", &["result_score", "outcome"], Dict),
    peek("tally_pass", &["result_score", "tally", "pass"], U64),
    peek("tally_fail", &["result_score", "tally", "fail"], U64),
    peek("tally_tie", &["result_score", "tally", "tie"], U64),
    peek("n_votes", &["result_score", "votes"], Len),
    take("turns", &["turns"], U64),
    take("latency", &["latency"], F64),
    take("error", &["error"], Dict),
    take("served_model", &["served_model"], Dict),
    peek("n_sqls", &["sqls"], Len),
];

const fn cells_columns() -> [Column; 18] {
    let mut out = [CELL_HEAD[0]; 18];
    let mut i = 0;
    while i < 10 {
        out[i] = CELL_HEAD[i];
        i += 1;
    }
    while i < 18 {
        out[i] = CELL_USAGE[i - 10];
        i += 1;
    }
    out
}

const CELLS_COLUMNS: [Column; 18] = cells_columns();

/// Cells: one row per candidate entry of a result row, in row order then candidate order;
/// the index columns `row`, `model` and `null_cell` are added by the writer. The text record
/// holds SQL, results, the answer, the judges' reasoning and per-turn usage.
pub const CELLS: Table = Table {
    name: "cells",
    columns: &CELLS_COLUMNS,
};

/// Ranking rows (`schema_retrieval.jsonl`): `gold` and `ranked` as lists (the metrics read
/// nothing else); scores, latency and stored extras in the text record.
pub const RANKINGS: Table = Table {
    name: "rankings",
    columns: &[
        take("trace_id", &["trace_id"], Dict),
        take("gold", &["gold"], TextList),
        take("ranked", &["ranked"], TextList),
        take("latency_s", &["latency_s"], F64),
    ],
};

/// Jev failure labels (`failure_labels.jsonl`).
pub const FAILURE_LABELS: Table = Table {
    name: "failure_labels",
    columns: &[
        take("trace_id", &["trace_id"], Dict),
        take("model", &["model"], Dict),
        take("outcome", &["outcome"], Dict),
        take("sub_mode", &["sub_mode"], Dict),
        take("sub_mode_confidence", &["sub_mode_confidence"], F64),
        take("family", &["family"], Dict),
        take("family_confidence", &["family_confidence"], F64),
        take("prevented_by_rule", &["prevented_by_rule"], Dict),
        take(
            "prevented_by_rule_confidence",
            &["prevented_by_rule_confidence"],
            F64,
        ),
        take("schema_hint_would_help", &["schema_hint_would_help"], F64),
        take("correct_despite_fail", &["correct_despite_fail"], F64),
        take("checks_n_queries", &["checks", "n_queries"], U64),
        take(
            "checks_has_repeated_query",
            &["checks", "has_repeated_query"],
            Bool,
        ),
    ],
};

/// FM labels (`fm_labels.jsonl`): the reason is text.
pub const FM_LABELS: Table = Table {
    name: "fm_labels",
    columns: &[
        take("trace_id", &["trace_id"], Dict),
        take("model", &["model"], Dict),
        take("fm", &["fm"], Dict),
    ],
};

const GATE_HEAD: [Column; 16] = [
    take("trace_id", &["trace_id"], Dict),
    take("model", &["model"], Dict),
    take("fired", &["fired"], U64),
    take("topk", &["topk"], TextList),
    take("gold", &["gold"], TextList),
    take("missed_gold", &["missed_gold"], TextList),
    take("missed_now_queried", &["missed_now_queried"], TextList),
    take("note_covered_missed", &["note_covered_missed"], TextList),
    take("baseline_outcome", &["baseline_outcome"], Dict),
    take("gated_outcome", &["gated_outcome"], Dict),
    take("recorded_baseline", &["recorded_baseline"], Dict),
    take("baseline_turns", &["baseline_turns"], U64),
    take("gated_turns", &["gated_turns"], U64),
    take("baseline_latency", &["baseline_latency"], F64),
    take("gated_latency", &["gated_latency"], F64),
    take("cell_error", &["cell_error"], Dict),
];

const fn gate_columns() -> [Column; 32] {
    let mut out = [GATE_HEAD[0]; 32];
    let mut i = 0;
    while i < 16 {
        out[i] = GATE_HEAD[i];
        i += 1;
    }
    while i < 24 {
        out[i] = BASELINE_USAGE[i - 16];
        i += 1;
    }
    while i < 32 {
        out[i] = GATED_USAGE[i - 24];
        i += 1;
    }
    out
}

const GATE_COLUMNS: [Column; 32] = gate_columns();

/// Gate rows (`schema_retrieval_agent.jsonl`), both arms.
pub const GATE_ROWS: Table = Table {
    name: "gate_rows",
    columns: &GATE_COLUMNS,
};
