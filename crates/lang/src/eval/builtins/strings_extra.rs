//! More `tf.strings` ops: n-grams, regular expressions (RE2 syntax) and Unicode decoding,
//! splitting and encoding.

use std::sync::Arc;

use super::Builtin;
use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::convert;
use crate::eval::Interp;
use crate::value::Value;
use ragtag_engine::ops::strings::{self as ops, DecodeSpec, Encoding, NgramSpec, OnError};
use ragtag_engine::{Array, Buffer, DType, ExceptionClass, Sparse};

/// The extra `tf.strings` builtins.
pub static BUILTINS: &[Builtin] = &[
    Builtin::function("tf.strings.ngrams", "(data, ngram_width, separator=' ', pad_values=None, padding_width=None, preserve_short_sequences=False, name=None)", ngrams)
        .doc("The n-grams of the innermost rows of a string tensor: each run of `ngram_width` consecutive tokens joined by `separator` (several widths: all n-grams of the first width, then of the next). `pad_values` (one string, or a (left, right) pair) pads each row with `padding_width` tokens on each side (width - 1 when None); padding never exceeds width - 1. With preserve_short_sequences=True a non-empty row too short for any n-gram yields one n-gram of all its tokens. Dense data keeps its shape but the last dimension; ragged data gets new innermost rows.")
        .examples(&[
            "tf.strings.ngrams(tf.constant(['A', 'B', 'C', 'D']), 2)",
            "tf.strings.ngrams(tf.ragged.constant([['A', 'B'], ['C']]), 3, pad_values='#')",
            "tf.strings.ngrams(tf.ragged.constant([['aa', 'bb', 'cc', 'dd'], ['ee', 'ff']]), ngram_width=(2, 3), separator='|')",
        ]),
    Builtin::function("tf.strings.regex_replace", "(input, pattern, rewrite, replace_global=True, name=None)", regex_replace)
        .doc("Replaces every match of the RE2 regular expression `pattern` (only the first with replace_global=False) by `rewrite`, in which `\\1` … `\\9` are the pattern's groups, `\\0` the whole match and `\\\\` a backslash. As in RE2, a rewrite naming a group the pattern lacks leaves the string unchanged. An invalid pattern is an InvalidArgumentError.")
        .aliases(&["tf.compat.v1.regex_replace"])
        .examples(&[
            "tf.strings.regex_replace(['a1b22', 'c333'], '[0-9]+', '#')",
            r"tf.strings.regex_replace('John Smith', r'(\w+) (\w+)', r'\2 \1')",
        ]),
    Builtin::function("tf.strings.regex_full_match", "(input, pattern, name=None)", regex_full_match)
        .doc("Whether each whole string matches the RE2 regular expression `pattern` (a bool tensor of the input's shape): the match must cover the string from start to end.")
        .examples(&["tf.strings.regex_full_match(['abaaba', 'abcdabcde'], 'a.*a')"]),
    Builtin::function("tf.strings.unicode_decode", "(input, input_encoding, errors='replace', replacement_char=65533, replace_control_characters=False, name=None)", unicode_decode)
        .doc("The Unicode code points (int32) of each string, one more ragged dimension than the input (a scalar gives a vector). Input may be 'UTF-8', 'UTF-16-BE', 'UTF-32-BE', 'US-ASCII' or 'ISO-8859-1'. An ill-formed byte sequence becomes `replacement_char` (errors='replace'), is skipped ('ignore') or is an InvalidArgumentError ('strict'); replace_control_characters=True also replaces U+0000 to U+001F.")
        .examples(&["tf.strings.unicode_decode(['Hello', 'w\u{f6}rld'], 'UTF-8')"]),
    Builtin::function("tf.strings.unicode_decode_with_offsets", "(input, input_encoding, errors='replace', replacement_char=65533, replace_control_characters=False, name=None)", unicode_decode_with_offsets)
        .doc("Like tf.strings.unicode_decode, and also the byte offset (int64) where each character starts: a tuple (codepoints, offsets) of one shape.")
        .examples(&["tf.strings.unicode_decode_with_offsets(['a\u{e9}b', 'c'], 'UTF-8')"]),
    Builtin::function("tf.strings.unicode_split", "(input, input_encoding, errors='replace', replacement_char=65533, name=None)", unicode_split)
        .doc("Each string split into its characters (strings), one more ragged dimension than the input (a scalar gives a vector). Ill-formed bytes are handled as in tf.strings.unicode_decode.")
        .examples(&["tf.strings.unicode_split(['h\u{e9}llo', ''], 'UTF-8')"]),
    Builtin::function("tf.strings.unicode_split_with_offsets", "(input, input_encoding, errors='replace', replacement_char=65533, name=None)", unicode_split_with_offsets)
        .doc("Like tf.strings.unicode_split, and also the byte offset (int64) where each character starts: a tuple (chars, offsets).")
        .examples(&["tf.strings.unicode_split_with_offsets('\u{e9}t\u{e9}', 'UTF-8')"]),
    Builtin::function("tf.strings.unicode_encode", "(input, output_encoding, errors='replace', replacement_char=65533, name=None)", unicode_encode)
        .doc("Encodes the innermost rows of an integer tensor of code points as strings in 'UTF-8', 'UTF-16-BE' or 'UTF-32-BE': the result has one dimension less (a vector gives a scalar string). An invalid code point (negative, a surrogate or past U+10FFFF) becomes `replacement_char` (errors='replace'), is skipped ('ignore') or is an InvalidArgumentError ('strict').")
        .examples(&[
            "tf.strings.unicode_encode(tf.ragged.constant([[72, 233], [], [9731, 33]]), 'UTF-8')",
            "tf.strings.unicode_encode([104, 105], 'UTF-8')",
        ]),
    Builtin::function("tf.strings.unicode_transcode", "(input, input_encoding, output_encoding, errors='replace', replacement_char=65533, replace_control_characters=False, name=None)", unicode_transcode)
        .doc("Re-encodes every string from `input_encoding` (as tf.strings.unicode_decode reads it) to `output_encoding` ('UTF-8', 'UTF-16-BE' or 'UTF-32-BE'); the shape is unchanged. Ill-formed input is replaced, skipped or an error as in tf.strings.unicode_decode, so UTF-8 to UTF-8 cleans up bad bytes.")
        .examples(&["tf.strings.unicode_transcode(['h\u{e9}llo', tf.strings.substr('\u{e9}', 0, 1)], 'UTF-8', 'UTF-8')"]),
    Builtin::function("tf.strings.bytes_split", "(input, name=None)", bytes_split)
        .doc("Every string split into its bytes (one-byte strings): a scalar gives a vector, anything else gets one more ragged dimension. A multi-byte UTF-8 character becomes several pieces; tf.strings.unicode_split keeps characters whole.")
        .examples(&["tf.strings.bytes_split(['hello', '123'])", "tf.strings.bytes_split('abc')"]),
    Builtin::function("tf.compat.v1.string_split", "(source, sep=None, skip_empty=True, delimiter=None, result_type='SparseTensor', name=None)", string_split_v1)
        .doc("TensorFlow 1's split of a vector of strings: every character of `sep` (or its old name `delimiter`; ' ' by default) separates tokens, and an empty separator splits into bytes. Empty tokens are dropped unless skip_empty=False. Returns a SparseTensor [strings, most tokens] by default, or a RaggedTensor with result_type='RaggedTensor'.")
        .examples(&["tf.compat.v1.string_split(['hello world', 'a.b c'], sep=' .')", "tf.compat.v1.string_split(['#a', 'b#'], '#', skip_empty=False, result_type='RaggedTensor')"]),
    Builtin::function("tf.compat.v1.strings.split", "(input=None, sep=None, maxsplit=-1, result_type='SparseTensor', source=None, name=None)", strings_split_v1)
        .doc("TensorFlow 1's tf.strings.split: splits as tf.strings.split does (a scalar counts as a one-string vector) and returns a SparseTensor by default, or a RaggedTensor with result_type='RaggedTensor'. `source` is an old name of `input`.")
        .examples(&["tf.compat.v1.strings.split(['pigs on the wing', 'animals'])"]),
];

