//! A ranking row's stored scores (table → P(needed), in stored order) as plain lists.
//!
//! An `IndexMap` keeps a hash table beside its entries: for the 710 scores of every `large`
//! ranking row that was a third of the row. Every reader walks the scores in rank order (the
//! order they are stored in), so a lookup starts where the last one ended and is one
//! comparison in that walk; any other lookup is a scan.
//!
//! The tables are, as a rule, the row's `ranked` in the same order: then the scores keep no
//! names of their own ([`Scores::share_names`]) and are read through the row
//! ([`super::RankingRow::scores`]). Stored to 4 dp, the values are kept as ten-thousandths
//! when every one is exactly such a number (2 bytes instead of 8; any other value keeps all
//! of them as they are).

use std::fmt;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

use serde::de::{MapAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::Name;

/// The values, in stored order.
#[derive(Clone)]
enum Values {
    /// Each value is `n / 10000` exactly (bit for bit).
    TenThousandths(Vec<u16>),
    /// As stored.
    Exact(Vec<f64>),
}

impl Values {
    fn of(values: Vec<f64>) -> Values {
        let small: Option<Vec<u16>> = values
            .iter()
            .map(|&p| {
                let n = (p * 1e4).round();
                (0.0..=f64::from(u16::MAX))
                    .contains(&n)
                    .then_some(n as u16)
                    .filter(|&n| (f64::from(n) / 1e4).to_bits() == p.to_bits())
            })
            .collect();
        match small {
            Some(small) => Values::TenThousandths(small),
            None => Values::Exact(values),
        }
    }

    fn get(&self, i: usize) -> Option<f64> {
        match self {
            Values::TenThousandths(v) => v.get(i).map(|&n| f64::from(n) / 1e4),
            Values::Exact(v) => v.get(i).copied(),
        }
    }

    fn len(&self) -> usize {
        match self {
            Values::TenThousandths(v) => v.len(),
            Values::Exact(v) => v.len(),
        }
    }
}

/// Table → score, in stored order; a table appears once (a repeated key keeps its first
/// place and its last value, as a JSON object read into a map does). Reads as a JSON object;
/// read it through its row ([`super::RankingRow::scores`]), which knows its tables.
pub struct Scores {
    /// The tables, in stored order; `None`: the row's `ranked`, in its order.
    names: Option<Vec<Name>>,
    values: Values,
    /// Where the next lookup starts: one past the last one found.
    next: AtomicUsize,
}

impl Default for Scores {
    fn default() -> Self {
        Scores {
            names: Some(Vec::new()),
            values: Values::TenThousandths(Vec::new()),
            next: AtomicUsize::new(0),
        }
    }
}

impl Scores {
    /// No scores.
    pub fn new() -> Self {
        Scores::default()
    }

    /// Number of tables scored.
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// True with no scores.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The scores with their tables: their own, or `ranked` (the row's) when they keep none.
    pub fn with<'a>(&'a self, ranked: &'a [Name]) -> ScoresOf<'a> {
        ScoresOf {
            names: self.names.as_deref().unwrap_or(ranked),
            scores: self,
        }
    }

    /// Drops the tables' names when they are `ranked`'s, in its order (as a rule); else makes
    /// each name share its copy with `ranked` (names not in `ranked` keep their own).
    pub fn share_names(&mut self, ranked: &[Name]) {
        let Some(names) = self.names.as_mut() else {
            return;
        };
        if *names == ranked {
            self.names = None;
            return;
        }
        let mut by_name: Option<std::collections::HashMap<&str, &Name>> = None;
        for (i, key) in names.iter_mut().enumerate() {
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

/// A row's scores with their tables ([`Scores::with`]).
#[derive(Clone, Copy)]
pub struct ScoresOf<'a> {
    names: &'a [Name],
    scores: &'a Scores,
}

impl<'a> ScoresOf<'a> {
    /// Number of tables scored.
    pub fn len(self) -> usize {
        self.scores.len()
    }

    /// True with no scores.
    pub fn is_empty(self) -> bool {
        self.scores.is_empty()
    }

    /// The score of `table`, if stored.
    pub fn get(self, table: &str) -> Option<f64> {
        let n = self.len().min(self.names.len());
        let start = self.scores.next.load(Relaxed).min(n);
        let found = (start..n)
            .chain(0..start)
            .find(|&i| *self.names[i] == *table)?;
        self.scores.next.store(found + 1, Relaxed);
        self.scores.values.get(found)
    }

    /// The tables and their scores, in stored order.
    pub fn iter(self) -> impl Iterator<Item = (&'a Name, f64)> {
        let values = &self.scores.values;
        self.names
            .iter()
            .enumerate()
            .filter_map(move |(i, t)| Some((t, values.get(i)?)))
    }

    /// The tables, in stored order.
    pub fn keys(self) -> impl Iterator<Item = &'a Name> {
        self.names.iter().take(self.len())
    }
}

impl PartialEq for ScoresOf<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

impl fmt::Debug for ScoresOf<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

impl Serialize for ScoresOf<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.len()))?;
        for (t, p) in self.iter() {
            map.serialize_entry(&**t, &p)?;
        }
        map.end()
    }
}

