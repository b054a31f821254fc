//! `re.Match`: a match's groups, their positions in characters, and `sub` templates
//! (`\1`, `\g<name>`, escapes) filled in from a match.

use super::re_mod::{pattern_parts, re_error, text, Chars, Spans};
use super::re_syntax::{self as syntax, Anchor};
use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::Interp;
use crate::value::class::{attr_get, attr_set, Instance};
use crate::value::Value;
use ragtag_engine::ExceptionClass as C;

/// A match object for these spans of `s`.
pub(super) fn match_object(
    p: &Value,
    s: &str,
    chars: &Chars,
    spans: Spans,
    pos: i64,
    endpos: i64,
) -> Value {
    let m = Instance::new(super::re_mod::class("Match"));
    let (x, y) = spans[0].unwrap_or((0, 0));
    let shown = format!(
        "<re.Match object; span=({}, {}), match={}>",
        chars.index(x),
        chars.index(y),
        crate::render::tf_text::py_str(&s[x..y])
    );
    m.set_shown(shown.clone(), shown);
    let pairs: Vec<Value> = spans
        .iter()
        .map(|sp| match sp {
            Some((p, q)) => Value::tuple(vec![
                Value::Int(chars.index(*p)),
                Value::Int(chars.index(*q)),
            ]),
            None => Value::None,
        })
        .collect();
    let texts: Vec<Value> = spans
        .iter()
        .map(|sp| sp.map_or(Value::None, |(p, q)| Value::str(&s[p..q])))
        .collect();
    let lastindex = spans
        .iter()
        .enumerate()
        .skip(1)
        .filter(|(_, sp)| sp.is_some())
        .max_by_key(|(_, sp)| sp.map(|(_, e)| e))
        .map_or(Value::None, |(i, _)| Value::Int(i as i64));
    attr_set(&m.attrs, "string", Value::str(s));
    attr_set(&m.attrs, "re", p.clone());
    attr_set(&m.attrs, "pos", Value::Int(pos));
    attr_set(&m.attrs, "endpos", Value::Int(endpos));
    attr_set(&m.attrs, "lastindex", lastindex);
    attr_set(&m.attrs, "_spans", Value::tuple(pairs));
    attr_set(&m.attrs, "_texts", Value::tuple(texts));
    Value::Instance(m)
}

/// The match object's group `g` (a number or a name) as an index.
pub(super) fn group_index(a: &Args, g: &Value) -> Result<usize> {
    let Value::Instance(m) = a.value("self") else {
        return Err(Error::new(C::TypeError, "not a match").at(a.call));
    };
    let count = match attr_get(&m.attrs, "_texts") {
        Some(Value::Tuple(t)) => t.len(),
        _ => 0,
    };
    let no_group = || Error::new(C::IndexError, "no such group").at(a.call);
    match g {
        Value::Int(i) if *i >= 0 && (*i as usize) < count => Ok(*i as usize),
        Value::Bool(b) => Ok(usize::from(*b)),
        Value::Str(name) => {
            let Some(Value::Instance(p)) = attr_get(&m.attrs, "re") else {
                return Err(no_group());
            };
            match attr_get(&p.attrs, "groupindex") {
                Some(Value::Dict(d)) => match d.get(&Value::str(name.as_str())) {
                    Ok(Some(Value::Int(i))) => Ok(i as usize),
                    _ => Err(no_group()),
                },
                _ => Err(no_group()),
            }
        }
        _ => Err(no_group()),
    }
}

pub(super) fn field(a: &Args, name: &str, i: usize) -> Value {
    match a.value("self") {
        Value::Instance(m) => match attr_get(&m.attrs, name) {
            Some(Value::Tuple(t)) => t.get(i).cloned().unwrap_or(Value::None),
            _ => Value::None,
        },
        _ => Value::None,
    }
}

pub(super) fn group_of(a: &Args, g: &Value) -> Result<Value> {
    let i = group_index(a, g)?;
    Ok(field(a, "_texts", i))
}

pub(super) fn group(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    match a.rest() {
        [] => group_of(a, &Value::Int(0)),
        [(g, _)] => group_of(a, g),
        many => {
            let mut out = Vec::new();
            for (g, _) in many {
                out.push(group_of(a, g)?);
            }
            Ok(Value::tuple(out))
        }
    }
}

pub(super) fn group_count(a: &Args) -> usize {
    match a.value("self") {
        Value::Instance(m) => match attr_get(&m.attrs, "_texts") {
            Some(Value::Tuple(t)) => t.len(),
            _ => 1,
        },
        _ => 1,
    }
}

pub(super) fn groups(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let default = a.value("default").clone();
    let items = (1..group_count(a))
        .map(|i| match field(a, "_texts", i) {
            Value::None => default.clone(),
            v => v,
        })
        .collect();
    Ok(Value::tuple(items))
}

