//! A row's JSON object split into column values and a text record, and merged back.
//!
//! Values are taken out with `shift_remove`, so the keys left in the record keep their
//! order (a row's unknown fields are kept in order in `extra`); merged values are inserted
//! by name, which is all a struct's deserialiser reads.

use serde_json::{Map, Value};

use super::nullable::{Nullable, Numbers};
use super::schema::{Column, Kind, Table};
use crate::bundle::Name;

/// One column's values, one per row (`None`: the row has no such value). Two columns are
/// equal when they hold the same values, however they hold them ([`ColumnData::Coded`] or
/// [`ColumnData::Str`]).
#[derive(Debug, Clone)]
pub enum ColumnData {
    /// [`Kind::U64`] and [`Kind::Len`].
    U64(Numbers),
    /// [`Kind::F64`].
    F64(Nullable<f64>),
    /// [`Kind::Bool`].
    Bool(Vec<Option<bool>>),
    /// [`Kind::Dict`] and [`Kind::Text`].
    Str(Vec<Option<String>>),
    /// [`Kind::TextList`].
    StrList(Vec<Option<Vec<Name>>>),
    /// [`Kind::Dict`] as read: each row a code into its dictionary (a column of a few
    /// distinct strings, such as a cell's outcome or model, holds each string once rather
    /// than once per row).
    Coded(Coded),
}

/// A dictionary column: `codes[i]` indexes `dict` (checked when it is decoded).
#[derive(Debug, Clone, Default)]
pub struct Coded {
    /// The distinct strings.
    pub dict: Vec<String>,
    /// One code per row; `None`: the row has no value.
    pub codes: Nullable<u32>,
}

impl Coded {
    /// Row `i`'s string.
    pub fn get(&self, i: usize) -> Option<&str> {
        let code = self.codes.get(i)?;
        self.dict.get(code as usize).map(String::as_str)
    }

    fn push(&mut self, s: &str) {
        let code = match self.dict.iter().position(|d| d == s) {
            Some(at) => at,
            None => {
                self.dict.push(s.to_owned());
                self.dict.len() - 1
            }
        };
        self.codes.push(u32::try_from(code).ok());
    }
}

/// A string column's values as shared [`Name`]s: each string of a dictionary column is made
/// once, and every row that holds it points at that one copy (a column of plain strings
/// makes one per row).
#[derive(Debug, Default)]
pub struct SharedNames(Vec<Name>);

impl SharedNames {
    /// The names of `column`'s dictionary, if it has one.
    pub fn of(column: Option<&ColumnData>) -> SharedNames {
        match column {
            Some(ColumnData::Coded(c)) => {
                SharedNames(c.dict.iter().map(|s| Name::from(s.as_str())).collect())
            }
            _ => SharedNames::default(),
        }
    }

    /// Row `i` of `column` (the column these names were made [`SharedNames::of`]).
    pub fn get(&self, column: &ColumnData, i: usize) -> Option<Name> {
        match column {
            ColumnData::Coded(c) if !self.0.is_empty() => {
                self.0.get(c.codes.get(i)? as usize).cloned()
            }
            _ => column.str_at(i).map(Name::from),
        }
    }
}

impl PartialEq for ColumnData {
    fn eq(&self, other: &ColumnData) -> bool {
        use ColumnData::{Bool, Coded, F64, Str, StrList, U64};
        match (self, other) {
            (U64(a), U64(b)) => a == b,
            (F64(a), F64(b)) => a == b,
            (Bool(a), Bool(b)) => a == b,
            (StrList(a), StrList(b)) => a == b,
            (Str(_) | Coded(_), Str(_) | Coded(_)) => {
                self.len() == other.len()
                    && (0..self.len()).all(|i| self.str_at(i) == other.str_at(i))
            }
            _ => false,
        }
    }
}

impl ColumnData {
    /// An empty column of `kind`.
    pub fn new(kind: Kind) -> ColumnData {
        match kind {
            Kind::U64 | Kind::Len => ColumnData::U64(Numbers::default()),
            Kind::F64 => ColumnData::F64(Nullable::default()),
            Kind::Bool => ColumnData::Bool(Vec::new()),
            Kind::Dict | Kind::Text => ColumnData::Str(Vec::new()),
            Kind::TextList => ColumnData::StrList(Vec::new()),
        }
    }

    /// Rows held.
    pub fn len(&self) -> usize {
        match self {
            ColumnData::U64(v) => v.len(),
            ColumnData::F64(v) => v.len(),
            ColumnData::Bool(v) => v.len(),
            ColumnData::Str(v) => v.len(),
            ColumnData::StrList(v) => v.len(),
            ColumnData::Coded(c) => c.codes.len(),
        }
    }

    /// Row `i`'s string, for a string column ([`ColumnData::Str`] or [`ColumnData::Coded`]).
    pub fn str_at(&self, i: usize) -> Option<&str> {
        match self {
            ColumnData::Str(v) => v.get(i).and_then(Option::as_deref),
            ColumnData::Coded(c) => c.get(i),
            _ => None,
        }
    }

