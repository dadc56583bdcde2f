//! Opening a `runlens.bundle/2` in the browser: a zip by HTTP `Range` requests (or
//! `Blob.slice` for an opened file), a directory by one GET per entry (or the files of a
//! folder pick). The entries are fetched here and handed to core's reader, which checks each
//! against the manifest's size and SHA-256 and rebuilds the bundle, exactly as the CLI reads
//! it (docs/bundle-format.md).

use std::collections::{HashMap, HashSet};
use std::rc::Rc;

use futures::StreamExt;
use runlens_core::bundle::Bundle;
use runlens_core::bundle::v2::facts::is_cells_path;
use runlens_core::bundle::v2::zip_index::{
    self, TAIL_BYTES, ZipEntryAt, central_directory, coalesce, entry_bytes, spans,
};
use runlens_core::bundle::v2::{
    EntryInfo, MANIFEST, Manifest, MemoryEntries, V2Error, parse_manifest,
};
use runlens_core::bundle::v2::{is_cell_text_path, is_early_table_path};

use super::cell_text::{CellTexts, ChunkSource};
use super::entries::{Count, DirEntries, ZipBytes, check_and_inflate_one, invalid};
use super::prefetched;
use super::progress::{Early, OnProgress, Phase, Progress};
use super::request::{LoadError, LoadStats};
use crate::api::{self, ByteRange, RangeReply};
use crate::chunks::{prefetch, split_call, split_point};
use crate::clock::now_ms;

/// How a bundle address is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UrlForm {
    /// A v1 file (`.json`, `.json.gz`, or anything else), downloaded whole.
    V1,
    /// A v2 zip (`….zip`), read by ranges.
    Zip,
    /// A v2 directory (`…/` or `…/manifest.json`), read entry by entry.
    Dir,
}

/// The form an address names, from its path (query and fragment ignored).
pub fn url_form(url: &str) -> UrlForm {
    let path = url.split(['?', '#']).next().unwrap_or(url);
    let lower = path.to_ascii_lowercase();
    if lower.ends_with(".zip") {
        UrlForm::Zip
    } else if lower.ends_with('/') || lower.ends_with("/manifest.json") || lower == MANIFEST {
        UrlForm::Dir
    } else {
        UrlForm::V1
    }
}

/// The directory's base address (ending in `/`) for a [`UrlForm::Dir`] address.
pub fn dir_base(url: &str) -> String {
    let (path, _) = url.split_once(['?', '#']).unwrap_or((url, ""));
    path.strip_suffix(MANIFEST).unwrap_or(path).to_owned()
}

/// Whether bytes start like a zip (a local file header).
pub fn is_zip(bytes: &[u8]) -> bool {
    bytes.starts_with(b"PK\x03\x04")
}

/// Ranges closer than this are fetched as one request (what a gap costs is less than a
/// request's round trip).
const MAX_GAP: u64 = 256 * 1024;

/// A whole file as [`ZipBytes`], with its last [`TAIL_BYTES`] and its size.
fn whole_with_tail(all: Vec<u8>) -> (ZipBytes, Vec<u8>, u64) {
    let tail = all[all.len().saturating_sub(TAIL_BYTES as usize)..].to_vec();
    let size = all.len() as u64;
    (ZipBytes::Whole(all), tail, size)
}

