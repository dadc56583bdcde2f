//! Native half of the encoding spike.
//!
//! `spike-bench NAME=BUNDLE.json.gz ...`: for each run, builds the cells table from the v1
//! bundle (runlens-core), encodes it in every variant, writes `data/enc/NAME.VARIANT`
//! (inputs for the wasm timing), and prints sizes + native decode medians (1 warm-up, 5
//! timed runs) as a markdown table and as `data/enc/NAME.native.tsv`.

use std::collections::HashMap;
use std::hint::black_box;
use std::time::Instant;

use runlens_core::bundle::{Bundle, Outcome};
use spike_cells::{Cells, DenseCells, arrow as ar, jsonl, pc, pc_dense, raw, raw_dense};

fn build(bundle: &Bundle) -> (Cells, usize) {
    let models: HashMap<&str, u16> = bundle
        .body
        .models
        .iter()
        .enumerate()
        .map(|(i, m)| (m.key.as_str(), i as u16))
        .collect();
    let mut err_ix: HashMap<String, u16> = HashMap::new();
    let mut served_ix: HashMap<String, u16> = HashMap::new();
    let mut c = Cells::default();
    let mut null_cells = 0;
    fn intern(map: &mut HashMap<String, u16>, dict: &mut Vec<String>, s: &str) -> u16 {
        if let Some(k) = map.get(s) {
            return *k;
        }
        let k = dict.len() as u16;
        dict.push(s.to_owned());
        map.insert(s.to_owned(), k);
        k
    }
    for (ci, corpus) in bundle.body.corpora.iter().enumerate() {
        for (qi, row) in corpus.results.iter().enumerate() {
            for (model, cell) in &row.candidates {
                let Some(cell) = cell else {
                    null_cells += 1;
                    continue;
                };
                c.corpus.push(ci as u8);
                c.question.push(qi as u32);
                c.model.push(models[model.as_str()]);
                c.outcome.push(match cell.outcome() {
                    Some(Outcome::Pass) => 0,
                    Some(Outcome::Fail) => 1,
                    Some(Outcome::Tie) => 2,
                    Some(Outcome::Error) => 3,
                    Some(Outcome::Loss) => 4,
                    Some(Outcome::Other(_)) => 5,
                    None => 6,
                });
                let tally = cell.result_score.as_ref().and_then(|r| r.tally.as_ref());
                let t = |k: &str| tally.and_then(|t| t.get(k)).map_or(0, |v| (*v).min(255) as u8);
                c.tally_pass.push(t("pass"));
                c.tally_fail.push(t("fail"));
                c.tally_tie.push(t("tie"));
                c.turns.push(cell.turns);
                c.latency.push(cell.latency);
                c.n_sqls.push(cell.sqls.len() as u32);
                let u = cell.usage.as_ref();
                c.prompt_tokens.push(u.and_then(|u| u.prompt_tokens));
                c.completion_tokens.push(u.and_then(|u| u.completion_tokens));
                c.cache_read_tokens.push(u.and_then(|u| u.cache_read_tokens));
                c.cache_write_tokens.push(u.and_then(|u| u.cache_write_tokens));
                c.total_tokens.push(u.and_then(|u| u.total_tokens));
                c.calls_missing_usage
                    .push(u.and_then(|u| u.calls_missing_usage).map(|v| v as u32));
                c.error_class.push(
                    cell.error.as_deref().map(|e| intern(&mut err_ix, &mut c.error_dict, e)),
                );
                c.served_model.push(
                    cell.served_model
                        .as_deref()
                        .map(|s| intern(&mut served_ix, &mut c.served_dict, s)),
                );
            }
        }
    }
    (c, null_cells)
}

/// 1 warm-up + 5 timed runs of `decode` (checksum and drop are outside the timing, as in the
/// wasm runs); returns (median ms, checksum of the last run's output).
fn median_ms<T>(mut decode: impl FnMut() -> T, check: impl Fn(&T) -> u64) -> (f64, u64) {
    let mut sum = check(&decode());
    let mut t = Vec::new();
    for _ in 0..5 {
        let s = Instant::now();
        let out = black_box(decode());
        t.push(s.elapsed().as_secs_f64() * 1e3);
        sum = check(&out);
        drop(out);
    }
    t.sort_by(f64::total_cmp);
    (t[2], sum)
}

