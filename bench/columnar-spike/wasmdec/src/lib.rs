//! A tiny wasm32 cdylib that only decodes one cells-table encoding from bytes placed in its
//! memory (no wasm-bindgen). Built once per feature (none = the empty baseline):
//!
//! - `alloc(len) -> ptr`: a buffer for the input bytes (kept alive; the caller copies into it);
//! - `decode(ptr, len) -> i32`: decodes into memory held by the module; returns the row count
//!   (-1 on error). This is the call that is timed;
//! - `decode_vecs(ptr, len) -> i32` (arrow only): decode and convert the arrays to column Vecs;
//! - `checksum() -> u64`: checksum of the last decode, then frees it (outside the timing).

use std::cell::RefCell;

#[allow(dead_code)] // each feature set uses some of the variants
enum Out {
    None,
    #[cfg(feature = "arrow")]
    Arrow(Vec<arrow_array_reexport::RecordBatch>),
    #[cfg(any(feature = "postcard", feature = "raw", feature = "arrow"))]
    Cells(spike_cells::Cells),
    #[cfg(any(feature = "postcard", feature = "raw"))]
    Dense(spike_cells::DenseCells),
    #[cfg(feature = "jsonl")]
    Rows(Vec<spike_cells::jsonl::Row>),
}

#[cfg(feature = "arrow")]
mod arrow_array_reexport {
    pub use spike_cells::arrow::RecordBatchAlias as RecordBatch;
}

thread_local! {
    static OUT: RefCell<Out> = const { RefCell::new(Out::None) };
}

#[unsafe(no_mangle)]
pub extern "C" fn alloc(len: usize) -> *mut u8 {
    let mut v = vec![0u8; len];
    let p = v.as_mut_ptr();
    std::mem::forget(v);
    p
}

fn input<'a>(ptr: *const u8, len: usize) -> &'a [u8] {
    // SAFETY: the caller passes a pointer returned by `alloc(len)` (or a sub-range of it).
    unsafe { std::slice::from_raw_parts(ptr, len) }
}

fn store(o: Out) {
    OUT.with(|c| *c.borrow_mut() = o);
}

#[unsafe(no_mangle)]
pub extern "C" fn decode(ptr: *const u8, len: usize) -> i32 {
    let bytes = input(ptr, len);
    #[cfg(feature = "arrow")]
    {
        #[cfg(feature = "lean")]
        let r = spike_cells::arrow::decode_lean(bytes);
        #[cfg(not(feature = "lean"))]
        let r = spike_cells::arrow::decode(bytes);
        return match r {
            Ok(b) => {
                let n: usize = b.iter().map(|b| b.num_rows()).sum();
                store(Out::Arrow(b));
                n as i32
            }
            Err(_) => -1,
        };
    }
    #[cfg(feature = "postcard")]
    {
        #[cfg(all(feature = "gz", not(feature = "dense")))]
        let (r, wrap) = (spike_cells::pc::decode_gz(bytes), Out::Cells);
        #[cfg(all(not(feature = "gz"), not(feature = "dense")))]
        let (r, wrap) = (spike_cells::pc::decode(bytes), Out::Cells);
        #[cfg(all(feature = "gz", feature = "dense"))]
        let (r, wrap) = (spike_cells::pc_dense::decode_gz(bytes), Out::Dense);
        #[cfg(all(not(feature = "gz"), feature = "dense"))]
        let (r, wrap) = (spike_cells::pc_dense::decode(bytes), Out::Dense);
        return match r {
            Ok(c) => {
                let n = c.len();
                store(wrap(c));
                n as i32
            }
            Err(_) => -1,
        };
    }
    #[cfg(feature = "raw")]
    {
        #[cfg(feature = "dense")]
        let (r, wrap) = (spike_cells::raw_dense::decode(bytes), Out::Dense);
        #[cfg(all(feature = "gz", not(feature = "dense")))]
        let (r, wrap) = (spike_cells::raw::decode_gz(bytes), Out::Cells);
        #[cfg(all(not(feature = "gz"), not(feature = "dense")))]
        let (r, wrap) = (spike_cells::raw::decode(bytes), Out::Cells);
        return match r {
            Ok(c) => {
                let n = c.len();
                store(wrap(c));
                n as i32
            }
            Err(_) => -1,
        };
    }
    #[cfg(feature = "jsonl")]
    {
        return match spike_cells::jsonl::decode(bytes) {
            Ok(r) => {
                let n = r.len();
                store(Out::Rows(r));
                n as i32
            }
            Err(_) => -1,
        };
    }
    #[allow(unreachable_code)]
    {
        store(Out::None);
        bytes.len() as i32
    }
}

#[cfg(feature = "arrow")]
#[unsafe(no_mangle)]
pub extern "C" fn decode_vecs(ptr: *const u8, len: usize) -> i32 {
    #[cfg(feature = "lean")]
    let r = spike_cells::arrow::decode_lean(input(ptr, len));
    #[cfg(not(feature = "lean"))]
    let r = spike_cells::arrow::decode(input(ptr, len));
    match r {
        Ok(b) => {
            let c = spike_cells::arrow::to_cells(&b);
            drop(b);
            let n = c.len();
            store(Out::Cells(c));
            n as i32
        }
        Err(_) => -1,
    }
}

#[unsafe(no_mangle)]
pub extern "C" fn checksum() -> u64 {
    let o = OUT.with(|c| std::mem::replace(&mut *c.borrow_mut(), Out::None));
    match o {
        Out::None => 0,
        #[cfg(feature = "arrow")]
        Out::Arrow(b) => spike_cells::arrow::checksum(&b),
        #[cfg(any(feature = "postcard", feature = "raw", feature = "arrow"))]
        Out::Cells(c) => c.checksum(),
        #[cfg(any(feature = "postcard", feature = "raw"))]
        Out::Dense(c) => c.checksum(),
        #[cfg(feature = "jsonl")]
        Out::Rows(r) => spike_cells::jsonl::checksum(&r),
    }
}
