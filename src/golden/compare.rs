//! Comparing what a transcript's inputs produced with what it expects, block by block, and
//! settling the result: passed, blessed in place, written to a pending `*.rtt.new`, or
//! failed.

use std::path::{Path, PathBuf};

use super::diff::{self, Op};
use super::documents::file_text;
use super::matching::{self, first_number_difference, tolerances};
use super::parse::{escape, Transcript};
use super::run::{Actual, Fault};
use super::{write_atomic, InputFault, Status};

/// What happened to one input's block.
#[derive(Debug, Clone, PartialEq)]
pub enum BlockOutcome {
    /// It ran and its output matched (or, marked `# may vary`, was not compared).
    Passed,
    /// Its output differed, or it went wrong: the message says how.
    Failed(String),
    /// Left out by `--filter`/`--filter-out`: it ran, for the inputs after it, but was not
    /// compared.
    Skipped,
    /// It never ran (an earlier input took the process down).
    NotRun,
}

/// One input's block and what happened to it.
#[derive(Debug, Clone, PartialEq)]
pub struct Block {
    /// The 1-based line of its `>>>`.
    pub line: usize,
    /// What happened.
    pub outcome: BlockOutcome,
}

/// The outcome of checking one transcript's text.
#[derive(Debug, Clone)]
pub struct Check {
    /// Every output matched and nothing went wrong.
    pub passed: bool,
    /// A unified diff from the transcript to its blessed form (empty when outputs match).
    pub diff: String,
    /// The inputs that panicked, failed with `InternalError`, timed out, took the process
    /// down, or raised an error their line does not mark, in order.
    pub faults: Vec<InputFault>,
    /// How many inputs did not run because an earlier one took the process down or was
    /// killed.
    pub not_run: usize,
    /// The blessed text, when it differs from the transcript (inputs that did not run
    /// keep their expected output).
    pub blessed: Option<String>,
    /// Each input's block, in order.
    pub blocks: Vec<Block>,
    /// For each changed block whose first changed line differs only in its numbers, the
    /// first such number: `line 17: expected 0.5, got 0.6 (float32; rtol 1e-6, atol 0)`.
    pub notes: Vec<String>,
}

/// Compares what the inputs of `t` produced with what it expects; `actual[k]` is `None`
/// for an input that never finished (its expected output is kept). `name` labels the diff.
pub fn compare(t: &Transcript, actual: &[Option<Actual>], name: &str) -> Check {
    let all: Vec<bool> = t.entries.iter().map(|_| true).collect();
    compare_selected(t, actual, name, &all)
}

/// The fault of an input beyond its output: what the run recorded, else an error its line
/// does not mark, or a marked error that did not happen.
fn fault_of(raises: Option<&str>, a: &Actual) -> Option<Fault> {
    if let Some(f) = &a.fault {
        return Some(f.clone());
    }
    match (raises, a.error.as_deref()) {
        (None, Some(class)) => Some(Fault::Unmarked {
            class: class.to_string(),
        }),
        // A class with a module path in its traceback (`json.decoder.JSONDecodeError`)
        // matches its name, as the marker is read.
        (Some(expected), got)
            if got.map(|g| g.rsplit('.').next().unwrap_or(g)) != Some(expected) =>
        {
            Some(Fault::WrongRaise {
                expected: expected.to_string(),
                got: got.map(String::from),
            })
        }
        _ => None,
    }
}

