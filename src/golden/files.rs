//! The files of the golden runner: finding transcripts under directories, reading one,
//! and writing a blessed one back atomically.

use super::EXTENSION;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Writes `text` to `path` atomically: a temporary file in the same directory, synced to
/// disk, renamed over the old one, and the directory synced where the system allows, so a
/// crash leaves either the old file or the new one. When `path` is a symbolic link its
/// target is rewritten and the link stays a link.
pub fn write_atomic(path: &Path, text: &str) -> std::io::Result<()> {
    write_atomic_observed(path, text, |_| {})
}

/// A step of [`write_atomic`] that has just been made durable.
#[derive(Debug, Clone, PartialEq)]
enum Synced {
    /// The temporary file, before it is renamed.
    File(PathBuf),
    /// The directory, after the rename.
    Dir(PathBuf),
}

/// [`write_atomic`], calling `synced` after each sync (so a test can see their order).
fn write_atomic_observed(
    path: &Path,
    text: &str,
    mut synced: impl FnMut(Synced),
) -> std::io::Result<()> {
    let target = if path.is_symlink() {
        std::fs::canonicalize(path)?
    } else {
        path.to_path_buf()
    };
    if std::fs::metadata(&target).is_ok_and(|m| m.permissions().readonly()) {
        // Blessing replaces the file by a rename, which a read-only file would not stop.
        return Err(std::io::Error::new(
            std::io::ErrorKind::PermissionDenied,
            "the transcript is read-only, so it is left as it is (make it writable to bless it)",
        ));
    }
    let dir = target
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let file = target
        .file_name()
        .map(|f| f.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = dir.join(format!(".{file}.{}.tmp", std::process::id()));
    let mut written = || {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(text.as_bytes())?;
        if let Ok(meta) = std::fs::metadata(&target) {
            f.set_permissions(meta.permissions())?;
        }
        f.sync_all()?;
        synced(Synced::File(tmp.clone()));
        drop(f);
        std::fs::rename(&tmp, &target)
    };
    if let Err(e) = written() {
        let _ = std::fs::remove_file(&tmp);
        return Err(e);
    }
    // Makes the rename itself durable. Directories cannot be opened for syncing everywhere
    // (Windows), and the file is already in place, so a failure here is not an error.
    if let Ok(d) = std::fs::File::open(dir) {
        if d.sync_all().is_ok() {
            synced(Synced::Dir(dir.to_path_buf()));
        }
    }
    Ok(())
}

/// The text of the transcript at `path`. Only a regular file is read: a FIFO named
/// `*.rtt` would block the run before any timeout applies, so it is an error instead.
pub fn read_transcript(path: &Path) -> std::io::Result<String> {
    let meta = std::fs::metadata(path)?;
    if !meta.is_file() {
        return Err(std::io::Error::other(
            "not a regular file (a FIFO, device or socket), so it is not read",
        ));
    }
    super::documents::transcript_text(path, std::fs::read_to_string(path)?)
}

/// The transcripts named by `paths`: files as given, directories searched recursively for
/// `*.rtt` (skipping hidden directories and `target`), sorted within each directory. A
/// directory reached twice (through a symbolic link loop, or two links to one place) is
/// searched once.
pub fn find_transcripts(paths: &[PathBuf]) -> std::io::Result<Vec<PathBuf>> {
    fn walk(
        dir: &Path,
        seen: &mut std::collections::HashSet<PathBuf>,
        out: &mut Vec<PathBuf>,
    ) -> std::io::Result<()> {
        if !seen.insert(std::fs::canonicalize(dir)?) {
            return Ok(());
        }
        for (p, name) in sorted_entries(dir)? {
            if p.is_dir() {
                if !name.starts_with('.') && name != "target" {
                    walk(&p, seen, out)?;
                }
            } else if p.extension().is_some_and(|e| e == EXTENSION) {
                out.push(p);
            } else if super::documents::is_markdown(&p)
                && std::fs::read_to_string(&p).is_ok_and(|t| super::documents::has_ragtag_block(&t))
            {
                // A Markdown file with a ```ragtag block; one without is just a document.
                // (Notebooks run when named: a folder's notebooks are often guides.)
                out.push(p);
            }
        }
        Ok(())
    }
    let mut out = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for p in paths {
        if p.is_dir() {
            walk(p, &mut seen, &mut out)?;
        } else if p.exists() {
            out.push(p.clone());
        } else {
            return Err(std::io::Error::new(
                std::io::ErrorKind::NotFound,
                format!("{}: no such file or directory", p.display()),
            ));
        }
    }
    Ok(out)
}

/// The entries of `dir` in name order, each with its file name; what the walks over
/// transcript directories (the runner's and `ragtag review`'s) read.
pub(crate) fn sorted_entries(dir: &Path) -> std::io::Result<Vec<(PathBuf, String)>> {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)?
        .map(|e| e.map(|e| e.path()))
        .collect::<Result<_, _>>()?;
    entries.sort();
    Ok(entries
        .into_iter()
        .map(|p| {
            let name = p
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            (p, name)
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symbolic_link_loops_are_searched_once_and_a_fifo_is_not_read() {
        let dir = std::env::temp_dir().join(format!("ragtag-find-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("a")).unwrap();
        std::fs::write(dir.join("a/t.rtt"), ">>> 1 + 1\n2\n").unwrap();
        std::os::unix::fs::symlink("..", dir.join("a/up")).unwrap();
        std::os::unix::fs::symlink("../a", dir.join("a/again")).unwrap();
        let fifo = std::process::Command::new("mkfifo")
            .arg(dir.join("a/pipe.rtt"))
            .status()
            .unwrap();
        assert!(fifo.success());
        let found = find_transcripts(std::slice::from_ref(&dir)).unwrap();
        let names: Vec<_> = found.iter().map(|p| p.file_name().unwrap()).collect();
        assert_eq!(names, ["pipe.rtt", "t.rtt"], "{found:?}");
        let pipe = super::super::check_file(&dir.join("a/pipe.rtt"), false);
        assert!(
            matches!(&pipe.status, super::super::Status::Error(e) if e.contains("not a regular file")),
            "{:?}",
            pipe.status
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn blessing_syncs_the_new_file_before_the_rename_and_the_directory_after() {
        let dir = std::env::temp_dir().join(format!("ragtag-sync-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("t.rtt");
        std::fs::write(&path, "old\n").unwrap();
        let mut seen = Vec::new();
        write_atomic_observed(&path, "new\n", |step| {
            // At each sync, what the transcript holds: the old text until the rename.
            let now = std::fs::read_to_string(&path).unwrap();
            if let Synced::File(tmp) = &step {
                assert_eq!(std::fs::read_to_string(tmp).unwrap(), "new\n");
            }
            seen.push((step, now));
        })
        .unwrap();
        let tmp = match &seen[0].0 {
            Synced::File(tmp) => tmp.clone(),
            other => panic!("the file is synced first, not {other:?}"),
        };
        assert_eq!(tmp.parent(), Some(dir.as_path()));
        assert_eq!(seen[0].1, "old\n");
        #[cfg(unix)]
        assert_eq!(seen[1..], [(Synced::Dir(dir.clone()), "new\n".to_string())]);
        assert!(!tmp.exists());
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "new\n");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
