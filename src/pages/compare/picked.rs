//! Opened files standing for run B, shared by the chooser and the loader of the compare view.

use leptos::prelude::*;

/// Opened files standing for run B (a link cannot carry them; `compare=` then stays empty).
#[derive(Clone, Copy)]
pub struct PickedFiles(pub RwSignal<Option<Vec<web_sys::File>>, LocalStorage>);
