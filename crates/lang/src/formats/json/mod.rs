//! JSON and JSON Lines: a file of nested lists, or one value (or record) per line, read into
//! a tensor by the literal rules of `tf.ragged.constant` — the same typing and the same two
//! errors — and tensors written back as JSON that round-trips exactly.

mod read;
mod stream;
mod write;

use std::cell::RefCell;
use std::io::{BufRead, BufReader};
use std::path::Path;

use crate::diagnostic::{Error, Result};
use crate::value::convert::regular_ragged;
use ragtag_engine::exceptions::ExceptionClass;
use ragtag_engine::literal::{self, Leaf, Nested};
use ragtag_engine::{budget, Array, DType};

use super::fs;
use read::{locate, Place};
use stream::{finish, parse_one, Node, Record, State};
pub use write::{write_json, write_jsonl};

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

/// `ragtag.read_json(path)`: the one JSON value a file holds, as a tensor. The text is
/// read whole (it must fit the budget); the literal built from it is tallied as it grows.
pub fn read_json(path: &Path, dtype: Option<DType>) -> Result<Array> {
    read_json_filled(path, dtype, None)
}

/// [`read_json`], with every null read as `fill` when one is given (`fill_null=`).
pub fn read_json_filled(path: &Path, dtype: Option<DType>, fill: Option<Leaf>) -> Result<Array> {
    let file = path.display().to_string();
    let len = fs::size(path)?;
    let what = format!("reading '{file}'");
    budget::check_bytes(&what, u128::from(len))?;
    let bytes = fs::read(path)?;
    let place = Place {
        file: file.clone(),
        ..Place::default()
    };
    let state = RefCell::new(State::new(&what, place));
    state.borrow_mut().fill = fill;
    let n = finish(&state, parse_one(&bytes, Node(&state)))?;
    drop(bytes);
    state.into_inner().nulls.check(&file)?;
    to_array(&n, dtype).map_err(|e| in_file(e, &file, None))
}

/// `ragtag.read_jsonl(path, field=)`: one value per line (or the `field` of one record per
/// line), blank lines skipped, as a tensor whose rows are the lines. The file is read line
/// by line; only the converted rows are kept, tallied against the budget as they grow.
pub fn read_jsonl(path: &Path, field: Option<&str>, dtype: Option<DType>) -> Result<Array> {
    read_jsonl_filled(path, field, dtype, None)
}

/// [`read_jsonl`], with every null read as `fill` when one is given (`fill_null=`).
pub fn read_jsonl_filled(
    path: &Path,
    field: Option<&str>,
    dtype: Option<DType>,
    fill: Option<Leaf>,
) -> Result<Array> {
    let file = path.display().to_string();
    let handle = fs::open(path)?;
    let len = handle.metadata().map_err(|e| fs::io_error(&e, path))?.len();
    let what = format!("reading '{file}'");
    // The file itself must fit (so must any one line); the rows are tallied as they are read.
    budget::check_bytes(&what, u128::from(len))?;
    let place = Place {
        file: file.clone(),
        ..Place::default()
    };
    let state = RefCell::new(State::new(&what, place));
    state.borrow_mut().fill = fill;
    let mut rows = Vec::new();
    let mut lines = Vec::new();
    let mut reader = BufReader::new(handle);
    let mut text = Vec::new();
    let mut number = 0;
    loop {
        text.clear();
        let got = reader
            .read_until(b'\n', &mut text)
            .map_err(|e| fs::io_error(&e, path))?;
        if got == 0 {
            break;
        }
        number += 1;
        if std::str::from_utf8(&text).is_err() {
            return Err(Error::new(
                ExceptionClass::ValueError,
                format!("'{file}', line {number}: the line is not UTF-8 text"),
            ));
        }
        if text.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        state.borrow_mut().at(Some(number), field);
        let row = match field {
            None => parse_one(&text, Node(&state)),
            Some(key) => parse_one(
                &text,
                Record {
                    state: &state,
                    key,
                    line: number,
                    file: &file,
                },
            ),
        };
        rows.push(finish(&state, row)?);
        lines.push(number);
    }
    state.into_inner().nulls.check(&file)?;
    let n = Nested::List(rows);
    to_array(&n, dtype).map_err(|e| {
        let Nested::List(rows) = &n else {
            return e;
        };
        in_file(e, &file, locate(rows, &lines))
    })
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
