//! A table's columns read back from one gzip-compressed postcard document
//! ([`super::layout`]; [`super::packed::encode`] writes it). Chosen over Arrow IPC + LZ4 by the spike in
//! docs/performance.md ("Bundle v2: the columnar encoding"): fewer bytes and less wasm than
//! Arrow's reader, at a similar decode time.

use std::io::Read;

use super::layout::{ColumnDoc, LAYOUT, Values};
use super::nullable::{Nullable, Numbers};
use super::schema::{Column, Kind};
use super::split::{Coded, ColumnData};
use crate::bundle::Name;

/// What a column of `kind` is stored as, for messages.
fn expected(kind: Kind) -> &'static str {
    match kind {
        Kind::U64 | Kind::Len => "unsigned integers",
        Kind::F64 => "floats",
        Kind::Bool => "booleans",
        Kind::Dict => "dictionary strings",
        Kind::Text => "strings",
        Kind::TextList => "lists of dictionary strings",
    }
}

/// What was wrong with a stored table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DecodeError {
    /// Not gzip, or not a layout-1 document.
    Unreadable(String),
    /// A layout this reader does not know.
    Layout(u32),
    /// A column of the spec is missing.
    Missing(&'static str),
    /// A column is stored as another kind than the spec's.
    Type {
        /// The column.
        column: &'static str,
        /// What the spec asks for.
        expected: &'static str,
        /// What is stored.
        found: &'static str,
    },
    /// A column's values do not add up to the table's rows.
    Length {
        /// The column.
        column: &'static str,
        /// What is wrong.
        message: String,
    },
}

/// Row `i` has a value.
fn valid(bits: Option<&[u8]>, i: usize) -> bool {
    bits.is_none_or(|b| b.get(i / 8).is_some_and(|byte| byte & (1 << (i % 8)) != 0))
}

/// Spreads `values` over `rows` rows by the validity bitmap.
fn spread<T>(
    column: &'static str,
    bits: Option<&[u8]>,
    rows: usize,
    values: Vec<T>,
) -> Result<Vec<Option<T>>, DecodeError> {
    spread_with(column, bits, rows, values, |rows, bits, values| {
        let mut given = values.into_iter();
        let mut out = Vec::with_capacity(rows);
        for i in 0..rows {
            out.push(if valid(bits, i) {
                Some(given.next()?)
            } else {
                None
            });
        }
        given.next().is_none().then_some(out)
    })
}

/// Places `values` on `rows` rows by the validity bitmap with `place` (given the rows, the
/// bitmap, checked to be `rows` bits long, and the values; `None` when they are not one per
/// row with a value): [`Nullable::from_present`], [`Numbers::from_present`] or a
/// `Vec<Option<T>>`.
fn spread_with<T, C>(
    column: &'static str,
    bits: Option<&[u8]>,
    rows: usize,
    values: Vec<T>,
    place: impl FnOnce(usize, Option<&[u8]>, Vec<T>) -> Option<C>,
) -> Result<C, DecodeError> {
    let length = |message: String| DecodeError::Length { column, message };
    if let Some(b) = bits
        && b.len() != rows.div_ceil(8)
    {
        return Err(length(format!(
            "validity bitmap of {} bytes for {rows} rows",
            b.len()
        )));
    }
    let given = values.len();
    place(rows, bits, values).ok_or_else(|| {
        let with_value = (0..rows).filter(|&i| valid(bits, i)).count();
        length(format!("{given} values for {with_value} rows with a value"))
    })
}

/// An error naming the first code past its dictionary of `dict_len` strings, if any.
fn check_codes(column: &'static str, dict_len: usize, codes: &[u32]) -> Result<(), DecodeError> {
    match codes.iter().find(|&&c| c as usize >= dict_len) {
        Some(code) => Err(DecodeError::Length {
            column,
            message: format!("code {code} past its dictionary of {dict_len}"),
        }),
        None => Ok(()),
    }
}

