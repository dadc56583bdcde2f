//! Question generation for one corpus (dev or leaderboard).

use rand::seq::IndexedRandom;
use rand::{Rng, RngCore};
use rand_chacha::ChaCha8Rng;

use crate::catalog::{Catalog, Role};
use crate::gold::Matchers;
use crate::names::{self, MONTHS};
use crate::question::{Question, Shape};
use crate::results::{self, human};
use crate::sql::{self, Variant};

/// Options for one corpus.
#[derive(Debug, Clone, Copy)]
pub struct CorpusSpec {
    /// Number of usable questions.
    pub n: usize,
    /// Put the two published worked examples first (article dev corpus).
    pub worked_examples: bool,
    /// Number of questions that get a hostile string in their text.
    pub hostile_questions: usize,
}

/// A 32-hex trace id drawn from the corpus RNG.
pub fn trace_id(rng: &mut ChaCha8Rng) -> String {
    format!("{:016x}{:016x}", rng.next_u64(), rng.next_u64())
}

fn metric_label(cat: &Catalog, fact: usize, metric: usize) -> String {
    match &cat.tables[fact].role {
        Role::Fact { metrics, .. } => metrics
            .get(metric)
            .map(|m| m.label.clone())
            .unwrap_or_default(),
        Role::Dim { .. } => String::new(),
    }
}

fn pick_shape(rng: &mut ChaCha8Rng) -> Shape {
    match rng.random_range(0..100) {
        0..20 => Shape::MonthTotal,
        20..38 => Shape::TopAttr,
        38..41 => Shape::CommaJoin,
        41..44 => Shape::Backquoted,
        44..72 => Shape::EntityTrend,
        _ => Shape::EntityPoint,
    }
}

/// Generates `spec.n` usable questions with their gold runs.
pub fn questions(
    cat: &Catalog,
    m: &Matchers,
    spec: &CorpusSpec,
    rng: &mut ChaCha8Rng,
) -> Vec<Question> {
    let linked = cat.linked_facts();
    let facts = cat.facts();
    let mut out = Vec::with_capacity(spec.n);
    for i in 0..spec.n {
        let worked = if spec.worked_examples && i < 2 {
            Some(i)
        } else {
            None
        };
        let shape = match worked {
            Some(0) => Shape::WorkedMrr,
            Some(_) => Shape::EntityPoint,
            None => pick_shape(rng),
        };
        let fact = match worked {
            Some(_) => cat.find("marts.mrr_monthly").unwrap_or(linked[0]),
            None if shape == Shape::MonthTotal => *facts.choose(rng).unwrap_or(&facts[0]),
            None => *linked.choose(rng).unwrap_or(&linked[0]),
        };
        let n_metrics = match &cat.tables[fact].role {
            Role::Fact { metrics, .. } => metrics.len(),
            Role::Dim { .. } => 1,
        };
        let metric = if worked.is_some() || rng.random_bool(0.6) {
            0
        } else {
            rng.random_range(0..n_metrics)
        };
        let dim = match (shape, &cat.tables[fact].role) {
            (Shape::WorkedMrr, _) => cat.find("crm.dim_territory"),
            (Shape::MonthTotal, _) => None,
            (_, Role::Fact { link, .. }) => link.as_ref().map(|l| l.1),
            _ => None,
        };
        let entity = match worked {
            Some(1) => Some("White, Leonard and Kelly".to_string()),
            _ if shape.has_entity() => Some(names::company(rng)),
            _ => None,
        };
        let mut q = Question {
            trace_id: trace_id(rng),
            nl: String::new(),
            shape,
            fact,
            metric,
            dim,
            entity,
            month: rng.random_range(0..MONTHS.len()),
            hardness: rng.random_range(0.0..1.0_f64).powf(0.8),
            gt_sql: Vec::new(),
            gt_results: Vec::new(),
            gt_answer: String::new(),
            gold: Vec::new(),
            parser_gold: Vec::new(),
            gt_sql_as_string: rng.random_bool(0.03),
            value_seed: rng.next_u64(),
        };
        q.nl = question_text(cat, &q, rng);
        if i >= 2 && i < 2 + spec.hostile_questions {
            q.nl = format!("{} (analyst note: {})", q.nl, names::hostile(rng));
        }
        gold_run(cat, &mut q, rng);
        q.gold = m.gold(&q.gt_sql);
        q.parser_gold = parser_gold(cat, &q);
        out.push(q);
    }
    out
}

