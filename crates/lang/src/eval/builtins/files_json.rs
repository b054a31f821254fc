//! JSON and JSON Lines files: `ragtag.read_json`, `ragtag.read_jsonl`, `ragtag.write_json`
//! and `ragtag.write_jsonl`, read by the rules of `tf.ragged.constant`.

use std::path::PathBuf;

use super::Builtin;
use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::Interp;
use crate::formats::json;
use crate::value::Value;
use ragtag_engine::literal::Leaf;
use ragtag_engine::ExceptionClass;

/// The JSON readers and writers.
pub static BUILTINS: &[Builtin] = &[
    Builtin::function("ragtag.read_json", "(path, dtype=None, fill_null=None)", read_json)
        .doc("The one JSON value a file holds (nested lists of numbers, strings or bools) as a tensor, typed exactly as tf.ragged.constant types the same list: ints int32 (int64 when large), floats float32 unless `dtype` says otherwise, mixed types and uneven nesting depth are ValueErrors, and so are nulls (counted, with where the first is) unless `fill_null` gives the value that replaces them.")
        .examples(&[
            "ragtag.write_json(tf.ragged.constant([[1, 2], [3]]), 'small.json'); ragtag.read_json('small.json')",
            "open('gaps.json', 'w').write('[[1, null], [3]]'); ragtag.read_json('gaps.json', fill_null=0)",
        ]),
    Builtin::function("ragtag.read_jsonl", "(path, field=None, dtype=None, fill_null=None)", read_jsonl)
        .doc("A JSON Lines file as a tensor whose rows are its lines: one JSON value per line, or with `field=` one record (object) per line and the value of that key. Blank lines are skipped and the file is read line by line. Typing follows tf.ragged.constant (as ragtag.read_json); errors name the file, the line and the key. A null is an error that counts them, unless `fill_null` gives the value that replaces it.")
        .examples(&[
            "ragtag.write_jsonl(tf.ragged.constant([['a', 'b'], [], ['c']]), 'tokens.jsonl', field='tokens'); ragtag.read_jsonl('tokens.jsonl', field='tokens')",
            "ragtag.write_jsonl(tf.constant([[0.5, 1.0], [2.5, 3.0]]), 'rows.jsonl'); ragtag.read_jsonl('rows.jsonl')",
        ]),
    Builtin::function("ragtag.write_json", "(x, path)", write_json)
        .doc("Writes a tensor (dense or ragged) as one JSON document of nested lists; strings become JSON strings and floats are written with the digits that read back exactly. NaN and infinity are ValueErrors (JSON has no spelling for them).")
        .examples(&["ragtag.write_json(tf.constant([[1.5, 2.0]]), 'pair.json')"]),
    Builtin::function("ragtag.write_jsonl", "(x, path, field=None)", write_jsonl)
        .doc("Writes a tensor one row per line as JSON Lines; with `field=`, each line is a record `{\"field\": row}`.")
        .examples(&["ragtag.write_jsonl(tf.ragged.constant([[1, 2], [3]]), 'rows.jsonl', field='ids')"]),
];

fn path_arg(a: &Args, name: &str) -> Result<PathBuf> {
    match a.value(name) {
        Value::Str(s) => Ok(PathBuf::from(&**s)),
        other => Err(Error::new(
            ExceptionClass::TypeError,
            format!("expected a file path (a str), got a {}", other.type_name()),
        )
        .at(a.span(name))),
    }
}

fn read_json(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let path = path_arg(a, "path")?;
    let dtype = a.dtype("dtype")?;
    json::read_json_filled(&path, dtype, fill_arg(a)?)
        .map(Value::from_array)
        .map_err(|e| e.at(a.call))
}

fn read_jsonl(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let path = path_arg(a, "path")?;
    let field = a.opt_str("field")?;
    let dtype = a.dtype("dtype")?;
    json::read_jsonl_filled(&path, field.as_deref(), dtype, fill_arg(a)?)
        .map(Value::from_array)
        .map_err(|e| e.at(a.call))
}

/// `fill_null=`: a Python bool, int, float or str, read as a JSON value would be (None: no
/// fill). The Arrow and Parquet readers take the same argument.
pub(super) fn fill_arg(a: &Args) -> Result<Option<Leaf>> {
    Ok(match a.get("fill_null") {
        None | Some(Value::None) => None,
        Some(Value::Bool(b)) => Some(Leaf::Bool(*b)),
        Some(Value::Int(v)) => Some(Leaf::Int(*v)),
        Some(Value::Float(v)) => Some(Leaf::Float(*v)),
        Some(Value::Str(s)) => Some(Leaf::Str(s.as_bytes().to_vec())),
        Some(v) => {
            return Err(Error::new(
                ExceptionClass::TypeError,
                format!(
                    "fill_null must be a number, a bool or a str, not {}",
                    v.type_name()
                ),
            )
            .at(a.span("fill_null")))
        }
    })
}

fn write_json(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let x = a.array("x", None)?;
    let path = path_arg(a, "path")?;
    json::write_json(&path, &x).map_err(|e| e.at(a.call))?;
    Ok(Value::None)
}

fn write_jsonl(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let x = a.array("x", None)?;
    let path = path_arg(a, "path")?;
    let field = a.opt_str("field")?;
    json::write_jsonl(&path, &x, field.as_deref()).map_err(|e| e.at(a.call))?;
    Ok(Value::None)
}
