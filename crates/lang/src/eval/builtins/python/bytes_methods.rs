//! The methods of bytes and bytearray, each registered for both (a bytearray's methods that
//! make new bytes make a bytearray).

use super::search::{self, Search};
use super::Builtin;
use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::operators::bytes::{byte_of, data, find};
use crate::eval::Interp;
use crate::value::Value;
use ragtag_engine::ExceptionClass;

/// A method of both bytes and bytearray (and NumPy's bytes_).
macro_rules! both {
    ($name:literal, $sig:literal, $f:expr, $doc:literal, $ex:literal) => {
        Builtin::method(concat!("bytes.", $name), $sig, $f)
            .doc($doc)
            .examples(&[$ex])
            .aliases(&[concat!("bytearray.", $name), concat!("bytes_.", $name)])
    };
}

/// The methods bytes and bytearray share.
pub static BYTES_METHODS: &[Builtin] = &[
    both!("hex", "(self, sep=None, bytes_per_sep=1)", hex,
        "Two hexadecimal digits per byte; `sep` between groups of `bytes_per_sep` bytes (counted from the right; from the left when negative).",
        "b'\\x01\\x02\\xff'.hex(':')"),
    both!("split", "(self, sep=None, maxsplit=-1)", split,
        "The parts between occurrences of `sep` (runs of ASCII whitespace when None), at most `maxsplit` splits.",
        "b'a,b,,c'.split(b',')"),
    both!("rsplit", "(self, sep=None, maxsplit=-1)", rsplit,
        "As split, counting `maxsplit` splits from the right.",
        "b'a b c'.rsplit(None, 1)"),
    both!("join", "(self, iterable_of_bytes)", join,
        "The bytes-like items joined with these bytes between them.",
        "b'-'.join([b'a', b'b'])"),
    both!("strip", "(self, bytes=None)", strip,
        "Without leading and trailing bytes in `bytes` (ASCII whitespace when None).",
        "b'  a  '.strip()"),
    both!("lstrip", "(self, bytes=None)", lstrip,
        "Without leading bytes in `bytes` (ASCII whitespace when None).",
        "b'xxa'.lstrip(b'x')"),
    both!("rstrip", "(self, bytes=None)", rstrip,
        "Without trailing bytes in `bytes` (ASCII whitespace when None).",
        "b'a\\n'.rstrip()"),
    both!("startswith", "(self, prefix, start=None, end=None)", startswith,
        "Whether the bytes (from `start` to `end`) begin with `prefix` (or one of a tuple of them).",
        "b'abc'.startswith(b'ab')"),
    both!("endswith", "(self, suffix, start=None, end=None)", endswith,
        "Whether the bytes (from `start` to `end`) end with `suffix` (or one of a tuple of them).",
        "b'abc'.endswith((b'x', b'c'))"),
    both!("find", "(self, sub, start=None, end=None)", search::find::<Bytes>,
        "The first position of `sub` (bytes or an int byte), or -1.",
        "b'abcb'.find(b'b')"),
    both!("rfind", "(self, sub, start=None, end=None)", search::rfind::<Bytes>,
        "The last position of `sub` (bytes or an int byte), or -1.",
        "b'abcb'.rfind(98)"),
    both!("index", "(self, sub, start=None, end=None)", search::index::<Bytes>,
        "As find, with a ValueError when `sub` is not there.",
        "b'abc'.index(b'c')"),
    both!("rindex", "(self, sub, start=None, end=None)", search::rindex::<Bytes>,
        "As rfind, with a ValueError when `sub` is not there.",
        "b'abcb'.rindex(b'b')"),
    both!("count", "(self, sub, start=None, end=None)", count,
        "How many times `sub` occurs without overlapping.",
        "b'aaa'.count(b'a')"),
    both!("replace", "(self, old, new, count=-1)", replace,
        "Every occurrence of `old` (the first `count`, if given) replaced by `new`.",
        "b'a-b-c'.replace(b'-', b'+', 1)"),
    both!("upper", "(self)", upper, "ASCII letters in upper case.", "b'ab1'.upper()"),
    both!("lower", "(self)", lower, "ASCII letters in lower case.", "b'AB1'.lower()"),
    both!("isdigit", "(self)", isdigit, "Whether every byte is an ASCII digit (and there is one).", "b'123'.isdigit()"),
    both!("isalpha", "(self)", isalpha, "Whether every byte is an ASCII letter (and there is one).", "b'ab'.isalpha()"),
    both!("isspace", "(self)", isspace, "Whether every byte is ASCII whitespace (and there is one).", "b' \\t'.isspace()"),
    both!("isalnum", "(self)", isalnum, "Whether every byte is an ASCII letter or digit (and there is one).", "b'a1'.isalnum()"),
];

