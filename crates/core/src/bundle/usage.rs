//! A run's token usage (harness-formats.md §3.4), its eight counts packed.
//!
//! Every cell and both arms of every gate row carry one. Eight `Option<u64>` are 128 bytes
//! (an `Option<u64>` is 16); eight numbers and a byte saying which are present are 72. The
//! counts read through accessors named as the harness names them; JSON reads and writes
//! exactly as the plain struct did (`UsageWire`).

use std::borrow::Cow;
use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::Extra;

/// The eight counts of a usage block, each as written or absent (never read as zero).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct UsageCounts {
    /// Uncached prompt tokens.
    pub prompt_tokens: Option<u64>,
    /// Output tokens (reasoning included).
    pub completion_tokens: Option<u64>,
    /// Reasoning tokens, a breakdown of `completion_tokens`.
    pub reasoning_tokens: Option<u64>,
    /// Prompt tokens read from cache.
    pub cache_read_tokens: Option<u64>,
    /// Prompt tokens written to cache.
    pub cache_write_tokens: Option<u64>,
    /// prompt + completion + cache_read + cache_write.
    pub total_tokens: Option<u64>,
    /// Model calls made.
    pub api_calls: Option<u64>,
    /// Calls whose usage was missing (the gap between `api_calls` and `per_turn`).
    pub calls_missing_usage: Option<u64>,
}

impl UsageCounts {
    /// The counts in this struct's order (the order [`Usage`] stores them in).
    fn to_array(self) -> [Option<u64>; 8] {
        [
            self.prompt_tokens,
            self.completion_tokens,
            self.reasoning_tokens,
            self.cache_read_tokens,
            self.cache_write_tokens,
            self.total_tokens,
            self.api_calls,
            self.calls_missing_usage,
        ]
    }

    /// [`UsageCounts::to_array`] back.
    fn from_array(c: [Option<u64>; 8]) -> UsageCounts {
        let [
            prompt_tokens,
            completion_tokens,
            reasoning_tokens,
            cache_read_tokens,
            cache_write_tokens,
            total_tokens,
            api_calls,
            calls_missing_usage,
        ] = c;
        UsageCounts {
            prompt_tokens,
            completion_tokens,
            reasoning_tokens,
            cache_read_tokens,
            cache_write_tokens,
            total_tokens,
            api_calls,
            calls_missing_usage,
        }
    }
}

/// Token usage of a run (§3.4). Totals are lower bounds when `calls_missing_usage > 0`.
///
/// `prompt`, `cache_read` and `cache_write` are disjoint; `reasoning` is inside `completion`.
/// Made from [`UsageCounts`] (`Usage::from`); each count reads through its accessor.
#[derive(Clone, PartialEq, Default)]
pub struct Usage {
    /// The counts in [`UsageCounts`]' order; 0 where absent (so equal usages compare equal).
    values: [u64; 8],
    /// Bit `i`: count `i` is present.
    present: u8,
    /// `[prompt, completion, reasoning, cache_read, cache_write]` per call that reported
    /// usage, in call order; `None` for the older `bench.py` usage block.
    pub per_turn: Option<Vec<[u64; 5]>>,
    /// Unknown fields, kept verbatim.
    pub extra: Extra,
}

macro_rules! count {
    ($($(#[$doc:meta])* $name:ident = $i:literal;)*) => {
        impl Usage {
            $(
                $(#[$doc])*
                pub fn $name(&self) -> Option<u64> {
                    self.get($i)
                }
            )*
        }
    };
}

count! {
    /// Uncached prompt tokens.
    prompt_tokens = 0;
    /// Output tokens (reasoning included).
    completion_tokens = 1;
    /// Reasoning tokens, a breakdown of `completion_tokens`.
    reasoning_tokens = 2;
    /// Prompt tokens read from cache.
    cache_read_tokens = 3;
    /// Prompt tokens written to cache.
    cache_write_tokens = 4;
    /// prompt + completion + cache_read + cache_write.
    total_tokens = 5;
    /// Model calls made.
    api_calls = 6;
    /// Calls whose usage was missing (the gap between `api_calls` and `per_turn`).
    calls_missing_usage = 7;
}

impl Usage {
    fn get(&self, i: usize) -> Option<u64> {
        (self.present & (1 << i) != 0).then_some(self.values[i])
    }

    /// The eight counts.
    pub fn counts(&self) -> UsageCounts {
        UsageCounts::from_array(std::array::from_fn(|i| self.get(i)))
    }

    /// Replaces the eight counts.
    pub fn set_counts(&mut self, counts: UsageCounts) {
        self.values = [0; 8];
        self.present = 0;
        for (i, c) in counts.to_array().into_iter().enumerate() {
            if let Some(v) = c {
                self.values[i] = v;
                self.present |= 1 << i;
            }
        }
    }

    /// The same counts with per-call usage `per_turn`.
    pub fn with_per_turn(mut self, per_turn: Vec<[u64; 5]>) -> Usage {
        self.per_turn = Some(per_turn);
        self
    }

    /// True with no count, no per-call usage and no unknown field.
    pub fn is_empty(&self) -> bool {
        self.present == 0 && self.per_turn.is_none() && self.extra.is_empty()
    }
}

impl From<UsageCounts> for Usage {
    fn from(counts: UsageCounts) -> Usage {
        let mut usage = Usage::default();
        usage.set_counts(counts);
        usage
    }
}

impl fmt::Debug for Usage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let c = self.counts();
        f.debug_struct("Usage")
            .field("prompt_tokens", &c.prompt_tokens)
            .field("completion_tokens", &c.completion_tokens)
            .field("reasoning_tokens", &c.reasoning_tokens)
            .field("cache_read_tokens", &c.cache_read_tokens)
            .field("cache_write_tokens", &c.cache_write_tokens)
            .field("total_tokens", &c.total_tokens)
            .field("api_calls", &c.api_calls)
            .field("per_turn", &self.per_turn)
            .field("calls_missing_usage", &c.calls_missing_usage)
            .field("extra", &self.extra)
            .finish()
    }
}

/// The usage block as written and read: the harness's field order, absent fields left out.
/// Written borrowing `per_turn` and `extra`, read owning them.
#[derive(Serialize, Deserialize)]
struct UsageWire<'a> {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    prompt_tokens: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    completion_tokens: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    reasoning_tokens: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    cache_read_tokens: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    cache_write_tokens: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    total_tokens: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    api_calls: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    per_turn: Cow<'a, Option<Vec<[u64; 5]>>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    calls_missing_usage: Option<u64>,
    #[serde(default, skip_serializing_if = "Extra::is_empty")]
    extra: Cow<'a, Extra>,
}

