//! Harness files (JSON Lines, JSON, YAML, Markdown) into a [`Bundle`], with precise errors.
//!
//! Used natively by `runlens export` and in the browser: inputs are in-memory files with
//! relative paths. A corpus is every corpus file (`annotated.jsonl`, `results.jsonl`,
//! `fm_labels.jsonl`, `board_manifest.json`) sharing a parent path, named by that path (so
//! `text2sqlbench-synthetic-dev/results.jsonl` belongs to corpus
//! `text2sqlbench-synthetic-dev`). Jev outputs (`schema_retrieval.jsonl`,
//! `failure_labels.jsonl`, `schema_retrieval_agent.jsonl`) may sit anywhere and are attached
//! to the corpus holding their `trace_id` (and cell). See `docs/bundle-format.md`.
//!
//! ```
//! use runlens_core::import::{import_files, ImportOptions, InputFile};
//! let files = vec![InputFile {
//!     path: "dev/results.jsonl".into(),
//!     bytes: br#"{"trace_id": "q1", "candidates": {"gpt-4.1": null}}"#.to_vec(),
//! }];
//! let imported = import_files(&files, &ImportOptions::default()).unwrap();
//! let corpus = &imported.bundle.body.corpora[0];
//! assert_eq!(corpus.name, "dev");
//! assert_eq!(corpus.models, ["gpt-4.1"]);
//! ```

mod attach;
mod classify;
mod corpus_load;
mod error;
mod fields;
mod input;
mod jev_rows;
mod jsonl;
mod names;
mod rows;
pub mod stream;
// The rules YAML parser lives beside `rules.rs` (an `impl RulesConfig` block).
#[path = "../rules_yaml.rs"]
mod rules_yaml;
mod universe;

use indexmap::IndexMap;
use sha2::{Digest, Sha256};

pub use error::ImportError;
pub use input::InputFile;
pub use names::{BOARD_NAMES, board_display_name};

use crate::bundle::{
    Bundle, BundleBody, InputFileInfo, ModelInfo, Provenance, SchemaPrompt, Warning,
};
use crate::rules::RulesConfig;
use classify::{Role, classify, split_path};

/// Import settings. Core has no clock: the caller supplies version and time.
#[derive(Debug, Clone, Default)]
pub struct ImportOptions {
    /// Version of runlens (provenance).
    pub runlens_version: String,
    /// Creation time, RFC 3339 (provenance).
    pub created_at: String,
    /// Path (as in [`InputFile::path`]) of the schema prompt; `None` auto-detects
    /// `schema.md` / `system.md`.
    pub schema_path: Option<String>,
    /// Path of the rules YAML; `None` auto-detects `rules*.yaml` / `rules*.yml`.
    pub rules_path: Option<String>,
    /// Table namespaces for the table matcher; `None` derives them (see `universe`).
    pub namespaces: Option<Vec<String>>,
    /// Model key → display name, overriding the board table.
    pub display_names: IndexMap<String, String>,
    /// Mark the bundle synthetic even without a `SYNTHETIC.md`.
    pub synthetic: bool,
    /// Notice text shown by the UI (overrides the `SYNTHETIC.md` first paragraph).
    pub notice: Option<String>,
}

/// The result of an import: the bundle and its warnings (also stored in the bundle body).
#[derive(Debug, Clone, PartialEq)]
pub struct Imported {
    /// The bundle, with provenance and content hash set.
    pub bundle: Bundle,
    /// Non-fatal problems, in the order found.
    pub warnings: Vec<Warning>,
}

/// Imports harness files into a bundle.
///
/// Errors name the file, line, field and what was expected; non-fatal problems (an unknown
/// file, a label for a cell that does not exist, a ranking row for an unknown question,
/// duplicate rows) become warnings.
pub fn import_files(files: &[InputFile], opts: &ImportOptions) -> Result<Imported, ImportError> {
    import_files_keeping_warnings(files, opts).map_err(|failed| failed.error)
}