/// [`compare`], comparing only the blocks whose `selected[k]` is true (the others run but
/// are not compared).
pub fn compare_selected(
    t: &Transcript,
    actual: &[Option<Actual>],
    name: &str,
    selected: &[bool],
) -> Check {
    let mut outputs: Vec<Option<Vec<String>>> = Vec::new();
    let mut faults = Vec::new();
    let mut blocks = Vec::new();
    let mut notes = Vec::new();
    for (k, (entry, got)) in t.entries.iter().zip(actual).enumerate() {
        let line = entry.line + 1;
        let Some(got) = got else {
            outputs.push(None);
            blocks.push(Block {
                line,
                outcome: BlockOutcome::NotRun,
            });
            continue;
        };
        if !selected.get(k).copied().unwrap_or(true) {
            outputs.push(None);
            blocks.push(Block {
                line,
                outcome: BlockOutcome::Skipped,
            });
            continue;
        }
        let fault = fault_of(entry.raises.as_deref(), got);
        let expected = t.expected_raw(entry);
        let new = if entry.may_vary {
            None
        } else {
            let actual_lines: Vec<String> = got.lines.iter().map(|l| escape(l)).collect();
            let normalized = matching::normalize(&expected, &actual_lines, &entry.settings);
            (normalized != expected).then_some(normalized)
        };
        let mut why = Vec::new();
        if let Some(f) = &fault {
            let f = InputFault {
                input: k + 1,
                line,
                fault: f.clone(),
            };
            why.push(f.to_string());
            faults.push(f);
        }
        if let Some(new) = &new {
            let tensor_note = super::tensor::first_difference(&expected, new, &entry.settings)
                .map(|d| format!("line {}: {d}", entry.output.start + 1));
            if let Some(note) = tensor_note.or_else(|| number_note(entry, &expected, new)) {
                notes.push(note);
            }
            why.push(diff::unified("expected", "actual", &expected, new));
        }
        blocks.push(Block {
            line,
            outcome: if why.is_empty() {
                BlockOutcome::Passed
            } else {
                BlockOutcome::Failed(why.join("\n"))
            },
        });
        outputs.push(new);
    }
    let changed = outputs.iter().any(Option::is_some);
    let (diff, blessed) = if changed {
        let new_lines = t.with_outputs(&outputs);
        let diff = diff::unified(
            &format!("{name} (expected)"),
            &format!("{name} (actual)"),
            &t.lines,
            &new_lines,
        );
        (diff, Some(t.join(&new_lines)))
    } else {
        (String::new(), None)
    };
    let not_run = actual.iter().filter(|a| a.is_none()).count();
    Check {
        passed: !changed && faults.is_empty() && not_run == 0,
        diff,
        faults,
        not_run,
        blessed,
        blocks,
        notes,
    }
}

/// The first number that differs beyond the tolerance in a changed block, when the first
/// changed line pairs with a line of the same text otherwise.
fn number_note(entry: &super::Entry, expected: &[String], new: &[String]) -> Option<String> {
    let ops = diff::edit_script(expected, new);
    let deleted = ops.iter().find_map(|op| match op {
        Op::Delete(i) => Some(*i),
        _ => None,
    })?;
    let inserted = ops.iter().find_map(|op| match op {
        Op::Insert(j) => Some(*j),
        _ => None,
    })?;
    let tol = tolerances(expected, &entry.settings)[deleted];
    let (e, a) = first_number_difference(&expected[deleted], &new[inserted], tol)?;
    let line = entry.output.start + deleted + 1;
    if matching::is_integer(e) && matching::is_integer(a) {
        return Some(format!(
            "line {line}: expected {e}, got {a} (integers are exact)"
        ));
    }
    Some(format!(
        "line {line}: expected {e}, got {a} ({}; rtol {:e}, atol {:e})",
        tol.dtype.unwrap_or("float64"),
        tol.rtol,
        tol.atol
    ))
}

/// What `--bless` does with a transcript whose outputs differ.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Bless {
    /// Nothing: the transcript fails.
    #[default]
    No,
    /// Rewrite the transcript in place.
    All,
    /// Write the blessed text beside it as `NAME.rtt.new`, and leave it as it was (the
    /// transcript still fails).
    New,
}

impl From<bool> for Bless {
    fn from(b: bool) -> Bless {
        if b {
            Bless::All
        } else {
            Bless::No
        }
    }
}

/// Where `--bless=new` writes the blessed text of `path`.
pub fn pending_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".new");
    PathBuf::from(name)
}

/// The status of a checked transcript, blessing it (when asked and nothing went wrong).
pub fn settle(path: &Path, check: Check, bless: impl Into<Bless>) -> Status {
    if check.passed {
        return Status::Passed;
    }
    let clean = check.faults.is_empty() && check.not_run == 0;
    match (&check.blessed, bless.into(), clean) {
        (Some(new), Bless::All, true) => {
            match file_text(path, new).and_then(|t| write_atomic(path, &t)) {
                Ok(()) => Status::Blessed,
                Err(e) => Status::Error(format!("cannot write: {e}")),
            }
        }
        (Some(new), Bless::New, true) => {
            let pending = pending_path(path);
            match file_text(path, new).and_then(|t| write_atomic(&pending, &t)) {
                Ok(()) => Status::Pending(check, pending),
                Err(e) => Status::Error(format!("cannot write {}: {e}", pending.display())),
            }
        }
        _ => Status::Failed(check),
    }
}
