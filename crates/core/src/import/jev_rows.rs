//! Jev-side and label rows into bundle types: `out/schema_retrieval.jsonl` (§5.4),
//! `out/failure_labels.jsonl` (§7.6), `fm_labels.jsonl` (§7.8) and
//! `out/schema_retrieval_agent.jsonl` (§6.4).

use serde_json::{Map, Value};

use super::ImportError;
use super::fields::{Loc, Obj};
use super::rows::{opt_outcome, usage};
use crate::bundle::{Checks, FailureLabel, FmLabel, GateRow, Name, RankingRow, Scores};

/// Table names as rows hold them.
fn names(list: Vec<String>) -> Vec<Name> {
    list.into_iter().map(Name::from).collect()
}

/// Converts one table-ranking row. Stored metrics (`ndcg@10`, `recall@k`) go to `extra`.
pub(crate) fn ranking(map: Map<String, Value>, loc: Loc<'_>) -> Result<RankingRow, ImportError> {
    let mut o = Obj::new(map, loc, String::new());
    let trace_id = o.req_str("trace_id")?;
    let gold = names(o.str_list("gold")?);
    let ranked = names(o.str_list("ranked")?);
    let scores = match o.take_present("scores") {
        None => Scores::new(),
        Some(Value::Object(m)) => {
            let mut out = Vec::with_capacity(m.len());
            for (table, v) in m {
                let p = match &v {
                    Value::Number(n) => n.as_f64(),
                    _ => None,
                };
                let p = p.ok_or_else(|| loc.error(&format!("scores.{table}"), "a number", &v))?;
                out.push((Name::from(table), p));
            }
            out.into_iter().collect()
        }
        Some(other) => return Err(loc.error("scores", "an object of table -> number", &other)),
    };
    let latency_s = o.opt_f64("latency_s")?;
    let mut row = RankingRow {
        trace_id,
        gold,
        ranked,
        scores,
        latency_s,
        extra: o.finish(),
    };
    row.share_score_names();
    Ok(row)
}

/// Converts one Jev failure label.
pub(crate) fn failure_label(
    map: Map<String, Value>,
    loc: Loc<'_>,
) -> Result<FailureLabel, ImportError> {
    let mut o = Obj::new(map, loc, String::new());
    let trace_id = o.req_str("trace_id")?;
    let model = o.req_str("model")?;
    let outcome = opt_outcome(&mut o, "outcome")?;
    let sub_mode = o.opt_str("sub_mode")?;
    let sub_mode_confidence = o.opt_f64("sub_mode_confidence")?;
    let family = o.opt_str("family")?;
    let family_confidence = o.opt_f64("family_confidence")?;
    let prevented_by_rule = o.opt_str("prevented_by_rule")?;
    let prevented_by_rule_confidence = o.opt_f64("prevented_by_rule_confidence")?;
    let schema_hint_would_help = o.opt_f64("schema_hint_would_help")?;
    let correct_despite_fail = o.opt_f64("correct_despite_fail")?;
    let checks = match o.opt_obj("checks")? {
        None => None,
        Some(mut c) => Some(Checks {
            decidable: c.opt_str_map("decidable")?.unwrap_or_default(),
            n_queries: c.opt_u64("n_queries")?,
            has_repeated_query: c.opt_bool("has_repeated_query")?,
            extra: c.finish(),
        }),
    };
    let decidable_verdicts = o.opt_str_map("decidable_verdicts")?;
    Ok(FailureLabel {
        trace_id,
        model,
        outcome,
        sub_mode,
        sub_mode_confidence,
        family,
        family_confidence,
        prevented_by_rule,
        prevented_by_rule_confidence,
        schema_hint_would_help,
        correct_despite_fail,
        checks,
        decidable_verdicts,
        extra: o.finish(),
    })
}

/// Converts one 07_failure_modes label.
pub(crate) fn fm_label(map: Map<String, Value>, loc: Loc<'_>) -> Result<FmLabel, ImportError> {
    let mut o = Obj::new(map, loc, String::new());
    Ok(FmLabel {
        trace_id: o.req_str("trace_id")?,
        model: o.req_str("model")?,
        fm: o.req_str("fm")?,
        reason: o.opt_str("reason")?,
        extra: o.finish(),
    })
}

/// Converts one gate row (both arms, or an error row).
pub(crate) fn gate_row(map: Map<String, Value>, loc: Loc<'_>) -> Result<GateRow, ImportError> {
    let mut o = Obj::new(map, loc, String::new());
    let trace_id = o.req_str("trace_id")?;
    let model = o.req_str("model")?;
    let topk = o.opt_str_list("topk")?.map(names);
    let fired = o.opt_u32("fired")?;
    let gold = o.opt_str_list("gold")?.map(names);
    let missed_gold = o.opt_str_list("missed_gold")?.map(names);
    let missed_now_queried = o.opt_str_list("missed_now_queried")?.map(names);
    let note_covered_missed = o.opt_str_list("note_covered_missed")?.map(names);
    let baseline_outcome = opt_outcome(&mut o, "baseline_outcome")?;
    let gated_outcome = opt_outcome(&mut o, "gated_outcome")?;
    let recorded_baseline = opt_outcome(&mut o, "recorded_baseline")?;
    let gated_turns = o.opt_u32("gated_turns")?;
    let gated_latency = o.opt_f64("gated_latency")?;
    let gated_usage = o.opt_obj("gated_usage")?.map(usage).transpose()?;
    let baseline_turns = o.opt_u32("baseline_turns")?;
    let baseline_latency = o.opt_f64("baseline_latency")?;
    let baseline_usage = o.opt_obj("baseline_usage")?.map(usage).transpose()?;
    let cell_error = o.opt_str("cell_error")?;
    Ok(GateRow {
        trace_id,
        model,
        topk,
        fired,
        gold,
        missed_gold,
        missed_now_queried,
        note_covered_missed,
        baseline_outcome,
        gated_outcome,
        recorded_baseline,
        gated_turns,
        gated_latency,
        gated_usage,
        baseline_turns,
        baseline_latency,
        baseline_usage,
        cell_error,
        extra: o.finish(),
    })
}
