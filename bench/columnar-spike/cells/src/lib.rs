//! The bundle-v2 "cells" table (one row per (question, model) cell) and three candidate
//! columnar encodings of it, for the encoding spike:
//!
//! - `arrow`: Arrow IPC stream (arrow-ipc 60.1, LZ4_FRAME body compression via lz4_flex);
//! - `postcard`: the struct of column Vecs below, serde → postcard, then one lz4_flex block;
//! - `raw`: hand-rolled little-endian column buffers (+ validity bitmaps), one lz4_flex block.
//!
//! Decoders only need the default features plus the format's feature (they build for
//! wasm32-unknown-unknown); `encode` adds the writers and the gzip'd JSON-lines reference row.

#![allow(clippy::too_many_arguments)]

/// Outcome dictionary (u8 codes); `missing` = the cell has no `result_score.outcome`.
pub const OUTCOMES: [&str; 7] = ["pass", "fail", "tie", "error", "loss", "other", "missing"];

/// The cells table as plain Rust column vectors (the decode target of every format).
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "postcard", derive(serde::Serialize, serde::Deserialize))]
pub struct Cells {
    /// Corpus index within the run (0 = first corpus).
    pub corpus: Vec<u8>,
    /// Question index within its corpus (position of the `results.jsonl` row).
    pub question: Vec<u32>,
    /// Model index into the run's `models`.
    pub model: Vec<u16>,
    /// Index into [`OUTCOMES`].
    pub outcome: Vec<u8>,
    pub tally_pass: Vec<u8>,
    pub tally_fail: Vec<u8>,
    pub tally_tie: Vec<u8>,
    pub turns: Vec<Option<u32>>,
    pub latency: Vec<Option<f64>>,
    pub n_sqls: Vec<u32>,
    pub prompt_tokens: Vec<Option<u64>>,
    pub completion_tokens: Vec<Option<u64>>,
    pub cache_read_tokens: Vec<Option<u64>>,
    pub cache_write_tokens: Vec<Option<u64>>,
    pub total_tokens: Vec<Option<u64>>,
    pub calls_missing_usage: Vec<Option<u32>>,
    /// Index into `error_dict` (the runner's error string).
    pub error_class: Vec<Option<u16>>,
    pub error_dict: Vec<String>,
    /// Index into `served_dict`.
    pub served_model: Vec<Option<u16>>,
    pub served_dict: Vec<String>,
}

impl Cells {
    pub fn len(&self) -> usize {
        self.question.len()
    }
    pub fn is_empty(&self) -> bool {
        self.question.is_empty()
    }
}

// ---------------------------------------------------------------------------------------
// Checksum: the same number from `Cells` and from Arrow arrays (verifies every decoder and
// keeps the optimiser from dropping work).

const NULL_MARK: u64 = 0x9E37_79B9_7F4A_7C15;

#[inline]
fn fold<I: Iterator<Item = Option<u64>>>(it: I) -> u64 {
    it.fold(0u64, |a, v| {
        a.wrapping_add(v.map_or(NULL_MARK, |x| x.wrapping_mul(3).wrapping_add(1)))
    })
}

/// Column sums in schema order, combined with [`combine`].
pub type ColumnSums = [u64; 20];

pub fn combine(sums: &ColumnSums, dict_bytes: u64) -> u64 {
    let mut h = dict_bytes;
    for s in sums {
        h = h.rotate_left(7) ^ *s;
    }
    h
}

fn dict_bytes(d: &[String]) -> u64 {
    d.iter().map(|s| s.len() as u64 + 1).sum()
}

impl Cells {
    pub fn checksum(&self) -> u64 {
        fn s<T: Copy + Into<u64>>(v: &[T]) -> u64 {
            fold(v.iter().map(|x| Some((*x).into())))
        }
        fn o<T: Copy + Into<u64>>(v: &[Option<T>]) -> u64 {
            fold(v.iter().map(|x| x.map(Into::into)))
        }
        let sums: ColumnSums = [
            s(&self.corpus),
            s(&self.question),
            s(&self.model),
            s(&self.outcome),
            s(&self.tally_pass),
            s(&self.tally_fail),
            s(&self.tally_tie),
            o(&self.turns),
            fold(self.latency.iter().map(|x| x.map(f64::to_bits))),
            s(&self.n_sqls),
            o(&self.prompt_tokens),
            o(&self.completion_tokens),
            o(&self.cache_read_tokens),
            o(&self.cache_write_tokens),
            o(&self.total_tokens),
            o(&self.calls_missing_usage),
            o(&self.error_class),
            o(&self.served_model),
            0,
            0,
        ];
        combine(
            &sums,
            dict_bytes(&self.error_dict) ^ dict_bytes(&self.served_dict).rotate_left(32),
        )
    }
}

// ---------------------------------------------------------------------------------------
// Arrow IPC

#[cfg(feature = "arrow")]
pub mod arrow {
    use super::*;
    use arrow_array::cast::AsArray;
    use arrow_array::types::{
        Float64Type, UInt8Type, UInt16Type, UInt32Type, UInt64Type,
    };
    use arrow_array::{Array, ArrowPrimitiveType, PrimitiveArray, RecordBatch};
    use arrow_schema::ArrowError;

