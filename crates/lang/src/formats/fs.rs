//! Files: open, read and write them with the errors Python raises (`FileNotFoundError:
//! [Errno 2] No such file or directory: 'x.npy'`), reads checked against the memory budget
//! before a byte is allocated, and one way to write a file that never loses the old one.
//!
//! Every writer (`np.save`, `np.savez`, `write_json`, `to_parquet`, `draw(x, path)`, `:save`)
//! goes through [`begin`]: the new bytes go to a temporary file in the target's folder —
//! unnamed where the system allows (Linux's `O_TMPFILE`), so a process killed mid-write
//! leaves nothing behind — which is renamed over the target only once complete (and synced
//! first where a power loss could otherwise leave an empty file in the old one's place: see
//! [`durable`](super::durable)). A write that fails (a value refused half-way, the disk full,
//! the budget exceeded) or a process killed mid-write leaves the old file as it was. FIFOs, devices and directories are refused before anything is
//! opened, for reads too, so no read or write can block forever in `open()`.

use std::fs::File;
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use super::durable;
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

/// The error for a path that exists but is not a regular file (`kind` says what it is).
fn not_regular(path: &Path, meta: &std::fs::Metadata) -> Error {
    use std::os::unix::fs::FileTypeExt;
    let t = meta.file_type();
    if t.is_dir() {
        return Error::new(
            ExceptionClass::IsADirectoryError,
            format!("[Errno 21] Is a directory: '{}'", path.display()),
        );
    }
    let kind = if t.is_fifo() {
        "a FIFO (named pipe)"
    } else if t.is_char_device() {
        "a character device"
    } else if t.is_block_device() {
        "a block device"
    } else if t.is_socket() {
        "a socket"
    } else {
        "not a regular file"
    };
    Error::new(
        ExceptionClass::OSError,
        format!("'{}' is {kind}, not a regular file", path.display()),
    )
    .with_hint(
        "ragtag reads and writes regular files only: a pipe or device could block or never end",
    )
}

/// Opens `path` for reading; a directory is an IsADirectoryError, as in Python, and a FIFO
/// or device an OSError. The open itself cannot block (it asks for non-blocking mode,
/// which means nothing for the regular files it then accepts).
pub fn open(path: &Path) -> Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(rustix::fs::OFlags::NONBLOCK.bits() as i32)
        .open(path)
        .map_err(|e| io_error(&e, path))?;
    let meta = file.metadata().map_err(|e| io_error(&e, path))?;
    if !meta.is_file() {
        return Err(not_regular(path, &meta));
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
    // One byte of room past the size, so the read that meets the end of the file needs no
    // larger buffer (a full buffer would grow by a chunk, copying the whole file once more).
    let room = usize::try_from(len).unwrap_or(usize::MAX).saturating_add(1);
    let mut bytes = budget::vec::<u8>(&what, room)?;
    let mut input = Interruptible(&mut file);
    loop {
        // A file that grew since its size was read grows the buffer through the budget.
        if bytes.len() == bytes.capacity() {
            budget::grow(&what, &mut bytes, READ_CHUNK)?;
        }
        let room = bytes.capacity() - bytes.len();
        (&mut input)
            .take(room as u64)
            .read_to_end(&mut bytes)
            .map_err(|e| read_error(&e, path))?;
        // Short of the room: the end of the file.
        if bytes.len() < bytes.capacity() {
            break;
        }
    }
    Ok(bytes)
}

/// Bytes read between two looks at the interrupt flag.
const READ_CHUNK: usize = 8 << 20;

/// A reader that reads at most [`READ_CHUNK`] bytes a call and fails once the user has
/// interrupted, so that a read of a large file (whole, or a format library's read of one
/// large block) stops part-way. [`read_error`] turns its failure back into the interrupt.
pub struct Interruptible<R>(pub R);

impl<R: Read> Read for Interruptible<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if ragtag_engine::interrupt::requested() {
            return Err(io::Error::other(INTERRUPTED));
        }
        let n = buf.len().min(READ_CHUNK);
        self.0.read(&mut buf[..n])
    }
}

impl<R: io::Seek> io::Seek for Interruptible<R> {
    fn seek(&mut self, pos: io::SeekFrom) -> io::Result<u64> {
        self.0.seek(pos)
    }
}

/// The text of the error an interrupted read fails with.
const INTERRUPTED: &str = "read interrupted";

