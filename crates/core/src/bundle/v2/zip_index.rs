//! Where each entry of a v2 zip is, from the file's last bytes and its central directory,
//! without reading the rest: what a browser needs to fetch one entry with one `Range`
//! request. Sans-I/O (the caller fetches the byte ranges), so it runs on wasm32 too.
//!
//! Steps: [`central_directory`] on the last [`TAIL_BYTES`] of the file (or all of a smaller
//! file) gives the central directory's range; [`entries`] on those bytes gives each entry's
//! local header offset and size; [`data_offset`] on an entry's 30-byte local header gives
//! where its bytes start. Zip64 records are read where the writer used them.

/// Bytes at the end of a zip that always hold its end records: the end of central directory
/// record (22 bytes and a comment of up to 65,535), the zip64 locator (20) and the zip64 end
/// record (56).
pub const TAIL_BYTES: u64 = 22 + 65_535 + 20 + 56;

/// Fixed size of a local file header (before the name and extra field).
pub const LOCAL_HEADER: usize = 30;

const EOCD_SIG: u32 = 0x0605_4b50;
const ZIP64_LOCATOR_SIG: u32 = 0x0706_4b50;
const ZIP64_EOCD_SIG: u32 = 0x0606_4b50;
const CENTRAL_SIG: u32 = 0x0201_4b50;
const LOCAL_SIG: u32 = 0x0403_4b50;

/// One entry of the central directory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ZipEntryAt {
    /// Its name (the entry path).
    pub name: String,
    /// Where its local header starts.
    pub header_offset: u64,
    /// Its size as stored (stored entries: its size).
    pub size: u64,
}

/// Why the zip's layout could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ZipIndexError {
    /// No end record where it must be.
    #[error(
        "zip: no end-of-central-directory record in the last {0} bytes (truncated, or not a zip)"
    )]
    NoEnd(usize),
    /// A record is cut short or points outside the file.
    #[error("zip: {0}")]
    Damaged(String),
    /// An entry is compressed; v2 stores entries.
    #[error(
        "zip: entry {name} is compressed (method {method}); runlens.bundle/2 stores its entries"
    )]
    Compressed {
        /// The entry.
        name: String,
        /// Its compression method.
        method: u16,
    },
}

fn u16_at(b: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_le_bytes(b.get(at..at + 2)?.try_into().ok()?))
}

fn u32_at(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(b.get(at..at + 4)?.try_into().ok()?))
}

fn u64_at(b: &[u8], at: usize) -> Option<u64> {
    Some(u64::from_le_bytes(b.get(at..at + 8)?.try_into().ok()?))
}

fn damaged(what: &str) -> ZipIndexError {
    ZipIndexError::Damaged(what.to_owned())
}

/// The central directory's `(offset, size)` in the file, from `tail`: the file's last
/// `min(TAIL_BYTES, file_size)` bytes.
pub fn central_directory(tail: &[u8], file_size: u64) -> Result<(u64, u64), ZipIndexError> {
    let tail_start = file_size
        .checked_sub(tail.len() as u64)
        .ok_or_else(|| damaged("the tail is longer than the file"))?;
    // The last EOCD signature whose comment length reaches the end exactly.
    let eocd = (0..tail.len().saturating_sub(21))
        .rev()
        .find(|&i| {
            u32_at(tail, i) == Some(EOCD_SIG)
                && u16_at(tail, i + 20).map(|c| i + 22 + usize::from(c)) == Some(tail.len())
        })
        .ok_or(ZipIndexError::NoEnd(tail.len()))?;
    let size = u32_at(tail, eocd + 12).ok_or_else(|| damaged("end record cut"))?;
    let offset = u32_at(tail, eocd + 16).ok_or_else(|| damaged("end record cut"))?;
    let entries = u16_at(tail, eocd + 10).ok_or_else(|| damaged("end record cut"))?;
    let (offset, size) = if offset == u32::MAX || size == u32::MAX || entries == u16::MAX {
        let locator = eocd
            .checked_sub(20)
            .filter(|&l| u32_at(tail, l) == Some(ZIP64_LOCATOR_SIG))
            .ok_or_else(|| damaged("zip64 values without a zip64 locator"))?;
        let end64 = u64_at(tail, locator + 8).ok_or_else(|| damaged("zip64 locator cut"))?;
        let at = end64
            .checked_sub(tail_start)
            .and_then(|a| usize::try_from(a).ok())
            .filter(|&a| u32_at(tail, a) == Some(ZIP64_EOCD_SIG))
            .ok_or_else(|| damaged("the zip64 end record is not where its locator says"))?;
        (
            u64_at(tail, at + 48).ok_or_else(|| damaged("zip64 end record cut"))?,
            u64_at(tail, at + 40).ok_or_else(|| damaged("zip64 end record cut"))?,
        )
    } else {
        (u64::from(offset), u64::from(size))
    };
    if offset.checked_add(size).is_none_or(|end| end > file_size) {
        return Err(ZipIndexError::Damaged(format!(
            "the central directory ({size} bytes at {offset}) is past the end of the file ({file_size} bytes)"
        )));
    }
    Ok((offset, size))
}

/// Reads the zip64 extra field's values for the 32-bit fields that hold `u32::MAX`, in the
/// order the format gives them (size, compressed size, header offset).
fn zip64_values(extra: &[u8], wanted: usize) -> Option<Vec<u64>> {
    let mut at = 0;
    while at + 4 <= extra.len() {
        let id = u16_at(extra, at)?;
        let len = usize::from(u16_at(extra, at + 2)?);
        if id == 0x0001 {
            return (0..wanted).map(|k| u64_at(extra, at + 4 + 8 * k)).collect();
        }
        at += 4 + len;
    }
    None
}

