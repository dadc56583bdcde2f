//! The stored shape of a table (layout 1): the row count and, per column, its name and its
//! values by kind. A nullable column is a validity bitmap (bit `i` of byte `i / 8`, least
//! significant first; absent when every row has a value) and the values of the rows that have
//! one, in order. Integers are postcard varints (token counts take 2–3 bytes, not 8); strings
//! of few values are a dictionary and varint codes. [`super::packed`] writes it,
//! [`super::codec`] reads it.

use serde::{Deserialize, Serialize};

/// The layout this module writes and reads.
pub const LAYOUT: u32 = 1;

/// A table as stored.
#[derive(Debug, Serialize, Deserialize)]
pub(super) struct TableDoc {
    pub(super) layout: u32,
    pub(super) rows: u64,
    pub(super) columns: Vec<ColumnDoc>,
}

#[derive(Debug, Serialize, Deserialize)]
pub(super) struct ColumnDoc {
    pub(super) name: String,
    /// Bitmap of the rows with a value; `None` when every row has one.
    pub(super) validity: Option<Vec<u8>>,
    pub(super) values: Values,
}

/// The values of the rows that have one.
#[derive(Debug, Serialize, Deserialize)]
pub(super) enum Values {
    U64(Vec<u64>),
    F64(Vec<f64>),
    Bool(Vec<bool>),
    Dict {
        dict: Vec<String>,
        codes: Vec<u32>,
    },
    Text(Vec<String>),
    DictList {
        dict: Vec<String>,
        lens: Vec<u32>,
        codes: Vec<u32>,
    },
}

impl Values {
    pub(super) fn name(&self) -> &'static str {
        match self {
            Values::U64(_) => "unsigned integers",
            Values::F64(_) => "floats",
            Values::Bool(_) => "booleans",
            Values::Dict { .. } => "dictionary strings",
            Values::Text(_) => "strings",
            Values::DictList { .. } => "lists of dictionary strings",
        }
    }
}
