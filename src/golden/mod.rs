//! Golden transcripts: files that show a ragtag session — inputs and the output ragtag
//! printed for each — replayed by `ragtag test` (and `cargo test`) and diffed.
//!
//! # Format (`*.rtt`, "ragtag transcript")
//!
//! ```text
//! # Comments start with `#` at the beginning of a line.
//! >>> rt = tf.ragged.constant([[1, 2], [3]])
//! >>> rt.row_lengths()
//! Tensor  dtype=int64  shape=[2]
//! ┌───┬───┐
//! …
//!
//! >>> tf.reduce_sum(rt,
//! ...               axis=1)
//! …
//! ```
//!
//! The rules, line by line:
//!
//! - A line starting with `>>>` starts an input; the rest of it (after one optional space) is
//!   the input's first line. Lines right after it starting with `...` continue the input
//!   (a line that is `...` alone is the wildcard below, never a continuation).
//!   Each input is one cell, run as a notebook runs one
//!   ([`command::cell::run_cell`](crate::command::cell::run_cell)): its code, and `:` commands,
//!   `%` magics and `!` shell lines on their own lines, in order.
//!   A line starting with `>>` but not `>>>` is an error, not output.
//! - The first line of an input may end in a marker comment, which is not part of the code
//!   that runs: `# raises ValueError` (the input must fail with that class: an error is
//!   expected output only when its input says so, and an unmarked one fails the transcript
//!   and is never blessed), or `# may vary` (the input runs, but its output is not compared
//!   and blessing keeps it as written).
//! - A line starting with `#` is a comment. Outside an input it also ends the previous
//!   output. (A `#` inside an input line is part of the code, as in Python.)
//! - A comment `# ragtag: rtol=1e-3 atol=0` (or `precision=written`) is a directive: before
//!   the first input it sets the tolerance for the whole file, later for the next input
//!   only. An unknown setting, or a near miss of the marker (`#ragtag:`, `# ragtg:`), is an
//!   error with its line.
//! - Every other line after an input is its expected output, up to the next `>>>` line or
//!   `#` comment. Blank lines *inside* an output are part of it (help text and printed text
//!   may contain them); trailing blank lines are not — they separate entries and are kept as
//!   they are when blessing.
//! - An output line that itself starts with `>>`, `...`, `#` or `\`, or that reads as a
//!   pattern (below), is written with a `\` in front, so every line has exactly one reading.
//! - Outputs are compared after removing trailing whitespace from every line. Before the
//!   first input, and after a comment, only comments and blank lines may appear.
//!
//! # Patterns and tolerance ([`matching`])
//!
//! In an expected output, `...` alone on a line stands for any number of lines, `[..]` for
//! any text within a line, `[TIME]` for a duration (`0.019 ms`) and `[PATH]` for a path
//! without spaces (a directive `# ragtag: [ID]=id-[0-9]+` adds placeholders of the file's
//! own; the regex may not contain spaces: write `\s`); a line ending in ` (re)` is a regex
//! the whole line must match. Numbers
//! compare within a tolerance: integers exactly, NaN equal to NaN, floats within `atol +
//! rtol * max(|a|, |b|)`, where rtol follows the dtype of the nearest `dtype=` annotation
//! above (float16 1e-3, bfloat16 1e-2, float32 1e-6, float64 and Python floats 1e-12) unless
//! a directive sets it; with `# ragtag: precision=written` a float also matches any that
//! rounds to it at the decimals it is written with (`2.83` for 2.8284271). Runs of spaces
//! and of table rules count as one, so a number printed wider still matches its column.
//!
//! What an input's output is: each displayed value as a table (width [`run::WIDTH`], or
//! the N of a `# ragtag: width=N` directive; Unicode, no colour), what `print` wrote, the text of a meta-command, and finally the
//! error report of a failing input rendered by miette in its plain (no-colour) Unicode style
//! at the same width. Cells are named `<cell N>` as in the REPL. `:time`'s duration is
//! matched by `took [TIME]`.
//!
//! # Isolation and the timeout
//!
//! `ragtag test` replays each transcript in a child process of its own binary (`ragtag test
//! --one FILE`, see [`isolate`]), started in the transcript's folder so that the relative
//! paths it names resolve there, and `-j N` of them at once ([`team`]; the report keeps the
//! order of the files). The child reports each input as it starts and finishes. An
//! input that takes that process down — a stack overflow, a failed allocation, an abort —
//! fails its transcript with `input 3 (line 17) aborted the process: signal SIGABRT` and the
//! last lines the process wrote to standard error; the inputs after it do not run, and the
//! run goes on with the next transcript.
//!
//! Each input may run for `--timeout` seconds (default 10, `0` for no limit). Then the
//! session's cancel flag is set: an input that notices stops with `KeyboardInterrupt`, the
//! session goes on with the next input, and the transcript fails with `input 3 (line 17) did
//! not finish within 10 s`. An input still running after a grace period ([`isolate::grace`])
//! is killed with its process, and the transcript fails the same way.
//!
//! The library functions [`check_text`], [`check_file`] and [`run_paths`] replay in this
//! process instead, without a timeout and in the process's working directory: they catch
//! panics but cannot survive an abort.
//!
//! # Failures that are never blessed
//!
//! An input that panics, fails with `InternalError` (a panic the session caught: a bug in
//! ragtag), times out, aborts the process, raises an error its line does not mark, or does
//! not raise the one it marks fails its transcript whatever the expected output says
//! ([`Fault`]), and such a transcript is never blessed.
//!
//! # Blessing
//!
//! `ragtag test --bless` rewrites the output lines that differ, and nothing else: the actual
//! output is first normalised to the expected one (every line a pattern or a tolerance
//! matches is written as it was expected, the lines a `...` absorbs as the `...`), so
//! inputs, markers, comments, directives, blank lines, wildcards and matching lines stay
//! byte for byte, and blessing an up-to-date transcript leaves the file untouched.
//! `--bless=new` writes the blessed text to `NAME.rtt.new` beside the transcript instead
//! (which still fails), and so does `--bless` when the environment variable `CI` is set: a
//! CI job never rewrites the checked-in expectations. The new text is written to a temporary file in the
//! same directory, synced to disk, and renamed over the old one; then the directory is
//! synced, where the system allows. A transcript reached through a symbolic link is written
//! where the link points, and the link stays a link.
//!
//! # Differences in tensor words ([`tensor`])
//!
//! When a block differs and both the expected and the actual output show tensors (ragtag's
//! table, or the `tf.Tensor(…)`, `<tf.RaggedTensor …>`, `SparseTensor(…)`, `LoDTensor(…)`
//! forms `print` writes), both are read back as tensors and the report names the first
//! difference before the text diff: kind and dtype, then ragged_rank and the uniform
//! dimensions, then the row partition (`row 3 of level 1: expected 2 values, got 3`, LoD
//! offsets, sparse indices), then the values within the dtype's tolerance (`[2][1]:
//! expected 0.5, got 0.6 (float32; rtol 1e-06)`).
//!
//! # Rerunning and reviewing
//!
//! Every run keeps the transcripts that failed in `.ragtag/last-failed` in the working
//! directory ([`last_failed`]); `ragtag test --failed` runs only those, or all when none
//! failed. `ragtag review` ([`review`]) walks the pending `*.rtt.new` files block by block:
//! accept, reject or skip each, or all remaining; `--accept FILE[:LINE]` decides without
//! asking.
//!
//! # Markdown and notebooks
//!
//! A Markdown file's ```` ```ragtag ```` blocks run as a transcript, numbered by the file's
//! own lines ([`documents`]); a notebook's code cells and their outputs run as one
//! ([`notebook`]), and `ragtag test --convert` turns a transcript into a notebook and back.
//! Both are blessed in place: only the blocks' (cells') outputs change.