fn me(a: &Args) -> Vec<u8> {
    data(a.value("self")).unwrap_or_default()
}

/// New bytes of the receiver's kind (a bytearray's methods make bytearrays).
fn like(a: &Args, out: Vec<u8>) -> Value {
    match a.value("self") {
        Value::ByteArray(_) => Value::bytearray(out),
        _ => Value::bytes(out),
    }
}

/// Argument `name` as bytes; CPython's TypeError for anything not bytes-like.
fn arg(a: &Args, name: &str) -> Result<Vec<u8>> {
    data(a.value(name)).ok_or_else(|| {
        Error::new(
            ExceptionClass::TypeError,
            format!(
                "a bytes-like object is required, not '{}'",
                a.value(name).type_name()
            ),
        )
        .at(a.span(name))
    })
}

/// A `sub` argument: bytes, or an int byte.
fn sub_arg(a: &Args) -> Result<Vec<u8>> {
    match a.value("sub") {
        v @ (Value::Int(_) | Value::Bool(_)) => {
            Ok(vec![byte_of(v).map_err(|e| a.err_at("sub", e))?])
        }
        v => data(v).ok_or_else(|| {
            Error::new(
                ExceptionClass::TypeError,
                format!(
                    "argument should be integer or bytes-like object, not '{}'",
                    v.type_name()
                ),
            )
            .at(a.span("sub"))
        }),
    }
}

/// The `start:end` window of `n` bytes, as a slice clamps it; None when `start` is past
/// the end (where find finds nothing, not even an empty needle).
fn window(a: &Args, n: usize) -> Result<Option<(usize, usize)>> {
    let fix = |v: Option<i64>, default: usize| match v {
        None => default as i64,
        Some(i) if i < 0 => (n as i64 + i).max(0),
        Some(i) => i,
    };
    let start = fix(a.opt_int("start")?, 0);
    let end = fix(a.opt_int("end")?, n).min(n as i64);
    if start > n as i64 {
        return Ok(None);
    }
    Ok(Some((start as usize, end.max(start) as usize)))
}

fn hex(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let b = me(a);
    let digits: Vec<String> = b.iter().map(|c| format!("{c:02x}")).collect();
    let sep = match a.get("sep") {
        None => return Ok(Value::str(digits.concat())),
        Some(Value::Str(s)) if s.chars().count() == 1 && s.is_ascii() => s.to_string(),
        Some(Value::Str(_)) => {
            return Err(
                Error::new(ExceptionClass::ValueError, "sep must be length 1.").at(a.span("sep")),
            )
        }
        Some(v) => match data(v) {
            Some(d) if d.len() == 1 && d[0].is_ascii() => (d[0] as char).to_string(),
            _ => {
                return Err(
                    Error::new(ExceptionClass::ValueError, "sep must be length 1.")
                        .at(a.span("sep")),
                )
            }
        },
    };
    let per = a.opt_int("bytes_per_sep")?.unwrap_or(1);
    let group = per.unsigned_abs().max(1) as usize;
    if per == 0 {
        return Ok(Value::str(digits.concat()));
    }
    let n = digits.len();
    let mut out = String::new();
    for (i, d) in digits.iter().enumerate() {
        // Groups are counted from the right for a positive count, from the left otherwise.
        let boundary = if per > 0 {
            i > 0 && (n - i).is_multiple_of(group)
        } else {
            i > 0 && i % group == 0
        };
        if boundary {
            out.push_str(&sep);
        }
        out.push_str(d);
    }
    Ok(Value::str(out))
}

