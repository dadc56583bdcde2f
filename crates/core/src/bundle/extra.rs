//! Unknown JSON fields of a harness row, kept verbatim: one pointer when there are none.
//!
//! Every row type and most nested objects (a cell, its judge panel, its usage) carry one, and
//! almost all are empty. An empty `IndexMap` is 72 bytes inline (48 on wasm32); three per
//! cell were a quarter of a light cell. [`Extra`] reads as the map (through `Deref`), and
//! makes one only when something is put in it.

use std::fmt;
use std::ops::{Deref, DerefMut};
use std::sync::LazyLock;

use indexmap::IndexMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;

/// The map an [`Extra`] reads as.
pub type ExtraMap = IndexMap<String, Value>;

/// Unknown fields (sorted by key unless serde_json's `preserve_order` is on); see the module
/// doc. Equal when their maps are equal.
#[derive(Clone, Default)]
pub struct Extra(Option<Box<ExtraMap>>);

static EMPTY: LazyLock<ExtraMap> = LazyLock::new(ExtraMap::new);

impl Extra {
    /// No fields.
    pub fn new() -> Self {
        Extra(None)
    }

    /// True with no fields (for `skip_serializing_if`).
    pub fn is_empty(&self) -> bool {
        self.0.as_ref().is_none_or(|m| m.is_empty())
    }
}

impl Deref for Extra {
    type Target = ExtraMap;
    fn deref(&self) -> &ExtraMap {
        self.0.as_deref().unwrap_or(&EMPTY)
    }
}

impl DerefMut for Extra {
    fn deref_mut(&mut self) -> &mut ExtraMap {
        self.0.get_or_insert_with(Box::default)
    }
}

impl From<ExtraMap> for Extra {
    fn from(map: ExtraMap) -> Self {
        Extra((!map.is_empty()).then(|| Box::new(map)))
    }
}

impl FromIterator<(String, Value)> for Extra {
    fn from_iter<I: IntoIterator<Item = (String, Value)>>(iter: I) -> Self {
        ExtraMap::from_iter(iter).into()
    }
}

impl IntoIterator for Extra {
    type Item = (String, Value);
    type IntoIter = indexmap::map::IntoIter<String, Value>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.map(|m| *m).unwrap_or_default().into_iter()
    }
}

impl<'a> IntoIterator for &'a Extra {
    type Item = (&'a String, &'a Value);
    type IntoIter = indexmap::map::Iter<'a, String, Value>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl PartialEq for Extra {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

impl fmt::Debug for Extra {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&**self, f)
    }
}

impl Serialize for Extra {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        (**self).serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Extra {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        ExtraMap::deserialize(deserializer).map(Extra::from)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_is_one_pointer_and_reads_as_an_empty_map() {
        assert_eq!(std::mem::size_of::<Extra>(), std::mem::size_of::<usize>());
        let e = Extra::new();
        assert!(e.is_empty() && e.get("x").is_none() && e.is_empty());
        assert_eq!(serde_json::to_string(&e).unwrap(), "{}");
    }

    #[test]
    fn fields_round_trip_in_order_and_compare_by_content() {
        let e: Extra = serde_json::from_str(r#"{"b": 1, "a": [true]}"#).unwrap();
        assert_eq!(serde_json::to_string(&e).unwrap(), r#"{"b":1,"a":[true]}"#);
        assert_eq!(e.keys().collect::<Vec<_>>(), ["b", "a"]);
        let mut grown = Extra::new();
        grown.insert("b".into(), 1.into());
        grown.insert("a".into(), serde_json::json!([true]));
        assert_eq!(grown, e);
        // A map made and emptied equals one never made.
        let mut emptied = Extra::new();
        emptied.insert("x".into(), Value::Null);
        emptied.shift_remove("x");
        assert_eq!(emptied, Extra::new());
        assert!(emptied.is_empty());
        let from_empty: Extra = serde_json::from_str("{}").unwrap();
        assert_eq!(std::format!("{from_empty:?}"), "{}");
    }
}
