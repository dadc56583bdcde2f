//! The one owner of label overrides (issue 7, "Apply"): an [`OverridesFile`] signal for the
//! open bundle. The views carry the re-labels in force in their questions
//! ([`relabels_in_force`]); no copy of the bundle with them applied is made.
//!
//! Overrides persist in `localStorage` under [`storage_key`] and, while small, in the link's
//! `ov=` (see [`super::ov_link`]). A link's `ov=` wins over the stored copy, but only for the
//! view: the link's overrides are *shared* ones, shown and carried in later links, never
//! saved in this browser until the reader keeps them ([`OverridesState::keep_shared`]) or
//! sets them aside for their own saved ones ([`OverridesState::set_shared_aside`]).

use std::sync::Arc;

use leptos::prelude::*;
use runlens_core::bundle::{Bundle, FailureLabel};
use runlens_core::overrides::{
    LabelOverride, OverridesFile, Relabel, WhatChanged, apply_overrides,
};

use super::UrlState;
use super::ov_link::{decode_overrides, is_link_of, link_of};
use crate::chunks::split_call;
use crate::derived::answers::{ViewQuery, ask};

/// Handle on the overrides of the open bundle (a context; cheap to copy).
#[derive(Debug, Clone, Copy)]
pub struct OverridesState {
    /// The bundle as loaded.
    pub base: StoredValue<Arc<Bundle>>,
    /// The overrides in force.
    pub file: RwSignal<OverridesFile>,
    /// The last change: corpus and what changed (shown after Apply / import).
    pub last_change: RwSignal<Option<(String, WhatChanged)>>,
    /// The cell (its override key) the last change was an Apply of; `None` after another
    /// kind of change (import, clear, a link).
    pub last_applied: RwSignal<Option<String>>,
    /// The last refusal (import of a bad file, a link for another bundle), in plain words.
    pub error: RwSignal<Option<String>>,
    /// The overrides in force came from the opened link's `ov=` and are not saved in this
    /// browser (its own saved overrides, if any, are set aside meanwhile).
    pub shared: RwSignal<bool>,
    /// The whole overrides file is too long to travel in a link (see `ov_link`).
    pub too_long_for_link: RwSignal<bool>,
}

/// The `localStorage` key of a bundle's overrides.
pub fn storage_key(content_hash: &str) -> String {
    format!("runlens-overrides:{content_hash}")
}

impl OverridesState {
    /// Creates the state for `base`, loads overrides from the link's `ov=` or from
    /// `localStorage`, keeps both up to date, and provides it as context.
    pub fn provide(base: Arc<Bundle>) -> OverridesState {
        let url = UrlState::use_context();
        let this = OverridesState::new(base);
        provide_context(this);
        let saved = this.saved();
        // A link carrying this browser's own saved overrides (a reload, a link of one's own)
        // is no shared one.
        let from_link = url.with_untracked(|s| s.overrides.clone());
        let initial = match &from_link {
            Some(value) => decode_overrides(value).map(Some),
            None => Ok(saved.clone()),
        };
        let from_link = from_link.filter(|_| match (&initial, &saved) {
            (Ok(Some(linked)), Some(saved)) => !is_link_of(linked, saved),
            _ => true,
        });
        match initial {
            Ok(Some(file)) => {
                // Set first: nothing of the link's may reach this browser's storage.
                this.shared.set(from_link.is_some());
                if let Err(e) = this.replace(file, "the link") {
                    this.shared.set(false);
                    this.error.set(Some(e));
                }
            }
            Ok(None) => {}
            Err(e) => this.error.set(Some(e)),
        }
        // The link follows the overrides; encoding them waits for its chunk, and an answer
        // for overrides changed meanwhile is dropped.
        Effect::new(move |_| {
            let file = this.file.get();
            if file.overrides.is_empty() {
                this.too_long_for_link.set(false);
                url.replace(|s| s.overrides = None);
                return;
            }
            leptos::task::spawn_local(async move {
                let Ok(link) = split_call!(link_of(&file)) else {
                    return;
                };
                if this.file.try_with_untracked(|f| *f == file) == Some(true) {
                    this.too_long_for_link.set(link.too_long);
                    url.replace(|s| s.overrides = link.value);
                }
            });
        });
        this
    }

