//! Shared by the proxy benches: the request they send and their options.

use indexmap::IndexMap;
use runlens_core::jev::label_request::{FailedCell, label_request};
use serde_json::{Value, json};

/// An option from the environment, else `default`.
pub fn env_usize(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// A realistic failed cell: 3 candidate queries, results of a few hundred characters.
pub fn label_body() -> Vec<u8> {
    let rules: IndexMap<String, String> = [
        ("point_in_time_filter", "for current values, filter to the most recent day, e.g. day = (SELECT max(day) ...)"),
        ("time_series_window", "for trends, use the snapshot date as the end of the range and count the window backwards"),
        ("crm_join", "join the CRM dimension to the usage mart on tenant_id, rather than reading the mart alone"),
        ("spend_guidance", "sum daily_spend over the period for spend; read plan and region off the mart directly"),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_owned(), v.to_owned()))
    .collect();
    let rows: Vec<Value> = (0..12)
        .map(|i| json!({"tenant_id": i, "plan": "pro", "seats": 10 + i}))
        .collect();
    let cell = FailedCell {
        question: "How many seats did tenants on the pro plan have on the snapshot date?".into(),
        reference_sql: vec!["SELECT sum(seats) FROM marts.usage_daily WHERE plan = 'pro' AND day = toDate('2026-11-30')".into()],
        reference_answer: "186".into(),
        candidate_sqls: vec![
            "SELECT plan, count() FROM marts.usage_daily GROUP BY plan".into(),
            "SELECT tenant_id, plan, seats FROM marts.usage_daily WHERE plan = 'pro' LIMIT 12".into(),
            "SELECT sum(seats) FROM marts.usage_daily WHERE plan = 'pro'".into(),
        ],
        candidate_results: vec![json!([{"plan": "pro", "count()": 3650}]), Value::Array(rows), json!("[[67890]]")],
        candidate_final_answer: json!("The pro tenants had 67,890 seats."),
        candidate_turns: json!(4),
        candidate_error: Value::Null,
    };
    let checks = json!({"decidable": {"reference_date": "n/a", "default_to_usage_mart": "violation", "output_column_naming": "n/a"}, "n_queries": 3, "has_repeated_query": false});
    serde_json::to_vec(&label_request(&cell, 2000, Some(&checks), &rules))
        .expect("the request serialises")
}