/// Reads a v2 zip: its end records and central directory, the manifest, then every entry
/// the manifest lists in as few ranges as [`MAX_GAP`] allows; core checks and decodes them.
pub async fn load_zip(
    name: &str,
    bytes: ZipBytes,
    progress: OnProgress<'_>,
    early: Early<'_>,
) -> Result<(Bundle, LoadStats), LoadError> {
    let t0 = now_ms();
    let mut count = Count::default();
    let downloading = |done, total| {
        progress(Progress {
            phase: Phase::Downloading,
            done,
            total,
        })
    };
    // The tail: the end records (and, for a bundle's small directory, the directory too);
    // read already when the worker's script started it (`assets/loader-prefetch.js`).
    let mut prefetched = false;
    let (bytes, tail, file_size) = match bytes {
        ZipBytes::Http(url) => {
            count.requests += 1;
            let range = ByteRange::Last(TAIL_BYTES);
            let reply = match prefetched::take(&url, Some(&range.header())) {
                Some(early) => {
                    prefetched = true;
                    let got = early.finish(progress).await?;
                    api::range_reply(&url, range, got.status, got.content_range, got.bytes)?
                }
                None => api::fetch_range(&url, range, &downloading).await?,
            };
            match reply {
                RangeReply::Partial { bytes, file_size } => {
                    count.bytes += bytes.len() as u64;
                    (ZipBytes::Http(url), bytes, file_size)
                }
                RangeReply::Whole(all) => {
                    count.bytes += all.len() as u64;
                    count.whole = true;
                    whole_with_tail(all)
                }
            }
        }
        ZipBytes::Blob(blob) => {
            let size = blob.size().max(0.0) as u64;
            let from = size.saturating_sub(TAIL_BYTES);
            let b = ZipBytes::Blob(blob);
            let tail = b.read(name, from, size, &mut count, &|_| {}).await?;
            (b, tail, size)
        }
        ZipBytes::Whole(all) => whole_with_tail(all),
    };
    let zip_err = |e: zip_index::ZipIndexError| invalid(name, format!("bundle: {e}"));
    let (cd_offset, cd_size) = central_directory(&tail, file_size).map_err(zip_err)?;
    let tail_start = file_size - tail.len() as u64;
    let cd = if cd_offset >= tail_start {
        let at = (cd_offset - tail_start) as usize;
        tail[at..at + cd_size as usize].to_vec()
    } else {
        let end = cd_offset + cd_size;
        bytes
            .read(name, cd_offset, end, &mut count, &|_| {})
            .await?
    };
    drop(tail);
    let found = zip_index::entries(&cd).map_err(zip_err)?;
    let spans = spans(&found, cd_offset);
    let at: HashMap<&str, usize> = found
        .iter()
        .enumerate()
        .map(|(i, e)| (e.name.as_str(), i))
        .collect();
    let manifest_at = *at
        .get(MANIFEST)
        .ok_or_else(|| invalid(name, format!("bundle: entry {MANIFEST} is missing")))?;
    // The manifest with the cells columns (written right after it): one read for the summary.
    // Its other entries wait for the manifest's list.
    let first_read = first_read(&found, &spans, manifest_at);
    let (s, e) = first_read;
    let first_progress = |d| downloading(d, Some(e - s));
    let (first, ()) = futures::join!(
        bytes.read(name, s, e, &mut count, &first_progress),
        // Asked for after that read, so its requests queue behind it.
        async { prefetch_decoder() }
    );
    let first = first?;
    let manifest_bytes = entry_bytes(&found[manifest_at], &first, s)
        .map_err(zip_err)?
        .to_vec();
    let manifest = parse_manifest(&manifest_bytes).map_err(|e| invalid(name, e))?;
    // Every entry the manifest lists; one it lists but the zip lacks is left for core to name.
    let wanted: Vec<&ZipEntryAt> = manifest
        .entries
        .iter()
        .filter_map(|e| at.get(e.path.as_str()).map(|&i| &found[i]))
        .collect();
    let mut memory = MemoryEntries::default();
    memory.0.insert(MANIFEST.to_owned(), manifest_bytes);
    let zip = Zip {
        name,
        bytes: &bytes,
        spans: &spans,
        at: &at,
    };
    // The cells columns first (the summary needs nothing else), then the questions,
    // rankings, labels and gate rows (the ranking, failures and gate views need nothing
    // else), then everything else.
    // A reader that takes the cells' text chunks (the worker) fetches none of them now.
    let light = early.cell_texts.is_some();
    let wanted: Vec<&ZipEntryAt> = wanted
        .into_iter()
        .filter(|e| !(light && is_cell_text_path(&e.name)))
        .collect();
    let all = wanted.clone();
    zip.cut(&first, first_read, &all, &mut memory)?;
    drop(first);
    let (cells, rest): (Vec<&ZipEntryAt>, Vec<&ZipEntryAt>) =
        wanted.into_iter().partition(|e| is_cells_path(&e.name));
    let (ranking, rest): (Vec<&ZipEntryAt>, Vec<&ZipEntryAt>) =
        rest.into_iter().partition(|e| is_early_table_path(&e.name));
    zip.fetch(&cells, &all, &mut memory, &mut count, &downloading)
        .await?;
    let mut inflated = HashSet::new();
    send_summary(name, &manifest, &mut memory, &mut inflated, early).await?;
    zip.fetch(&ranking, &all, &mut memory, &mut count, &downloading)
        .await?;
    let tables =
        send_early_tables(name, &manifest, &mut memory, &mut inflated, early, progress).await?;
    zip.fetch(&rest, &all, &mut memory, &mut count, &downloading)
        .await?;
    let download_ms = now_ms() - t0;
    let whole = count.whole;
    let read = (memory, inflated);
    let mut stats = decode(
        name,
        &manifest,
        read,
        count,
        download_ms,
        progress,
        (tables, light),
    )
    .await?;
    stats.1.whole_zip = whole;
    stats.1.prefetched = prefetched;
    if let Some(take) = early.cell_texts {
        let at = found
            .iter()
            .enumerate()
            .filter(|(_, e)| is_cell_text_path(&e.name))
            .map(|(i, e)| (e.name.clone(), (e.clone(), spans[i])))
            .collect();
        take(CellTexts::new(
            name,
            &manifest,
            ChunkSource::Zip { bytes, at },
        ));
    }
    Ok(stats)
}

