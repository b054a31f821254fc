//! `ragtag review`: walking the pending changes `ragtag test --bless=new` wrote
//! (`NAME.rtt.new` beside `NAME.rtt`) block by block, as insta's `cargo insta review` does.
//!
//! For each block whose output changed, the review shows the diff of that block and asks,
//! one line of standard input per answer (so it works from a terminal and from a pipe):
//! `a` accept, `r` reject, `s` skip, `A` accept all remaining, `R` reject all remaining,
//! `t` toggle between the diff and the whole new block, `d` open the diff in the tool named
//! by `RAGTAG_DIFF_TOOL` (which is also opened for each block when set), `q` quit (the rest
//! is skipped). Accepted blocks are written into the transcript; the pending file is
//! consumed, or, when some blocks were skipped, rewritten to hold only those.
//!
//! `ragtag review --accept FILE[:LINE]` (and `--reject`) decides without asking: every
//! pending block of FILE, or only the one whose `>>>` is on LINE.

use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};

use super::diff;
use super::parse::{parse, Transcript};
use super::{pending_path, write_atomic};

/// What to do with one pending block.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decision {
    /// Write its new output into the transcript.
    Accept,
    /// Keep the transcript's output and drop the new one.
    Reject,
    /// Decide later: it stays pending.
    Skip,
}

/// How many blocks were accepted, rejected and skipped.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally {
    /// Written into their transcripts.
    pub accepted: usize,
    /// Dropped.
    pub rejected: usize,
    /// Still pending.
    pub skipped: usize,
}

impl Tally {
    /// `review: 2 accepted, 1 rejected, 0 skipped`.
    pub fn line(&self) -> String {
        format!(
            "review: {} accepted, {} rejected, {} skipped",
            self.accepted, self.rejected, self.skipped
        )
    }
}

/// One transcript with pending changes: the transcript, its pending file, and both read.
pub struct Pending {
    /// The transcript.
    pub path: PathBuf,
    /// Its `*.rtt.new`.
    pub new_path: PathBuf,
    old: Transcript,
    new: Transcript,
    /// The entries whose output changed.
    changed: Vec<usize>,
}

impl Pending {
    /// Reads a transcript and its pending file. They must have the same inputs (the pending
    /// file was blessed from the transcript), else the transcript changed since and the
    /// pending file is stale.
    pub fn read(path: &Path) -> Result<Pending, String> {
        if path.extension().is_none_or(|e| e != super::EXTENSION) {
            return Err(format!(
                "{}: review takes transcripts (.rtt); bless Markdown files and notebooks with \
                 `ragtag test --bless`",
                path.display()
            ));
        }
        let new_path = pending_path(path);
        let read = |p: &Path| -> Result<Transcript, String> {
            let text = super::read_transcript(p).map_err(|e| format!("{}: {e}", p.display()))?;
            parse(&text).map_err(|e| format!("{}: {e}", p.display()))
        };
        let (old, new) = (read(path)?, read(&new_path)?);
        let same_inputs = old.entries.len() == new.entries.len()
            && old
                .entries
                .iter()
                .zip(&new.entries)
                .all(|(a, b)| a.source == b.source);
        if !same_inputs {
            return Err(format!(
                "{} changed since {} was written (rerun `ragtag test --bless=new`)",
                path.display(),
                new_path.display()
            ));
        }
        let changed = (0..old.entries.len())
            .filter(|&k| old.expected_raw(&old.entries[k]) != new.expected_raw(&new.entries[k]))
            .collect();
        Ok(Pending {
            path: path.to_path_buf(),
            new_path,
            old,
            new,
            changed,
        })
    }

    /// The 1-based lines of the `>>>` of the changed blocks, in the transcript.
    pub fn lines(&self) -> Vec<usize> {
        self.changed
            .iter()
            .map(|&k| self.old.entries[k].line + 1)
            .collect()
    }

    fn old_block(&self, k: usize) -> Vec<String> {
        self.old.lines[self.old.entries[k].output.clone()].to_vec()
    }

    fn new_block(&self, k: usize) -> Vec<String> {
        self.new.lines[self.new.entries[k].output.clone()].to_vec()
    }

    /// The diff of one changed block (the `k`-th of [`Pending::lines`]).
    pub fn block_diff(&self, k: usize) -> String {
        let e = self.changed[k];
        diff::unified("expected", "new", &self.old_block(e), &self.new_block(e))
    }

    /// The whole new block: its input and new output.
    pub fn whole_block(&self, k: usize) -> String {
        let e = &self.new.entries[self.changed[k]];
        let lines = &self.new.lines[e.line..e.output.end];
        lines.iter().map(|l| format!("{l}\n")).collect()
    }

