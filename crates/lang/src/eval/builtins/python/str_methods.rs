//! The methods of Python's str that search, strip and pad, as CPython 3.11 has them:
//! positions count characters (not bytes), `start`/`end` follow slice rules, and sizes that
//! grow with an argument (widths, tab sizes, replacements) are checked against the memory
//! budget before the string is built.

use super::search::{self, Search};
use super::Builtin;
use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::Interp;
use crate::value::Value;
use ragtag_engine::{budget, ExceptionClass};

/// A str method with its doc and one example.
macro_rules! str_method {
    ($name:literal, $sig:literal, $f:expr, $doc:literal, $ex:literal) => {
        Builtin::method(concat!("str.", $name), $sig, $f)
            .doc($doc)
            .examples(&[$ex])
    };
}
pub(super) use str_method;

/// The str methods that search, strip and pad.
pub static STR_METHODS: &[Builtin] = &[
    str_method!("format_map", "(self, mapping, /)", super::text::format_map,
        "As `str.format(**mapping)`, each name looked up in `mapping` when its field is met (a defaultdict's missing key is made then).",
        "'{x} and {y}'.format_map({'x': 1, 'y': 2})"),
    str_method!("startswith", "(self, prefix, start=None, end=None, /)", startswith,
        "Whether the string (from `start` to `end`) begins with `prefix` (or one of a tuple of them).",
        "'spam.py'.startswith(('sp', 'eg'))"),
    str_method!("endswith", "(self, suffix, start=None, end=None, /)", endswith,
        "Whether the string (from `start` to `end`) ends with `suffix` (or one of a tuple of them).",
        "'spam.py'.endswith('.py')"),
    str_method!("find", "(self, sub, start=None, end=None, /)", search::find::<Text>,
        "The first position of `sub` between `start` and `end`, or -1.",
        "'banana'.find('na', 3)"),
    str_method!("rfind", "(self, sub, start=None, end=None, /)", search::rfind::<Text>,
        "The last position of `sub` between `start` and `end`, or -1.",
        "'banana'.rfind('na')"),
    str_method!("index", "(self, sub, start=None, end=None, /)", search::index::<Text>,
        "As find, with a ValueError when `sub` is not there.",
        "'banana'.index('n')"),
    str_method!("rindex", "(self, sub, start=None, end=None, /)", search::rindex::<Text>,
        "As rfind, with a ValueError when `sub` is not there.",
        "'banana'.rindex('n')"),
    str_method!("count", "(self, sub, start=None, end=None, /)", count,
        "How many times `sub` occurs between `start` and `end`, without overlapping.",
        "'banana'.count('a')"),
    str_method!("replace", "(self, old, new, count=-1, /)", replace,
        "Every occurrence of `old` (the first `count`, if given) replaced by `new`.",
        "'a-b-c'.replace('-', '+', 1)"),
    str_method!("strip", "(self, chars=None, /)", strip,
        "Without leading and trailing characters in `chars` (whitespace when None).",
        "'xxhixx'.strip('x')"),
    str_method!("lstrip", "(self, chars=None, /)", lstrip,
        "Without leading characters in `chars` (whitespace when None).",
        "'  hi  '.lstrip()"),
    str_method!("rstrip", "(self, chars=None, /)", rstrip,
        "Without trailing characters in `chars` (whitespace when None).",
        "'line\\n'.rstrip()"),
    str_method!("removeprefix", "(self, prefix, /)", removeprefix,
        "Without `prefix` if it starts with it.",
        "'test_x'.removeprefix('test_')"),
    str_method!("removesuffix", "(self, suffix, /)", removesuffix,
        "Without `suffix` if it ends with it.",
        "'data.csv'.removesuffix('.csv')"),
    str_method!("center", "(self, width, fillchar=' ', /)", center,
        "Centred in `width` characters of `fillchar` (the extra one on the right, as CPython places it).",
        "'hi'.center(6, '*')"),
    str_method!("ljust", "(self, width, fillchar=' ', /)", ljust,
        "Padded on the right with `fillchar` to `width` characters.",
        "'hi'.ljust(5, '.')"),
    str_method!("rjust", "(self, width, fillchar=' ', /)", rjust,
        "Padded on the left with `fillchar` to `width` characters.",
        "'42'.rjust(5)"),
    str_method!("zfill", "(self, width, /)", zfill,
        "Padded on the left with zeros to `width` characters, after a leading sign.",
        "'-42'.zfill(6)"),
    str_method!("expandtabs", "(self, tabsize=8)", expandtabs,
        "Each tab replaced by spaces up to the next multiple of `tabsize` columns.",
        "'a\\tbc\\td'.expandtabs(4)"),
];