/// A zip's layout, for fetching entries.
struct Zip<'a> {
    name: &'a str,
    bytes: &'a ZipBytes,
    spans: &'a [(u64, u64)],
    at: &'a HashMap<&'a str, usize>,
}

impl Zip<'_> {
    /// Fetches `wanted` (those not in `memory` yet) in as few ranges as [`MAX_GAP`] allows
    /// and cuts out into `memory` every entry of `all` that a range holds whole (a gap read
    /// is not read again), unless `memory` has it already (maybe checked and inflated).
    async fn fetch(
        &self,
        wanted: &[&ZipEntryAt],
        all: &[&ZipEntryAt],
        memory: &mut MemoryEntries,
        count: &mut Count,
        downloading: &dyn Fn(u64, Option<u64>),
    ) -> Result<(), LoadError> {
        let wanted: Vec<&ZipEntryAt> = wanted
            .iter()
            .copied()
            .filter(|e| !memory.0.contains_key(&e.name))
            .collect();
        let ranges = coalesce(
            wanted
                .iter()
                .map(|e| self.spans[self.at[e.name.as_str()]])
                .collect(),
            MAX_GAP,
        );
        let total: u64 = ranges.iter().map(|(s, e)| e - s).sum();
        let mut done = 0;
        for (start, end) in ranges {
            let buf = self
                .bytes
                .read(self.name, start, end, count, &|d| {
                    downloading(done + d, Some(total))
                })
                .await?;
            done += end - start;
            self.cut(&buf, (start, end), all, memory)?;
        }
        Ok(())
    }

    /// Cuts out into `memory` every entry of `all` that `buf` (the file's bytes `read`) holds
    /// whole, unless `memory` has it already (maybe checked and inflated).
    fn cut(
        &self,
        buf: &[u8],
        (start, end): (u64, u64),
        all: &[&ZipEntryAt],
        memory: &mut MemoryEntries,
    ) -> Result<(), LoadError> {
        let held = |e: &&&ZipEntryAt| {
            let (s, e) = self.spans[self.at[e.name.as_str()]];
            s >= start && e <= end
        };
        for entry in all.iter().filter(held) {
            if memory.0.contains_key(&entry.name) {
                continue;
            }
            let data = entry_bytes(entry, buf, start)
                .map_err(|e| invalid(self.name, format!("bundle: {e}")))?;
            memory.0.insert(entry.name.clone(), data.to_vec());
        }
        Ok(())
    }
}

