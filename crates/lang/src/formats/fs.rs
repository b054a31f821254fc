//! Files: open, read and create them with the errors Python raises (`FileNotFoundError:
//! [Errno 2] No such file or directory: 'x.npy'`), and reads checked against the memory
//! budget before a byte is allocated.

use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

use crate::diagnostic::{Error, Result};
use ragtag_engine::budget;
use ragtag_engine::exceptions::ExceptionClass;

/// The error Python raises for `err` on `path`: its class follows the error's kind, its
/// message Python's `[Errno N] reason: 'path'`.
pub fn io_error(err: &io::Error, path: &Path) -> Error {
    let class = match err.kind() {
        io::ErrorKind::NotFound => ExceptionClass::FileNotFoundError,
        io::ErrorKind::PermissionDenied => ExceptionClass::PermissionError,
        io::ErrorKind::IsADirectory => ExceptionClass::IsADirectoryError,
        _ => ExceptionClass::OSError,
    };
    let reason = match err.kind() {
        io::ErrorKind::NotFound => "No such file or directory".to_string(),
        io::ErrorKind::PermissionDenied => "Permission denied".to_string(),
        io::ErrorKind::IsADirectory => "Is a directory".to_string(),
        _ => strip_os_code(&err.to_string()),
    };
    let message = match err.raw_os_error() {
        Some(code) => format!("[Errno {code}] {reason}: '{}'", path.display()),
        None => format!("{reason}: '{}'", path.display()),
    };
    Error::new(class, message)
}

/// Rust's `reason (os error N)` without the trailing code, which the message already gives.
fn strip_os_code(text: &str) -> String {
    match text.rfind(" (os error ") {
        Some(at) => text[..at].to_string(),
        None => text.to_string(),
    }
}

/// Opens `path` for reading; a directory is an IsADirectoryError, as in Python.
pub fn open(path: &Path) -> Result<File> {
    let file = File::open(path).map_err(|e| io_error(&e, path))?;
    let meta = file.metadata().map_err(|e| io_error(&e, path))?;
    if meta.is_dir() {
        return Err(Error::new(
            ExceptionClass::IsADirectoryError,
            format!("[Errno 21] Is a directory: '{}'", path.display()),
        ));
    }
    Ok(file)
}

/// The size of the file at `path` in bytes.
pub fn size(path: &Path) -> Result<u64> {
    Ok(open(path)?
        .metadata()
        .map_err(|e| io_error(&e, path))?
        .len())
}

/// Reads the whole file at `path`, checking its size against the memory budget first.
pub fn read(path: &Path) -> Result<Vec<u8>> {
    let mut file = open(path)?;
    let len = file.metadata().map_err(|e| io_error(&e, path))?.len();
    let what = format!("reading '{}'", path.display());
    budget::check_bytes(&what, u128::from(len))?;
    let mut bytes = budget::vec::<u8>(&what, usize::try_from(len).unwrap_or(usize::MAX))?;
    file.read_to_end(&mut bytes)
        .map_err(|e| io_error(&e, path))?;
    Ok(bytes)
}

/// Creates (or truncates) the file at `path` for writing.
pub fn create(path: &Path) -> Result<File> {
    File::create(path).map_err(|e| io_error(&e, path))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_file_is_python_s_file_not_found_error() {
        let err = read(Path::new("no/such/file.npy")).unwrap_err();
        assert_eq!(err.class, ExceptionClass::FileNotFoundError);
        assert_eq!(
            err.message,
            "[Errno 2] No such file or directory: 'no/such/file.npy'"
        );
        assert!(ExceptionClass::OSError.catches(err.class));
    }

    #[test]
    fn a_directory_is_an_is_a_directory_error() {
        let err = read(Path::new(".")).unwrap_err();
        assert_eq!(err.class, ExceptionClass::IsADirectoryError);
        assert_eq!(err.message, "[Errno 21] Is a directory: '.'");
    }

    #[test]
    fn a_file_reads_whole_and_a_created_file_is_written() {
        let dir = std::env::temp_dir().join(format!("ragtag-fs-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("bytes.bin");
        std::io::Write::write_all(&mut create(&path).unwrap(), b"ragged").unwrap();
        assert_eq!(read(&path).unwrap(), b"ragged");
        assert_eq!(size(&path).unwrap(), 6);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