/// The error for a failed read of `path`: KeyboardInterrupt when the user stopped it.
pub fn read_error(err: &io::Error, path: &Path) -> Error {
    if ragtag_engine::interrupt::requested() {
        return ragtag_engine::interrupt::interrupted().into();
    }
    io_error(err, path)
}

/// Distinguishes the temporary files of writes in flight in this process.
static NEXT: AtomicUsize = AtomicUsize::new(0);

/// A write in progress, from [`begin`]: committed, it replaces the target whole; dropped
/// uncommitted, it leaves the target untouched and no temporary file behind.
pub struct Replacement {
    /// Where the new bytes go: the path itself, or a symbolic link's final target (a link
    /// stays a link).
    target: PathBuf,
    /// The path the user gave, for messages.
    path: PathBuf,
    /// Our handle on the temporary file (the writer has its own), kept to sync it and, for
    /// an unnamed one, to give it a name at the end.
    file: File,
    /// The temporary file's name; None while it is unnamed.
    named: Option<PathBuf>,
    /// The old file's permissions, given to the new one; None when there is no old file.
    mode: Option<std::fs::Permissions>,
    /// Whether to sync before the rename and to reserve blocks ([`durable::plan`]).
    plan: durable::Plan,
    done: bool,
}

/// Starts replacing the file at `path`: returns the file to write the new contents to, and
/// the [`Replacement`] whose [`commit`](Replacement::commit) puts them in place. Errors
/// name `path`, as if it were opened itself.
pub fn begin(path: &Path) -> Result<(File, Replacement)> {
    let target = match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_symlink() => {
            std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
        }
        _ => path.to_path_buf(),
    };
    let mode = match std::fs::metadata(&target) {
        Ok(meta) if !meta.is_file() => return Err(not_regular(path, &meta)),
        // Python's open(path, 'w') on a file this user may not write: the rename would
        // succeed, but the file's owner asked for it to stay as it is.
        Ok(_) if rustix::fs::access(&target, rustix::fs::Access::WRITE_OK).is_err() => {
            return Err(Error::new(
                ExceptionClass::PermissionError,
                format!("[Errno 13] Permission denied: '{}'", path.display()),
            )
            .with_hint("the file is read-only; make it writable (chmod u+w) to replace it"))
        }
        Ok(meta) => Some(meta.permissions()),
        Err(_) => None,
    };
    let dir = match target.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let (file, named) = match unnamed_file(&dir) {
        Some(file) => (file, None),
        None => {
            let tmp = temporary_name(&target);
            let file = std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&tmp)
                .map_err(|e| io_error(&e, path))?;
            (file, Some(tmp))
        }
    };
    if let Some(mode) = &mode {
        // Best effort: a filesystem without permissions keeps its default.
        let _ = file.set_permissions(mode.clone());
    }
    let writer = file.try_clone().map_err(|e| io_error(&e, path))?;
    Ok((
        writer,
        Replacement {
            target,
            path: path.to_path_buf(),
            file,
            named,
            plan: durable::plan(mode.is_some(), durable::filesystem(&dir)),
            mode,
            done: false,
        },
    ))
}

/// An unnamed file in `dir` (Linux's `O_TMPFILE`), or None where the system or the
/// filesystem has none.
#[cfg(target_os = "linux")]
fn unnamed_file(dir: &Path) -> Option<File> {
    use rustix::fs::{Mode, OFlags};
    rustix::fs::openat(
        rustix::fs::CWD,
        dir,
        OFlags::TMPFILE | OFlags::WRONLY | OFlags::CLOEXEC,
        Mode::from_bits_truncate(0o666),
    )
    .ok()
    .map(File::from)
}

#[cfg(not(target_os = "linux"))]
fn unnamed_file(_dir: &Path) -> Option<File> {
    None
}

/// A name for a temporary file beside `target`, unique to this process and write.
fn temporary_name(target: &Path) -> PathBuf {
    let name = target
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    target.with_file_name(format!(".{name}.{}-{n}.tmp", std::process::id()))
}

