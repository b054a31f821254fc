//! `re` on str patterns, with CPython's functions and objects: `compile`, `search`, `match`,
//! `fullmatch`, `findall`, `finditer`, `sub`/`subn` (templates with `\1` and `\g<name>`, or a
//! function), `split`, `escape`, the flags, `re.Pattern` and `re.Match` (`group`, `groups`,
//! `groupdict`, `start`/`end`/`span`, positions in characters). Matching follows Python's
//! leftmost-first rules through the `fancy-regex` crate (see `re_syntax` for how a pattern is
//! read for it), and empty matches after a match are found as CPython 3.7+ finds them. A bad
//! pattern is `re.error` with CPython's message (`re_check`).

use std::sync::Arc;

use super::re_match::{
    expand, fill_template, group, group_of, groupdict, groups, match_object, span_of,
};
use super::re_syntax::{self as syntax, Anchor, Regex};
use super::Builtin;
use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::Interp;
use crate::value::class::{attr_get, attr_set, builtin_type, Class, Instance};
use crate::value::iter::{IterState, PyIter};
use crate::value::Value;
use ragtag_engine::ExceptionClass as C;

macro_rules! f {
    ($name:literal, $sig:literal, $f:expr, $doc:literal, $ex:literal) => {
        Builtin::function(concat!("re.", $name), $sig, $f)
            .doc($doc)
            .examples(&[concat!("import re\n", $ex)])
    };
}
macro_rules! m {
    ($name:literal, $sig:literal, $f:expr, $doc:literal, $ex:literal) => {
        Builtin::method($name, $sig, $f)
            .doc($doc)
            .examples(&[concat!("import re\n", $ex)])
    };
}

