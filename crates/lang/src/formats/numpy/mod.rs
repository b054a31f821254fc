//! NumPy's files: `.npy` (one array: a header, then its elements) and `.npz` (a zip archive
//! of `.npy` files, one per named array), read into dense tensors and written from them.
//!
//! The header and elements are parsed here rather than by a crate: the element types must
//! map onto ragtag's own (with widening and string arrays), and every size in a hostile
//! header must be checked before it is trusted. The zip container is the `zip` crate's.

mod dtype;
mod header;
mod npz;
mod stream;

use std::io::{Read, Write};
use std::path::Path;

use crate::diagnostic::{Error, Result};
use ragtag_engine::exceptions::ExceptionClass;
use ragtag_engine::{budget, Buffer, Tensor};

use super::fs;
pub use npz::{read_npz, write_npz};

/// What `np.load` found in a file.
#[derive(Debug, Clone, PartialEq)]
pub enum Loaded {
    /// A `.npy` file: one array.
    Array(Tensor),
    /// A `.npz` archive: its arrays by name, in archive order.
    Archive(Vec<(String, Tensor)>),
}

/// The bytes a zip archive starts with (a local file header, or the end record of an
/// empty archive).
const ZIP_MAGIC: [&[u8]; 2] = [b"PK\x03\x04", b"PK\x05\x06"];

/// Reads a `.npy` or `.npz` file, telling them apart by their first bytes as NumPy does.
pub fn load(path: &Path) -> Result<Loaded> {
    let mut file = fs::open(path)?;
    let len = file.metadata().map_err(|e| fs::io_error(&e, path))?.len();
    let mut first = [0u8; 12];
    let got = read_prefix(&mut file, &mut first, path)?;
    if first[..got].starts_with(header::MAGIC) {
        return read_npy(file, len, &first[..got], path).map(Loaded::Array);
    }
    drop(file);
    let bytes = fs::read(path)?;
    let name = path.display().to_string();
    if ZIP_MAGIC.iter().any(|m| bytes.starts_with(m)) {
        return read_npz(bytes, &name).map(Loaded::Archive);
    }
    let mut err = Error::new(
        ExceptionClass::ValueError,
        format!("'{name}' is neither a .npy nor a .npz file"),
    );
    // A pickle starts with the PROTO opcode, 0x80.
    err = if bytes.first() == Some(&0x80) {
        err.with_hint("it looks like a pickle (np.save with allow_pickle of an object array, or pickle.dump): ragtag does not unpickle")
    } else {
        err.with_hint("np.load reads files written by np.save, np.savez and np.savez_compressed")
    };
    Err(err)
}

/// Fills as much of `buf` as the file holds; returns the bytes read.
fn read_prefix(file: &mut std::fs::File, buf: &mut [u8], path: &Path) -> Result<usize> {
    let mut got = 0;
    while got < buf.len() {
        match file.read(&mut buf[got..]) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(fs::read_error(&e, path)),
        }
    }
    Ok(got)
}

/// Reads the `.npy` file `file` of `len` bytes, whose first bytes `first` are already read:
/// the header, then the elements straight into the tensor's buffer (numbers), or read
/// whole and decoded (bools and strings).
fn read_npy(mut file: std::fs::File, len: u64, first: &[u8], path: &Path) -> Result<Tensor> {
    let name = path.display().to_string();
    let what = format!("reading '{name}'");
    // The header's length, from the fixed fields; a version or length that is wrong is
    // reported by header::read from the bytes there are.
    let end = match (first.get(6), first.len()) {
        (Some(1), 10..) => 10 + usize::from(u16::from_le_bytes([first[8], first[9]])),
        (Some(2 | 3), 12) => {
            let n = u32::from_le_bytes([first[8], first[9], first[10], first[11]]);
            12usize.saturating_add(usize::try_from(n).unwrap_or(usize::MAX))
        }
        _ => first.len(),
    };
    let end = end.min(usize::try_from(len).unwrap_or(usize::MAX));
    let mut head = budget::vec::<u8>(&what, end.max(first.len()))?;
    head.extend_from_slice(first);
    if end > head.len() {
        let mut input = fs::Interruptible(&mut file);
        (&mut input)
            .take((end - head.len()) as u64)
            .read_to_end(&mut head)
            .map_err(|e| fs::read_error(&e, path))?;
    }
    let (head, at) = header::read(&head, &name)?;
    let plan = plan(&head, &name)?;
    let data_len = usize::try_from(len.saturating_sub(at as u64)).unwrap_or(usize::MAX);
    check_length(&plan, &head, data_len, &name)?;
    let mut input = fs::Interruptible(&mut file);
    let mut buf = match stream::read_numbers(plan.ty, &mut input, plan.n, path)? {
        Some(buf) => buf,
        None => {
            let mut data = budget::vec::<u8>(&what, plan.need)?;
            (&mut input)
                .take(plan.need as u64)
                .read_to_end(&mut data)
                .map_err(|e| fs::read_error(&e, path))?;
            check_length(&plan, &head, data.len(), &name)?;
            dtype::decode(plan.ty, &data, plan.n, &name)?
        }
    };
    if head.fortran_order {
        buf = dtype::from_fortran(buf, &plan.shape, &name)?;
    }
    Tensor::new(plan.shape, buf).map_err(Error::from)
}