/// The receiver.
pub(super) fn me(a: &Args) -> &str {
    match a.value("self") {
        Value::Str(s) => s.as_str(),
        _ => "",
    }
}

/// Python's whitespace (`str.isspace`): Unicode's White_Space and the four ASCII
/// information separators, which CPython counts as whitespace too.
pub(super) fn is_py_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

/// Argument `name` as a str; CPython's TypeError (`{what} must be str, not int`) otherwise.
pub(super) fn str_arg<'a>(a: &'a Args, name: &str, what: &str) -> Result<&'a str> {
    match a.value(name) {
        Value::Str(s) => Ok(s.as_str()),
        v => Err(Error::new(
            ExceptionClass::TypeError,
            format!("{what} must be str, not {}", v.type_name()),
        )
        .at(a.span(name))),
    }
}

/// Argument `name` as an index-sized int (a width or a count).
pub(super) fn size_arg(a: &Args, name: &str) -> Result<i64> {
    match a.value(name) {
        Value::Int(i) => Ok(*i),
        Value::Bool(b) => Ok(*b as i64),
        Value::BigInt(_) => Err(Error::new(
            ExceptionClass::OverflowError,
            "Python int too large to convert to C ssize_t",
        )
        .at(a.span(name))),
        v => Err(Error::new(
            ExceptionClass::TypeError,
            format!(
                "'{}' object cannot be interpreted as an integer",
                v.type_name()
            ),
        )
        .at(a.span(name))),
    }
}

/// A `start` or `end` argument: an int (one past 64 bits clamps, as a slice bound does) or
/// None.
fn bound_arg(a: &Args, name: &str) -> Result<Option<i64>> {
    match a.value(name) {
        Value::None => Ok(None),
        Value::Int(i) => Ok(Some(*i)),
        Value::Bool(b) => Ok(Some(*b as i64)),
        Value::BigInt(n) => Ok(Some(if n.sign() == num_bigint::Sign::Minus {
            i64::MIN
        } else {
            i64::MAX
        })),
        _ => Err(Error::new(
            ExceptionClass::TypeError,
            "slice indices must be integers or None or have an __index__ method",
        )
        .at(a.span(name))),
    }
}

/// The byte offset of character `i` of `s` (its length for `i` past the end).
fn byte_of(s: &str, i: usize) -> usize {
    if s.is_ascii() {
        return i.min(s.len());
    }
    s.char_indices().nth(i).map_or(s.len(), |(b, _)| b)
}

/// The number of characters in `s[..b]`.
fn chars_before(s: &str, b: usize) -> usize {
    if s.is_ascii() {
        b
    } else {
        s[..b].chars().count()
    }
}

/// The `start:end` window in characters, adjusted as CPython adjusts slice bounds; None
/// when `end` falls before `start` (where nothing is found, not even an empty string).
fn window(a: &Args) -> Result<Option<(usize, usize)>> {
    let n = me(a).chars().count() as i64;
    let fix = |v: Option<i64>, default: i64| match v {
        None => default,
        Some(i) if i < 0 => (i.saturating_add(n)).max(0),
        Some(i) => i,
    };
    // A start past the end stays there, so that nothing is found (not even '').
    let start = fix(bound_arg(a, "start")?, 0);
    let end = fix(bound_arg(a, "end")?, n).min(n);
    if end < start {
        return Ok(None);
    }
    Ok(Some((start as usize, end as usize)))
}

/// The window as a byte range of the receiver, with its first character's index.
fn window_str(a: &Args) -> Result<Option<(&str, usize)>> {
    let s = me(a);
    Ok(window(a)?.map(|(st, en)| (&s[byte_of(s, st)..byte_of(s, en)], st)))
}