    /// Row `i`'s number, for a [`ColumnData::U64`] column.
    pub fn u64_at(&self, i: usize) -> Option<u64> {
        match self {
            ColumnData::U64(v) => v.get(i),
            _ => None,
        }
    }

    /// Row `i`'s float, for a [`ColumnData::F64`] column.
    pub fn f64_at(&self, i: usize) -> Option<f64> {
        match self {
            ColumnData::F64(v) => v.get(i),
            _ => None,
        }
    }

    /// Row `i`'s boolean, for a [`ColumnData::Bool`] column.
    pub fn bool_at(&self, i: usize) -> Option<bool> {
        match self {
            ColumnData::Bool(v) => v.get(i).copied().flatten(),
            _ => None,
        }
    }

    /// Whether no rows are held.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Row `i` alone: a column of one row (a dictionary column's string copied out; a row
    /// past the end has no value).
    pub fn one_row(&self, i: usize) -> ColumnData {
        match self {
            ColumnData::U64(v) => {
                let mut one = Numbers::default();
                one.push(v.get(i));
                ColumnData::U64(one)
            }
            ColumnData::F64(v) => ColumnData::F64([v.get(i)].into_iter().collect()),
            ColumnData::Bool(v) => ColumnData::Bool(vec![v.get(i).copied().flatten()]),
            ColumnData::Str(v) => ColumnData::Str(vec![v.get(i).cloned().flatten()]),
            ColumnData::StrList(v) => ColumnData::StrList(vec![v.get(i).cloned().flatten()]),
            ColumnData::Coded(c) => ColumnData::Str(vec![c.get(i).map(str::to_owned)]),
        }
    }

    /// Appends `value` if it fits this column's kind (`Len`: an array's length), else
    /// `None`; returns whether it fitted.
    fn push(&mut self, kind: Kind, value: Option<&Value>) -> bool {
        let Some(value) = value else {
            self.push_none();
            return false;
        };
        let fitted = match &mut *self {
            ColumnData::U64(v) if kind == Kind::Len => {
                value.as_array().map(|a| v.push(Some(a.len() as u64)))
            }
            ColumnData::U64(v) => value.as_u64().map(|n| v.push(Some(n))),
            ColumnData::F64(v) => value.is_f64().then(|| v.push(value.as_f64())),
            ColumnData::Bool(v) => value.as_bool().map(|b| v.push(Some(b))),
            ColumnData::Str(v) => value.as_str().map(|s| v.push(Some(s.to_owned()))),
            ColumnData::Coded(c) => value.as_str().map(|s| c.push(s)),
            ColumnData::StrList(v) => value
                .as_array()
                .and_then(|a| a.iter().map(|x| x.as_str().map(Name::from)).collect())
                .map(|list| v.push(Some(list))),
        };
        if fitted.is_none() {
            self.push_none();
        }
        fitted.is_some()
    }

    /// Appends `None`.
    pub fn push_none(&mut self) {
        match self {
            ColumnData::U64(v) => v.push(None),
            ColumnData::F64(v) => v.push(None),
            ColumnData::Bool(v) => v.push(None),
            ColumnData::Str(v) => v.push(None),
            ColumnData::StrList(v) => v.push(None),
            ColumnData::Coded(c) => c.codes.push(None),
        }
    }

    /// Row `i` as JSON (`None` when absent or out of range).
    pub fn json(&self, i: usize) -> Option<Value> {
        match self {
            ColumnData::U64(v) => v.get(i).map(Value::from),
            ColumnData::F64(v) => v.get(i).map(Value::from),
            ColumnData::Bool(v) => v.get(i).copied().flatten().map(Value::from),
            ColumnData::Str(v) => v.get(i).cloned().flatten().map(Value::from),
            ColumnData::StrList(v) => v
                .get(i)
                .and_then(Option::as_ref)
                .map(|l| l.iter().map(|s| Value::from(&**s)).collect()),
            ColumnData::Coded(c) => c.get(i).map(Value::from),
        }
    }
}

/// Where [`split_row`] puts a row's column values.
pub trait ColumnSink {
    /// Appends `value` if it fits the column's `kind`, else a row without a value; returns
    /// whether it fitted.
    fn push_value(&mut self, kind: Kind, value: Option<&Value>) -> bool;
}

impl ColumnSink for ColumnData {
    fn push_value(&mut self, kind: Kind, value: Option<&Value>) -> bool {
        self.push(kind, value)
    }
}

/// The object at `path` (all but the last key) inside `row`, if every step is an object.
fn parent_mut<'a>(
    row: &'a mut Map<String, Value>,
    path: &[&str],
) -> Option<&'a mut Map<String, Value>> {
    let mut at = row;
    for key in &path[..path.len().saturating_sub(1)] {
        at = at.get_mut(*key)?.as_object_mut()?;
    }
    Some(at)
}

