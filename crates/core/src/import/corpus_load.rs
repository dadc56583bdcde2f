//! Loading one corpus directory's files, with the harness's "later row replaces earlier"
//! rule applied in place.

use std::hash::Hash;

use indexmap::IndexMap;

use super::classify::Role;
use super::fields::Loc;
use super::{ImportError, InputFile, jev_rows, jsonl, rows};
use crate::bundle::{Corpus, Warning};

/// Loads the corpus files of one directory.
pub(crate) fn load_corpus(
    name: &str,
    files: &[(&InputFile, Role)],
    warnings: &mut Vec<Warning>,
) -> Result<Corpus, ImportError> {
    let mut corpus = Corpus {
        name: name.to_owned(),
        ..Corpus::default()
    };
    for (file, role) in files {
        let path = file.path.as_str();
        match role {
            Role::Annotated => {
                let rows = convert(file, warnings, rows::question)?;
                corpus.questions = rows_only(dedupe(path, rows, |q| q.trace_id.clone(), warnings));
            }
            Role::Results => {
                let rows = convert(file, warnings, rows::result_row)?;
                corpus.results = rows_only(dedupe(path, rows, |r| r.trace_id.clone(), warnings));
            }
            Role::FmLabels => {
                let rows = convert(file, warnings, |m, loc, _| jev_rows::fm_label(m, loc))?;
                corpus.fm_labels = rows_only(dedupe(
                    path,
                    rows,
                    |l| (l.trace_id.clone(), l.model.clone()),
                    warnings,
                ));
            }
            Role::BoardManifest => {
                let map = jsonl::parse_document(path, &file.bytes, warnings)?;
                corpus.board_manifest = Some(serde_json::Value::Object(map));
            }
            _ => {}
        }
    }
    let mut models: IndexMap<&str, ()> = IndexMap::new();
    for row in &corpus.results {
        for key in row.candidates.keys() {
            models.insert(key, ());
        }
    }
    corpus.models = models.keys().map(|k| (*k).to_owned()).collect();
    check_fm_labels(&corpus, warnings);
    Ok(corpus)
}

/// Parses every line of a JSONL file and converts it, keeping line numbers.
pub(crate) fn convert<T>(
    file: &InputFile,
    warnings: &mut Vec<Warning>,
    mut f: impl FnMut(
        serde_json::Map<String, serde_json::Value>,
        Loc<'_>,
        &mut Vec<Warning>,
    ) -> Result<T, ImportError>,
) -> Result<Vec<(usize, T)>, ImportError> {
    let mut out = Vec::new();
    jsonl::for_each_line(
        &file.path,
        &file.bytes,
        warnings,
        |number, object, warnings| {
            let loc = Loc {
                file: &file.path,
                line: Some(number),
            };
            out.push((number, f(object, loc, warnings)?));
            Ok(())
        },
    )?;
    Ok(out)
}

/// Keeps one row per key: a later row replaces an earlier one at the earlier one's position
/// (a `duplicate_row` warning names both lines).
pub(crate) fn dedupe<T, K: Hash + Eq + std::fmt::Debug>(
    file: &str,
    rows: Vec<(usize, T)>,
    key: impl Fn(&T) -> K,
    warnings: &mut Vec<Warning>,
) -> Vec<(usize, T)> {
    let mut by_key: IndexMap<K, (usize, T)> = IndexMap::with_capacity(rows.len());
    for (line, row) in rows {
        let k = key(&row);
        if let Some((first_line, slot)) = by_key.get_mut(&k) {
            warnings.push(Warning {
                file: file.to_owned(),
                line: Some(line),
                kind: "duplicate_row".to_owned(),
                message: format!("row {k:?} repeats line {first_line}; the later row replaces it"),
            });
            *first_line = line;
            *slot = row;
        } else {
            by_key.insert(k, (line, row));
        }
    }
    by_key.into_values().collect()
}

fn rows_only<T>(rows: Vec<(usize, T)>) -> Vec<T> {
    rows.into_iter().map(|(_, row)| row).collect()
}

fn check_fm_labels(corpus: &Corpus, warnings: &mut Vec<Warning>) {
    if corpus.results.is_empty() {
        return;
    }
    let index = corpus.result_index();
    let labels = corpus
        .fm_labels
        .iter()
        .map(|l| (l.trace_id.as_str(), l.model.as_str()));
    let has_cell = |trace_id: &str, model: &str| {
        index
            .get(trace_id)
            .and_then(|&i| corpus.results[i].candidates.get(model))
            .is_some_and(Option::is_some)
    };
    fm_label_warnings(&corpus.name, labels, has_cell, warnings);
}

/// A `label_for_unknown_cell` warning for each FM label (trace_id, model) of corpus `name`
/// without a cell.
pub(crate) fn fm_label_warnings<'a>(
    name: &str,
    labels: impl Iterator<Item = (&'a str, &'a str)>,
    has_cell: impl Fn(&str, &str) -> bool,
    warnings: &mut Vec<Warning>,
) {
    for (trace_id, model) in labels {
        if !has_cell(trace_id, model) {
            warnings.push(Warning {
                file: format!("{name}/fm_labels.jsonl"),
                line: None,
                kind: "label_for_unknown_cell".to_owned(),
                message: format!(
                    "FM label for {trace_id} / {model} has no cell in results.jsonl; kept"
                ),
            });
        }
    }
}
