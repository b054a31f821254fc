//! JSON and JSON Lines: a file of nested lists, or one value (or record) per line, read into
//! a tensor by the literal rules of `tf.ragged.constant` — the same typing and the same two
//! errors — and tensors written back as JSON that round-trips exactly.

mod read;
mod write;

use std::io::{BufRead, BufReader};
use std::path::Path;

use serde_json::Value as Json;

use crate::diagnostic::{Error, Result};
use crate::value::convert::regular_ragged;
use ragtag_engine::exceptions::ExceptionClass;
use ragtag_engine::literal::{self, Nested};
use ragtag_engine::{budget, Array, DType};

use super::fs;
use read::{keys_of, locate, to_nested, Nulls, Place};
pub use write::{write_json, write_jsonl};

/// Bytes of nested literal per byte of JSON, at worst: each value takes two bytes of text
/// (`1,`) and becomes one node of the parsed tree plus one of the nested literal.
fn tree_bytes(text_bytes: u64) -> u128 {
    let per_value = std::mem::size_of::<Json>() + std::mem::size_of::<Nested>();
    u128::from(text_bytes / 2 + 1) * per_value as u128
}

/// The ValueError for text that is not JSON.
fn syntax_error(place: &Place, e: &serde_json::Error) -> Error {
    let where_ = match place.line {
        Some(_) => format!("column {}", e.column()),
        None => format!("line {} column {}", e.line(), e.column()),
    };
    let what = match e.classify() {
        serde_json::error::Category::Eof => "the JSON ends early".to_string(),
        _ => {
            // serde's message without its own " at line L column C".
            let text = e.to_string();
            text.rsplit_once(" at line ")
                .map_or(text.clone(), |(m, _)| m.to_string())
        }
    };
    Error::new(
        ExceptionClass::ValueError,
        format!("{}: invalid JSON at {where_}: {what}", place.describe("")),
    )
}

/// `ragtag.read_json(path)`: the one JSON value a file holds, as a tensor.
pub fn read_json(path: &Path, dtype: Option<DType>) -> Result<Array> {
    let file = path.display().to_string();
    let len = fs::size(path)?;
    budget::check_bytes(&format!("reading '{file}'"), tree_bytes(len))?;
    let bytes = fs::read(path)?;
    let place = Place {
        file: file.clone(),
        ..Place::default()
    };
    let json: Json = serde_json::from_slice(&bytes).map_err(|e| syntax_error(&place, &e))?;
    drop(bytes);
    let mut nulls = Nulls::default();
    let n = to_nested(&json, &place, &mut nulls)?;
    drop(json);
    nulls.check(&file)?;
    to_array(&n, dtype).map_err(|e| in_file(e, &file, None))
}

/// `ragtag.read_jsonl(path, field=)`: one value per line (or the `field` of one record per
/// line), blank lines skipped, as a tensor whose rows are the lines. The file is read line
/// by line; only the converted rows are kept.
pub fn read_jsonl(path: &Path, field: Option<&str>, dtype: Option<DType>) -> Result<Array> {
    let file = path.display().to_string();
    let handle = fs::open(path)?;
    let len = handle.metadata().map_err(|e| fs::io_error(&e, path))?.len();
    let what = format!("reading '{file}'");
    // The file itself must fit; the rows kept from it are tallied as they are read.
    budget::check_bytes(&what, u128::from(len))?;
    let mut tally = budget::Tally::new(&what);
    let mut rows = Vec::new();
    let mut lines = Vec::new();
    let mut nulls = Nulls::default();
    let mut reader = BufReader::new(handle);
    let mut text = String::new();
    let mut number = 0;
    loop {
        text.clear();
        let got = reader.read_line(&mut text).map_err(|e| match e.kind() {
            std::io::ErrorKind::InvalidData => Error::new(
                ExceptionClass::ValueError,
                format!("'{file}', line {}: the line is not UTF-8 text", number + 1),
            ),
            _ => fs::io_error(&e, path),
        })?;
        if got == 0 {
            break;
        }
        number += 1;
        if text.trim().is_empty() {
            continue;
        }
        let mut place = Place {
            file: file.clone(),
            line: Some(number),
            key: None,
        };
        let json: Json = serde_json::from_str(&text).map_err(|e| syntax_error(&place, &e))?;
        let value = match (field, json) {
            (None, json) => json,
            (Some(key), Json::Object(mut map)) => match map.remove(key) {
                Some(v) => v,
                None => {
                    return Err(Error::new(
                        ExceptionClass::KeyError,
                        format!(
                            "'{key}': line {number} of '{file}' has no key '{key}' (its keys: {})",
                            keys_of(&map)
                        ),
                    ))
                }
            },
            (Some(key), _) => {
                return Err(Error::new(
                    ExceptionClass::TypeError,
                    format!("'{file}', line {number}: field='{key}' picks a key of a record, but the line is not a JSON object"),
                )
                .with_hint("without field=, each line is read as one value"))
            }
        };
        place.key = field.map(str::to_string);
        let row = to_nested(&value, &place, &mut nulls)?;
        tally.add(cost(&row))?;
        rows.push(row);
        lines.push(number);
    }
    nulls.check(&file)?;
    let n = Nested::List(rows);
    to_array(&n, dtype).map_err(|e| {
        let Nested::List(rows) = &n else {
            return e;
        };
        in_file(e, &file, locate(rows, &lines))
    })
}

/// The memory a nested literal takes, roughly: one node per value, plus string bytes.
fn cost(n: &Nested) -> u128 {
    let node = std::mem::size_of::<Nested>() as u128;
    match n {
        Nested::Leaf(literal::Leaf::Str(s)) => node + s.len() as u128,
        Nested::Leaf(_) => node,
        Nested::List(items) => node + items.iter().map(cost).sum::<u128>(),
    }
}

/// `tf.ragged.constant(n, dtype=dtype)`, exactly as the builtin converts a list display.
pub fn to_array(n: &Nested, dtype: Option<DType>) -> Result<Array> {
    if dtype.is_none() {
        if let Some(r) = regular_ragged(n) {
            return r.map_err(Error::from);
        }
    }
    literal::ragged_constant_with(n, dtype, None, None, DType::Int64).map_err(Error::from)
}

/// A conversion error, prefixed with the file (and the line that disagrees, when known).
fn in_file(mut e: Error, file: &str, at: Option<String>) -> Error {
    e.message = match at {
        Some(at) => format!("'{file}': {} ({at})", e.message),
        None => format!("'{file}': {}", e.message),
    };
    e
}

#[cfg(test)]
mod tests;