    /// A state for `base` with no overrides (not provided, not persisted; tests).
    pub fn new(base: Arc<Bundle>) -> OverridesState {
        let file = RwSignal::new(OverridesFile::new(base.content_hash.clone()));
        OverridesState {
            base: StoredValue::new(base),
            file,
            last_change: RwSignal::new(None),
            last_applied: RwSignal::new(None),
            error: RwSignal::new(None),
            shared: RwSignal::new(false),
            too_long_for_link: RwSignal::new(false),
        }
    }

    /// Makes the link's overrides this browser's own: saves them (replacing any saved ones).
    pub fn keep_shared(&self) {
        self.shared.set(false);
        self.file.with_untracked(save);
    }

    /// Sets the link's overrides aside: this browser's saved overrides of the bundle (or
    /// none) come back in force, and later links carry those.
    pub fn set_shared_aside(&self) {
        let hash = self.base.with_value(|b| b.content_hash.clone());
        let own = self
            .saved()
            .unwrap_or_else(|| OverridesFile::new(hash.clone()));
        // "What changed" is told for the corpus of the first override either way.
        let first_corpus = |f: &OverridesFile| f.overrides.first().map(|o| o.corpus.clone());
        let corpus = first_corpus(&own)
            .or_else(|| self.file.with_untracked(first_corpus))
            .unwrap_or_default();
        self.shared.set(false);
        if let Err(e) = self.set_file(own, &corpus) {
            // Saved overrides that no longer apply: none are in force.
            let _ = self.set_file(OverridesFile::new(hash), &corpus);
            self.error.set(Some(format!("your saved overrides: {e}")));
        }
    }

    /// This browser's saved overrides of the open bundle, if any (readable ones).
    pub fn saved(&self) -> Option<OverridesFile> {
        let hash = self.base.with_value(|b| b.content_hash.clone());
        read_storage(&hash).and_then(|text| OverridesFile::from_json(&text).ok())
    }

    /// The state provided by [`OverridesState::provide`], if any.
    pub fn use_context() -> Option<OverridesState> {
        use_context::<OverridesState>()
    }

    /// Adds (or replaces, for the same cell) one override and records what changed.
    pub fn apply(&self, entry: LabelOverride) -> Result<(), String> {
        let mut next = self.file.get_untracked();
        next.overrides
            .retain(|o| !(o.key == entry.key && o.corpus == entry.corpus));
        let corpus = entry.corpus.clone();
        let key = entry.key.clone();
        next.overrides.push(entry);
        self.set_file(next, &corpus)?;
        self.last_applied.set(Some(key));
        Ok(())
    }

    /// Replaces every override by `file` (an import or a link) after checking that it was
    /// made on this bundle and applies cleanly; `source` names where it came from.
    pub fn replace(&self, file: OverridesFile, source: &str) -> Result<(), String> {
        let hash = self.base.with_value(|b| b.content_hash.clone());
        if !file.matches_bundle(&hash) {
            return Err(format!(
                "{source}: these overrides were made on bundle {}, not on the open bundle {}; \
                 they were not applied",
                short(&file.bundle_hash),
                short(&hash)
            ));
        }
        let corpus = file
            .overrides
            .first()
            .map(|o| o.corpus.clone())
            .unwrap_or_default();
        self.set_file(file, &corpus)
            .map_err(|e| format!("{source}: {e}"))
    }

    /// Reads an overrides file's text (`source` = its name) and, if valid and made on this
    /// bundle, puts it in force; a refusal is also shown through `error`.
    pub fn import_json(&self, source: &str, text: &str) -> Result<(), String> {
        let result = OverridesFile::from_json(text)
            .map_err(|e| format!("{source}: {e}"))
            .and_then(|file| self.replace(file, source));
        match &result {
            // An imported file is the reader's own, whatever the link carried.
            Ok(_) if self.shared.get_untracked() => self.keep_shared(),
            Ok(_) => {}
            Err(e) => self.error.set(Some(e.clone())),
        }
        result
    }

