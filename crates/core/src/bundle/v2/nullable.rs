//! A column of fixed-size values where a row may have none: one value slot per row and a
//! presence bit, half the bytes of a `Vec<Option<u64>>` (16 bytes a row, on wasm32 too) and
//! read in place of it; unsigned integers take 32 bits a row while every value fits
//! ([`Numbers`]). A decoded table's number, float and code columns are held this way while
//! the loader builds its rows from them.

/// One value or none per row. A row without a value holds `T::default()` in its slot; two
/// columns are equal when every row's value (or its absence) is.
#[derive(Debug, Clone, Default)]
pub struct Nullable<T> {
    values: Vec<T>,
    /// Bit `i % 64` of word `i / 64`: row `i` has a value.
    present: Vec<u64>,
}

impl<T: Copy + Default> Nullable<T> {
    /// An empty column with room for `rows` rows.
    pub fn with_capacity(rows: usize) -> Self {
        Nullable {
            values: Vec::with_capacity(rows),
            present: Vec::with_capacity(rows.div_ceil(64)),
        }
    }

    /// Rows held.
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// Whether no rows are held.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// Row `i`'s value (`None` when the row has none or is past the end).
    pub fn get(&self, i: usize) -> Option<T> {
        let word = self.present.get(i / 64)?;
        if word & (1 << (i % 64)) == 0 {
            return None;
        }
        self.values.get(i).copied()
    }

    /// Appends a row.
    pub fn push(&mut self, value: Option<T>) {
        let i = self.values.len();
        if i.is_multiple_of(64) {
            self.present.push(0);
        }
        if value.is_some()
            && let Some(word) = self.present.last_mut()
        {
            *word |= 1 << (i % 64);
        }
        self.values.push(value.unwrap_or_default());
    }

    /// Sets row `i` (a row past the end is left alone).
    pub fn set(&mut self, i: usize, value: Option<T>) {
        let (Some(slot), Some(word)) = (self.values.get_mut(i), self.present.get_mut(i / 64))
        else {
            return;
        };
        *slot = value.unwrap_or_default();
        match value {
            Some(_) => *word |= 1 << (i % 64),
            None => *word &= !(1 << (i % 64)),
        }
    }

    /// Every row in order.
    pub fn iter(&self) -> impl Iterator<Item = Option<T>> + '_ {
        (0..self.len()).map(|i| self.get(i))
    }

    /// A column of `rows` rows from the values of the rows that have one, placed by the
    /// validity bitmap `bits` (bit `i % 8` of byte `i / 8`: row `i` has a value; `None`: every
    /// row has one); `None` when `bits` is not `rows` bits long or `values` is not exactly one
    /// per row with a value. Every row having one, `values` is kept as it is (no copy).
    pub fn from_present(rows: usize, bits: Option<&[u8]>, values: Vec<T>) -> Option<Self> {
        let Some(bits) = bits else {
            if values.len() != rows {
                return None;
            }
            let mut present = vec![u64::MAX; rows.div_ceil(64)];
            if let Some(last) = present.last_mut()
                && !rows.is_multiple_of(64)
            {
                *last = (1 << (rows % 64)) - 1;
            }
            return Some(Nullable { values, present });
        };
        if bits.len() != rows.div_ceil(8) {
            return None;
        }
        // The bitmap's bytes, least significant first, are the words' bits in row order.
        let mut present: Vec<u64> = bits
            .chunks(8)
            .map(|bytes| {
                let mut word = [0; 8];
                word[..bytes.len()].copy_from_slice(bytes);
                u64::from_le_bytes(word)
            })
            .collect();
        if let Some(last) = present.last_mut()
            && !rows.is_multiple_of(64)
        {
            *last &= (1 << (rows % 64)) - 1;
        }
        let with_value: usize = present.iter().map(|w| w.count_ones() as usize).sum();
        if with_value != values.len() {
            return None;
        }
        let mut slots = vec![T::default(); rows];
        let mut given = values.into_iter();
        for (w, &word) in present.iter().enumerate() {
            let mut left = word;
            while left != 0 {
                slots[w * 64 + left.trailing_zeros() as usize] = given.next()?;
                left &= left - 1;
            }
        }
        Some(Nullable {
            values: slots,
            present,
        })
    }
}

