//! Reading a stored table's wanted columns only: the others are walked over without being
//! kept (postcard is not self-describing, so each value is still read, but nothing is
//! allocated for it). The summary reads 15 of the cells table's 24 columns; the `huge` run's
//! board cells table is 1.6 million rows, and every column kept costs a `Vec` of them.

use std::fmt;
use std::marker::PhantomData;

use serde::de::{DeserializeSeed, Deserializer, EnumAccess, SeqAccess, VariantAccess, Visitor};
use serde::{Deserialize, de};

use super::layout::ColumnDoc;
#[cfg(test)]
use super::layout::TableDoc;

/// [`TableDoc`]'s fields and [`ColumnDoc`]'s, as the layout declares them (postcard reads
/// structs as tuples, in this order).
const TABLE_FIELDS: &[&str] = &["layout", "rows", "columns"];
const COLUMN_FIELDS: &[&str] = &["name", "validity", "values"];
const VALUES_VARIANTS: &[&str] = &["U64", "F64", "Bool", "Dict", "Text", "DictList"];

/// The table in `plain` with only the columns whose names `wanted` lists (in stored order).
#[cfg(test)]
pub(super) fn table_doc(plain: &[u8], wanted: &[&str]) -> postcard::Result<TableDoc> {
    let mut columns = Vec::new();
    let (layout, rows) = table_each(plain, wanted, &mut |_, _, c| {
        columns.push(c);
        Ok(())
    })?;
    Ok(TableDoc {
        layout,
        rows,
        columns,
    })
}

/// What a column is given to: the table's layout and rows, and the column. `Err` stops the
/// read (the caller keeps its own reason).
pub(super) type EachColumn<'a> = dyn FnMut(u32, u64, ColumnDoc) -> Result<(), ()> + 'a;

/// The table in `plain`: its layout and rows, and each column whose name `wanted` lists given
/// to `each` as soon as it is read (in stored order), so that no more than one column's
/// stored values are held at a time (they are about twice the size of the decoded column).
pub(super) fn table_each(
    plain: &[u8],
    wanted: &[&str],
    each: &mut EachColumn<'_>,
) -> postcard::Result<(u32, u64)> {
    let mut de = postcard::Deserializer::from_bytes(plain);
    Table { wanted, each }.deserialize(&mut de)
}

struct Table<'w, 'e> {
    wanted: &'w [&'w str],
    each: &'e mut EachColumn<'e>,
}

impl<'de> DeserializeSeed<'de> for Table<'_, '_> {
    type Value = (u32, u64);
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(u32, u64), D::Error> {
        d.deserialize_struct("TableDoc", TABLE_FIELDS, self)
    }
}

impl<'de> Visitor<'de> for Table<'_, '_> {
    type Value = (u32, u64);
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a table")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(u32, u64), A::Error> {
        let missing = |i| de::Error::invalid_length(i, &"a table's 3 fields");
        let layout = seq.next_element()?.ok_or_else(|| missing(0))?;
        let rows = seq.next_element()?.ok_or_else(|| missing(1))?;
        seq.next_element_seed(Columns {
            wanted: self.wanted,
            each: self.each,
            layout,
            rows,
        })?
        .ok_or_else(|| missing(2))?;
        Ok((layout, rows))
    }
}

struct Columns<'w, 'e> {
    wanted: &'w [&'w str],
    each: &'e mut EachColumn<'e>,
    layout: u32,
    rows: u64,
}

impl<'de> DeserializeSeed<'de> for Columns<'_, '_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for Columns<'_, '_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a list of columns")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while let Some(column) = seq.next_element_seed(Column(self.wanted))? {
            if let Some(column) = column {
                (self.each)(self.layout, self.rows, column)
                    .map_err(|()| de::Error::custom("stopped"))?;
            }
        }
        Ok(())
    }
}

/// One column: `Some` when wanted, else walked over.
struct Column<'w>(&'w [&'w str]);

impl<'de> DeserializeSeed<'de> for Column<'_> {
    type Value = Option<ColumnDoc>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Option<ColumnDoc>, D::Error> {
        d.deserialize_struct("ColumnDoc", COLUMN_FIELDS, self)
    }
}

impl<'de> Visitor<'de> for Column<'_> {
    type Value = Option<ColumnDoc>;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a column")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Option<ColumnDoc>, A::Error> {
        let missing = |i| de::Error::invalid_length(i, &"a column's 3 fields");
        let name: String = seq.next_element()?.ok_or_else(|| missing(0))?;
        if self.0.contains(&name.as_str()) {
            let validity = seq.next_element()?.ok_or_else(|| missing(1))?;
            let values = seq.next_element()?.ok_or_else(|| missing(2))?;
            return Ok(Some(ColumnDoc {
                name,
                validity,
                values,
            }));
        }
        seq.next_element::<Option<Skip<u8>>>()?
            .ok_or_else(|| missing(1))?;
        seq.next_element::<SkipValues>()?
            .ok_or_else(|| missing(2))?;
        Ok(None)
    }
}

