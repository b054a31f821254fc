//! NumPy's files: `.npy` (one array: a header, then its elements) and `.npz` (a zip archive
//! of `.npy` files, one per named array), read into dense tensors and written from them.
//!
//! The header and elements are parsed here rather than by a crate: the element types must
//! map onto ragtag's own (with widening and string arrays), and every size in a hostile
//! header must be checked before it is trusted. The zip container is the `zip` crate's.

mod dtype;
mod header;
mod npz;

use std::path::Path;

use crate::diagnostic::{Error, Result};
use ragtag_engine::exceptions::ExceptionClass;
use ragtag_engine::{budget, Tensor};

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
    let bytes = fs::read(path)?;
    let name = path.display().to_string();
    if bytes.starts_with(header::MAGIC) {
        return parse_npy(&bytes, &name).map(Loaded::Array);
    }
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

/// Parses the bytes of one `.npy` file (`name` is for messages).
pub fn parse_npy(bytes: &[u8], name: &str) -> Result<Tensor> {
    let (head, at) = header::read(bytes, name)?;
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
    let data = &bytes[at..];
    if data.len() < need {
        return Err(header::corrupt(
            name,
            format!(
                "its header promises {need} bytes of data ({} values of dtype '{}'), but only {} follow: the file is truncated",
                n,
                head.descr,
                data.len()
            ),
        ));
    }
    budget::check(
        &format!("reading '{name}'"),
        n as u128,
        dtype::engine_dtype(ty).item_bytes(),
    )?;
    let mut buf = dtype::decode(ty, data, n, name)?;
    if head.fortran_order {
        buf = dtype::from_fortran(buf, &shape, name)?;
    }
    Tensor::new(shape, buf).map_err(Error::from)
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

/// Writes `t` to a `.npy` file at `path`.
pub fn write_npy(path: &Path, t: &Tensor) -> Result<()> {
    let bytes = npy_bytes(t, &format!("writing '{}'", path.display()))?;
    fs::replace(path, &bytes)
}

#[cfg(test)]
mod tests;
