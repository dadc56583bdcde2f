//! The table-ranking metric registry: every per-question metric at a cutoff `k`, each a
//! descriptor (key, labels, definition) with one kernel, in the style of ir_measures and
//! ranx. Every loop iterates [`RANKING_METRICS`]: the macro-mean curves
//! ([`super::curves::retrieval_curves`]), the per-question functions in [`super::ranking`],
//! `runlens metrics` (its table and JSON keys), and the dashboard's chart series, hover
//! read-out, exact-value table and CSV. Adding a metric is one entry here, its kernel, its
//! definition in docs/metrics.md and its tests.
//!
//! Conventions (harness-formats.md §5.5, shared by every kernel): the stored `ranked` order
//! is authoritative; relevance is binary; a gold table outside the ranking still counts in
//! `|G|`; a repeated table earns credit once; `k` beyond the list behaves as the whole list.

/// What one question's ranking shows at cutoff `k`: everything a kernel reads.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AtK {
    /// The cutoff.
    pub k: usize,
    /// `|G|`, counting gold tables absent from the ranking.
    pub n_gold: usize,
    /// Gold tables within the top `k` (first occurrences).
    pub hits: usize,
    /// `Σ 1/log2(i + 2)` over those gold positions `i`, added in position order.
    pub dcg: f64,
    /// Ideal DCG at `k`: `Σ_{i < min(|G|, k)} 1/log2(i + 2)`.
    pub ideal: f64,
    /// 0-based position of the best-ranked gold table, if any gold table is ranked.
    pub first: Option<usize>,
}

impl AtK {
    /// The view at `k` of one question, from its ascending gold `positions` (as
    /// [`super::ranking::gold_positions`] gives them) and `|G|`.
    pub fn from_positions(positions: &[usize], n_gold: usize, k: usize) -> AtK {
        let hits = positions.partition_point(|&p| p < k);
        AtK {
            k,
            n_gold,
            hits,
            dcg: positions[..hits]
                .iter()
                .map(|&p| discount(p))
                .fold(0.0, |acc, d| acc + d),
            ideal: ideal_dcg(n_gold, k),
            first: positions.first().copied(),
        }
    }
}

/// Discount of 0-based position `i`: `1 / log2(i + 2)` (rank `r = i + 1` → `1/log2(r + 1)`).
pub fn discount(i: usize) -> f64 {
    match discount_table().get(i) {
        Some(d) => *d,
        None => discount_uncached(i),
    }
}

fn discount_uncached(i: usize) -> f64 {
    // libm, not f64::log2: the same bits natively and in WASM.
    1.0 / libm::log2((i + 2) as f64)
}

/// Discounts of positions `0..128`, computed once (the same values [`discount`] computes).
fn discount_table() -> &'static [f64; 128] {
    static TABLE: std::sync::OnceLock<[f64; 128]> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| std::array::from_fn(discount_uncached))
}

/// Ideal DCG at `k` for `n_gold` relevant tables: `Σ_{i < min(n_gold, k)} 1/log2(i + 2)`.
pub fn ideal_dcg(n_gold: usize, k: usize) -> f64 {
    (0..n_gold.min(k)).map(discount).fold(0.0, |acc, d| acc + d)
}

/// The kernel of each metric: how it scores one question's [`AtK`]. An enum, not a function
/// pointer, so the curves' loop is compiled with each kernel inlined.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kernel {
    /// nDCG@k.
    Ndcg,
    /// recall@k.
    Recall,
    /// all-required@k.
    AllRequired,
    /// precision@k.
    Precision,
    /// success@k.
    Success,
    /// reciprocal rank@k.
    ReciprocalRank,
}

impl Kernel {
    /// The score of one question at a cutoff, in `[0, 1]`.
    #[inline]
    pub fn score(self, a: &AtK) -> f64 {
        match self {
            Kernel::Ndcg => {
                if a.ideal == 0.0 {
                    0.0
                } else {
                    a.dcg / a.ideal
                }
            }
            Kernel::Recall => {
                if a.n_gold == 0 {
                    0.0
                } else {
                    a.hits as f64 / a.n_gold as f64
                }
            }
            Kernel::AllRequired => f64::from(u8::from(a.hits == a.n_gold)),
            Kernel::Precision => {
                if a.k == 0 {
                    0.0
                } else {
                    a.hits as f64 / a.k as f64
                }
            }
            Kernel::Success => f64::from(u8::from(a.hits > 0)),
            Kernel::ReciprocalRank => match a.first {
                Some(p) if p < a.k => 1.0 / (p + 1) as f64,
                _ => 0.0,
            },
        }
    }
}

