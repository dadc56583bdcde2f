//! SQL statements (ClickHouse dialect) for a question's gold run and its failure variants.

use crate::catalog::{Catalog, Role, Table};
use crate::names::{MONTHS, SNAPSHOT};
use crate::question::{Question, Shape};

/// How a candidate's main statement differs from the gold one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Variant {
    /// The gold statement.
    Gold,
    /// Resolve the entity through another dimension (same answer, different tables).
    AltDim(usize),
    /// Read another fact table (wrong table).
    OtherFact(usize),
    /// Use another measure of the same fact (wrong column).
    OtherMetric,
    /// `avg` instead of `sum` (wrong aggregation).
    Avg,
    /// `count()` per row instead of the measure (wrong grain).
    CountRows,
    /// `now()`-relative window (wrong time window; violates `reference_date`).
    NowWindow,
    /// A narrower window than asked (wrong time window).
    ShortWindow,
    /// Drops the entity or window predicate (wrong filter).
    NoFilter,
    /// Joins the dimension on the wrong key (wrong join).
    BadJoin,
    /// Filters the fact by the display name without the lookup (unresolved lookup).
    NoLookup,
    /// Looks the entity up by a wrong literal, e.g. a split name (wrong identifier).
    WrongLiteral,
    /// References a column that does not exist (runtime error).
    UnknownColumn,
}

pub(crate) struct FactParts<'a> {
    pub date: &'a str,
    pub metric: &'a str,
    pub metric_ty: &'a str,
}

pub(crate) fn fact_parts<'a>(t: &'a Table, metric_ix: usize) -> Option<FactParts<'a>> {
    if let Role::Fact {
        date_col, metrics, ..
    } = &t.role
    {
        let m = metrics.get(metric_ix).or(metrics.first())?;
        let ty = t
            .columns
            .iter()
            .find(|c| c.name == m.col)
            .map(|c| c.ty.as_str())
            .unwrap_or("Float64");
        Some(FactParts {
            date: date_col,
            metric: &m.col,
            metric_ty: ty,
        })
    } else {
        None
    }
}

/// `(key column, name column, attribute column)` of a dimension.
pub(crate) fn dim_parts(t: &Table) -> Option<(&str, &str, &str)> {
    if let Role::Dim {
        key_col,
        name_col,
        attr,
    } = &t.role
    {
        Some((key_col, name_col, &attr.0))
    } else {
        None
    }
}

fn window(shape: Shape, v: Variant, p: &str, date: &str, fact: &str, month: usize) -> String {
    match (shape, v) {
        (_, Variant::NowWindow) => match shape {
            Shape::EntityPoint => format!("{p}{date} >= today() - INTERVAL 1 DAY"),
            Shape::EntityTrend | Shape::WorkedMrr => {
                format!("{p}{date} >= now() - INTERVAL 12 MONTH")
            }
            _ => format!("{p}{date} >= now() - INTERVAL 30 DAY"),
        },
        (Shape::MonthTotal, Variant::ShortWindow) => format!(
            "{p}{date} >= toDate('{}') AND {p}{date} < toDate('{}')",
            MONTHS[month].0,
            next_month(month)
        )
        .replacen(MONTHS[month].0, &MONTHS[month].0.replace("-01", "-15"), 1),
        (Shape::MonthTotal, _) => {
            format!(
                "{p}{date} >= toDate('{}') AND {p}{date} < toDate('{}')",
                MONTHS[month].0,
                next_month(month)
            )
        }
        (Shape::EntityTrend | Shape::WorkedMrr, Variant::ShortWindow) => {
            format!("{p}{date} >= toStartOfMonth(toDate('{SNAPSHOT}')) - INTERVAL 5 MONTH")
        }
        (Shape::EntityTrend | Shape::WorkedMrr, _) => {
            format!("{p}{date} >= toStartOfMonth(toDate('{SNAPSHOT}')) - INTERVAL 11 MONTH")
        }
        (Shape::EntityPoint, Variant::ShortWindow) => {
            format!("{p}{date} >= toDate('{SNAPSHOT}') - INTERVAL 7 DAY")
        }
        (Shape::EntityPoint, _) => format!("{p}{date} = (SELECT max({date}) FROM {fact})"),
        (_, Variant::ShortWindow) => format!("{p}{date} >= toDate('{SNAPSHOT}') - INTERVAL 7 DAY"),
        _ => format!("{p}{date} >= toDate('{SNAPSHOT}') - INTERVAL 30 DAY"),
    }
}

