//! Opened files: one bundle (`.json` / `.json.gz`), or raw harness files for
//! `runlens_core::import` with the same relative paths `runlens export` would use.

use std::collections::HashMap;

use js_sys::{Reflect, Uint8Array};
use runlens_core::bundle::v2::MANIFEST;
use runlens_core::import::InputFile;
use wasm_bindgen_futures::JsFuture;

use super::request::LoadError;

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
    base.ends_with(".json.gz")
        || base.ends_with(".zip")
        || (base.ends_with(".json") && !HARNESS_JSON.contains(&base))
}

/// A `runlens.bundle/2` among opened files.
pub enum PickedV2 {
    /// One `.zip` file (read by `Blob.slice`, never whole).
    Zip(web_sys::File),
    /// A folder pick holding `manifest.json` at its top: the files by entry path.
    Dir(HashMap<String, web_sys::File>),
}

/// The v2 bundle the opened files are, if they are one: a single `.zip`, or a picked folder
/// with `manifest.json` at its top (the picked folder's own name dropped, as for imports).
pub fn picked_v2(files: &[web_sys::File]) -> Option<PickedV2> {
    if let [file] = files
        && file.name().to_ascii_lowercase().ends_with(".zip")
    {
        return Some(PickedV2::Zip(file.clone()));
    }
    let names: Vec<String> = files.iter().map(relative_path).collect();
    let paths = import_paths(&names);
    paths
        .iter()
        .any(|p| p == MANIFEST)
        .then(|| PickedV2::Dir(paths.into_iter().zip(files.iter().cloned()).collect()))
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
            "{} files were opened, {bundles} of them bundles (.json, .json.gz or .zip): open \
             one bundle at a time (a runlens.bundle/2 directory with \"Open a folder…\"), or only harness files (annotated.jsonl, results.jsonl, \
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