pub mod colour;
mod compare;
pub mod diff;
pub mod directive;
pub mod documents;
mod files;
pub mod isolate;
mod junit;
pub mod last_failed;
pub mod matching;
pub mod notebook;
pub mod parse;
pub mod review;
pub mod run;
pub mod team;
pub mod tensor;

pub use files::{find_transcripts, read_transcript, write_atomic};

use std::path::{Path, PathBuf};

pub use compare::{
    compare, compare_selected, pending_path, settle, Bless, Block, BlockOutcome, Check,
};
pub use isolate::DEFAULT_TIMEOUT;
pub use junit::junit_xml;
pub use parse::{parse, Entry, ParseError, Transcript};
pub use run::{replay, Actual, Fault};
pub use team::{check_file_isolated, run_paths_isolated, RunOptions, Selection};

/// The extension of transcript files.
pub const EXTENSION: &str = "rtt";

/// A [`Fault`] and the input it happened in.
#[derive(Debug, Clone, PartialEq)]
pub struct InputFault {
    /// The input's number, counted from 1 in the order of the transcript.
    pub input: usize,
    /// The 1-based line of the input's `>>>`.
    pub line: usize,
    /// What happened.
    pub fault: Fault,
}

impl std::fmt::Display for InputFault {
    /// `input 3 (line 17) aborted the process: signal SIGSEGV`, then what the process last
    /// wrote to standard error, indented.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "input {} (line {}) {}",
            self.input, self.line, self.fault
        )?;
        if let Fault::Aborted { stderr, .. } = &self.fault {
            for l in stderr.lines().filter(|l| !l.trim().is_empty()) {
                write!(f, "\n    | {l}")?;
            }
        }
        Ok(())
    }
}