/// What a header asks for: the element type, the shape, the element count and the bytes
/// of data they take.
struct Plan {
    ty: dtype::NpType,
    shape: Vec<usize>,
    n: usize,
    need: usize,
}

/// Checks a parsed header of the file `name` and works out its [`Plan`].
fn plan(head: &header::Header, name: &str) -> Result<Plan> {
    let ty = dtype::parse(&head.descr, name)?;
    let mut shape = budget::vec(&format!("reading '{name}'"), head.shape.len())?;
    for &d in &head.shape {
        shape.push(
            usize::try_from(d).map_err(|_| header::corrupt(name, "a dimension is too large"))?,
        );
    }
    let n = shape
        .iter()
        .try_fold(1usize, |acc, &d| acc.checked_mul(d))
        .ok_or_else(|| header::corrupt(name, "its shape has more elements than memory can hold"))?;
    let need = ty
        .item_bytes()
        .and_then(|b| b.checked_mul(n))
        .ok_or_else(|| header::corrupt(name, "its shape has more elements than memory can hold"))?;
    budget::check(
        &format!("reading '{name}'"),
        n as u128,
        dtype::engine_dtype(ty).item_bytes(),
    )?;
    Ok(Plan { ty, shape, n, need })
}

/// The ValueError for a file whose `available` bytes of data are fewer than its header
/// promises.
fn check_length(plan: &Plan, head: &header::Header, available: usize, name: &str) -> Result<()> {
    if available >= plan.need {
        return Ok(());
    }
    Err(header::corrupt(
        name,
        format!(
            "its header promises {} bytes of data ({} values of dtype '{}'), but only {} follow: the file is truncated",
            plan.need, plan.n, head.descr, available
        ),
    ))
}

/// Parses the bytes of one `.npy` file (`name` is for messages).
pub fn parse_npy(bytes: &[u8], name: &str) -> Result<Tensor> {
    let (head, at) = header::read(bytes, name)?;
    let plan = plan(&head, name)?;
    let data = &bytes[at..];
    check_length(&plan, &head, data.len(), name)?;
    let mut buf = dtype::decode(plan.ty, data, plan.n, name)?;
    if head.fortran_order {
        buf = dtype::from_fortran(buf, &plan.shape, name)?;
    }
    Tensor::new(plan.shape, buf).map_err(Error::from)
}

/// The bytes of a `.npy` file holding `t`.
pub fn npy_bytes(t: &Tensor, what: &str) -> Result<Vec<u8>> {
    let (descr, data) = dtype::encode(t, what)?;
    let head = header::write(&descr, t.shape());
    let mut out = budget::vec(what, head.len().saturating_add(data.len()))?;
    out.extend_from_slice(&head);
    out.extend_from_slice(&data);
    Ok(out)
}

/// Writes `t` to a `.npy` file at `path`: the header, then a number tensor's elements
/// streamed from its buffer (other kinds are encoded whole first).
pub fn write_npy(path: &Path, t: &Tensor) -> Result<()> {
    let what = format!("writing '{}'", path.display());
    if matches!(t.data(), Buffer::Bool(_) | Buffer::Str(_) | Buffer::BF16(_)) {
        let bytes = npy_bytes(t, &what)?;
        return fs::replace(path, &bytes);
    }
    let descr = dtype::number_descr(t.data());
    let head = header::write(&descr, t.shape());
    let (mut file, replacement) = fs::begin(path)?;
    let data = (t.size() as u64).saturating_mul(t.dtype().item_bytes() as u64);
    replacement.preallocate(data.saturating_add(head.len() as u64));
    file.write_all(&head).map_err(|e| fs::io_error(&e, path))?;
    stream::write_numbers(t.data(), &mut file, path)?;
    drop(file);
    replacement.commit()
}

#[cfg(test)]
mod tests;