pub(super) fn groupdict(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let default = a.value("default").clone();
    let Value::Instance(m) = a.value("self") else {
        return Ok(Value::None);
    };
    let Some(Value::Instance(p)) = attr_get(&m.attrs, "re") else {
        return Value::dict(Vec::new()).map_err(Error::from);
    };
    let Some(Value::Dict(index)) = attr_get(&p.attrs, "groupindex") else {
        return Value::dict(Vec::new()).map_err(Error::from);
    };
    let mut pairs = Vec::new();
    for (k, v) in index.items() {
        let Value::Int(i) = v else { continue };
        let t = match field(a, "_texts", i as usize) {
            Value::None => default.clone(),
            t => t,
        };
        pairs.push((k, t));
    }
    Value::dict(pairs).map_err(Error::from)
}

pub(super) fn span_of(a: &Args) -> Result<(i64, i64)> {
    let g = match a.get("group") {
        None | Some(Value::None) => Value::Int(0),
        Some(g) => g.clone(),
    };
    let i = group_index(a, &g)?;
    Ok(match field(a, "_spans", i) {
        Value::Tuple(t) => match (t.first(), t.get(1)) {
            (Some(Value::Int(s)), Some(Value::Int(e))) => (*s, *e),
            _ => (-1, -1),
        },
        _ => (-1, -1),
    })
}

/// A `sub` template with its escapes and group references filled in for match `m`.
pub(super) fn fill_template(
    it: &mut Interp<'_>,
    t: &str,
    s: &str,
    m: &Spans,
    re: &super::re_syntax::Regex,
    a: &Args,
) -> Result<String> {
    let chars: Vec<char> = t.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    let group_text =
        |g: usize| -> Option<&str> { m.get(g).map(|sp| sp.map_or("", |(x, y)| &s[x..y])) };
    let bad = |it: &mut Interp<'_>, msg: String| re_error(it, msg, a.span("repl"));
    while i < chars.len() {
        let c = chars[i];
        if c != '\\' {
            out.push(c);
            i += 1;
            continue;
        }
        let Some(&n) = chars.get(i + 1) else {
            return Err(bad(
                it,
                format!("bad escape (end of pattern) at position {i}"),
            ));
        };
        match n {
            '0'..='9' => {
                let mut j = i + 1;
                let mut num = String::new();
                while j < chars.len() && chars[j].is_ascii_digit() && num.len() < 2 {
                    num.push(chars[j]);
                    j += 1;
                }
                let g: usize = num.parse().unwrap_or(0);
                match group_text(g).filter(|_| g > 0) {
                    Some(txt) => out.push_str(txt),
                    None => {
                        return Err(bad(
                            it,
                            format!("invalid group reference {g} at position {}", i + 1),
                        ))
                    }
                }
                i = j;
                continue;
            }
            'g' => {
                let rest: String = chars[i + 2..].iter().collect();
                let Some(body) = rest
                    .strip_prefix('<')
                    .and_then(|r| r.split_once('>'))
                    .map(|(b, _)| b.to_string())
                else {
                    return Err(bad(it, format!("missing < at position {}", i + 2)));
                };
                let g = match body.parse::<usize>() {
                    Ok(g) => Some(g),
                    Err(_) => re.capture_names().position(|x| x == Some(body.as_str())),
                };
                match g.and_then(group_text) {
                    Some(txt) => out.push_str(txt),
                    None => return Err(bad(it, format!("unknown group name '{body}'"))),
                }
                i += 2 + body.chars().count() + 2;
                continue;
            }
            'n' => out.push('\n'),
            't' => out.push('\t'),
            'r' => out.push('\r'),
            'f' => out.push('\x0c'),
            'v' => out.push('\x0b'),
            'a' => out.push('\x07'),
            'b' => out.push('\x08'),
            '\\' => out.push('\\'),
            x if x.is_ascii_alphabetic() => {
                return Err(bad(it, format!("bad escape \\{x} at position {i}")))
            }
            x => {
                out.push('\\');
                out.push(x);
            }
        }
        i += 2;
    }
    Ok(out)
}

pub(super) fn expand(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let t = text(a, "template")?;
    let Value::Instance(m) = a.value("self") else {
        return Ok(Value::None);
    };
    let s = match attr_get(&m.attrs, "string") {
        Some(Value::Str(s)) => s.to_string(),
        _ => String::new(),
    };
    let (pattern, flags) = match attr_get(&m.attrs, "re") {
        Some(p) => pattern_parts(&p).unwrap_or_default(),
        None => Default::default(),
    };
    let re =
        syntax::compiled(&pattern, flags, Anchor::None).map_err(|e| re_error(it, e, a.call))?;
    let chars = Chars::new(&s);
    let spans: Spans = match attr_get(&m.attrs, "_spans") {
        Some(Value::Tuple(t)) => t
            .iter()
            .map(|v| match v {
                Value::Tuple(p) => match (p.first(), p.get(1)) {
                    (Some(Value::Int(x)), Some(Value::Int(y))) => {
                        Some((chars.byte(&s, *x), chars.byte(&s, *y)))
                    }
                    _ => None,
                },
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    };
    fill_template(it, &t, &s, &spans, &re, a).map(Value::str)
}