/// The module's functions and the methods of its objects.
pub static RE: &[Builtin] = &[
    f!("compile", "(pattern, flags=0)", compile, "The pattern compiled, to match many strings.", "p = re.compile(r'(\\w+)@(\\w+)')\np.search('mail bob@host now').groups()"),
    f!("search", "(pattern, string, flags=0)", |it, a| via(it, a, "search"), "The first match anywhere in the string, or None.", "re.search(r'\\d+', 'row 42, col 7')"),
    f!("match", "(pattern, string, flags=0)", |it, a| via(it, a, "match"), "A match at the start of the string, or None.", "re.match(r'\\d+', '42 rows')"),
    f!("fullmatch", "(pattern, string, flags=0)", |it, a| via(it, a, "fullmatch"), "A match of the whole string, or None.", "re.fullmatch(r'\\d+', '42') is not None"),
    f!("findall", "(pattern, string, flags=0)", |it, a| via(it, a, "findall"), "Every match: the matched texts, the one group's texts, or tuples of the groups.", "re.findall(r'(\\w)=(\\d)', 'a=1 b=2')"),
    f!("finditer", "(pattern, string, flags=0)", |it, a| via(it, a, "finditer"), "An iterator of the match objects.", "[m.span() for m in re.finditer(r'\\d+', 'a1b22')]"),
    f!("sub", "(pattern, repl, string, count=0, flags=0)", |it, a| via(it, a, "sub"), "The string with matches replaced by `repl` (a template with `\\1`, `\\g<name>`, or a function of the match).", "re.sub(r'(\\w+) (\\w+)', r'\\2 \\1', 'hello world')"),
    f!("subn", "(pattern, repl, string, count=0, flags=0)", |it, a| via(it, a, "subn"), "`sub`'s string and the number of replacements.", "re.subn(r'\\s+', ' ', 'a  b   c')"),
    f!("split", "(pattern, string, maxsplit=0, flags=0)", |it, a| via(it, a, "split"), "The string split at the matches (with the groups' texts between the parts).", "re.split(r'[,;]\\s*', 'a, b;c')"),
    f!("escape", "(pattern)", |_, a| Ok(Value::str(syntax::escape(&text(a, "pattern")?))), "The string with the characters special in a pattern escaped.", "re.escape('1+1=2?')"),
    f!("purge", "()", |_, _| Ok(Value::None), "Clears the cache of compiled patterns (nothing to do).", "re.purge()"),
    m!("re.Pattern.search", "(self, string, pos=0, endpos=None)", |it, a| method(it, a, "search"), "The first match at or after `pos`, or None.", "re.compile('b').search('abc')"),
    m!("re.Pattern.match", "(self, string, pos=0, endpos=None)", |it, a| method(it, a, "match"), "A match starting at `pos`, or None.", "re.compile('a').match('abc')"),
    m!("re.Pattern.fullmatch", "(self, string, pos=0, endpos=None)", |it, a| method(it, a, "fullmatch"), "A match of the whole string (from `pos` to `endpos`), or None.", "re.compile('a.c').fullmatch('abc')"),
    m!("re.Pattern.findall", "(self, string, pos=0, endpos=None)", |it, a| method(it, a, "findall"), "Every match's text (or groups).", "re.compile(r'\\d').findall('a1b2')"),
    m!("re.Pattern.finditer", "(self, string, pos=0, endpos=None)", |it, a| method(it, a, "finditer"), "An iterator of the match objects.", "len(list(re.compile(r'\\d').finditer('a1b2')))"),
    m!("re.Pattern.sub", "(self, repl, string, count=0)", |it, a| method(it, a, "sub"), "The string with matches replaced.", "re.compile(r'\\d').sub('#', 'a1b2')"),
    m!("re.Pattern.subn", "(self, repl, string, count=0)", |it, a| method(it, a, "subn"), "The replaced string and the count.", "re.compile(r'\\d').subn('#', 'a1b2')"),
    m!("re.Pattern.split", "(self, string, maxsplit=0)", |it, a| method(it, a, "split"), "The string split at the matches.", "re.compile(r'\\s+').split('a b  c')"),
    m!("re.Match.group", "(self, *args)", group, "The text of group 0 (the whole match), of one group, or a tuple of several (by number or name).", "re.search(r'(\\w+)@(\\w+)', 'bob@host').group(0, 2)"),
    m!("re.Match.__getitem__", "(self, g)", |_, a| group_of(a, a.value("g")), "`m[g]`: `m.group(g)`.", "re.search(r'(\\d)', 'x7')[1]"),
    m!("re.Match.groups", "(self, default=None)", groups, "The texts of every group (`default` for one that did not take part).", "re.match(r'(a)(b)?', 'a').groups('-')"),
    m!("re.Match.groupdict", "(self, default=None)", groupdict, "The named groups' texts by name.", "re.match(r'(?P<k>\\w+)=(?P<v>\\w+)', 'a=1').groupdict()"),
    m!("re.Match.start", "(self, group=0)", |_, a| Ok(Value::Int(span_of(a)?.0)), "Where the group starts (-1 when it took no part).", "re.search('b', 'abc').start()"),
    m!("re.Match.end", "(self, group=0)", |_, a| Ok(Value::Int(span_of(a)?.1)), "Where the group ends (-1 when it took no part).", "re.search('b', 'abc').end()"),
    m!("re.Match.span", "(self, group=0)", |_, a| {
        let (s, e) = span_of(a)?;
        Ok(Value::tuple(vec![Value::Int(s), Value::Int(e)]))
    }, "The pair (start, end) of the group.", "re.search('b', 'abc').span()"),
    m!("re.Match.expand", "(self, template)", expand, "The template with its group references filled in.", "re.match(r'(\\w+) (\\w+)', 'a b').expand(r'\\2-\\1')"),
];

/// The module's names that are not functions: the flags and `re.error`.
pub fn constant(path: &str) -> Option<Value> {
    let flag = |n: i64| Some(Value::Int(n));
    match path.strip_prefix("re.")? {
        "I" | "IGNORECASE" => flag(syntax::IGNORECASE),
        "L" | "LOCALE" => flag(syntax::LOCALE),
        "M" | "MULTILINE" => flag(syntax::MULTILINE),
        "S" | "DOTALL" => flag(syntax::DOTALL),
        "U" | "UNICODE" => flag(syntax::UNICODE),
        "X" | "VERBOSE" => flag(syntax::VERBOSE),
        "A" | "ASCII" => flag(syntax::ASCII),
        "NOFLAG" => flag(0),
        "error" => Some(Value::Class(error_class())),
        "Pattern" => Some(Value::Class(class("Pattern"))),
        "Match" => Some(Value::Class(class("Match"))),
        _ => None,
    }
}