fn column_data(c: &Column, doc: ColumnDoc, rows: usize) -> Result<ColumnData, DecodeError> {
    let bits = doc.validity.as_deref();
    let name = c.name;
    Ok(match (c.kind, doc.values) {
        (Kind::U64 | Kind::Len, Values::U64(v)) => {
            ColumnData::U64(spread_with(name, bits, rows, v, Numbers::from_present)?)
        }
        (Kind::F64, Values::F64(v)) => {
            ColumnData::F64(spread_with(name, bits, rows, v, Nullable::from_present)?)
        }
        (Kind::Bool, Values::Bool(v)) => ColumnData::Bool(spread(name, bits, rows, v)?),
        (Kind::Dict | Kind::Text, Values::Dict { dict, codes }) => {
            check_codes(name, dict.len(), &codes)?;
            ColumnData::Coded(Coded {
                codes: spread_with(name, bits, rows, codes, Nullable::from_present)?,
                dict,
            })
        }
        (Kind::Dict | Kind::Text, Values::Text(v)) => ColumnData::Str(spread(name, bits, rows, v)?),
        (Kind::TextList, Values::DictList { dict, lens, codes }) => {
            let total: u64 = lens.iter().map(|&l| u64::from(l)).sum();
            if total != codes.len() as u64 {
                return Err(DecodeError::Length {
                    column: name,
                    message: format!("list lengths add up to {total}, {} codes", codes.len()),
                });
            }
            check_codes(name, dict.len(), &codes)?;
            // Every list points at its dictionary's one copy of each name.
            let names: Vec<Name> = dict.into_iter().map(Name::from).collect();
            let mut codes = codes.into_iter();
            let lists = lens
                .into_iter()
                .map(|len| {
                    codes
                        .by_ref()
                        .take(len as usize)
                        .map(|code| Name::clone(&names[code as usize]))
                        .collect::<Vec<_>>()
                })
                .collect::<Vec<_>>();
            ColumnData::StrList(spread(name, bits, rows, lists)?)
        }
        (kind, found) => {
            return Err(DecodeError::Type {
                column: name,
                expected: expected(kind),
                found: found.name(),
            });
        }
    })
}

/// Decodes a table written by [`encode`] for `spec` (columns found by name; extra columns
/// are ignored): the columns in spec order and the row count.
pub fn decode(spec: &[Column], bytes: &[u8]) -> Result<(Vec<ColumnData>, usize), DecodeError> {
    let mut plain = Vec::with_capacity(bytes.len().saturating_mul(3));
    flate2::read::GzDecoder::new(bytes)
        .read_to_end(&mut plain)
        .map_err(|e| DecodeError::Unreadable(format!("gzip: {e}")))?;
    decode_plain(spec, &plain)
}

