//! Result strings (ClickHouse JSONEachRow) for the statements in `sql.rs`.

use indexmap::IndexMap;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::Value;

use crate::catalog::{Catalog, Role};
use crate::json::compact;
use crate::names::MONTHS;
use crate::question::{Question, Shape};
use crate::sql::{self, Variant};

/// The literal the warehouse tool returns for no rows.
pub const EMPTY: &str = "(empty result)";

type Row = IndexMap<String, Value>;

fn rows_text(rows: &[Row]) -> String {
    if rows.is_empty() {
        return EMPTY.into();
    }
    rows.iter().map(compact).collect::<Vec<_>>().join("\n")
}

fn variant_salt(v: Variant) -> u64 {
    match v {
        Variant::Gold | Variant::AltDim(_) => 0,
        Variant::OtherFact(i) => 1000 + i as u64,
        other => 17 + format!("{other:?}").len() as u64 * 31,
    }
}

/// A number as ClickHouse prints it: 64-bit integers quoted, floats rounded to 2 places.
fn number(value: f64, integer: bool) -> Value {
    if integer {
        Value::String(format!("{}", value.round().max(0.0) as u64))
    } else {
        serde_json::Number::from_f64((value * 100.0).round() / 100.0)
            .map(Value::Number)
            .unwrap_or(Value::Null)
    }
}

/// `1234567.891` → `1,234,567.89` (integers without decimals).
pub fn human(value: &Value) -> String {
    let (n, int) = match value {
        Value::String(s) => (s.parse::<f64>().unwrap_or(0.0), true),
        Value::Number(n) => (n.as_f64().unwrap_or(0.0), false),
        _ => return "n/a".into(),
    };
    let whole = n.trunc().abs() as u64;
    let digits = whole.to_string();
    let mut grouped = String::new();
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            grouped.push(',');
        }
        grouped.push(ch);
    }
    let sign = if n < 0.0 { "-" } else { "" };
    if int {
        format!("{sign}{grouped}")
    } else {
        format!(
            "{sign}{grouped}.{:02}",
            ((n.abs().fract()) * 100.0).round() as u64 % 100
        )
    }
}

fn attr_value(attr: &str, k: u64) -> String {
    let pick = |xs: &[&str]| xs[(k as usize) % xs.len()].to_string();
    match attr {
        "plan" | "tier" => pick(&["starter", "growth", "enterprise"]),
        "sub_region" => pick(&["EMEA North", "EMEA South", "NA East", "APAC"]),
        "team" => pick(&["EMEA Enterprise", "NA Mid-Market", "APAC Growth"]),
        "country" => pick(&["DE", "FR", "US", "JP", "BR"]),
        "cloud" => pick(&["aws", "gcp", "azure"]),
        "owner_id" => format!("ae-{:02}", k % 40),
        _ => pick(&["smb", "mid_market", "enterprise"]),
    }
}

/// The value of a dimension key column for entity number `k`.
pub fn key_value(key: &str, k: u64) -> Value {
    match key {
        "org_id" => Value::String(format!("o{:04}", k % 10_000)),
        "organization_id" => Value::String(format!("{}", 100_000 + k % 10_000)),
        "account_key" => Value::String(format!("ak-{:05}", k % 100_000)),
        other => Value::String(format!(
            "{}-{:04}",
            other.trim_end_matches("_id"),
            k % 10_000
        )),
    }
}

