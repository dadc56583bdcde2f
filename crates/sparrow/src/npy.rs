//! A small, strict reader for NumPy `.npy` files (format versions 1, 2 and 3).
//!
//! Only what `model.npz` holds is accepted: C-order arrays of `int8` (`|i1`) or little-endian
//! `float32` (`<f4`). Every deviation (bad magic, truncated header, unknown dtype, Fortran order,
//! a data length that does not match the shape) is an error naming the array, never a panic.
//!
//! ```
//! use runlens_sparrow::npy::{parse_npy, NpyData};
//! let header = "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }";
//! let mut file = b"\x93NUMPY\x01\x00".to_vec();
//! let padded = format!("{header:<117}\n"); // NumPy pads so that 10 + 118 = 128 bytes
//! file.extend_from_slice(&(padded.len() as u16).to_le_bytes());
//! file.extend_from_slice(padded.as_bytes());
//! file.extend_from_slice(&1.5f32.to_le_bytes());
//! file.extend_from_slice(&(-2.0f32).to_le_bytes());
//! let array = parse_npy("x.npy", &file).unwrap();
//! assert_eq!(array.shape, vec![2]);
//! assert_eq!(array.data, NpyData::F32(vec![1.5, -2.0]));
//! ```

use crate::SparrowError;

/// The element data of one array, in C (row-major) order.
#[derive(Debug, Clone, PartialEq)]
pub enum NpyData {
    /// `|i1` (or `<i1`, `i1`): signed bytes.
    I8(Vec<i8>),
    /// `<f4`: little-endian IEEE-754 single precision.
    F32(Vec<f32>),
}

/// One parsed `.npy` array: its shape (empty for a scalar) and its data.
#[derive(Debug, Clone, PartialEq)]
pub struct NpyArray {
    /// Dimensions, outermost first.
    pub shape: Vec<usize>,
    /// The elements, `shape.iter().product()` of them.
    pub data: NpyData,
}

const MAGIC: &[u8] = b"\x93NUMPY";

/// Parses one `.npy` file; `name` is only used in error messages.
pub fn parse_npy(name: &str, bytes: &[u8]) -> Result<NpyArray, SparrowError> {
    let fail = |message: String| SparrowError::Npy {
        name: name.to_owned(),
        message,
    };
    if bytes.len() < 10 || &bytes[..6] != MAGIC {
        return Err(fail("missing the \\x93NUMPY magic".into()));
    }
    let major = bytes[6];
    let (header_len, header_start) = match major {
        1 => (u16::from_le_bytes([bytes[8], bytes[9]]) as usize, 10),
        2 | 3 => {
            let raw = bytes
                .get(8..12)
                .ok_or_else(|| fail("truncated header length".into()))?;
            (
                u32::from_le_bytes([raw[0], raw[1], raw[2], raw[3]]) as usize,
                12,
            )
        }
        v => return Err(fail(format!("unsupported .npy format version {v}"))),
    };
    let header_end = header_start + header_len;
    let header = bytes
        .get(header_start..header_end)
        .ok_or_else(|| fail(format!("header of {header_len} bytes runs past the end")))?;
    let header =
        std::str::from_utf8(header).map_err(|_| fail("header is not UTF-8/ASCII text".into()))?;
    let fields = parse_header(header).map_err(|m| fail(format!("header {header:?}: {m}")))?;
    if fields.fortran_order {
        return Err(fail(
            "fortran_order is True; only C-order arrays are supported".into(),
        ));
    }
    let count = fields
        .shape
        .iter()
        .try_fold(1usize, |acc, &d| acc.checked_mul(d))
        .ok_or_else(|| fail(format!("shape {:?} overflows", fields.shape)))?;
    let body = &bytes[header_end..];
    let data = match fields.descr.as_str() {
        "|i1" | "<i1" | "i1" => {
            expect_len(body.len(), count, 1).map_err(fail)?;
            NpyData::I8(body.iter().map(|&b| b as i8).collect())
        }
        "<f4" => {
            expect_len(body.len(), count, 4).map_err(fail)?;
            NpyData::F32(
                body.chunks_exact(4)
                    .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                    .collect(),
            )
        }
        other => {
            return Err(fail(format!(
                "dtype {other:?} is not supported (expected '|i1' or '<f4')"
            )));
        }
    };
    Ok(NpyArray {
        shape: fields.shape,
        data,
    })
}

