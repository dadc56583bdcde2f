//! Harness files straight into a v2 bundle without holding their rows: for runs too large to
//! import in memory (`runlens export` to v2).
//!
//! Two passes over the files. The first reads every line once, in the order
//! [`super::import_files`] reads them, converting each row exactly as it does (so the same
//! warnings come out in the same order) but keeping only where the row is in its file and
//! the few keys later steps need (its `trace_id`, a cell's model, the tables a ranking
//! ranks). With the harness's "a later row replaces an earlier one" rule, the Jev rows'
//! placement, the universe and the models resolved as in memory, the body's skeleton is
//! known; the second pass reads each kept row again by its place, in body order, and hands
//! it to the v2 writer ([`crate::bundle::v2::stream`]), which hashes the canonical JSON and
//! writes the columns and text chunks as it goes. The result equals
//! `write_entries(import_files(..))` byte for byte (tests check it).

use std::collections::{BTreeSet, HashMap, HashSet};
use std::io::{BufReader, Read, Seek, SeekFrom};

use indexmap::IndexSet;
use serde_json::{Map, Value};
use sha2::{Digest, Sha256};

use super::attach::{CorpusKeys, free_corpus_name, target};
use super::classify::Role;
use super::corpus_load::{dedupe, fm_label_warnings};
use super::fields::Loc;
use super::jsonl::{Span, for_each_line_read, parse_document, parse_object};
use super::{
    FailedImport, ImportError, ImportOptions, InputFile, corpus_name, finish_body, jev_rows,
    new_body, read_config, roles_of, rows,
};
use crate::bundle::canonical::List;
use crate::bundle::v2::V2Error;
use crate::bundle::v2::stream::{EachRow, EntrySink, Row, Rows, Written, write_streamed};
use crate::bundle::{BundleBody, Corpus, InputFileInfo, Provenance, Summary, Warning};

/// A reader that can also seek (a file).
pub trait ReadSeek: Read + Seek {}

impl<T: Read + Seek> ReadSeek for T {}

/// Opens input file `i` (in the order of the paths given) from its start.
pub type Open<'a> = dyn FnMut(usize) -> std::io::Result<Box<dyn ReadSeek>> + 'a;

/// What a streamed export wrote.
pub struct Streamed {
    /// The manifest and its JSON; not given to the sink (the caller stores it as
    /// `manifest.json`).
    pub written: Written,
    /// Non-fatal problems, in the order found (as in the bundle).
    pub warnings: Vec<Warning>,
    /// The bundle's counts.
    pub summary: Summary,
}

/// Why a streamed export stopped.
#[derive(Debug)]
pub enum StreamError {
    /// The harness files: as [`super::import_files_keeping_warnings`] reports it.
    Import(Box<FailedImport>),
    /// Writing an entry, or reading a row again.
    Write(V2Error),
}

impl std::fmt::Display for StreamError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StreamError::Import(failed) => write!(f, "{}", failed.error),
            StreamError::Write(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for StreamError {}

/// Imports the harness files at `paths` (opened by `open`) and writes their v2 entries to
/// `sink`; see the module documentation.
pub fn export_streamed(
    paths: &[String],
    open: &mut Open<'_>,
    opts: &ImportOptions,
    sink: &mut dyn EntrySink,
) -> Result<Streamed, StreamError> {
    let mut warnings = Vec::new();
    let plan = match first_pass(paths, open, opts, &mut warnings) {
        Ok(plan) => plan,
        Err(error) => {
            return Err(StreamError::Import(Box::new(FailedImport {
                error,
                warnings,
            })));
        }
    };
    let summary = plan.summary();
    let mut rows = Reread {
        paths,
        open,
        readers: HashMap::new(),
        plan: &plan,
    };
    let written = write_streamed(&plan.body, plan.provenance.clone(), None, &mut rows, sink)
        .map_err(StreamError::Write)?;
    Ok(Streamed {
        written,
        warnings,
        summary,
    })
}

/// Where a kept row is: its file and line, and its bytes there.
#[derive(Debug, Clone, Copy)]
struct Place {
    file: usize,
    line: usize,
    span: Span,
}

/// A kept result row: where it is, its `trace_id`, and its candidates (model number, whether
/// the cell is not `null`).
struct KeptResult {
    place: Place,
    trace_id: String,
    candidates: Vec<(u32, bool)>,
}

/// One corpus as the first pass leaves it: the places of its rows, in body order.
#[derive(Default)]
struct CorpusPlan {
    questions: Vec<Place>,
    results: Vec<KeptResult>,
    /// `trace_id` → index into `results`.
    result_index: HashMap<String, usize>,
    question_ids: HashSet<String>,
    rankings: Vec<Place>,
    failure_labels: Vec<Place>,
    fm_labels: Vec<Place>,
    gate_rows: Vec<Place>,
}

/// Model keys by number (shared by every corpus).
#[derive(Default)]
struct Models(IndexSet<String>);

impl Models {
    fn number(&mut self, key: &str) -> u32 {
        match self.0.get_index_of(key) {
            Some(i) => i as u32,
            None => self.0.insert_full(key.to_owned()).0 as u32,
        }
    }
}

struct Keys<'a> {
    corpus: &'a CorpusPlan,
    models: &'a Models,
}

