//! `tf.io`'s byte ops: base64 in TensorFlow's web-safe alphabet, `decode_raw`, reading and
//! writing whole files as string tensors, `matching_files`, and `tf.fingerprint`.

use std::path::PathBuf;
use std::sync::Arc;

use super::Builtin;
use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::Interp;
use crate::value::Value;
use ragtag_engine::ops::strings as ops;
use ragtag_engine::{Array, Buffer, DType, ExceptionClass, Tensor};

/// The `tf.io` byte builtins.
pub static BUILTINS: &[Builtin] = &[
    Builtin::function("tf.io.encode_base64", "(input, pad=False, name=None)", encode_base64)
        .doc("Every string in web-safe base64 (`-` and `_` for `+` and `/`), without `=` padding unless pad=True; ragged input keeps its rows.")
        .aliases(&["tf.compat.v1.encode_base64"])
        .examples(&["tf.io.encode_base64(['hello', 'a?>'])", "tf.io.encode_base64('hello', pad=True)"]),
    Builtin::function("tf.io.decode_base64", "(input, name=None)", decode_base64)
        .doc("The bytes each web-safe base64 string spells (padding optional); any other character, or a length of 1 modulo 4, is an InvalidArgumentError.")
        .aliases(&["tf.compat.v1.decode_base64"])
        .examples(&["tf.io.decode_base64(['aGVsbG8', 'YT8-'])"]),
    Builtin::function("tf.io.decode_raw", "(input_bytes, out_type, little_endian=True, fixed_length=None, name=None)", decode_raw)
        .doc("Each string's bytes read as numbers of `out_type` (one more dimension): all strings must be one length, unless `fixed_length` cuts or zero-pads each to that many bytes. little_endian=False reads big-endian numbers.")
        .aliases(&["tf.compat.v1.decode_raw"])
        .examples(&["tf.io.decode_raw(['\\x01\\x00\\x02\\x00'], tf.int16)", "tf.io.decode_raw(['abcd', 'ab'], tf.uint8, fixed_length=4)"]),
    Builtin::function("tf.io.read_file", "(filename, name=None)", read_file)
        .doc("The whole contents of a file (relative to the working directory) as a scalar string tensor; a missing file is a NotFoundError.")
        .aliases(&["tf.compat.v1.read_file"])
        .examples(&["tf.io.write_file('hello.txt', 'hi')\ntf.io.read_file('hello.txt')"]),
    Builtin::function("tf.io.write_file", "(filename, contents, name=None)", write_file)
        .doc("Writes a scalar string (bytes or text) as the whole contents of a file, replacing it.")
        .aliases(&["tf.compat.v1.write_file"])
        .examples(&["tf.io.write_file('out.bin', b'\\x00\\x01')"]),
    Builtin::function("tf.io.matching_files", "(pattern, name=None)", matching_files)
        .doc("The paths matching a glob pattern (`*`, `?`, `[...]`), sorted, as a string vector.")
        .aliases(&["tf.compat.v1.matching_files"])
        .examples(&["tf.io.write_file('m1.txt', 'a')\ntf.io.matching_files('m*.txt')"]),
    Builtin::function("tf.fingerprint", "(data, method='farmhash64', name=None)", fingerprint)
        .doc("A uint8 [n, 8] tensor: for each row of `data` (along its first dimension) the FarmHash Fingerprint64 of its content, as eight little-endian bytes (TensorFlow's method 'farmhash64').")
        .examples(&["tf.fingerprint(tf.constant(['hello', 'world']))", "tf.fingerprint(tf.constant([1, 2, 3]))"]),
];

/// Argument `name` as a string tensor (TypeError for numbers, as TensorFlow converts).
pub(super) fn strings(a: &Args, name: &str) -> Result<Arc<Array>> {
    let arr = a.array(name, Some(DType::String))?;
    if arr.dtype() != DType::String {
        return Err(Error::new(
            ExceptionClass::TypeError,
            format!(
                "Cannot convert {} to EagerTensor of dtype string",
                crate::render::tf_text::repr_of(a.value(name))
            ),
        )
        .at(a.span(name)));
    }
    Ok(arr)
}

fn done(a: &Args, name: &str, r: ragtag_engine::Result<Array>) -> Result<Value> {
    r.map(Value::from_array).map_err(|e| a.err_at(name, e))
}

fn encode_base64(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let x = strings(a, "input")?;
    done(a, "input", ops::encode_base64(&x, a.flag("pad", false)?))
}

fn decode_base64(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let x = strings(a, "input")?;
    done(a, "input", ops::decode_base64(&x))
}

fn dense(a: &Args, name: &str, x: &Array) -> Result<Tensor> {
    match x {
        Array::Dense(t) => Ok(t.clone()),
        Array::Ragged(_) => Err(Error::new(
            ExceptionClass::TypeError,
            format!("{name} must be a dense tensor, not a RaggedTensor"),
        )
        .at(a.span(name))),
    }
}