    /// Re-exported so the wasm decoder crate needs no direct arrow dependency.
    pub type RecordBatchAlias = RecordBatch;

    pub fn schema() -> arrow_schema::Schema {
        use arrow_schema::{DataType as D, Field, Schema};
        let dict8 = D::Dictionary(Box::new(D::UInt8), Box::new(D::Utf8));
        let dict16 = D::Dictionary(Box::new(D::UInt16), Box::new(D::Utf8));
        Schema::new(vec![
            Field::new("corpus", D::UInt8, false),
            Field::new("question", D::UInt32, false),
            Field::new("model", D::UInt16, false),
            Field::new("outcome", dict8, false),
            Field::new("tally_pass", D::UInt8, false),
            Field::new("tally_fail", D::UInt8, false),
            Field::new("tally_tie", D::UInt8, false),
            Field::new("turns", D::UInt32, true),
            Field::new("latency", D::Float64, true),
            Field::new("n_sqls", D::UInt32, false),
            Field::new("prompt_tokens", D::UInt64, true),
            Field::new("completion_tokens", D::UInt64, true),
            Field::new("cache_read_tokens", D::UInt64, true),
            Field::new("cache_write_tokens", D::UInt64, true),
            Field::new("total_tokens", D::UInt64, true),
            Field::new("calls_missing_usage", D::UInt32, true),
            Field::new("error_class", dict16.clone(), true),
            Field::new("served_model", dict16, true),
        ])
    }

    /// Reads an Arrow IPC stream (all record batches).
    pub fn decode(bytes: &[u8]) -> Result<Vec<RecordBatch>, ArrowError> {
        let reader = arrow_ipc::reader::StreamReader::try_new(bytes, None)?;
        reader.collect()
    }

    /// A lean Arrow IPC stream reader: walks the messages itself and calls arrow-ipc's
    /// `read_record_batch` for dictionary and record batches, so `read_dictionary` (whose
    /// delta-dictionary support links arrow-select's `concat`/`interleave` for every type) is
    /// never referenced. Limits (fine for this spike, not for a general reader): dictionary
    /// values are assumed to be Utf8, delta dictionaries and nested dictionaries are refused.
    pub fn decode_lean(bytes: &[u8]) -> Result<Vec<RecordBatch>, ArrowError> {
        use arrow_ipc::MessageHeader;
        use arrow_schema::{DataType, Field, Schema, SchemaRef};
        use std::collections::HashMap;
        use std::sync::Arc;
        let err = |m: &str| ArrowError::IpcError(m.to_owned());
        let all = arrow_buffer::Buffer::from(bytes.to_vec());
        let mut pos = 0usize;
        let mut schema: Option<SchemaRef> = None;
        let mut dicts: HashMap<i64, arrow_array::ArrayRef> = HashMap::new();
        let mut out = Vec::new();
        let i32_at = |p: usize| -> Result<i32, ArrowError> {
            let b = bytes.get(p..p + 4).ok_or_else(|| err("truncated"))?;
            Ok(i32::from_le_bytes(b.try_into().unwrap()))
        };
        while pos + 4 <= bytes.len() {
            let mut len = i32_at(pos)?;
            pos += 4;
            if len == -1 {
                len = i32_at(pos)?;
                pos += 4;
            }
            if len <= 0 {
                break;
            }
            let len = len as usize;
            let meta = bytes.get(pos..pos + len).ok_or_else(|| err("truncated"))?;
            pos += len;
            let msg = arrow_ipc::root_as_message(meta).map_err(|e| err(&e.to_string()))?;
            let body_len = msg.bodyLength() as usize;
            if pos + body_len > bytes.len() {
                return Err(err("truncated body"));
            }
            let body = all.slice_with_length(pos, body_len);
            pos += body_len;
            match msg.header_type() {
                MessageHeader::Schema => {
                    let fb = msg.header_as_schema().ok_or_else(|| err("schema"))?;
                    schema = Some(Arc::new(arrow_ipc::convert::try_fb_to_schema(fb)?));
                }
                MessageHeader::DictionaryBatch => {
                    let d = msg.header_as_dictionary_batch().ok_or_else(|| err("dict"))?;
                    if d.isDelta() {
                        return Err(err("delta dictionaries are not supported"));
                    }
                    let data = d.data().ok_or_else(|| err("dict data"))?;
                    let s = Arc::new(Schema::new(vec![Field::new("v", DataType::Utf8, true)]));
                    let rb = arrow_ipc::reader::read_record_batch(
                        &body, data, s, &dicts, None, &msg.version(),
                    )?;
                    dicts.insert(d.id(), rb.column(0).clone());
                }
                MessageHeader::RecordBatch => {
                    let b = msg.header_as_record_batch().ok_or_else(|| err("batch"))?;
                    let s = schema.clone().ok_or_else(|| err("batch before schema"))?;
                    out.push(arrow_ipc::reader::read_record_batch(
                        &body, b, s, &dicts, None, &msg.version(),
                    )?);
                }
                _ => return Err(err("unexpected message")),
            }
        }
        Ok(out)
    }