/// `re.error`, a class deriving from Exception.
fn error_class() -> Arc<Class> {
    static MADE: std::sync::OnceLock<Arc<Class>> = std::sync::OnceLock::new();
    MADE.get_or_init(|| {
        Class::new(
            "error",
            "re",
            vec![Value::ErrorClass(C::Exception)],
            Vec::new(),
        )
    })
    .clone()
}

/// `re.Pattern` or `re.Match`, with its methods.
pub(super) fn class(name: &str) -> Arc<Class> {
    let Value::Class(c) = builtin_type(name, "re") else {
        unreachable!("builtin_type makes a class")
    };
    if attr_get(&c.attrs, "__re__").is_none() {
        let prefix = format!("re.{name}.");
        for b in RE.iter().filter(|b| b.name.starts_with(&prefix)) {
            let b = crate::eval::builtins::registry().get(b.name).unwrap_or(b);
            attr_set(&c.attrs, b.short_name(), Value::Builtin(b));
        }
        attr_set(&c.attrs, "__re__", Value::Bool(true));
    }
    c
}

pub(super) fn text(a: &Args, name: &str) -> Result<String> {
    match a.value(name) {
        Value::Str(s) => Ok(s.to_string()),
        other => Err(Error::new(
            C::TypeError,
            format!(
                "expected string or bytes-like object, got '{}'",
                other.type_name()
            ),
        )
        .at(a.span(name))),
    }
}

fn flags_of(a: &Args) -> Result<i64> {
    Ok(a.opt_int("flags")?.unwrap_or(0))
}

/// `re.error(msg)` raised at the call: an instance of the class with `msg` and `args`,
/// caught by `except re.error` and by `except Exception`.
pub(super) fn re_error(it: &mut Interp<'_>, msg: String, span: ragtag_syntax::ast::Span) -> Error {
    let inst = Instance::new(error_class());
    attr_set(&inst.attrs, "args", Value::tuple(vec![Value::str(&msg)]));
    attr_set(&inst.attrs, "msg", Value::str(&msg));
    attr_set(&inst.attrs, "pattern", Value::None);
    inst.set_shown(
        format!("error({})", crate::render::tf_text::py_str(&msg)),
        msg.clone(),
    );
    it.raised = Some((Value::Instance(inst), C::Exception, msg.clone()));
    Error::new(C::Exception, msg).at(span).raised_as("re.error")
}

/// A compiled pattern object.
fn pattern_object(
    it: &mut Interp<'_>,
    pattern: &str,
    flags: i64,
    span: ragtag_syntax::ast::Span,
) -> Result<Value> {
    let re = syntax::compiled(pattern, flags, Anchor::None).map_err(|m| re_error(it, m, span))?;
    let p = Instance::new(class("Pattern"));
    let shown = match flags & !syntax::UNICODE {
        0 => format!("re.compile({})", crate::render::tf_text::py_str(pattern)),
        f => format!(
            "re.compile({}, {})",
            crate::render::tf_text::py_str(pattern),
            flag_names(f)
        ),
    };
    p.set_shown(shown.clone(), shown);
    attr_set(&p.attrs, "pattern", Value::str(pattern));
    attr_set(&p.attrs, "flags", Value::Int(flags | syntax::UNICODE));
    attr_set(&p.attrs, "groups", Value::Int(re.captures_len() as i64 - 1));
    let index: Vec<(Value, Value)> = re
        .capture_names()
        .enumerate()
        .filter_map(|(i, n)| n.map(|n| (Value::str(n), Value::Int(i as i64))))
        .collect();
    attr_set(&p.attrs, "groupindex", Value::dict(index)?);
    Ok(Value::Instance(p))
}

/// The flags as `re.compile`'s repr names them.
fn flag_names(f: i64) -> String {
    let names = [
        (syntax::IGNORECASE, "re.IGNORECASE"),
        (syntax::LOCALE, "re.LOCALE"),
        (syntax::MULTILINE, "re.MULTILINE"),
        (syntax::DOTALL, "re.DOTALL"),
        (syntax::VERBOSE, "re.VERBOSE"),
        (syntax::ASCII, "re.ASCII"),
    ];
    let parts: Vec<&str> = names
        .iter()
        .filter(|(b, _)| f & b != 0)
        .map(|(_, n)| *n)
        .collect();
    parts.join("|")
}