fn affix(a: &Args, name: &str, start: bool) -> Result<Value> {
    let what = if start { "startswith" } else { "endswith" };
    let options: Vec<Value> = match a.value(name) {
        Value::Tuple(t) => t.to_vec(),
        v => vec![v.clone()],
    };
    let hay = window_str(a)?;
    // Each option's type is checked as CPython reaches it, whether the window is empty or not.
    for o in &options {
        let Value::Str(p) = o else {
            return Err(affix_type(a, name, what, o));
        };
        if let Some((hay, _)) = hay {
            if (start && hay.starts_with(p.as_str())) || (!start && hay.ends_with(p.as_str())) {
                return Ok(Value::Bool(true));
            }
        }
    }
    Ok(Value::Bool(false))
}

fn affix_type(a: &Args, name: &str, what: &str, v: &Value) -> Error {
    let msg = if matches!(a.value(name), Value::Tuple(_)) {
        format!(
            "tuple for {what} must only contain str, not {}",
            v.type_name()
        )
    } else {
        format!(
            "{what} first arg must be str or a tuple of str, not {}",
            v.type_name()
        )
    };
    Error::new(ExceptionClass::TypeError, msg).at(a.span(name))
}

fn startswith(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    affix(a, "prefix", true)
}
fn endswith(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    affix(a, "suffix", false)
}

/// The character position of `sub` in the window (its first or last occurrence).
fn locate(a: &Args, last: bool) -> Result<Option<usize>> {
    let sub = str_arg(a, "sub", "must be")?;
    let Some((hay, first)) = window_str(a)? else {
        return Ok(None);
    };
    let at = if last { hay.rfind(sub) } else { hay.find(sub) };
    Ok(at.map(|b| first + chars_before(hay, b)))
}

/// str's searches, by character position.
struct Text;

impl Search for Text {
    const MISSING: &'static str = "substring not found";
    fn locate(a: &Args, last: bool) -> Result<Option<usize>> {
        locate(a, last)
    }
}

fn count(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let sub = str_arg(a, "sub", "must be")?;
    let Some((hay, _)) = window_str(a)? else {
        return Ok(Value::Int(0));
    };
    let n = if sub.is_empty() {
        hay.chars().count() + 1
    } else {
        hay.matches(sub).count()
    };
    Ok(Value::Int(n as i64))
}

fn replace(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let s = me(a);
    let old = str_arg(a, "old", "replace() argument 1")?;
    let new = str_arg(a, "new", "replace() argument 2")?;
    let limit = match a.given("count") {
        None => usize::MAX,
        Some(_) => usize::try_from(size_arg(a, "count")?).unwrap_or(usize::MAX),
    };
    // The result's size is known before it is built: check it against the budget first.
    let matches = if old.is_empty() {
        s.chars().count() + 1
    } else {
        s.matches(old).count()
    }
    .min(limit);
    let bytes = s.len() as u128 + matches as u128 * new.len() as u128;
    budget::check_bytes(
        "str.replace",
        bytes.saturating_sub(matches as u128 * old.len() as u128),
    )
    .map_err(|e| Error::from(e).at(a.call))?;
    Ok(Value::str(s.replacen(old, new, limit)))
}

fn strip_ends(a: &Args, name: &str, left: bool, right: bool) -> Result<Value> {
    let s = me(a);
    let set: Option<Vec<char>> = match a.value("chars") {
        Value::None => None,
        Value::Str(c) => Some(c.chars().collect()),
        _ => {
            return Err(Error::new(
                ExceptionClass::TypeError,
                format!("{name} arg must be None or str"),
            )
            .at(a.span("chars")))
        }
    };
    let strip = |c: char| {
        set.as_ref()
            .map_or_else(|| is_py_space(c), |set| set.contains(&c))
    };
    let mut out = s;
    if left {
        out = out.trim_start_matches(strip);
    }
    if right {
        out = out.trim_end_matches(strip);
    }
    Ok(Value::str(out))
}

fn strip(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    strip_ends(a, "strip", true, true)
}
fn lstrip(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    strip_ends(a, "lstrip", true, false)
}
fn rstrip(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    strip_ends(a, "rstrip", false, true)
}