    fn prim<T: ArrowPrimitiveType>(a: &dyn Array) -> &PrimitiveArray<T> {
        a.as_primitive::<T>()
    }

    fn sum_prim<T>(a: &dyn Array) -> u64
    where
        T: ArrowPrimitiveType,
        T::Native: Into<u64>,
    {
        fold(prim::<T>(a).iter().map(|v| v.map(Into::into)))
    }

    fn dict_strings<K: arrow_array::types::ArrowDictionaryKeyType>(a: &dyn Array) -> Vec<String> {
        let d = a.as_dictionary::<K>();
        d.values()
            .as_string::<i32>()
            .iter()
            .map(|s| s.unwrap_or("").to_owned())
            .collect()
    }

    /// Same number as [`Cells::checksum`], computed on the Arrow arrays directly.
    pub fn checksum(batches: &[RecordBatch]) -> u64 {
        let mut sums: ColumnSums = [0; 20];
        for b in batches {
            let c = b.columns();
            let add = |sums: &mut ColumnSums, i: usize, v: u64| sums[i] = sums[i].wrapping_add(v);
            add(&mut sums, 0, sum_prim::<UInt8Type>(&c[0]));
            add(&mut sums, 1, sum_prim::<UInt32Type>(&c[1]));
            add(&mut sums, 2, sum_prim::<UInt16Type>(&c[2]));
            add(&mut sums, 3, sum_prim::<UInt8Type>(c[3].as_dictionary::<UInt8Type>().keys()));
            add(&mut sums, 4, sum_prim::<UInt8Type>(&c[4]));
            add(&mut sums, 5, sum_prim::<UInt8Type>(&c[5]));
            add(&mut sums, 6, sum_prim::<UInt8Type>(&c[6]));
            add(&mut sums, 7, sum_prim::<UInt32Type>(&c[7]));
            add(
                &mut sums,
                8,
                fold(prim::<Float64Type>(&c[8]).iter().map(|v| v.map(f64::to_bits))),
            );
            add(&mut sums, 9, sum_prim::<UInt32Type>(&c[9]));
            for i in 10..15 {
                add(&mut sums, i, sum_prim::<UInt64Type>(&c[i]));
            }
            add(&mut sums, 15, sum_prim::<UInt32Type>(&c[15]));
            add(&mut sums, 16, sum_prim::<UInt16Type>(c[16].as_dictionary::<UInt16Type>().keys()));
            add(&mut sums, 17, sum_prim::<UInt16Type>(c[17].as_dictionary::<UInt16Type>().keys()));
        }
        let (e, s) = match batches.first() {
            Some(b) => (
                dict_strings::<UInt16Type>(b.column(16)),
                dict_strings::<UInt16Type>(b.column(17)),
            ),
            None => (vec![], vec![]),
        };
        combine(&sums, dict_bytes(&e) ^ dict_bytes(&s).rotate_left(32))
    }

    /// Arrow arrays → plain column Vecs (what today's Rust metrics code would consume).
    pub fn to_cells(batches: &[RecordBatch]) -> Cells {
        fn vals<T: ArrowPrimitiveType>(out: &mut Vec<T::Native>, a: &dyn Array) {
            out.extend_from_slice(prim::<T>(a).values());
        }
        fn opts<T: ArrowPrimitiveType>(out: &mut Vec<Option<T::Native>>, a: &dyn Array) {
            out.extend(prim::<T>(a).iter());
        }
        let n: usize = batches.iter().map(|b| b.num_rows()).sum();
        let mut c = Cells::default();
        macro_rules! reserve { ($($f:ident),*) => { $(c.$f.reserve_exact(n);)* } }
        reserve!(corpus, question, model, outcome, tally_pass, tally_fail, tally_tie, turns,
            latency, n_sqls, prompt_tokens, completion_tokens, cache_read_tokens,
            cache_write_tokens, total_tokens, calls_missing_usage, error_class, served_model);
        for b in batches {
            let k = b.columns();
            vals::<UInt8Type>(&mut c.corpus, &k[0]);
            vals::<UInt32Type>(&mut c.question, &k[1]);
            vals::<UInt16Type>(&mut c.model, &k[2]);
            vals::<UInt8Type>(&mut c.outcome, k[3].as_dictionary::<UInt8Type>().keys());
            vals::<UInt8Type>(&mut c.tally_pass, &k[4]);
            vals::<UInt8Type>(&mut c.tally_fail, &k[5]);
            vals::<UInt8Type>(&mut c.tally_tie, &k[6]);
            opts::<UInt32Type>(&mut c.turns, &k[7]);
            opts::<Float64Type>(&mut c.latency, &k[8]);
            vals::<UInt32Type>(&mut c.n_sqls, &k[9]);
            opts::<UInt64Type>(&mut c.prompt_tokens, &k[10]);
            opts::<UInt64Type>(&mut c.completion_tokens, &k[11]);
            opts::<UInt64Type>(&mut c.cache_read_tokens, &k[12]);
            opts::<UInt64Type>(&mut c.cache_write_tokens, &k[13]);
            opts::<UInt64Type>(&mut c.total_tokens, &k[14]);
            opts::<UInt32Type>(&mut c.calls_missing_usage, &k[15]);
            opts::<UInt16Type>(&mut c.error_class, k[16].as_dictionary::<UInt16Type>().keys());
            opts::<UInt16Type>(&mut c.served_model, k[17].as_dictionary::<UInt16Type>().keys());
        }
        if let Some(b) = batches.first() {
            c.error_dict = dict_strings::<UInt16Type>(b.column(16));
            c.served_dict = dict_strings::<UInt16Type>(b.column(17));
        }
        c
    }