    /// Applies one decision per changed block: accepted outputs go into the transcript;
    /// the pending file is removed, or rewritten with only the skipped blocks' changes.
    pub fn apply(&self, decisions: &[Decision]) -> std::io::Result<()> {
        let pick = |want: &dyn Fn(Decision) -> bool| -> Vec<Option<Vec<String>>> {
            let mut outputs = vec![None; self.old.entries.len()];
            for (&e, &d) in self.changed.iter().zip(decisions) {
                if want(d) {
                    outputs[e] = Some(self.new_block(e));
                }
            }
            outputs
        };
        let accepted = pick(&|d| d == Decision::Accept);
        if accepted.iter().any(Option::is_some) {
            let lines = self.old.with_outputs(&accepted);
            write_atomic(&self.path, &self.old.join(&lines))?;
        }
        if decisions.contains(&Decision::Skip) {
            let kept = pick(&|d| d != Decision::Reject);
            let lines = self.old.with_outputs(&kept);
            write_atomic(&self.new_path, &self.old.join(&lines))
        } else {
            std::fs::remove_file(&self.new_path)
        }
    }
}

/// The transcripts with a pending file under `paths` (a path may name a transcript or its
/// pending file; directories are searched recursively, skipping hidden ones and `target`).
pub fn find_pending(paths: &[PathBuf]) -> std::io::Result<Vec<PathBuf>> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
        for (p, name) in super::files::sorted_entries(dir)? {
            if p.is_dir() && !p.is_symlink() {
                if !name.starts_with('.') && name != "target" {
                    walk(&p, out)?;
                }
            } else if let Some(t) = name.strip_suffix(".new") {
                if t.ends_with(&format!(".{}", super::EXTENSION)) {
                    out.push(p.with_file_name(t));
                }
            }
        }
        Ok(())
    }
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            walk(p, &mut out)?;
        } else {
            let s = p.to_string_lossy();
            let t = s
                .strip_suffix(".new")
                .map_or_else(|| p.clone(), PathBuf::from);
            if !pending_path(&t).is_file() {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::NotFound,
                    format!(
                        "{}: no pending changes ({} does not exist)",
                        t.display(),
                        pending_path(&t).display()
                    ),
                ));
            }
            out.push(t);
        }
    }
    Ok(out)
}

/// `FILE` or `FILE:LINE`: the transcript (its pending file may be named instead) and the
/// line of one block's `>>>`.
pub fn parse_target(text: &str) -> (PathBuf, Option<usize>) {
    if let Some((file, line)) = text.rsplit_once(':') {
        if let Ok(n) = line.parse::<usize>() {
            let t = file.strip_suffix(".new").unwrap_or(file);
            return (PathBuf::from(t), Some(n));
        }
    }
    (
        PathBuf::from(text.strip_suffix(".new").unwrap_or(text)),
        None,
    )
}

/// `--accept FILE[:LINE]` / `--reject FILE[:LINE]`: decides every pending block of FILE,
/// or the one whose `>>>` is on LINE, without asking; the file's other blocks stay pending.
pub fn decide(target: &str, decision: Decision) -> Result<Tally, String> {
    let (path, line) = parse_target(target);
    let pending = Pending::read(&path)?;
    let lines = pending.lines();
    if let Some(n) = line {
        if !lines.contains(&n) {
            let listed: Vec<String> = lines.iter().map(ToString::to_string).collect();
            return Err(format!(
                "{}:{n}: no pending block starts on that line (pending: lines {})",
                path.display(),
                listed.join(", ")
            ));
        }
    }
    let decisions: Vec<Decision> = lines
        .iter()
        .map(|l| {
            if line.is_none_or(|n| n == *l) {
                decision
            } else {
                Decision::Skip
            }
        })
        .collect();
    pending
        .apply(&decisions)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let mut tally = Tally::default();
    for d in decisions {
        match d {
            Decision::Accept => tally.accepted += 1,
            Decision::Reject => tally.rejected += 1,
            Decision::Skip => tally.skipped += 1,
        }
    }
    Ok(tally)
}

/// The prompt after each block.
const PROMPT: &str =
    "[a]ccept [r]eject [s]kip  [A]ccept all remaining [R]eject all remaining  [t]oggle diff/block [d]iff tool [q]uit > ";

