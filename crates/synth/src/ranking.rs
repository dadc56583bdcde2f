//! Jev table-ranking rows (`out/schema_retrieval.jsonl`, §5.4) with exact §5.5 metrics.
//!
//! Gold positions are planned so the corpus means land on the published figures:
//! ~84% of questions have every gold table in the top 5, ~1 in 6 needs a table ranked
//! 6–10, a couple miss one beyond 10; then gold tables are demoted one step at a time
//! inside the top 5 until mean nDCG@10 reaches the target.

use indexmap::IndexMap;
use rand::Rng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use serde::Serialize;

use crate::question::{Question, Shape};

/// Targets for the corpus means.
#[derive(Debug, Clone, Copy)]
pub struct Targets {
    /// Mean nDCG@10.
    pub ndcg10: f64,
    /// Mean recall@10.
    pub recall10: f64,
    /// Mean recall@5.
    pub recall5: f64,
    /// Share of questions with every gold table in the top 5.
    pub all_required5: f64,
    /// Mean latency in seconds.
    pub latency: f64,
}

/// Published figures (published-figures.md, table ranking).
pub const ARTICLE_TARGETS: Targets = Targets {
    ndcg10: 0.951,
    recall10: 0.991,
    recall5: 0.95,
    all_required5: 0.84,
    latency: 0.4,
};

/// A ranking of the whole universe for one question.
#[derive(Debug, Clone)]
pub struct Ranking {
    /// Universe in rank order.
    pub ranked: Vec<String>,
    /// P(yes) per table (4 dp), in rank order.
    pub scores: Vec<f64>,
    /// Seconds.
    pub latency_s: f64,
}

/// nDCG@k with binary gain and log2 discount (§5.5); 0.0 when the ideal DCG is 0.
pub fn ndcg_at(ranked: &[String], gold: &[String], k: usize) -> f64 {
    let dcg: f64 = ranked
        .iter()
        .take(k)
        .enumerate()
        .filter(|(_, t)| gold.contains(t))
        .map(|(i, _)| 1.0 / ((i + 2) as f64).log2())
        .sum();
    let idcg: f64 = (0..gold.len().min(k))
        .map(|i| 1.0 / ((i + 2) as f64).log2())
        .sum();
    if idcg == 0.0 { 0.0 } else { dcg / idcg }
}

/// recall@k = |top-k ∩ gold| / |gold| (0.0 for empty gold).
pub fn recall_at(ranked: &[String], gold: &[String], k: usize) -> f64 {
    if gold.is_empty() {
        return 0.0;
    }
    ranked.iter().take(k).filter(|t| gold.contains(t)).count() as f64 / gold.len() as f64
}