/// One table-ranking metric: how it is named everywhere and how it scores one question.
#[derive(Debug)]
pub struct RankingMetric {
    /// Key in `runlens metrics` JSON, CSV headers, `data-metric` names (`ndcg@10`) and URLs.
    pub key: &'static str,
    /// Label with its cutoff, for legends and headlines: `nDCG@k`.
    pub label: &'static str,
    /// Short column header: `nDCG`.
    pub column: &'static str,
    /// One-line definition (docs/metrics.md has the full one).
    pub definition: &'static str,
    /// Whether the harness reports it; the others are runlens extensions.
    pub harness: bool,
    /// The per-question score at a cutoff, in `[0, 1]`; its macro mean is the curve's value.
    pub kernel: Kernel,
}

/// Two descriptors are the same metric when their keys are (keys are unique; a test).
impl PartialEq for RankingMetric {
    fn eq(&self, other: &Self) -> bool {
        self.key == other.key
    }
}

impl Eq for RankingMetric {}

impl RankingMetric {
    /// This metric for one question: ascending gold `positions`, `|G|` and the cutoff `k`.
    pub fn at_positions(&self, positions: &[usize], n_gold: usize, k: usize) -> f64 {
        self.kernel
            .score(&AtK::from_positions(positions, n_gold, k))
    }
}

/// nDCG@k, binary gain and log2 discount; 0 when the ideal is 0 (empty `G`, `k = 0`).
pub const NDCG: RankingMetric = RankingMetric {
    key: "ndcg",
    label: "nDCG@k",
    column: "nDCG",
    definition: "DCG of the top k over the ideal DCG of |G| gold tables (binary gain, log2 discount)",
    harness: true,
    kernel: Kernel::Ndcg,
};

/// recall@k = `|top k ∩ G| / |G|`; 0 for an empty `G`.
pub const RECALL: RankingMetric = RankingMetric {
    key: "recall",
    label: "recall@k",
    column: "recall",
    definition: "share of the gold tables found in the top k",
    harness: true,
    kernel: Kernel::Recall,
};

/// all-required@k: 1 when the top k holds every gold table (vacuously for an empty `G`).
pub const ALL_REQUIRED: RankingMetric = RankingMetric {
    key: "all_required",
    label: "all-required@k",
    column: "all-req",
    definition: "1 when the top k holds every gold table, else 0",
    harness: true,
    kernel: Kernel::AllRequired,
};

/// precision@k = `|top k ∩ G| / k` (denominator `k` even past the list's end, as
/// trec_eval's `P_k`); 0 for `k = 0`.
pub const PRECISION: RankingMetric = RankingMetric {
    key: "precision",
    label: "precision@k",
    column: "P@k",
    definition: "share of the top k that are gold tables (denominator k)",
    harness: false,
    kernel: Kernel::Precision,
};

/// success@k: 1 when at least one gold table is in the top k.
pub const SUCCESS: RankingMetric = RankingMetric {
    key: "success",
    label: "success@k",
    column: "success",
    definition: "1 when any gold table is in the top k, else 0",
    harness: false,
    kernel: Kernel::Success,
};

/// reciprocal rank@k: `1 / rank` of the best-ranked gold table when it is within the top
/// k, else 0; its macro mean is MRR@k.
pub const MRR: RankingMetric = RankingMetric {
    key: "mrr",
    label: "MRR@k",
    column: "MRR",
    definition: "1 / rank of the first gold table when it is in the top k, else 0 (mean: MRR@k)",
    harness: false,
    kernel: Kernel::ReciprocalRank,
};

/// Every ranking metric, in the order tables, JSON, CSV and legends show them.
pub const RANKING_METRICS: [&RankingMetric; 6] =
    [&NDCG, &RECALL, &ALL_REQUIRED, &PRECISION, &SUCCESS, &MRR];

/// The metric with this key.
pub fn ranking_metric(key: &str) -> Option<&'static RankingMetric> {
    RANKING_METRICS.into_iter().find(|m| m.key == key)
}

#[cfg(test)]
#[path = "ranking_metrics_tests.rs"]
mod tests;
