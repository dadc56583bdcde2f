//! A corpus's gate rows kept as the columns they were read from ([`super::read_bundle_light`]):
//! each row is made from its values when a reader asks for it
//! ([`crate::bundle::Corpus::gate`]), and the gate metrics read each row's [`GateFacts`],
//! taken once when the table is read. A `GateRow` is 368 bytes on wasm32 before its lists
//! and strings; its columns, lists packed as name codes, and its facts are about a quarter
//! of that (docs/performance.md, "Gate rows kept as columns").

use std::collections::HashMap;
use std::fmt;

use super::V2Error;
use super::record::record_in;
use super::split::ColumnData;
use super::typed_rows::{typed_row, typed_row_copied};
use crate::bundle::{GateFacts, GateRow, GateSource, Name};

/// A text-list column with every row's names as codes into one list of names.
#[derive(Default)]
struct PackedLists {
    /// The distinct names.
    names: Vec<Name>,
    /// Every row's codes, row after row.
    codes: Vec<u32>,
    /// Row `i`'s codes are `codes[ends[i - 1]..ends[i]]` (from 0 for the first row).
    ends: Vec<u32>,
    /// Rows without a list (`null` or absent).
    null: Vec<bool>,
}

impl PackedLists {
    /// The lists of `column` (a [`ColumnData::StrList`]), or `None` for another column or
    /// more names than a reader holds.
    fn of(column: &ColumnData) -> Option<PackedLists> {
        let ColumnData::StrList(lists) = column else {
            return None;
        };
        let mut out = PackedLists {
            ends: Vec::with_capacity(lists.len()),
            null: Vec::with_capacity(lists.len()),
            ..PackedLists::default()
        };
        let mut code_of: HashMap<&str, u32> = HashMap::new();
        for list in lists {
            for name in list.iter().flatten() {
                let code = match code_of.get(&**name) {
                    Some(&c) => c,
                    None => {
                        let c = u32::try_from(out.names.len()).ok()?;
                        code_of.insert(name, c);
                        out.names.push(Name::clone(name));
                        c
                    }
                };
                out.codes.push(code);
            }
            out.ends.push(u32::try_from(out.codes.len()).ok()?);
            out.null.push(list.is_none());
        }
        out.codes.shrink_to_fit();
        Some(out)
    }

    /// Row `i`'s list as a column of one row.
    fn one_row(&self, i: usize) -> ColumnData {
        let list = (i < self.ends.len() && !self.null[i]).then(|| {
            let start = if i == 0 { 0 } else { self.ends[i - 1] as usize };
            self.codes[start..self.ends[i] as usize]
                .iter()
                .map(|&c| Name::clone(&self.names[c as usize]))
                .collect()
        });
        ColumnData::StrList(vec![list])
    }
}

/// A corpus's gate rows as columns: see the module doc.
pub(super) struct ColumnGate {
    /// The gate rows table (for errors).
    path: String,
    /// The table's columns, its text-list columns emptied (kept in `lists` instead).
    columns: Vec<ColumnData>,
    /// The text-list columns, by column index.
    lists: Vec<(usize, PackedLists)>,
    /// The text records.
    chunks: Vec<Vec<u8>>,
    /// Each row's facts.
    facts: Vec<GateFacts>,
}

impl ColumnGate {
    /// The gate rows of the table at `path` (`columns`, `rows` rows, and its text `chunks`,
    /// as decoded). Every row is made once here (its facts taken), so a value a row cannot
    /// hold is an error now rather than a missing row later.
    pub(super) fn new(
        path: String,
        mut columns: Vec<ColumnData>,
        rows: usize,
        chunks: Vec<Vec<u8>>,
    ) -> Result<ColumnGate, V2Error> {
        let row_error = |i: usize, message: String| V2Error::Row {
            path: path.clone(),
            row: i,
            message,
        };
        let mut facts = Vec::with_capacity(rows);
        for i in 0..rows {
            let record = record_in(&path, &columns, &chunks, i)?;
            let row: GateRow =
                typed_row_copied(&columns, i, record).map_err(|m| row_error(i, m))?;
            facts.push(GateFacts::of(&row));
            // Keys are read from their columns (as a light cell's row and model are).
            let key = |at: usize| columns.get(at).and_then(|c| c.str_at(i));
            if key(0) != Some(&row.trace_id) || key(1) != Some(&row.model) {
                return Err(row_error(
                    i,
                    "trace_id and model must be in their columns".to_owned(),
                ));
            }
        }
        let mut lists = Vec::new();
        for (at, column) in columns.iter_mut().enumerate() {
            if let ColumnData::StrList(_) = column {
                let packed = PackedLists::of(column).ok_or_else(|| {
                    row_error(
                        0,
                        "more names in a list column than a reader holds (2^32)".into(),
                    )
                })?;
                lists.push((at, packed));
                *column = ColumnData::StrList(Vec::new());
            }
        }
        Ok(ColumnGate {
            path,
            columns,
            lists,
            chunks,
            facts,
        })
    }

    /// Row `i`, made from its values.
    fn make(&self, i: usize) -> Result<GateRow, V2Error> {
        let mut one: Vec<ColumnData> = self.columns.iter().map(|c| c.one_row(i)).collect();
        for (at, packed) in &self.lists {
            one[*at] = packed.one_row(i);
        }
        let record = record_in(&self.path, &self.columns, &self.chunks, i)?;
        typed_row::<GateRow>(&mut one, 0, record).map_err(|message| V2Error::Row {
            path: self.path.clone(),
            row: i,
            message,
        })
    }
}

impl GateSource for ColumnGate {
    fn rows(&self) -> usize {
        self.facts.len()
    }

    fn row(&self, i: usize) -> Option<GateRow> {
        // Made once already when read (`new`), so it cannot fail here.
        (i < self.rows()).then(|| self.make(i).ok()).flatten()
    }

    fn trace_id(&self, i: usize) -> Option<&str> {
        self.columns.first()?.str_at(i)
    }

    fn model(&self, i: usize) -> Option<&str> {
        self.columns.get(1)?.str_at(i)
    }

    fn facts(&self, i: usize) -> Option<GateFacts> {
        self.facts.get(i).copied()
    }
}

impl fmt::Debug for ColumnGate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ColumnGate")
            .field("path", &self.path)
            .field("rows", &self.facts.len())
            .finish()
    }
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;

    #[test]
    fn packed_lists_keep_null_empty_and_order_with_each_name_once() {
        let name = Name::from;
        let lists = vec![
            Some(vec![name("a.x"), name("b.y")]),
            None,
            Some(Vec::new()),
            Some(vec![name("b.y"), name("a.x"), name("b.y")]),
        ];
        let packed = PackedLists::of(&ColumnData::StrList(lists.clone())).unwrap();
        assert_eq!(packed.names, [name("a.x"), name("b.y")]);
        assert_eq!(packed.codes, [0, 1, 1, 0, 1]);
        for (i, list) in lists.iter().enumerate() {
            assert_eq!(
                packed.one_row(i),
                ColumnData::StrList(vec![list.clone()]),
                "{i}"
            );
        }
        // Past the last row: no list.
        assert_eq!(packed.one_row(4), ColumnData::StrList(vec![None]));
        assert!(PackedLists::of(&ColumnData::Bool(Vec::new())).is_none());
    }
}
