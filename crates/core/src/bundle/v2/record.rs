//! Where a row's text record is: the last three columns of its table (chunk, offset,
//! length) into the table's text chunks.

use super::V2Error;
use super::split::ColumnData;

/// Row `i`'s text record in `chunks`, where the last three of `columns` say (empty when it
/// has none); `path` names the table in errors.
pub(super) fn record_in<'c>(
    path: &str,
    columns: &[ColumnData],
    chunks: &'c [Vec<u8>],
    i: usize,
) -> Result<&'c [u8], V2Error> {
    let err = |message: String| V2Error::Row {
        path: path.to_owned(),
        row: i,
        message,
    };
    let base = columns.len() - 3;
    let at = |c: usize| columns.get(c).and_then(|c| c.u64_at(i)).unwrap_or(0) as usize;
    let (chunk, offset, len) = (at(base), at(base + 1), at(base + 2));
    if len == 0 {
        return Ok(&[]);
    }
    let text = chunks.get(chunk).ok_or_else(|| {
        err(format!(
            "text chunk {chunk} is not in the bundle ({} chunks)",
            chunks.len()
        ))
    })?;
    offset
        .checked_add(len)
        .and_then(|end| text.get(offset..end))
        .ok_or_else(|| {
            err(format!(
                "text record {offset}..{} is past the end of chunk {chunk} ({} bytes)",
                offset.saturating_add(len),
                text.len()
            ))
        })
}
