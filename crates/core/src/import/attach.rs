//! Attaching Jev `out/` rows to corpora.
//!
//! A ranking row goes to the first corpus (in input order) holding its `trace_id` (in
//! `annotated.jsonl` or `results.jsonl`). A failure label or gate row goes to the first
//! corpus holding its cell (`trace_id`, `model`), else to the first holding the `trace_id`
//! (warning `label_for_unknown_cell`). Rows whose `trace_id` no corpus holds are dropped
//! with a warning. With no corpus at all, a corpus named after the Jev folder is created
//! and every row is kept.

use std::collections::HashSet;

use super::classify::{Role, split_path};
use super::corpus_load::{convert, dedupe};
use super::{ImportError, InputFile, jev_rows};
use crate::bundle::{Corpus, Warning};

struct Keys {
    ids: HashSet<String>,
    cells: HashSet<(String, String)>,
}

/// What a corpus holds, for placing a Jev row.
pub(crate) trait CorpusKeys {
    /// The corpus has the question `trace_id`.
    fn has_id(&self, trace_id: &str) -> bool;
    /// The corpus has a (non-null) cell of `model` for `trace_id`.
    fn has_cell(&self, trace_id: &str, model: &str) -> bool;
}

impl CorpusKeys for Keys {
    fn has_id(&self, trace_id: &str) -> bool {
        self.ids.contains(trace_id)
    }

    fn has_cell(&self, trace_id: &str, model: &str) -> bool {
        self.cells
            .contains(&(trace_id.to_owned(), model.to_owned()))
    }
}

/// Parses the Jev files and attaches their rows.
pub(crate) fn attach_jev(
    corpora: &mut Vec<Corpus>,
    files: &[(&InputFile, Role)],
    warnings: &mut Vec<Warning>,
) -> Result<(), ImportError> {
    if files.is_empty() {
        return Ok(());
    }
    let free = corpora.is_empty();
    if free {
        corpora.push(Corpus {
            name: free_corpus_name(&files[0].0.path),
            ..Corpus::default()
        });
    }
    let keys: Vec<Keys> = corpora.iter().map(keys_of).collect();
    for (file, role) in files {
        let path = file.path.as_str();
        match role {
            Role::Rankings => {
                let rows = convert(file, warnings, |m, loc, _| jev_rows::ranking(m, loc))?;
                let rows = dedupe(path, rows, |r| r.trace_id.clone(), warnings);
                for (line, row) in rows {
                    if let Some(i) =
                        target(&keys, free, &row.trace_id, None, (path, line), warnings)
                    {
                        corpora[i].rankings.push(row);
                    }
                }
            }
            Role::FailureLabels => {
                let rows = convert(file, warnings, |m, loc, _| jev_rows::failure_label(m, loc))?;
                let rows = dedupe(
                    path,
                    rows,
                    |r| (r.trace_id.clone(), r.model.clone()),
                    warnings,
                );
                for (line, row) in rows {
                    if let Some(i) = target(
                        &keys,
                        free,
                        &row.trace_id,
                        Some(&row.model),
                        (path, line),
                        warnings,
                    ) {
                        corpora[i].failure_labels.push(row);
                    }
                }
            }
            Role::Gate => {
                let rows = convert(file, warnings, |m, loc, _| jev_rows::gate_row(m, loc))?;
                let rows = dedupe(
                    path,
                    rows,
                    |r| (r.trace_id.clone(), r.model.clone()),
                    warnings,
                );
                for (line, row) in rows {
                    if let Some(i) = target(
                        &keys,
                        free,
                        &row.trace_id,
                        Some(&row.model),
                        (path, line),
                        warnings,
                    ) {
                        corpora[i].gate_rows.push(row);
                    }
                }
            }
            _ => {}
        }
    }
    Ok(())
}

/// The name of the corpus made for Jev rows when no corpus was given: the folder of the
/// first Jev file, else `out`.
pub(crate) fn free_corpus_name(first_jev_path: &str) -> String {
    let (dir, _) = split_path(first_jev_path);
    if dir.is_empty() {
        "out".to_owned()
    } else {
        dir.to_owned()
    }
}

fn keys_of(c: &Corpus) -> Keys {
    let mut ids: HashSet<String> = c.questions.iter().map(|q| q.trace_id.clone()).collect();
    ids.extend(c.results.iter().map(|r| r.trace_id.clone()));
    let cells = c
        .cells()
        .map(|r| (r.trace_id.to_owned(), r.model.to_owned()))
        .collect();
    Keys { ids, cells }
}

/// The corpus a Jev row goes to (see the module's rules), with its warnings.
pub(crate) fn target<K: CorpusKeys>(
    keys: &[K],
    free: bool,
    trace_id: &str,
    model: Option<&str>,
    (file, line): (&str, usize),
    warnings: &mut Vec<Warning>,
) -> Option<usize> {
    if free {
        return Some(0);
    }
    if let Some(model) = model
        && let Some(i) = keys.iter().position(|k| k.has_cell(trace_id, model))
    {
        return Some(i);
    }
    match keys.iter().position(|k| k.has_id(trace_id)) {
        Some(i) => {
            if let Some(model) = model {
                warnings.push(Warning {
                    file: file.to_owned(),
                    line: Some(line),
                    kind: "label_for_unknown_cell".to_owned(),
                    message: format!("row for {trace_id} / {model}: the question exists but the model has no cell; kept"),
                });
            }
            Some(i)
        }
        None => {
            warnings.push(Warning {
                file: file.to_owned(),
                line: Some(line),
                kind: "unknown_question".to_owned(),
                message: format!("row for {trace_id}: no corpus holds this trace_id; dropped"),
            });
            None
        }
    }
}