/// Argument `name` as a string tensor; numbers are a TypeError, as TensorFlow's string ops
/// raise for them.
fn strings(a: &Args, name: &str) -> Result<Arc<Array>> {
    strings_or(a, name, ExceptionClass::TypeError)
}

/// Like [`strings`], with the error class the op raises for non-strings (the ops that
/// convert their input as a ragged tensor raise ValueError).
fn strings_or(a: &Args, name: &str, class: ExceptionClass) -> Result<Arc<Array>> {
    let arr = a.array(name, Some(DType::String))?;
    if arr.dtype() != DType::String {
        return Err(Error::new(
            class,
            format!(
                "{}: {name} must be a string tensor, but it is a {} tensor",
                a.builtin().name,
                arr.dtype()
            ),
        )
        .at(a.span(name))
        .with_hint("format numbers first with tf.strings.as_string(x)"));
    }
    Ok(arr)
}

/// One string from `v` (a str or a scalar string tensor).
fn text_of(v: &Value) -> Option<Vec<u8>> {
    if let Value::Str(s) = v {
        return Some(s.as_bytes().to_vec());
    }
    match &*convert::to_array(v, Some(DType::String)).ok()? {
        Array::Dense(t) if t.rank() == 0 => match t.data() {
            Buffer::Str(s) => Some(s.get(0).to_vec()),
            _ => None,
        },
        _ => None,
    }
}

