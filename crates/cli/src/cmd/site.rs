//! `runlens site OUT BUNDLE... [--dist DIR] [--order created|given] [--quiet]`: a static
//! report site in OUT: the built app, each run as a v2 zip under `bundles/`, the start page's
//! list of them (`bundles/index.json`) and an index of runs with each model's headline pass
//! rate (`runs.json`, docs/site.md). Running it again adds or updates the runs given and keeps
//! the others; a run whose zip in OUT has the same content hash is not rewritten.

use std::collections::BTreeMap;
use std::fs;
use std::io::BufReader;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, bail};
use runlens_core::bundle::v2::read_manifest;
use runlens_core::bundle::v2::zip_form::ZipEntries;
use runlens_core::bundle::{Bundle, LossRule};
use runlens_core::metrics::board_run::boards;
use runlens_core::site::{
    RunCorpus, RunEntry, RunIndex, RunModel, SITE_FORMAT, parse_index, readable_time,
};

/// Arguments of `runlens site`.
#[derive(clap::Args)]
pub struct Args {
    /// The site's folder (created if missing; a site there already is added to).
    pub out: PathBuf,
    /// Runs to add or update: v1 `.json` / `.json.gz`, or v2 `.zip` or directory.
    #[arg(required = true)]
    pub bundles: Vec<PathBuf>,
    /// The built dashboard (trunk's output) copied into OUT.
    #[arg(long, default_value = "dist")]
    pub dist: PathBuf,
    /// Run order in the index: by creation time (provenance), or as given (new runs after
    /// the ones already in OUT).
    #[arg(long, value_enum, default_value_t = Order::Created)]
    pub order: Order,
    /// Print nothing but errors.
    #[arg(long)]
    pub quiet: bool,
}

/// `--order`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Order {
    /// By each run's `provenance.created_at` (RFC 3339), ties in the order given.
    Created,
    /// As given on the command line.
    Given,
}

/// The run's name from its path: the file or folder name without `.zip`, `.json.gz` or
/// `.json`, characters other than ASCII letters, digits, `.`, `-` and `_` as `_`.
pub fn run_name(path: &Path) -> String {
    let base = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let stem = [".zip", ".json.gz", ".json"]
        .iter()
        .find_map(|ext| base.strip_suffix(ext))
        .unwrap_or(&base);
    let name: String = stem
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_') {
                c
            } else {
                '_'
            }
        })
        .collect();
    if name.is_empty() || name.starts_with('.') {
        format!("run{name}")
    } else {
        name
    }
}

/// The index entry of `bundle`, named `name`.
fn entry_of(name: &str, bundle: &Bundle) -> RunEntry {
    let corpora = boards(&bundle.body, LossRule::Excluded)
        .into_iter()
        .map(|board| RunCorpus {
            name: board.corpus,
            questions: board.questions,
            models: board
                .rows
                .into_iter()
                .map(|e| RunModel {
                    display_name: Some(bundle.body.display_name(&e.row.model).to_owned()),
                    model: e.row.model,
                    n: e.row.n,
                    pass: e.row.pass,
                    ci95: e.row.ci95,
                })
                .collect(),
        })
        .collect();
    RunEntry {
        name: name.to_owned(),
        file: format!("bundles/{name}.zip"),
        created_at: bundle.provenance.created_at.clone(),
        content_hash: bundle.content_hash.clone(),
        synthetic: bundle.body.synthetic,
        corpora,
    }
}

/// The content hash in the manifest of the zip at `path`, if it is a readable v2 zip.
fn zip_hash(path: &Path) -> Option<String> {
    let file = fs::File::open(path).ok()?;
    let mut entries = ZipEntries::new(BufReader::new(file)).ok()?;
    read_manifest(&mut entries).ok().map(|m| m.content_hash)
}

/// Copies the files of `from` into `to` (made as needed), but `from/bundles/` (the app's own
/// samples are not runs of this site) and `from/runs.json` (the app's empty index of runs:
/// the site's own is written last, and a failed run must not lose the one there).
fn copy_app(from: &Path, to: &Path, top: bool) -> anyhow::Result<()> {
    fs::create_dir_all(to).with_context(|| format!("creating {}", to.display()))?;
    for item in fs::read_dir(from).with_context(|| format!("reading {}", from.display()))? {
        let item = item.with_context(|| format!("reading {}", from.display()))?;
        let (src, dst) = (item.path(), to.join(item.file_name()));
        if top && (item.file_name() == "bundles" || item.file_name() == "runs.json") {
            continue;
        }
        if item.file_type()?.is_dir() {
            copy_app(&src, &dst, false)?;
        } else {
            fs::copy(&src, &dst)
                .with_context(|| format!("copying {} to {}", src.display(), dst.display()))?;
        }
    }
    Ok(())
}

