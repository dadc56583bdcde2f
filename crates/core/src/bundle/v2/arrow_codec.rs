//! A table's columns as one Arrow IPC stream (LZ4-frame compressed buffers), and back.
//!
//! Types: `U64`/`Len` → the narrowest of UInt8/16/32/64 that holds the column's largest
//! value (LZ4 cannot squeeze the zero high bytes of token counts the way gzip would), `F64` → Float64, `Bool` → Boolean, `Dict` →
//! Dictionary(UInt32, Utf8), `Text` → Utf8, `TextList` → List(Dictionary(UInt32, Utf8)) (table
//! names repeat); every column nullable.
//! ClickHouse, DuckDB, pandas and pyarrow read such a stream as it is.

use std::sync::Arc;

use arrow_array::builder::{ListBuilder, StringDictionaryBuilder};
use arrow_array::types::UInt32Type;
use arrow_array::{
    Array, ArrayRef, BooleanArray, DictionaryArray, Float64Array, ListArray, RecordBatch,
    StringArray, UInt8Array, UInt16Array, UInt32Array, UInt64Array,
};
use arrow_ipc::CompressionType;
use arrow_ipc::reader::StreamReader;
use arrow_ipc::writer::{IpcWriteOptions, StreamWriter};
use arrow_schema::{ArrowError, DataType, Field, Schema};

use super::schema::{Column, Kind};
use super::split::ColumnData;

/// The type a column of `kind` is read as, for messages.
fn expected_type(kind: Kind) -> String {
    match kind {
        Kind::U64 | Kind::Len => "an unsigned integer (UInt8/16/32/64)".to_owned(),
        other => data_type(other).to_string(),
    }
}

fn data_type(kind: Kind) -> DataType {
    match kind {
        Kind::U64 | Kind::Len => DataType::UInt64,
        Kind::F64 => DataType::Float64,
        Kind::Bool => DataType::Boolean,
        Kind::Dict => DataType::Dictionary(Box::new(DataType::UInt32), Box::new(DataType::Utf8)),
        Kind::Text => DataType::Utf8,
        Kind::TextList => DataType::List(Arc::new(Field::new(
            "item",
            DataType::Dictionary(Box::new(DataType::UInt32), Box::new(DataType::Utf8)),
            true,
        ))),
    }
}

/// The narrowest unsigned type holding every value of `v`.
fn narrow(v: &[Option<u64>]) -> ArrayRef {
    let max = v.iter().flatten().copied().max().unwrap_or(0);
    if u8::try_from(max).is_ok() {
        Arc::new(v.iter().map(|x| x.map(|x| x as u8)).collect::<UInt8Array>())
    } else if u16::try_from(max).is_ok() {
        Arc::new(
            v.iter()
                .map(|x| x.map(|x| x as u16))
                .collect::<UInt16Array>(),
        )
    } else if u32::try_from(max).is_ok() {
        Arc::new(
            v.iter()
                .map(|x| x.map(|x| x as u32))
                .collect::<UInt32Array>(),
        )
    } else {
        Arc::new(UInt64Array::from(v.to_vec()))
    }
}

fn array(kind: Kind, data: &ColumnData) -> ArrayRef {
    match data {
        ColumnData::U64(v) => narrow(v),
        ColumnData::F64(v) => Arc::new(Float64Array::from(v.clone())),
        ColumnData::Bool(v) => Arc::new(BooleanArray::from(v.clone())),
        ColumnData::Str(v) if kind == Kind::Dict => Arc::new(
            v.iter()
                .map(Option::as_deref)
                .collect::<DictionaryArray<UInt32Type>>(),
        ),
        ColumnData::Str(v) => Arc::new(v.iter().map(Option::as_deref).collect::<StringArray>()),
        ColumnData::StrList(v) => {
            let mut builder = ListBuilder::new(StringDictionaryBuilder::<UInt32Type>::new());
            for row in v {
                match row {
                    Some(items) => {
                        for item in items {
                            builder.values().append_value(item);
                        }
                        builder.append(true);
                    }
                    None => builder.append(false),
                }
            }
            Arc::new(builder.finish())
        }
    }
}

/// Encodes `columns` (aligned with `spec`, equal lengths) as an Arrow IPC stream.
pub fn encode(spec: &[Column], columns: &[ColumnData]) -> Result<Vec<u8>, ArrowError> {
    let arrays: Vec<ArrayRef> = spec
        .iter()
        .zip(columns)
        .map(|(c, d)| array(c.kind, d))
        .collect();
    let fields: Vec<Field> = spec
        .iter()
        .zip(&arrays)
        .map(|(c, a)| Field::new(c.name, a.data_type().clone(), true))
        .collect();
    let schema = Arc::new(Schema::new(fields));
    let batch = RecordBatch::try_new(schema.clone(), arrays)?;
    let options =
        IpcWriteOptions::default().try_with_compression(Some(CompressionType::LZ4_FRAME))?;
    let mut out = Vec::new();
    let mut writer = StreamWriter::try_new_with_options(&mut out, &schema, options)?;
    writer.write(&batch)?;
    writer.finish()?;
    drop(writer);
    Ok(out)
}

