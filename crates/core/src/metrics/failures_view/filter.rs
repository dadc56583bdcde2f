//! The clicked-element filter `f=kind:value` of the failures view's list.

use super::rows::{BINS, FailRow, Labelled};
use crate::metrics::failures::{MISSING, NO_FAMILY, histogram_bin};
use crate::metrics::taxonomy::{FmBucket, bucket_of, family_of};

/// A parsed `f` value.
#[derive(Debug, Clone, PartialEq)]
pub enum Filter {
    /// `sub_mode:<key>` (`(missing)` for a label without one).
    SubMode(String),
    /// `family:<name>` (`(none)` for unknown sub-modes).
    Family(String),
    /// `bucket:<label>`, e.g. `bucket:FM3 wrong data`.
    Bucket(String),
    /// `fm:<FMn>`: the cell's 07 FM label.
    Fm(String),
    /// `rule:<rule>`: blamed rule (`prevented_by_rule`, `none` included) or a decidable rule
    /// the code found violated.
    Rule(String),
    /// `cdf:<bin>`: `correct_despite_fail` in histogram bin `bin` (0..20).
    Cdf(usize),
    /// `hint:<bin>`: `schema_hint_would_help` in histogram bin `bin`.
    Hint(usize),
    /// `<filter>|model:<key>`: an element of one model's row (a segment of the per-model
    /// profile, a cell of the FM heatmap): `filter` among that model's failures.
    InModel(Box<Filter>, String),
}

/// Joins an element filter and the model of its row: `family:process|model:gpt-4.1`.
pub const MODEL_SEP: &str = "|model:";

impl Filter {
    /// Parses `kind:value` or `kind:value|model:<key>`; `None` for an unknown kind or a bad
    /// bin.
    pub fn parse(f: &str) -> Option<Filter> {
        if let Some((element, model)) = f.split_once(MODEL_SEP) {
            let element = Self::parse_element(element)?;
            return Some(Filter::InModel(Box::new(element), model.to_owned()));
        }
        Self::parse_element(f)
    }

    fn parse_element(f: &str) -> Option<Filter> {
        let (kind, value) = f.split_once(':')?;
        let v = value.to_owned();
        let bin = || value.parse::<usize>().ok().filter(|b| *b < BINS);
        Some(match kind {
            "sub_mode" => Filter::SubMode(v),
            "family" => Filter::Family(v),
            "bucket" => Filter::Bucket(v),
            "fm" => Filter::Fm(v),
            "rule" => Filter::Rule(v),
            "cdf" => Filter::Cdf(bin()?),
            "hint" => Filter::Hint(bin()?),
            _ => return None,
        })
    }

    /// What it keeps, in words: `wrong_filter`, `family schema_choice`, `FM3`, `rule
    /// crm_join`, `correct_despite_fail 0.40–0.45`, `wrong_table of gpt-4.1`.
    pub fn describe(&self) -> String {
        let bin = |b: usize| {
            let w = 1.0 / BINS as f64;
            format!("{:.2}–{:.2}", b as f64 * w, (b + 1) as f64 * w)
        };
        match self {
            Filter::SubMode(k) => k.clone(),
            Filter::Family(f) => format!("family {f}"),
            Filter::Bucket(b) => b.clone(),
            Filter::Fm(code) => code.clone(),
            Filter::Rule(r) => format!("rule {r}"),
            Filter::Cdf(b) => format!("correct_despite_fail {}", bin(*b)),
            Filter::Hint(b) => format!("schema_hint_would_help {}", bin(*b)),
            Filter::InModel(element, model) => format!("{} of {model}", element.describe()),
        }
    }

    /// Whether `row` matches.
    pub fn matches(&self, b: Labelled<'_>, row: &FailRow) -> bool {
        let Some((c, l)) = b.row(row) else {
            return false;
        };
        let sub = l.sub_mode.as_deref();
        match self {
            Filter::SubMode(k) => sub.unwrap_or(MISSING) == k,
            Filter::Family(f) => sub.and_then(family_of).unwrap_or(NO_FAMILY) == f,
            Filter::Bucket(label) => {
                sub.map_or(FmBucket::NotAModelFailure, bucket_of).label() == label
            }
            Filter::Fm(code) => row
                .fm
                .and_then(|i| c.fm_labels.get(i))
                .is_some_and(|f| f.fm == *code),
            Filter::Rule(r) => {
                l.prevented_by_rule.as_deref() == Some(r.as_str())
                    || l.decidable()
                        .and_then(|m| m.get(r))
                        .is_some_and(|v| v == "violation")
            }
            Filter::Cdf(bin) => l.correct_despite_fail.and_then(bin_of) == Some(*bin),
            Filter::Hint(bin) => l.schema_hint_would_help.and_then(bin_of) == Some(*bin),
            Filter::InModel(element, model) => l.model == *model && element.matches(b, row),
        }
    }
}

/// The histogram bin of a probability: `failures::histogram_bin` with 20 bins on [0, 1],
/// the bins the charts count in.
pub fn bin_of(v: f64) -> Option<usize> {
    histogram_bin(v, BINS, 0.0, 1.0)
}
