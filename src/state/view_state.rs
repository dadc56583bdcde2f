//! Every view's state as one value that round-trips through the page's query string, so a
//! copied link reopens the same view. Defaults are left out of the query to keep links short.

use super::params::{Pairs, UrlParams, hash_prefix, non_empty};
use super::view_list::for_each_view;

/// Declares [`Tab`] and [`ViewState`] from the view list (`super::view_list`).
macro_rules! tabs_and_state {
    ($($folder:ident: $tab:ident = $key:literal $(, keys $params:path)?;)*) => {
        /// A view of the dashboard: its identity and its URL key. Its label, order, code and
        /// what it waits for are the view registry's (`pages::registry`).
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub enum Tab {
            $(
                #[doc = concat!("The view of `pages/", stringify!($folder), "/` (`tab=", $key, "`).")]
                $tab,
            )*
        }

        impl Tab {
            /// Every tab, in the view list's order (the tab strip's).
            pub const ALL: &[Tab] = &[$(Tab::$tab,)*];

            /// The query value.
            pub fn key(self) -> &'static str {
                match self {
                    $(Tab::$tab => $key,)*
                }
            }

            /// The tab whose query value is `key`.
            pub fn from_key(key: &str) -> Option<Tab> {
                match key {
                    $($key => Some(Tab::$tab),)*
                    _ => None,
                }
            }
        }

        /// The state of every view. `ViewState::default()` is the landing view of a bundle.
        /// The keys every view shares are the fields written out here; each view with keys of
        /// its own has a field named after its folder, of its params type
        /// (`pages/<view>/url.rs`).
        #[derive(Debug, Clone, PartialEq, Default)]
        pub struct ViewState {
            /// `bundle`: where the bundle lives (relative or absolute URL); `None` = start page.
            pub bundle: Option<String>,
            /// `h`: the first 12 hex characters of the bundle's content hash the link was made for.
            pub hash: Option<String>,
            /// `tab`.
            pub tab: Tab,
            /// `corpus`: one corpus, or `None` for all.
            pub corpus: Option<String>,
            /// `models`: model keys to show (empty = all).
            pub models: Vec<String>,
            $($(
                #[doc = concat!("The ", $key, " view's own keys.")]
                pub $folder: $params,
            )?)*
            /// `jev`: where the Jev-compatible proxy lives (`None` = this page's origin).
            pub jev: Option<String>,
            /// `ov`: label overrides carried by the link (encoded by the re-label panel's owner).
            pub overrides: Option<String>,
        }

        impl ViewState {
            /// Takes `key=value` when it is one of a view's own keys.
            fn read_view_key(&mut self, key: &str, value: &str) -> bool {
                false $($(|| <$params as UrlParams>::read(&mut self.$folder, key, value))?)*
            }

            /// Each view's own keys that differ from its defaults, in the view list's order.
            fn write_view_keys(&self, out: &mut Pairs) {
                $($(<$params as UrlParams>::write(&self.$folder, out);)?)*
            }
        }
    };
}

for_each_view!(tabs_and_state);

impl Default for Tab {
    /// The first view of the list (the leaderboard, the landing view).
    fn default() -> Tab {
        Tab::ALL[0]
    }
}

impl ViewState {
    /// Reads the state from query pairs (already percent-decoded). Unknown keys are ignored;
    /// values that do not parse keep their defaults, so a hand-edited link never breaks the page.
    pub fn from_pairs<'a>(pairs: impl IntoIterator<Item = (&'a str, &'a str)>) -> ViewState {
        let mut s = ViewState::default();
        let mut tab = None;
        for (key, value) in pairs {
            match key {
                "bundle" => s.bundle = non_empty(value),
                "h" => s.hash = hash_prefix(value),
                "tab" => tab = Some(Tab::from_key(value).unwrap_or_default()),
                "corpus" => s.corpus = non_empty(value),
                "models" => {
                    s.models = value.split(',').filter_map(non_empty).collect();
                }
                "jev" => s.jev = non_empty(value),
                "ov" => s.overrides = non_empty(value),
                _ => {
                    let _taken = s.read_view_key(key, value);
                }
            }
        }
        s.tab = tab.unwrap_or_else(|| s.default_tab());
        s
    }

    /// The view a link without `tab` opens: the compare view when it names a run to compare
    /// with (`?bundle=A&compare=B`), else the landing view.
    pub fn default_tab(&self) -> Tab {
        if self.compare.url.is_some() {
            Tab::Compare
        } else {
            Tab::default()
        }
    }

    /// The query pairs that differ from the defaults, in a fixed order: the shared keys,
    /// each view's, then `jev` and `ov`.
    pub fn to_pairs(&self) -> Vec<(&'static str, String)> {
        let mut out = Pairs::default();
        out.put("bundle", self.bundle.clone());
        out.put("h", self.hash.clone());
        out.put(
            "tab",
            (self.tab != self.default_tab()).then(|| self.tab.key().to_owned()),
        );
        out.put("corpus", self.corpus.clone());
        out.put(
            "models",
            (!self.models.is_empty()).then(|| self.models.join(",")),
        );
        self.write_view_keys(&mut out);
        out.put("jev", self.jev.clone());
        out.put("ov", self.overrides.clone());
        out.0
    }

    /// Whether `model` is shown under the model selection.
    pub fn shows_model(&self, model: &str) -> bool {
        self.models.is_empty() || self.models.iter().any(|m| m == model)
    }

    /// Whether `corpus` is shown under the corpus selection.
    pub fn shows_corpus(&self, corpus: &str) -> bool {
        self.corpus.as_deref().is_none_or(|c| c == corpus)
    }

    /// Opens the trajectory of `model` on `trace` in `corpus`; `from` names the list `j` / `k`
    /// walk (`failures`, `audit`, `gate`, `question`).
    pub fn open_cell(&mut self, corpus: &str, model: &str, trace: &str, from: &str) {
        self.tab = Tab::Trajectory;
        self.corpus = Some(corpus.to_owned());
        self.trajectory.model = Some(model.to_owned());
        self.trajectory.trace = Some(trace.to_owned());
        self.trajectory.from = Some(from.to_owned());
    }
}
