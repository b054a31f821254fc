//! String ops under `tf.strings.`: lengths, substrings, case, splitting, joining, hashing
//! and number conversion, on dense and ragged string tensors.

use super::common::reduction_axes;
use std::sync::Arc;

use super::Builtin;
use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::convert;
use crate::eval::subscript::iterate;
use crate::eval::Interp;
use crate::value::Value;
use ragtag_engine::ops::strings::{self as ops, AsStringSpec, CharUnit};
use ragtag_engine::{Array, DType, ExceptionClass};

#[cfg(test)]
#[path = "strings_tests.rs"]
mod tests;

/// The `tf.strings` builtins.
pub static BUILTINS: &[Builtin] = &[
    Builtin::function("tf.strings.length", "(input, unit='BYTE', name=None)", length)
        .doc("The length of every string as int32: bytes by default, or UTF-8 characters with unit='UTF8_CHAR'. Ragged inputs keep their rows.")
        .examples(&[
            "tf.strings.length(tf.constant(['foobar', 'yorkie is so cute']))",
            "tf.strings.length(tf.ragged.constant([['héllo', ''], ['☃']]), unit='UTF8_CHAR')",
        ]),
    Builtin::function("tf.strings.substr", "(input, pos, len, unit='BYTE', name=None)", substr)
        .doc("`len` bytes (or UTF-8 characters with unit='UTF8_CHAR') of every string, starting at `pos`. pos and len are scalars or tensors that broadcast with the input; a negative pos counts from the end, a pos beyond either end is an InvalidArgumentError, and a len past the end stops at the end.")
        .aliases(&["tf.substr"])
        .examples(&[
            "tf.strings.substr(tf.ragged.constant([['So', 'long'], ['thanks', 'for', 'all']]), 0, 2)",
            "tf.strings.substr(tf.constant(['hello', 'world']), [1, -3], [3, 2])",
            "tf.strings.substr('héllo', 1, 3, unit='UTF8_CHAR')",
        ]),
    Builtin::function("tf.strings.join", "(inputs, separator='', name=None)", join)
        .doc("Joins a list of string tensors element by element, putting `separator` between the pieces. The tensors must have the same shape (ragged ones the same rows), or be scalars, which stretch to fit.")
        .aliases(&["tf.string_join"])
        .examples(&[
            "tf.strings.join(['a', tf.constant(['x', 'y'])], separator='-')",
            "tf.strings.join([tf.ragged.constant([['a', 'b'], ['c']]), tf.ragged.constant([['1', '2'], ['3']])], separator='+')",
        ]),
    Builtin::function("tf.strings.reduce_join", "(inputs, axis=None, keepdims=False, separator='', name=None)", reduce_join)
        .doc("Joins strings along `axis` (every axis when None) with `separator`. On a ragged tensor axis=1 joins each row, and axis=0 joins the strings at the same position of every row.")
        .aliases(&["tf.reduce_join"])
        .examples(&[
            "tf.strings.reduce_join(tf.ragged.constant([['So', 'long'], [], ['thanks']]), axis=1, separator=' ')",
            "tf.strings.reduce_join(tf.constant([['a', 'b'], ['c', 'd']]), axis=0)",
            "tf.strings.reduce_join(tf.constant([['a', 'b'], ['c', 'd']]))",
        ]),
    Builtin::function("tf.strings.split", "(input, sep=None, maxsplit=-1, name=None)", split)
        .doc("Splits every string into tokens, like Python's str.split: with no sep, runs of whitespace separate and no empty tokens appear; with a sep, each occurrence separates (so empty tokens can appear). A scalar gives a vector; a vector of n strings gives a ragged [n, None] tensor; ragged inputs gain one ragged dimension.")
        .examples(&[
            "tf.strings.split(tf.constant(['hello world', '  a  b c ', '']))",
            "tf.strings.split('a,b,,c', sep=',')",
            "tf.strings.split(tf.ragged.constant([['a b', 'c'], []]))",
        ]),
    Builtin::function("tf.strings.upper", "(input, encoding='', name=None)", upper)
        .doc("Every string in upper case: ASCII letters only, or every letter with encoding='utf-8'.")
        .examples(&["tf.strings.upper(tf.constant(['hello', 'Ünïcode']))", "tf.strings.upper('straße', encoding='utf-8')"]),
    Builtin::function("tf.strings.lower", "(input, encoding='', name=None)", lower)
        .doc("Every string in lower case: ASCII letters only, or every letter with encoding='utf-8'.")
        .examples(&["tf.strings.lower(tf.ragged.constant([['Hello', 'WORLD'], []]))"]),
    Builtin::function("tf.strings.strip", "(input, name=None)", strip)
        .doc("Every string without its leading and trailing whitespace.")
        .examples(&["tf.strings.strip(tf.constant(['  padded\\n', 'tight']))"]),
    Builtin::function("tf.strings.to_number", "(input, out_type=tf.float32, name=None)", to_number)
        .doc("Parses every string as a number of out_type (float32 by default; float64, int32 and int64 too). Surrounding whitespace is fine; text that is not a number is an InvalidArgumentError.")
        .examples(&[
            "tf.strings.to_number(tf.constant(['1.5', ' -2 ', '1e3']))",
            "tf.strings.to_number(tf.ragged.constant([['1', '2'], ['3']]), out_type=tf.int64)",
        ]),
    Builtin::function("tf.compat.v1.string_to_number", "(string_tensor, out_type=tf.float32, name=None)", string_to_number)
        .doc("TensorFlow 1's spelling of tf.strings.to_number, whose input is named string_tensor.")
        .aliases(&["tf.string_to_number"])
        .examples(&["tf.compat.v1.string_to_number(string_tensor=['7', '8'], out_type=tf.int32)"]),
    Builtin::function("tf.strings.as_string", "(input, precision=-1, scientific=False, shortest=False, width=-1, fill='', name=None)", as_string)
        .doc("Every element as text, as C's printf would write it: ints as %d, floats as %f (six decimals unless precision says otherwise; %e with scientific=True, %g with shortest=True), bools as true/false. width pads to a minimum width; fill is a printf flag: '0' pads with zeros, '-' aligns left, '+' always shows the sign.")
        .aliases(&["tf.as_string", "tf.dtypes.as_string"])
        .examples(&[
            "tf.strings.as_string(tf.constant([3.14159, -2.0]), precision=2)",
            "tf.strings.as_string(tf.constant([7, 42]), width=4, fill='0')",
            "tf.strings.as_string(tf.constant([1234567.0]), shortest=True)",
        ]),
    Builtin::function("tf.strings.to_hash_bucket_fast", "(input, num_buckets, name=None)", to_hash_bucket_fast)
        .doc("Hashes every string into one of num_buckets buckets (int64): FarmHash Fingerprint64 of its bytes modulo num_buckets, exactly as TensorFlow does, so ids match a model trained with TensorFlow.")
        .aliases(&["tf.string_to_hash_bucket_fast"])
        .examples(&[
            "tf.strings.to_hash_bucket_fast(tf.ragged.constant([['Who', 'is'], ['Pause']]), 1024)",
            "tf.strings.to_hash_bucket_fast(['Hello', 'TensorFlow', '2.x'], 3)",
        ]),
];

