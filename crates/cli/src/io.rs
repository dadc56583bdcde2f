//! Reading harness folders into in-memory [`InputFile`]s for `runlens_core::import`.
//!
//! Layout rules (see `docs/bundle-format.md`, "Folders"):
//! - a folder holding a corpus file (`annotated.jsonl`, `results.jsonl`, `fm_labels.jsonl`,
//!   `board_manifest.json`) is a corpus, named by its folder name (or `--corpus NAME=DIR`);
//!   Jev files beside them and in its `out/` subfolder are read too;
//! - a folder holding only Jev files (`schema_retrieval.jsonl`, `failure_labels.jsonl`,
//!   `schema_retrieval_agent.jsonl`) is a Jev folder;
//! - a folder holding neither but with corpus subfolders is a root: each such subfolder is a
//!   corpus and its `out/` is the Jev folder;
//! - in every folder, `schema.md`, `system.md`, `prompts/system.md`, `rules*.yaml`,
//!   `config/rules*.yaml` and `SYNTHETIC.md` (also in the parent folder) are picked up
//!   (first one wins).

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use runlens_core::import::InputFile;

const CORPUS_FILES: [&str; 4] = [
    "annotated.jsonl",
    "results.jsonl",
    "fm_labels.jsonl",
    "board_manifest.json",
];
const JEV_FILES: [&str; 3] = [
    "schema_retrieval.jsonl",
    "failure_labels.jsonl",
    "schema_retrieval_agent.jsonl",
];
const SCHEMA_FILES: [&str; 3] = ["schema.md", "system.md", "prompts/system.md"];

/// The files found in the given folders, with the schema and rules paths chosen.
#[derive(Debug, Default)]
pub struct Collected {
    /// Every file to import, with its relative import path.
    pub files: Vec<InputFile>,
    /// Import path of the schema prompt, if any.
    pub schema_path: Option<String>,
    /// Import path of the rules YAML, if any.
    pub rules_path: Option<String>,
    /// Where each of `files` is on disk.
    pub disk: Vec<PathBuf>,
}

/// What to read: folders (optionally renamed) and explicit schema/rules files.
#[derive(Debug, Default)]
pub struct Sources {
    /// Folders, each with an optional corpus name override.
    pub dirs: Vec<(Option<String>, PathBuf)>,
    /// `--schema FILE`.
    pub schema: Option<PathBuf>,
    /// `--rules FILE`.
    pub rules: Option<PathBuf>,
}

/// Reads every harness file of `sources`; `on_file` is called with each file's size.
pub fn collect(sources: &Sources, on_file: impl FnMut(u64)) -> Result<Collected> {
    collect_files(sources, true, on_file)
}

/// Finds every harness file of `sources` without reading it (each [`InputFile`] has no
/// bytes; [`Collected::disk`] says where it is), for an import that reads them itself.
pub fn find(sources: &Sources) -> Result<Collected> {
    collect_files(sources, false, |_| {})
}

fn collect_files(
    sources: &Sources,
    with_bytes: bool,
    mut on_file: impl FnMut(u64),
) -> Result<Collected> {
    let mut out = Collected::default();
    let mut read = |out: &mut Collected, path: &Path, as_path: String| -> Result<String> {
        let bytes = if with_bytes {
            std::fs::read(path).with_context(|| format!("reading {}", path.display()))?
        } else {
            Vec::new()
        };
        on_file(bytes.len() as u64);
        out.files.push(InputFile {
            path: as_path.clone(),
            bytes,
        });
        out.disk.push(path.to_path_buf());
        Ok(as_path)
    };
    if let Some(schema) = &sources.schema {
        let p = read(&mut out, schema, file_name(schema))?;
        out.schema_path = Some(p);
    }
    if let Some(rules) = &sources.rules {
        let p = read(&mut out, rules, format!("config/{}", file_name(rules)))?;
        out.rules_path = Some(p);
    }
    for (name, dir) in &sources.dirs {
        if !dir.is_dir() {
            bail!("{}: not a folder", dir.display());
        }
        let dir_name = name.clone().unwrap_or_else(|| file_name(dir));
        let corpus_here = has_any(dir, &CORPUS_FILES);
        let jev_here = has_any(dir, &JEV_FILES);
        let mut found_any = corpus_here || jev_here;
        if corpus_here || jev_here {
            read_known(&mut out, dir, &dir_name, &mut read)?;
            let out_dir = dir.join("out");
            if corpus_here && has_any(&out_dir, &JEV_FILES) {
                read_known(&mut out, &out_dir, &format!("{dir_name}/out"), &mut read)?;
            }
        } else {
            for sub in subfolders(dir)? {
                let sub_name = file_name(&sub);
                if has_any(&sub, &CORPUS_FILES) || (sub_name == "out" && has_any(&sub, &JEV_FILES))
                {
                    read_known(&mut out, &sub, &sub_name, &mut read)?;
                    found_any = true;
                }
            }
        }
        found_any |= read_extras(&mut out, dir, &mut read)?;
        if !found_any {
            bail!(
                "{}: no harness files here (expected annotated.jsonl, results.jsonl, fm_labels.jsonl, board_manifest.json, out/*.jsonl or corpus subfolders)",
                dir.display()
            );
        }
    }
    Ok(out)
}

type Reader<'a> = dyn FnMut(&mut Collected, &Path, String) -> Result<String> + 'a;