impl Replacement {
    /// Renames the new contents over the target, syncing them first when they replace a
    /// file on a filesystem that could otherwise lose it on a power loss
    /// ([`durable::must_sync`](super::durable::must_sync)). Call it after the writer has
    /// flushed (and closed) its file.
    pub fn commit(mut self) -> Result<()> {
        let path = self.path.clone();
        let io = |e: io::Error| io_error(&e, &path);
        let replaces = self.mode.is_some();
        if self.plan.sync {
            self.file.sync_data().map_err(io)?;
        }
        let tmp = match &self.named {
            Some(tmp) => tmp.clone(),
            None => {
                let tmp = temporary_name(&self.target);
                link_unnamed(&self.file, &tmp).map_err(io)?;
                self.named = Some(tmp.clone());
                tmp
            }
        };
        if let Some(mode) = &self.mode {
            let _ = std::fs::set_permissions(&tmp, mode.clone());
        }
        // A handle on the old file, so that the rename does not free it: the last handle
        // frees it, off the caller's path (on ext4 that waits for the old file's own
        // writes to reach the disk — tens of milliseconds after a large write).
        let old = replaces.then(|| hold(&self.target)).flatten();
        std::fs::rename(&tmp, &self.target).map_err(io)?;
        self.done = true;
        if let Some(old) = old {
            release_later(old);
        }
        Ok(())
    }
}

impl Replacement {
    /// Reserves `len` bytes for the new file when the plan allows it (best effort: a
    /// filesystem without `fallocate` allocates as it writes).
    pub fn preallocate(&self, len: u64) {
        if self.plan.preallocate && len > 0 {
            let _ =
                rustix::fs::fallocate(&self.file, rustix::fs::FallocateFlags::KEEP_SIZE, 0, len);
        }
    }
}

/// A handle that keeps the file at `path` from being freed (an `O_PATH` descriptor: it
/// opens nothing for reading, so not even a FIFO can block it), or None.
fn hold(path: &Path) -> Option<std::os::fd::OwnedFd> {
    use rustix::fs::{Mode, OFlags};
    rustix::fs::open(path, OFlags::PATH | OFlags::CLOEXEC, Mode::empty()).ok()
}

/// Closes `old` on a thread of its own, so that freeing a replaced file's blocks does not
/// hold up the write that replaced it (one thread for the process, started on first use;
/// where it cannot start, `old` is closed here).
fn release_later(old: std::os::fd::OwnedFd) {
    use std::sync::mpsc::{channel, Sender};
    use std::sync::OnceLock;
    static RELEASER: OnceLock<Option<Sender<std::os::fd::OwnedFd>>> = OnceLock::new();
    let sender = RELEASER.get_or_init(|| {
        let (send, receive) = channel::<std::os::fd::OwnedFd>();
        std::thread::Builder::new()
            .name("ragtag-release".into())
            .spawn(move || receive.into_iter().for_each(drop))
            .ok()
            .map(|_| send)
    });
    if let Some(sender) = sender {
        // A send fails only when the thread is gone; then the handle comes back and is
        // dropped here.
        let _ = sender.send(old);
    }
}

/// Gives the unnamed file `file` the name `tmp`.
#[cfg(target_os = "linux")]
fn link_unnamed(file: &File, tmp: &Path) -> io::Result<()> {
    use std::os::fd::AsRawFd;
    let proc_path = format!("/proc/self/fd/{}", file.as_raw_fd());
    rustix::fs::linkat(
        rustix::fs::CWD,
        proc_path.as_str(),
        rustix::fs::CWD,
        tmp,
        rustix::fs::AtFlags::SYMLINK_FOLLOW,
    )
    .map_err(io::Error::from)
}

#[cfg(not(target_os = "linux"))]
fn link_unnamed(_file: &File, _tmp: &Path) -> io::Result<()> {
    Err(io::Error::other("unnamed temporary files need Linux"))
}

impl Drop for Replacement {
    fn drop(&mut self) {
        if let (false, Some(tmp)) = (self.done, &self.named) {
            // Best effort: the write already failed with its own error.
            let _ = std::fs::remove_file(tmp);
        }
    }
}

/// Replaces the file at `path` whole with the bytes `write` puts through a buffered
/// writer; on any error the old file stays as it was.
pub fn replace_with(
    path: &Path,
    write: impl FnOnce(&mut io::BufWriter<File>) -> Result<()>,
) -> Result<()> {
    let (file, replacement) = begin(path)?;
    let mut out = io::BufWriter::new(file);
    write(&mut out)?;
    io::Write::flush(&mut out).map_err(|e| io_error(&e, path))?;
    drop(out);
    replacement.commit()
}

/// Replaces the file at `path` whole with `bytes`.
pub fn replace(path: &Path, bytes: &[u8]) -> Result<()> {
    replace_with(path, |out| {
        io::Write::write_all(out, bytes).map_err(|e| io_error(&e, path))
    })
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
        replace(&path, b"ragged").unwrap();
        assert_eq!(read(&path).unwrap(), b"ragged");
        assert_eq!(size(&path).unwrap(), 6);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