    /// Writes the table as an Arrow IPC stream, one record batch per corpus (dictionaries
    /// shared, so they are sent once), body buffers compressed with `compression`.
    #[cfg(feature = "encode")]
    pub fn encode(
        c: &Cells,
        compression: Option<arrow_ipc::CompressionType>,
    ) -> Result<Vec<u8>, ArrowError> {
        use arrow_array::{ArrayRef, DictionaryArray, StringArray, UInt8Array, UInt16Array};
        use std::sync::Arc;
        let outcome_values: ArrayRef = Arc::new(StringArray::from(OUTCOMES.to_vec()));
        let err_values: ArrayRef = Arc::new(StringArray::from_iter_values(&c.error_dict));
        let served_values: ArrayRef = Arc::new(StringArray::from_iter_values(&c.served_dict));
        let cols: Vec<ArrayRef> = vec![
            Arc::new(PrimitiveArray::<UInt8Type>::from(c.corpus.clone())),
            Arc::new(PrimitiveArray::<UInt32Type>::from(c.question.clone())),
            Arc::new(PrimitiveArray::<UInt16Type>::from(c.model.clone())),
            Arc::new(DictionaryArray::<UInt8Type>::try_new(
                UInt8Array::from(c.outcome.clone()),
                outcome_values,
            )?),
            Arc::new(PrimitiveArray::<UInt8Type>::from(c.tally_pass.clone())),
            Arc::new(PrimitiveArray::<UInt8Type>::from(c.tally_fail.clone())),
            Arc::new(PrimitiveArray::<UInt8Type>::from(c.tally_tie.clone())),
            Arc::new(PrimitiveArray::<UInt32Type>::from(c.turns.clone())),
            Arc::new(PrimitiveArray::<Float64Type>::from(c.latency.clone())),
            Arc::new(PrimitiveArray::<UInt32Type>::from(c.n_sqls.clone())),
            Arc::new(PrimitiveArray::<UInt64Type>::from(c.prompt_tokens.clone())),
            Arc::new(PrimitiveArray::<UInt64Type>::from(c.completion_tokens.clone())),
            Arc::new(PrimitiveArray::<UInt64Type>::from(c.cache_read_tokens.clone())),
            Arc::new(PrimitiveArray::<UInt64Type>::from(c.cache_write_tokens.clone())),
            Arc::new(PrimitiveArray::<UInt64Type>::from(c.total_tokens.clone())),
            Arc::new(PrimitiveArray::<UInt32Type>::from(c.calls_missing_usage.clone())),
            Arc::new(DictionaryArray::<UInt16Type>::try_new(
                UInt16Array::from(c.error_class.clone()),
                err_values,
            )?),
            Arc::new(DictionaryArray::<UInt16Type>::try_new(
                UInt16Array::from(c.served_model.clone()),
                served_values,
            )?),
        ];
        let schema = Arc::new(schema());
        let batch = RecordBatch::try_new(schema.clone(), cols)?;
        let opts = arrow_ipc::writer::IpcWriteOptions::default().try_with_compression(compression)?;
        let mut out = Vec::new();
        {
            let mut w =
                arrow_ipc::writer::StreamWriter::try_new_with_options(&mut out, &schema, opts)?;
            // One batch per corpus (rows are grouped by corpus).
            let mut start = 0;
            while start < c.len() {
                let k = c.corpus[start];
                let mut end = start;
                while end < c.len() && c.corpus[end] == k {
                    end += 1;
                }
                w.write(&batch.slice(start, end - start))?;
                start = end;
            }
            w.finish()?;
        }
        Ok(out)
    }
}

#[cfg(feature = "deflate")]
fn gunzip(bytes: &[u8]) -> Result<Vec<u8>, String> {
    use std::io::Read;
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(bytes).read_to_end(&mut out).map_err(|e| e.to_string())?;
    Ok(out)
}

#[cfg(all(feature = "deflate", feature = "encode"))]
fn gzip(bytes: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(bytes).expect("gz");
    gz.finish().expect("gz")
}

// ---------------------------------------------------------------------------------------
// postcard + lz4_flex

#[cfg(feature = "postcard")]
pub mod pc {
    use super::Cells;

    pub fn decode(bytes: &[u8]) -> Result<Cells, String> {
        let raw = lz4_flex::block::decompress_size_prepended(bytes).map_err(|e| e.to_string())?;
        postcard::from_bytes(&raw).map_err(|e| e.to_string())
    }

