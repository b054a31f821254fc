//! `string.Template`: `$name`, `${name}` and `$$` substitution with CPython's errors, as a
//! class a program can subclass (a subclass's `delimiter` is used).

use std::sync::{Arc, OnceLock};

use super::functools::registered;
use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::builtins::Builtin;
use crate::eval::Interp;
use crate::render::tf_text::str_of;
use crate::value::class::{attr_get, attr_set, Class, Instance};
use crate::value::{PyList, Value};
use ragtag_engine::ExceptionClass;

/// The methods of `string.Template`.
pub static STRING_TEMPLATE: &[Builtin] = &[
    Builtin::method("string.Template.__init__", "(self, template)", init)
        .doc("Keeps the template text as `.template`.")
        .examples(&["from string import Template\nTemplate('$x').template"]),
    Builtin::method("string.Template.substitute", "(self, mapping=None, /, **kws)", substitute)
        .doc("The text with each `$name` / `${name}` replaced by `str(mapping[name])` (keywords first) and `$$` by `$`; a missing name is a KeyError, a bad placeholder a ValueError.")
        .examples(&["from string import Template\nTemplate('$who likes ${what}s, $$5').substitute(who='tim', what='kung pao')"]),
    Builtin::method("string.Template.safe_substitute", "(self, mapping=None, /, **kws)", safe_substitute)
        .doc("As substitute, leaving missing names and bad placeholders as written.")
        .examples(&["from string import Template\nTemplate('$who and $other $').safe_substitute({'who': 'tim'})"]),
    Builtin::method("string.Template.get_identifiers", "(self)", get_identifiers)
        .doc("The names of the valid placeholders, each once, in order.")
        .examples(&["from string import Template\nTemplate('$a ${b} $a').get_identifiers()"]),
    Builtin::method("string.Template.is_valid", "(self)", is_valid)
        .doc("Whether every placeholder is valid (substitute would raise no ValueError for one).")
        .examples(&["from string import Template\nTemplate('$a $').is_valid()"]),
];

/// The class `string.Template`.
pub fn template_class() -> Value {
    static CLASS: OnceLock<Arc<Class>> = OnceLock::new();
    let c = CLASS.get_or_init(|| {
        let mut attrs: Vec<(String, Value)> = STRING_TEMPLATE
            .iter()
            .map(|b| {
                (
                    b.short_name().to_string(),
                    Value::Builtin(registered(b.name)),
                )
            })
            .collect();
        attrs.push(("delimiter".into(), Value::str("$")));
        // Written in Python in CPython's `string`: the evaluator gives `__repr__`,
        // `__iter__` and attribute setting to such classes.
        Class::python("Template", "string", Vec::new(), attrs)
    });
    Value::Class(c.clone())
}

/// A part of a template.
enum Piece {
    Text(String),
    /// `$$`.
    Escaped,
    /// `$name` or `${name}`, with the text it was written as.
    Named(String, String),
    /// A delimiter followed by no valid placeholder, at this character position.
    Invalid(usize),
}

fn is_ident_start(c: char) -> bool {
    c == '_' || c.is_ascii_alphabetic()
}

fn ident_len(cs: &[char]) -> usize {
    match cs.first() {
        Some(&c) if is_ident_start(c) => {
            1 + cs[1..]
                .iter()
                .take_while(|c| **c == '_' || c.is_ascii_alphanumeric())
                .count()
        }
        _ => 0,
    }
}

fn parse(text: &str, delim: &str) -> Vec<Piece> {
    let cs: Vec<char> = text.chars().collect();
    let d: Vec<char> = delim.chars().collect();
    let mut out = Vec::new();
    let mut plain = String::new();
    let mut i = 0;
    let at = |k: usize| !d.is_empty() && cs.get(k..k + d.len()) == Some(&d[..]);
    while i < cs.len() {
        if !at(i) {
            plain.push(cs[i]);
            i += 1;
            continue;
        }
        if !plain.is_empty() {
            out.push(Piece::Text(std::mem::take(&mut plain)));
        }
        let after = i + d.len();
        if at(after) {
            out.push(Piece::Escaped);
            i = after + d.len();
            continue;
        }
        let n = ident_len(&cs[after..]);
        if n > 0 {
            let name: String = cs[after..after + n].iter().collect();
            let raw: String = cs[i..after + n].iter().collect();
            out.push(Piece::Named(name, raw));
            i = after + n;
            continue;
        }
        if cs.get(after) == Some(&'{') {
            let n = ident_len(&cs[after + 1..]);
            if n > 0 && cs.get(after + 1 + n) == Some(&'}') {
                let name: String = cs[after + 1..after + 1 + n].iter().collect();
                let raw: String = cs[i..after + 2 + n].iter().collect();
                out.push(Piece::Named(name, raw));
                i = after + 2 + n;
                continue;
            }
        }
        out.push(Piece::Invalid(after));
        plain.extend(&d);
        i = after;
    }
    if !plain.is_empty() {
        out.push(Piece::Text(plain));
    }
    out
}

