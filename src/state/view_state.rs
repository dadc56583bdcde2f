//! Every view's state as one value that round-trips through the page's query string, so a
//! copied link reopens the same view. Defaults are left out of the query to keep links short.

use runlens_core::bundle::LossRule;
use runlens_core::metrics::gold_tables::GoldRule;
use runlens_core::metrics::matrix_view::MatrixSort;
use runlens_core::metrics::ranking_metrics::RANKING_METRICS;

/// Declares [`Tab`] with each view's URL key (`tab=`), one line per view.
macro_rules! tabs {
    ($($(#[$doc:meta])* $tab:ident = $key:literal,)*) => {
        /// A view of the dashboard: its identity and its URL key. Its label, order, code and
        /// what it waits for are the view registry's (`pages::registry`).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
        pub enum Tab {
            $($(#[$doc])* $tab,)*
        }

        impl Tab {
            /// Every tab, in declaration order (the registry's order is the tab bar's).
            pub const ALL: &[Tab] = &[$(Tab::$tab,)*];

            /// The query value.
            pub fn key(self) -> &'static str {
                match self {
                    $(Tab::$tab => $key,)*
                }
            }

            /// The tab whose query value is `key`.
            pub fn from_key(key: &str) -> Option<Tab> {
                match key {
                    $($key => Some(Tab::$tab),)*
                    _ => None,
                }
            }
        }
    };
}

tabs! {
    /// Pass rates per model (the landing view).
    #[default]
    Leaderboard = "leaderboard",
    /// Question × model matrix of outcomes.
    Matrix = "matrix",
    /// Table-ranking curves, per-question table and question view.
    Ranking = "ranking",
    /// Failure taxonomy: sub-mode, family, FM and confidence charts, failure list.
    Failures = "failures",
    /// Judge audit queue: failures likely graded wrongly, with keyboard review.
    Audit = "audit",
    /// Gate comparison: paired on/off runs per model, forest plot.
    Gate = "gate",
    /// One trajectory (model × question).
    Trajectory = "trajectory",
}

/// A column sort: the column key and its direction.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sort {
    /// Column key.
    pub column: String,
    /// Descending when true.
    pub descending: bool,
}

impl Sort {
    /// Parses `column` (ascending) or `-column` (descending).
    pub fn parse(s: &str) -> Option<Sort> {
        let (descending, column) = match s.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, s),
        };
        (!column.is_empty()).then(|| Sort {
            column: column.to_owned(),
            descending,
        })
    }

    /// The query form: `column` or `-column`.
    pub fn to_param(&self) -> String {
        if self.descending {
            format!("-{}", self.column)
        } else {
            self.column.clone()
        }
    }
}

/// Default largest k of the curves (the harness reports k = 1..10).
pub const DEFAULT_K: usize = 10;
/// Default high-confidence threshold (the gate's `--min-p`).
pub const DEFAULT_THRESHOLD: f64 = 0.5;
/// Default `correct_despite_fail` threshold of the failures histogram and the audit queue.
pub const DEFAULT_CDF_THRESHOLD: f64 = 0.65;

/// The state of every view. `ViewState::default()` is the landing view of a bundle.
#[derive(Debug, Clone, PartialEq)]
pub struct ViewState {
    /// `bundle`: where the bundle lives (relative or absolute URL); `None` = start page.
    pub bundle: Option<String>,
    /// `h`: the first 12 hex characters of the bundle's content hash the link was made for.
    pub hash: Option<String>,
    /// `tab`.
    pub tab: Tab,
    /// `corpus`: one corpus, or `None` for all.
    pub corpus: Option<String>,
    /// `models`: model keys to show (empty = all).
    pub models: Vec<String>,
    /// `k`: largest cutoff of the ranking curves.
    pub k: usize,
    /// `t`: high-confidence threshold on P(yes).
    pub threshold: f64,
    /// `gold`: gold-table definition (`harness` or `parser`).
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
    /// `lbsort`: sort of the leaderboard.
    pub board_sort: Option<Sort>,
    /// `loss=fail`: the leaderboard scores legacy `loss` cells 0 (06_eval's tally) instead of
    /// excluding them as the harness's board does.
    pub loss: LossRule,
    /// `pool=1`: the leaderboard pools every corpus into one board.
    pub pooled: bool,
    /// `question`: the open question (trace id).
    pub question: Option<String>,
    /// `f`: the failure-list filter set by clicking a chart element, `kind:value`
    /// (`sub_mode:…`, `family:…`, `bucket:…`, `fm:…`, `rule:…`, `cdf:…`).
    pub filter: Option<String>,
    /// `cmin`: lowest sub-mode confidence shown in the failures view.
    pub conf_min: f64,
    /// `cmax`: highest sub-mode confidence shown in the failures view.
    pub conf_max: f64,
    /// `ct`: `correct_despite_fail` threshold (histogram line and audit queue).
    pub cdf_threshold: f64,
    /// `mxfail=1`: the matrix shows only questions some shown model failed.
    pub matrix_failures: bool,
    /// `mxsub`: the matrix shows only questions with a label of this sub-mode.
    pub matrix_sub_mode: Option<String>,
    /// `mxq`: search text of the matrix (question text or trace id).
    pub matrix_search: String,
    /// `mxsort`: the order of the matrix's rows.
    pub matrix_sort: MatrixSort,
    /// `gmodel`: the gate view's selected model.
    pub gate_model: Option<String>,
    /// `tmodel`: the open trajectory's model key.
    pub cell_model: Option<String>,
    /// `trace`: the open trajectory's trace id.
    pub trace: Option<String>,
    /// `from`: the list `j` / `k` walk in the trajectory viewer (`failures`, `audit`,
    /// `gate`, `question`).
    pub from: Option<String>,
    /// `diff`: the trajectory viewer shows the gold / candidate SQL diff.
    pub diff: bool,
    /// `jev`: where the Jev-compatible proxy lives (`None` = this page's origin).
    pub jev: Option<String>,
    /// `ov`: label overrides carried by the link (encoded by the re-label panel's owner).
    pub overrides: Option<String>,
}