/// Opens `tool OLD NEW` (the tool's words split at spaces) on two temporary files holding a
/// block's expected and new output, and waits for it.
fn open_tool(tool: &str, pending: &Pending, k: usize) -> std::io::Result<()> {
    let e = pending.changed[k];
    let dir = std::env::temp_dir().join(format!("ragtag-review-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let (old, new) = (dir.join("expected.txt"), dir.join("new.txt"));
    let text = |lines: Vec<String>| lines.iter().map(|l| format!("{l}\n")).collect::<String>();
    std::fs::write(&old, text(pending.old_block(e)))?;
    std::fs::write(&new, text(pending.new_block(e)))?;
    let mut words = tool.split_whitespace();
    let program = words.next().unwrap_or("diff");
    let status = std::process::Command::new(program)
        .args(words)
        .arg(&old)
        .arg(&new)
        .status();
    let _ = std::fs::remove_dir_all(&dir);
    status.map(|_| ())
}

/// Reviews every pending block of `files` interactively: answers are read a line at a
/// time from `input`, and the end of input skips whatever is left.
pub fn review(
    files: &[PathBuf],
    input: &mut dyn BufRead,
    out: &mut dyn Write,
    diff_tool: Option<&str>,
    colour: bool,
    echo: bool,
) -> std::io::Result<Tally> {
    let mut tally = Tally::default();
    // `A` or `R` decides every block after it, in every file.
    let mut all: Option<Decision> = None;
    let show = |text: &str| {
        if colour {
            super::colour::colourize(text)
        } else {
            text.to_string()
        }
    };
    for path in files {
        let pending = match Pending::read(path) {
            Ok(p) => p,
            Err(e) => {
                writeln!(out, "skipping: {e}")?;
                continue;
            }
        };
        let lines = pending.lines();
        let mut decisions = Vec::new();
        for (k, line) in lines.iter().enumerate() {
            let decision = if let Some(d) = all {
                d
            } else {
                writeln!(
                    out,
                    "{}:{line} ({} of {})",
                    path.display(),
                    k + 1,
                    lines.len()
                )?;
                let mut whole = false;
                match diff_tool {
                    Some(tool) => open_tool(tool, &pending, k)?,
                    None => write!(out, "{}", show(&pending.block_diff(k)))?,
                }
                loop {
                    write!(out, "{PROMPT}")?;
                    out.flush()?;
                    let mut answer = String::new();
                    if input.read_line(&mut answer)? == 0 {
                        writeln!(out)?;
                        all = Some(Decision::Skip);
                        break Decision::Skip;
                    }
                    if echo {
                        // Piped answers are not echoed by a terminal: show them.
                        writeln!(out, "{}", answer.trim())?;
                    }
                    match answer.trim() {
                        "a" => break Decision::Accept,
                        "r" => break Decision::Reject,
                        "s" | "" => break Decision::Skip,
                        "A" => {
                            all = Some(Decision::Accept);
                            break Decision::Accept;
                        }
                        "R" => {
                            all = Some(Decision::Reject);
                            break Decision::Reject;
                        }
                        "q" => {
                            all = Some(Decision::Skip);
                            break Decision::Skip;
                        }
                        "t" => {
                            whole = !whole;
                            if whole {
                                write!(out, "{}", pending.whole_block(k))?;
                            } else {
                                write!(out, "{}", show(&pending.block_diff(k)))?;
                            }
                        }
                        "d" => match diff_tool {
                            Some(tool) => open_tool(tool, &pending, k)?,
                            None => writeln!(
                                out,
                                "set RAGTAG_DIFF_TOOL to open an external diff (e.g. `vimdiff`)"
                            )?,
                        },
                        other => writeln!(out, "`{other}`: answer a, r, s, A, R, t, d or q")?,
                    }
                }
            };
            match decision {
                Decision::Accept => tally.accepted += 1,
                Decision::Reject => tally.rejected += 1,
                Decision::Skip => tally.skipped += 1,
            }
            decisions.push(decision);
        }
        pending.apply(&decisions)?;
    }
    Ok(tally)
}

/// `ragtag review`: the decisions given by `--accept`/`--reject`, else the interactive
/// review of every pending file under `paths` (default `.`); prints the tally.
pub fn run(accept: &[String], reject: &[String], paths: Vec<PathBuf>) -> std::process::ExitCode {
    use std::io::IsTerminal;
    use std::process::ExitCode;
    let mut out = std::io::stdout().lock();
    if !accept.is_empty() || !reject.is_empty() {
        let mut tally = Tally::default();
        let targets = accept
            .iter()
            .map(|t| (t, Decision::Accept))
            .chain(reject.iter().map(|t| (t, Decision::Reject)));
        for (target, decision) in targets {
            match decide(target, decision) {
                Ok(t) => {
                    tally.accepted += t.accepted;
                    tally.rejected += t.rejected;
                    tally.skipped += t.skipped;
                }
                Err(e) => {
                    eprintln!("ragtag: {e}");
                    return ExitCode::FAILURE;
                }
            }
        }
        let _ = writeln!(out, "{}", tally.line());
        return ExitCode::SUCCESS;
    }
    let paths = if paths.is_empty() {
        vec![PathBuf::from(".")]
    } else {
        paths
    };
    let files = match find_pending(&paths) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("ragtag: {e}");
            return ExitCode::FAILURE;
        }
    };
    if files.is_empty() {
        let _ = writeln!(out, "review: nothing pending (no *.rtt.new files)");
        return ExitCode::SUCCESS;
    }
    let tool = std::env::var("RAGTAG_DIFF_TOOL")
        .ok()
        .filter(|t| !t.trim().is_empty());
    let colour = std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none();
    let stdin = std::io::stdin();
    let echo = !stdin.is_terminal();
    let mut input = stdin.lock();
    match review(&files, &mut input, &mut out, tool.as_deref(), colour, echo) {
        Ok(tally) => {
            let _ = writeln!(out, "{}", tally.line());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("ragtag: {e}");
            ExitCode::FAILURE
        }
    }
}