fn expect_len(found: usize, count: usize, item: usize) -> Result<(), String> {
    match count.checked_mul(item) {
        Some(want) if want == found => Ok(()),
        Some(want) => Err(format!(
            "data has {found} bytes, the shape needs {count} × {item} = {want}"
        )),
        None => Err(format!("{count} elements of {item} bytes overflow")),
    }
}

/// The three fields of a `.npy` header dictionary.
struct HeaderFields {
    descr: String,
    fortran_order: bool,
    shape: Vec<usize>,
}

/// Parses `{'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }` (any key order,
/// trailing comma and padding allowed; every one of the three keys required, no other key).
fn parse_header(text: &str) -> Result<HeaderFields, String> {
    let mut p = Cursor {
        s: text.trim_end_matches([' ', '\n']).as_bytes(),
        i: 0,
    };
    p.expect(b'{')?;
    let (mut descr, mut fortran, mut shape) = (None, None, None);
    loop {
        p.skip_space();
        if p.eat(b'}') {
            break;
        }
        let key = p.quoted()?;
        p.skip_space();
        p.expect(b':')?;
        p.skip_space();
        match key.as_str() {
            "descr" => descr = Some(p.quoted()?),
            "fortran_order" => fortran = Some(p.boolean()?),
            "shape" => shape = Some(p.tuple()?),
            other => return Err(format!("unexpected key {other:?}")),
        }
        p.skip_space();
        if !p.eat(b',') {
            p.skip_space();
            p.expect(b'}')?;
            break;
        }
    }
    if p.i != p.s.len() {
        return Err("text after the closing brace".into());
    }
    Ok(HeaderFields {
        descr: descr.ok_or("missing 'descr'")?,
        fortran_order: fortran.ok_or("missing 'fortran_order'")?,
        shape: shape.ok_or("missing 'shape'")?,
    })
}

struct Cursor<'a> {
    s: &'a [u8],
    i: usize,
}

impl Cursor<'_> {
    fn skip_space(&mut self) {
        while self.s.get(self.i) == Some(&b' ') {
            self.i += 1;
        }
    }
    fn eat(&mut self, c: u8) -> bool {
        let hit = self.s.get(self.i) == Some(&c);
        self.i += usize::from(hit);
        hit
    }
    fn expect(&mut self, c: u8) -> Result<(), String> {
        if self.eat(c) {
            Ok(())
        } else {
            Err(format!("expected {:?} at byte {}", c as char, self.i))
        }
    }
    fn quoted(&mut self) -> Result<String, String> {
        self.expect(b'\'')?;
        let start = self.i;
        while self.s.get(self.i).is_some_and(|&c| c != b'\'') {
            self.i += 1;
        }
        let text = String::from_utf8_lossy(&self.s[start..self.i]).into_owned();
        self.expect(b'\'')?;
        Ok(text)
    }
    fn boolean(&mut self) -> Result<bool, String> {
        let rest = &self.s[self.i..];
        for (word, value) in [(&b"True"[..], true), (&b"False"[..], false)] {
            if rest.starts_with(word) {
                self.i += word.len();
                return Ok(value);
            }
        }
        Err(format!("expected True or False at byte {}", self.i))
    }
    fn tuple(&mut self) -> Result<Vec<usize>, String> {
        self.expect(b'(')?;
        let mut dims = Vec::new();
        loop {
            self.skip_space();
            if self.eat(b')') {
                return Ok(dims);
            }
            let start = self.i;
            while self.s.get(self.i).is_some_and(u8::is_ascii_digit) {
                self.i += 1;
            }
            let digits = std::str::from_utf8(&self.s[start..self.i]).unwrap_or("");
            let dim = digits
                .parse::<usize>()
                .map_err(|_| format!("expected a dimension at byte {start}"))?;
            dims.push(dim);
            self.skip_space();
            if !self.eat(b',') {
                self.skip_space();
                self.expect(b')')?;
                return Ok(dims);
            }
        }
    }
}

#[cfg(test)]
#[path = "npy_tests.rs"]
mod tests;
