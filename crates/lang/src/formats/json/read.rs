//! Where a JSON value sits, the nulls a read met, and which line of a JSON Lines file
//! disagrees with the first when the rows do not make one tensor.

use crate::diagnostic::{Error, Result};
use ragtag_engine::exceptions::ExceptionClass;
use ragtag_engine::literal::{Leaf, Nested};

/// Where a JSON value sits: the file, the line (JSON Lines), the key (`field=`) and the
/// index path inside it (`[2][0]`).
#[derive(Debug, Clone, Default)]
pub struct Place {
    /// The file's name as the user gave it.
    pub file: String,
    /// The 1-based line, for JSON Lines.
    pub line: Option<usize>,
    /// The record key taken with `field=`.
    pub key: Option<String>,
}

impl Place {
    /// `'x.jsonl', line 3, key 'tokens', at [2]` (the parts that are known).
    pub fn describe(&self, path: &str) -> String {
        let mut s = format!("'{}'", self.file);
        if let Some(line) = self.line {
            s.push_str(&format!(", line {line}"));
        }
        if let Some(key) = &self.key {
            s.push_str(&format!(", key '{key}'"));
        }
        if !path.is_empty() {
            s.push_str(&format!(", at {path}"));
        }
        s
    }
}

/// The nulls met while converting: how many, and where the first was.
#[derive(Debug, Default)]
pub struct Nulls {
    /// How many nulls.
    pub count: usize,
    /// The first one's place, described.
    pub first: Option<String>,
}

impl Nulls {
    /// The ValueError for nulls found in `file`, or Ok when there were none.
    pub fn check(&self, file: &str) -> Result<()> {
        if self.count == 0 {
            return Ok(());
        }
        Err(Error::new(
            ExceptionClass::ValueError,
            format!(
                "'{file}' holds {} null{} (the first in {}): null is not a tensor value",
                self.count,
                if self.count == 1 { "" } else { "s" },
                self.first.as_deref().unwrap_or("the file")
            ),
        )
        .with_hint("a tensor has no missing values: give the value that replaces them with fill_null= (fill_null=0, fill_null=''), or drop them before reading"))
    }
}

/// The broad kind of a leaf, as the mixed-types check sees it.
fn kind(leaf: &Leaf) -> &'static str {
    match leaf {
        Leaf::Bool(_) => "bools",
        Leaf::Int(_) | Leaf::Float(_) => "numbers",
        _ => "strings",
    }
}

/// The first leaf's kind and its depth below `n`, if any leaf.
fn first_leaf(n: &Nested, depth: usize) -> Option<(&'static str, usize)> {
    match n {
        Nested::Leaf(l) => Some((kind(l), depth)),
        Nested::List(items) => items.iter().find_map(|i| first_leaf(i, depth + 1)),
    }
}

/// Whether every leaf under `n` has this kind and depth.
fn uniform(n: &Nested, depth: usize, want: (&'static str, usize), check_kind: bool) -> bool {
    match n {
        Nested::Leaf(l) => depth == want.1 && (!check_kind || kind(l) == want.0),
        Nested::List(items) => items
            .iter()
            .all(|i| uniform(i, depth + 1, want, check_kind)),
    }
}

/// For a typing or nesting error over `rows` (read from `lines`), names the first line that
/// disagrees with the first value, e.g. "line 4 holds strings where line 1 holds numbers".
pub fn locate(rows: &[Nested], lines: &[usize]) -> Option<String> {
    let (first_row, want) = rows
        .iter()
        .enumerate()
        .find_map(|(i, r)| first_leaf(r, 0).map(|w| (i, w)))?;
    let line_of = |i: usize| lines.get(i).copied().unwrap_or(i + 1);
    for (i, row) in rows.iter().enumerate() {
        if !uniform(row, 0, want, false) {
            return Some(format!(
                "line {} nests its values to another depth than line {} (depth {})",
                line_of(i),
                line_of(first_row),
                want.1
            ));
        }
    }
    for (i, row) in rows.iter().enumerate() {
        if !uniform(row, 0, want, true) {
            let other = first_other_kind(row, want.0).unwrap_or("other values");
            return Some(format!(
                "line {} holds {other} where line {} holds {}",
                line_of(i),
                line_of(first_row),
                want.0
            ));
        }
    }
    None
}

fn first_other_kind(n: &Nested, not: &str) -> Option<&'static str> {
    match n {
        Nested::Leaf(l) => Some(kind(l)).filter(|k| *k != not),
        Nested::List(items) => items.iter().find_map(|i| first_other_kind(i, not)),
    }
}