const WHITESPACE: &[u8] = b" \t\n\r\x0b\x0c";

/// CPython's split: on `sep`, or on runs of whitespace; `maxsplit` < 0 for no limit.
fn split_bytes(b: &[u8], sep: Option<&[u8]>, maxsplit: i64) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    let limit = if maxsplit < 0 {
        usize::MAX
    } else {
        maxsplit as usize
    };
    match sep {
        Some(sep) => {
            let mut start = 0;
            while out.len() < limit {
                match find(b, sep, start) {
                    Some(p) => {
                        out.push(b[start..p].to_vec());
                        start = p + sep.len();
                    }
                    None => break,
                }
            }
            out.push(b[start..].to_vec());
        }
        None => {
            let mut i = 0;
            while i < b.len() && WHITESPACE.contains(&b[i]) {
                i += 1;
            }
            while i < b.len() {
                if out.len() == limit {
                    out.push(b[i..].to_vec());
                    break;
                }
                let start = i;
                while i < b.len() && !WHITESPACE.contains(&b[i]) {
                    i += 1;
                }
                out.push(b[start..i].to_vec());
                while i < b.len() && WHITESPACE.contains(&b[i]) {
                    i += 1;
                }
            }
        }
    }
    out
}

fn sep_arg(a: &Args) -> Result<Option<Vec<u8>>> {
    match a.get("sep") {
        None => Ok(None),
        Some(_) => {
            let s = arg(a, "sep")?;
            if s.is_empty() {
                return Err(
                    Error::new(ExceptionClass::ValueError, "empty separator").at(a.span("sep"))
                );
            }
            Ok(Some(s))
        }
    }
}

fn split(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let sep = sep_arg(a)?;
    let max = a.opt_int("maxsplit")?.unwrap_or(-1);
    let parts = split_bytes(&me(a), sep.as_deref(), max);
    Ok(Value::list(parts.into_iter().map(|p| like(a, p)).collect()))
}

fn rsplit(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let sep = sep_arg(a)?;
    let max = a.opt_int("maxsplit")?.unwrap_or(-1);
    // Splitting the reversed bytes on the reversed separator counts from the right.
    let mut b = me(a);
    b.reverse();
    let rsep = sep.map(|mut s| {
        s.reverse();
        s
    });
    let mut parts = split_bytes(&b, rsep.as_deref(), max);
    parts.reverse();
    Ok(Value::list(
        parts
            .into_iter()
            .map(|mut p| {
                p.reverse();
                like(a, p)
            })
            .collect(),
    ))
}

fn join(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let sep = me(a);
    let items = it.iterate_value(a.value("iterable_of_bytes"), a.span("iterable_of_bytes"))?;
    let mut out = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let Some(d) = data(item) else {
            return Err(Error::new(
                ExceptionClass::TypeError,
                format!(
                    "sequence item {i}: expected a bytes-like object, {} found",
                    item.type_name()
                ),
            )
            .at(a.span("iterable_of_bytes")));
        };
        if i > 0 {
            out.extend_from_slice(&sep);
        }
        out.extend(d);
    }
    Ok(like(a, out))
}

fn strip_set(a: &Args) -> Result<Vec<u8>> {
    match a.get("bytes") {
        None => Ok(WHITESPACE.to_vec()),
        Some(_) => arg(a, "bytes"),
    }
}

fn strip_ends(a: &Args, left: bool, right: bool) -> Result<Value> {
    let set = strip_set(a)?;
    let b = me(a);
    let mut s = 0;
    let mut e = b.len();
    while left && s < e && set.contains(&b[s]) {
        s += 1;
    }
    while right && e > s && set.contains(&b[e - 1]) {
        e -= 1;
    }
    Ok(like(a, b[s..e].to_vec()))
}

fn strip(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    strip_ends(a, true, true)
}
fn lstrip(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    strip_ends(a, true, false)
}
fn rstrip(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    strip_ends(a, false, true)
}

