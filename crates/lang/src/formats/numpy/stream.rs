//! Number arrays moved between a file and an engine buffer a cache-sized chunk at a time:
//! read straight into the tensor's own vector (no copy of the whole file first), and written
//! from it without building the whole file in memory. Each chunk is converted from or to
//! little- or big-endian bytes in a loop the compiler turns into a plain copy for the
//! machine's own order, and an interrupt is looked at once per chunk.

use std::io::{Read, Write};
use std::path::Path;

use crate::diagnostic::Result;
use crate::formats::fs;
use ragtag_engine::{budget, f16, Buffer};

use super::dtype::{Kind, NpType};

/// Bytes converted at a time: small enough to stay in the processor's cache between the
/// system's copy and the conversion.
const CHUNK: usize = 256 << 10;

/// Reads `n` elements of the number type `ty` from `input` into a new buffer, or None for
/// the kinds this does not stream (bools and strings: the caller reads their bytes whole).
/// The caller has checked that the file holds the elements' bytes.
pub fn read_numbers(
    ty: NpType,
    input: &mut impl Read,
    n: usize,
    path: &Path,
) -> Result<Option<Buffer>> {
    let what = format!("reading '{}'", path.display());
    let what = what.as_str();
    macro_rules! read {
        ($t:ty) => {
            Buffer::from(if ty.big {
                fill(input, n, what, path, <$t>::from_be_bytes)?
            } else {
                fill(input, n, what, path, <$t>::from_le_bytes)?
            })
        };
    }
    Ok(Some(match (ty.kind, ty.size) {
        (Kind::Int, 1) => read!(i8),
        (Kind::Int, 2) => read!(i16),
        (Kind::Int, 4) => read!(i32),
        (Kind::Int, 8) => read!(i64),
        (Kind::Uint, 1) => read!(u8),
        (Kind::Uint, 2) => read!(u16),
        (Kind::Uint, 4) => read!(u32),
        (Kind::Uint, 8) => read!(u64),
        (Kind::Float, 2) => read!(f16),
        (Kind::Float, 4) => read!(f32),
        (Kind::Float, 8) => read!(f64),
        _ => return Ok(None),
    }))
}

/// `n` elements of `N` bytes each from `input`, converted by `from`, into a vector allocated
/// once through the budget.
fn fill<T, const N: usize>(
    input: &mut impl Read,
    n: usize,
    what: &str,
    path: &Path,
    from: impl Fn([u8; N]) -> T,
) -> Result<Vec<T>> {
    let mut out = budget::vec::<T>(what, n)?;
    let per_chunk = CHUNK / N;
    let mut chunk = budget::filled(what, 0u8, per_chunk.min(n) * N)?;
    let mut left = n;
    while left > 0 {
        ragtag_engine::interrupt::check()?;
        let k = left.min(per_chunk);
        let bytes = &mut chunk[..k * N];
        input
            .read_exact(bytes)
            .map_err(|e| fs::read_error(&e, path))?;
        let (items, _) = bytes.as_chunks::<N>();
        out.extend(items.iter().map(|&c| from(c)));
        left -= k;
    }
    Ok(out)
}

/// Writes the elements of a number buffer to `out` as little-endian bytes (NumPy's `<`
/// types), a chunk at a time; false for a buffer of another kind (bools, strings), which
/// the caller encodes itself.
pub fn write_numbers(buf: &Buffer, out: &mut impl Write, path: &Path) -> Result<bool> {
    let what = format!("writing '{}'", path.display());
    let what = what.as_str();
    match buf {
        Buffer::Bool(_) | Buffer::Str(_) | Buffer::BF16(_) => Ok(false),
        d => ragtag_engine::dispatch!(numbers d, v => {
            drain(&v[..], out, what, path, |x| x.to_le_bytes())?;
            Ok(true)
        }, _ => Ok(false)),
    }
}

/// Writes `items` converted by `to` to `out`, [`CHUNK`] bytes at a time.
fn drain<T: Copy, const N: usize>(
    items: &[T],
    out: &mut impl Write,
    what: &str,
    path: &Path,
    to: impl Fn(T) -> [u8; N],
) -> Result<()> {
    let per_chunk = CHUNK / N;
    let mut chunk = budget::filled(what, 0u8, per_chunk.min(items.len()) * N)?;
    for part in items.chunks(per_chunk) {
        ragtag_engine::interrupt::check()?;
        let bytes = &mut chunk[..part.len() * N];
        let (slots, _) = bytes.as_chunks_mut::<N>();
        for (slot, &x) in slots.iter_mut().zip(part) {
            *slot = to(x);
        }
        out.write_all(bytes).map_err(|e| fs::io_error(&e, path))?;
    }
    Ok(())
}
