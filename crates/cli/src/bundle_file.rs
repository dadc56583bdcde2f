//! Reading and writing a run bundle in any of its three forms, chosen by the path:
//! `.json` / `.json.gz` → `runlens.bundle/1`; `.zip` → v2 in one zip of stored entries; a
//! name without an extension → v2 as a directory (`manifest.json` and its entries).

use std::fs::File;
use std::io::{BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use indicatif::ProgressBar;
use runlens_core::bundle::Bundle;
use runlens_core::bundle::v2::stream::EntrySink;
use runlens_core::bundle::v2::zip_form::{ZipEntries, write_zip, write_zip_from};
use runlens_core::bundle::v2::{DirEntries, MANIFEST, V2Error, read_bundle, write_entries};
use runlens_core::import::ImportOptions;
use runlens_core::import::stream::{ReadSeek, Streamed, export_streamed};

use crate::progress::Counting;

/// A bundle's physical form.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    /// One JSON document (`gzip`: compressed).
    V1 {
        /// `.json.gz`.
        gzip: bool,
    },
    /// v2, one zip.
    Zip,
    /// v2, a directory.
    Dir,
}

impl Form {
    /// The form an output path asks for; an error for any other extension.
    pub fn of_output(path: &Path) -> Result<Form> {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        Ok(if name.ends_with(".json.gz") {
            Form::V1 { gzip: true }
        } else if name.ends_with(".json") {
            Form::V1 { gzip: false }
        } else if name.ends_with(".zip") {
            Form::Zip
        } else if !name.is_empty() && !name.contains('.') {
            Form::Dir
        } else {
            bail!(
                "{}: the output must end in .zip (v2, one file), .json or .json.gz (v1), or be a \
                 folder name without an extension (v2, a directory)",
                path.display()
            )
        })
    }

    /// How it is named in messages.
    pub fn label(self) -> &'static str {
        match self {
            Form::V1 { gzip: true } => "runlens.bundle/1, gzip",
            Form::V1 { gzip: false } => "runlens.bundle/1",
            Form::Zip => "runlens.bundle/2, zip",
            Form::Dir => "runlens.bundle/2, directory",
        }
    }
}

/// Whether `path` is a v2 bundle directory (holds `manifest.json`).
pub fn is_bundle_dir(path: &Path) -> bool {
    path.is_dir() && path.join(MANIFEST).is_file()
}

/// An error when `path` exists and is not a v2 bundle directory (writing one there would
/// replace a folder that is not ours).
fn refuse_other_folder(path: &Path) -> Result<()> {
    if path.exists() && !is_bundle_dir(path) {
        bail!(
            "{}: exists and is not a bundle directory; not overwriting it",
            path.display()
        );
    }
    Ok(())
}

/// Reads a bundle in any form (the content hash is not checked here), advancing `bar` by the
/// bytes read from a file (a zip or a v1 document; its length is set to the file's size) and
/// naming the step in its message.
pub fn read_with(path: &Path, bar: &ProgressBar) -> Result<Bundle> {
    if path.is_dir() {
        if !is_bundle_dir(path) {
            bail!(
                "{}: a directory without {MANIFEST} is not a bundle",
                path.display()
            );
        }
        return read_bundle(&mut DirEntries(path.to_path_buf()))
            .with_context(|| format!("reading bundle {}", path.display()));
    }
    let mut file =
        File::open(path).with_context(|| format!("reading bundle {}", path.display()))?;
    bar.set_length(size(path));
    let mut magic = [0u8; 4];
    let is_zip =
        std::io::Read::read_exact(&mut file, &mut magic).is_ok() && magic == *b"PK\x03\x04";
    if is_zip {
        let counted = Counting(file, bar.clone());
        let mut entries = ZipEntries::new(BufReader::new(counted))
            .with_context(|| format!("reading bundle {}", path.display()))?;
        return read_bundle(&mut entries)
            .with_context(|| format!("reading bundle {}", path.display()));
    }
    std::io::Seek::rewind(&mut file)
        .with_context(|| format!("reading bundle {}", path.display()))?;
    let mut bytes = Vec::new();
    std::io::Read::read_to_end(&mut Counting(file, bar.clone()), &mut bytes)
        .with_context(|| format!("reading bundle {}", path.display()))?;
    bar.set_message("parsing");
    Bundle::from_slice(&bytes).with_context(|| format!("parsing bundle {}", path.display()))
}

/// [`read_with`] under its own progress bar ("reading"; none when `quiet`), cleared when done.
pub fn read(path: &Path, quiet: bool) -> Result<Bundle> {
    let bar = crate::progress::bytes(quiet, Some(0), "reading");
    let bundle = read_with(path, &bar);
    bar.finish_and_clear();
    bundle
}

