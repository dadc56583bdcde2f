//! Typed rows straight from their columns and text record, with no JSON tree in between.
//!
//! The general reader ([`super::split::merge_row`]) puts a row's column values back into its
//! record as JSON and deserialises the whole; for the tables a reader keeps in memory that
//! costs a tree per row and a copy of every string (a ranking row's 710 table names, a gate
//! row's 32 columns). Here the record is deserialised into the row type directly, with the
//! row's required string fields written in front of it, and the other column values are
//! *moved* into their fields. The result is the same row (a test compares the two readers
//! on every table), and a value with no place in the record is the same error.

use serde::de::DeserializeOwned;

use super::schema::GATE_ROWS;
use super::split::ColumnData;
use crate::bundle::{FailureLabel, FmLabel, GateRow, Name, Outcome, Question, RankingRow, Usage};

/// A table's columns, their values moved out as they are read or copied.
enum Columns<'a> {
    Moved(&'a mut [ColumnData]),
    Copied(&'a [ColumnData]),
}

/// Row `i`'s values of a table's columns, moved out or copied as they are read.
pub(crate) struct RowColumns<'a> {
    columns: Columns<'a>,
    i: usize,
}

impl<'a> RowColumns<'a> {
    fn column(&self, at: usize) -> Option<&ColumnData> {
        match &self.columns {
            Columns::Moved(c) => c.get(at),
            Columns::Copied(c) => c.get(at),
        }
    }

    /// The string at column `at`, moved out (or copied).
    /// (A dictionary column's string is copied: its dictionary holds it once for every row.)
    fn text(&mut self, at: usize) -> Option<String> {
        let i = self.i;
        match &mut self.columns {
            Columns::Moved(c) => match c.get_mut(at) {
                Some(ColumnData::Str(v)) => v.get_mut(i).and_then(Option::take),
                Some(c) => c.str_at(i).map(str::to_owned),
                None => None,
            },
            Columns::Copied(c) => c.get(at).and_then(|c| c.str_at(i)).map(str::to_owned),
        }
    }

    /// The string at column `at`, borrowed (a required field written before the record).
    pub(crate) fn text_ref(&self, at: usize) -> Option<&str> {
        self.column(at).and_then(|c| c.str_at(self.i))
    }

    /// The list at column `at`, moved out without the decoder's spare capacity (kept whole,
    /// a ranking row's 710 names would hold up to twice their room), or copied.
    fn list(&mut self, at: usize) -> Option<Vec<Name>> {
        let i = self.i;
        match &mut self.columns {
            Columns::Moved(c) => match c.get_mut(at) {
                Some(ColumnData::StrList(v)) => v.get_mut(i).and_then(Option::take).map(|mut l| {
                    l.shrink_to_fit();
                    l
                }),
                _ => None,
            },
            Columns::Copied(c) => match c.get(at) {
                Some(ColumnData::StrList(v)) => v.get(i).cloned().flatten(),
                _ => None,
            },
        }
    }

    fn u64(&self, at: usize) -> Option<u64> {
        self.column(at).and_then(|c| c.u64_at(self.i))
    }

    fn f64(&self, at: usize) -> Option<f64> {
        self.column(at).and_then(|c| c.f64_at(self.i))
    }

    fn bool(&self, at: usize) -> Option<bool> {
        self.column(at).and_then(|c| c.bool_at(self.i))
    }

    fn outcome(&self, at: usize) -> Option<Outcome> {
        self.text_ref(at).map(Outcome::from_str_lossless)
    }

    /// A `u32` field's value (`name` for the error when it does not fit, as the general
    /// reader's deserialiser would refuse it).
    fn u32(&self, at: usize, name: &str) -> Result<Option<u32>, String> {
        self.u64(at)
            .map(|n| {
                u32::try_from(n).map_err(|_| {
                    format!("invalid value: integer `{n}`, expected u32 (column {name})")
                })
            })
            .transpose()
    }
}

/// Sets `field` when the column has a value (a column without one leaves the record's).
fn set<T>(field: &mut T, value: Option<T>) {
    if let Some(v) = value {
        *field = v;
    }
}

fn set_some<T>(field: &mut Option<T>, value: Option<T>) {
    if value.is_some() {
        *field = value;
    }
}