/// A failed import: the error that stopped it and the warnings found before it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FailedImport {
    /// What stopped the import.
    pub error: ImportError,
    /// Non-fatal problems met before the error, in import order.
    pub warnings: Vec<Warning>,
}

/// [`import_files`], but a failure keeps the warnings found before the error (the dashboard
/// shows them beside the error).
pub fn import_files_keeping_warnings(
    files: &[InputFile],
    opts: &ImportOptions,
) -> Result<Imported, Box<FailedImport>> {
    let mut warnings = Vec::new();
    import_into(files, opts, &mut warnings)
        .map_err(|error| Box::new(FailedImport { error, warnings }))
}

fn import_into(
    files: &[InputFile],
    opts: &ImportOptions,
    warnings: &mut Vec<Warning>,
) -> Result<Imported, ImportError> {
    let roles = roles_of(files.iter().map(|f| f.path.as_str()), opts)?;
    let mut body = new_body(opts);
    let corpus_dirs = read_config(files, &roles, &mut body, warnings)?;
    for (dir, indexes) in &corpus_dirs {
        let members: Vec<(&InputFile, Role)> =
            indexes.iter().map(|&i| (&files[i], roles[i])).collect();
        body.corpora.push(corpus_load::load_corpus(
            corpus_name(dir),
            &members,
            warnings,
        )?);
    }
    let jev_files: Vec<(&InputFile, Role)> = files
        .iter()
        .zip(&roles)
        .filter(|(_, r)| r.is_jev_file())
        .map(|(f, r)| (f, *r))
        .collect();
    attach::attach_jev(&mut body.corpora, &jev_files, warnings)?;
    let ranked = universe::ranked_tables(body.corpora.iter().flat_map(|c| c.rankings.iter()));
    finish_body(&mut body, ranked, opts, warnings);
    let provenance = Provenance {
        runlens_version: opts.runlens_version.clone(),
        created_at: opts.created_at.clone(),
        inputs: files.iter().map(input_info).collect(),
    };
    Ok(Imported {
        bundle: Bundle::new(provenance, body),
        warnings: warnings.clone(),
    })
}

/// The role of each input path; an explicitly chosen schema or rules path must be one of them.
fn roles_of<'a>(
    paths: impl Iterator<Item = &'a str> + Clone,
    opts: &ImportOptions,
) -> Result<Vec<Role>, ImportError> {
    let schema_path = opts.schema_path.as_deref();
    let rules_path = opts.rules_path.as_deref();
    for wanted in [schema_path, rules_path].into_iter().flatten() {
        if !paths.clone().any(|p| p == wanted) {
            return Err(ImportError::at(
                wanted,
                None,
                "an input file",
                "no such file among the inputs".to_owned(),
            ));
        }
    }
    Ok(paths
        .map(|p| classify(p, schema_path, rules_path))
        .collect())
}

/// An empty body with the options' synthetic flag and notice.
fn new_body(opts: &ImportOptions) -> BundleBody {
    BundleBody {
        synthetic: opts.synthetic,
        notice: opts.notice.clone(),
        ..BundleBody::default()
    }
}

/// A corpus's name from its folder (`corpus` for files at the top).
fn corpus_name(dir: &str) -> &str {
    if dir.is_empty() { "corpus" } else { dir }
}

