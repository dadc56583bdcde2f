//! A result row's candidate cells, wherever the corpus keeps them: in the row's own
//! `candidates` map (a bundle read whole), or in a [`CellSource`] that makes each cell from
//! columns when it is asked for (a v2 bundle read without the cells' text,
//! [`super::v2::read_bundle_light`]: a 256-byte `Cell` per candidate was most of what a
//! browser's worker held). Readers go through [`super::Corpus::row_cells`] and do not know
//! which.

use std::borrow::Cow;
use std::fmt;

use indexmap::IndexMap;

use super::light::Light;
use super::{Cell, Name, Outcome, Usage};

/// What the metrics read of a cell (outcome, error, turns, number of SQL statements, usage),
/// borrowed from a cell held whole or read from columns without making the cell.
#[derive(Debug, Clone, PartialEq)]
pub struct CellParts<'a> {
    /// `result_score.outcome`.
    pub outcome: Option<Cow<'a, Outcome>>,
    /// The runner error.
    pub error: Option<&'a str>,
    /// Model calls.
    pub turns: Option<u32>,
    /// `len(sqls)`.
    pub n_sqls: usize,
    /// The usage block.
    pub usage: Option<Cow<'a, Usage>>,
}

impl<'a> CellParts<'a> {
    /// The parts of a cell held whole.
    pub fn of(cell: &'a Cell) -> CellParts<'a> {
        CellParts {
            outcome: cell.outcome().map(Cow::Borrowed),
            error: cell.error.as_deref(),
            turns: cell.turns,
            n_sqls: cell.n_sqls(),
            usage: cell.usage.as_ref().map(Cow::Borrowed),
        }
    }
}

/// Cells kept outside the rows: each made when asked for, the same every time.
pub trait CellSource: fmt::Debug + Send + Sync {
    /// Number of result rows it has cells for.
    fn rows(&self) -> usize;
    /// Number of candidates (null ones included) of result row `row`.
    fn row_len(&self, row: usize) -> usize;
    /// Candidate `k` of result row `row`: its model and its cell (`None`: the harness wrote
    /// `null`).
    fn candidate(&self, row: usize, k: usize) -> Option<(&Name, Option<Cell>)>;
    /// The model of candidate `k` of result row `row` (no cell made).
    fn model(&self, row: usize, k: usize) -> Option<&Name>;
    /// What the metrics read of candidate `k` of result row `row`, without making the cell
    /// (`None` past the row or for a null cell); the same as [`CellParts::of`] the cell.
    fn parts(&self, row: usize, k: usize) -> Option<CellParts<'_>>;
    /// The place of `model` among row `row`'s candidates.
    fn position(&self, row: usize, model: &str) -> Option<usize>;
    /// Number of non-null cells.
    fn non_null(&self) -> usize;
}

/// A corpus's [`CellSource`], if its cells are kept outside the rows (then every row's
/// `candidates` is empty). Equal when both make the same cells.
pub type LightCells = Light<dyn CellSource>;

impl PartialEq for LightCells {
    fn eq(&self, other: &LightCells) -> bool {
        match (self.source(), other.source()) {
            (None, None) => true,
            (Some(a), Some(b)) => {
                a.rows() == b.rows()
                    && (0..a.rows()).all(|r| {
                        a.row_len(r) == b.row_len(r)
                            && (0..a.row_len(r)).all(|k| a.candidate(r, k) == b.candidate(r, k))
                    })
            }
            _ => false,
        }
    }
}

/// One result row's candidates, in candidate order. Copy it freely: it is two references.
#[derive(Clone, Copy)]
pub struct RowCells<'a> {
    owned: &'a IndexMap<Name, Option<Cell>>,
    source: Option<(&'a dyn CellSource, usize)>,
}

/// A candidate: its model and its cell (`None`: null), borrowed from the row or made.
pub type Candidate<'a> = (&'a Name, Option<Cow<'a, Cell>>);

impl<'a> RowCells<'a> {
    /// The cells of a row that holds its own.
    pub fn owned(owned: &'a IndexMap<Name, Option<Cell>>) -> RowCells<'a> {
        RowCells {
            owned,
            source: None,
        }
    }

    /// The cells `source` makes for row `row` (`empty`: the row's own map, empty).
    pub fn made(
        empty: &'a IndexMap<Name, Option<Cell>>,
        source: &'a dyn CellSource,
        row: usize,
    ) -> RowCells<'a> {
        RowCells {
            owned: empty,
            source: Some((source, row)),
        }
    }

    /// Number of candidates, null ones included.
    pub fn len(&self) -> usize {
        match self.source {
            Some((s, row)) => s.row_len(row),
            None => self.owned.len(),
        }
    }

    /// True with no candidate.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Candidate `k`.
    pub fn get_index(&self, k: usize) -> Option<Candidate<'a>> {
        match self.source {
            Some((s, row)) => s
                .candidate(row, k)
                .map(|(model, cell)| (model, cell.map(Cow::Owned))),
            None => self
                .owned
                .get_index(k)
                .map(|(model, cell)| (model, cell.as_ref().map(Cow::Borrowed))),
        }
    }

    /// The model of candidate `k` (no cell made).
    pub fn model_at(&self, k: usize) -> Option<&'a Name> {
        match self.source {
            Some((s, row)) => s.model(row, k),
            None => self.owned.get_index(k).map(|(model, _)| model),
        }
    }

    /// What the metrics read of candidate `k` (`None` past the row or for a null cell).
    pub fn parts(&self, k: usize) -> Option<CellParts<'a>> {
        match self.source {
            Some((s, row)) => s.parts(row, k),
            None => self.owned.get_index(k)?.1.as_ref().map(CellParts::of),
        }
    }

    /// The place of `model` among the candidates, looked for at place `near` first (where it
    /// is when every row lists the models in the same order).
    pub fn position_near(&self, near: usize, model: &str) -> Option<usize> {
        match self.model_at(near) {
            Some(m) if **m == *model => Some(near),
            _ => self.position(model),
        }
    }

    /// The place of `model` among the candidates.
    pub fn position(&self, model: &str) -> Option<usize> {
        match self.source {
            Some((s, row)) => s.position(row, model),
            None => self.owned.get_index_of(model),
        }
    }

    /// The cell of `model`, unless it has none or it is null.
    pub fn get(&self, model: &str) -> Option<Cow<'a, Cell>> {
        self.get_index(self.position(model)?)?.1
    }

    /// Every candidate, in order.
    pub fn iter(self) -> impl Iterator<Item = Candidate<'a>> + 'a {
        (0..self.len()).filter_map(move |k| self.get_index(k))
    }
}