    #[cfg(feature = "encode")]
    pub fn encode(c: &Cells) -> Vec<u8> {
        let raw = postcard::to_allocvec(c).expect("postcard");
        lz4_flex::block::compress_prepend_size(&raw)
    }

    /// postcard, then gzip (flate2/miniz_oxide, already linked by the v1 reader) instead of LZ4.
    #[cfg(feature = "deflate")]
    pub fn decode_gz(bytes: &[u8]) -> Result<Cells, String> {
        postcard::from_bytes(&super::gunzip(bytes)?).map_err(|e| e.to_string())
    }

    #[cfg(all(feature = "deflate", feature = "encode"))]
    pub fn encode_gz(c: &Cells) -> Vec<u8> {
        super::gzip(&postcard::to_allocvec(c).expect("postcard"))
    }

    #[cfg(feature = "encode")]
    pub fn encode_uncompressed(c: &Cells) -> Vec<u8> {
        postcard::to_allocvec(c).expect("postcard")
    }
}

// ---------------------------------------------------------------------------------------
// Hand-rolled little-endian columns + lz4_flex
//
// Layout (before compression): magic `RLC1`, u32 row count, then each column in `Cells`
// field order: non-null columns are `n` LE values; nullable ones are a validity bitmap
// (ceil(n/8) bytes, LSB first, 1 = present) followed by `n` LE values (0 where null);
// after `error_class` and `served_model` comes their dictionary (u32 count, then u32 length +
// UTF-8 bytes per entry). The whole buffer is one lz4_flex block with the size prepended.

#[cfg(feature = "raw")]
pub mod raw {
    use super::Cells;

    pub const MAGIC: &[u8; 4] = b"RLC1";

    trait Le: Copy + Default {
        const N: usize;
        fn get(b: &[u8]) -> Self;
        #[cfg(feature = "encode")]
        fn put(self, out: &mut Vec<u8>);
    }
    macro_rules! le {
        ($($t:ty),*) => {$(
            impl Le for $t {
                const N: usize = size_of::<$t>();
                #[inline]
                fn get(b: &[u8]) -> Self {
                    <$t>::from_le_bytes(b[..size_of::<$t>()].try_into().unwrap())
                }
                #[cfg(feature = "encode")]
                fn put(self, out: &mut Vec<u8>) { out.extend_from_slice(&self.to_le_bytes()); }
            }
        )*};
    }
    le!(u8, u16, u32, u64, f64);

