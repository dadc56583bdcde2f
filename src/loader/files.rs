//! Opened files: one bundle (`.json` / `.json.gz`), or raw harness files for
//! `runlens_core::import` with the same relative paths `runlens export` would use.

use js_sys::{Reflect, Uint8Array};
use runlens_core::import::InputFile;
use wasm_bindgen_futures::JsFuture;

use crate::data::LoadError;

/// What the opened files are.
#[derive(Debug, PartialEq)]
pub enum Opened {
    /// A single bundle file.
    Bundle {
        /// File name.
        name: String,
        /// Its bytes (gzip or JSON).
        bytes: Vec<u8>,
    },
    /// Harness files with their import paths.
    Harness(Vec<InputFile>),
}

/// Harness files that end in `.json` (everything else ending in `.json` is a bundle).
const HARNESS_JSON: [&str; 1] = ["board_manifest.json"];

/// Whether a file of this name is a bundle rather than a harness file.
pub fn is_bundle_name(name: &str) -> bool {
    let base = name.rsplit('/').next().unwrap_or(name);
    base.ends_with(".json.gz") || (base.ends_with(".json") && !HARNESS_JSON.contains(&base))
}

/// Import paths for files picked with their relative paths (`webkitRelativePath`, empty
/// for single files): the common first folder (the picked folder itself) is dropped, so
/// `files/dev/results.jsonl` imports as `dev/results.jsonl`, named like `runlens export`
/// names the corpus of folder `dev`.
pub fn import_paths(paths: &[String]) -> Vec<String> {
    let first = |p: &str| p.split_once('/').map(|(head, _)| head.to_owned());
    let common = paths.first().and_then(|p| first(p));
    let strip = common.filter(|c| {
        paths
            .iter()
            .all(|p| first(p).as_deref() == Some(c.as_str()))
    });
    paths
        .iter()
        .map(|p| match &strip {
            Some(c) => p.get(c.len() + 1..).unwrap_or(p).to_owned(),
            None => p.clone(),
        })
        .collect()
}

/// Reads every file; `progress(done, total)` in bytes after each.
pub async fn read_all(
    files: &[web_sys::File],
    progress: &dyn Fn(u64, u64),
) -> Result<Opened, LoadError> {
    if files.is_empty() {
        return Err(LoadError::import("no files were opened".to_owned()));
    }
    let names: Vec<String> = files.iter().map(relative_path).collect();
    let bundles = names.iter().filter(|n| is_bundle_name(n)).count();
    if bundles > 0 && files.len() > 1 {
        return Err(LoadError::import(format!(
            "{} files were opened, {bundles} of them bundles (.json or .json.gz): open one \
             bundle at a time, or only harness files (annotated.jsonl, results.jsonl, \
             fm_labels.jsonl, board_manifest.json, the Jev out/*.jsonl, schema.md, rules.yaml)",
            files.len()
        )));
    }
    let total: u64 = files.iter().map(|f| f.size().max(0.0) as u64).sum();
    let mut done = 0;
    let mut contents = Vec::with_capacity(files.len());
    for (file, name) in files.iter().zip(&names) {
        let buffer = JsFuture::from(file.array_buffer())
            .await
            .map_err(|e| LoadError::import(format!("{name}: could not be read ({e:?})")))?;
        let bytes = Uint8Array::new(&buffer).to_vec();
        done += bytes.len() as u64;
        progress(done, total);
        contents.push(bytes);
    }
    if bundles == 1 {
        let name = names.into_iter().next().unwrap_or_default();
        let bytes = contents.into_iter().next().unwrap_or_default();
        return Ok(Opened::Bundle { name, bytes });
    }
    let paths = import_paths(&names);
    Ok(Opened::Harness(
        paths
            .into_iter()
            .zip(contents)
            .map(|(path, bytes)| InputFile { path, bytes })
            .collect(),
    ))
}

/// `webkitRelativePath` when the file came from a folder pick, else its name.
fn relative_path(file: &web_sys::File) -> String {
    Reflect::get(file, &"webkitRelativePath".into())
        .ok()
        .and_then(|p| p.as_string())
        .filter(|p| !p.is_empty())
        .unwrap_or_else(|| file.name())
}
