//! A synthetic question: its template shape, the tables it uses and its ground truth.

/// The template a question was built from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// Total of a measure over one calendar month (one fact table).
    MonthTotal,
    /// Top dimension attribute by a measure over the last 30 days (fact JOIN dim).
    TopAttr,
    /// Like `TopAttr` but written as a comma join, which the harness's regex half-misses.
    CommaJoin,
    /// Like `TopAttr` but the dimension is backquoted, which the harness's regex misses.
    Backquoted,
    /// Monthly series of a measure for one named entity (lookup, then fact JOIN dim).
    EntityTrend,
    /// Latest value of a measure for one named entity.
    EntityPoint,
    /// The published worked example: MRR by month by sub-region/AE/territory in EMEA North.
    WorkedMrr,
}

impl Shape {
    /// True when the question names an entity that must be resolved through a dimension.
    pub fn has_entity(self) -> bool {
        matches!(self, Shape::EntityTrend | Shape::EntityPoint)
    }
}

/// One question with everything the annotator, the candidates and the ranking need.
#[derive(Debug, Clone)]
pub struct Question {
    /// 32-hex id.
    pub trace_id: String,
    /// Natural-language question (may carry a hostile string on purpose).
    pub nl: String,
    /// Template.
    pub shape: Shape,
    /// Main fact table (catalog index).
    pub fact: usize,
    /// Index of the measure inside the fact's metrics.
    pub metric: usize,
    /// Dimension table joined, if any.
    pub dim: Option<usize>,
    /// Named entity (a dimension display name), if any.
    pub entity: Option<String>,
    /// Month index into `names::MONTHS` (for `MonthTotal`).
    pub month: usize,
    /// 0 (easy) to 1 (hard); drives failure draws.
    pub hardness: f64,
    /// Gold statements (every statement the winning annotator ran, in order).
    pub gt_sql: Vec<String>,
    /// Results of the gold statements.
    pub gt_results: Vec<String>,
    /// The winning annotator's final answer.
    pub gt_answer: String,
    /// Gold tables as the harness derives them (FROM/JOIN regex over `gt_sql`).
    pub gold: Vec<String>,
    /// Tables a SQL parser would find (differs from `gold` for comma joins and backquotes).
    pub parser_gold: Vec<String>,
    /// Write `gt_sql` as one string instead of a list (an older annotated row).
    pub gt_sql_as_string: bool,
    /// Seed for result values.
    pub value_seed: u64,
}