/// Replays a transcript's text in this process and compares; `name` labels the diff.
pub fn check_text(text: &str, name: &str) -> Result<Check, ParseError> {
    let t = parse(text)?;
    let actual: Vec<Option<Actual>> = replay(&t).into_iter().map(Some).collect();
    Ok(compare(&t, &actual, name))
}

/// What happened to one transcript file.
#[derive(Debug, Clone)]
pub enum Status {
    /// Every output matched.
    Passed,
    /// Outputs differed and the file was rewritten (`--bless`).
    Blessed,
    /// Outputs differ; the blessed text was written beside the transcript to the file
    /// named (`--bless=new`, or `--bless` under CI), and the transcript left as it was.
    Pending(Check, PathBuf),
    /// Outputs differ, or an input panicked, timed out or aborted the process.
    Failed(Check),
    /// The file could not be read, parsed or written, or the process replaying it failed
    /// outside any input.
    Error(String),
}

/// One transcript's result.
#[derive(Debug, Clone)]
pub struct FileResult {
    /// The transcript.
    pub path: PathBuf,
    /// What happened.
    pub status: Status,
    /// Each input's block and what happened to it (empty when the file could not be read,
    /// parsed or replayed).
    pub blocks: Vec<Block>,
}

impl FileResult {
    /// Passed or blessed.
    pub fn ok(&self) -> bool {
        matches!(self.status, Status::Passed | Status::Blessed)
    }

    /// The report of a file that did not pass: a `FAIL path` line, then the reason
    /// (faults, the diff, or the error). Empty for a passing or blessed file.
    pub fn report(&self) -> String {
        let path = self.path.display();
        match &self.status {
            Status::Passed | Status::Blessed => String::new(),
            Status::Error(e) => format!("FAIL {path}: {e}\n"),
            Status::Failed(c) | Status::Pending(c, _) => {
                let mut s = format!("FAIL {path}\n");
                for f in &c.faults {
                    s.push_str(&format!("  {f}\n"));
                }
                match c.not_run {
                    0 => {}
                    1 => s.push_str("  (the input after it did not run)\n"),
                    n => s.push_str(&format!("  (the {n} inputs after it did not run)\n")),
                }
                for note in &c.notes {
                    s.push_str(&format!("  {note}\n"));
                }
                s.push_str(&c.diff);
                if let Status::Pending(_, new) = &self.status {
                    s.push_str(&format!("  pending: wrote {}\n", new.display()));
                }
                s
            }
        }
    }
}

/// Checks one transcript file in this process, rewriting its outputs when `bless` is set.
pub fn check_file(path: &Path, bless: bool) -> FileResult {
    let mut blocks = Vec::new();
    let status = match read_transcript(path) {
        Err(e) => Status::Error(format!("cannot read: {e}")),
        Ok(text) => match check_text(&text, &path.display().to_string()) {
            Err(e) => Status::Error(e.to_string()),
            Ok(c) => {
                blocks = c.blocks.clone();
                settle(path, c, bless)
            }
        },
    };
    FileResult {
        path: path.to_path_buf(),
        status,
        blocks,
    }
}

/// The results of a run over many transcripts.
#[derive(Debug, Clone, Default)]
pub struct Summary {
    /// One per transcript, in order.
    pub results: Vec<FileResult>,
}

impl Summary {
    /// How many passed (or were blessed).
    pub fn passed(&self) -> usize {
        self.results.iter().filter(|r| r.ok()).count()
    }
    /// How many failed.
    pub fn failed(&self) -> usize {
        self.results.len() - self.passed()
    }
    /// The closing line: `N passed, N failed`.
    pub fn line(&self) -> String {
        format!("{} passed, {} failed", self.passed(), self.failed())
    }
    /// Every failing transcript's report, concatenated.
    pub fn failures(&self) -> String {
        self.results.iter().map(FileResult::report).collect()
    }
}