/// A list of `T`s, each read and dropped.
struct Skip<T>(PhantomData<T>);

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Skip<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_seq(Skip(PhantomData))
    }
}

impl<'de, T: Deserialize<'de>> Visitor<'de> for Skip<T> {
    type Value = Skip<T>;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a list")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self, A::Error> {
        while seq.next_element::<T>()?.is_some() {}
        Ok(self)
    }
}

/// A [`super::layout::Values`] read and dropped (strings borrowed from the input, never copied).
struct SkipValues;

impl<'de> Deserialize<'de> for SkipValues {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_enum("Values", VALUES_VARIANTS, SkipValues)
    }
}

impl<'de> Visitor<'de> for SkipValues {
    type Value = SkipValues;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a column's values")
    }
    fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<Self, A::Error> {
        let (variant, access): (u32, _) = data.variant()?;
        match variant {
            0 => access.newtype_variant::<Skip<u64>>().map(|_| SkipValues),
            1 => access.newtype_variant::<Skip<f64>>().map(|_| SkipValues),
            2 => access.newtype_variant::<Skip<bool>>().map(|_| SkipValues),
            3 => access.struct_variant(&["dict", "codes"], SkipFields(2)),
            4 => access
                .newtype_variant::<Skip<&'de str>>()
                .map(|_| SkipValues),
            5 => access.struct_variant(&["dict", "lens", "codes"], SkipFields(3)),
            other => Err(de::Error::invalid_value(
                de::Unexpected::Unsigned(u64::from(other)),
                &"a values kind 0-5",
            )),
        }
    }
}

/// The fields of a dictionary variant: its strings, then `n - 1` lists of numbers.
struct SkipFields(usize);

impl<'de> Visitor<'de> for SkipFields {
    type Value = SkipValues;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a dictionary and its codes")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<SkipValues, A::Error> {
        let missing = |i| de::Error::invalid_length(i, &"a dictionary's fields");
        seq.next_element::<Skip<&'de str>>()?
            .ok_or_else(|| missing(0))?;
        for i in 1..self.0 {
            seq.next_element::<Skip<u32>>()?.ok_or_else(|| missing(i))?;
        }
        Ok(SkipValues)
    }
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;
    use crate::bundle::v2::layout::Values;

    fn doc() -> TableDoc {
        let column = |name: &str, validity: Option<Vec<u8>>, values| ColumnDoc {
            name: name.into(),
            validity,
            values,
        };
        TableDoc {
            layout: 1,
            rows: 3,
            columns: vec![
                column("n", None, Values::U64(vec![1, u64::MAX, 300])),
                column("x", Some(vec![0b101]), Values::F64(vec![0.5, -0.0])),
                column("b", None, Values::Bool(vec![true, false, true])),
                column(
                    "tag",
                    None,
                    Values::Dict {
                        dict: vec!["pass".into(), "fail".into()],
                        codes: vec![0, 1, 0],
                    },
                ),
                column(
                    "text",
                    None,
                    Values::Text(vec!["a".into(), "é".into(), String::new()]),
                ),
                column(
                    "tables",
                    Some(vec![0b011]),
                    Values::DictList {
                        dict: vec!["a.t".into()],
                        lens: vec![1, 0],
                        codes: vec![0],
                    },
                ),
            ],
        }
    }

    fn names(doc: &TableDoc) -> Vec<&str> {
        doc.columns.iter().map(|c| c.name.as_str()).collect()
    }

    #[test]
    fn every_kind_is_walked_over_and_the_wanted_columns_are_whole() {
        let bytes = postcard::to_allocvec(&doc()).unwrap();
        let all: TableDoc = postcard::from_bytes(&bytes).unwrap();
        for keep in [
            &["n", "x", "b", "tag", "text", "tables"][..],
            &["tables"],
            &["n", "text"],
            &[],
        ] {
            let read = table_doc(&bytes, keep).unwrap();
            assert_eq!((read.layout, read.rows), (1, 3));
            assert_eq!(names(&read), keep, "{keep:?}");
            for c in &read.columns {
                let whole = all.columns.iter().find(|a| a.name == c.name).unwrap();
                assert_eq!(format!("{c:?}"), format!("{whole:?}"));
            }
        }
    }

    #[test]
    fn a_cut_or_unknown_kind_is_an_error_not_a_short_table() {
        let bytes = postcard::to_allocvec(&doc()).unwrap();
        assert!(table_doc(&bytes[..bytes.len() - 1], &["n"]).is_err());
        // The first column's kind byte (after layout, rows, the column count, its name and
        // its validity flag) set past the last kind.
        let mut bad = bytes.clone();
        let at = 3 + 2 + 1;
        assert_eq!(bad[at], 0, "{bytes:?}");
        bad[at] = 9;
        assert!(table_doc(&bad, &[]).is_err());
    }
}