impl Clone for Scores {
    fn clone(&self) -> Self {
        Scores {
            names: self.names.clone(),
            values: self.values.clone(),
            next: AtomicUsize::new(0),
        }
    }
}

impl fmt::Debug for Scores {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.names {
            Some(names) => self.with(names).fmt(f),
            None => write!(f, "<{} scores of the ranked tables>", self.len()),
        }
    }
}

impl FromIterator<(Name, f64)> for Scores {
    fn from_iter<I: IntoIterator<Item = (Name, f64)>>(iter: I) -> Self {
        let mut names: Vec<Name> = Vec::new();
        let mut values: Vec<f64> = Vec::new();
        // Where each table already is, to keep a repeated one in its first place.
        let mut at: std::collections::HashMap<Name, usize> = std::collections::HashMap::new();
        for (table, p) in iter {
            match at.get(&table) {
                Some(&i) => values[i] = p,
                None => {
                    at.insert(Name::clone(&table), names.len());
                    names.push(table);
                    values.push(p);
                }
            }
        }
        names.shrink_to_fit();
        values.shrink_to_fit();
        Scores {
            names: Some(names),
            values: Values::of(values),
            next: AtomicUsize::new(0),
        }
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

    fn own(s: &Scores) -> ScoresOf<'_> {
        s.with(&[])
    }

    #[test]
    fn lookups_in_rank_order_out_of_order_and_missing() {
        let s = scores(&[("a.x", 0.9), ("a.y", 0.5), ("a.z", 0.25)]);
        let s = own(&s);
        // Down the ranking, as readers walk it.
        assert_eq!(
            ["a.x", "a.y", "a.z"].map(|t| s.get(t)),
            [Some(0.9), Some(0.5), Some(0.25)]
        );
        // Back up, again, and a table with no score.
        assert_eq!(s.get("a.x"), Some(0.9));
        assert_eq!(s.get("a.z"), Some(0.25));
        assert_eq!(s.get("a.y"), Some(0.5));
        assert_eq!(s.get("b.q"), None);
        assert_eq!(s.get("a.y"), Some(0.5));
        assert_eq!(own(&scores(&[])).get("a.x"), None);
    }

    #[test]
    fn json_round_trip_keeps_order_and_a_repeated_key_keeps_its_place_with_the_last_value() {
        let s: Scores = serde_json::from_str(r#"{"b.t": 0.5, "a.t": 0.25, "b.t": 0.75}"#).unwrap();
        assert_eq!(s.len(), 2);
        assert_eq!(
            serde_json::to_string(&own(&s)).unwrap(),
            r#"{"b.t":0.75,"a.t":0.25}"#
        );
        // The same as an IndexMap reads it.
        let m: indexmap::IndexMap<String, f64> =
            serde_json::from_str(r#"{"b.t": 0.5, "a.t": 0.25, "b.t": 0.75}"#).unwrap();
        assert_eq!(
            serde_json::to_string(&m).unwrap(),
            serde_json::to_string(&own(&s)).unwrap()
        );
        assert!(serde_json::from_str::<Scores>(r#"{"a.t": "high"}"#).is_err());
        assert_eq!(format!("{s:?}"), r#"{"b.t": 0.75, "a.t": 0.25}"#);
    }

    #[test]
    fn values_are_kept_as_ten_thousandths_only_when_each_is_one_bit_for_bit() {
        // Stored to 4 dp, as Jev writes them: 2 bytes a value, read back bit for bit.
        let four_dp = [0.9097, 0.0299, 0.0, 1.0, 0.5, 0.0001, 6.5535];
        let tables = ["a", "b", "c", "d", "e", "f", "g"];
        let s = scores(&tables.into_iter().zip(four_dp).collect::<Vec<_>>());
        assert!(matches!(s.values, Values::TenThousandths(_)));
        let back: Vec<f64> = own(&s).iter().map(|(_, p)| p).collect();
        assert_eq!(
            back.iter().map(|p| p.to_bits()).collect::<Vec<_>>(),
            four_dp.map(f64::to_bits)
        );
        // Any other value (more digits, negative zero, past 6.5535, negative) keeps them all.
        for odd in [0.12345, -0.0, 6.5536, -0.5, f64::NAN, 0.1 + 0.2] {
            let s = scores(&[("a", 0.5), ("b", odd)]);
            assert!(matches!(s.values, Values::Exact(_)), "{odd}");
            let back: Vec<u64> = own(&s).iter().map(|(_, p)| p.to_bits()).collect();
            assert_eq!(back, [0.5f64.to_bits(), odd.to_bits()], "{odd}");
        }
    }
}