/// Argument `name` as a string tensor (Python strings and lists convert).
fn string_arg(a: &Args, name: &str) -> Result<Arc<Array>> {
    let arr = a.array(name, Some(DType::String))?;
    check_string(a, name, &arr)?;
    Ok(arr)
}

fn check_string(a: &Args, name: &str, arr: &Array) -> Result<()> {
    if arr.dtype() == DType::String {
        return Ok(());
    }
    Err(Error::new(
        ExceptionClass::InvalidArgumentError,
        format!(
            "{}: {name} must be a string tensor, but it is a {} tensor",
            a.builtin().name,
            arr.dtype()
        ),
    )
    .at(a.span(name))
    .with_hint("format numbers first with tf.strings.as_string(x)"))
}

/// Argument `name` as a Python str, or `default`.
fn str_arg(a: &Args, name: &str, default: &str) -> Result<String> {
    Ok(a.opt_str(name)?.unwrap_or_else(|| default.to_string()))
}

fn unit_arg(a: &Args) -> Result<CharUnit> {
    CharUnit::parse(&str_arg(a, "unit", "BYTE")?).map_err(|e| a.err_at("unit", e))
}

/// The result of an engine op, with errors pointing at argument `name`.
fn done(a: &Args, name: &str, r: ragtag_engine::Result<Array>) -> Result<Value> {
    r.map(Value::from_array).map_err(|e| a.err_at(name, e))
}

fn length(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let x = string_arg(a, "input")?;
    let unit = unit_arg(a)?;
    done(a, "input", ops::length(&x, unit))
}