/// A row type read by [`typed_row`].
pub(crate) trait FromColumns: DeserializeOwned {
    /// Columns holding the type's required string fields, with their field names: written in
    /// front of the record, so the record deserialises as a whole row.
    const REQUIRED: &'static [(usize, &'static str)];

    /// Moves the row's other column values into their fields; `Err(column)` names a nested
    /// value whose parent object the record lacks, or a value its field cannot hold.
    fn take_columns(&mut self, row: &mut RowColumns<'_>) -> Result<(), String>;
}

/// Row `i`: `record` (its text record's JSON object, empty for none) deserialised with the
/// required fields in front, then the other column values moved in.
pub(crate) fn typed_row<T: FromColumns>(
    columns: &mut [ColumnData],
    i: usize,
    record: &[u8],
) -> Result<T, String> {
    typed_row_of(
        RowColumns {
            columns: Columns::Moved(columns),
            i,
        },
        record,
    )
}

/// [`typed_row`] with the column values copied, the columns left as they are.
pub(crate) fn typed_row_copied<T: FromColumns>(
    columns: &[ColumnData],
    i: usize,
    record: &[u8],
) -> Result<T, String> {
    typed_row_of(
        RowColumns {
            columns: Columns::Copied(columns),
            i,
        },
        record,
    )
}

fn typed_row_of<T: FromColumns>(mut row: RowColumns<'_>, record: &[u8]) -> Result<T, String> {
    let inner = record_inner(record)?;
    let mut json = Vec::with_capacity(inner.len() + 64);
    json.push(b'{');
    for &(at, name) in T::REQUIRED {
        let Some(value) = row.text_ref(at) else {
            continue;
        };
        if json.len() > 1 {
            json.push(b',');
        }
        serde_json::to_writer(&mut json, name).map_err(|e| e.to_string())?;
        json.push(b':');
        serde_json::to_writer(&mut json, value).map_err(|e| e.to_string())?;
    }
    if !inner.is_empty() {
        if json.len() > 1 {
            json.push(b',');
        }
        json.extend_from_slice(inner);
    }
    json.push(b'}');
    let mut typed: T = serde_json::from_slice(&json).map_err(|e| e.to_string())?;
    typed.take_columns(&mut row)?;
    Ok(typed)
}

/// What is between a record object's braces, trimmed (empty for `{}` or no record).
fn record_inner(record: &[u8]) -> Result<&[u8], String> {
    let trimmed = record.trim_ascii();
    if trimmed.is_empty() {
        return Ok(trimmed);
    }
    match (trimmed.first(), trimmed.last()) {
        (Some(b'{'), Some(b'}')) if trimmed.len() >= 2 => {
            Ok(trimmed[1..trimmed.len() - 1].trim_ascii())
        }
        _ => Err("text record: expected a JSON object".to_owned()),
    }
}

/// The error of a nested column value whose parent object the record lacks.
fn no_place(column: &str) -> String {
    format!("column {column} has a value but no place in the record")
}

/// The gate row's usage columns from column `at` ([`GATE_ROWS`]'s order) into `usage` (the
/// record's object; `None`: a value there has no place).
fn take_usage(row: &RowColumns<'_>, at: usize, usage: &mut Option<Usage>) -> Result<(), String> {
    let values: Vec<Option<u64>> = (at..at + 8).map(|c| row.u64(c)).collect();
    let Some(first) = values.iter().position(Option::is_some) else {
        return Ok(());
    };
    let Some(u) = usage.as_mut() else {
        let name = GATE_ROWS
            .columns
            .get(at + first)
            .map_or("usage", |c| c.name);
        return Err(no_place(name));
    };
    let mut c = u.counts();
    set_some(&mut c.prompt_tokens, values[0]);
    set_some(&mut c.completion_tokens, values[1]);
    set_some(&mut c.reasoning_tokens, values[2]);
    set_some(&mut c.cache_read_tokens, values[3]);
    set_some(&mut c.cache_write_tokens, values[4]);
    set_some(&mut c.total_tokens, values[5]);
    set_some(&mut c.api_calls, values[6]);
    set_some(&mut c.calls_missing_usage, values[7]);
    u.set_counts(c);
    Ok(())
}