/// The span of a zip's first read: the manifest's, and the cells tables' when they lie within
/// [`MAX_GAP`] of it, as a bundle written by runlens puts them (the entries are found by name
/// in the central directory; one the manifest does not list is not kept).
fn first_read(found: &[ZipEntryAt], spans: &[(u64, u64)], manifest_at: usize) -> (u64, u64) {
    let manifest = spans[manifest_at];
    let near: Vec<(u64, u64)> = found
        .iter()
        .zip(spans)
        .filter(|(e, _)| is_cells_path(&e.name))
        .map(|(_, &span)| span)
        .chain([manifest])
        .collect();
    coalesce(near, MAX_GAP)
        .into_iter()
        .find(|&(s, e)| s <= manifest.0 && manifest.1 <= e)
        .unwrap_or(manifest)
}

/// Parallel entry requests (what browsers allow per host on HTTP/1.1).
const PARALLEL: usize = 6;

/// Reads a v2 directory: the manifest, then every entry it lists ([`PARALLEL`] at a time);
/// core checks and decodes them.
pub async fn load_dir(
    name: &str,
    dir: DirEntries,
    progress: OnProgress<'_>,
    early: Early<'_>,
) -> Result<(Bundle, LoadStats), LoadError> {
    prefetch_decoder();
    let t0 = now_ms();
    let manifest_bytes = dir.entry(MANIFEST).await?;
    let manifest = parse_manifest(&manifest_bytes).map_err(|e| invalid(name, e))?;
    let total: u64 = manifest.entries.iter().map(|e| e.size).sum();
    let mut count = Count {
        requests: 1,
        bytes: manifest_bytes.len() as u64,
        whole: false,
    };
    let mut memory = MemoryEntries::default();
    memory.0.insert(MANIFEST.to_owned(), manifest_bytes);
    // The cells columns first (the summary needs nothing else), then the questions,
    // rankings, labels and gate rows (the ranking, failures and gate views), then everything
    // else.
    // A reader that takes the cells' text chunks (the worker) fetches none of them now.
    let light = early.cell_texts.is_some();
    let (cells, rest): (Vec<&str>, Vec<&str>) = manifest
        .entries
        .iter()
        .map(|e| e.path.as_str())
        .filter(|p| !(light && is_cell_text_path(p)))
        .partition(|p| is_cells_path(p));
    let (ranking, rest): (Vec<&str>, Vec<&str>) =
        rest.into_iter().partition(|p| is_early_table_path(p));
    let mut done = 0;
    let mut inflated = HashSet::new();
    let mut tables = None;
    for (i, batch) in [cells, ranking, rest].into_iter().enumerate() {
        match i {
            1 => send_summary(name, &manifest, &mut memory, &mut inflated, early).await?,
            2 => {
                let read =
                    send_early_tables(name, &manifest, &mut memory, &mut inflated, early, progress);
                tables = Some(read.await?);
            }
            _ => {}
        }
        let mut fetches = futures::stream::iter(batch.into_iter().map(|path| {
            let dir = &dir;
            async move { (path, dir.entry(path).await) }
        }))
        .buffer_unordered(PARALLEL);
        while let Some((path, got)) = fetches.next().await {
            let bytes = match got {
                Ok(bytes) => bytes,
                // A missing entry is core's to name (it checks the manifest's list).
                Err(LoadError::Download(api::ApiError::Status { status: 404, .. })) => continue,
                Err(e) => return Err(e),
            };
            count.requests += 1;
            count.bytes += bytes.len() as u64;
            done += bytes.len() as u64;
            progress(Progress {
                phase: Phase::Downloading,
                done,
                total: Some(total),
            });
            memory.0.insert(path.to_owned(), bytes);
        }
    }
    let read = (memory, inflated);
    let tables = tables.ok_or_else(|| invalid(name, "bundle: the early tables were not read"))?;
    let rest = (tables, light);
    let loaded = decode(name, &manifest, read, count, now_ms() - t0, progress, rest).await?;
    if let Some(take) = early.cell_texts {
        take(CellTexts::new(name, &manifest, ChunkSource::Dir(dir)));
    }
    Ok(loaded)
}