fn affix(a: &Args, name: &str, start: bool) -> Result<Value> {
    let b = me(a);
    let Some((s, e)) = window(a, b.len())? else {
        return Ok(Value::Bool(false));
    };
    let hay = &b[s..e];
    let options: Vec<Value> = match a.value(name) {
        Value::Tuple(t) => t.to_vec(),
        v => vec![v.clone()],
    };
    for o in &options {
        let Some(d) = data(o) else {
            let what = if start { "startswith" } else { "endswith" };
            return Err(Error::new(
                ExceptionClass::TypeError,
                format!(
                    "{what} first arg must be bytes or a tuple of bytes, not {}",
                    o.type_name()
                ),
            )
            .at(a.span(name)));
        };
        if (start && hay.starts_with(&d)) || (!start && hay.ends_with(&d)) {
            return Ok(Value::Bool(true));
        }
    }
    Ok(Value::Bool(false))
}

fn startswith(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    affix(a, "prefix", true)
}
fn endswith(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    affix(a, "suffix", false)
}

/// The position of `sub` in the window (first or last), or None.
fn locate(a: &Args, last: bool) -> Result<Option<usize>> {
    let b = me(a);
    let sub = sub_arg(a)?;
    let Some((s, e)) = window(a, b.len())? else {
        return Ok(None);
    };
    let hay = &b[s..e];
    Ok(if last {
        if sub.len() > hay.len() {
            None
        } else {
            (0..=hay.len() - sub.len())
                .rev()
                .find(|&i| hay[i..].starts_with(&sub))
        }
    } else {
        find(hay, &sub, 0)
    }
    .map(|p| p + s))
}

/// bytes' and bytearray's searches, by byte position.
struct Bytes;

impl Search for Bytes {
    const MISSING: &'static str = "subsection not found";
    fn locate(a: &Args, last: bool) -> Result<Option<usize>> {
        locate(a, last)
    }
}

fn count(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let b = me(a);
    let sub = sub_arg(a)?;
    let Some((s, e)) = window(a, b.len())? else {
        return Ok(Value::Int(0));
    };
    let hay = &b[s..e];
    if sub.is_empty() {
        return Ok(Value::Int(hay.len() as i64 + 1));
    }
    let mut n = 0;
    let mut at = 0;
    while let Some(p) = find(hay, &sub, at) {
        n += 1;
        at = p + sub.len();
    }
    Ok(Value::Int(n))
}

fn replace(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let b = me(a);
    let old = arg(a, "old")?;
    let new = arg(a, "new")?;
    let limit = match a.opt_int("count")?.unwrap_or(-1) {
        c if c < 0 => usize::MAX,
        c => c as usize,
    };
    let mut out = Vec::new();
    let mut done = 0;
    if old.is_empty() {
        // An empty `old` matches before every byte and at the end.
        for (i, &c) in b.iter().enumerate() {
            if i < limit {
                out.extend_from_slice(&new);
            }
            out.push(c);
        }
        if b.len() < limit {
            out.extend_from_slice(&new);
        }
        return Ok(like(a, out));
    }
    let mut at = 0;
    while done < limit {
        let Some(p) = find(&b, &old, at) else { break };
        out.extend_from_slice(&b[at..p]);
        out.extend_from_slice(&new);
        at = p + old.len();
        done += 1;
    }
    out.extend_from_slice(&b[at..]);
    Ok(like(a, out))
}

fn upper(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    Ok(like(a, me(a).to_ascii_uppercase()))
}
fn lower(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    Ok(like(a, me(a).to_ascii_lowercase()))
}

fn all_of(a: &Args, f: fn(&u8) -> bool) -> Value {
    let b = me(a);
    Value::Bool(!b.is_empty() && b.iter().all(f))
}
fn isdigit(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    Ok(all_of(a, u8::is_ascii_digit))
}
fn isalpha(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    Ok(all_of(a, u8::is_ascii_alphabetic))
}
fn isspace(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    Ok(all_of(a, |c| WHITESPACE.contains(c)))
}
fn isalnum(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    Ok(all_of(a, u8::is_ascii_alphanumeric))
}