/// What was wrong with a stream's columns.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DecodeError {
    /// Not a readable Arrow IPC stream.
    Arrow(String),
    /// A column of the spec is missing.
    Missing(&'static str),
    /// A column has another type than the spec's.
    Type {
        /// The column.
        column: &'static str,
        /// The type the spec asks for.
        expected: String,
        /// The type found.
        found: String,
    },
}

fn strings(array: &dyn Array) -> Option<Vec<Option<String>>> {
    if let Some(dict) = array.as_any().downcast_ref::<DictionaryArray<UInt32Type>>() {
        let typed = dict.downcast_dict::<StringArray>()?;
        return Some(typed.into_iter().map(|s| s.map(str::to_owned)).collect());
    }
    let plain = array.as_any().downcast_ref::<StringArray>()?;
    Some(plain.iter().map(|s| s.map(str::to_owned)).collect())
}

/// Any unsigned integer column, widened.
fn unsigned(array: &dyn Array) -> Option<Vec<Option<u64>>> {
    let any = array.as_any();
    if let Some(a) = any.downcast_ref::<UInt8Array>() {
        return Some(a.iter().map(|x| x.map(u64::from)).collect());
    }
    if let Some(a) = any.downcast_ref::<UInt16Array>() {
        return Some(a.iter().map(|x| x.map(u64::from)).collect());
    }
    if let Some(a) = any.downcast_ref::<UInt32Array>() {
        return Some(a.iter().map(|x| x.map(u64::from)).collect());
    }
    Some(any.downcast_ref::<UInt64Array>()?.iter().collect())
}

fn column_data(kind: Kind, array: &dyn Array) -> Option<ColumnData> {
    let any = array.as_any();
    Some(match kind {
        Kind::U64 | Kind::Len => ColumnData::U64(unsigned(array)?),
        Kind::F64 => ColumnData::F64(any.downcast_ref::<Float64Array>()?.iter().collect()),
        Kind::Bool => ColumnData::Bool(any.downcast_ref::<BooleanArray>()?.iter().collect()),
        Kind::Dict | Kind::Text => ColumnData::Str(strings(array)?),
        Kind::TextList => {
            let list = any.downcast_ref::<ListArray>()?;
            let mut rows = Vec::with_capacity(list.len());
            for i in 0..list.len() {
                if list.is_null(i) {
                    rows.push(None);
                    continue;
                }
                let items = strings(list.value(i).as_ref())?;
                rows.push(items.into_iter().collect::<Option<Vec<String>>>());
            }
            ColumnData::StrList(rows)
        }
    })
}

/// Decodes a stream written by [`encode`] for `spec` (every batch, concatenated): the
/// columns in spec order and the row count.
pub fn decode(spec: &[Column], bytes: &[u8]) -> Result<(Vec<ColumnData>, usize), DecodeError> {
    let reader =
        StreamReader::try_new(bytes, None).map_err(|e| DecodeError::Arrow(e.to_string()))?;
    let mut out: Vec<ColumnData> = spec.iter().map(|c| ColumnData::new(c.kind)).collect();
    let mut rows = 0;
    for batch in reader {
        let batch = batch.map_err(|e| DecodeError::Arrow(e.to_string()))?;
        rows += batch.num_rows();
        for (c, acc) in spec.iter().zip(out.iter_mut()) {
            let array = batch
                .column_by_name(c.name)
                .ok_or(DecodeError::Missing(c.name))?;
            let data = column_data(c.kind, array.as_ref()).ok_or_else(|| DecodeError::Type {
                column: c.name,
                expected: expected_type(c.kind),
                found: array.data_type().to_string(),
            })?;
            append(acc, data);
        }
    }
    Ok((out, rows))
}

fn append(acc: &mut ColumnData, more: ColumnData) {
    match (acc, more) {
        (ColumnData::U64(a), ColumnData::U64(b)) => a.extend(b),
        (ColumnData::F64(a), ColumnData::F64(b)) => a.extend(b),
        (ColumnData::Bool(a), ColumnData::Bool(b)) => a.extend(b),
        (ColumnData::Str(a), ColumnData::Str(b)) => a.extend(b),
        (ColumnData::StrList(a), ColumnData::StrList(b)) => a.extend(b),
        // `column_data` returns the kind's variant, as `ColumnData::new` does.
        _ => {}
    }
}