/// Hands the summary (leaderboards from the cells columns) to `summary` before the rows are
/// read; a damaged `cells` entry is the load's error, named as core names it.
async fn send_summary(
    name: &str,
    manifest: &Manifest,
    memory: &mut MemoryEntries,
    inflated: &mut HashSet<String>,
    early: Early<'_>,
) -> Result<(), LoadError> {
    check_and_inflate(manifest, memory, inflated)
        .await
        .map_err(|e| invalid(name, e))?;
    let memory = &*memory;
    let encoded = split_call!(v2_summary(manifest, memory)).map_err(|e| invalid(name, e))?;
    if let Some((body, skeleton_len)) = encoded.map_err(|e| invalid(name, e))? {
        (early.summary)(body, skeleton_len);
    }
    prefetch_reader();
    Ok(())
}

/// Reads the bundle with only its questions, ranking rows, labels and gate rows (their
/// entries taken out of `memory`) and hands it to `early.tables` (the ranking, failures and
/// gate views are answered from it while the rest is read); the rest is read beside it
/// ([`decode`]). A damaged entry is the load's error.
async fn send_early_tables(
    name: &str,
    manifest: &Manifest,
    memory: &mut MemoryEntries,
    inflated: &mut HashSet<String>,
    early: Early<'_>,
    progress: OnProgress<'_>,
) -> Result<Rc<Bundle>, LoadError> {
    // The line shown above the views that wait says what is happening (it said
    // "downloading… 100%" through the checking and reading that follow the download).
    progress(Progress {
        phase: Phase::Inflating,
        done: 0,
        total: None,
    });
    check_and_inflate(manifest, memory, inflated)
        .await
        .map_err(|e| invalid(name, e))?;
    progress(Progress {
        phase: Phase::Parsing,
        done: memory.0.values().map(|b| b.len() as u64).sum(),
        total: None,
    });
    let light = early.cell_texts.is_some();
    let partial = split_call!(v2_read_early(memory, light))
        .map_err(|e| invalid(name, e))?
        .map_err(|e| invalid(name, e))?;
    let partial = Rc::new(partial);
    (early.tables)(partial.clone());
    Ok(partial)
}

/// Checks every `.gz` entry in `memory` not in `done` against the manifest (size and
/// SHA-256, with the browser's `crypto.subtle` where there is one) and inflates it in place
/// with the browser's `DecompressionStream` (core's inflater where there is none: many times
/// slower in wasm), [`PARALLEL`] entries at a time; adds them to `done`. An entry the
/// manifest lists but `memory` lacks is left for core's reader to name.
pub async fn check_and_inflate(
    manifest: &Manifest,
    memory: &mut MemoryEntries,
    done: &mut HashSet<String>,
) -> Result<(), V2Error> {
    let todo: Vec<(&EntryInfo, Vec<u8>)> = manifest
        .entries
        .iter()
        .filter(|info| info.path.ends_with(".gz") && !done.contains(&info.path))
        .filter_map(|info| memory.0.remove(&info.path).map(|bytes| (info, bytes)))
        .collect();
    let mut work = futures::stream::iter(todo.into_iter().map(|(info, bytes)| async move {
        let plain = check_and_inflate_one(info, &bytes).await;
        (info, plain)
    }))
    .buffer_unordered(PARALLEL);
    while let Some((info, plain)) = work.next().await {
        memory.0.insert(info.path.clone(), plain?);
        done.insert(info.path.clone());
    }
    Ok(())
}