impl FromColumns for Question {
    const REQUIRED: &'static [(usize, &'static str)] = &[(0, "trace_id")];

    fn take_columns(&mut self, row: &mut RowColumns<'_>) -> Result<(), String> {
        set(&mut self.excluded, row.bool(1));
        set_some(&mut self.gt_from, row.text(2));
        set(
            &mut self.agreers,
            row.list(3)
                .map(|l| l.iter().map(|s| s.to_string()).collect()),
        );
        // 4: n_gt_sql, a copy (the record holds gt_sql).
        // Parsed without a length ahead, collections keep up to twice their room.
        self.gt_sql.shrink_to_fit();
        self.gt_results.shrink_to_fit();
        if let Some(a) = self.annotators.as_mut() {
            a.shrink_to_fit();
        }
        Ok(())
    }
}

impl FromColumns for RankingRow {
    const REQUIRED: &'static [(usize, &'static str)] = &[(0, "trace_id")];

    fn take_columns(&mut self, row: &mut RowColumns<'_>) -> Result<(), String> {
        set(&mut self.gold, row.list(1));
        set(&mut self.ranked, row.list(2));
        set_some(&mut self.latency_s, row.f64(3));
        // Kept without names when they are `ranked`'s (as a rule).
        self.share_score_names();
        Ok(())
    }
}

impl FromColumns for FailureLabel {
    const REQUIRED: &'static [(usize, &'static str)] = &[(0, "trace_id"), (1, "model")];

    fn take_columns(&mut self, row: &mut RowColumns<'_>) -> Result<(), String> {
        set_some(&mut self.outcome, row.outcome(2));
        set_some(&mut self.sub_mode, row.text(3));
        set_some(&mut self.sub_mode_confidence, row.f64(4));
        set_some(&mut self.family, row.text(5));
        set_some(&mut self.family_confidence, row.f64(6));
        set_some(&mut self.prevented_by_rule, row.text(7));
        set_some(&mut self.prevented_by_rule_confidence, row.f64(8));
        set_some(&mut self.schema_hint_would_help, row.f64(9));
        set_some(&mut self.correct_despite_fail, row.f64(10));
        let (n_queries, repeated) = (row.u64(11), row.bool(12));
        if n_queries.is_some() || repeated.is_some() {
            let Some(checks) = self.checks.as_mut() else {
                let column = if n_queries.is_some() {
                    "checks_n_queries"
                } else {
                    "checks_has_repeated_query"
                };
                return Err(no_place(column));
            };
            set_some(&mut checks.n_queries, n_queries);
            set_some(&mut checks.has_repeated_query, repeated);
        }
        Ok(())
    }
}

impl FromColumns for FmLabel {
    const REQUIRED: &'static [(usize, &'static str)] = &[(0, "trace_id"), (1, "model"), (2, "fm")];

    fn take_columns(&mut self, _row: &mut RowColumns<'_>) -> Result<(), String> {
        Ok(())
    }
}

impl FromColumns for GateRow {
    const REQUIRED: &'static [(usize, &'static str)] = &[(0, "trace_id"), (1, "model")];

    fn take_columns(&mut self, row: &mut RowColumns<'_>) -> Result<(), String> {
        set_some(&mut self.fired, row.u32(2, "fired")?);
        set_some(&mut self.topk, row.list(3));
        set_some(&mut self.gold, row.list(4));
        set_some(&mut self.missed_gold, row.list(5));
        set_some(&mut self.missed_now_queried, row.list(6));
        set_some(&mut self.note_covered_missed, row.list(7));
        set_some(&mut self.baseline_outcome, row.outcome(8));
        set_some(&mut self.gated_outcome, row.outcome(9));
        set_some(&mut self.recorded_baseline, row.outcome(10));
        set_some(&mut self.baseline_turns, row.u32(11, "baseline_turns")?);
        set_some(&mut self.gated_turns, row.u32(12, "gated_turns")?);
        set_some(&mut self.baseline_latency, row.f64(13));
        set_some(&mut self.gated_latency, row.f64(14));
        set_some(&mut self.cell_error, row.text(15));
        take_usage(row, 16, &mut self.baseline_usage)?;
        take_usage(row, 24, &mut self.gated_usage)?;
        Ok(())
    }
}

#[cfg(test)]
#[path = "typed_rows_tests.rs"]
mod tests;