/// One entry of the start page's list (`bundles/index.json`, the app's `SampleEntry`).
fn start_page_entry(run: &RunEntry) -> serde_json::Value {
    let models: usize = run
        .corpora
        .iter()
        .map(|c| c.models.len())
        .max()
        .unwrap_or(0);
    let corpora: Vec<&str> = run.corpora.iter().map(|c| c.name.as_str()).collect();
    serde_json::json!({
        "file": format!("{}.zip", run.name),
        "title": run.name,
        "description": format!(
            "Created {}; {} models; corpora {}; content hash {}.{}",
            readable_time(&run.created_at),
            models,
            corpora.join(", "),
            &run.content_hash[..run.content_hash.len().min(12)],
            if run.synthetic { " Synthetic data, not real benchmark results." } else { "" }
        ),
        "synthetic": run.synthetic,
    })
}

/// Runs `runlens site`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    if !args.dist.join("index.html").is_file() {
        bail!(
            "{}: no built app (index.html) there; build it with `trunk build --release` or name \
             it with --dist",
            args.dist.display()
        );
    }
    let bundles_dir = args.out.join("bundles");
    fs::create_dir_all(&bundles_dir)
        .with_context(|| format!("creating {}", bundles_dir.display()))?;
    let index_path = args.out.join("runs.json");
    let mut index = match fs::read(&index_path) {
        Ok(bytes) => parse_index(&String::from_utf8_lossy(&bytes)).with_context(|| {
            format!(
                "{}: not an index of runs ({SITE_FORMAT}); choose an empty folder",
                index_path.display()
            )
        })?,
        Err(_) => RunIndex {
            format: SITE_FORMAT.to_owned(),
            runs: Vec::new(),
        },
    };
    // Every name is checked before anything is written.
    let named: Vec<(String, &Path)> = args
        .bundles
        .iter()
        .map(|p| (run_name(p), p.as_path()))
        .collect();
    let mut given: BTreeMap<&str, &Path> = BTreeMap::new();
    for (name, path) in &named {
        if let Some(first) = given.insert(name, path) {
            bail!(
                "two runs would be named `{name}` ({} and {}): rename one",
                first.display(),
                path.display()
            );
        }
    }
    copy_app(&args.dist, &args.out, true)?;
    for (name, path) in &named {
        let bundle = crate::bundle_file::read(path, args.quiet)?;
        // A run whose body is not the one its hash names would be listed under a hash that
        // links pinned to it never find (the app checks every bundle it opens).
        bundle.verify_content_hash().with_context(|| {
            format!(
                "{}: not written to the site (its content hash does not match its body)",
                path.display()
            )
        })?;
        let zip = bundles_dir.join(format!("{name}.zip"));
        let unchanged = zip_hash(&zip).as_deref() == Some(bundle.content_hash.as_str());
        if !unchanged {
            crate::bundle_file::write(&bundle, &zip)?;
        }
        if !args.quiet {
            let what = if unchanged { "unchanged" } else { "written" };
            println!("{name}: {what} ({})", zip.display());
        }
        let entry = entry_of(name, &bundle);
        match index.runs.iter_mut().find(|r| &r.name == name) {
            Some(old) => *old = entry,
            None => index.runs.push(entry),
        }
    }
    if args.order == Order::Created {
        index.runs.sort_by(|a, b| a.created_at.cmp(&b.created_at));
    }
    let list: Vec<serde_json::Value> = index.runs.iter().map(start_page_entry).collect();
    fs::write(
        bundles_dir.join("index.json"),
        serde_json::to_vec_pretty(&list)?,
    )
    .with_context(|| format!("writing {}", bundles_dir.join("index.json").display()))?;
    // Compact: a site of 100 runs is 1.2 MB pretty and 0.5 MB so, read by every start page.
    fs::write(&index_path, serde_json::to_vec(&index)?)
        .with_context(|| format!("writing {}", index_path.display()))?;
    if !args.quiet {
        println!(
            "site: {} runs in {} (serve it with `runlens serve --site {}`, or copy the folder \
             to any static host)",
            index.runs.len(),
            args.out.display(),
            args.out.display()
        );
    }
    Ok(ExitCode::SUCCESS)
}