impl<'a> UsageWire<'a> {
    fn new(c: UsageCounts, per_turn: &'a Option<Vec<[u64; 5]>>, extra: &'a Extra) -> Self {
        UsageWire {
            prompt_tokens: c.prompt_tokens,
            completion_tokens: c.completion_tokens,
            reasoning_tokens: c.reasoning_tokens,
            cache_read_tokens: c.cache_read_tokens,
            cache_write_tokens: c.cache_write_tokens,
            total_tokens: c.total_tokens,
            api_calls: c.api_calls,
            per_turn: Cow::Borrowed(per_turn),
            calls_missing_usage: c.calls_missing_usage,
            extra: Cow::Borrowed(extra),
        }
    }

    fn counts(&self) -> UsageCounts {
        UsageCounts {
            prompt_tokens: self.prompt_tokens,
            completion_tokens: self.completion_tokens,
            reasoning_tokens: self.reasoning_tokens,
            cache_read_tokens: self.cache_read_tokens,
            cache_write_tokens: self.cache_write_tokens,
            total_tokens: self.total_tokens,
            api_calls: self.api_calls,
            calls_missing_usage: self.calls_missing_usage,
        }
    }
}

impl Serialize for Usage {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        UsageWire::new(self.counts(), &self.per_turn, &self.extra).serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Usage {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let wire = UsageWire::deserialize(deserializer)?;
        let mut usage = Usage::from(wire.counts());
        usage.per_turn = wire.per_turn.into_owned();
        usage.extra = wire.extra.into_owned();
        Ok(usage)
    }
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;

    #[test]
    fn counts_round_trip_and_absent_is_not_zero() {
        let counts = UsageCounts {
            prompt_tokens: Some(0),
            completion_tokens: Some(u64::MAX),
            calls_missing_usage: Some(1),
            ..UsageCounts::default()
        };
        let u = Usage::from(counts);
        assert_eq!(u.counts(), counts);
        assert_eq!(u.prompt_tokens(), Some(0));
        assert_eq!(u.reasoning_tokens(), None);
        assert_eq!(u.completion_tokens(), Some(u64::MAX));
        assert_ne!(u, Usage::default());
        // Made again from no counts, it equals one never given any.
        let mut cleared = u.clone();
        cleared.set_counts(UsageCounts::default());
        assert_eq!(cleared, Usage::default());
        assert!(cleared.is_empty());
        assert!(std::mem::size_of::<Usage>() < std::mem::size_of::<UsageCounts>());
    }

    #[test]
    fn json_is_the_harness_block_field_for_field() {
        let text = r#"{"prompt_tokens":10,"completion_tokens":5,"reasoning_tokens":0,"total_tokens":15,"api_calls":2,"per_turn":[[6,3,0,0,0],[4,2,0,0,0]],"calls_missing_usage":0}"#;
        let u: Usage = serde_json::from_str(text).unwrap();
        assert_eq!(u.total_tokens(), Some(15));
        assert_eq!(u.cache_read_tokens(), None);
        assert_eq!(serde_json::to_string(&u).unwrap(), text);
        // Nulls read as absent; an empty block writes as {}.
        let u: Usage = serde_json::from_str(r#"{"prompt_tokens":null}"#).unwrap();
        assert_eq!(u, Usage::default());
        assert_eq!(serde_json::to_string(&u).unwrap(), "{}");
        assert!(serde_json::from_str::<Usage>(r#"{"prompt_tokens":-1}"#).is_err());
    }
}
