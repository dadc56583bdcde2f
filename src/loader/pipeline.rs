//! The whole load of one request in the current scope (the worker, or the page when there is
//! no worker): download or read, inflate, parse, check the hash, or import harness files.

use runlens_core::bundle::Bundle;
use runlens_core::import::{FailedImport, ImportOptions, Imported, InputFile};

use super::decode::{inflate, parse_bundle, prefetch_v1_parser};
use super::digest::verify_bundle_fast;
use super::entries::{DirEntries, ZipBytes};
use super::files::{self, Opened, PickedV2};
use super::prefetched;
use super::progress::{Early, OnProgress, Phase, Progress};
use super::request::{BundleRequest, LoadError, LoadStats};
use super::v2::{self, UrlForm};
use crate::api;
use crate::chunks::{split_call, split_point};
use crate::clock::now_ms;

/// Loads `request` completely: the full bundle and what it cost. A decoded bundle's content
/// hash is checked when `verify` is set (the worker checks it later, while the page parses);
/// an imported bundle's hash is computed by the import itself.
pub async fn load_full(
    request: &BundleRequest,
    progress: OnProgress<'_>,
    early: Early<'_>,
    verify: bool,
) -> Result<(Bundle, LoadStats), LoadError> {
    match request {
        BundleRequest::Url(url) => {
            match v2::url_form(url) {
                UrlForm::Zip => {
                    return v2::load_zip(url, ZipBytes::Http(url.clone()), progress, early).await;
                }
                UrlForm::Dir => {
                    let dir = DirEntries::Http(v2::dir_base(url));
                    return v2::load_dir(url, dir, progress, early).await;
                }
                UrlForm::V1 => prefetch_v1_parser(),
            }
            if let Some(early) = prefetched::take(url, None) {
                let fetched = early.finish(progress).await?;
                let stats = LoadStats {
                    download_bytes: fetched.download_bytes,
                    download_ms: fetched.download_ms,
                    gunzip_ms: fetched.gunzip_ms,
                    prefetched: true,
                    requests: 1,
                    ..LoadStats::default()
                };
                return if fetched.inflated {
                    parse(url, fetched.bytes, stats, progress, verify).await
                } else {
                    decode(url, fetched.bytes, stats, progress, verify).await
                };
            }
            let t0 = now_ms();
            let bytes = api::fetch_bytes_with_progress(url, &|done, total| {
                progress(Progress {
                    phase: Phase::Downloading,
                    done,
                    total,
                });
            })
            .await?;
            let stats = LoadStats {
                download_bytes: bytes.len(),
                download_ms: now_ms() - t0,
                ..LoadStats::default()
            };
            decode(url, bytes, stats, progress, verify).await
        }
        BundleRequest::Files(list) => {
            match files::picked_v2(list) {
                Some(PickedV2::Zip(file)) => {
                    let name = file.name();
                    return v2::load_zip(&name, ZipBytes::Blob(file.into()), progress, early).await;
                }
                Some(PickedV2::Dir(entries)) => {
                    let name = request.source();
                    return v2::load_dir(&name, DirEntries::Files(entries), progress, early).await;
                }
                None => {}
            }
            let t0 = now_ms();
            let opened = files::read_all(list, &|done, total| {
                progress(Progress {
                    phase: Phase::Reading,
                    done,
                    total: Some(total),
                });
            })
            .await?;
            let read_ms = now_ms() - t0;
            match opened {
                Opened::Bundle { name, bytes } => {
                    let stats = LoadStats {
                        download_bytes: bytes.len(),
                        download_ms: read_ms,
                        ..LoadStats::default()
                    };
                    decode(&name, bytes, stats, progress, verify).await
                }
                Opened::Harness(inputs) => import(&inputs, read_ms, progress).await,
            }
        }
    }
}

async fn decode(
    name: &str,
    bytes: Vec<u8>,
    mut stats: LoadStats,
    progress: OnProgress<'_>,
    verify: bool,
) -> Result<(Bundle, LoadStats), LoadError> {
    // A v2 zip under a name that does not say so: read from the bytes at hand.
    if v2::is_zip(&bytes) {
        let (bundle, v2_stats) =
            v2::load_zip(name, ZipBytes::Whole(bytes), progress, Early::NONE).await?;
        stats.parse_ms = v2_stats.parse_ms;
        stats.v2 = true;
        stats.requests = 1;
        return Ok((bundle, stats));
    }
    stats.requests = 1;
    let t1 = now_ms();
    progress(Progress {
        phase: Phase::Inflating,
        done: 0,
        total: None,
    });
    let json = inflate(name, bytes).await?;
    stats.gunzip_ms = now_ms() - t1;
    parse(name, json, stats, progress, verify).await
}

/// Parses bundle JSON (and checks its hash when `verify` is set).
async fn parse(
    name: &str,
    json: Vec<u8>,
    mut stats: LoadStats,
    progress: OnProgress<'_>,
    verify: bool,
) -> Result<(Bundle, LoadStats), LoadError> {
    let t2 = now_ms();
    let json_bytes = json.len() as u64;
    // serde_json parses a slice in one call and reports nothing on the way: the bar is
    // indeterminate with the size to parse, rather than a 0% that jumps to 100%.
    progress(Progress {
        phase: Phase::Parsing,
        done: json_bytes,
        total: None,
    });
    let bundle = parse_bundle(name, &json).await?;
    // The content-hash check reads the body's bytes as they came (see `digest`).
    super::digest::start_raw_body_digest(&json);
    drop(json);
    let t3 = now_ms();
    if verify {
        progress(Progress {
            phase: Phase::Checking,
            done: 0,
            total: None,
        });
        verify_bundle_fast(name, &bundle).await?;
    }
    let t4 = now_ms();
    stats.json_bytes = json_bytes as usize;
    stats.parse_ms = t3 - t2;
    stats.verify_ms = t4 - t3;
    Ok((bundle, stats))
}

async fn import(
    inputs: &[InputFile],
    read_ms: f64,
    progress: OnProgress<'_>,
) -> Result<(Bundle, LoadStats), LoadError> {
    let total: usize = inputs.iter().map(|f| f.bytes.len()).sum();
    progress(Progress {
        phase: Phase::Importing,
        done: 0,
        total: Some(total as u64),
    });
    let t0 = now_ms();
    let opts = ImportOptions {
        runlens_version: env!("CARGO_PKG_VERSION").to_owned(),
        created_at: String::from(js_sys::Date::new_0().to_iso_string()),
        ..ImportOptions::default()
    };
    let imported = split_call!(import_harness(inputs, &opts))
        .map_err(|e| LoadError::Import {
            message: e.to_string(),
            warnings: Vec::new(),
        })?
        .map_err(|f| LoadError::Import {
            message: f.error.to_string(),
            warnings: f.warnings,
        })?;
    let bundle = imported.bundle;
    let stats = LoadStats {
        download_bytes: total,
        json_bytes: 0,
        download_ms: read_ms,
        import_ms: now_ms() - t0,
        imported: true,
        ..LoadStats::default()
    };
    Ok((bundle, stats))
}

split_point! {
    /// Imports raw harness files (a drop or the file picker), in the `import` chunk.
    import: fn import_harness(
        inputs: &[InputFile],
        opts: &ImportOptions,
    ) -> Result<Imported, Box<FailedImport>> {
        runlens_core::import::import_files_keeping_warnings(inputs, opts)
    }
}