    struct Rd<'a> {
        b: &'a [u8],
        n: usize,
    }
    impl<'a> Rd<'a> {
        fn take(&mut self, k: usize) -> Result<&'a [u8], String> {
            if self.b.len() < k {
                return Err("raw: truncated".into());
            }
            let (h, t) = self.b.split_at(k);
            self.b = t;
            Ok(h)
        }
        fn col<T: Le>(&mut self) -> Result<Vec<T>, String> {
            let b = self.take(self.n * T::N)?;
            Ok(b.chunks_exact(T::N).map(T::get).collect())
        }
        fn opt<T: Le>(&mut self) -> Result<Vec<Option<T>>, String> {
            let bits = self.take(self.n.div_ceil(8))?;
            let b = self.take(self.n * T::N)?;
            Ok(b.chunks_exact(T::N)
                .enumerate()
                .map(|(i, x)| (bits[i >> 3] >> (i & 7) & 1 == 1).then(|| T::get(x)))
                .collect())
        }
        fn dict(&mut self) -> Result<Vec<String>, String> {
            let k = u32::get(self.take(4)?) as usize;
            let mut v = Vec::with_capacity(k);
            for _ in 0..k {
                let len = u32::get(self.take(4)?) as usize;
                let s = core::str::from_utf8(self.take(len)?).map_err(|e| e.to_string())?;
                v.push(s.to_owned());
            }
            Ok(v)
        }
    }

    pub fn decode(bytes: &[u8]) -> Result<Cells, String> {
        let raw = lz4_flex::block::decompress_size_prepended(bytes).map_err(|e| e.to_string())?;
        decode_plain(&raw)
    }

    /// The raw layout, gzip-compressed (flate2) instead of LZ4.
    #[cfg(feature = "deflate")]
    pub fn decode_gz(bytes: &[u8]) -> Result<Cells, String> {
        decode_plain(&super::gunzip(bytes)?)
    }

    #[cfg(all(feature = "deflate", feature = "encode"))]
    pub fn encode_gz(c: &Cells) -> Vec<u8> {
        super::gzip(&encode_uncompressed(c))
    }

    pub fn decode_plain(raw: &[u8]) -> Result<Cells, String> {
        if raw.len() < 8 || &raw[..4] != MAGIC {
            return Err("raw: bad magic".into());
        }
        let n = u32::get(&raw[4..8]) as usize;
        let mut r = Rd { b: &raw[8..], n };
        Ok(Cells {
            corpus: r.col()?,
            question: r.col()?,
            model: r.col()?,
            outcome: r.col()?,
            tally_pass: r.col()?,
            tally_fail: r.col()?,
            tally_tie: r.col()?,
            turns: r.opt()?,
            latency: r.opt()?,
            n_sqls: r.col()?,
            prompt_tokens: r.opt()?,
            completion_tokens: r.opt()?,
            cache_read_tokens: r.opt()?,
            cache_write_tokens: r.opt()?,
            total_tokens: r.opt()?,
            calls_missing_usage: r.opt()?,
            error_class: r.opt()?,
            error_dict: r.dict()?,
            served_model: r.opt()?,
            served_dict: r.dict()?,
        })
    }

    #[cfg(feature = "encode")]
    pub fn encode_uncompressed(c: &Cells) -> Vec<u8> {
        fn col<T: Le>(out: &mut Vec<u8>, v: &[T]) {
            for x in v {
                x.put(out);
            }
        }
        fn opt<T: Le>(out: &mut Vec<u8>, v: &[Option<T>]) {
            let mut bits = vec![0u8; v.len().div_ceil(8)];
            for (i, x) in v.iter().enumerate() {
                if x.is_some() {
                    bits[i >> 3] |= 1 << (i & 7);
                }
            }
            out.extend_from_slice(&bits);
            for x in v {
                x.unwrap_or_default().put(out);
            }
        }
        fn dict(out: &mut Vec<u8>, d: &[String]) {
            (d.len() as u32).put(out);
            for s in d {
                (s.len() as u32).put(out);
                out.extend_from_slice(s.as_bytes());
            }
        }
        let mut o = Vec::new();
        o.extend_from_slice(MAGIC);
        (c.len() as u32).put(&mut o);
        col(&mut o, &c.corpus);
        col(&mut o, &c.question);
        col(&mut o, &c.model);
        col(&mut o, &c.outcome);
        col(&mut o, &c.tally_pass);
        col(&mut o, &c.tally_fail);
        col(&mut o, &c.tally_tie);
        opt(&mut o, &c.turns);
        opt(&mut o, &c.latency);
        col(&mut o, &c.n_sqls);
        opt(&mut o, &c.prompt_tokens);
        opt(&mut o, &c.completion_tokens);
        opt(&mut o, &c.cache_read_tokens);
        opt(&mut o, &c.cache_write_tokens);
        opt(&mut o, &c.total_tokens);
        opt(&mut o, &c.calls_missing_usage);
        opt(&mut o, &c.error_class);
        dict(&mut o, &c.error_dict);
        opt(&mut o, &c.served_model);
        dict(&mut o, &c.served_dict);
        o
    }

    #[cfg(feature = "encode")]
    pub fn encode(c: &Cells) -> Vec<u8> {
        lz4_flex::block::compress_prepend_size(&encode_uncompressed(c))
    }
}

// ---------------------------------------------------------------------------------------
// Reference: the same rows as gzip'd JSON lines (flate2 default level 6), parsed with serde_json.

#[cfg(feature = "jsonl")]
pub mod jsonl {
    use super::{Cells, OUTCOMES};
    use serde::{Deserialize, Serialize};
    use std::io::{Read, Write};

    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    pub struct Row {
        pub corpus: u8,
        pub question: u32,
        pub model: u16,
        pub outcome: String,
        pub tally_pass: u8,
        pub tally_fail: u8,
        pub tally_tie: u8,
        pub turns: Option<u32>,
        pub latency: Option<f64>,
        pub n_sqls: u32,
        pub prompt_tokens: Option<u64>,
        pub completion_tokens: Option<u64>,
        pub cache_read_tokens: Option<u64>,
        pub cache_write_tokens: Option<u64>,
        pub total_tokens: Option<u64>,
        pub calls_missing_usage: Option<u32>,
        pub error_class: Option<String>,
        pub served_model: Option<String>,
    }

    pub fn rows(c: &Cells) -> Vec<Row> {
        (0..c.len())
            .map(|i| Row {
                corpus: c.corpus[i],
                question: c.question[i],
                model: c.model[i],
                outcome: OUTCOMES[c.outcome[i] as usize].to_owned(),
                tally_pass: c.tally_pass[i],
                tally_fail: c.tally_fail[i],
                tally_tie: c.tally_tie[i],
                turns: c.turns[i],
                latency: c.latency[i],
                n_sqls: c.n_sqls[i],
                prompt_tokens: c.prompt_tokens[i],
                completion_tokens: c.completion_tokens[i],
                cache_read_tokens: c.cache_read_tokens[i],
                cache_write_tokens: c.cache_write_tokens[i],
                total_tokens: c.total_tokens[i],
                calls_missing_usage: c.calls_missing_usage[i],
                error_class: c.error_class[i].map(|k| c.error_dict[k as usize].clone()),
                served_model: c.served_model[i].map(|k| c.served_dict[k as usize].clone()),
            })
            .collect()
    }

    pub fn encode(c: &Cells) -> Vec<u8> {
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        for r in rows(c) {
            serde_json::to_writer(&mut gz, &r).expect("json");
            gz.write_all(b"\n").expect("gz");
        }
        gz.finish().expect("gz")
    }

