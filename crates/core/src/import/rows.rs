//! `annotated.jsonl` and `results.jsonl` rows into bundle types, accepting every variant the
//! harness has written (harness-formats.md §2.2, §3, §4): `gt_sql` as a string or a list,
//! `null` or missing cells, `usage: null`, old `bench.py` cells without `per_turn`, votes with
//! only `verdict`, and non-string result values (stored as compact JSON text, with a warning).

use indexmap::IndexMap;
use serde_json::{Map, Value};

use super::ImportError;
use super::fields::{Loc, Obj, u64_of};
use crate::bundle::{
    Cell, Name, Outcome, Question, ResultRow, ResultScore, Usage, UsageCounts, Vote, Warning,
};

/// Converts one `annotated.jsonl` row.
pub(crate) fn question(
    map: Map<String, Value>,
    loc: Loc<'_>,
    warnings: &mut Vec<Warning>,
) -> Result<Question, ImportError> {
    let mut o = Obj::new(map, loc, String::new());
    let trace_id = o.req_str("trace_id")?;
    let nl_question = o.opt_str("nl_question")?.unwrap_or_default();
    let annotators = match o.opt_obj("annotators")? {
        None => None,
        Some(ann) => Some(cell_map(ann, warnings)?),
    };
    let excluded = o.opt_bool("excluded")?.unwrap_or(false);
    let agreers = o.str_list("agreers")?;
    let gt_from = o.opt_str("gt_from")?;
    let (gt_sql, gt_sql_was_string) = match o.take_present("gt_sql") {
        None => (Vec::new(), false),
        Some(Value::String(s)) => (vec![s], true),
        Some(Value::Array(items)) => (
            string_items(items, loc, &o.path("gt_sql"), warnings)?,
            false,
        ),
        Some(other) => return Err(loc.error("gt_sql", "a list of strings or a string", &other)),
    };
    let gt_results = match o.take_present("gt_results") {
        None => Vec::new(),
        Some(Value::Array(items)) => string_items(items, loc, "gt_results", warnings)?,
        Some(other) => return Err(loc.error("gt_results", "a list of strings", &other)),
    };
    let gt_answer = o.opt_str("gt_answer")?.unwrap_or_default();
    Ok(Question {
        trace_id,
        nl_question,
        annotators,
        excluded,
        agreers,
        gt_from,
        gt_sql,
        gt_sql_was_string,
        gt_results,
        gt_answer,
        extra: o.finish(),
    })
}

/// Converts one `results.jsonl` row.
pub(crate) fn result_row(
    map: Map<String, Value>,
    loc: Loc<'_>,
    warnings: &mut Vec<Warning>,
) -> Result<ResultRow, ImportError> {
    let mut o = Obj::new(map, loc, String::new());
    let trace_id = o.req_str("trace_id")?;
    let nl_question = o.opt_str("nl_question")?;
    let gt_from = o.opt_str("gt_from")?;
    let candidates = match o.opt_obj("candidates")? {
        None => IndexMap::new(),
        Some(c) => nullable_cell_map(c, warnings)?,
    };
    Ok(ResultRow {
        trace_id,
        nl_question,
        gt_from,
        candidates,
        extra: o.finish(),
    })
}

fn cell_map(
    o: Obj<'_>,
    warnings: &mut Vec<Warning>,
) -> Result<IndexMap<String, Cell>, ImportError> {
    let loc = o.loc();
    let prefix = o.path("");
    let prefix = prefix.trim_end_matches('.');
    let mut out = IndexMap::new();
    for (key, value) in o.finish() {
        let path = format!("{prefix}.{key}");
        let cell = Obj::from_value(value, loc, path).and_then(|c| cell(c, warnings))?;
        out.insert(key, cell);
    }
    Ok(out)
}

fn nullable_cell_map(
    o: Obj<'_>,
    warnings: &mut Vec<Warning>,
) -> Result<IndexMap<Name, Option<Cell>>, ImportError> {
    let loc = o.loc();
    let mut out = IndexMap::new();
    for (key, value) in o.finish() {
        let path = format!("candidates.{key}");
        let cell = match value {
            Value::Null => None,
            v => Some(Obj::from_value(v, loc, path).and_then(|c| cell(c, warnings))?),
        };
        out.insert(Name::from(key), cell);
    }
    Ok(out)
}

/// Converts a trajectory (a candidate cell or an annotator run).
pub(crate) fn cell(mut o: Obj<'_>, warnings: &mut Vec<Warning>) -> Result<Cell, ImportError> {
    let loc = o.loc();
    let sqls = match o.take_present("sqls") {
        None => Vec::new(),
        Some(Value::Array(items)) => string_items(items, loc, &o.path("sqls"), warnings)?,
        Some(other) => return Err(loc.error(&o.path("sqls"), "a list of strings", &other)),
    };
    let sql_results = match o.take_present("sql_results") {
        None => Vec::new(),
        Some(Value::Array(items)) => string_items(items, loc, &o.path("sql_results"), warnings)?,
        Some(other) => return Err(loc.error(&o.path("sql_results"), "a list of strings", &other)),
    };
    let final_answer = o.opt_str("final_answer")?;
    let turns = o.opt_u32("turns")?;
    let latency = o.opt_f64("latency")?;
    let result_score = match o.opt_obj("result_score")? {
        None => None,
        Some(rs) => Some(result_score(rs)?),
    };
    let served_model = o.opt_str("served_model")?.map(Name::from);
    let error = o.opt_str("error")?;
    let usage = match o.opt_obj("usage")? {
        None => None,
        Some(u) => Some(usage(u)?),
    };
    Ok(Cell {
        sqls,
        sql_results,
        final_answer,
        turns,
        latency,
        result_score,
        served_model,
        error,
        usage,
        extra: o.finish(),
        text_at: None,
    })
}