impl CorpusKeys for Keys<'_> {
    fn has_id(&self, trace_id: &str) -> bool {
        self.corpus.question_ids.contains(trace_id)
            || self.corpus.result_index.contains_key(trace_id)
    }

    fn has_cell(&self, trace_id: &str, model: &str) -> bool {
        let (Some(&i), Some(m)) = (
            self.corpus.result_index.get(trace_id),
            self.models.0.get_index_of(model),
        ) else {
            return false;
        };
        self.corpus.results[i]
            .candidates
            .iter()
            .any(|&(c, some)| some && c as usize == m)
    }
}

/// Everything the first pass learns.
struct Plan {
    body: BundleBody,
    provenance: Provenance,
    corpora: Vec<CorpusPlan>,
}

impl Plan {
    fn summary(&self) -> Summary {
        let mut s = self.body.summary();
        for c in &self.corpora {
            s.questions += c.questions.len();
            s.result_rows += c.results.len();
            s.cells += c
                .results
                .iter()
                .map(|r| r.candidates.iter().filter(|(_, some)| *some).count())
                .sum::<usize>();
            s.failure_labels += c.failure_labels.len();
            s.fm_labels += c.fm_labels.len();
            s.rankings += c.rankings.len();
            s.gate_rows += c.gate_rows.len();
        }
        s
    }
}

/// A reader that hashes and counts what passes through it.
struct Hashing<R> {
    inner: R,
    hasher: Sha256,
    size: u64,
}

impl<R: Read> Read for Hashing<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.hasher.update(&buf[..n]);
        self.size += n as u64;
        Ok(n)
    }
}

fn io_error(path: &str, e: &std::io::Error) -> ImportError {
    ImportError::at(path, None, "a readable file", e.to_string())
}

/// A row read by [`scan`]: its line, and its place with what was kept of it.
type Scanned<T> = (usize, (Place, T));

