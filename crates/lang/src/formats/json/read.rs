//! JSON values to nested literals: numbers, strings and bools become the leaves
//! `tf.ragged.constant` types, arrays become lists; nulls are counted (with where the first
//! one is) and objects are errors that say which keys they hold.

use serde_json::Value as Json;

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
        .with_hint("a tensor has no missing values: drop the nulls or replace them with a value (for example with jq: jq -c 'walk(if . == null then 0 else . end)') before reading"))
    }
}

/// Keys of an object, quoted, for messages.
pub fn keys_of(map: &serde_json::Map<String, Json>) -> String {
    let keys: Vec<String> = map.keys().take(8).map(|k| format!("'{k}'")).collect();
    let more = if map.len() > 8 { ", …" } else { "" };
    format!("{}{more}", keys.join(", "))
}

/// Converts a JSON value to a nested literal; `nulls` collects nulls (each becomes a
/// placeholder leaf, and the caller reports them all at once).
pub fn to_nested(json: &Json, place: &Place, nulls: &mut Nulls) -> Result<Nested> {
    let mut path = String::new();
    convert(json, place, &mut path, nulls)
}

fn convert(json: &Json, place: &Place, path: &mut String, nulls: &mut Nulls) -> Result<Nested> {
    Ok(Nested::Leaf(match json {
        Json::Bool(b) => Leaf::Bool(*b),
        Json::String(s) => Leaf::Str(s.as_bytes().to_vec()),
        Json::Number(n) => match (n.as_i64(), n.as_u64(), n.as_f64()) {
            (Some(i), _, _) => Leaf::Int(i),
            (None, Some(u), _) => {
                return Err(Error::new(
                    ExceptionClass::ValueError,
                    format!(
                        "{}: the integer {u} does not fit in int64",
                        place.describe(path)
                    ),
                ))
            }
            (_, _, Some(f)) => Leaf::Float(f),
            _ => {
                return Err(Error::new(
                    ExceptionClass::ValueError,
                    format!("{}: the number {n} is out of range", place.describe(path)),
                ))
            }
        },
        Json::Null => {
            nulls.count += 1;
            if nulls.first.is_none() {
                nulls.first = Some(place.describe(path));
            }
            Leaf::Int(0)
        }
        Json::Array(items) => {
            let mut out = Vec::new();
            let len = path.len();
            for (i, item) in items.iter().enumerate() {
                path.push_str(&format!("[{i}]"));
                out.push(convert(item, place, path, nulls)?);
                path.truncate(len);
            }
            return Ok(Nested::List(out));
        }
        Json::Object(map) => {
            let mut err = Error::new(
                ExceptionClass::ValueError,
                format!(
                    "{}: a JSON object (keys {}) is not a tensor value",
                    place.describe(path),
                    keys_of(map)
                ),
            );
            if path.is_empty() && place.key.is_none() {
                err = err.with_hint("for one record per line, read with ragtag.read_jsonl(path, field='key') to take one key of each record");
            }
            return Err(err);
        }
    }))
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