fn compile(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    if let v @ Value::Instance(i) = a.value("pattern") {
        if i.class.name == "Pattern" && i.class.module == "re" {
            return Ok(v.clone());
        }
    }
    let pattern = text(a, "pattern")?;
    pattern_object(it, &pattern, flags_of(a)?, a.call)
}

/// What a pattern object holds: its text and flags.
pub(super) fn pattern_parts(p: &Value) -> Option<(String, i64)> {
    let Value::Instance(i) = p else { return None };
    let pattern = match attr_get(&i.attrs, "pattern") {
        Some(Value::Str(s)) => s.to_string(),
        _ => return None,
    };
    let flags = match attr_get(&i.attrs, "flags") {
        Some(Value::Int(f)) => f,
        _ => 0,
    };
    Some((pattern, flags))
}

/// A module function: the pattern (a str or a compiled pattern) and the operation.
fn via(it: &mut Interp<'_>, a: &Args, op: &str) -> Result<Value> {
    let (pattern, flags) = match pattern_parts(a.value("pattern")) {
        Some(p) => p,
        None => (text(a, "pattern")?, flags_of(a)?),
    };
    let p = pattern_object(it, &pattern, flags, a.call)?;
    run(it, a, op, &p, &pattern, flags, 0, None)
}

/// A method of a pattern object.
fn method(it: &mut Interp<'_>, a: &Args, op: &str) -> Result<Value> {
    let p = a.value("self").clone();
    let Some((pattern, flags)) = pattern_parts(&p) else {
        return Err(Error::new(C::TypeError, "not a compiled pattern").at(a.call));
    };
    // `sub`, `subn` and `split` take no positions.
    let positions = !matches!(op, "sub" | "subn" | "split");
    let pos = if positions {
        a.opt_int("pos")?.unwrap_or(0)
    } else {
        0
    };
    let endpos = match positions.then(|| a.get("endpos")).flatten() {
        None | Some(Value::None) => None,
        Some(_) => a.opt_int("endpos")?,
    };
    run(it, a, op, &p, &pattern, flags, pos, endpos)
}

/// Byte offsets of a string's characters, for positions in characters.
pub(super) struct Chars {
    /// The byte offset of each character, then the string's length (empty for ASCII).
    starts: Vec<usize>,
}

impl Chars {
    pub(super) fn new(s: &str) -> Chars {
        let starts = if s.is_ascii() {
            Vec::new()
        } else {
            s.char_indices().map(|(i, _)| i).chain([s.len()]).collect()
        };
        Chars { starts }
    }
    /// The character index of a byte offset.
    pub(super) fn index(&self, byte: usize) -> i64 {
        if self.starts.is_empty() {
            return byte as i64;
        }
        self.starts.partition_point(|b| *b < byte) as i64
    }
    /// The byte offset of a character index (clamped to the string).
    pub(super) fn byte(&self, s: &str, index: i64) -> usize {
        let i = usize::try_from(index.max(0)).unwrap_or(0);
        if self.starts.is_empty() {
            return i.min(s.len());
        }
        self.starts.get(i).copied().unwrap_or(s.len())
    }
}

pub(super) use syntax::Spans;

/// Matches of `re` in `s` from byte `from`, as CPython's scanner finds them: after an empty
/// match the next must not be empty at the same place.
fn all_matches(re: &Regex, s: &str, from: usize, limit: usize) -> Result<Vec<Spans>, String> {
    let mut out = Vec::new();
    let mut pos = from;
    let mut must_advance = false;
    while pos <= s.len() && (limit == 0 || out.len() < limit) {
        let Some(m) = syntax::captures_at(re, s, pos)? else {
            break;
        };
        let (start, end) = m[0].expect("group 0 takes part");
        if must_advance && start == pos && end == pos {
            // An empty match where the last one ended: look again one character on.
            let Some(next) = s[pos..].chars().next().map(|ch| pos + ch.len_utf8()) else {
                break;
            };
            match syntax::captures_at(re, s, next)? {
                Some(m2) => {
                    let (x, y) = m2[0].expect("group 0");
                    pos = y;
                    must_advance = x == y;
                    out.push(m2);
                }
                None => break,
            }
            continue;
        }
        pos = end;
        must_advance = start == end;
        out.push(m);
    }
    Ok(out)
}