/// Reads the schema prompt, rules and synthetic notice into `body` and warns about unknown
/// files, in input order; returns the corpus folders (in order of first appearance) with
/// the indexes of their files. Only the bytes of those roles are read.
fn read_config<'f>(
    files: &'f [InputFile],
    roles: &[Role],
    body: &mut BundleBody,
    warnings: &mut Vec<Warning>,
) -> Result<IndexMap<&'f str, Vec<usize>>, ImportError> {
    let mut corpus_dirs: IndexMap<&str, Vec<usize>> = IndexMap::new();
    for (i, (file, role)) in files.iter().zip(roles).enumerate() {
        match role {
            r if r.is_corpus_file() => corpus_dirs
                .entry(split_path(&file.path).0)
                .or_default()
                .push(i),
            Role::Schema => set_once(&mut body.schema_prompt, file, warnings, |f| {
                Ok(SchemaPrompt {
                    file_name: split_path(&f.path).1.to_owned(),
                    text: text_of(f)?,
                })
            })?,
            Role::Rules => set_once(&mut body.rules, file, warnings, |f| {
                RulesConfig::from_yaml_str(&text_of(f)?, &f.path)
            })?,
            Role::SyntheticNotice => {
                body.synthetic = true;
                if body.notice.is_none() {
                    body.notice = Some(first_paragraph(&text_of(file)?));
                }
            }
            Role::Unknown => warnings.push(Warning {
                file: file.path.clone(),
                line: None,
                kind: "unrecognised_file".to_owned(),
                message: "not a harness file runlens reads; ignored".to_owned(),
            }),
            _ => {}
        }
    }
    Ok(corpus_dirs)
}

/// The universe (from the prompt and the tables the ranking rows rank), the models and the
/// warnings: what a body gets once its corpora are complete.
fn finish_body(
    body: &mut BundleBody,
    ranked: std::collections::BTreeSet<String>,
    opts: &ImportOptions,
    warnings: &mut Vec<Warning>,
) {
    let u = universe::resolve(
        body.schema_prompt.as_ref(),
        opts.namespaces.as_deref(),
        ranked,
        warnings,
    );
    body.universe = u.tables;
    body.namespaces = u.namespaces;
    body.universe_source = u.source;
    body.models = models(body, opts);
    body.warnings = warnings.clone();
}

fn set_once<T>(
    slot: &mut Option<T>,
    file: &InputFile,
    warnings: &mut Vec<Warning>,
    read: impl FnOnce(&InputFile) -> Result<T, ImportError>,
) -> Result<(), ImportError> {
    if slot.is_some() {
        warnings.push(Warning {
            file: file.path.clone(),
            line: None,
            kind: "duplicate_config".to_owned(),
            message: "a schema prompt or rules file was already read; this one is ignored"
                .to_owned(),
        });
        return Ok(());
    }
    *slot = Some(read(file)?);
    Ok(())
}

/// A file as UTF-8 text (BOM skipped).
fn text_of(file: &InputFile) -> Result<String, ImportError> {
    let bytes = file
        .bytes
        .strip_prefix(&[0xef, 0xbb, 0xbf][..])
        .unwrap_or(&file.bytes);
    String::from_utf8(bytes.to_vec()).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let line = bytes[..at].iter().filter(|b| **b == b'\n').count() + 1;
        ImportError::at(
            &file.path,
            Some(line),
            "UTF-8 text",
            format!("an invalid UTF-8 byte at byte offset {at}"),
        )
    })
}

/// The first non-empty paragraph of a Markdown text, heading marks removed.
fn first_paragraph(text: &str) -> String {
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim)
        .skip_while(|l| l.is_empty())
        .take_while(|l| !l.is_empty())
        .map(|l| l.trim_start_matches('#').trim())
        .collect();
    lines.join(" ")
}

fn models(body: &BundleBody, opts: &ImportOptions) -> Vec<ModelInfo> {
    let mut keys: IndexMap<&str, ()> = IndexMap::new();
    for c in &body.corpora {
        for m in &c.models {
            keys.insert(m, ());
        }
    }
    keys.keys()
        .map(|&key| ModelInfo {
            key: key.to_owned(),
            display_name: opts
                .display_names
                .get(key)
                .map(String::as_str)
                .or_else(|| board_display_name(key))
                .unwrap_or(key)
                .to_owned(),
        })
        .collect()
}

fn input_info(file: &InputFile) -> InputFileInfo {
    InputFileInfo {
        name: file.path.clone(),
        size: file.bytes.len() as u64,
        sha256: crate::bundle::hex_lower(&Sha256::digest(&file.bytes)),
    }
}