/// Argument `name` as one string (bytes), or `default` when absent.
fn text(a: &Args, name: &str, default: &str) -> Result<Vec<u8>> {
    match a.get(name) {
        None | Some(Value::None) => Ok(default.as_bytes().to_vec()),
        Some(v) => text_of(v).ok_or_else(|| {
            Error::new(
                ExceptionClass::TypeError,
                format!("{name} must be a string, not {}", v.type_name()),
            )
            .at(a.span(name))
        }),
    }
}

fn text_str(a: &Args, name: &str, default: &str) -> Result<String> {
    String::from_utf8(text(a, name, default)?).map_err(|_| {
        Error::new(
            ExceptionClass::InvalidArgumentError,
            format!("{name} must be valid UTF-8"),
        )
        .at(a.span(name))
    })
}

fn done(a: &Args, name: &str, r: ragtag_engine::Result<Array>) -> Result<Value> {
    r.map(Value::from_array).map_err(|e| a.err_at(name, e))
}

fn ngrams(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let data = strings(a, "data")?;
    let widths = match a.value("ngram_width") {
        v @ (Value::Int(_) | Value::Bool(_)) => {
            vec![convert::to_int(v).map_err(|e| a.err_at("ngram_width", e))?]
        }
        _ => a.ints("ngram_width")?,
    };
    let separator = text(a, "separator", " ")?;
    let (left_pad, right_pad, has_pad) = match a.get("pad_values") {
        None | Some(Value::None) => (Vec::new(), Vec::new(), false),
        Some(Value::Str(s)) => (s.as_bytes().to_vec(), s.as_bytes().to_vec(), true),
        Some(v) => {
            let bad = || {
                Error::new(
                    ExceptionClass::TypeError,
                    "pad_values must be a string or a (left, right) pair of strings",
                )
                .at(a.span("pad_values"))
            };
            let arr = convert::to_array(v, Some(DType::String)).map_err(|_| bad())?;
            match &*arr {
                Array::Dense(t) if t.dtype() == DType::String && t.rank() == 0 => {
                    let s = text_of(v).ok_or_else(bad)?;
                    (s.clone(), s, true)
                }
                Array::Dense(t) if t.dtype() == DType::String && t.rank() == 1 => {
                    let Buffer::Str(s) = t.data() else {
                        return Err(bad());
                    };
                    if s.len() < 2 {
                        return Err(Error::new(
                            ExceptionClass::IndexError,
                            "pad_values needs a (left, right) pair; this sequence has fewer than 2 items",
                        )
                        .at(a.span("pad_values")));
                    }
                    (s.get(0).to_vec(), s.get(1).to_vec(), true)
                }
                _ => return Err(bad()),
            }
        }
    };
    let padding_width = match a.get("padding_width") {
        None | Some(Value::None) => None,
        Some(_) => Some(a.int("padding_width")?),
    };
    if let Some(p) = padding_width {
        if p < 1 {
            return Err(Error::new(
                ExceptionClass::ValueError,
                format!("padding_width must be greater than 0, but is {p}"),
            )
            .at(a.span("padding_width")));
        }
        if !has_pad {
            return Err(Error::new(
                ExceptionClass::ValueError,
                "pad_values must be provided if padding_width is set",
            )
            .at(a.span("padding_width"))
            .with_hint("e.g. pad_values=('<s>', '</s>')"));
        }
    }
    let pad_width = match (has_pad, padding_width) {
        (false, _) => 0,
        (true, None) => -1,
        (true, Some(p)) => p,
    };
    let spec = NgramSpec {
        widths,
        separator,
        left_pad,
        right_pad,
        pad_width,
        preserve_short: a.flag("preserve_short_sequences", false)?,
    };
    let r = ops::ngrams(&data, &spec);
    let at = if spec.widths.iter().any(|&w| w < 1) {
        "ngram_width"
    } else {
        "data"
    };
    done(a, at, r)
}

