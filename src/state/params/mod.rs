//! Each view's own keys in the page address: one file per view, each a struct with its
//! defaults that reads its keys ([`UrlParams::read`]) and writes those that differ from the
//! defaults ([`UrlParams::write`]). [`super::ViewState`] holds one of each beside the keys
//! every view shares. A value that does not parse keeps the default, so a hand-edited link
//! never breaks the page.

mod board;
mod failures;
mod gate;
mod matrix;
mod ranking;
mod trajectory;

pub use board::BoardParams;
pub use failures::{DEFAULT_CDF_THRESHOLD, FailuresParams};
pub use gate::GateParams;
pub use matrix::MatrixParams;
pub use ranking::{DEFAULT_K, DEFAULT_THRESHOLD, RankingParams, Sort};
pub use trajectory::TrajectoryParams;

/// A view's keys in the page address.
pub trait UrlParams: Default {
    /// Takes `key=value` (already percent-decoded) when `key` is one of this view's keys.
    fn read(&mut self, key: &str, value: &str) -> bool;
    /// The pairs that differ from the defaults, in a fixed order.
    fn write(&self, out: &mut Pairs);
}

/// Query pairs being written.
#[derive(Debug, Default)]
pub struct Pairs(pub Vec<(&'static str, String)>);

impl Pairs {
    /// Adds `key=value` when there is a value.
    pub fn put(&mut self, key: &'static str, value: Option<String>) {
        if let Some(v) = value {
            self.0.push((key, v));
        }
    }

    /// Adds `key=1` when `on`.
    pub fn flag(&mut self, key: &'static str, on: bool) {
        self.put(key, on.then(|| "1".to_owned()));
    }

    /// Adds `key=value` when `value` differs from `default`.
    pub fn differs<T: PartialEq + ToString>(&mut self, key: &'static str, value: &T, default: &T) {
        self.put(key, (value != default).then(|| value.to_string()));
    }
}

/// The trimmed value, `None` when empty.
pub fn non_empty(v: &str) -> Option<String> {
    let v = v.trim();
    (!v.is_empty()).then(|| v.to_owned())
}

/// Sets `target` to `value` when it parses as a number in 0..=1.
pub fn set_probability(target: &mut f64, value: &str) {
    if let Ok(v) = value.parse::<f64>()
        && (0.0..=1.0).contains(&v)
    {
        *target = v;
    }
}