fn main() {
    let out_dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/enc");
    std::fs::create_dir_all(&out_dir).unwrap();
    for arg in std::env::args().skip(1) {
        let (name, path) = arg.split_once('=').expect("NAME=PATH");
        let bytes = std::fs::read(path).expect("read bundle");
        let t0 = Instant::now();
        let bundle = Bundle::from_slice(&bytes).expect("parse bundle");
        let v1_parse = t0.elapsed().as_secs_f64();
        let (cells, null_cells) = build(&bundle);
        let want = cells.checksum();
        println!(
            "\n## {name}: {} rows ({} corpora, {} models, {} null cells skipped), {} error strings, {} served models; v1 bundle {} bytes parsed in {:.2} s",
            cells.len(),
            bundle.body.corpora.len(),
            bundle.body.models.len(),
            null_cells,
            cells.error_dict.len(),
            cells.served_dict.len(),
            bytes.len(),
            v1_parse
        );
        drop(bundle);

        let enc_arrow = ar::encode(&cells, Some(arrow_ipc::CompressionType::LZ4_FRAME)).unwrap();
        let enc_arrow_plain = ar::encode(&cells, None).unwrap();
        let enc_pc = pc::encode(&cells);
        let enc_pc_plain = pc::encode_uncompressed(&cells);
        let enc_raw = raw::encode(&cells);
        let enc_raw_plain = raw::encode_uncompressed(&cells);
        let enc_pc_gz = pc::encode_gz(&cells);
        let enc_raw_gz = raw::encode_gz(&cells);
        let dense = DenseCells::from_cells(&cells);
        let enc_pcd = pc_dense::encode(&dense);
        let enc_pcd_gz = pc_dense::encode_gz(&dense);
        let enc_pcd_plain = postcard_len(&dense);
        drop(dense);
        let enc_json = jsonl::encode(&cells);
        column_breakdown(&cells);
        let json_plain = {
            let mut n = 0;
            for r in jsonl::rows(&cells) {
                n += 1 + serde_json_len(&r);
            }
            n
        };

        for (v, b) in [
            ("arrow", &enc_arrow),
            ("arrow-plain", &enc_arrow_plain),
            ("postcard", &enc_pc),
            ("raw", &enc_raw),
            ("postcard-gz", &enc_pc_gz),
            ("raw-gz", &enc_raw_gz),
            ("pcd", &enc_pcd),
            ("pcd-gz", &enc_pcd_gz),
            ("jsonl", &enc_json),
        ] {
            std::fs::write(out_dir.join(format!("{name}.{v}")), b).unwrap();
        }

        let mut rows: Vec<(String, usize, usize, f64, bool)> = Vec::new();
        let mut push = |label: &str, bytes: usize, plain: usize, (ms, sum): (f64, u64), ok: bool| {
            let ok = ok || sum == want;
            rows.push((label.to_owned(), bytes, plain, ms, ok));
        };
        push(
            "Arrow IPC stream, LZ4_FRAME → RecordBatch",
            enc_arrow.len(),
            enc_arrow_plain.len(),
            median_ms(|| ar::decode(&enc_arrow).unwrap(), |b| ar::checksum(b)),
            false,
        );
        push(
            "Arrow IPC stream, LZ4_FRAME → column Vecs",
            enc_arrow.len(),
            enc_arrow_plain.len(),
            median_ms(|| ar::to_cells(&ar::decode(&enc_arrow).unwrap()), Cells::checksum),
            false,
        );
        push(
            "Arrow IPC stream, LZ4_FRAME, lean reader → RecordBatch",
            enc_arrow.len(),
            enc_arrow_plain.len(),
            median_ms(|| ar::decode_lean(&enc_arrow).unwrap(), |b| ar::checksum(b)),
            false,
        );
        push(
            "Arrow IPC stream, uncompressed → RecordBatch",
            enc_arrow_plain.len(),
            enc_arrow_plain.len(),
            median_ms(|| ar::decode(&enc_arrow_plain).unwrap(), |b| ar::checksum(b)),
            false,
        );
        push(
            "postcard + lz4_flex block → column Vecs",
            enc_pc.len(),
            enc_pc_plain.len(),
            median_ms(|| pc::decode(&enc_pc).unwrap(), Cells::checksum),
            false,
        );
        push(
            "raw LE columns + lz4_flex block → column Vecs",
            enc_raw.len(),
            enc_raw_plain.len(),
            median_ms(|| raw::decode(&enc_raw).unwrap(), Cells::checksum),
            false,
        );
        push(
            "postcard + gzip -6 (flate2) → column Vecs",
            enc_pc_gz.len(),
            enc_pc_plain.len(),
            median_ms(|| pc::decode_gz(&enc_pc_gz).unwrap(), Cells::checksum),
            false,
        );
        push(
            "raw LE columns + gzip -6 (flate2) → column Vecs",
            enc_raw_gz.len(),
            enc_raw_plain.len(),
            median_ms(|| raw::decode_gz(&enc_raw_gz).unwrap(), Cells::checksum),
            false,
        );
        push(
            "raw LE columns + lz4_flex block → dense columns (values + bitmap)",
            enc_raw.len(),
            enc_raw_plain.len(),
            median_ms(|| raw_dense::decode(&enc_raw).unwrap(), DenseCells::checksum),
            false,
        );
        push(
            "postcard (dense columns) + lz4_flex block → dense columns",
            enc_pcd.len(),
            enc_pcd_plain,
            median_ms(|| pc_dense::decode(&enc_pcd).unwrap(), DenseCells::checksum),
            false,
        );
        push(
            "postcard (dense columns) + gzip -6 (flate2) → dense columns",
            enc_pcd_gz.len(),
            enc_pcd_plain,
            median_ms(|| pc_dense::decode_gz(&enc_pcd_gz).unwrap(), DenseCells::checksum),
            false,
        );
        let jl_rows = cells.len() as u64;
        push(
            "reference: JSON lines, gzip -6 (flate2) → Vec<Row>",
            enc_json.len(),
            json_plain,
            median_ms(
                || jsonl::decode(&enc_json).unwrap(),
                |r| {
                    assert_eq!(r.len() as u64, jl_rows);
                    jsonl::checksum(r)
                },
            ),
            true,
        );

        println!("\n| encoding | bytes (compressed) | bytes (uncompressed) | decode native ms | checksum ok |");
        println!("|---|---:|---:|---:|---|");
        let mut tsv = String::new();
        for (label, b, p, ms, ok) in &rows {
            println!("| {label} | {b} | {p} | {ms:.2} | {ok} |");
            tsv.push_str(&format!("{label}\t{b}\t{p}\t{ms:.3}\t{ok}\n"));
        }
        std::fs::write(out_dir.join(format!("{name}.native.tsv")), tsv).unwrap();
        std::fs::write(out_dir.join(format!("{name}.checksum")), format!("{want}\n")).unwrap();
    }
}