    pub fn write_row<W: Write>(w: &mut W, r: &Row) {
        serde_json::to_writer(w, r).expect("json");
    }

    pub fn decode(bytes: &[u8]) -> Result<Vec<Row>, String> {
        let mut text = Vec::new();
        flate2::read::GzDecoder::new(bytes)
            .read_to_end(&mut text)
            .map_err(|e| e.to_string())?;
        text.split(|b| *b == b'\n')
            .filter(|l| !l.is_empty())
            .map(|l| serde_json::from_slice(l).map_err(|e| e.to_string()))
            .collect()
    }

    /// A cheap checksum over decoded rows (row count mixed with numeric sums).
    pub fn checksum(rows: &[Row]) -> u64 {
        rows.iter().fold(rows.len() as u64, |a, r| {
            a.wrapping_add(r.question as u64 + r.model as u64 + r.n_sqls as u64)
                .wrapping_add(r.total_tokens.unwrap_or(7))
        })
    }
}

// ---------------------------------------------------------------------------------------
// Dense variant of the decode target: nullable columns as (validity bitmap, values) instead of
// Vec<Option<T>> (16 B per u64 value), like Arrow's layout.

/// A nullable column: `valid` is a bitmap (LSB first, 1 = present), `values` holds 0 where null.
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "postcard", derive(serde::Serialize, serde::Deserialize))]
pub struct Nullable<T> {
    pub valid: Vec<u8>,
    pub values: Vec<T>,
}

impl<T: Copy + Default> Nullable<T> {
    pub fn from_options(v: &[Option<T>]) -> Self {
        let mut valid = vec![0u8; v.len().div_ceil(8)];
        for (i, x) in v.iter().enumerate() {
            if x.is_some() {
                valid[i >> 3] |= 1 << (i & 7);
            }
        }
        Nullable { valid, values: v.iter().map(|x| x.unwrap_or_default()).collect() }
    }
    #[inline]
    pub fn get(&self, i: usize) -> Option<T> {
        (self.valid[i >> 3] >> (i & 7) & 1 == 1).then(|| self.values[i])
    }
}

/// [`Cells`] with [`Nullable`] columns.
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "postcard", derive(serde::Serialize, serde::Deserialize))]
pub struct DenseCells {
    pub corpus: Vec<u8>,
    pub question: Vec<u32>,
    pub model: Vec<u16>,
    pub outcome: Vec<u8>,
    pub tally_pass: Vec<u8>,
    pub tally_fail: Vec<u8>,
    pub tally_tie: Vec<u8>,
    pub turns: Nullable<u32>,
    pub latency: Nullable<f64>,
    pub n_sqls: Vec<u32>,
    pub prompt_tokens: Nullable<u64>,
    pub completion_tokens: Nullable<u64>,
    pub cache_read_tokens: Nullable<u64>,
    pub cache_write_tokens: Nullable<u64>,
    pub total_tokens: Nullable<u64>,
    pub calls_missing_usage: Nullable<u32>,
    pub error_class: Nullable<u16>,
    pub error_dict: Vec<String>,
    pub served_model: Nullable<u16>,
    pub served_dict: Vec<String>,
}

impl DenseCells {
    pub fn len(&self) -> usize {
        self.question.len()
    }
    pub fn is_empty(&self) -> bool {
        self.question.is_empty()
    }

    pub fn from_cells(c: &Cells) -> DenseCells {
        DenseCells {
            corpus: c.corpus.clone(),
            question: c.question.clone(),
            model: c.model.clone(),
            outcome: c.outcome.clone(),
            tally_pass: c.tally_pass.clone(),
            tally_fail: c.tally_fail.clone(),
            tally_tie: c.tally_tie.clone(),
            turns: Nullable::from_options(&c.turns),
            latency: Nullable::from_options(&c.latency),
            n_sqls: c.n_sqls.clone(),
            prompt_tokens: Nullable::from_options(&c.prompt_tokens),
            completion_tokens: Nullable::from_options(&c.completion_tokens),
            cache_read_tokens: Nullable::from_options(&c.cache_read_tokens),
            cache_write_tokens: Nullable::from_options(&c.cache_write_tokens),
            total_tokens: Nullable::from_options(&c.total_tokens),
            calls_missing_usage: Nullable::from_options(&c.calls_missing_usage),
            error_class: Nullable::from_options(&c.error_class),
            error_dict: c.error_dict.clone(),
            served_model: Nullable::from_options(&c.served_model),
            served_dict: c.served_dict.clone(),
        }
    }

