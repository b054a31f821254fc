//! Writes that replace a file whole: the bytes go to a temporary file beside it, renamed
//! over the path only once complete, so a reader never sees half a file (another process
//! reading while ragtag writes, or a write that failed midway).

use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::diagnostic::Result;
use crate::formats::fs;

/// Distinguishes the temporary files of writes in flight in this process.
static NEXT: AtomicUsize = AtomicUsize::new(0);

/// A write in progress: the temporary file, removed unless [`Replacement::commit`] renames
/// it over the target.
pub struct Replacement {
    tmp: PathBuf,
    path: PathBuf,
    done: bool,
}

/// Starts writing `path`: opens a temporary file in the same directory (errors name
/// `path`, as if it were opened itself).
pub fn begin(path: &Path) -> Result<(File, Replacement)> {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    let tmp = path.with_file_name(format!(".{name}.{}-{n}.tmp", std::process::id()));
    let file = File::create(&tmp).map_err(|e| fs::io_error(&e, path))?;
    Ok((
        file,
        Replacement {
            tmp,
            path: path.to_path_buf(),
            done: false,
        },
    ))
}

impl Replacement {
    /// Renames the finished temporary file over the target.
    pub fn commit(mut self) -> Result<()> {
        std::fs::rename(&self.tmp, &self.path).map_err(|e| fs::io_error(&e, &self.path))?;
        self.done = true;
        Ok(())
    }
}

impl Drop for Replacement {
    fn drop(&mut self) {
        if !self.done {
            // Best effort: the write already failed with its own error.
            let _ = std::fs::remove_file(&self.tmp);
        }
    }
}