/// Checks every transcript under `paths` in this process (see [`run_paths_isolated`] for
/// one process per transcript).
pub fn run_paths(paths: &[PathBuf], bless: bool) -> std::io::Result<Summary> {
    Ok(Summary {
        results: find_transcripts(paths)?
            .iter()
            .map(|p| check_file(p, bless))
            .collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_matching_transcript_passes() {
        let c = check_text(">>> x = 2\n>>> x + 1\n3\n", "t").unwrap();
        assert!(c.passed, "{}", c.diff);
        assert!(c.blessed.is_none());
    }

    #[test]
    fn a_wrong_output_fails_with_a_diff_and_blesses() {
        let text = "# c\n>>> 1 + 1\n3\n\n>>> print('hi')\n";
        let c = check_text(text, "t.rtt").unwrap();
        assert!(!c.passed);
        assert!(c.diff.contains("@@ -1,5 +1,6 @@"), "{}", c.diff);
        assert!(c.diff.contains("-3\n+2\n"), "{}", c.diff);
        assert!(c.diff.contains("+hi\n"), "{}", c.diff);
        let blessed = c.blessed.unwrap();
        assert_eq!(blessed, "# c\n>>> 1 + 1\n2\n\n>>> print('hi')\nhi\n");
        let again = check_text(&blessed, "t.rtt").unwrap();
        assert!(again.passed && again.blessed.is_none());
    }

    #[test]
    fn errors_are_rendered_plainly_and_names_persist() {
        let c = check_text(">>> x = 1\n>>> y  # raises NameError\n>>> x\n1\n", "t").unwrap();
        let blessed = c.blessed.unwrap();
        assert!(blessed.contains("NameError"), "{blessed}");
        assert!(!blessed.contains('\u{1b}'), "no colour: {blessed}");
        assert!(check_text(&blessed, "t").unwrap().passed);
    }

    #[test]
    fn a_fault_fails_and_is_never_blessed() {
        let t = parse(">>> 1 + 1\n2\n>>> 2 + 2\nold\n>>> 3\n3\n").unwrap();
        let actual = [
            Some(Actual {
                lines: vec!["2".into()],
                fault: Some(Fault::Internal {
                    message: "a bug in ragtag".into(),
                }),
                error: Some("InternalError".into()),
            }),
            Some(Actual {
                lines: vec!["4".into()],
                fault: None,
                error: None,
            }),
            // Never ran: its expected output is kept.
            None,
        ];
        let c = compare(&t, &actual, "t");
        assert!(!c.passed);
        assert_eq!(c.not_run, 1);
        assert_eq!(
            c.faults,
            [InputFault {
                input: 1,
                line: 1,
                fault: Fault::Internal {
                    message: "a bug in ragtag".into()
                }
            }]
        );
        assert_eq!(
            c.faults[0].to_string(),
            "input 1 (line 1) raised InternalError: a bug in ragtag"
        );
        assert!(c.diff.contains("-old\n+4\n"), "{}", c.diff);
        assert_eq!(
            c.blessed.as_deref(),
            Some(">>> 1 + 1\n2\n>>> 2 + 2\n4\n>>> 3\n3\n")
        );
        fails_and_leaves_the_file(c, "fault");
    }

    /// Settling a failed check with `--bless` reports a failure and leaves the file as it was.
    fn fails_and_leaves_the_file(c: Check, name: &str) {
        let dir = std::env::temp_dir().join(format!("ragtag-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("t.rtt");
        std::fs::write(&path, "unchanged").unwrap();
        assert!(matches!(settle(&path, c, true), Status::Failed(_)));
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "unchanged");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn fault_reports_name_the_input_and_line() {
        let f = |fault| InputFault {
            input: 3,
            line: 17,
            fault,
        };
        assert_eq!(
            f(Fault::Aborted {
                how: "signal SIGSEGV".into(),
                stderr: "thread 'main' has overflowed its stack\n\nfatal".into()
            })
            .to_string(),
            "input 3 (line 17) aborted the process: signal SIGSEGV\n    \
             | thread 'main' has overflowed its stack\n    | fatal"
        );
        assert_eq!(
            f(Fault::TimedOut { seconds: 10.0 }).to_string(),
            "input 3 (line 17) did not finish within 10 s (interrupted)"
        );
        assert_eq!(
            f(Fault::Killed {
                seconds: 0.5,
                after: 3.52
            })
            .to_string(),
            "input 3 (line 17) did not finish within 0.5 s and ignored the interrupt; \
             killed after 3.5 s"
        );
    }

    #[test]
    fn an_unmarked_error_fails_and_is_never_blessed() {
        let c = check_text(">>> y\n>>> 1 + 1  # raises ValueError\n2\n", "t").unwrap();
        assert!(!c.passed);
        let faults: Vec<String> = c.faults.iter().map(ToString::to_string).collect();
        assert_eq!(
            faults,
            [
                "input 1 (line 1) raised NameError, but its line is not marked `# raises \
                 NameError` (add the marker if the error is expected)",
                "input 2 (line 2) is marked `# raises ValueError` but raised nothing"
            ]
        );
        fails_and_leaves_the_file(c, "unmarked");
    }

    #[test]
    fn meta_commands_run() {
        let c = check_text(">>> x = 1\n>>> :vars\n", "t").unwrap();
        assert!(c.blessed.unwrap().contains(">>> :vars\nx "));
    }

    #[test]
    fn print_lines_that_look_like_prompts_are_escaped() {
        let c = check_text(">>> print('>>> 1\\n# no')\n", "t").unwrap();
        let blessed = c.blessed.unwrap();
        assert_eq!(blessed, ">>> print('>>> 1\\n# no')\n\\>>> 1\n\\# no\n");
        assert!(check_text(&blessed, "t").unwrap().passed);
    }
}
