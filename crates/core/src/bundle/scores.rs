//! A ranking row's stored scores (table → P(needed), in stored order) as a plain list.
//!
//! An `IndexMap` keeps a hash table beside its entries: for the 710 scores of every `large`
//! ranking row that was a third of the row. Every reader walks the scores in rank order (the
//! order they are stored in), so a lookup starts where the last one ended and is one
//! comparison in that walk; any other lookup is a scan.

use std::fmt;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

use serde::de::{MapAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::Name;

/// Table → score, in stored order; a table appears once (a repeated key keeps its first
/// place and its last value, as a JSON object read into a map does). Reads and writes as a
/// JSON object.
#[derive(Default)]
pub struct Scores {
    entries: Vec<(Name, f64)>,
    /// Where the next lookup starts: one past the last one found.
    next: AtomicUsize,
}

impl Scores {
    /// No scores.
    pub fn new() -> Self {
        Scores::default()
    }

    /// Number of tables scored.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True with no scores.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The score of `table`, if stored.
    pub fn get(&self, table: &str) -> Option<&f64> {
        let n = self.entries.len();
        let start = self.next.load(Relaxed).min(n);
        let found = (start..n)
            .chain(0..start)
            .find(|&i| *self.entries[i].0 == *table)?;
        self.next.store(found + 1, Relaxed);
        Some(&self.entries[found].1)
    }

    /// The tables and their scores, in stored order.
    pub fn iter(&self) -> impl Iterator<Item = (&Name, &f64)> {
        self.entries.iter().map(|(t, p)| (t, p))
    }

    /// The tables, in stored order.
    pub fn keys(&self) -> impl Iterator<Item = &Name> {
        self.entries.iter().map(|(t, _)| t)
    }

    /// Sets `table`'s score (in place if present, else last).
    pub fn insert(&mut self, table: Name, p: f64) {
        match self.entries.iter_mut().find(|(t, _)| *t == table) {
            Some(entry) => entry.1 = p,
            None => self.entries.push((table, p)),
        }
    }

    /// Frees spare room.
    pub fn shrink_to_fit(&mut self) {
        self.entries.shrink_to_fit();
    }

    /// Makes each table name share its copy with `ranked` (they list the same tables, as a
    /// rule in the same order), so a row holds each name once. Names not in `ranked` keep
    /// their own.
    pub fn share_names(&mut self, ranked: &[Name]) {
        let mut by_name: Option<std::collections::HashMap<&str, &Name>> = None;
        for (i, (key, _)) in self.entries.iter_mut().enumerate() {
            let same = match ranked.get(i) {
                Some(r) if **r == **key => Some(r),
                _ => by_name
                    .get_or_insert_with(|| ranked.iter().map(|r| (&**r, r)).collect())
                    .get(&**key)
                    .copied(),
            };
            if let Some(r) = same {
                *key = Name::clone(r);
            }
        }
    }
}

impl Clone for Scores {
    fn clone(&self) -> Self {
        Scores {
            entries: self.entries.clone(),
            next: AtomicUsize::new(0),
        }
    }
}

impl PartialEq for Scores {
    fn eq(&self, other: &Self) -> bool {
        self.entries == other.entries
    }
}

impl fmt::Debug for Scores {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

impl FromIterator<(Name, f64)> for Scores {
    fn from_iter<I: IntoIterator<Item = (Name, f64)>>(iter: I) -> Self {
        let mut entries: Vec<(Name, f64)> = Vec::new();
        // Where each table already is, to keep a repeated one in its first place.
        let mut at: std::collections::HashMap<Name, usize> = std::collections::HashMap::new();
        for (table, p) in iter {
            match at.get(&table) {
                Some(&i) => entries[i].1 = p,
                None => {
                    at.insert(Name::clone(&table), entries.len());
                    entries.push((table, p));
                }
            }
        }
        entries.shrink_to_fit();
        Scores {
            entries,
            next: AtomicUsize::new(0),
        }
    }
}

impl Serialize for Scores {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.entries.len()))?;
        for (t, p) in &self.entries {
            map.serialize_entry(&**t, p)?;
        }
        map.end()
    }
}

impl<'de> Deserialize<'de> for Scores {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct ScoresVisitor;
        impl<'de> Visitor<'de> for ScoresVisitor {
            type Value = Scores;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an object of table -> number")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Scores, A::Error> {
                let mut pairs = Vec::with_capacity(map.size_hint().unwrap_or(0));
                while let Some((t, p)) = map.next_entry::<std::borrow::Cow<'de, str>, f64>()? {
                    pairs.push((Name::from(&*t), p));
                }
                Ok(pairs.into_iter().collect())
            }
        }
        deserializer.deserialize_map(ScoresVisitor)
    }
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;

    fn scores(pairs: &[(&str, f64)]) -> Scores {
        pairs.iter().map(|&(t, p)| (Name::from(t), p)).collect()
    }

    #[test]
    fn lookups_in_rank_order_out_of_order_and_missing() {
        let s = scores(&[("a.x", 0.9), ("a.y", 0.5), ("a.z", 0.25)]);
        // Down the ranking, as readers walk it.
        assert_eq!(
            ["a.x", "a.y", "a.z"].map(|t| s.get(t).copied()),
            [Some(0.9), Some(0.5), Some(0.25)]
        );
        // Back up, again, and a table with no score.
        assert_eq!(s.get("a.x"), Some(&0.9));
        assert_eq!(s.get("a.z"), Some(&0.25));
        assert_eq!(s.get("a.y"), Some(&0.5));
        assert_eq!(s.get("b.q"), None);
        assert_eq!(s.get("a.y"), Some(&0.5));
        assert_eq!(scores(&[]).get("a.x"), None);
    }

    #[test]
    fn json_round_trip_keeps_order_and_a_repeated_key_keeps_its_place_with_the_last_value() {
        let s: Scores = serde_json::from_str(r#"{"b.t": 0.5, "a.t": 0.25, "b.t": 0.75}"#).unwrap();
        assert_eq!(s.len(), 2);
        assert_eq!(
            serde_json::to_string(&s).unwrap(),
            r#"{"b.t":0.75,"a.t":0.25}"#
        );
        // The same as an IndexMap reads it.
        let m: indexmap::IndexMap<String, f64> =
            serde_json::from_str(r#"{"b.t": 0.5, "a.t": 0.25, "b.t": 0.75}"#).unwrap();
        assert_eq!(
            serde_json::to_string(&m).unwrap(),
            serde_json::to_string(&s).unwrap()
        );
        assert!(serde_json::from_str::<Scores>(r#"{"a.t": "high"}"#).is_err());
        let mut grown = Scores::new();
        grown.insert("b.t".into(), 0.5);
        grown.insert("a.t".into(), 0.25);
        grown.insert("b.t".into(), 0.75);
        assert_eq!(grown, s);
        assert_eq!(format!("{s:?}"), r#"{"b.t": 0.75, "a.t": 0.25}"#);
    }
}
