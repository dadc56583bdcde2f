//! The table-ranking view's keys in the page address (in the state layer, `src/layers.txt`):
//! `k`, `t`, `gold`, `curves`, `q`, `ngold`, `below5`, `sort`, `question`.

use runlens_core::metrics::gold_tables::GoldRule;
use runlens_core::metrics::ranking_metrics::RANKING_METRICS;

use crate::state::params::{Pairs, Sort, UrlParams, non_empty, set_probability};

/// Default largest k of the curves (the harness reports k = 1..10).
pub const DEFAULT_K: usize = 10;
/// Default high-confidence threshold (the gate's `--min-p`).
pub const DEFAULT_THRESHOLD: f64 = 0.5;

/// The ranking view's state.
#[derive(Debug, Clone, PartialEq)]
pub struct RankingParams {
    /// `k`: largest cutoff of the ranking curves.
    pub k: usize,
    /// `t`: high-confidence threshold on P(yes).
    pub threshold: f64,
    /// `gold`: gold-table definition (`harness` or `parser`); the trajectory viewer's gold
    /// tables follow it too.
    pub gold: GoldRule,
    /// `curves`: the ranking metrics the curve chart draws, by registry key in registry
    /// order (`ndcg,mrr`); empty = the harness's three.
    pub curves: Vec<String>,
    /// `q`: search text of the per-question table.
    pub search: String,
    /// `ngold`: only questions with this many gold tables.
    pub n_gold: Option<usize>,
    /// `below5`: only questions that need a table ranked below 5.
    pub below5: bool,
    /// `sort`: sort of the per-question table.
    pub sort: Option<Sort>,
    /// `question`: the open question (trace id).
    pub question: Option<String>,
}

impl Default for RankingParams {
    fn default() -> Self {
        RankingParams {
            k: DEFAULT_K,
            threshold: DEFAULT_THRESHOLD,
            gold: GoldRule::Harness,
            curves: Vec::new(),
            search: String::new(),
            n_gold: None,
            below5: false,
            sort: None,
            question: None,
        }
    }
}

fn gold_key(rule: GoldRule) -> &'static str {
    match rule {
        GoldRule::Harness => "harness",
        GoldRule::Parser => "parser",
    }
}

/// The known ranking-metric keys of a `curves=` value, each once, in registry order.
fn curve_keys(value: &str) -> Vec<String> {
    let asked: Vec<&str> = value.split(',').map(str::trim).collect();
    RANKING_METRICS
        .iter()
        .filter(|m| asked.contains(&m.key))
        .map(|m| m.key.to_owned())
        .collect()
}

impl UrlParams for RankingParams {
    fn read(&mut self, key: &str, value: &str) -> bool {
        match key {
            "k" => {
                if let Ok(k) = value.parse::<usize>() {
                    self.k = k.clamp(1, 10_000);
                }
            }
            "t" => set_probability(&mut self.threshold, value),
            "gold" => {
                self.gold = if value == "parser" {
                    GoldRule::Parser
                } else {
                    GoldRule::Harness
                };
            }
            "curves" => self.curves = curve_keys(value),
            "q" => self.search = value.to_owned(),
            "ngold" => self.n_gold = value.parse().ok(),
            "below5" => self.below5 = value == "1",
            "sort" => self.sort = Sort::parse(value),
            "question" => self.question = non_empty(value),
            _ => return false,
        }
        true
    }

    fn write(&self, out: &mut Pairs) {
        let d = RankingParams::default();
        out.differs("k", &self.k, &d.k);
        out.differs("t", &self.threshold, &d.threshold);
        out.put(
            "gold",
            (self.gold != d.gold).then(|| gold_key(self.gold).to_owned()),
        );
        out.put(
            "curves",
            (!self.curves.is_empty()).then(|| self.curves.join(",")),
        );
        out.put("q", (!self.search.is_empty()).then(|| self.search.clone()));
        out.put("ngold", self.n_gold.map(|n| n.to_string()));
        out.flag("below5", self.below5);
        out.put("sort", self.sort.as_ref().map(Sort::to_param));
        out.put("question", self.question.clone());
    }
}