fn read_known(out: &mut Collected, dir: &Path, prefix: &str, read: &mut Reader<'_>) -> Result<()> {
    for name in CORPUS_FILES.iter().chain(JEV_FILES.iter()) {
        let path = dir.join(name);
        if path.is_file() {
            // Two folders with the same name would silently merge into one corpus.
            if CORPUS_FILES.contains(name)
                && out
                    .files
                    .iter()
                    .any(|f| f.path == format!("{prefix}/{name}"))
            {
                bail!(
                    "{}: a second corpus named {prefix:?}; name them apart with --corpus NAME=DIR",
                    dir.display()
                );
            }
            read(out, &path, format!("{prefix}/{name}"))?;
        }
    }
    Ok(())
}

/// Schema prompt, rules and `SYNTHETIC.md` of a folder; true if any was read.
fn read_extras(out: &mut Collected, dir: &Path, read: &mut Reader<'_>) -> Result<bool> {
    let mut any = false;
    let dir_name = file_name(dir);
    if out.schema_path.is_none()
        && let Some(rel) = SCHEMA_FILES.iter().find(|rel| dir.join(rel).is_file())
    {
        out.schema_path = Some(read(out, &dir.join(rel), format!("{dir_name}/{rel}"))?);
        any = true;
    }
    if out.rules_path.is_none() {
        for sub in ["", "config"] {
            let d = if sub.is_empty() {
                dir.to_path_buf()
            } else {
                dir.join(sub)
            };
            if let Some(file) = rules_file(&d)? {
                let rel = if sub.is_empty() {
                    file_name(&file)
                } else {
                    format!("{sub}/{}", file_name(&file))
                };
                out.rules_path = Some(read(out, &file, format!("{dir_name}/{rel}"))?);
                any = true;
                break;
            }
        }
    }
    // `SYNTHETIC.md` in the folder or its parent (synth writes it at the root, beside the
    // corpus folders); it marks the bundle synthetic but does not make a folder a source.
    let parent = std::path::absolute(dir)
        .ok()
        .and_then(|d| d.parent().map(Path::to_path_buf));
    let candidates = [Some(dir.to_path_buf()), parent];
    for folder in candidates.iter().flatten() {
        let notice = folder.join("SYNTHETIC.md");
        if notice.is_file() && !out.files.iter().any(|f| f.path.ends_with("SYNTHETIC.md")) {
            read(out, &notice, format!("{}/SYNTHETIC.md", file_name(folder)))?;
            any |= folder.as_path() == dir;
            break;
        }
    }
    Ok(any)
}

fn rules_file(dir: &Path) -> Result<Option<PathBuf>> {
    if !dir.is_dir() {
        return Ok(None);
    }
    let mut names: Vec<PathBuf> = std::fs::read_dir(dir)
        .with_context(|| format!("listing {}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            let n = file_name(p);
            p.is_file() && n.starts_with("rules") && (n.ends_with(".yaml") || n.ends_with(".yml"))
        })
        .collect();
    names.sort();
    Ok(names.into_iter().next())
}

fn subfolders(dir: &Path) -> Result<Vec<PathBuf>> {
    let mut subs: Vec<PathBuf> = std::fs::read_dir(dir)
        .with_context(|| format!("listing {}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_dir())
        .collect();
    // Sorted for a stable corpus order; `out` last so corpora come first.
    subs.sort_by_key(|p| (file_name(p) == "out", file_name(p)));
    Ok(subs)
}

fn has_any(dir: &Path, names: &[&str]) -> bool {
    names.iter().any(|n| dir.join(n).is_file())
}

/// The last path component as text (`.` and `..` resolved through the absolute path).
pub fn file_name(path: &Path) -> String {
    let abs = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let normal: PathBuf = abs.components().fold(PathBuf::new(), |mut acc, c| {
        match c {
            std::path::Component::ParentDir => {
                acc.pop();
            }
            std::path::Component::CurDir => {}
            other => acc.push(other),
        }
        acc
    });
    normal
        .file_name()
        .map_or_else(|| "root".to_owned(), |n| n.to_string_lossy().into_owned())
}

/// The current UTC time as RFC 3339 (`2026-12-02T12:00:00Z`), or `SOURCE_DATE_EPOCH` when
/// set (reproducible builds).
pub fn now_rfc3339() -> String {
    let secs = std::env::var("SOURCE_DATE_EPOCH")
        .ok()
        .and_then(|s| s.trim().parse::<i64>().ok())
        .unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX))
        });
    rfc3339(secs)
}

/// Seconds since the Unix epoch as RFC 3339 UTC (proleptic Gregorian calendar).
pub fn rfc3339(secs: i64) -> String {
    let days = secs.div_euclid(86_400);
    let rem = secs.rem_euclid(86_400);
    // Howard Hinnant's days-to-civil algorithm.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

#[cfg(test)]
mod tests {
    use super::rfc3339;

    #[test]
    fn rfc3339_matches_known_instants() {
        assert_eq!(rfc3339(0), "1970-01-01T00:00:00Z");
        // 2000-02-29 (leap day): 11016 days after the epoch, plus 12:34:56.
        assert_eq!(
            rfc3339(11_016 * 86_400 + 12 * 3600 + 34 * 60 + 56),
            "2000-02-29T12:34:56Z"
        );
        // `date -u -d @1796212800` → 2026-12-02T12:00:00Z.
        assert_eq!(rfc3339(1_796_212_800), "2026-12-02T12:00:00Z");
    }
}
