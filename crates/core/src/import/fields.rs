//! Typed field access on a JSON object with exact error paths.
//!
//! Conventions: `null` and absent are both "missing" (`None` / empty list), except where the
//! caller asks for the raw value. Whatever keys remain after the known ones are taken become
//! the row's `extra` map, so unknown fields survive.

use indexmap::IndexMap;
use serde_json::{Map, Value};

use super::ImportError;
use super::error::describe;
use crate::bundle::Extra;

/// Where a row came from, for errors.
#[derive(Clone, Copy)]
pub(crate) struct Loc<'a> {
    pub file: &'a str,
    pub line: Option<usize>,
}

impl Loc<'_> {
    /// A field error at this location.
    pub fn error(&self, field: &str, expected: &str, found: &Value) -> ImportError {
        ImportError {
            file: self.file.to_owned(),
            line: self.line,
            field: Some(field.to_owned()),
            expected: expected.to_owned(),
            found: describe(found),
        }
    }
}

/// A JSON object being taken apart field by field.
pub(crate) struct Obj<'a> {
    map: Map<String, Value>,
    loc: Loc<'a>,
    prefix: String,
}

impl<'a> Obj<'a> {
    /// Wraps an object found at `prefix` (empty for the row itself).
    pub fn new(map: Map<String, Value>, loc: Loc<'a>, prefix: String) -> Self {
        Obj { map, loc, prefix }
    }

    /// Wraps a value that must be an object.
    pub fn from_value(value: Value, loc: Loc<'a>, path: String) -> Result<Self, ImportError> {
        match value {
            Value::Object(map) => Ok(Obj::new(map, loc, path)),
            other => Err(loc.error(&path, "an object", &other)),
        }
    }

    pub fn loc(&self) -> Loc<'a> {
        self.loc
    }

    /// The dotted path of a field of this object.
    pub fn path(&self, key: &str) -> String {
        if self.prefix.is_empty() {
            key.to_owned()
        } else {
            format!("{}.{key}", self.prefix)
        }
    }

    /// Removes a value, mapping `null` to `None`.
    pub fn take_present(&mut self, key: &str) -> Option<Value> {
        match self.map.remove(key) {
            None | Some(Value::Null) => None,
            Some(v) => Some(v),
        }
    }

    /// A required string.
    pub fn req_str(&mut self, key: &str) -> Result<String, ImportError> {
        match self.map.remove(key) {
            Some(Value::String(s)) => Ok(s),
            Some(other) => Err(self.loc.error(&self.path(key), "a string", &other)),
            None => Err(ImportError {
                file: self.loc.file.to_owned(),
                line: self.loc.line,
                field: Some(self.path(key)),
                expected: "a string".to_owned(),
                found: "no such field".to_owned(),
            }),
        }
    }

    /// An optional string.
    pub fn opt_str(&mut self, key: &str) -> Result<Option<String>, ImportError> {
        match self.take_present(key) {
            None => Ok(None),
            Some(Value::String(s)) => Ok(Some(s)),
            Some(other) => Err(self.loc.error(&self.path(key), "a string or null", &other)),
        }
    }

    /// An optional boolean.
    pub fn opt_bool(&mut self, key: &str) -> Result<Option<bool>, ImportError> {
        match self.take_present(key) {
            None => Ok(None),
            Some(Value::Bool(b)) => Ok(Some(b)),
            Some(other) => Err(self
                .loc
                .error(&self.path(key), "true, false or null", &other)),
        }
    }

    /// An optional non-negative integer.
    pub fn opt_u64(&mut self, key: &str) -> Result<Option<u64>, ImportError> {
        match self.take_present(key) {
            None => Ok(None),
            Some(v) => u64_of(&v).map(Some).ok_or_else(|| {
                self.loc
                    .error(&self.path(key), "a non-negative integer or null", &v)
            }),
        }
    }

    /// An optional non-negative integer that fits in 32 bits.
    pub fn opt_u32(&mut self, key: &str) -> Result<Option<u32>, ImportError> {
        match self.take_present(key) {
            None => Ok(None),
            Some(v) => u64_of(&v)
                .and_then(|n| u32::try_from(n).ok())
                .map(Some)
                .ok_or_else(|| {
                    self.loc
                        .error(&self.path(key), "a non-negative integer or null", &v)
                }),
        }
    }

    /// An optional number (integers accepted), unrounded.
    pub fn opt_f64(&mut self, key: &str) -> Result<Option<f64>, ImportError> {
        match self.take_present(key) {
            None => Ok(None),
            Some(Value::Number(n)) => match n.as_f64() {
                Some(f) => Ok(Some(f)),
                None => Err(self
                    .loc
                    .error(&self.path(key), "a number or null", &Value::Number(n))),
            },
            Some(other) => Err(self.loc.error(&self.path(key), "a number or null", &other)),
        }
    }

    /// A list of strings (absent or `null` → empty).
    pub fn str_list(&mut self, key: &str) -> Result<Vec<String>, ImportError> {
        Ok(self.opt_str_list(key)?.unwrap_or_default())
    }

    /// An optional list of strings.
    pub fn opt_str_list(&mut self, key: &str) -> Result<Option<Vec<String>>, ImportError> {
        let path = self.path(key);
        match self.take_present(key) {
            None => Ok(None),
            Some(Value::Array(items)) => {
                let mut out = Vec::with_capacity(items.len());
                for (i, item) in items.into_iter().enumerate() {
                    match item {
                        Value::String(s) => out.push(s),
                        other => {
                            return Err(self.loc.error(
                                &format!("{path}[{i}]"),
                                "a string",
                                &other,
                            ));
                        }
                    }
                }
                Ok(Some(out))
            }
            Some(other) => Err(self.loc.error(&path, "a list of strings or null", &other)),
        }
    }

    /// An optional object of string values (in file order).
    pub fn opt_str_map(
        &mut self,
        key: &str,
    ) -> Result<Option<IndexMap<String, String>>, ImportError> {
        let path = self.path(key);
        match self.take_present(key) {
            None => Ok(None),
            Some(Value::Object(map)) => {
                let mut out = IndexMap::with_capacity(map.len());
                for (k, v) in map {
                    match v {
                        Value::String(s) => {
                            out.insert(k, s);
                        }
                        other => {
                            return Err(self.loc.error(&format!("{path}.{k}"), "a string", &other));
                        }
                    }
                }
                Ok(Some(out))
            }
            Some(other) => Err(self
                .loc
                .error(&path, "an object of strings or null", &other)),
        }
    }

    /// An optional nested object.
    pub fn opt_obj(&mut self, key: &str) -> Result<Option<Obj<'a>>, ImportError> {
        let path = self.path(key);
        match self.take_present(key) {
            None => Ok(None),
            Some(v) => Obj::from_value(v, self.loc, path).map(Some),
        }
    }

    /// The remaining (unknown) fields.
    pub fn finish(self) -> Extra {
        self.map.into_iter().collect()
    }
}

/// A JSON number as a non-negative integer (`3` and `3.0` accepted; `3.5`, `-1` not).
pub(crate) fn u64_of(value: &Value) -> Option<u64> {
    let Value::Number(n) = value else { return None };
    if let Some(u) = n.as_u64() {
        return Some(u);
    }
    let f = n.as_f64()?;
    // 2^53: the largest range where every integer-valued f64 is exact.
    (f >= 0.0 && f.fract() == 0.0 && f <= 9_007_199_254_740_992.0).then_some(f as u64)
}