fn regex_replace(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let x = strings(a, "input")?;
    let pattern = text_str(a, "pattern", "")?;
    let rewrite = text(a, "rewrite", "")?;
    let global = a.flag("replace_global", true)?;
    done(
        a,
        "pattern",
        ops::regex_replace(&x, &pattern, &rewrite, global),
    )
}

fn regex_full_match(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let x = strings(a, "input")?;
    let pattern = text_str(a, "pattern", "")?;
    done(a, "pattern", ops::regex_full_match(&x, &pattern))
}

fn decode_spec(a: &Args, encoding_arg: &str, control: bool) -> Result<DecodeSpec> {
    let encoding =
        Encoding::parse(&text_str(a, encoding_arg, "")?).map_err(|e| a.err_at(encoding_arg, e))?;
    let errors =
        OnError::parse(&text_str(a, "errors", "replace")?).map_err(|e| a.err_at("errors", e))?;
    let replacement = a.opt_int("replacement_char")?.unwrap_or(0xFFFD);
    let replacement = i32::try_from(replacement)
        .ok()
        .filter(|&r| u32::try_from(r).ok().and_then(char::from_u32).is_some())
        .ok_or_else(|| {
            Error::new(
                ExceptionClass::InvalidArgumentError,
                format!("replacement_char {replacement} is not a valid Unicode code point"),
            )
            .at(a.span("replacement_char"))
        })?;
    Ok(DecodeSpec {
        encoding,
        errors,
        replacement,
        replace_control: control && a.flag("replace_control_characters", false)?,
    })
}

/// The result of a `_with_offsets` op (values and offsets as a tuple) or of its plain form.
fn with_offsets(values: Array, offsets: Option<Array>) -> Value {
    match offsets {
        Some(o) => Value::tuple(vec![Value::from_array(values), Value::from_array(o)]),
        None => Value::from_array(values),
    }
}

fn decode(a: &Args, offsets: bool) -> Result<Value> {
    let x = strings_or(a, "input", ExceptionClass::InvalidArgumentError)?;
    let spec = decode_spec(a, "input_encoding", true)?;
    let (cps, offs) = ops::unicode_decode(&x, &spec, offsets).map_err(|e| a.err_at("input", e))?;
    Ok(with_offsets(cps, offs))
}

fn unicode_decode(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    decode(a, false)
}

fn unicode_decode_with_offsets(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    decode(a, true)
}

fn split(a: &Args, offsets: bool) -> Result<Value> {
    let x = strings_or(a, "input", ExceptionClass::InvalidArgumentError)?;
    let spec = decode_spec(a, "input_encoding", false)?;
    let (chars, offs) = ops::unicode_split(&x, &spec, offsets).map_err(|e| a.err_at("input", e))?;
    Ok(with_offsets(chars, offs))
}

fn unicode_split(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    split(a, false)
}

fn unicode_split_with_offsets(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    split(a, true)
}