impl Default for ViewState {
    fn default() -> Self {
        ViewState {
            bundle: None,
            hash: None,
            tab: Tab::default(),
            corpus: None,
            models: Vec::new(),
            k: DEFAULT_K,
            threshold: DEFAULT_THRESHOLD,
            gold: GoldRule::Harness,
            curves: Vec::new(),
            search: String::new(),
            n_gold: None,
            below5: false,
            sort: None,
            board_sort: None,
            loss: LossRule::Excluded,
            pooled: false,
            question: None,
            filter: None,
            conf_min: 0.0,
            conf_max: 1.0,
            cdf_threshold: DEFAULT_CDF_THRESHOLD,
            matrix_failures: false,
            matrix_sub_mode: None,
            matrix_search: String::new(),
            matrix_sort: MatrixSort::Corpus,
            gate_model: None,
            cell_model: None,
            trace: None,
            from: None,
            diff: false,
            jev: None,
            overrides: None,
        }
    }
}

fn gold_key(rule: GoldRule) -> &'static str {
    match rule {
        GoldRule::Harness => "harness",
        GoldRule::Parser => "parser",
    }
}

/// Sets `target` to `value` when it parses as a number in 0..=1.
fn set_probability(target: &mut f64, value: &str) {
    if let Ok(v) = value.parse::<f64>()
        && (0.0..=1.0).contains(&v)
    {
        *target = v;
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

fn non_empty(v: &str) -> Option<String> {
    let v = v.trim();
    (!v.is_empty()).then(|| v.to_owned())
}

impl ViewState {
    /// Reads the state from query pairs (already percent-decoded). Unknown keys are ignored;
    /// values that do not parse keep their defaults, so a hand-edited link never breaks the page.
    pub fn from_pairs<'a>(pairs: impl IntoIterator<Item = (&'a str, &'a str)>) -> ViewState {
        let mut s = ViewState::default();
        for (key, value) in pairs {
            match key {
                "bundle" => s.bundle = non_empty(value),
                "h" => {
                    s.hash = Some(value.trim().to_ascii_lowercase())
                        .filter(|h| !h.is_empty() && h.chars().all(|c| c.is_ascii_hexdigit()));
                }
                "tab" => s.tab = Tab::from_key(value).unwrap_or_default(),
                "corpus" => s.corpus = non_empty(value),
                "models" => {
                    s.models = value.split(',').filter_map(non_empty).collect();
                }
                "k" => {
                    if let Ok(k) = value.parse::<usize>() {
                        s.k = k.clamp(1, 10_000);
                    }
                }
                "t" => set_probability(&mut s.threshold, value),
                "cmin" => set_probability(&mut s.conf_min, value),
                "cmax" => set_probability(&mut s.conf_max, value),
                "ct" => set_probability(&mut s.cdf_threshold, value),
                "gold" => {
                    s.gold = if value == "parser" {
                        GoldRule::Parser
                    } else {
                        GoldRule::Harness
                    };
                }
                "curves" => s.curves = curve_keys(value),
                "q" => s.search = value.to_owned(),
                "ngold" => s.n_gold = value.parse().ok(),
                "below5" => s.below5 = value == "1",
                "sort" => s.sort = Sort::parse(value),
                "lbsort" => s.board_sort = Sort::parse(value),
                "loss" => {
                    s.loss = if value == "fail" {
                        LossRule::AsFail
                    } else {
                        LossRule::Excluded
                    };
                }
                "pool" => s.pooled = value == "1",
                "question" => s.question = non_empty(value),
                "f" => s.filter = non_empty(value),
                "mxfail" => s.matrix_failures = value == "1",
                "mxsub" => s.matrix_sub_mode = non_empty(value),
                "mxq" => s.matrix_search = value.to_owned(),
                "mxsort" => s.matrix_sort = MatrixSort::from_key(value).unwrap_or_default(),
                "gmodel" => s.gate_model = non_empty(value),
                "tmodel" => s.cell_model = non_empty(value),
                "trace" => s.trace = non_empty(value),
                "from" => s.from = non_empty(value),
                "diff" => s.diff = value == "1",
                "jev" => s.jev = non_empty(value),
                "ov" => s.overrides = non_empty(value),
                _ => {}
            }
        }
        s
    }

    /// The query pairs that differ from the defaults, in a fixed order.
    pub fn to_pairs(&self) -> Vec<(&'static str, String)> {
        let d = ViewState::default();
        let mut out = Vec::new();
        let mut put = |key: &'static str, value: Option<String>| {
            if let Some(v) = value {
                out.push((key, v));
            }
        };
        put("bundle", self.bundle.clone());
        put("h", self.hash.clone());
        put(
            "tab",
            (self.tab != d.tab).then(|| self.tab.key().to_owned()),
        );
        put("corpus", self.corpus.clone());
        put(
            "models",
            (!self.models.is_empty()).then(|| self.models.join(",")),
        );
        put("k", (self.k != d.k).then(|| self.k.to_string()));
        put(
            "t",
            (self.threshold != d.threshold).then(|| self.threshold.to_string()),
        );
        put(
            "gold",
            (self.gold != d.gold).then(|| gold_key(self.gold).to_owned()),
        );
        put(
            "curves",
            (!self.curves.is_empty()).then(|| self.curves.join(",")),
        );
        put("q", (!self.search.is_empty()).then(|| self.search.clone()));
        put("ngold", self.n_gold.map(|n| n.to_string()));
        put("below5", self.below5.then(|| "1".to_owned()));
        put("sort", self.sort.as_ref().map(Sort::to_param));
        put("lbsort", self.board_sort.as_ref().map(Sort::to_param));
        put(
            "loss",
            (self.loss == LossRule::AsFail).then(|| "fail".to_owned()),
        );
        put("pool", self.pooled.then(|| "1".to_owned()));
        put("question", self.question.clone());
        put("f", self.filter.clone());
        put(
            "cmin",
            (self.conf_min != d.conf_min).then(|| self.conf_min.to_string()),
        );
        put(
            "cmax",
            (self.conf_max != d.conf_max).then(|| self.conf_max.to_string()),
        );
        put(
            "ct",
            (self.cdf_threshold != d.cdf_threshold).then(|| self.cdf_threshold.to_string()),
        );
        put("mxfail", self.matrix_failures.then(|| "1".to_owned()));
        put("mxsub", self.matrix_sub_mode.clone());
        put(
            "mxq",
            (!self.matrix_search.is_empty()).then(|| self.matrix_search.clone()),
        );
        put(
            "mxsort",
            (self.matrix_sort != d.matrix_sort).then(|| self.matrix_sort.key().to_owned()),
        );
        put("gmodel", self.gate_model.clone());
        put("tmodel", self.cell_model.clone());
        put("trace", self.trace.clone());
        put("from", self.from.clone());
        put("diff", self.diff.then(|| "1".to_owned()));
        put("jev", self.jev.clone());
        put("ov", self.overrides.clone());
        out
    }

    /// Whether `model` is shown under the model selection.
    pub fn shows_model(&self, model: &str) -> bool {
        self.models.is_empty() || self.models.iter().any(|m| m == model)
    }

    /// Whether `corpus` is shown under the corpus selection.
    pub fn shows_corpus(&self, corpus: &str) -> bool {
        self.corpus.as_deref().is_none_or(|c| c == corpus)
    }

    /// Opens the trajectory of `model` on `trace` in `corpus`; `from` names the list `j` / `k`
    /// walk (`failures`, `audit`, `gate`, `question`).
    pub fn open_cell(&mut self, corpus: &str, model: &str, trace: &str, from: &str) {
        self.tab = Tab::Trajectory;
        self.corpus = Some(corpus.to_owned());
        self.cell_model = Some(model.to_owned());
        self.trace = Some(trace.to_owned());
        self.from = Some(from.to_owned());
    }
}
