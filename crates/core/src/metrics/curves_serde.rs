//! [`RetrievalCurves`] in JSON: `n_questions`, `k`, then one list per registry metric under
//! its key, so a metric added to the registry appears in `runlens metrics --json` by itself.

use std::fmt;

use serde::de::{self, IgnoredAny, MapAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::{RANKING_METRICS, RetrievalCurves};

impl Serialize for RetrievalCurves {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(2 + RANKING_METRICS.len()))?;
        map.serialize_entry("n_questions", &self.n_questions)?;
        map.serialize_entry("k", &self.k)?;
        for (metric, curve) in self.series() {
            map.serialize_entry(metric.key, curve)?;
        }
        map.end()
    }
}

impl<'de> Deserialize<'de> for RetrievalCurves {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_map(CurvesVisitor)
    }
}

struct CurvesVisitor;

impl<'de> Visitor<'de> for CurvesVisitor {
    type Value = RetrievalCurves;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("retrieval curves: n_questions, k and one list per ranking metric")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<RetrievalCurves, A::Error> {
        let mut n_questions = None;
        let mut k = None;
        let mut values: Vec<Option<Vec<f64>>> = vec![None; RANKING_METRICS.len()];
        while let Some(key) = map.next_key::<String>()? {
            if key == "n_questions" {
                n_questions = Some(map.next_value()?);
            } else if key == "k" {
                k = Some(map.next_value()?);
            } else if let Some(i) = RANKING_METRICS.iter().position(|m| m.key == key) {
                values[i] = Some(map.next_value()?);
            } else {
                map.next_value::<IgnoredAny>()?;
            }
        }
        let values = RANKING_METRICS
            .iter()
            .zip(values)
            .map(|(m, v)| v.ok_or_else(|| de::Error::missing_field(m.key)))
            .collect::<Result<_, _>>()?;
        Ok(RetrievalCurves {
            n_questions: n_questions.ok_or_else(|| de::Error::missing_field("n_questions"))?,
            k: k.ok_or_else(|| de::Error::missing_field("k"))?,
            values,
        })
    }
}