/// Appends one value per column of `table` from `row`, taking the values of `take` columns
/// out of it when they fit (a value that does not fit stays in the row, the column gets
/// `None`). What is left of `row` is its text record.
pub fn split_row<S: ColumnSink>(table: &Table, columns: &mut [S], row: &mut Map<String, Value>) {
    for (col, data) in table.columns.iter().zip(columns.iter_mut()) {
        let Some(last) = col.path.last() else {
            data.push_value(col.kind, None);
            continue;
        };
        let parent = parent_mut(row, col.path);
        let value = parent.as_ref().and_then(|p| p.get(*last));
        let fitted = data.push_value(col.kind, value);
        // A value that does not fit stays in the record; the column says nothing for it.
        if fitted
            && col.take
            && let Some(parent) = parent
        {
            parent.shift_remove(*last);
        }
    }
}

/// Why a row could not be merged back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MergeError {
    /// The column whose value had no place.
    pub column: &'static str,
}

/// Puts the values of row `i` of `table`'s `take` columns back into `record`.
pub fn merge_row(
    table: &Table,
    columns: &[ColumnData],
    i: usize,
    record: &mut Map<String, Value>,
) -> Result<(), MergeError> {
    for (col, data) in table.columns.iter().zip(columns) {
        if !col.take {
            continue;
        }
        let Some(value) = data.json(i) else { continue };
        let (Some(last), Some(parent)) = (col.path.last(), parent_mut(record, col.path)) else {
            return Err(MergeError { column: col.name });
        };
        parent.insert((*last).to_owned(), value);
    }
    Ok(())
}

/// Puts `record` into `row` (a row's columns as JSON): objects both hold are merged
/// key by key, anything else is the record's. The two are disjoint parts of one row, so this
/// is the whole row.
pub fn merge_record(row: &mut Map<String, Value>, record: Map<String, Value>) {
    for (key, value) in record {
        match (row.get_mut(&key), value) {
            (Some(Value::Object(mine)), Value::Object(theirs)) => merge_record(mine, theirs),
            (_, value) => {
                row.insert(key, value);
            }
        }
    }
}

/// Columns of `table`, empty.
pub fn empty_columns(table: &Table) -> Vec<ColumnData> {
    table
        .columns
        .iter()
        .map(|c: &Column| ColumnData::new(c.kind))
        .collect()
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;
    use crate::bundle::v2::schema::CELLS;
    use serde_json::json;

    #[test]
    fn a_cell_splits_into_columns_and_a_record_and_merges_back_exactly() {
        let cell = json!({"sqls": ["SELECT 1", "SELECT 2"], "final_answer": "2", "turns": 3,
            "latency": 2.0, "result_score": {"outcome": "pass", "tally": {"pass": 2, "fail": 1},
            "votes": [{"outcome": "pass"}]}, "error": "max turns (3)",
            "usage": {"prompt_tokens": 10, "per_turn": [[1, 2, 0, 0, 0]]},
            "zeta": 1, "alpha": {"x": true}});
        let mut row = cell.as_object().unwrap().clone();
        let mut cols = empty_columns(&CELLS);
        split_row(&CELLS, &mut cols, &mut row);
        let at = |name: &str| {
            let i = CELLS.columns.iter().position(|c| c.name == name).unwrap();
            cols[i].json(0)
        };
        assert_eq!(at("outcome"), Some(json!("pass")));
        assert_eq!(at("tally_pass"), Some(json!(2)));
        assert_eq!(at("tally_tie"), None);
        assert_eq!(at("n_sqls"), Some(json!(2)));
        assert_eq!(at("n_votes"), Some(json!(1)));
        assert_eq!(at("latency"), Some(json!(2.0)));
        assert_eq!(at("usage_prompt_tokens"), Some(json!(10)));
        assert_eq!(at("usage_total_tokens"), None);
        // The record keeps the text, the skeleton of emptied objects, and key order.
        assert_eq!(
            Value::Object(row.clone()),
            json!({"sqls": ["SELECT 1", "SELECT 2"], "final_answer": "2",
                "result_score": {"tally": {"pass": 2, "fail": 1}, "votes": [{"outcome": "pass"}]},
                "usage": {"per_turn": [[1, 2, 0, 0, 0]]}, "zeta": 1, "alpha": {"x": true}})
        );
        let keys: Vec<&String> = row.keys().collect();
        assert_eq!(
            keys,
            [
                "sqls",
                "final_answer",
                "result_score",
                "usage",
                "zeta",
                "alpha"
            ]
        );
        merge_row(&CELLS, &cols, 0, &mut row).unwrap();
        assert_eq!(Value::Object(row), cell);
    }

    #[test]
    fn a_value_of_another_type_stays_in_the_record() {
        // turns as a float and latency as an integer are not what the columns hold.
        let cell = json!({"turns": 2.5, "latency": 3, "error": 7});
        let mut row = cell.as_object().unwrap().clone();
        let mut cols = empty_columns(&CELLS);
        split_row(&CELLS, &mut cols, &mut row);
        assert!(cols.iter().all(|c| c.len() == 1));
        assert_eq!(Value::Object(row.clone()), cell);
        merge_row(&CELLS, &cols, 0, &mut row).unwrap();
        assert_eq!(Value::Object(row), cell);
    }
}
