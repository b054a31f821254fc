//! Running many transcripts the way a team's CI does: each in a child process, `-j N` of
//! them at once with the report in the order of the files (whatever order they finish in),
//! and `--filter`/`--filter-out` over block names `FILE::LINE` (the line of the block's
//! `>>>`).

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Duration;

use regex::Regex;

use super::isolate::replay_in_child;
use super::{
    compare_selected, find_transcripts, parse, settle, Bless, FileResult, Status, Summary,
    Transcript,
};

/// Which blocks a run compares: a block named `FILE::LINE` is compared when `filter` (if
/// given) matches its name and `filter_out` (if given) does not.
#[derive(Debug, Clone, Default)]
pub struct Selection {
    /// Keep blocks whose names match.
    pub filter: Option<Regex>,
    /// Leave out blocks whose names match.
    pub filter_out: Option<Regex>,
}

impl Selection {
    /// True when no filter is given.
    pub fn is_all(&self) -> bool {
        self.filter.is_none() && self.filter_out.is_none()
    }

    /// Whether the block (or file, when `line` is `None`) with this name is compared.
    fn keeps(&self, name: &str) -> bool {
        self.filter.as_ref().is_none_or(|r| r.is_match(name))
            && !self.filter_out.as_ref().is_some_and(|r| r.is_match(name))
    }

    /// For each input of `t` (the transcript at `path`), whether it is compared.
    pub fn blocks(&self, path: &Path, t: &Transcript) -> Vec<bool> {
        let file = path.display();
        t.entries
            .iter()
            .map(|e| self.keeps(&format!("{file}::{}", e.line + 1)))
            .collect()
    }
}

/// How `ragtag test` runs.
#[derive(Debug, Clone)]
pub struct RunOptions {
    /// What to do with a transcript whose outputs differ.
    pub bless: Bless,
    /// How long an input may run (`None`: no limit).
    pub timeout: Option<Duration>,
    /// How many transcripts run at once (at least 1).
    pub jobs: usize,
    /// Which blocks are compared.
    pub selection: Selection,
    /// `--shard I/N`: run only the transcripts whose place in the sorted list, counted
    /// from 1, is I modulo N (so N machines share a run).
    pub shard: Option<(usize, usize)>,
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions {
            bless: Bless::No,
            timeout: Some(super::DEFAULT_TIMEOUT),
            jobs: 1,
            selection: Selection::default(),
            shard: None,
        }
    }
}

/// Checks one transcript file by replaying it in a child process of `exe` (the ragtag
/// binary), rewriting its outputs when `bless` is set and nothing went wrong. Each input may
/// run for `timeout` (`None`: no limit).
pub fn check_file_isolated(
    exe: &Path,
    path: &Path,
    bless: bool,
    timeout: Option<Duration>,
) -> FileResult {
    let options = RunOptions {
        bless: bless.into(),
        timeout,
        ..RunOptions::default()
    };
    check_selected(exe, path, &options).unwrap_or_else(|| FileResult {
        path: path.to_path_buf(),
        status: Status::Passed,
        blocks: Vec::new(),
    })
}

/// Checks one transcript in a child process; `None` when the selection leaves out all of
/// its blocks (it is not run).
fn check_selected(exe: &Path, path: &Path, options: &RunOptions) -> Option<FileResult> {
    let keep_file = || options.selection.keeps(&path.display().to_string());
    let mut blocks = Vec::new();
    let status = match super::read_transcript(path) {
        Err(e) => keep_file().then(|| Status::Error(format!("cannot read: {e}")))?,
        Ok(text) => match parse(&text) {
            Err(e) => keep_file().then(|| Status::Error(e.to_string()))?,
            Ok(t) => {
                let selected = options.selection.blocks(path, &t);
                if !options.selection.is_all() && !selected.iter().any(|s| *s) {
                    return None;
                }
                match replay_in_child(exe, path, &t, options.timeout) {
                    Err(e) => Status::Error(e),
                    Ok(actual) => {
                        let name = path.display().to_string();
                        let check = compare_selected(&t, &actual, &name, &selected);
                        blocks = check.blocks.clone();
                        settle(path, check, options.bless)
                    }
                }
            }
        },
    };
    Some(FileResult {
        path: path.to_path_buf(),
        status,
        blocks,
    })
}

/// Checks every transcript under `paths`, each in a child process of `exe`, `jobs` at a
/// time, calling `each` with every result in the order of the files. Finding no
/// transcript, or none with a block the selection keeps, is an error.
pub fn run_paths_isolated(
    exe: &Path,
    paths: &[PathBuf],
    options: &RunOptions,
    mut each: impl FnMut(&FileResult),
) -> std::io::Result<Summary> {
    let mut files = find_transcripts(paths)?;
    if let Some((i, n)) = options.shard {
        files = files
            .into_iter()
            .enumerate()
            .filter(|(k, _)| k % n.max(1) + 1 == i)
            .map(|(_, f)| f)
            .collect();
    }
    if files.is_empty() {
        let named: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
        return Err(std::io::Error::new(
            std::io::ErrorKind::NotFound,
            format!(
                "no transcripts (*.{}) found in {}",
                super::EXTENSION,
                named.join(", ")
            ),
        ));
    }
    let next = AtomicUsize::new(0);
    let (tx, rx) = mpsc::channel::<(usize, Option<FileResult>)>();
    let mut results: Vec<Option<FileResult>> = Vec::new();
    std::thread::scope(|scope| {
        for _ in 0..options.jobs.clamp(1, files.len()) {
            let tx = tx.clone();
            let (next, files) = (&next, &files);
            scope.spawn(move || loop {
                let k = next.fetch_add(1, Ordering::Relaxed);
                let Some(path) = files.get(k) else { break };
                if tx.send((k, check_selected(exe, path, options))).is_err() {
                    break;
                }
            });
        }
        drop(tx);
        // Reported in the order of the files: a result waits for those before it.
        let mut ready: Vec<Option<Option<FileResult>>> = files.iter().map(|_| None).collect();
        let mut shown = 0;
        for (k, r) in rx {
            ready[k] = Some(r);
            while let Some(Some(r)) = ready.get_mut(shown).map(Option::take) {
                if let Some(r) = &r {
                    each(r);
                }
                results.push(r);
                shown += 1;
            }
        }
    });
    let results: Vec<FileResult> = results.into_iter().flatten().collect();
    if results.is_empty() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::NotFound,
            format!(
                "no block of the {} transcripts found matches the filters",
                files.len()
            ),
        ));
    }
    Ok(Summary { results })
}