impl<T: Copy + Default + PartialEq> PartialEq for Nullable<T> {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

impl<T: Copy + Default> FromIterator<Option<T>> for Nullable<T> {
    fn from_iter<I: IntoIterator<Item = Option<T>>>(iter: I) -> Self {
        let mut out = Nullable::default();
        for v in iter {
            out.push(v);
        }
        out
    }
}

/// A column of unsigned integers: 32 bits a row while every value fits in 32, 64 once one
/// does not (a value past `u32::MAX` widens the whole column, nothing is cut).
#[derive(Debug, Clone)]
pub enum Numbers {
    /// Every value fits in 32 bits.
    Narrow(Nullable<u32>),
    /// Some value does not.
    Wide(Nullable<u64>),
}

impl Default for Numbers {
    fn default() -> Self {
        Numbers::Narrow(Nullable::default())
    }
}

impl Numbers {
    /// Rows held.
    pub fn len(&self) -> usize {
        match self {
            Numbers::Narrow(v) => v.len(),
            Numbers::Wide(v) => v.len(),
        }
    }

    /// Whether no rows are held.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Row `i`'s value (`None` when the row has none or is past the end).
    pub fn get(&self, i: usize) -> Option<u64> {
        match self {
            Numbers::Narrow(v) => v.get(i).map(u64::from),
            Numbers::Wide(v) => v.get(i),
        }
    }

    /// Makes the column wide (a narrow one is copied once).
    fn widen(&mut self) {
        if let Numbers::Narrow(narrow) = self {
            *self = Numbers::Wide(narrow.iter().map(|v| v.map(u64::from)).collect());
        }
    }

    /// Appends a row.
    pub fn push(&mut self, value: Option<u64>) {
        match (&mut *self, value.map(u32::try_from)) {
            (Numbers::Narrow(v), None) => v.push(None),
            (Numbers::Narrow(v), Some(Ok(n))) => v.push(Some(n)),
            _ => {
                self.widen();
                if let Numbers::Wide(wide) = self {
                    wide.push(value);
                }
            }
        }
    }

    /// Sets row `i` (a row past the end is left alone).
    pub fn set(&mut self, i: usize, value: Option<u64>) {
        match (&mut *self, value.map(u32::try_from)) {
            (Numbers::Narrow(v), None) => v.set(i, None),
            (Numbers::Narrow(v), Some(Ok(n))) => v.set(i, Some(n)),
            _ => {
                self.widen();
                if let Numbers::Wide(wide) = self {
                    wide.set(i, value);
                }
            }
        }
    }

    /// Every row in order.
    pub fn iter(&self) -> impl Iterator<Item = Option<u64>> + '_ {
        (0..self.len()).map(|i| self.get(i))
    }

    /// [`Nullable::from_present`], narrow when every value fits in 32 bits.
    pub fn from_present(rows: usize, bits: Option<&[u8]>, values: Vec<u64>) -> Option<Self> {
        if values.iter().all(|&v| v <= u64::from(u32::MAX)) {
            let narrow: Vec<u32> = values.iter().map(|&v| v as u32).collect();
            drop(values);
            Nullable::from_present(rows, bits, narrow).map(Numbers::Narrow)
        } else {
            Nullable::from_present(rows, bits, values).map(Numbers::Wide)
        }
    }
}