    /// The export: file name (`overrides-<12 hash chars>.json`) and the pretty JSON text
    /// ([`OverridesFile::to_json`]).
    pub fn export(&self) -> (String, String) {
        self.file.with_untracked(|f| {
            let name = format!("overrides-{}.json", short(&f.bundle_hash));
            (name, f.to_json())
        })
    }

    /// Removes every override.
    pub fn clear(&self) {
        let hash = self.base.with_value(|b| b.content_hash.clone());
        let corpus = self
            .file
            .with_untracked(|f| f.overrides.first().map(|o| o.corpus.clone()))
            .unwrap_or_default();
        let _ = self.set_file(OverridesFile::new(hash), &corpus);
    }

    fn set_file(&self, next: OverridesFile, corpus: &str) -> Result<(), String> {
        // The checks `apply_overrides` makes (format, corpora, keys) need no rows: they run
        // on the bundle's skeleton, not on a copy of the whole bundle.
        let mut skeleton = self.base.with_value(|b| b.body.skeleton());
        apply_overrides(&mut skeleton, &next).map_err(|e| e.to_string())?;
        let before: Vec<FailureLabel> = self
            .file
            .with_untracked(|f| f.news_in(corpus).cloned().collect());
        let after: Vec<FailureLabel> = next.news_in(corpus).cloned().collect();
        if !self.shared.get_untracked() {
            save(&next);
        }
        self.file.set(next.clone());
        self.error.set(None);
        self.last_applied.set(None);
        self.last_change.set(None);
        self.tell_what_changed(next, corpus.to_owned(), before, after);
        Ok(())
    }

    /// Asks the data's owner what putting `after` in force instead of `before` changed in
    /// `corpus` (it holds the labels) and records it as the last change, unless the
    /// overrides changed again meanwhile (`file` is the change it answers).
    fn tell_what_changed(
        &self,
        file: OverridesFile,
        corpus: String,
        before: Vec<FailureLabel>,
        after: Vec<FailureLabel>,
    ) {
        let this = *self;
        let bundle = self.base.get_value();
        leptos::task::spawn_local(async move {
            let query = ViewQuery::WhatChanged {
                corpus: corpus.clone(),
                before,
                after,
            };
            let answer: Result<WhatChanged, _> = ask(&bundle, query).await;
            if this.file.try_with_untracked(|f| *f == file) != Some(true) {
                return;
            }
            match answer {
                Ok(changed) => this.last_change.set(Some((corpus, changed))),
                Err(e) => this
                    .error
                    .set(Some(format!("what changed could not be counted: {e}"))),
            }
        });
    }
}

/// The re-labels in force, as the views' questions carry them (none without an overrides
/// state, e.g. a view mounted alone).
pub fn relabels_in_force() -> Memo<Vec<Relabel>> {
    let overrides = use_context::<OverridesState>();
    Memo::new(move |_| {
        overrides.map_or_else(Vec::new, |o| {
            o.file.with(|f| {
                f.overrides
                    .iter()
                    .map(|o| Relabel {
                        corpus: o.corpus.clone(),
                        label: o.new.clone(),
                    })
                    .collect()
            })
        })
    })
}

fn short(hash: &str) -> String {
    hash.chars().take(12).collect()
}

/// Opens this origin's `localStorage` (one read of an absent key) while the page waits for a
/// bundle: Chromium loads the storage area on the first access, synchronously, and the first
/// access was the saved overrides' read as the overview mounts, inside its longest task
/// (docs/performance.md).
pub fn warm_storage() {
    if let Some(s) = storage() {
        let _ = s.get_item("runlens.warm");
    }
}

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

fn read_storage(hash: &str) -> Option<String> {
    storage()?.get_item(&storage_key(hash)).ok().flatten()
}

/// Stores `file` (compact JSON) under its bundle's key, or removes the key when it is empty;
/// quota errors are ignored (the overrides stay in the page and in exports).
fn save(file: &OverridesFile) {
    let Some(storage) = storage() else {
        return;
    };
    let key = storage_key(&file.bundle_hash);
    let key = key.as_str();
    if file.overrides.is_empty() {
        let _ = storage.remove_item(key);
    } else if let Ok(text) = serde_json::to_string(file) {
        let _ = storage.set_item(key, &text);
    }
}