    /// Same number as [`Cells::checksum`].
    pub fn checksum(&self) -> u64 {
        fn s<T: Copy + Into<u64>>(v: &[T]) -> u64 {
            fold(v.iter().map(|x| Some((*x).into())))
        }
        fn o<T: Copy + Default + Into<u64>>(v: &Nullable<T>) -> u64 {
            fold((0..v.values.len()).map(|i| v.get(i).map(Into::into)))
        }
        let lat = &self.latency;
        let sums: ColumnSums = [
            s(&self.corpus),
            s(&self.question),
            s(&self.model),
            s(&self.outcome),
            s(&self.tally_pass),
            s(&self.tally_fail),
            s(&self.tally_tie),
            o(&self.turns),
            fold((0..lat.values.len()).map(|i| lat.get(i).map(f64::to_bits))),
            s(&self.n_sqls),
            o(&self.prompt_tokens),
            o(&self.completion_tokens),
            o(&self.cache_read_tokens),
            o(&self.cache_write_tokens),
            o(&self.total_tokens),
            o(&self.calls_missing_usage),
            o(&self.error_class),
            o(&self.served_model),
            0,
            0,
        ];
        combine(
            &sums,
            dict_bytes(&self.error_dict) ^ dict_bytes(&self.served_dict).rotate_left(32),
        )
    }
}

#[cfg(feature = "postcard")]
pub mod pc_dense {
    use super::DenseCells;

    pub fn decode(bytes: &[u8]) -> Result<DenseCells, String> {
        let raw = lz4_flex::block::decompress_size_prepended(bytes).map_err(|e| e.to_string())?;
        postcard::from_bytes(&raw).map_err(|e| e.to_string())
    }
    #[cfg(feature = "deflate")]
    pub fn decode_gz(bytes: &[u8]) -> Result<DenseCells, String> {
        postcard::from_bytes(&super::gunzip(bytes)?).map_err(|e| e.to_string())
    }
    #[cfg(feature = "encode")]
    pub fn encode(c: &DenseCells) -> Vec<u8> {
        lz4_flex::block::compress_prepend_size(&postcard::to_allocvec(c).expect("postcard"))
    }
    #[cfg(all(feature = "deflate", feature = "encode"))]
    pub fn encode_gz(c: &DenseCells) -> Vec<u8> {
        super::gzip(&postcard::to_allocvec(c).expect("postcard"))
    }
}

#[cfg(feature = "raw")]
pub mod raw_dense {
    //! Decodes the `raw` layout (same bytes) into [`DenseCells`].
    use super::{DenseCells, Nullable};

    struct Rd<'a> {
        b: &'a [u8],
        n: usize,
    }
    macro_rules! getters {
        ($($name:ident: $t:ty),*) => {$(
            fn $name(&mut self) -> Result<Vec<$t>, String> {
                const N: usize = size_of::<$t>();
                let b = self.take(self.n * N)?;
                Ok(b.chunks_exact(N).map(|x| <$t>::from_le_bytes(x.try_into().unwrap())).collect())
            }
        )*};
    }
    impl<'a> Rd<'a> {
        fn take(&mut self, k: usize) -> Result<&'a [u8], String> {
            if self.b.len() < k {
                return Err("raw: truncated".into());
            }
            let (h, t) = self.b.split_at(k);
            self.b = t;
            Ok(h)
        }
        getters!(u8s: u8, u16s: u16, u32s: u32, u64s: u64, f64s: f64);
        fn bits(&mut self) -> Result<Vec<u8>, String> {
            Ok(self.take(self.n.div_ceil(8))?.to_vec())
        }
        fn dict(&mut self) -> Result<Vec<String>, String> {
            let k = u32::from_le_bytes(self.take(4)?.try_into().unwrap()) as usize;
            let mut v = Vec::with_capacity(k);
            for _ in 0..k {
                let len = u32::from_le_bytes(self.take(4)?.try_into().unwrap()) as usize;
                let s = core::str::from_utf8(self.take(len)?).map_err(|e| e.to_string())?;
                v.push(s.to_owned());
            }
            Ok(v)
        }
    }

    pub fn decode(bytes: &[u8]) -> Result<DenseCells, String> {
        let raw = lz4_flex::block::decompress_size_prepended(bytes).map_err(|e| e.to_string())?;
        if raw.len() < 8 || &raw[..4] != super::raw::MAGIC {
            return Err("raw: bad magic".into());
        }
        let n = u32::from_le_bytes(raw[4..8].try_into().unwrap()) as usize;
        let mut r = Rd { b: &raw[8..], n };
        macro_rules! nul {
            ($f:ident) => {{
                let valid = r.bits()?;
                Nullable { valid, values: r.$f()? }
            }};
        }
        Ok(DenseCells {
            corpus: r.u8s()?,
            question: r.u32s()?,
            model: r.u16s()?,
            outcome: r.u8s()?,
            tally_pass: r.u8s()?,
            tally_fail: r.u8s()?,
            tally_tie: r.u8s()?,
            turns: nul!(u32s),
            latency: nul!(f64s),
            n_sqls: r.u32s()?,
            prompt_tokens: nul!(u64s),
            completion_tokens: nul!(u64s),
            cache_read_tokens: nul!(u64s),
            cache_write_tokens: nul!(u64s),
            total_tokens: nul!(u64s),
            calls_missing_usage: nul!(u32s),
            error_class: nul!(u16s),
            error_dict: r.dict()?,
            served_model: nul!(u16s),
            served_dict: r.dict()?,
        })
    }
}