/// The entries of a central directory (`cd`: its bytes, as [`central_directory`] located).
pub fn entries(cd: &[u8]) -> Result<Vec<ZipEntryAt>, ZipIndexError> {
    let mut out = Vec::new();
    let mut at = 0;
    while at < cd.len() {
        let cut = || ZipIndexError::Damaged(format!("central directory cut at byte {at}"));
        if u32_at(cd, at) != Some(CENTRAL_SIG) {
            return Err(ZipIndexError::Damaged(format!(
                "no central directory record at byte {at}"
            )));
        }
        let method = u16_at(cd, at + 10).ok_or_else(cut)?;
        let packed = u32_at(cd, at + 20).ok_or_else(cut)?;
        let plain = u32_at(cd, at + 24).ok_or_else(cut)?;
        let name_len = usize::from(u16_at(cd, at + 28).ok_or_else(cut)?);
        let extra_len = usize::from(u16_at(cd, at + 30).ok_or_else(cut)?);
        let comment_len = usize::from(u16_at(cd, at + 32).ok_or_else(cut)?);
        let header = u32_at(cd, at + 42).ok_or_else(cut)?;
        let name_at = at + 46;
        let name = cd.get(name_at..name_at + name_len).ok_or_else(cut)?;
        let name = String::from_utf8_lossy(name).into_owned();
        let extra = cd
            .get(name_at + name_len..name_at + name_len + extra_len)
            .ok_or_else(cut)?;
        if method != 0 {
            return Err(ZipIndexError::Compressed { name, method });
        }
        let big = [plain, packed, header]
            .iter()
            .filter(|&&v| v == u32::MAX)
            .count();
        let mut wide = if big > 0 {
            zip64_values(extra, big)
                .ok_or_else(|| {
                    ZipIndexError::Damaged(format!(
                        "entry {name}: zip64 sizes without their extra field"
                    ))
                })?
                .into_iter()
        } else {
            Vec::new().into_iter()
        };
        let mut widen = |v: u32| {
            if v == u32::MAX {
                wide.next().unwrap_or(0)
            } else {
                u64::from(v)
            }
        };
        let size = widen(plain);
        // Stored: the compressed size equals the size; read only to keep the zip64 order.
        let _packed = widen(packed);
        let header_offset = widen(header);
        out.push(ZipEntryAt {
            name,
            header_offset,
            size,
        });
        at = name_at + name_len + extra_len + comment_len;
    }
    Ok(out)
}

/// Where `entry`'s bytes start, from its local header's first [`LOCAL_HEADER`] bytes.
pub fn data_offset(entry: &ZipEntryAt, local_header: &[u8]) -> Result<u64, ZipIndexError> {
    let bad = || {
        ZipIndexError::Damaged(format!(
            "entry {}: no local header at {}",
            entry.name, entry.header_offset
        ))
    };
    if u32_at(local_header, 0) != Some(LOCAL_SIG) {
        return Err(bad());
    }
    let name_len = u64::from(u16_at(local_header, 26).ok_or_else(bad)?);
    let extra_len = u64::from(u16_at(local_header, 28).ok_or_else(bad)?);
    Ok(entry.header_offset + LOCAL_HEADER as u64 + name_len + extra_len)
}

/// Each entry's span in the file: from its local header to the next entry's local header (or
/// to the central directory, for the last): a range that surely holds the header, its name
/// and extra field, and the entry's bytes, whatever the local extra field's length.
pub fn spans(entries: &[ZipEntryAt], cd_offset: u64) -> Vec<(u64, u64)> {
    let mut starts: Vec<u64> = entries.iter().map(|e| e.header_offset).collect();
    starts.push(cd_offset);
    starts.sort_unstable();
    entries
        .iter()
        .map(|e| {
            let next = starts
                .iter()
                .copied()
                .find(|&s| s > e.header_offset)
                .unwrap_or(cd_offset);
            (e.header_offset, next)
        })
        .collect()
}

/// Merges byte ranges whose gap is at most `max_gap` bytes into as few requests as that
/// allows, in file order.
pub fn coalesce(mut ranges: Vec<(u64, u64)>, max_gap: u64) -> Vec<(u64, u64)> {
    ranges.sort_unstable();
    let mut out: Vec<(u64, u64)> = Vec::with_capacity(ranges.len());
    for (start, end) in ranges {
        match out.last_mut() {
            Some(last) if start <= last.1.saturating_add(max_gap) => last.1 = last.1.max(end),
            _ => out.push((start, end)),
        }
    }
    out
}

/// `entry`'s bytes out of `buf`, which holds the file's bytes from `buf_start` on and must
/// cover the entry's local header and data (its span, or the whole file).
pub fn entry_bytes<'a>(
    entry: &ZipEntryAt,
    buf: &'a [u8],
    buf_start: u64,
) -> Result<&'a [u8], ZipIndexError> {
    let outside = || {
        ZipIndexError::Damaged(format!(
            "entry {}: its bytes ({} from {}) are outside the range read",
            entry.name, entry.size, entry.header_offset
        ))
    };
    let local = entry
        .header_offset
        .checked_sub(buf_start)
        .and_then(|at| usize::try_from(at).ok())
        .ok_or_else(outside)?;
    let header = buf
        .get(local..local.saturating_add(LOCAL_HEADER))
        .unwrap_or(&[]);
    let start = data_offset(entry, header)? - buf_start;
    let start = usize::try_from(start).map_err(|_| outside())?;
    let len = usize::try_from(entry.size).map_err(|_| outside())?;
    buf.get(start..start.checked_add(len).ok_or_else(outside)?)
        .ok_or_else(outside)
}