/// Reads every line of file `i`, converting each row with `convert`; returns each row's line
/// and place with what `convert` kept, and records the file's size and SHA-256.
fn scan<T>(
    i: usize,
    path: &str,
    open: &mut Open<'_>,
    inputs: &mut [InputFileInfo],
    warnings: &mut Vec<Warning>,
    mut convert: impl FnMut(Map<String, Value>, Loc<'_>, &mut Vec<Warning>) -> Result<T, ImportError>,
) -> Result<Vec<Scanned<T>>, ImportError> {
    let file = open(i).map_err(|e| io_error(path, &e))?;
    let mut reader = BufReader::with_capacity(
        1 << 20,
        Hashing {
            inner: file,
            hasher: Sha256::new(),
            size: 0,
        },
    );
    let mut out = Vec::new();
    for_each_line_read(
        path,
        &mut reader,
        warnings,
        |line, span, object, warnings| {
            let loc = Loc {
                file: path,
                line: Some(line),
            };
            let kept = convert(object, loc, warnings)?;
            out.push((
                line,
                (
                    Place {
                        file: i,
                        line,
                        span,
                    },
                    kept,
                ),
            ));
            Ok(())
        },
    )?;
    // `for_each_line_read` read to the end: the hash covers the whole file.
    let h = reader.into_inner();
    inputs[i] = InputFileInfo {
        name: path.to_owned(),
        size: h.size,
        sha256: crate::bundle::hex_lower(&h.hasher.finalize()),
    };
    Ok(out)
}

/// Reads a whole (small) file.
fn read_whole(i: usize, path: &str, open: &mut Open<'_>) -> Result<Vec<u8>, ImportError> {
    let mut bytes = Vec::new();
    open(i)
        .and_then(|mut f| f.read_to_end(&mut bytes))
        .map_err(|e| io_error(path, &e))?;
    Ok(bytes)
}

fn first_pass(
    paths: &[String],
    open: &mut Open<'_>,
    opts: &ImportOptions,
    warnings: &mut Vec<Warning>,
) -> Result<Plan, ImportError> {
    let roles = roles_of(paths.iter().map(String::as_str), opts)?;
    let line_file = |r: Role| r.is_jev_file() || (r.is_corpus_file() && r != Role::BoardManifest);
    // Every file but the line files is read whole (they are small); the line files are
    // read a line at a time below.
    let mut files = Vec::with_capacity(paths.len());
    let mut inputs = Vec::with_capacity(paths.len());
    for (i, (path, role)) in paths.iter().zip(&roles).enumerate() {
        let bytes = if line_file(*role) {
            Vec::new()
        } else {
            read_whole(i, path, open)?
        };
        // A line file's size and digest are filled in when it is read.
        inputs.push(InputFileInfo {
            name: path.clone(),
            size: bytes.len() as u64,
            sha256: crate::bundle::hex_lower(&Sha256::digest(&bytes)),
        });
        files.push(InputFile {
            path: path.clone(),
            bytes,
        });
    }
    let mut body = new_body(opts);
    let corpus_dirs = read_config(&files, &roles, &mut body, warnings)?;
    let mut models = Models::default();
    let mut corpora = Vec::new();
    for (dir, indexes) in &corpus_dirs {
        let name = corpus_name(dir);
        let mut plan = CorpusPlan::default();
        let mut fm_keys: Vec<(String, String)> = Vec::new();
        let mut corpus = Corpus {
            name: name.to_owned(),
            ..Corpus::default()
        };
        for &i in indexes {
            let path = paths[i].as_str();
            match roles[i] {
                Role::Annotated => {
                    let rows = scan(i, path, open, &mut inputs, warnings, |m, loc, w| {
                        rows::question(m, loc, w).map(|q| q.trace_id)
                    })?;
                    let kept = dedupe(path, rows, |(_, id)| id.clone(), warnings);
                    plan.question_ids = kept.iter().map(|(_, (_, id))| id.clone()).collect();
                    plan.questions = kept.into_iter().map(|(_, (p, _))| p).collect();
                }
                Role::Results => {
                    let rows = scan(i, path, open, &mut inputs, warnings, |m, loc, w| {
                        let r = rows::result_row(m, loc, w)?;
                        let candidates = r
                            .candidates
                            .iter()
                            .map(|(k, c)| (models.number(k), c.is_some()))
                            .collect();
                        Ok((r.trace_id, candidates))
                    })?;
                    let kept = dedupe(path, rows, |(_, (id, _))| id.clone(), warnings);
                    plan.results = kept
                        .into_iter()
                        .map(|(_, (place, (trace_id, candidates)))| KeptResult {
                            place,
                            trace_id,
                            candidates,
                        })
                        .collect();
                    plan.result_index = plan
                        .results
                        .iter()
                        .enumerate()
                        .map(|(i, r)| (r.trace_id.clone(), i))
                        .collect();
                }
                Role::FmLabels => {
                    let rows = scan(i, path, open, &mut inputs, warnings, |m, loc, _| {
                        jev_rows::fm_label(m, loc).map(|l| (l.trace_id, l.model))
                    })?;
                    let kept = dedupe(path, rows, |(_, key)| key.clone(), warnings);
                    plan.fm_labels = kept.iter().map(|(_, (p, _))| *p).collect();
                    fm_keys = kept.into_iter().map(|(_, (_, key))| key).collect();
                }
                Role::BoardManifest => {
                    let map = parse_document(path, &files[i].bytes, warnings)?;
                    corpus.board_manifest = Some(Value::Object(map));
                }
                _ => {}
            }
        }
        let mut in_corpus: IndexSet<u32> = IndexSet::new();
        for r in &plan.results {
            in_corpus.extend(r.candidates.iter().map(|(m, _)| *m));
        }
        corpus.models = in_corpus
            .iter()
            .filter_map(|&m| models.0.get_index(m as usize).cloned())
            .collect();
        if !plan.results.is_empty() {
            let keys = Keys {
                corpus: &plan,
                models: &models,
            };
            let labels = fm_keys.iter().map(|(t, m)| (t.as_str(), m.as_str()));
            fm_label_warnings(name, labels, |t, m| keys.has_cell(t, m), warnings);
        }
        body.corpora.push(corpus);
        corpora.push(plan);
    }

    let jev: Vec<usize> = (0..paths.len())
        .filter(|&i| roles[i].is_jev_file())
        .collect();
    let free = corpora.is_empty() && !jev.is_empty();
    if free {
        body.corpora.push(Corpus {
            name: free_corpus_name(&paths[jev[0]]),
            ..Corpus::default()
        });
        corpora.push(CorpusPlan::default());
    }
    // Tables ranked, by the sorted set of table numbers a ranking row ranks.
    let mut tables: IndexSet<String> = IndexSet::new();
    let mut sets: IndexSet<Vec<u32>> = IndexSet::new();
    let mut ranked_sets: BTreeSet<usize> = BTreeSet::new();
    for &i in &jev {
        let path = paths[i].as_str();
        let role = roles[i];
        let rows = scan(i, path, open, &mut inputs, warnings, |m, loc, _| {
            Ok(match role {
                Role::Rankings => {
                    let r = jev_rows::ranking(m, loc)?;
                    let mut set: Vec<u32> = r
                        .ranked
                        .iter()
                        .map(|t| tables.insert_full(t.to_ascii_lowercase()).0 as u32)
                        .collect();
                    set.sort_unstable();
                    set.dedup();
                    (r.trace_id, None, sets.insert_full(set).0)
                }
                Role::FailureLabels => {
                    let l = jev_rows::failure_label(m, loc)?;
                    (l.trace_id, Some(l.model), 0)
                }
                _ => {
                    let g = jev_rows::gate_row(m, loc)?;
                    (g.trace_id, Some(g.model), 0)
                }
            })
        })?;
        let kept = if role == Role::Rankings {
            dedupe(path, rows, |(_, (id, _, _))| id.clone(), warnings)
        } else {
            dedupe(
                path,
                rows,
                |(_, (id, model, _))| (id.clone(), model.clone().unwrap_or_default()),
                warnings,
            )
        };
        let keys: Vec<Keys<'_>> = corpora
            .iter()
            .map(|corpus| Keys {
                corpus,
                models: &models,
            })
            .collect();
        let mut placed = Vec::with_capacity(kept.len());
        for (line, (place, (trace_id, model, set))) in kept {
            let at = target(
                &keys,
                free,
                &trace_id,
                model.as_deref(),
                (path, line),
                warnings,
            );
            if let Some(ci) = at {
                placed.push((ci, place, set));
            }
        }
        drop(keys);
        for (ci, place, set) in placed {
            let c = &mut corpora[ci];
            match role {
                Role::Rankings => {
                    ranked_sets.insert(set);
                    c.rankings.push(place);
                }
                Role::FailureLabels => c.failure_labels.push(place),
                _ => c.gate_rows.push(place),
            }
        }
    }
    let ranked: BTreeSet<String> = ranked_sets
        .iter()
        .filter_map(|&s| sets.get_index(s))
        .flatten()
        .filter_map(|&t| tables.get_index(t as usize).cloned())
        .collect();
    finish_body(&mut body, ranked, opts, warnings);
    let provenance = Provenance {
        runlens_version: opts.runlens_version.clone(),
        created_at: opts.created_at.clone(),
        inputs,
    };
    Ok(Plan {
        body,
        provenance,
        corpora,
    })
}

/// The second pass: each kept row read again from its place and converted again.
struct Reread<'a, 'o> {
    paths: &'a [String],
    open: &'a mut Open<'o>,
    /// Open readers by file, with the offset each stands at.
    readers: HashMap<usize, (BufReader<Box<dyn ReadSeek>>, u64)>,
    plan: &'a Plan,
}

impl Reread<'_, '_> {
    /// The JSON object at `place`.
    fn object(&mut self, place: Place) -> Result<Map<String, Value>, V2Error> {
        let path = self.paths[place.file].as_str();
        let read_err = |message: String| V2Error::Read {
            path: path.to_owned(),
            message,
        };
        if !self.readers.contains_key(&place.file) {
            let file = (self.open)(place.file).map_err(|e| read_err(e.to_string()))?;
            self.readers
                .insert(place.file, (BufReader::with_capacity(1 << 20, file), 0));
        }
        let Some((reader, at)) = self.readers.get_mut(&place.file) else {
            return Err(read_err("not open".to_owned()));
        };
        let to = place.span.offset;
        match to.checked_sub(*at) {
            Some(0) => {}
            Some(ahead) if ahead < (1 << 20) => reader
                .seek_relative(ahead as i64)
                .map_err(|e| read_err(e.to_string()))?,
            _ => {
                reader
                    .seek(SeekFrom::Start(to))
                    .map_err(|e| read_err(e.to_string()))?;
            }
        }
        let mut bytes = vec![0; place.span.len];
        reader
            .read_exact(&mut bytes)
            .map_err(|e| read_err(format!("line {}: {e} (did the file change?)", place.line)))?;
        *at = to + place.span.len as u64;
        parse_object(path, Some(place.line), &bytes)
            .map_err(|e| read_err(format!("{e} (did the file change since it was read?)")))
    }
}

impl Rows for Reread<'_, '_> {
    fn each(&mut self, ci: usize, list: List, each: &mut EachRow<'_>) -> Result<(), V2Error> {
        // The plan is borrowed apart from `self`, so its places need no copy.
        let plan = self.plan;
        let Some(c) = plan.corpora.get(ci) else {
            return Ok(());
        };
        let places: Box<dyn Iterator<Item = Place>> = match list {
            List::Questions => Box::new(c.questions.iter().copied()),
            List::Results => Box::new(c.results.iter().map(|r| r.place)),
            List::Rankings => Box::new(c.rankings.iter().copied()),
            List::FailureLabels => Box::new(c.failure_labels.iter().copied()),
            List::FmLabels => Box::new(c.fm_labels.iter().copied()),
            List::GateRows => Box::new(c.gate_rows.iter().copied()),
        };
        let mut scratch = Vec::new();
        for place in places {
            let object = self.object(place)?;
            let path = self.paths[place.file].as_str();
            let loc = Loc {
                file: path,
                line: Some(place.line),
            };
            let again = |e: ImportError| V2Error::Read {
                path: path.to_owned(),
                message: format!("{e} (did the file change since it was read?)"),
            };
            scratch.clear();
            match list {
                List::Questions => each(Row::Question(
                    &rows::question(object, loc, &mut scratch).map_err(again)?,
                ))?,
                List::Results => each(Row::Result(
                    &rows::result_row(object, loc, &mut scratch).map_err(again)?,
                ))?,
                List::Rankings => each(Row::Ranking(
                    &jev_rows::ranking(object, loc).map_err(again)?,
                ))?,
                List::FailureLabels => each(Row::FailureLabel(
                    &jev_rows::failure_label(object, loc).map_err(again)?,
                ))?,
                List::FmLabels => each(Row::FmLabel(
                    &jev_rows::fm_label(object, loc).map_err(again)?,
                ))?,
                List::GateRows => {
                    each(Row::Gate(&jev_rows::gate_row(object, loc).map_err(again)?))?
                }
            }
        }
        Ok(())
    }
}
