//! `.npz` archives: a zip of `<name>.npy` members, stored (`np.savez`) or deflated
//! (`np.savez_compressed`). Each member's declared size is checked against the memory budget
//! before it is inflated, so a zip bomb is an error rather than an allocation.

use std::io::{Cursor, Read, Write};
use std::path::Path;

use zip::write::SimpleFileOptions;
use zip::{CompressionMethod, ZipArchive, ZipWriter};

use super::{npy_bytes, parse_npy};
use crate::diagnostic::{Error, Result};
use crate::formats::fs;
use ragtag_engine::exceptions::ExceptionClass;
use ragtag_engine::{budget, Tensor};

fn bad_zip(name: &str, why: impl std::fmt::Display) -> Error {
    Error::new(
        ExceptionClass::ValueError,
        format!("'{name}' is not a valid .npz file: {why}"),
    )
}

/// Reads every array of a `.npz` archive held in `bytes`, keyed by member name without
/// `.npy` (NumPy's `NpzFile` keys).
pub fn read_npz(bytes: Vec<u8>, name: &str) -> Result<Vec<(String, Tensor)>> {
    let mut archive = ZipArchive::new(Cursor::new(bytes)).map_err(|e| bad_zip(name, e))?;
    let mut out = Vec::new();
    for i in 0..archive.len() {
        let mut member = archive.by_index(i).map_err(|e| bad_zip(name, e))?;
        if member.is_dir() {
            continue;
        }
        let member_name = member.name().map_err(|e| bad_zip(name, e))?.to_string();
        let Some(key) = member_name.strip_suffix(".npy") else {
            return Err(bad_zip(
                name,
                format!("it holds '{member_name}', which is not a .npy array"),
            ));
        };
        let what = format!("reading '{member_name}' in '{name}'");
        let size = member.size();
        budget::check_bytes(&what, u128::from(size))?;
        let size = usize::try_from(size).map_err(|_| bad_zip(name, "a member is too large"))?;
        let mut data = budget::vec(&what, size)?;
        // One byte past the declared size tells a member that lies about its size.
        (&mut member)
            .take(size as u64 + 1)
            .read_to_end(&mut data)
            .map_err(|e| bad_zip(name, format!("'{member_name}': {e}")))?;
        if data.len() != size {
            return Err(bad_zip(
                name,
                format!("'{member_name}' does not have the size its entry declares"),
            ));
        }
        let inner = format!("{name}[{key}]");
        out.push((key.to_string(), parse_npy(&data, &inner)?));
    }
    Ok(out)
}

/// Writes `arrays` to a `.npz` archive at `path`, deflated when `compressed`.
pub fn write_npz(path: &Path, arrays: &[(String, Tensor)], compressed: bool) -> Result<()> {
    let (file, replacement) = fs::begin(path)?;
    let io = |e: std::io::Error| fs::io_error(&e, path);
    let zip_err = |e: zip::result::ZipError| match e {
        zip::result::ZipError::Io(e) => fs::io_error(&e, path),
        other => Error::new(
            ExceptionClass::OSError,
            format!("writing '{}': {other}", path.display()),
        ),
    };
    let mut zip = ZipWriter::new(std::io::BufWriter::new(file));
    let method = if compressed {
        CompressionMethod::Deflated
    } else {
        CompressionMethod::Stored
    };
    for (key, t) in arrays {
        let bytes = npy_bytes(t, &format!("writing '{key}' to '{}'", path.display()))?;
        let options = SimpleFileOptions::default()
            .compression_method(method)
            .large_file(bytes.len() as u64 >= u64::from(u32::MAX));
        zip.start_file(format!("{key}.npy"), options)
            .map_err(zip_err)?;
        zip.write_all(&bytes).map_err(io)?;
    }
    let mut inner = zip.finish().map_err(zip_err)?;
    inner.flush().map_err(io)?;
    drop(inner);
    replacement.commit()
}