fn next_month(month: usize) -> &'static str {
    MONTHS.get(month + 1).map(|m| m.0).unwrap_or("2026-07-01")
}

/// The output column name of the main measure for this variant.
pub fn value_column(cat: &Catalog, q: &Question, v: Variant) -> String {
    let t = &cat.tables[q.fact];
    match v {
        Variant::OtherFact(i) => fact_parts(&cat.tables[i], 0)
            .map(|p| format!("total_{}", p.metric))
            .unwrap_or_default(),
        Variant::CountRows => "row_count".into(),
        Variant::OtherMetric => {
            let other = fact_parts(t, q.metric + 1)
                .filter(|p| Some(p.metric) != fact_parts(t, q.metric).map(|x| x.metric));
            other
                .map(|p| format!("total_{}", p.metric))
                .unwrap_or_else(|| "row_count".into())
        }
        _ => {
            let m = fact_parts(t, q.metric).map(|p| p.metric).unwrap_or("value");
            if v == Variant::Avg {
                format!("avg_{m}")
            } else {
                format!("total_{m}")
            }
        }
    }
}

/// The main statement of question `q` under variant `v`.
pub fn main_statement(cat: &Catalog, q: &Question, v: Variant) -> String {
    let t = &cat.tables[q.fact];
    let Some(fp) = fact_parts(t, q.metric) else {
        return "SELECT 1".into();
    };
    if let Variant::OtherFact(i) = v {
        let other = &cat.tables[i];
        let Some(op) = fact_parts(other, 0) else {
            return "SELECT 1".into();
        };
        return format!(
            "SELECT sum({m}) AS total_{m} FROM {f} WHERE {w}",
            m = op.metric,
            f = other.qualified(),
            w = window(
                q.shape,
                Variant::Gold,
                "",
                op.date,
                &other.qualified(),
                q.month
            )
        );
    }
    let fact = t.qualified();
    let out = value_column(cat, q, v);
    let measure = match v {
        Variant::Avg => format!("avg(f.{})", fp.metric),
        Variant::CountRows => "count()".into(),
        Variant::UnknownColumn => format!("sum(f.{}_total)", fp.metric),
        Variant::OtherMetric => out
            .strip_prefix("total_")
            .map(|m| format!("sum(f.{m})"))
            .unwrap_or_else(|| "count()".into()),
        _ => format!("sum(f.{})", fp.metric),
    };
    let dim = q.dim.map(|d| &cat.tables[d]);
    let alt = if let Variant::AltDim(a) = v {
        Some(&cat.tables[a])
    } else {
        None
    };
    let w = window(q.shape, v, "f.", fp.date, &fact, q.month);
    match (q.shape, dim.and_then(dim_parts)) {
        (Shape::MonthTotal, _) | (_, None) => {
            let w = if v == Variant::NoFilter {
                String::new()
            } else {
                format!(" WHERE {}", w.replace("f.", ""))
            };
            format!(
                "SELECT {} AS {out} FROM {fact}{w}",
                measure.replace("f.", "")
            )
        }
        (Shape::WorkedMrr, Some(_)) if v == Variant::Gold => format!(
            "SELECT m.month, t.sub_region, t.territory_name, t.ae_name, sum(m.mrr_usd) AS mrr_usd FROM {fact} AS m JOIN {d} AS t ON t.territory_id = m.territory_id WHERE t.sub_region = 'EMEA North' AND m.month >= toStartOfMonth(toDate('{SNAPSHOT}')) - INTERVAL 11 MONTH GROUP BY m.month, t.sub_region, t.territory_name, t.ae_name ORDER BY m.month, t.territory_name",
            d = dim.map(|d| d.qualified()).unwrap_or_default()
        ),
        (shape, Some((key, name, attr))) => {
            let d = dim.map(|d| d.qualified()).unwrap_or_default();
            let (dname, dtable) = match alt.and_then(|a| dim_parts(a).map(|p| (p.1, a.qualified())))
            {
                Some((n, table)) => (n, table),
                None => (name, d.clone()),
            };
            let on = if v == Variant::BadJoin {
                format!("d.{dname} = f.{key}")
            } else {
                format!("d.{key} = f.{key}")
            };
            let entity = q.entity.clone().unwrap_or_default();
            let entity_pred = match v {
                Variant::NoFilter => None,
                _ if shape.has_entity() => Some(format!("d.{dname} = '{entity}'")),
                _ => None,
            };
            let date_pred = if v == Variant::NoFilter && !shape.has_entity() {
                None
            } else {
                Some(w)
            };
            let preds: Vec<String> = entity_pred.into_iter().chain(date_pred).collect();
            let where_ = if preds.is_empty() {
                String::new()
            } else {
                format!(" WHERE {}", preds.join(" AND "))
            };
            if v == Variant::NoLookup && shape.has_entity() {
                let link = link_key(t).unwrap_or(key);
                return format!(
                    "SELECT {measure} AS {out} FROM {fact} AS f WHERE f.{link} = '{entity}'"
                );
            }
            match shape {
                Shape::EntityTrend => format!(
                    "SELECT toStartOfMonth(f.{date}) AS month, {measure} AS {out} FROM {fact} AS f JOIN {dtable} AS d ON {on}{where_} GROUP BY month ORDER BY month",
                    date = fp.date
                ),
                Shape::EntityPoint => format!(
                    "SELECT d.{dname}, {measure} AS {out} FROM {fact} AS f JOIN {dtable} AS d ON {on}{where_} GROUP BY d.{dname}"
                ),
                Shape::CommaJoin => format!(
                    "SELECT d.{attr}, {measure} AS {out} FROM {fact} AS f, {dtable} AS d WHERE {on}{} GROUP BY d.{attr} ORDER BY {out} DESC LIMIT 1",
                    where_.replacen(" WHERE ", " AND ", 1)
                ),
                Shape::Backquoted => {
                    let bq = dtable
                        .split_once('.')
                        .map(|(n, tb)| format!("`{n}`.`{tb}`"))
                        .unwrap_or(dtable.clone());
                    format!(
                        "SELECT d.{attr}, {measure} AS {out} FROM {fact} AS f JOIN {bq} AS d ON {on}{where_} GROUP BY d.{attr} ORDER BY {out} DESC LIMIT 1"
                    )
                }
                _ => format!(
                    "SELECT d.{attr}, {measure} AS {out} FROM {fact} AS f JOIN {dtable} AS d ON {on}{where_} GROUP BY d.{attr} ORDER BY {out} DESC LIMIT 1"
                ),
            }
        }
    }
}

