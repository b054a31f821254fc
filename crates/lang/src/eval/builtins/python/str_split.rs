//! The methods of Python's str that split it: `split`/`rsplit` (on a separator, or on runs
//! of Unicode whitespace, with `maxsplit`), `splitlines` (every line boundary CPython
//! knows) and `partition`/`rpartition`, as CPython 3.11 has them.

use super::str_methods::{is_py_space, me, size_arg, str_arg, str_method};
use super::Builtin;
use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::Interp;
use crate::value::Value;
use ragtag_engine::ExceptionClass;

/// The str methods that split.
pub static STR_SPLIT: &[Builtin] = &[
    str_method!("split", "(self, sep=None, maxsplit=-1)", split,
        "The parts between occurrences of `sep` (runs of whitespace when None), at most `maxsplit` splits.",
        "'a,b,,c'.split(',')"),
    str_method!("rsplit", "(self, sep=None, maxsplit=-1)", rsplit,
        "As split, counting `maxsplit` splits from the right.",
        "'a b c'.rsplit(None, 1)"),
    str_method!("splitlines", "(self, keepends=False)", splitlines,
        "The lines, split at \\n, \\r, \\r\\n and the other line boundaries; with their ends if `keepends`.",
        "'one\\ntwo\\r\\n'.splitlines()"),
    str_method!("partition", "(self, sep, /)", partition,
        "(before, sep, after) around the first `sep`, or (string, '', '').",
        "'key=value=1'.partition('=')"),
    str_method!("rpartition", "(self, sep, /)", rpartition,
        "(before, sep, after) around the last `sep`, or ('', '', string).",
        "'a.b.c'.rpartition('.')"),
];

/// A `sep` argument: None for whitespace; ValueError for an empty one.
fn sep_arg<'a>(a: &'a Args, name: &str) -> Result<Option<&'a str>> {
    match a.value(name) {
        Value::None => Ok(None),
        Value::Str(s) if s.is_empty() => {
            Err(Error::new(ExceptionClass::ValueError, "empty separator").at(a.span(name)))
        }
        Value::Str(s) => Ok(Some(s.as_str())),
        v => Err(Error::new(
            ExceptionClass::TypeError,
            format!("must be str or None, not {}", v.type_name()),
        )
        .at(a.span(name))),
    }
}

/// `maxsplit` as a limit on the number of splits (None for no limit: a negative count).
fn maxsplit_arg(a: &Args) -> Result<Option<usize>> {
    if a.given("maxsplit").is_none() {
        return Ok(None);
    }
    Ok(usize::try_from(size_arg(a, "maxsplit")?).ok())
}

/// The words between runs of whitespace, at most `limit` splits counted from the left (the
/// last word keeps the rest of the string, trailing whitespace stripped only when unlimited).
fn split_space(s: &str, limit: Option<usize>) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = s.trim_start_matches(is_py_space);
    while !rest.is_empty() {
        if limit == Some(out.len()) {
            out.push(rest);
            break;
        }
        let end = rest.find(is_py_space).unwrap_or(rest.len());
        out.push(&rest[..end]);
        rest = rest[end..].trim_start_matches(is_py_space);
    }
    out
}

/// As `split_space`, counting splits from the right.
fn rsplit_space(s: &str, limit: Option<usize>) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = s.trim_end_matches(is_py_space);
    while !rest.is_empty() {
        if limit == Some(out.len()) {
            out.push(rest);
            break;
        }
        let start = rest.rfind(is_py_space).map_or(0, |b| {
            b + rest[b..].chars().next().map_or(1, char::len_utf8)
        });
        out.push(&rest[start..]);
        rest = rest[..start].trim_end_matches(is_py_space);
    }
    out.reverse();
    out
}

fn strs(parts: Vec<&str>) -> Value {
    Value::list(parts.into_iter().map(Value::str).collect())
}

fn split(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let s = me(a);
    let sep = sep_arg(a, "sep")?;
    let limit = maxsplit_arg(a)?;
    Ok(strs(match (sep, limit) {
        (None, limit) => split_space(s, limit),
        (Some(sep), None) => s.split(sep).collect(),
        (Some(sep), Some(n)) => s.splitn(n.saturating_add(1), sep).collect(),
    }))
}

fn rsplit(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let s = me(a);
    let sep = sep_arg(a, "sep")?;
    let limit = maxsplit_arg(a)?;
    let mut parts: Vec<&str> = match (sep, limit) {
        (None, limit) => return Ok(strs(rsplit_space(s, limit))),
        (Some(sep), None) => s.rsplit(sep).collect(),
        (Some(sep), Some(n)) => s.rsplitn(n.saturating_add(1), sep).collect(),
    };
    parts.reverse();
    Ok(strs(parts))
}

/// Python's line boundaries (`str.splitlines`), besides `\r\n`.
fn is_line_end(c: char) -> bool {
    matches!(
        c,
        '\n' | '\r'
            | '\x0b'
            | '\x0c'
            | '\x1c'
            | '\x1d'
            | '\x1e'
            | '\u{85}'
            | '\u{2028}'
            | '\u{2029}'
    )
}

fn splitlines(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let s = me(a);
    let keep = a.flag("keepends", false)?;
    let mut out = Vec::new();
    let mut start = 0;
    let mut chars = s.char_indices().peekable();
    while let Some((b, c)) = chars.next() {
        if !is_line_end(c) {
            continue;
        }
        let mut end = b + c.len_utf8();
        if c == '\r' && chars.peek().map(|&(_, n)| n) == Some('\n') {
            chars.next();
            end += 1;
        }
        out.push(&s[start..if keep { end } else { b }]);
        start = end;
    }
    if start < s.len() {
        out.push(&s[start..]);
    }
    Ok(strs(out))
}

fn partition_at(a: &Args, last: bool) -> Result<Value> {
    let s = me(a);
    let sep = str_arg(a, "sep", "must be")?;
    if sep.is_empty() {
        return Err(Error::new(ExceptionClass::ValueError, "empty separator").at(a.span("sep")));
    }
    let at = if last { s.rfind(sep) } else { s.find(sep) };
    let parts = match at {
        Some(b) => [&s[..b], sep, &s[b + sep.len()..]],
        None if last => ["", "", s],
        None => [s, "", ""],
    };
    Ok(Value::tuple(parts.into_iter().map(Value::str).collect()))
}

fn partition(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    partition_at(a, false)
}
fn rpartition(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    partition_at(a, true)
}
