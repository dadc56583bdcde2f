//! How each view's own keys in the page address are read and written. Each view keeps its
//! keys in its own folder, `pages/<view>/url.rs`: a struct with its defaults that reads its
//! keys ([`UrlParams::read`]) and writes those that differ from the defaults
//! ([`UrlParams::write`]). Those files belong to this layer (`src/layers.txt`: they import
//! only from here and below, so the address can be read below the pages). [`super::ViewState`]
//! holds one of each beside the keys every view shares (`state` re-exports their types). A value that does not parse keeps the
//! default, so a hand-edited link never breaks the page.

/// A column sort: the column key and its direction.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sort {
    /// Column key.
    pub column: String,
    /// Descending when true.
    pub descending: bool,
}

impl Sort {
    /// Parses `column` (ascending) or `-column` (descending).
    pub fn parse(s: &str) -> Option<Sort> {
        let (descending, column) = match s.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, s),
        };
        (!column.is_empty()).then(|| Sort {
            column: column.to_owned(),
            descending,
        })
    }

    /// The query form: `column` or `-column`.
    pub fn to_param(&self) -> String {
        if self.descending {
            format!("-{}", self.column)
        } else {
            self.column.clone()
        }
    }
}

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

/// A link's content-hash prefix (`h`, `ch`): lower-case hex, `None` when empty or not hex.
pub fn hash_prefix(v: &str) -> Option<String> {
    Some(v.trim().to_ascii_lowercase())
        .filter(|h| !h.is_empty() && h.chars().all(|c| c.is_ascii_hexdigit()))
}

/// Sets `target` to `value` when it parses as a number in 0..=1.
pub fn set_probability(target: &mut f64, value: &str) {
    if let Ok(v) = value.parse::<f64>()
        && (0.0..=1.0).contains(&v)
    {
        *target = v;
    }
}