fn link_key(t: &Table) -> Option<&str> {
    if let Role::Fact {
        link: Some((k, _)), ..
    } = &t.role
    {
        Some(k)
    } else {
        None
    }
}

/// The lookup statement that resolves the entity name (exploration before the main query).
pub fn lookup_statement(cat: &Catalog, q: &Question, wrong_literal: bool) -> Option<String> {
    let d = &cat.tables[q.dim?];
    let (key, name, _) = dim_parts(d)?;
    let entity = q.entity.as_deref()?;
    if wrong_literal {
        let parts: Vec<String> = entity
            .split([',', ' ', '-'])
            .filter(|w| !w.is_empty() && *w != "and")
            .map(|w| format!("'{w}'"))
            .collect();
        return Some(format!(
            "SELECT {key}, {name} FROM {} WHERE {name} IN ({})",
            d.qualified(),
            parts.join(", ")
        ));
    }
    let first = entity.split([',', ' ', '-']).next().unwrap_or(entity);
    Some(format!(
        "SELECT {key}, {name} FROM {} WHERE {name} ILIKE '%{first}%' LIMIT 20",
        d.qualified()
    ))
}

/// A `DESCRIBE TABLE` exploration statement for the question's fact table.
pub fn describe_statement(cat: &Catalog, q: &Question) -> String {
    format!("DESCRIBE TABLE {}", cat.tables[q.fact].qualified())
}