fn unicode_encode(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    // Non-integers reach the op (an InvalidArgumentError there, as in TensorFlow).
    let x = a
        .array("input", Some(DType::Int32))
        .or_else(|_| a.array("input", None))?;
    let enc = Encoding::parse_output(&text_str(a, "output_encoding", "")?)
        .map_err(|e| a.err_at("output_encoding", e))?;
    let errors =
        OnError::parse(&text_str(a, "errors", "replace")?).map_err(|e| a.err_at("errors", e))?;
    let replacement = a.opt_int("replacement_char")?.unwrap_or(0xFFFD);
    done(
        a,
        "input",
        ops::unicode_encode(&x, enc, errors, replacement),
    )
}

fn unicode_transcode(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let x = strings(a, "input")?;
    let spec = decode_spec(a, "input_encoding", true)?;
    let out = Encoding::parse_output(&text_str(a, "output_encoding", "")?)
        .map_err(|e| a.err_at("output_encoding", e))?;
    done(a, "input", ops::unicode_transcode(&x, &spec, out))
}

fn bytes_split(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let x = strings_or(a, "input", ExceptionClass::ValueError)?;
    done(a, "input", ops::bytes_split(&x))
}

/// `result_type` of the TensorFlow 1 split ops: true for a SparseTensor.
fn wants_sparse(a: &Args) -> Result<bool> {
    match text_str(a, "result_type", "SparseTensor")?.as_str() {
        "SparseTensor" => Ok(true),
        "RaggedTensor" => Ok(false),
        other => Err(Error::new(
            ExceptionClass::ValueError,
            format!("result_type must be 'RaggedTensor' or 'SparseTensor', not '{other}'"),
        )
        .at(a.span("result_type"))),
    }
}

/// A split result as the TensorFlow 1 ops return it.
fn split_result(r: Array, sparse: bool) -> Value {
    match (r, sparse) {
        (Array::Ragged(r), true) => Value::Sparse(Arc::new(Sparse::from_ragged(&r))),
        (r, _) => Value::from_array(r),
    }
}

fn string_split_v1(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let x = strings_or(a, "source", ExceptionClass::InvalidArgumentError)?;
    let given = |n: &str| !matches!(a.get(n), None | Some(Value::None));
    if given("sep") && given("delimiter") {
        return Err(Error::new(
            ExceptionClass::ValueError,
            "give sep or delimiter (its old name), not both",
        )
        .at(a.span("delimiter")));
    }
    let name = if given("delimiter") {
        "delimiter"
    } else {
        "sep"
    };
    let delims = match a.get(name) {
        None | Some(Value::None) => b" ".to_vec(),
        Some(v) => text_of(v).ok_or_else(|| {
            Error::new(
                ExceptionClass::InvalidArgumentError,
                format!("{name} must be a single string (the separator characters)"),
            )
            .at(a.span(name))
        })?,
    };
    let skip_empty = a.flag("skip_empty", true)?;
    let sparse = wants_sparse(a)?;
    let r = ops::split_on_bytes(&x, &delims, skip_empty).map_err(|e| a.err_at("source", e))?;
    Ok(split_result(r, sparse))
}

fn strings_split_v1(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let name = match (a.get("input"), a.get("source")) {
        (Some(Value::None) | None, Some(v)) if !matches!(v, Value::None) => "source",
        _ => "input",
    };
    if matches!(a.get(name), None | Some(Value::None)) {
        return Err(Error::new(
            ExceptionClass::TypeError,
            "tf.compat.v1.strings.split needs input",
        )
        .at(a.call));
    }
    let x = strings(a, name)?;
    let x = match &*x {
        Array::Dense(t) if t.rank() == 0 => Arc::new(Array::Dense(
            t.reshaped(vec![1]).map_err(|e| a.err_at(name, e))?,
        )),
        _ => x,
    };
    let sep = match a.get("sep") {
        None | Some(Value::None) => None,
        Some(_) => Some(text(a, "sep", "")?),
    };
    let maxsplit = a.opt_int("maxsplit")?.unwrap_or(-1);
    let sparse = wants_sparse(a)?;
    let r = ops::split(&x, sep.as_deref(), maxsplit).map_err(|e| a.err_at(name, e))?;
    Ok(split_result(r, sparse))
}
