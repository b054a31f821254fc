//! `ragtag test --failed`: the transcripts that failed in the last run are remembered in
//! `.ragtag/last-failed` in the working directory (a cache directory holding a `.gitignore`
//! of `*`, so it never shows up in `git status`), and `--failed` reruns only those — or
//! every transcript named, when none of them failed last time (pytest's `--lf`).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use super::{find_transcripts, write_atomic, Summary};

/// The cache directory, relative to the working directory.
pub const CACHE_DIR: &str = ".ragtag";
/// The file in it listing the transcripts that failed, one absolute path a line.
const FILE: &str = "last-failed";

/// Where the list is kept for runs started in `base`.
pub fn cache_file(base: &Path) -> PathBuf {
    base.join(CACHE_DIR).join(FILE)
}

/// A path as kept in the list: absolute and canonical when it exists.
fn key(path: &Path) -> PathBuf {
    std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
}

/// The transcripts that failed in the last run started in `base` (none when there was no
/// run, or its list cannot be read).
pub fn load(base: &Path) -> BTreeSet<PathBuf> {
    std::fs::read_to_string(cache_file(base))
        .map(|t| {
            t.lines()
                .filter(|l| !l.trim().is_empty())
                .map(PathBuf::from)
                .collect()
        })
        .unwrap_or_default()
}

/// Records a run's failures: the transcripts it ran are dropped from the list and those
/// that failed added back; failures of transcripts it did not run are kept. Best effort: a
/// list that cannot be written only makes the next `--failed` run more.
pub fn save(base: &Path, summary: &Summary) -> std::io::Result<()> {
    let mut failed = load(base);
    for r in &summary.results {
        let k = key(&r.path);
        if r.ok() {
            failed.remove(&k);
        } else {
            failed.insert(k);
        }
    }
    let dir = base.join(CACHE_DIR);
    std::fs::create_dir_all(&dir)?;
    let ignore = dir.join(".gitignore");
    if !ignore.exists() {
        std::fs::write(
            &ignore,
            "# Created by ragtag test: this cache is not checked in.\n*\n",
        )?;
    }
    let text: String = failed
        .iter()
        .map(|p| format!("{}\n", p.display()))
        .collect();
    write_atomic(&cache_file(base), &text)
}

/// The transcripts under `paths` that `--failed` runs, and the line that says which: those
/// that failed last time, or all of them when none did.
pub fn select(base: &Path, paths: &[PathBuf]) -> std::io::Result<(Vec<PathBuf>, String)> {
    let all = find_transcripts(paths)?;
    let failed = load(base);
    let again: Vec<PathBuf> = all
        .iter()
        .filter(|p| failed.contains(&key(p)))
        .cloned()
        .collect();
    if again.is_empty() {
        let line = format!(
            "--failed: no transcript here failed last time; running all {}",
            all.len()
        );
        return Ok((all, line));
    }
    let line = match again.len() {
        1 => "--failed: running the 1 transcript that failed last time".to_string(),
        n => format!("--failed: running the {n} transcripts that failed last time"),
    };
    Ok((again, line))
}
