//! A column being written, held in its stored shape from the first row: a validity bitmap and
//! the values of the rows that have one (integers as `u64`, strings as dictionary codes). A
//! writer of millions of rows holds about 8 bytes per value, not an `Option<String>`.

use std::collections::HashMap;

use serde_json::Value;

use std::io::Write;

use super::layout::{ColumnDoc, LAYOUT, TableDoc, Values};
use super::schema::{Column, Kind};
use super::split::{ColumnData, ColumnSink};

/// Strings and their codes, the dictionary in first-seen order.
#[derive(Debug, Default)]
struct Dictionary {
    dict: Vec<String>,
    codes: HashMap<String, u32>,
}

impl Dictionary {
    fn code(&mut self, s: &str) -> u32 {
        if let Some(&code) = self.codes.get(s) {
            return code;
        }
        let code = self.dict.len() as u32;
        self.dict.push(s.to_owned());
        self.codes.insert(s.to_owned(), code);
        code
    }
}

#[derive(Debug)]
enum Store {
    U64(Vec<u64>),
    F64(Vec<f64>),
    Bool(Vec<bool>),
    Dict(Dictionary, Vec<u32>),
    Text(Vec<String>),
    DictList(Dictionary, Vec<u32>, Vec<u32>),
}

/// One column's values so far.
#[derive(Debug)]
pub struct Packed {
    kind: Kind,
    rows: usize,
    /// Bit `i` set: row `i` has a value.
    bits: Vec<u8>,
    missing: bool,
    store: Store,
}

impl Packed {
    /// An empty column of `kind`.
    pub fn new(kind: Kind) -> Packed {
        let store = match kind {
            Kind::U64 | Kind::Len => Store::U64(Vec::new()),
            Kind::F64 => Store::F64(Vec::new()),
            Kind::Bool => Store::Bool(Vec::new()),
            Kind::Dict => Store::Dict(Dictionary::default(), Vec::new()),
            Kind::Text => Store::Text(Vec::new()),
            Kind::TextList => Store::DictList(Dictionary::default(), Vec::new(), Vec::new()),
        };
        Packed {
            kind,
            rows: 0,
            bits: Vec::new(),
            missing: false,
            store,
        }
    }

    /// Rows held.
    pub fn len(&self) -> usize {
        self.rows
    }

    /// Whether no rows are held.
    pub fn is_empty(&self) -> bool {
        self.rows == 0
    }

    fn mark(&mut self, present: bool) {
        if self.rows.is_multiple_of(8) {
            self.bits.push(0);
        }
        if present {
            if let Some(last) = self.bits.last_mut() {
                *last |= 1 << (self.rows % 8);
            }
        } else {
            self.missing = true;
        }
        self.rows += 1;
    }

    /// Appends a row without a value.
    pub fn push_none(&mut self) {
        self.mark(false);
    }

    /// Appends an integer (a `U64` or `Len` column; in any other, a row without a value);
    /// returns whether it fitted.
    pub fn push_u64(&mut self, value: u64) -> bool {
        let fitted = match &mut self.store {
            Store::U64(v) => {
                v.push(value);
                true
            }
            _ => false,
        };
        self.mark(fitted);
        fitted
    }

    /// Appends a float (an `F64` column), as [`Packed::push_u64`].
    pub fn push_f64(&mut self, value: f64) -> bool {
        let fitted = match &mut self.store {
            Store::F64(v) => {
                v.push(value);
                true
            }
            _ => false,
        };
        self.mark(fitted);
        fitted
    }

    /// Appends a boolean (a `Bool` column), as [`Packed::push_u64`].
    pub fn push_bool(&mut self, value: bool) -> bool {
        let fitted = match &mut self.store {
            Store::Bool(v) => {
                v.push(value);
                true
            }
            _ => false,
        };
        self.mark(fitted);
        fitted
    }

    /// Appends a string (a `Dict` or `Text` column), as [`Packed::push_u64`].
    pub fn push_str(&mut self, value: &str) -> bool {
        let fitted = match &mut self.store {
            Store::Dict(d, codes) => {
                codes.push(d.code(value));
                true
            }
            Store::Text(v) => {
                v.push(value.to_owned());
                true
            }
            _ => false,
        };
        self.mark(fitted);
        fitted
    }