#[allow(clippy::too_many_arguments)]
fn run(
    it: &mut Interp<'_>,
    a: &Args,
    op: &str,
    pattern_obj: &Value,
    pattern: &str,
    flags: i64,
    pos: i64,
    endpos: Option<i64>,
) -> Result<Value> {
    let re = syntax::compiled(pattern, flags, Anchor::None).map_err(|m| re_error(it, m, a.call))?;
    let full = text(a, "string")?;
    let chars = Chars::new(&full);
    let n = chars.index(full.len());
    let end = chars.byte(&full, endpos.unwrap_or(n).min(n));
    let s = &full[..end];
    let start = chars.byte(&full, if pos < 0 { 0 } else { pos }).min(end);
    let make =
        |spans: Spans| match_object(pattern_obj, &full, &chars, spans, pos, endpos.unwrap_or(n));
    let failed = |it: &mut Interp<'_>, m: String| re_error(it, m, a.call);
    let starts_here = |m: &Spans| m[0].is_some_and(|(x, _)| x == start);
    match op {
        "search" => Ok(syntax::captures_at(&re, s, start)
            .map_err(|m| failed(it, m))?
            .map_or(Value::None, make)),
        "match" => Ok(syntax::captures_at(&re, s, start)
            .map_err(|m| failed(it, m))?
            .filter(starts_here)
            .map_or(Value::None, make)),
        "fullmatch" => {
            let anchored = syntax::compiled(pattern, flags, Anchor::End)
                .map_err(|m| re_error(it, m, a.call))?;
            Ok(syntax::captures_at(&anchored, s, start)
                .map_err(|m| failed(it, m))?
                .filter(starts_here)
                .map_or(Value::None, make))
        }
        "findall" => {
            let groups = re.captures_len() - 1;
            let piece = |sp: Option<(usize, usize)>| Value::str(sp.map_or("", |(x, y)| &s[x..y]));
            let items = all_matches(&re, s, start, 0)
                .map_err(|m| failed(it, m))?
                .into_iter()
                .map(|m| match groups {
                    0 => piece(m[0]),
                    1 => piece(m[1]),
                    _ => Value::tuple(m[1..].iter().map(|g| piece(*g)).collect()),
                })
                .collect();
            Ok(Value::list(items))
        }
        "finditer" => {
            let items: std::collections::VecDeque<Value> = all_matches(&re, s, start, 0)
                .map_err(|m| failed(it, m))?
                .into_iter()
                .map(make)
                .collect();
            Ok(Value::Iter(PyIter::new(
                "callable_iterator",
                IterState::Seq(items),
            )))
        }
        "sub" | "subn" => {
            let count = a.opt_int("count")?.unwrap_or(0).max(0) as usize;
            let repl = a.value("repl").clone();
            let mut out = String::new();
            let mut last = 0;
            let found = all_matches(&re, s, 0, count).map_err(|m| failed(it, m))?;
            let total = found.len();
            for m in found {
                let (x, y) = m[0].expect("group 0");
                out.push_str(&s[last..x]);
                let piece = match &repl {
                    Value::Str(t) => fill_template(it, t, s, &m, &re, a)?,
                    f => {
                        let mo = make(m.clone());
                        match it.call_values(f, vec![mo], a.span("repl"))? {
                            Value::Str(r) => r.to_string(),
                            other => {
                                return Err(Error::new(
                                    C::TypeError,
                                    format!("expected str instance, {} found", other.type_name()),
                                )
                                .at(a.span("repl")))
                            }
                        }
                    }
                };
                out.push_str(&piece);
                last = y;
            }
            out.push_str(&s[last..]);
            out.push_str(&full[end..]);
            Ok(if op == "sub" {
                Value::str(out)
            } else {
                Value::tuple(vec![Value::str(out), Value::Int(total as i64)])
            })
        }
        "split" => {
            let maxsplit = a.opt_int("maxsplit")?.unwrap_or(0).max(0) as usize;
            let mut out = Vec::new();
            let mut last = 0;
            for m in all_matches(&re, s, 0, maxsplit).map_err(|m| failed(it, m))? {
                let (x, y) = m[0].expect("group 0");
                out.push(Value::str(&s[last..x]));
                for g in &m[1..] {
                    out.push(g.map_or(Value::None, |(p, q)| Value::str(&s[p..q])));
                }
                last = y;
            }
            out.push(Value::str(&full[last..]));
            Ok(Value::list(out))
        }
        _ => Ok(Value::None),
    }
}