/// Writes `bundle` to `path` in the form the path asks for, through a temporary name in the
/// same folder (renamed at the end); returns the bytes written.
pub fn write(bundle: &Bundle, path: &Path) -> Result<u64> {
    let form = Form::of_output(path)?;
    let tmp = sibling(path, ".tmp");
    match form {
        Form::V1 { gzip } => {
            let file = File::create(&tmp).with_context(|| format!("creating {}", tmp.display()))?;
            let mut out = BufWriter::with_capacity(1 << 20, file);
            if gzip {
                bundle.write_json_gz(&mut out)
            } else {
                bundle.write_json(&mut out)
            }
            .and_then(|()| out.flush())
            .with_context(|| format!("writing {}", tmp.display()))?;
        }
        Form::Zip => {
            let (manifest, entries) = write_entries(bundle)?;
            let file = File::create(&tmp).with_context(|| format!("creating {}", tmp.display()))?;
            let mut out = write_zip(BufWriter::with_capacity(1 << 20, file), &manifest, &entries)?;
            out.flush()
                .with_context(|| format!("writing {}", tmp.display()))?;
        }
        Form::Dir => {
            refuse_other_folder(path)?;
            let (manifest, entries) = write_entries(bundle)?;
            let _ = std::fs::remove_dir_all(&tmp);
            let put = |rel: &str, bytes: &[u8]| -> Result<()> {
                let file = rel.split('/').fold(tmp.clone(), |p, s| p.join(s));
                if let Some(parent) = file.parent() {
                    std::fs::create_dir_all(parent)
                        .with_context(|| format!("creating {}", parent.display()))?;
                }
                std::fs::write(&file, bytes).with_context(|| format!("writing {}", file.display()))
            };
            put(MANIFEST, &manifest)?;
            for e in &entries {
                put(&e.path, &e.bytes)?;
            }
            if path.exists() {
                std::fs::remove_dir_all(path)
                    .with_context(|| format!("replacing {}", path.display()))?;
            }
        }
    }
    std::fs::rename(&tmp, path)
        .with_context(|| format!("renaming {} to {}", tmp.display(), path.display()))?;
    Ok(size(path))
}

/// Writes each entry as a file under a folder.
struct DirSink(PathBuf);

impl DirSink {
    fn file(&self, rel: &str) -> PathBuf {
        rel.split('/').fold(self.0.clone(), |p, s| p.join(s))
    }
}

impl EntrySink for DirSink {
    fn put(&mut self, path: &str, bytes: Vec<u8>) -> Result<(), V2Error> {
        let file = self.file(path);
        let fail = |e: std::io::Error| V2Error::Read {
            path: file.display().to_string(),
            message: format!("cannot write: {e}"),
        };
        if let Some(parent) = file.parent() {
            std::fs::create_dir_all(parent).map_err(fail)?;
        }
        std::fs::write(&file, bytes).map_err(fail)
    }
}

/// Imports the harness files `paths` (on disk at `disk`) straight into a v2 bundle at `path`
/// (a `.zip` or a directory), never holding their rows: the entries are written to a folder
/// as they are finished, then renamed into place or copied into the zip. `opened` is told
/// each file as it is opened (for progress). Returns the bytes written and what was exported.
pub fn export_v2(
    paths: &[String],
    disk: &[PathBuf],
    opts: &ImportOptions,
    path: &Path,
    mut opened: impl FnMut(File) -> Box<dyn ReadSeek>,
) -> Result<(u64, Streamed)> {
    let form = Form::of_output(path)?;
    if form == Form::Dir {
        refuse_other_folder(path)?;
    }
    let folder = sibling(path, if form == Form::Zip { ".tmp.d" } else { ".tmp" });
    let _ = std::fs::remove_dir_all(&folder);
    let mut sink = DirSink(folder.clone());
    let mut open =
        |i: usize| -> std::io::Result<Box<dyn ReadSeek>> { Ok(opened(File::open(&disk[i])?)) };
    let streamed = export_streamed(paths, &mut open, opts, &mut sink)?;
    let manifest = &streamed.written.json;
    match form {
        Form::Zip => {
            let tmp = sibling(path, ".tmp");
            let entries: Vec<(&str, u64)> = streamed
                .written
                .manifest
                .entries
                .iter()
                .map(|e| (e.path.as_str(), e.size))
                .collect();
            let file = File::create(&tmp).with_context(|| format!("creating {}", tmp.display()))?;
            let mut read_entry = |i: usize| -> std::io::Result<Box<dyn std::io::Read>> {
                Ok(Box::new(File::open(sink.file(entries[i].0))?))
            };
            let mut out = write_zip_from(
                BufWriter::with_capacity(1 << 20, file),
                manifest,
                &entries,
                &mut read_entry,
            )?;
            out.flush()
                .with_context(|| format!("writing {}", tmp.display()))?;
            drop(out);
            let _ = std::fs::remove_dir_all(&folder);
            std::fs::rename(&tmp, path)
                .with_context(|| format!("renaming {} to {}", tmp.display(), path.display()))?;
        }
        _ => {
            std::fs::write(folder.join(MANIFEST), manifest)
                .with_context(|| format!("writing {}", folder.display()))?;
            if path.exists() {
                std::fs::remove_dir_all(path)
                    .with_context(|| format!("replacing {}", path.display()))?;
            }
            std::fs::rename(&folder, path)
                .with_context(|| format!("renaming {} to {}", folder.display(), path.display()))?;
        }
    }
    Ok((size(path), streamed))
}

fn sibling(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}

/// Bytes of a file, or of every file under a directory.
pub fn size(path: &Path) -> u64 {
    if path.is_dir() {
        std::fs::read_dir(path)
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| size(&e.path()))
            .sum()
    } else {
        std::fs::metadata(path).map(|m| m.len()).unwrap_or(0)
    }
}