    /// Appends a list of strings (a `TextList` column), as [`Packed::push_u64`].
    pub fn push_list<'s>(&mut self, list: impl ExactSizeIterator<Item = &'s str>) -> bool {
        let fitted = match &mut self.store {
            Store::DictList(d, lens, codes) => {
                lens.push(list.len() as u32);
                codes.extend(list.map(|s| d.code(s)));
                true
            }
            _ => false,
        };
        self.mark(fitted);
        fitted
    }

    /// A row without a value; `false` (nothing fitted).
    fn none(&mut self) -> bool {
        self.push_none();
        false
    }

    /// Appends `value` if it fits this column's kind (`Len`: an array's length), else a row
    /// without a value; returns whether it fitted.
    pub fn push_json(&mut self, value: Option<&Value>) -> bool {
        let Some(v) = value else {
            return self.none();
        };
        let pushed = match self.kind {
            Kind::Len => v.as_array().map(|a| self.push_u64(a.len() as u64)),
            Kind::U64 => v.as_u64().map(|n| self.push_u64(n)),
            Kind::F64 => v.as_f64().filter(|_| v.is_f64()).map(|x| self.push_f64(x)),
            Kind::Bool => v.as_bool().map(|b| self.push_bool(b)),
            Kind::Dict | Kind::Text => v.as_str().map(|s| self.push_str(s)),
            Kind::TextList => v
                .as_array()
                .and_then(|a| a.iter().map(Value::as_str).collect::<Option<Vec<_>>>())
                .map(|list| self.push_list(list.into_iter())),
        };
        pushed.unwrap_or_else(|| self.none())
    }

    /// Row `i` of `data` (a column of this kind); a row without a value when absent.
    fn push_data(&mut self, data: &ColumnData, i: usize) {
        let _ = match data {
            ColumnData::U64(v) => v.get(i).map(|x| self.push_u64(x)),
            ColumnData::F64(v) => v.get(i).map(|x| self.push_f64(x)),
            ColumnData::Bool(v) => v.get(i).copied().flatten().map(|b| self.push_bool(b)),
            ColumnData::Str(_) | ColumnData::Coded(_) => data.str_at(i).map(|s| self.push_str(s)),
            ColumnData::StrList(v) => v
                .get(i)
                .and_then(Option::as_ref)
                .map(|list| self.push_list(list.iter().map(|s| &**s))),
        }
        .unwrap_or_else(|| self.none());
    }

    /// The column as stored under `name`.
    pub(super) fn into_doc(self, name: &str) -> ColumnDoc {
        let validity = self.missing.then_some(self.bits);
        let values = match self.store {
            Store::U64(v) => Values::U64(v),
            Store::F64(v) => Values::F64(v),
            Store::Bool(v) => Values::Bool(v),
            Store::Dict(d, codes) => Values::Dict {
                dict: d.dict,
                codes,
            },
            Store::Text(v) => Values::Text(v),
            Store::DictList(d, lens, codes) => Values::DictList {
                dict: d.dict,
                lens,
                codes,
            },
        };
        ColumnDoc {
            name: name.to_owned(),
            validity,
            values,
        }
    }
}

impl ColumnSink for Packed {
    fn push_value(&mut self, _kind: Kind, value: Option<&Value>) -> bool {
        self.push_json(value)
    }
}

/// `data` (a column of `column`'s kind, `rows` long) packed.
pub fn pack(column: &Column, data: &ColumnData, rows: usize) -> Packed {
    let mut p = Packed::new(column.kind);
    for i in 0..rows {
        p.push_data(data, i);
    }
    p
}

/// Encodes `columns` (aligned with `spec`, `rows` each) as gzip-compressed postcard.
pub fn encode(spec: &[Column], columns: &[ColumnData], rows: usize) -> Vec<u8> {
    let packed = spec
        .iter()
        .zip(columns)
        .map(|(c, d)| pack(c, d, rows))
        .collect();
    encode_packed(spec, packed, rows)
}

/// Encodes packed columns (aligned with `spec`, `rows` each) as gzip-compressed postcard.
pub fn encode_packed(spec: &[Column], columns: Vec<Packed>, rows: usize) -> Vec<u8> {
    let doc = TableDoc {
        layout: LAYOUT,
        rows: rows as u64,
        columns: spec
            .iter()
            .zip(columns)
            .map(|(c, p)| p.into_doc(c.name))
            .collect(),
    };
    // Serialising plain data into a Vec, and gzip into a Vec, cannot fail.
    let plain = postcard::to_allocvec(&doc).unwrap_or_default();
    drop(doc);
    let mut gz = flate2::write::GzEncoder::new(
        Vec::with_capacity(plain.len() / 3),
        flate2::Compression::default(),
    );
    let _ = gz.write_all(&plain);
    gz.finish().unwrap_or_default()
}