/// Strings of a list; a non-string item is stored as its compact JSON text with a warning.
fn string_items(
    items: Vec<Value>,
    loc: Loc<'_>,
    path: &str,
    warnings: &mut Vec<Warning>,
) -> Result<Vec<String>, ImportError> {
    let mut out = Vec::with_capacity(items.len());
    for (i, item) in items.into_iter().enumerate() {
        match item {
            Value::String(s) => out.push(s),
            Value::Array(_) | Value::Object(_) | Value::Number(_) | Value::Bool(_) => {
                warnings.push(Warning {
                    file: loc.file.to_owned(),
                    line: loc.line,
                    kind: "non_string_item".to_owned(),
                    message: format!("{path}[{i}] is not a string; stored as its JSON text"),
                });
                out.push(item.to_string());
            }
            Value::Null => return Err(loc.error(&format!("{path}[{i}]"), "a string", &item)),
        }
    }
    Ok(out)
}

/// An outcome string field (`pass|fail|tie|error|loss`, others kept verbatim).
pub(crate) fn opt_outcome(o: &mut Obj<'_>, key: &str) -> Result<Option<Outcome>, ImportError> {
    Ok(o.opt_str(key)?.map(|s| Outcome::from_str_lossless(&s)))
}

fn result_score(mut o: Obj<'_>) -> Result<ResultScore, ImportError> {
    let loc = o.loc();
    let outcome = opt_outcome(&mut o, "outcome")?;
    let reasoning = o.opt_str("reasoning")?;
    let panel = o.opt_str_list("panel")?;
    let tally_path = o.path("tally");
    let tally = match o.opt_obj("tally")? {
        None => None,
        Some(t) => {
            let mut out = IndexMap::new();
            for (k, v) in t.finish() {
                let n = u64_of(&v)
                    .and_then(|n| u32::try_from(n).ok())
                    .ok_or_else(|| {
                        loc.error(&format!("{tally_path}.{k}"), "a non-negative integer", &v)
                    })?;
                out.insert(k, n);
            }
            Some(out)
        }
    };
    let votes_path = o.path("votes");
    let votes = match o.take_present("votes") {
        None => None,
        Some(Value::Array(items)) => {
            let mut out = Vec::with_capacity(items.len());
            for (i, item) in items.into_iter().enumerate() {
                let v = Obj::from_value(item, loc, format!("{votes_path}[{i}]"))?;
                out.push(vote(v)?);
            }
            Some(out)
        }
        Some(other) => return Err(loc.error(&votes_path, "a list of votes", &other)),
    };
    Ok(ResultScore {
        outcome,
        reasoning,
        panel,
        tally: tally.map(Box::new),
        votes,
        extra: o.finish(),
    })
}

fn vote(mut o: Obj<'_>) -> Result<Vote, ImportError> {
    Ok(Vote {
        outcome: opt_outcome(&mut o, "outcome")?,
        verdict: o.opt_str("verdict")?,
        reasoning: o.opt_str("reasoning")?,
        judge: o.opt_str("judge")?,
        data_equiv: o.opt_str("data_equiv")?,
        extra: o.finish(),
    })
}

/// Converts a usage block (§3.4).
pub(crate) fn usage(mut o: Obj<'_>) -> Result<Usage, ImportError> {
    let loc = o.loc();
    let prompt_tokens = o.opt_u64("prompt_tokens")?;
    let completion_tokens = o.opt_u64("completion_tokens")?;
    let reasoning_tokens = o.opt_u64("reasoning_tokens")?;
    let cache_read_tokens = o.opt_u64("cache_read_tokens")?;
    let cache_write_tokens = o.opt_u64("cache_write_tokens")?;
    let total_tokens = o.opt_u64("total_tokens")?;
    let api_calls = o.opt_u64("api_calls")?;
    let per_turn_path = o.path("per_turn");
    let per_turn = match o.take_present("per_turn") {
        None => None,
        Some(Value::Array(turns)) => {
            let mut out = Vec::with_capacity(turns.len());
            for (i, turn) in turns.into_iter().enumerate() {
                out.push(per_turn_entry(&turn).ok_or_else(|| {
                    loc.error(
                        &format!("{per_turn_path}[{i}]"),
                        "[prompt, completion, reasoning, cache_read, cache_write] (5 non-negative integers)",
                        &turn,
                    )
                })?);
            }
            Some(out)
        }
        Some(other) => {
            return Err(loc.error(&per_turn_path, "a list of per-call token lists", &other));
        }
    };
    let calls_missing_usage = o.opt_u64("calls_missing_usage")?;
    let mut usage = Usage::from(UsageCounts {
        prompt_tokens,
        completion_tokens,
        reasoning_tokens,
        cache_read_tokens,
        cache_write_tokens,
        total_tokens,
        api_calls,
        calls_missing_usage,
    });
    usage.per_turn = per_turn;
    usage.extra = o.finish();
    Ok(usage)
}

fn per_turn_entry(value: &Value) -> Option<[u64; 5]> {
    let Value::Array(items) = value else {
        return None;
    };
    if items.len() != 5 {
        return None;
    }
    let mut out = [0u64; 5];
    for (slot, item) in out.iter_mut().zip(items) {
        *slot = u64_of(item)?;
    }
    Some(out)
}