fn this(a: &Args) -> Result<Arc<Instance>> {
    match a.value("self") {
        Value::Instance(i) => Ok(i.clone()),
        other => Err(Error::new(
            ExceptionClass::TypeError,
            format!("a Template is needed, not {}", other.type_name()),
        )
        .at(a.call)),
    }
}

/// The template text and the delimiter (the class's, a subclass's included).
fn text_of(a: &Args) -> Result<(String, String)> {
    let i = this(a)?;
    let text = match attr_get(&i.attrs, "template") {
        Some(Value::Str(s)) => s.to_string(),
        _ => String::new(),
    };
    let delim = match i.class.lookup("delimiter") {
        Some(Value::Str(s)) => s.to_string(),
        _ => "$".into(),
    };
    Ok((text, delim))
}

fn init(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let i = this(a)?;
    attr_set(&i.attrs, "template", a.value("template").clone());
    Ok(Value::None)
}

/// CPython's ValueError for an invalid placeholder at character `pos`.
fn invalid(text: &str, pos: usize, a: &Args) -> Error {
    let before: String = text.chars().take(pos).collect();
    let lines: Vec<&str> = before.split_inclusive('\n').collect();
    let (line, col) = match lines.split_last() {
        None => (1, 1),
        Some((_, first)) => {
            let prior: usize = first.iter().map(|l| l.chars().count()).sum();
            (lines.len(), pos - prior)
        }
    };
    Error::new(
        ExceptionClass::ValueError,
        format!("Invalid placeholder in string: line {line}, col {col}"),
    )
    .at(a.call)
}

/// `mapping[name]` with the keywords first: `None` when neither has it.
fn lookup(it: &mut Interp<'_>, a: &Args, name: &str) -> Result<Option<Value>> {
    if let Some((_, v, _)) = a.kwargs().iter().find(|(k, _, _)| k == name) {
        return Ok(Some(v.clone()));
    }
    let Some(mapping) = a.given("mapping") else {
        return Ok(None);
    };
    match super::text::item_of(it, mapping, Value::str(name), a.call) {
        Ok(v) => Ok(Some(v)),
        Err(e) if e.to_exception().class == ExceptionClass::KeyError => Ok(None),
        Err(e) => Err(e),
    }
}

fn run(it: &mut Interp<'_>, a: &Args, safe: bool) -> Result<Value> {
    let (text, delim) = text_of(a)?;
    let mut out = String::new();
    for piece in parse(&text, &delim) {
        match piece {
            Piece::Text(s) => out.push_str(&s),
            Piece::Escaped => out.push_str(&delim),
            Piece::Named(name, raw) => match lookup(it, a, &name)? {
                Some(v) => {
                    it.prepare_shown(&v, a.call)?;
                    out.push_str(&str_of(&v));
                }
                None if safe => out.push_str(&raw),
                None => {
                    return Err(Error::new(
                        ExceptionClass::KeyError,
                        crate::render::tf_text::repr_of(&Value::str(name)),
                    )
                    .at(a.call))
                }
            },
            Piece::Invalid(pos) if !safe => return Err(invalid(&text, pos, a)),
            Piece::Invalid(_) => {}
        }
    }
    Ok(Value::str(out))
}

fn substitute(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    run(it, a, false)
}

fn safe_substitute(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    run(it, a, true)
}

fn get_identifiers(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let (text, delim) = text_of(a)?;
    let mut names: Vec<String> = Vec::new();
    for p in parse(&text, &delim) {
        if let Piece::Named(n, _) = p {
            if !names.contains(&n) {
                names.push(n);
            }
        }
    }
    Ok(Value::List(PyList::new(
        names.into_iter().map(Value::str).collect(),
        false,
    )))
}

fn is_valid(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let (text, delim) = text_of(a)?;
    Ok(Value::Bool(
        !parse(&text, &delim)
            .iter()
            .any(|p| matches!(p, Piece::Invalid(_))),
    ))
}