impl PartialEq for Numbers {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

impl FromIterator<Option<u64>> for Numbers {
    fn from_iter<I: IntoIterator<Item = Option<u64>>>(iter: I) -> Self {
        let mut out = Numbers::default();
        for v in iter {
            out.push(v);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;

    #[test]
    fn rows_read_back_as_pushed_across_word_boundaries() {
        let rows: Vec<Option<u64>> = (0..130u64)
            .map(|i| (i % 3 != 0).then_some(i * 1_000_000_007))
            .collect();
        let column: Nullable<u64> = rows.iter().copied().collect();
        assert_eq!(column.len(), 130);
        assert_eq!(column.iter().collect::<Vec<_>>(), rows);
        assert_eq!(column.get(0), None);
        assert_eq!(column.get(1), Some(1_000_000_007));
        assert_eq!(column.get(129), None);
        assert_eq!(column.get(128), Some(128_000_000_896));
        assert_eq!(column.get(130), None);
        let mut column = column;
        column.set(0, Some(5));
        column.set(1, None);
        column.set(130, Some(1));
        assert_eq!(
            (column.get(0), column.get(1), column.len()),
            (Some(5), None, 130)
        );
    }

    #[test]
    fn a_column_is_built_from_the_values_of_the_rows_that_have_one() {
        // 65 rows, every one but rows 1 and 64 with a value: bytes 0..8 all set but bit 1 of
        // byte 0 (0b1111_1101), byte 8 (rows 64..72) 0 for row 64; its seven bits past the
        // last row are set and must be ignored.
        let mut bits = vec![0xFF_u8; 9];
        bits[0] = 0b1111_1101;
        bits[8] = 0b1111_1110;
        let values: Vec<f64> = (0..63).map(|i| i as f64 + 0.5).collect();
        let column = Nullable::from_present(65, Some(&bits), values).unwrap();
        assert_eq!(column.len(), 65);
        assert_eq!(column.get(0), Some(0.5));
        assert_eq!(column.get(1), None);
        assert_eq!(column.get(2), Some(1.5));
        assert_eq!(column.get(63), Some(62.5));
        assert_eq!(column.get(64), None);
        assert_eq!(column.iter().flatten().count(), 63);
        // One value too few, one too many; a bitmap of the wrong length.
        assert!(Nullable::from_present(65, Some(&bits), vec![0.0; 62]).is_none());
        assert!(Nullable::from_present(65, Some(&bits), vec![0.0; 64]).is_none());
        assert!(Nullable::from_present(65, Some(&bits[..8]), vec![0.0; 63]).is_none());
        // Every row: the values as given; 64 and 65 rows end their last word right.
        let full = Nullable::from_present(65, None, vec![7u32; 65]).unwrap();
        assert_eq!(full.iter().collect::<Vec<_>>(), vec![Some(7); 65]);
        assert_eq!(full, (0..65).map(|_| Some(7u32)).collect());
        let full = Nullable::from_present(64, None, vec![1u32; 64]).unwrap();
        assert_eq!(full.get(63), Some(1));
        assert!(Nullable::from_present(3, None, vec![1u32; 2]).is_none());
    }

    #[test]
    fn a_column_from_a_bitmap_equals_the_column_pushed_row_by_row() {
        // 200 rows with a value every third row and on row 199, across four words.
        let rows: Vec<Option<u32>> = (0..200u32)
            .map(|i| (i % 3 == 0 || i == 199).then_some(i * 7))
            .collect();
        let mut bits = vec![0u8; 25];
        for (i, _) in rows.iter().enumerate().filter(|(_, v)| v.is_some()) {
            bits[i / 8] |= 1 << (i % 8);
        }
        let values: Vec<u32> = rows.iter().flatten().copied().collect();
        let column = Nullable::from_present(200, Some(&bits), values).unwrap();
        assert_eq!(column, rows.iter().copied().collect());
        assert_eq!(column.iter().collect::<Vec<_>>(), rows);
    }

    #[test]
    fn equal_columns_have_the_same_rows_whatever_the_empty_slots_hold() {
        let a: Nullable<u64> = [Some(1), None].into_iter().collect();
        let mut b = Nullable::from_present(2, Some(&[0b01]), vec![1u64]).unwrap();
        assert_eq!(a, b);
        b.push(None);
        assert_ne!(a, b);
    }

    #[test]
    fn numbers_are_narrow_until_a_value_needs_64_bits() {
        let big = u64::from(u32::MAX) + 1;
        let mut column: Numbers = [Some(1), None, Some(u64::from(u32::MAX))]
            .into_iter()
            .collect();
        assert!(matches!(column, Numbers::Narrow(_)));
        column.push(Some(big));
        assert!(matches!(column, Numbers::Wide(_)));
        let rows = [Some(1), None, Some(u64::from(u32::MAX)), Some(big)];
        assert_eq!(column.iter().collect::<Vec<_>>(), rows);
        let mut set: Numbers = [Some(1), None].into_iter().collect();
        set.set(1, Some(big));
        assert_eq!(set.iter().collect::<Vec<_>>(), [Some(1), Some(big)]);
        let decoded = Numbers::from_present(3, Some(&[0b101]), vec![7, big]).unwrap();
        assert!(matches!(decoded, Numbers::Wide(_)));
        assert_eq!(
            decoded.iter().collect::<Vec<_>>(),
            [Some(7), None, Some(big)]
        );
        let decoded = Numbers::from_present(2, None, vec![7, 8]).unwrap();
        assert!(matches!(decoded, Numbers::Narrow(_)));
        assert_eq!(decoded, [Some(7), Some(8)].into_iter().collect());
    }
}