/// The result of the main statement of `q` under `v`; `salt` varies wrong answers.
pub fn main_result(cat: &Catalog, q: &Question, v: Variant) -> String {
    let mut rng = ChaCha8Rng::seed_from_u64(
        q.value_seed ^ variant_salt(v).wrapping_mul(0x9E37_79B9_7F4A_7C15),
    );
    let t = &cat.tables[q.fact];
    let fact_q = t.qualified();
    if v == Variant::UnknownColumn {
        let m = sql::fact_parts(t, q.metric)
            .map(|p| p.metric)
            .unwrap_or("value");
        return format!(
            "Error: Code: 47. DB::Exception: Unknown expression identifier `f.{m}_total` in scope SELECT sum(f.{m}_total) FROM {fact_q} AS f. Maybe you meant: ['f.{m}']. (UNKNOWN_IDENTIFIER) (version 26.3.9.1)"
        );
    }
    let out = sql::value_column(cat, q, v);
    let (metric_ty, metric_col) = match v {
        Variant::OtherFact(i) => sql::fact_parts(&cat.tables[i], 0)
            .map(|p| (p.metric_ty, p.metric))
            .unwrap_or(("Float64", "")),
        _ => sql::fact_parts(t, q.metric)
            .map(|p| (p.metric_ty, p.metric))
            .unwrap_or(("Float64", "")),
    };
    let integer = (metric_ty.starts_with("UInt") && v != Variant::Avg) || out == "row_count";
    let scale = if integer {
        4_000.0
    } else if metric_col.contains("mrr") || metric_col.contains("arr") {
        180_000.0
    } else {
        60_000.0
    };
    let val = |rng: &mut ChaCha8Rng| number(scale * rng.random_range(0.05..2.0), integer);
    let one = |k: &str, v: Value| -> Row { [(k.to_string(), v)].into_iter().collect() };
    if v == Variant::NoLookup && q.shape.has_entity() {
        if let Some((key, _)) = link_of(cat, q)
            && key == "organization_id"
        {
            let entity = q.entity.as_deref().unwrap_or("");
            return format!(
                "Error: Code: 53. DB::Exception: Cannot convert string '{entity}' to type UInt64: while executing 'FUNCTION equals(organization_id, '{entity}')'. (TYPE_MISMATCH) (version 26.3.9.1)"
            );
        }
        return rows_text(&[one(&out, number(0.0, integer))]);
    }
    let attr = q
        .dim
        .and_then(|d| sql::dim_parts(&cat.tables[d]))
        .map(|p| p.2.to_string())
        .unwrap_or_default();
    let name_col = q
        .dim
        .and_then(|d| sql::dim_parts(&cat.tables[d]))
        .map(|p| p.1.to_string())
        .unwrap_or_default();
    let rows: Vec<Row> = match (q.shape, v) {
        (_, Variant::OtherFact(_)) | (Shape::MonthTotal, _) => vec![one(&out, val(&mut rng))],
        (Shape::WorkedMrr, Variant::Gold) => worked_rows(&mut rng),
        (Shape::EntityTrend, _) => {
            let n = if v == Variant::ShortWindow { 6 } else { 12 };
            MONTHS[12 - n..]
                .iter()
                .map(|m| {
                    [
                        ("month".to_string(), Value::String(m.0.into())),
                        (out.clone(), val(&mut rng)),
                    ]
                    .into_iter()
                    .collect()
                })
                .collect()
        }
        (Shape::EntityPoint, _) => {
            let entity = Value::String(q.entity.clone().unwrap_or_default());
            vec![
                [(name_col.clone(), entity), (out.clone(), val(&mut rng))]
                    .into_iter()
                    .collect(),
            ]
        }
        _ => {
            let k = rng.random_range(0..1000);
            vec![
                [
                    (attr.clone(), Value::String(attr_value(&attr, k))),
                    (out.clone(), val(&mut rng)),
                ]
                .into_iter()
                .collect(),
            ]
        }
    };
    rows_text(&rows)
}

fn link_of<'a>(cat: &'a Catalog, q: &Question) -> Option<(&'a str, usize)> {
    if let Role::Fact {
        link: Some((k, d)), ..
    } = &cat.tables[q.fact].role
    {
        Some((k.as_str(), *d))
    } else {
        None
    }
}

fn worked_rows(rng: &mut ChaCha8Rng) -> Vec<Row> {
    let territories = [
        ("Nordics Enterprise", "Ingrid Lindqvist"),
        ("Baltics and Benelux", "Pieter de Vries"),
    ];
    let mut rows = Vec::new();
    for m in MONTHS {
        for (name, ae) in territories {
            let row: Row = [
                ("month".to_string(), Value::String(m.0.into())),
                ("sub_region".to_string(), Value::String("EMEA North".into())),
                ("territory_name".to_string(), Value::String(name.into())),
                ("ae_name".to_string(), Value::String(ae.into())),
                (
                    "mrr_usd".to_string(),
                    number(rng.random_range(90_000.0..260_000.0), false),
                ),
            ]
            .into_iter()
            .collect();
            rows.push(row);
        }
    }
    rows
}

/// The result of the lookup statement: the entity's key and name, or nothing.
pub fn lookup_result(cat: &Catalog, q: &Question, wrong_literal: bool) -> String {
    let Some(d) = q.dim.map(|d| &cat.tables[d]) else {
        return EMPTY.into();
    };
    let Some((key, name, _)) = sql::dim_parts(d) else {
        return EMPTY.into();
    };
    if wrong_literal {
        return EMPTY.into();
    }
    let k = q.value_seed % 10_000;
    let row: Row = [
        (key.to_string(), key_value(key, k)),
        (
            name.to_string(),
            Value::String(q.entity.clone().unwrap_or_default()),
        ),
    ]
    .into_iter()
    .collect();
    rows_text(&[row])
}

/// The result of `DESCRIBE TABLE` on the fact; `hostile` puts a hostile column comment in.
pub fn describe_result(cat: &Catalog, q: &Question, hostile: Option<&str>) -> String {
    let t = &cat.tables[q.fact];
    let rows: Vec<Row> = t
        .columns
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let comment = match hostile {
                Some(h) if i == 0 => h.to_string(),
                _ => c.doc.clone(),
            };
            [
                ("name", Value::String(c.name.clone())),
                ("type", Value::String(c.ty.clone())),
                ("default_type", Value::String(String::new())),
                ("default_expression", Value::String(String::new())),
                ("comment", Value::String(comment)),
                ("codec_expression", Value::String(String::new())),
                ("ttl_expression", Value::String(String::new())),
            ]
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect()
        })
        .collect();
    rows_text(&rows)
}

/// The headline value of a result (the last column of its last row), for answers.
pub fn headline(result: &str) -> Option<Value> {
    let last = result.lines().last()?;
    let row: IndexMap<String, Value> = serde_json::from_str(last).ok()?;
    row.values().last().cloned()
}

/// A hostile value planted in a result (used by the cell builder for a few cells).
pub fn hostile_row(text: &str) -> String {
    rows_text(&[[("note".to_string(), Value::String(text.to_string()))]
        .into_iter()
        .collect()])
}