fn question_text(cat: &Catalog, q: &Question, rng: &mut ChaCha8Rng) -> String {
    let label = metric_label(cat, q.fact, q.metric);
    let entity = q.entity.clone().unwrap_or_default();
    let attr_label = q
        .dim
        .and_then(|d| match &cat.tables[d].role {
            Role::Dim { attr, .. } => Some(attr.1.clone()),
            Role::Fact { .. } => None,
        })
        .unwrap_or_else(|| "segment".into());
    match q.shape {
        Shape::WorkedMrr => "What was MRR by month by sub-region / AE / territory in EMEA North over the last 12 months?".into(),
        Shape::MonthTotal if rng.random_bool(0.5) => format!("What was the total {label} across all organisations in {}?", MONTHS[q.month].1),
        Shape::MonthTotal => format!("How much {label} was recorded in {}?", MONTHS[q.month].1),
        Shape::TopAttr | Shape::CommaJoin | Shape::Backquoted => {
            format!("Which {attr_label} had the highest {label} over the last 30 days, and how much?")
        }
        Shape::EntityTrend => format!("Show the monthly {label} for {entity} over the last 12 months."),
        Shape::EntityPoint if entity == "White, Leonard and Kelly" => format!("What is the current MRR of {entity}?"),
        Shape::EntityPoint => format!("What is the current {label} of {entity}?"),
    }
}

/// Builds the annotator's statements, results and answer.
fn gold_run(cat: &Catalog, q: &mut Question, rng: &mut ChaCha8Rng) {
    let mut sqls = Vec::new();
    let mut res = Vec::new();
    if q.shape != Shape::WorkedMrr && rng.random_bool(0.15) {
        let hostile = if rng.random_bool(0.04) {
            Some(names::hostile(rng))
        } else {
            None
        };
        sqls.push(sql::describe_statement(cat, q));
        res.push(results::describe_result(cat, q, hostile.as_deref()));
    }
    let extra = if q.shape == Shape::WorkedMrr {
        0
    } else if rng.random_bool(0.12) {
        2
    } else if rng.random_bool(0.3) {
        1
    } else {
        0
    };
    for _ in 0..extra {
        let o = rng.random_range(0..cat.tables.len());
        if o != q.fact && Some(o) != q.dim {
            sqls.push(format!(
                "SELECT count() AS row_count FROM {}",
                cat.tables[o].qualified()
            ));
            res.push(format!(
                "{{\"row_count\":\"{}\"}}",
                rng.random_range(900..250_000)
            ));
        }
    }
    if q.shape.has_entity()
        && let Some(s) = sql::lookup_statement(cat, q, false)
    {
        sqls.push(s);
        res.push(results::lookup_result(cat, q, false));
    }
    if q.shape != Shape::WorkedMrr && rng.random_bool(0.08) {
        sqls.push(sql::main_statement(cat, q, Variant::UnknownColumn));
        res.push(results::main_result(cat, q, Variant::UnknownColumn));
    }
    sqls.push(sql::main_statement(cat, q, Variant::Gold));
    let main = results::main_result(cat, q, Variant::Gold);
    q.gt_answer = answer(cat, q, &main, None);
    res.push(main);
    q.gt_sql = sqls;
    q.gt_results = res;
}

/// A final answer for `result` in the question's terms; `spin` rewords it.
pub fn answer(cat: &Catalog, q: &Question, result: &str, spin: Option<&str>) -> String {
    if result == results::EMPTY || result.starts_with("Error:") {
        return spin
            .unwrap_or("The query returned no data, so I cannot answer.")
            .to_string();
    }
    let label = metric_label(cat, q.fact, q.metric);
    let v = results::headline(result)
        .map(|v| human(&v))
        .unwrap_or_else(|| "n/a".into());
    let entity = q.entity.clone().unwrap_or_default();
    let body = match q.shape {
        Shape::WorkedMrr => format!(
            "MRR in EMEA North by month and territory is listed above; in June 2026 the last territory row stands at {v} USD."
        ),
        Shape::MonthTotal => format!("The total {label} in {} was {v}.", MONTHS[q.month].1),
        Shape::EntityTrend => format!(
            "Monthly {label} for {entity} is shown below (12 months). The latest month, June 2026, was {v}."
        ),
        Shape::EntityPoint => format!("The current {label} of {entity} is {v}."),
        _ => {
            let first = result
                .lines()
                .last()
                .and_then(|l| l.split('"').nth(3))
                .unwrap_or("")
                .to_string();
            format!("{first} had the highest {label} over the last 30 days, with {v}.")
        }
    };
    match spin {
        Some(s) => format!("{body} {s}"),
        None => body,
    }
}

/// Tables a full SQL parser would report (FROM, JOIN, comma joins, backquoted names).
fn parser_gold(cat: &Catalog, q: &Question) -> Vec<String> {
    let mut set: std::collections::BTreeSet<String> = q.gold.iter().cloned().collect();
    if matches!(q.shape, Shape::CommaJoin | Shape::Backquoted)
        && let Some(d) = q.dim
    {
        set.insert(cat.tables[d].qualified());
    }
    set.into_iter().collect()
}