fn decode_raw(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let x = strings(a, "input_bytes")?;
    let t = dense(a, "input_bytes", &x)?;
    let out = a.dtype("out_type")?.unwrap_or(DType::UInt8);
    let fixed = match a.opt_int("fixed_length")? {
        None => None,
        Some(n) => Some(usize::try_from(n).map_err(|_| {
            Error::new(
                ExceptionClass::InvalidArgumentError,
                format!("fixed_length must be non-negative, got {n}"),
            )
            .at(a.span("fixed_length"))
        })?),
    };
    ops::decode_raw(&t, out, a.flag("little_endian", true)?, fixed)
        .map(Value::tensor)
        .map_err(|e| a.err_at("input_bytes", e))
}

/// Argument `name` as one string (a str, bytes or scalar string tensor).
fn one_string(a: &Args, name: &str) -> Result<Vec<u8>> {
    let x = strings(a, name)?;
    match x.flat_values().data() {
        Buffer::Str(s) if x.rank() == 0 && s.len() == 1 => Ok(s.get(0).to_vec()),
        _ => Err(Error::new(
            ExceptionClass::InvalidArgumentError,
            format!(
                "{name} must be a scalar string, but has shape {:?}",
                x.shape()
            ),
        )
        .at(a.span(name))),
    }
}

fn path_of(bytes: Vec<u8>) -> PathBuf {
    PathBuf::from(String::from_utf8_lossy(&bytes).into_owned())
}

/// TensorFlow raises NotFoundError where Python raises FileNotFoundError.
fn tf_file_error(e: Error, path: &std::path::Path) -> Error {
    if e.class == ExceptionClass::FileNotFoundError {
        let mut e = e;
        e.class = ExceptionClass::NotFoundError;
        e.message = format!("{}; No such file or directory", path.display());
        return e;
    }
    e
}

fn read_file(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let path = path_of(one_string(a, "filename")?);
    let bytes = crate::formats::fs::read(&path)
        .map_err(|e| tf_file_error(e, &path).at(a.span("filename")))?;
    Ok(Value::tensor(Tensor::from_parts(
        Vec::new(),
        Buffer::Str({
            let mut s = ragtag_engine::strings::StringBuf::new();
            s.push(&bytes);
            s
        }),
    )))
}

fn write_file(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let path = path_of(one_string(a, "filename")?);
    let contents = one_string(a, "contents")?;
    crate::formats::fs::replace(&path, &contents)
        .map_err(|e| tf_file_error(e, &path).at(a.span("filename")))?;
    Ok(Value::None)
}

fn matching_files(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let pattern = String::from_utf8_lossy(&one_string(a, "pattern")?).into_owned();
    let p = std::path::Path::new(&pattern);
    let dir = p
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(std::path::Path::new("."));
    let name = p
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut found: Vec<String> = Vec::new();
    if let Ok(entries) = std::fs::read_dir(dir) {
        for e in entries.flatten() {
            let file = e.file_name().to_string_lossy().into_owned();
            if glob_match(name.as_bytes(), file.as_bytes()) {
                found.push(format!("{}/{file}", dir.display()));
            }
        }
    }
    found.sort();
    let n = found.len();
    Ok(Value::tensor(Tensor::from_parts(
        vec![n],
        Buffer::Str(ragtag_engine::strings::StringBuf::from_strs(
            found.iter().map(String::as_str),
        )),
    )))
}

/// A glob match of one path component: `*`, `?` and `[...]` classes.
fn glob_match(p: &[u8], s: &[u8]) -> bool {
    match (p.first(), s.first()) {
        (None, None) => true,
        (Some(b'*'), _) => glob_match(&p[1..], s) || (!s.is_empty() && glob_match(p, &s[1..])),
        (Some(b'?'), Some(_)) => glob_match(&p[1..], &s[1..]),
        (Some(b'['), Some(&c)) => match p.iter().position(|&x| x == b']') {
            Some(end) if end > 1 => {
                let class = &p[1..end];
                let (neg, class) = match class.first() {
                    Some(b'^' | b'!') => (true, &class[1..]),
                    _ => (false, class),
                };
                let mut hit = false;
                let mut i = 0;
                while i < class.len() {
                    if i + 2 < class.len() && class[i + 1] == b'-' {
                        hit |= class[i] <= c && c <= class[i + 2];
                        i += 3;
                    } else {
                        hit |= class[i] == c;
                        i += 1;
                    }
                }
                hit != neg && glob_match(&p[end + 1..], &s[1..])
            }
            _ => c == b'[' && glob_match(&p[1..], &s[1..]),
        },
        (Some(&x), Some(&c)) => x == c && glob_match(&p[1..], &s[1..]),
        _ => false,
    }
}

fn fingerprint(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let x = a.array("data", None)?;
    let t = dense(a, "data", &x)?;
    let method = a.opt_str("method")?.unwrap_or_else(|| "farmhash64".into());
    ops::fingerprint(&t, &method)
        .map(Value::tensor)
        .map_err(|e| a.err_at("data", e))
}
