//! The Jev labeller's 16 sub-modes, their families and FM crosswalk (harness-formats.md §7.1).

/// A failure sub-mode, in the harness's TAXONOMY order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SubMode {
    /// comprehension
    MisreadQuestion,
    /// comprehension (not a model failure)
    AmbiguousQuestion,
    /// entity resolution
    WrongIdentifier,
    /// entity resolution
    UnresolvedLookup,
    /// schema choice
    WrongTable,
    /// schema choice
    WrongColumn,
    /// query construction
    WrongJoin,
    /// query construction
    WrongGrain,
    /// query construction
    WrongAggregation,
    /// query construction
    WrongFilter,
    /// query construction
    WrongTimeWindow,
    /// execution
    ClickhouseError,
    /// process
    StoppedEarly,
    /// process
    RanOutOfBudget,
    /// process
    ToolLoop,
    /// grading (not a model failure)
    CorrectButJudgedFail,
}

/// All sub-modes in TAXONOMY order.
pub const ALL: [SubMode; 16] = [
    SubMode::MisreadQuestion,
    SubMode::AmbiguousQuestion,
    SubMode::WrongIdentifier,
    SubMode::UnresolvedLookup,
    SubMode::WrongTable,
    SubMode::WrongColumn,
    SubMode::WrongJoin,
    SubMode::WrongGrain,
    SubMode::WrongAggregation,
    SubMode::WrongFilter,
    SubMode::WrongTimeWindow,
    SubMode::ClickhouseError,
    SubMode::StoppedEarly,
    SubMode::RanOutOfBudget,
    SubMode::ToolLoop,
    SubMode::CorrectButJudgedFail,
];

/// Labelled failures per sub-mode (rows in TAXONOMY order) for sonnet46, gpt-4.1,
/// qwen3-coder-30b and gemini-2.5-flash. Column sums: 42, 81, 76, 78 (total 277).
/// Chosen to reproduce the published mix: data selection 87 (29/20/28/10), FM2 92 is the
/// largest bucket, stopped_early 38 the largest bar (34 Gemini 2.5 Flash), GPT-4.1 9 of 18
/// clickhouse_error, correct_but_judged_fail 7 (6 Sonnet 4.6), ambiguous_question 1.
pub const ARTICLE_MATRIX: [[u32; 4]; 16] = [
    [5, 10, 9, 7],
    [1, 0, 0, 0],
    [5, 10, 8, 6],
    [3, 6, 7, 4],
    [5, 9, 8, 6],
    [2, 3, 3, 2],
    [2, 3, 3, 1],
    [1, 2, 2, 0],
    [1, 3, 3, 1],
    [6, 11, 10, 6],
    [4, 9, 9, 6],
    [1, 9, 6, 2],
    [0, 2, 2, 34],
    [0, 2, 4, 2],
    [0, 1, 2, 1],
    [6, 1, 0, 0],
];

impl SubMode {
    /// The key the labeller writes, e.g. `wrong_identifier`.
    pub fn key(self) -> &'static str {
        match self {
            SubMode::MisreadQuestion => "misread_question",
            SubMode::AmbiguousQuestion => "ambiguous_question",
            SubMode::WrongIdentifier => "wrong_identifier",
            SubMode::UnresolvedLookup => "unresolved_lookup",
            SubMode::WrongTable => "wrong_table",
            SubMode::WrongColumn => "wrong_column",
            SubMode::WrongJoin => "wrong_join",
            SubMode::WrongGrain => "wrong_grain",
            SubMode::WrongAggregation => "wrong_aggregation",
            SubMode::WrongFilter => "wrong_filter",
            SubMode::WrongTimeWindow => "wrong_time_window",
            SubMode::ClickhouseError => "clickhouse_error",
            SubMode::StoppedEarly => "stopped_early",
            SubMode::RanOutOfBudget => "ran_out_of_budget",
            SubMode::ToolLoop => "tool_loop",
            SubMode::CorrectButJudgedFail => "correct_but_judged_fail",
        }
    }

    /// The family (`FAMILY_OF`).
    pub fn family(self) -> &'static str {
        match self {
            SubMode::MisreadQuestion | SubMode::AmbiguousQuestion => "comprehension",
            SubMode::WrongIdentifier | SubMode::UnresolvedLookup => "entity_resolution",
            SubMode::WrongTable | SubMode::WrongColumn => "schema_choice",
            SubMode::WrongJoin
            | SubMode::WrongGrain
            | SubMode::WrongAggregation
            | SubMode::WrongFilter
            | SubMode::WrongTimeWindow => "query_construction",
            SubMode::ClickhouseError => "execution",
            SubMode::StoppedEarly | SubMode::RanOutOfBudget | SubMode::ToolLoop => "process",
            SubMode::CorrectButJudgedFail => "grading",
        }
    }

    /// True when the sub-mode needs a named entity in the question.
    pub fn needs_entity(self) -> bool {
        matches!(self, SubMode::WrongIdentifier | SubMode::UnresolvedLookup)
    }

    /// The 07 LLM-judge FM code this failure would most plausibly get (FM2/FM3/FM4 only).
    pub fn llm_fm(self) -> &'static str {
        match self {
            SubMode::WrongIdentifier
            | SubMode::UnresolvedLookup
            | SubMode::WrongTable
            | SubMode::WrongColumn => "FM3",
            SubMode::WrongJoin | SubMode::WrongGrain | SubMode::WrongAggregation => "FM4",
            _ => "FM2",
        }
    }
}