/// Per-column bytes of the raw layout: plain, one lz4_flex block, gzip -6.
fn column_breakdown(c: &Cells) {
    use std::io::Write;
    fn gz(b: &[u8]) -> usize {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        e.write_all(b).unwrap();
        e.finish().unwrap().len()
    }
    let one = |name: &str, f: &dyn Fn(&mut Cells)| {
        let mut t = Cells::default();
        f(&mut t);
        let p = raw::encode_uncompressed(&t);
        let n = p.len() - 8 - 8; // minus header and two empty dictionaries
        let l = lz4_flex::block::compress(&p).len();
        println!("  column {name:<20} plain {n:>9}  lz4 {l:>9}  gzip {:>9}", gz(&p));
    };
    let n = c.len();
    // A column is measured alone: the other (empty) columns cost nothing.
    macro_rules! col {
        ($($f:ident),*) => {$(
            one(stringify!($f), &|t: &mut Cells| { t.$f = c.$f.clone(); let _ = n; });
        )*};
    }
    col!(corpus, question, model, outcome, tally_pass, tally_fail, tally_tie, n_sqls);
    col!(turns, latency, prompt_tokens, completion_tokens, cache_read_tokens, cache_write_tokens,
        total_tokens, calls_missing_usage, error_class, served_model);
}

fn postcard_len(d: &DenseCells) -> usize {
    let gz = pc_dense::encode_gz(d);
    let mut out = Vec::new();
    std::io::Read::read_to_end(&mut flate2::read::GzDecoder::new(&gz[..]), &mut out).unwrap();
    out.len()
}

fn serde_json_len(r: &jsonl::Row) -> usize {
    // Length of one JSON line (without the newline), for the uncompressed column.
    struct Count(usize);
    impl std::io::Write for Count {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            self.0 += b.len();
            Ok(b.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut c = Count(0);
    spike_cells::jsonl::write_row(&mut c, r);
    c.0
}