/// Plans gold positions for every question; returns per question the ordered gold/non-gold
/// layout as a list of 0-based gold positions.
fn plan_positions(
    questions: &[Question],
    universe: usize,
    t: Targets,
    rng: &mut ChaCha8Rng,
) -> Vec<Vec<usize>> {
    let n = questions.len();
    let mut pos: Vec<Vec<usize>> = questions
        .iter()
        .map(|q| match q.shape {
            // Published worked example: one gold table on top, the monthly MRR table at rank 5.
            Shape::WorkedMrr if q.gold.len() == 2 => vec![0, 4],
            _ => (0..q.gold.len().min(universe)).collect(),
        })
        .collect();
    let mut order: Vec<usize> = (0..n).collect();
    order.shuffle(rng);
    // Beyond rank 10: spend the recall@10 deficit on multi-gold questions.
    let mut deficit10 = (1.0 - t.recall10) * n as f64;
    let mut special = vec![false; n];
    for &i in &order {
        let g = questions[i].gold.len();
        if (2..=4).contains(&g)
            && deficit10 - 1.0 / g as f64 > -0.12
            && universe > 11
            && questions[i].shape != Shape::WorkedMrr
        {
            deficit10 -= 1.0 / g as f64;
            let last = g - 1;
            pos[i][last] = rng.random_range(10..(universe.min(16)));
            special[i] = true;
        }
    }
    // Ranks 6–10: enough questions to reach the all-required@5 share; prefer large gold
    // sets (small recall@5 loss) until the recall@5 budget is spent.
    let below5 = ((1.0 - t.all_required5) * n as f64).round() as usize;
    let mut count = special.iter().filter(|s| **s).count();
    let mut deficit5: f64 = (0..n)
        .filter(|&i| special[i])
        .map(|i| 1.0 / questions[i].gold.len() as f64)
        .sum();
    let budget5 = (1.0 - t.recall5) * n as f64;
    let mut by_size: Vec<usize> = order
        .iter()
        .copied()
        .filter(|&i| !special[i] && questions[i].shape != Shape::WorkedMrr)
        .collect();
    by_size.sort_by_key(|&i| std::cmp::Reverse(questions[i].gold.len()));
    for &i in &by_size {
        if count >= below5 {
            break;
        }
        let g = questions[i].gold.len();
        let remaining = (below5 - count) as f64;
        if g == 1 && deficit5 + remaining > budget5 + 0.5 {
            continue;
        }
        let last = g - 1;
        pos[i][last] = rng.random_range(5..10.min(universe));
        deficit5 += 1.0 / g as f64;
        special[i] = true;
        count += 1;
    }
    // Demote gold tables inside the top 5 until mean nDCG@10 reaches the target.
    let names: Vec<Vec<String>> = questions.iter().map(|q| q.gold.clone()).collect();
    let score = |pos: &Vec<Vec<usize>>| -> f64 {
        (0..n)
            .map(|i| ndcg_positions(&pos[i], names[i].len()))
            .sum::<f64>()
            / n as f64
    };
    let mut mean = score(&pos);
    let mut guard = 0;
    while mean > t.ndcg10 + 0.0005 && guard < 20 * n {
        guard += 1;
        let i = order[guard % n];
        if special[i] || questions[i].shape == Shape::WorkedMrr {
            continue;
        }
        let p = &mut pos[i];
        let Some(j) = (0..p.len())
            .rev()
            .find(|&j| p[j] + 1 < 5 && !p.contains(&(p[j] + 1)))
        else {
            continue;
        };
        let before = ndcg_positions(p, p.len());
        p[j] += 1;
        let after = ndcg_positions(p, p.len());
        mean += (after - before) / n as f64;
    }
    pos
}

fn ndcg_positions(pos: &[usize], g: usize) -> f64 {
    let dcg: f64 = pos
        .iter()
        .filter(|&&p| p < 10)
        .map(|&p| 1.0 / ((p + 2) as f64).log2())
        .sum();
    let idcg: f64 = (0..g.min(10)).map(|i| 1.0 / ((i + 2) as f64).log2()).sum();
    if idcg == 0.0 { 0.0 } else { dcg / idcg }
}

/// Ranks the universe for every question so that corpus means approach `t`.
pub fn rank_all(
    questions: &[Question],
    universe: &[String],
    t: Targets,
    rng: &mut ChaCha8Rng,
) -> Vec<Ranking> {
    let positions = plan_positions(questions, universe.len(), t, rng);
    questions
        .iter()
        .zip(positions)
        .map(|(q, pos)| layout(q, &pos, universe, t, rng))
        .collect()
}