/// Core's reader over the fetched entries.
async fn decode(
    name: &str,
    manifest: &Manifest,
    (mut memory, mut inflated): (MemoryEntries, HashSet<String>),
    count: Count,
    download_ms: f64,
    progress: OnProgress<'_>,
    (tables, light): (Rc<Bundle>, bool),
) -> Result<(Bundle, LoadStats), LoadError> {
    progress(Progress {
        phase: Phase::Inflating,
        done: count.bytes,
        total: None,
    });
    let t0 = now_ms();
    check_and_inflate(manifest, &mut memory, &mut inflated)
        .await
        .map_err(|e| invalid(name, e))?;
    let t1 = now_ms();
    progress(Progress {
        phase: Phase::Parsing,
        done: memory.0.values().map(|b| b.len() as u64).sum(),
        total: None,
    });
    // The early tables move into the bundle (copied only if an answer still holds them).
    let tables = Rc::unwrap_or_clone(tables);
    let bundle = split_call!(v2_read_after(memory, tables, !light))
        .map_err(|e| invalid(name, e))?
        .map_err(|e| invalid(name, e))?;
    let stats = LoadStats {
        download_bytes: count.bytes as usize,
        download_ms,
        gunzip_ms: t1 - t0,
        parse_ms: now_ms() - t1,
        v2: true,
        requests: count.requests,
        ..LoadStats::default()
    };
    Ok((bundle, stats))
}

/// Starts fetching the `v2` chunk (the summary) and the code it shares with others while the
/// manifest and the cells columns download, so that it is in when the summary is computed.
fn prefetch_decoder() {
    prefetch!(preload_v2);
}

/// Starts fetching the `v2_read` chunk (the columnar reader) once the summary is out, while
/// the early tables download: kept apart from `v2` so the leaderboard does not wait for it.
fn prefetch_reader() {
    prefetch!(preload_v2_read);
}

split_point! {
    /// A `runlens.bundle/2`'s summary: each corpus's leaderboard from its cells columns.
    v2, preload preload_v2: fn v2_summary(
        manifest: &Manifest,
        entries: &MemoryEntries,
    ) -> Result<Option<(Vec<u8>, usize)>, V2Error> {
        super::summary::encode(manifest, entries)
    }
}
split_point! {
    /// A `runlens.bundle/2` rebuilt from its entries, the `.gz` ones checked and inflated
    /// already (core's reader: the columnar decoder), its early tables moved in from
    /// `tables`; the cells' text too when `cells_text`.
    v2_read: fn v2_read_after(
        entries: MemoryEntries,
        tables: Bundle,
        cells_text: bool,
    ) -> Result<Bundle, V2Error> {
        let mut entries = entries;
        runlens_core::bundle::v2::read_bundle_after(&mut entries, tables, cells_text)
    }
}
split_point! {
    /// A `runlens.bundle/2` with only its early tables (`read_early_tables`, its `_light`
    /// form when `light`), from entries checked and inflated already, taking those (the rest
    /// is read beside the tables).
    v2_read, preload preload_v2_read: fn v2_read_early(
        entries: &mut MemoryEntries,
        light: bool,
    ) -> Result<Bundle, V2Error> {
        let mut taken = runlens_core::bundle::v2::TakenEntries(entries);
        if light {
            runlens_core::bundle::v2::read_early_tables_light(&mut taken)
        } else {
            runlens_core::bundle::v2::read_early_tables(&mut taken)
        }
    }
}
