//! Writing to a file object: `write` and `writelines`, encoding text as the file was
//! opened to, straight to the disk for a write-only file or into the contents of one also
//! open for reading (see `files`).

use std::io::Write;

use super::codecs::{self, Codec, Errors};
use super::files::{char_end, contents, file, os_error, set_pos, Data};
use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::Interp;
use crate::value::class::{attr_get, attr_set, Instance};
use crate::value::Value;
use ragtag_engine::ExceptionClass;

/// What one `write` puts on the disk for the value `v`, and what it counts.
fn encoded(f: &Instance, v: &Value, a: &Args) -> Result<(Vec<u8>, usize)> {
    let binary = matches!(attr_get(&f.attrs, "_data"), Some(Value::Bytes(_)));
    if in_memory(f) && !binary {
        // A StringIO holds text, never encoded.
        return match v {
            Value::Str(s) => Ok((Vec::new(), s.chars().count())),
            other => Err(Error::new(
                ExceptionClass::TypeError,
                format!("string argument expected, got '{}'", other.type_name()),
            )
            .at(a.call)),
        };
    }
    match (binary, v) {
        (false, Value::Str(s)) => {
            let text = match attr_get(&f.attrs, "_newline") {
                Some(Value::Str(n)) if n.as_str() == "\r\n" || n.as_str() == "\r" => {
                    s.replace('\n', &n)
                }
                _ => s.to_string(),
            };
            let enc = match attr_get(&f.attrs, "encoding") {
                Some(Value::Str(e)) => e.to_string(),
                _ => "utf-8".into(),
            };
            let errors = match attr_get(&f.attrs, "_errors") {
                Some(Value::Str(e)) => e.to_string(),
                _ => "strict".into(),
            };
            let codec = Codec::named(&enc).map_err(|e| Error::from(e).at(a.call))?;
            let handler = Errors::named(&errors).map_err(|e| Error::from(e).at(a.call))?;
            let bytes =
                codecs::encode(&text, codec, handler).map_err(|e| Error::from(e).at(a.call))?;
            Ok((bytes, s.chars().count()))
        }
        (true, Value::Bytes(b)) => Ok((b.data.clone(), b.data.len())),
        (true, Value::ByteArray(b)) => {
            let data = b.bytes();
            let n = data.len();
            Ok((data, n))
        }
        (false, other) => Err(Error::new(
            ExceptionClass::TypeError,
            format!("write() argument must be str, not {}", other.type_name()),
        )
        .at(a.call)),
        (true, other) => Err(Error::new(
            ExceptionClass::TypeError,
            format!(
                "a bytes-like object is required, not '{}'",
                other.type_name()
            ),
        )
        .at(a.call)),
    }
}

/// Whether the file is held in memory only (`io.StringIO`, `io.BytesIO`: no name).
fn in_memory(f: &Instance) -> bool {
    attr_get(&f.attrs, "name").is_none()
}

/// Writes `v` to the file: appended on the disk for a write-only file; for one also open
/// for reading, placed at the position in memory (at the end in append mode) and the whole
/// contents written back.
fn put(f: &Instance, v: &Value, a: &Args) -> Result<usize> {
    let (bytes, count) = encoded(f, v, a)?;
    let path = match attr_get(&f.attrs, "name") {
        Some(Value::Str(p)) => p.to_string(),
        _ => String::new(),
    };
    let fail = |e: std::io::Error| os_error(&e, &path, a.call);
    let read_too = matches!(attr_get(&f.attrs, "_read"), Some(Value::Bool(true)));
    let memory = in_memory(f);
    if !read_too && !memory {
        std::fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .and_then(|mut h| h.write_all(&bytes))
            .map_err(fail)?;
        return Ok(count);
    }
    let (data, pos) = contents(f);
    let append = matches!(attr_get(&f.attrs, "_append"), Some(Value::Bool(true)));
    let mut at = if append { data.len() } else { pos };
    if let Data::Text(s) = &data {
        // Written from the start of a character a `seek` landed inside.
        while !s.is_char_boundary(at) {
            at -= 1;
        }
    }
    let (new, end) = match (&data, v) {
        (Data::Text(s), Value::Str(t)) => {
            let mut out = s[..at].to_string();
            out.push_str(t);
            let end = out.len();
            let after = char_end(s, at, t.chars().count());
            out.push_str(&s[after..]);
            (Value::str(out), end)
        }
        (Data::Bytes(b), _) => {
            let mut out = b.data[..at].to_vec();
            out.extend_from_slice(&bytes);
            let end = out.len();
            out.extend_from_slice(&b.data[(at + bytes.len()).min(b.data.len())..]);
            (Value::bytes(out), end)
        }
        _ => return Ok(count),
    };
    let whole = match &new {
        Value::Str(s) => encoded(f, &Value::Str(s.clone()), a)?.0,
        Value::Bytes(b) => b.data.clone(),
        _ => Vec::new(),
    };
    if !memory {
        std::fs::write(&path, whole).map_err(fail)?;
    }
    attr_set(&f.attrs, "_data", new);
    set_pos(f, end);
    Ok(count)
}

pub(super) fn write(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let f = file(a, false)?;
    let n = put(f, a.value("s"), a)?;
    Ok(Value::Int(n as i64))
}

pub(super) fn writelines(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let f = file(a, false)?;
    let lines = it.collect(a.value("lines"), a.span("lines"))?;
    for line in &lines {
        put(f, line, a)?;
    }
    Ok(Value::None)
}