/// [`decode`] of a table's bytes already inflated (a browser's `DecompressionStream`).
pub fn decode_plain(
    spec: &[Column],
    plain: &[u8],
) -> Result<(Vec<ColumnData>, usize), DecodeError> {
    // Only the spec's columns are kept; the others are walked over. Each is decoded as it is
    // read (a stored column repeated: the last one), so one column's stored values at most
    // are held beside the decoded columns.
    let names: Vec<&str> = spec.iter().map(|c| c.name).collect();
    let mut slots: Vec<Option<ColumnData>> = spec.iter().map(|_| None).collect();
    let mut failed: Option<DecodeError> = None;
    let read = super::wanted::table_each(plain, &names, &mut |layout, rows, stored| {
        let decoded = if layout != LAYOUT {
            Err(DecodeError::Layout(layout))
        } else {
            usize::try_from(rows)
                .map_err(|_| DecodeError::Unreadable(format!("{rows} rows")))
                .and_then(|rows| {
                    let at = names.iter().position(|n| *n == stored.name);
                    let at = at.ok_or(DecodeError::Unreadable(stored.name.clone()))?;
                    Ok((at, column_data(&spec[at], stored, rows)?))
                })
        };
        match decoded {
            Ok((at, column)) => {
                slots[at] = Some(column);
                Ok(())
            }
            Err(e) => {
                failed = Some(e);
                Err(())
            }
        }
    });
    let (layout, rows) = match (read, failed) {
        (_, Some(e)) => return Err(e),
        (Err(e), None) => return Err(DecodeError::Unreadable(e.to_string())),
        (Ok(head), None) => head,
    };
    if layout != LAYOUT {
        return Err(DecodeError::Layout(layout));
    }
    let rows =
        usize::try_from(rows).map_err(|_| DecodeError::Unreadable(format!("{rows} rows")))?;
    let columns = spec
        .iter()
        .zip(slots)
        .map(|(c, slot)| slot.ok_or(DecodeError::Missing(c.name)))
        .collect::<Result<Vec<_>, _>>()?;
    Ok((columns, rows))
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;
    use crate::bundle::v2::layout::TableDoc;
    use crate::bundle::v2::packed::encode;
    use std::io::Write;

    const SPEC: [Column; 4] = [
        Column {
            name: "n",
            path: &["n"],
            kind: Kind::U64,
            take: true,
        },
        Column {
            name: "x",
            path: &["x"],
            kind: Kind::F64,
            take: true,
        },
        Column {
            name: "tag",
            path: &["tag"],
            kind: Kind::Dict,
            take: true,
        },
        Column {
            name: "tables",
            path: &["tables"],
            kind: Kind::TextList,
            take: true,
        },
    ];

    fn columns() -> Vec<ColumnData> {
        vec![
            ColumnData::U64([Some(3), None, Some(u64::MAX)].into_iter().collect()),
            ColumnData::F64([Some(0.1 + 0.2), Some(-0.0), None].into_iter().collect()),
            ColumnData::Str(vec![
                Some("pass".into()),
                Some("fail".into()),
                Some("pass".into()),
            ]),
            ColumnData::StrList(vec![
                Some(vec!["a.t".into(), "b.t".into()]),
                None,
                Some(vec![]),
            ]),
        ]
    }

    #[test]
    fn columns_round_trip_with_nulls_extremes_and_empty_lists() {
        let bytes = encode(&SPEC, &columns(), 3);
        assert_eq!(&bytes[..2], &[0x1f, 0x8b]);
        let (back, rows) = decode(&SPEC, &bytes).unwrap();
        assert_eq!(rows, 3);
        assert_eq!(back, columns());
        // The dictionary column holds each distinct string once, and a code per row.
        let ColumnData::Coded(tag) = &back[2] else {
            panic!("{:?}", back[2])
        };
        assert_eq!(tag.dict, ["pass", "fail"]);
        assert_eq!(
            tag.codes.iter().collect::<Vec<_>>(),
            [Some(0), Some(1), Some(0)]
        );
        assert_eq!(back[2].str_at(2), Some("pass"));
        // A name in several lists is one shared copy (its dictionary's).
        let lists = [
            Some(vec!["a.t".into(), "b.t".into()]),
            Some(vec!["b.t".into()]),
        ];
        let spec = [SPEC[3]];
        let (back_lists, _) = decode(
            &spec,
            &encode(&spec, &[ColumnData::StrList(lists.to_vec())], 2),
        )
        .unwrap();
        let ColumnData::StrList(l) = &back_lists[0] else {
            panic!("{:?}", back_lists[0])
        };
        let (first, second) = (l[0].as_ref().unwrap(), l[1].as_ref().unwrap());
        assert_eq!(
            [first.as_slice(), second.as_slice()],
            [
                &lists[0].clone().unwrap()[..],
                &lists[1].clone().unwrap()[..]
            ]
        );
        assert!(std::sync::Arc::ptr_eq(&first[1], &second[0]));
        // -0.0 keeps its sign bit.
        let ColumnData::F64(x) = &back[1] else {
            panic!()
        };
        assert!(x.get(1).unwrap().is_sign_negative());
    }

    #[test]
    fn damage_is_named() {
        let bytes = encode(&SPEC, &columns(), 3);
        let mut other = SPEC;
        other[2].kind = Kind::U64;
        assert_eq!(
            decode(&other, &bytes).unwrap_err(),
            DecodeError::Type {
                column: "tag",
                expected: "unsigned integers",
                found: "dictionary strings"
            }
        );
        let more = [
            SPEC[0],
            Column {
                name: "gone",
                path: &[],
                kind: Kind::Bool,
                take: false,
            },
        ];
        assert_eq!(
            decode(&more, &bytes).unwrap_err(),
            DecodeError::Missing("gone")
        );
        // A table claiming 4 rows with 3 rows of values.
        let mut plain = Vec::new();
        flate2::read::GzDecoder::new(&bytes[..])
            .read_to_end(&mut plain)
            .unwrap();
        let mut doc: TableDoc = postcard::from_bytes(&plain).unwrap();
        doc.rows = 4;
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        gz.write_all(&postcard::to_allocvec(&doc).unwrap()).unwrap();
        let short = gz.finish().unwrap();
        assert_eq!(
            decode(&SPEC, &short).unwrap_err(),
            DecodeError::Length {
                column: "tag",
                message: "3 values for 4 rows with a value".into()
            }
        );
        assert!(
            matches!(decode(&SPEC, b"nope"), Err(DecodeError::Unreadable(m)) if m.starts_with("gzip: "))
        );
        // A code past its dictionary.
        let mut doc: TableDoc = postcard::from_bytes(&plain).unwrap();
        for c in &mut doc.columns {
            if let Values::Dict { codes, .. } = &mut c.values {
                codes[1] = 2;
            }
        }
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        gz.write_all(&postcard::to_allocvec(&doc).unwrap()).unwrap();
        assert_eq!(
            decode(&SPEC, &gz.finish().unwrap()).unwrap_err(),
            DecodeError::Length {
                column: "tag",
                message: "code 2 past its dictionary of 2".into()
            }
        );
    }
}