fn layout(
    q: &Question,
    pos: &[usize],
    universe: &[String],
    t: Targets,
    rng: &mut ChaCha8Rng,
) -> Ranking {
    let u = universe.len();
    let mut others: Vec<String> = universe
        .iter()
        .filter(|x| !q.gold.contains(x))
        .cloned()
        .collect();
    others.shuffle(rng);
    let mut slots: Vec<Option<String>> = vec![None; u];
    let mut gold_sorted: Vec<String> = q.gold.clone();
    gold_sorted.shuffle(rng);
    if q.shape == Shape::WorkedMrr {
        // dim_territory first, mrr_monthly at rank 5 with P = 0.27 (published worked example).
        gold_sorted.sort_by_key(|g| g.contains("mrr_monthly"));
    }
    for (g, &p) in gold_sorted.iter().zip(pos) {
        if p < u {
            slots[p] = Some(g.clone());
        }
    }
    let mut rest = others.into_iter();
    let ranked: Vec<String> = slots
        .into_iter()
        .map(|s| s.or_else(|| rest.next()).unwrap_or_default())
        .collect();
    // Scores: strictly decreasing through the interesting head, ties at the floor in
    // alphabetical order (the harness's stable sort keeps universe order for ties).
    let head = pos.iter().copied().max().unwrap_or(0) + 3;
    let mut raw: Vec<f64> = ranked
        .iter()
        .enumerate()
        .map(|(i, name)| {
            let gold = q.gold.contains(name);
            if q.shape == Shape::WorkedMrr {
                match i {
                    0..4 => rng.random_range(0.55..0.99),
                    4 => 0.27,
                    _ => rng.random_range(0.002..0.05),
                }
            } else if i >= head {
                rng.random_range(0.001..0.03)
            } else if gold && i < 5 {
                rng.random_range(0.62..0.995)
            } else if gold {
                rng.random_range(0.08..0.45)
            } else if i < 5 {
                rng.random_range(0.3..0.9)
            } else {
                rng.random_range(0.01..0.2)
            }
        })
        .collect();
    // The ranking is a sort by P: hand out the drawn values in descending order.
    raw.sort_by(|a, b| b.total_cmp(a));
    let mut scores = Vec::with_capacity(u);
    let mut prev = 1.0_f64;
    for r in raw {
        let v = ((r.min(prev - 0.0001) * 10_000.0).round() / 10_000.0).max(0.001);
        scores.push(v);
        prev = v;
    }
    // Floor ties: the tail holding 0.001 must be alphabetical to be a valid stable sort.
    if let Some(first_floor) = scores.iter().position(|&s| s <= 0.001) {
        let mut tail: Vec<String> = ranked[first_floor..].to_vec();
        tail.sort();
        let mut ranked = ranked;
        ranked.splice(first_floor.., tail);
        let lat = latency(u, t, rng);
        return Ranking {
            ranked,
            scores,
            latency_s: lat,
        };
    }
    Ranking {
        ranked,
        scores,
        latency_s: latency(u, t, rng),
    }
}

fn latency(universe: usize, t: Targets, rng: &mut ChaCha8Rng) -> f64 {
    let base = if universe > 100 {
        1.1 + universe as f64 / 400.0
    } else {
        t.latency * 0.9
    };
    let v: f64 = base * rng.random_range(0.7..1.3)
        + if rng.random_bool(0.03) {
            rng.random_range(0.3..1.5)
        } else {
            0.0
        };
    (v * 100.0).round() / 100.0
}

/// The §5.4 output row.
#[derive(Debug, Clone, Serialize)]
pub struct RankingRow {
    /// Question id.
    pub trace_id: String,
    /// Sorted gold tables.
    pub gold: Vec<String>,
    /// Whole universe in rank order.
    pub ranked: Vec<String>,
    /// P(yes) rounded to 4 dp, in rank order.
    pub scores: IndexMap<String, f64>,
    /// Seconds.
    pub latency_s: f64,
    /// Metrics: `ndcg@10`, `recall@1`..`recall@10`, in that order.
    #[serde(flatten)]
    pub metrics: IndexMap<String, f64>,
}

/// Builds the output row with metrics computed exactly as §5.5.
pub fn row(q: &Question, r: &Ranking) -> RankingRow {
    let mut metrics = IndexMap::new();
    metrics.insert("ndcg@10".to_string(), ndcg_at(&r.ranked, &q.gold, 10));
    for k in 1..=10 {
        metrics.insert(format!("recall@{k}"), recall_at(&r.ranked, &q.gold, k));
    }
    RankingRow {
        trace_id: q.trace_id.clone(),
        gold: q.gold.clone(),
        ranked: r.ranked.clone(),
        scores: r
            .ranked
            .iter()
            .cloned()
            .zip(r.scores.iter().copied())
            .collect(),
        latency_s: r.latency_s,
        metrics,
    }
}
