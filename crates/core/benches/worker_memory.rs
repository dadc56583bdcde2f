//! Where the loader worker's memory goes (not a test; `cargo bench -p runlens-core --bench
//! worker_memory -- BUNDLE.zip`): the reads the worker makes of a v2 zip, natively, under an
//! allocator that counts live and peak bytes. Steps as in the worker (`src/loader/v2.rs`),
//! each entry inflated at its size as it arrives: the cells tables' entries and the
//! summary's leaderboard columns; the early tables' entries and `read_early_tables_light`
//! (taking them); every other entry but the cells' text chunks and `read_bundle_after`
//! without the cells' text; then what each part of the light bundle holds (live bytes freed
//! when it is dropped); with `--boards`, the time of every corpus's leaderboard from the
//! light bundle. 64-bit sizes: wasm32's pointers and `String`/`Vec` headers are half as big,
//! so its figures are somewhat smaller.

// A global allocator must implement an unsafe trait; this bench only counts what it forwards.
#![allow(unsafe_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::fs::File;
use std::io::BufReader;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

use runlens_core::bundle::LossRule;
use runlens_core::bundle::v2::facts::{cells_path, is_cells_path, model_columns_plain};
use runlens_core::bundle::v2::zip_form::ZipEntries;
use runlens_core::bundle::v2::{
    EntrySource, MANIFEST, MemoryEntries, TakenEntries, is_cell_text_path, is_early_table_path,
    read_bundle_after, read_early_tables_light, read_manifest, text::inflate,
};

struct Counting;
static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

// SAFETY: forwards to the system allocator; only counts.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let live = LIVE.fetch_add(layout.size(), Relaxed) + layout.size();
        PEAK.fetch_max(live, Relaxed);
        // SAFETY: the caller's layout, passed on.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Relaxed);
        // SAFETY: as allocated above.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new: usize) -> *mut u8 {
        if new > layout.size() {
            let live = LIVE.fetch_add(new - layout.size(), Relaxed) + new - layout.size();
            PEAK.fetch_max(live, Relaxed);
        } else {
            LIVE.fetch_sub(layout.size() - new, Relaxed);
        }
        // SAFETY: as allocated above.
        unsafe { System.realloc(ptr, layout, new) }
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

fn mb(bytes: usize) -> f64 {
    bytes as f64 / 1e6
}

fn report(step: &str, since: std::time::Instant) {
    println!(
        "{step:<44} live {:>8.1} MB  peak {:>8.1} MB  {:>6.2} s",
        mb(LIVE.load(Relaxed)),
        mb(PEAK.load(Relaxed)),
        since.elapsed().as_secs_f64()
    );
    PEAK.store(LIVE.load(Relaxed), Relaxed);
}

/// Live bytes freed by dropping `value`.
fn size_of_drop<T>(value: T) -> usize {
    let before = LIVE.load(Relaxed);
    drop(value);
    before - LIVE.load(Relaxed)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let Some(path) = std::env::args().skip(1).find(|a| a.ends_with(".zip")) else {
        eprintln!("usage: cargo bench -p runlens-core --bench worker_memory -- BUNDLE.zip");
        return Ok(());
    };
    let t = std::time::Instant::now();
    let mut zip = ZipEntries::new(BufReader::new(File::open(&path)?))?;
    let manifest = read_manifest(&mut zip)?;
    let mut entries = MemoryEntries::default();
    entries.0.insert(MANIFEST.to_owned(), zip.entry(MANIFEST)?);
    // The entries `wanted` of those not fetched yet (no cells' text), inflated at their size.
    let mut fetched = std::collections::HashSet::new();
    let mut add = |entries: &mut MemoryEntries,
                   wanted: &dyn Fn(&str) -> bool|
     -> Result<(), Box<dyn std::error::Error>> {
        for e in &manifest.entries {
            if is_cell_text_path(&e.path) || !wanted(&e.path) || !fetched.insert(e.path.clone()) {
                continue;
            }
            let bytes = zip.entry(&e.path)?;
            let mut bytes = if e.path.ends_with(".gz") {
                inflate(&bytes)?
            } else {
                bytes
            };
            bytes.shrink_to_fit();
            entries.0.insert(e.path.clone(), bytes);
        }
        Ok(())
    };
    add(&mut entries, &is_cells_path)?;
    report("cells tables' entries inflated", t);
    // The summary: each corpus's leaderboard columns from its cells columns alone.
    let columns: usize = manifest
        .corpora
        .iter()
        .map(|c| {
            let plain = &entries.0[&cells_path(c)];
            model_columns_plain(c, plain, LossRule::default()).map(|m| m.len())
        })
        .sum::<Result<usize, _>>()?;
    report(&format!("summary ({columns} model columns)"), t);
    add(&mut entries, &is_early_table_path)?;
    report("early tables' entries inflated", t);
    let early = read_early_tables_light(&mut TakenEntries(&mut entries))?;
    report("read_early_tables_light", t);
    add(&mut entries, &|_| true)?;
    report("other entries inflated", t);
    let bundle = read_bundle_after(&mut entries, early, false)?;
    drop(entries);
    report("read_bundle_after (light), entries dropped", t);
    if std::env::args().any(|a| a == "--boards") {
        // Every corpus's leaderboard from the light bundle, fastest of 12.
        let fastest = (0..12)
            .map(|_| {
                let t0 = std::time::Instant::now();
                let boards =
                    runlens_core::metrics::board_run::boards(&bundle.body, LossRule::Excluded);
                std::hint::black_box(boards);
                t0.elapsed().as_secs_f64() * 1e3
            })
            .fold(f64::INFINITY, f64::min);
        println!("boards from the light bundle: {fastest:.1} ms (fastest of 12)");
    }
    for corpus in bundle.body.corpora {
        let name = corpus.name.clone();
        println!(
            "  {name}: questions {:.1}, results+cells {:.1}, rankings {:.1}, failure labels {:.1}, fm labels {:.1}, gate rows {:.1}, board manifest {:.1} MB",
            mb(size_of_drop(corpus.questions)),
            mb(size_of_drop((corpus.results, corpus.light_cells))),
            mb(size_of_drop(corpus.rankings)),
            mb(size_of_drop(corpus.failure_labels)),
            mb(size_of_drop(corpus.fm_labels)),
            mb(size_of_drop((corpus.gate_rows, corpus.light_gate))),
            mb(size_of_drop(corpus.board_manifest)),
        );
    }
    report("corpora dropped", t);
    Ok(())
}