fn substr(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let x = string_arg(a, "input")?;
    let pos = a.array("pos", Some(DType::Int32))?;
    let len = a.array("len", Some(DType::Int32))?;
    let unit = unit_arg(a)?;
    done(a, "input", ops::substr(&x, &pos, &len, unit))
}

/// The list of tensors passed as `inputs`, each converted to a string tensor. A list display
/// of equal-shape tensors (`[s, s]`) arrives packed into one tensor; its rows are the items.
fn tensor_list(a: &Args, name: &str) -> Result<Vec<Arc<Array>>> {
    let items: Vec<Value> = match a.value(name) {
        Value::List(l) => l.items(),
        Value::Tuple(items) => items.to_vec(),
        v @ Value::Array(_) => iterate(v).map_err(|e| a.err_at(name, e))?,
        other => {
            return Err(Error::new(
                ExceptionClass::TypeError,
                format!(
                    "{}: {name} must be a list of string tensors, not a {}",
                    a.builtin().name,
                    other.type_name()
                ),
            )
            .at(a.span(name))
            .with_hint("wrap the tensors in a list, e.g. tf.strings.join([a, b])"));
        }
    };
    items
        .iter()
        .enumerate()
        .map(|(k, v)| {
            let arr = convert::to_array(v, Some(DType::String)).map_err(|e| a.err_at(name, e))?;
            if arr.dtype() != DType::String {
                return Err(Error::new(
                    ExceptionClass::TypeError,
                    format!(
                        "{}: {name}[{k}] must be a string tensor, not {}",
                        a.builtin().name,
                        arr.dtype()
                    ),
                )
                .at(a.span(name))
                .with_hint("format numbers first with tf.strings.as_string(x)"));
            }
            Ok(arr)
        })
        .collect()
}

fn join(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let inputs = tensor_list(a, "inputs")?;
    let sep = str_arg(a, "separator", "")?;
    let refs: Vec<&Array> = inputs.iter().map(|x| &**x).collect();
    done(a, "inputs", ops::join(&refs, sep.as_bytes()))
}

fn reduce_join(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let x = string_arg(a, "inputs")?;
    let (axes, keepdims) = reduction_axes(a)?;
    let sep = str_arg(a, "separator", "")?;
    let r = ops::reduce_join(&x, axes.as_deref(), keepdims, sep.as_bytes());
    done(a, if axes.is_some() { "axis" } else { "inputs" }, r)
}

fn split(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let x = string_arg(a, "input")?;
    let sep = a.opt_str("sep")?;
    let maxsplit = a.opt_int("maxsplit")?.unwrap_or(-1);
    done(
        a,
        "input",
        ops::split(&x, sep.as_deref().map(str::as_bytes), maxsplit),
    )
}

fn upper(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let x = string_arg(a, "input")?;
    let enc = str_arg(a, "encoding", "")?;
    done(a, "input", ops::upper(&x, &enc))
}

fn lower(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let x = string_arg(a, "input")?;
    let enc = str_arg(a, "encoding", "")?;
    done(a, "input", ops::lower(&x, &enc))
}

fn strip(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let x = string_arg(a, "input")?;
    done(a, "input", ops::strip(&x))
}

fn number(a: &Args, input: &str) -> Result<Value> {
    let x = string_arg(a, input)?;
    let out_type = a.dtype("out_type")?.unwrap_or(DType::Float32);
    let r = ops::to_number(&x, out_type);
    let at = if r
        .as_ref()
        .is_err_and(|e| e.class == ExceptionClass::TypeError)
    {
        "out_type"
    } else {
        input
    };
    done(a, at, r)
}

fn to_number(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    number(a, "input")
}

fn string_to_number(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    number(a, "string_tensor")
}

fn as_string(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let x = a.array("input", None)?;
    let nonneg = |name: &str| -> Result<Option<usize>> {
        Ok(a.opt_int(name)?.filter(|&v| v >= 0).map(|v| v as usize))
    };
    let spec = AsStringSpec {
        precision: nonneg("precision")?,
        scientific: a.flag("scientific", false)?,
        shortest: a.flag("shortest", false)?,
        width: nonneg("width")?,
        fill: str_arg(a, "fill", "")?,
    };
    done(a, "input", ops::as_string(&x, &spec))
}

fn to_hash_bucket_fast(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let x = string_arg(a, "input")?;
    let n = a.int("num_buckets")?;
    let r = ops::to_hash_bucket_fast(&x, n);
    let at = if n < 1 { "num_buckets" } else { "input" };
    done(a, at, r)
}