fn removeprefix(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let p = str_arg(a, "prefix", "removeprefix() argument")?;
    Ok(Value::str(me(a).strip_prefix(p).unwrap_or(me(a))))
}
fn removesuffix(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let p = str_arg(a, "suffix", "removesuffix() argument")?;
    Ok(Value::str(me(a).strip_suffix(p).unwrap_or(me(a))))
}

/// `fillchar`: one character.
fn fill_arg(a: &Args, what: &str) -> Result<char> {
    let Value::Str(f) = a.value("fillchar") else {
        if a.given("fillchar").is_none() {
            return Ok(' ');
        }
        return Err(str_arg(a, "fillchar", &format!("{what}() argument 2")).unwrap_err());
    };
    let mut chars = f.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) => Ok(c),
        _ => Err(Error::new(
            ExceptionClass::TypeError,
            "The fill character must be exactly one character long",
        )
        .at(a.span("fillchar"))),
    }
}

/// The receiver with `left` and `right` fill characters, its size checked first.
fn padded(a: &Args, what: &str, fill: char, left: usize, right: usize) -> Result<Value> {
    let s = me(a);
    let bytes = s.len() as u128 + (left as u128 + right as u128) * fill.len_utf8() as u128;
    // Reserved once and filled a block at a time: a billion-wide field is written once.
    let size = usize::try_from(bytes).unwrap_or(usize::MAX);
    let mut out = budget::string(what, size).map_err(|e| Error::from(e).at(a.call))?;
    super::format::push_fill(&mut out, fill, left);
    out.push_str(s);
    super::format::push_fill(&mut out, fill, right);
    Ok(Value::str(out))
}

/// How many characters short of `width` the receiver is.
fn margin(a: &Args) -> Result<usize> {
    let width = size_arg(a, "width")?;
    let n = me(a).chars().count() as i64;
    Ok(width.saturating_sub(n).max(0) as usize)
}

fn center(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let width = size_arg(a, "width")?;
    let fill = fill_arg(a, "center")?;
    let marg = margin(a)?;
    // CPython's rule: the odd character goes left when both margin and width are odd.
    let left = marg / 2 + (marg & width as usize & 1);
    padded(a, "str.center", fill, left, marg - left)
}

fn ljust(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let fill = fill_arg(a, "ljust")?;
    padded(a, "str.ljust", fill, 0, margin(a)?)
}

fn rjust(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let fill = fill_arg(a, "rjust")?;
    padded(a, "str.rjust", fill, margin(a)?, 0)
}

fn zfill(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let s = me(a);
    let marg = margin(a)?;
    let zeros =
        budget::repeat_str("str.zfill", "0", marg).map_err(|e| Error::from(e).at(a.call))?;
    let (sign, digits) = match s.chars().next() {
        Some(c @ ('+' | '-')) => (&s[..1], &s[c.len_utf8()..]),
        _ => ("", s),
    };
    Ok(Value::str(format!("{sign}{zeros}{digits}")))
}

fn expandtabs(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let s = me(a);
    let tab = match a.given("tabsize") {
        None => 8,
        Some(_) => size_arg(a, "tabsize")?,
    };
    // The result's length first (tabs count to the next stop), then the budget, then the text.
    let mut size: u128 = 0;
    let mut col: u128 = 0;
    for c in s.chars() {
        match c {
            '\t' if tab > 0 => {
                let n = tab as u128 - col % tab as u128;
                col += n;
                size += n;
            }
            '\t' => {}
            '\n' | '\r' => {
                col = 0;
                size += 1;
            }
            c => {
                col += 1;
                size += c.len_utf8() as u128;
            }
        }
    }
    budget::check_bytes("str.expandtabs", size).map_err(|e| Error::from(e).at(a.call))?;
    let mut out = String::new();
    let mut col = 0usize;
    for c in s.chars() {
        match c {
            '\t' if tab > 0 => {
                let n = tab as usize - col % tab as usize;
                out.extend(std::iter::repeat_n(' ', n));
                col += n;
            }
            '\t' => {}
            '\n' | '\r' => {
                out.push(c);
                col = 0;
            }
            c => {
                out.push(c);
                col += 1;
            }
        }
    }
    Ok(Value::str(out))
}
