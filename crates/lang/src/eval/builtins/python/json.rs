//! Python's `json` module: `dumps` with CPython's spacing, escapes, `indent`, `sort_keys`,
//! `separators`, `ensure_ascii` and `default`, and `loads` with the decoder's messages
//! (`Expecting value: line 1 column 1 (char 0)`). NaN and the infinities are written and read
//! as CPython writes them (`NaN`, `Infinity`, `-Infinity`). A decoding error is a ValueError
//! (CPython's JSONDecodeError is one; `json.JSONDecodeError` names ValueError here).

use std::sync::Arc;

use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::builtins::Builtin;
use crate::eval::Interp;
use crate::render::tf_text::repr_of;
use crate::value::{BigInt, PyDict, PyList, Value};
use ragtag_engine::ExceptionClass;
use ragtag_syntax::ast::Span;

/// The `json` module.
pub static JSON: &[Builtin] = &[
    Builtin::function(
        "json.dumps",
        "(obj, *, skipkeys=False, ensure_ascii=True, indent=None, separators=None, default=None, sort_keys=False, cls=None)",
        dumps,
    )
    .doc("The JSON text of `obj` (dicts, lists, tuples, strs, numbers, bools, None), as CPython writes it.")
    .examples(&[
        "import json\njson.dumps({'a': [1, 2.5, None], 'b': True})",
        "import json\nprint(json.dumps({'b': 1, 'a': [1, 2]}, indent=2, sort_keys=True))",
    ]),
    Builtin::function("json.loads", "(s)", loads)
        .doc("The Python value of a JSON text: objects become dicts, arrays lists.")
        .examples(&["import json\njson.loads('{\"a\": [1, 2.5, null, true]}')"]),
];

/// `json.JSONDecodeError`.
pub fn constant(path: &str) -> Option<Value> {
    (path == "json.JSONDecodeError")
        .then(|| Value::Class(super::json_error::class()))
        .or_else(|| super::json_classes::constant(path))
}

struct Options {
    indent: Option<String>,
    item_sep: String,
    key_sep: String,
    ascii: bool,
    sort: bool,
    skip: bool,
    default: Option<Value>,
    span: Span,
}

fn type_error(msg: impl Into<String>) -> Error {
    Error::new(ExceptionClass::TypeError, msg)
}

fn dumps(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    if let Some(cls) = a.get("cls") {
        return super::json_classes::dumps_with(it, &cls.clone(), a);
    }
    let indent = match a.get("indent") {
        None => None,
        Some(Value::Int(n)) => Some(
            ragtag_engine::budget::repeat_str("indent", " ", (*n).max(0) as usize)
                .map_err(|e| a.err_at("indent", e))?,
        ),
        Some(Value::Str(s)) => Some(s.to_string()),
        Some(v) => {
            return Err(a.err_at(
                "indent",
                type_error(format!(
                    "indent must be an int or a str, not {}",
                    v.type_name()
                )),
            ))
        }
    };
    let (item_sep, key_sep) = match a.get("separators") {
        None if indent.is_some() => (",".to_string(), ": ".to_string()),
        None => (", ".to_string(), ": ".to_string()),
        Some(v) => {
            let items =
                crate::eval::subscript::iterate(v).map_err(|e| a.err_at("separators", e))?;
            match items.as_slice() {
                [Value::Str(x), Value::Str(y)] => (x.to_string(), y.to_string()),
                _ => {
                    return Err(a.err_at(
                        "separators",
                        type_error("separators must be a pair of strings"),
                    ))
                }
            }
        }
    };
    let opts = Options {
        indent,
        item_sep,
        key_sep,
        ascii: a.flag("ensure_ascii", true)?,
        sort: a.flag("sort_keys", false)?,
        skip: a.flag("skipkeys", false)?,
        default: a.get("default").cloned(),
        span: a.span("obj"),
    };
    let mut out = String::new();
    let mut stack = Vec::new();
    encode(it, a.value("obj"), &opts, 0, &mut stack, &mut out)?;
    Ok(Value::str(out))
}

fn float_text(f: f64) -> String {
    if f.is_nan() {
        "NaN".into()
    } else if f.is_infinite() {
        if f > 0.0 { "Infinity" } else { "-Infinity" }.into()
    } else {
        repr_of(&Value::Float(f))
    }
}

fn string(s: &str, ascii: bool, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{08}' => out.push_str("\\b"),
            '\u{0c}' => out.push_str("\\f"),
            c if (c as u32) < 0x20 || (ascii && (c as u32) > 0x7e) => {
                let mut buf = [0u16; 2];
                for unit in c.encode_utf16(&mut buf) {
                    out.push_str(&format!("\\u{unit:04x}"));
                }
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

fn newline(opts: &Options, level: usize, out: &mut String) {
    if let Some(ind) = &opts.indent {
        out.push('\n');
        for _ in 0..level {
            out.push_str(ind);
        }
    }
}

/// A dict key as JSON writes it (`None`: skipped with `skipkeys`).
fn key_text(k: &Value, opts: &Options) -> Result<Option<String>> {
    Ok(Some(match k {
        Value::Str(s) => s.to_string(),
        Value::Bool(b) => if *b { "true" } else { "false" }.to_string(),
        Value::None => "null".to_string(),
        Value::Int(_) | Value::BigInt(_) => repr_of(k),
        Value::Float(f) => float_text(*f),
        _ if opts.skip => return Ok(None),
        other => {
            return Err(type_error(format!(
                "keys must be str, int, float, bool or None, not {}",
                other.type_name()
            ))
            .at(opts.span))
        }
    }))
}

fn sort_items(items: &mut [(Value, Value)]) -> Result<()> {
    let strs = items.iter().all(|(k, _)| matches!(k, Value::Str(_)));
    let nums = items
        .iter()
        .all(|(k, _)| matches!(k, Value::Int(_) | Value::Float(_) | Value::Bool(_)));
    if strs {
        items.sort_by(|(a, _), (b, _)| match (a, b) {
            (Value::Str(x), Value::Str(y)) => x.cmp(y),
            _ => std::cmp::Ordering::Equal,
        });
    } else if nums {
        let f = |v: &Value| match v {
            Value::Int(i) => *i as f64,
            Value::Bool(b) => *b as i64 as f64,
            Value::Float(x) => *x,
            _ => 0.0,
        };
        items.sort_by(|(a, _), (b, _)| f(a).total_cmp(&f(b)));
    } else if let (Some(x), Some(y)) = (
        items.iter().find(|(k, _)| !matches!(k, Value::Str(_))),
        items.iter().find(|(k, _)| matches!(k, Value::Str(_))),
    ) {
        return Err(type_error(format!(
            "'<' not supported between instances of '{}' and '{}'",
            y.0.type_name(),
            x.0.type_name()
        )));
    }
    Ok(())
}

fn encode(
    it: &mut Interp<'_>,
    v: &Value,
    opts: &Options,
    level: usize,
    stack: &mut Vec<usize>,
    out: &mut String,
) -> Result<()> {
    ragtag_engine::guard::check_stack().map_err(|e| Error::from(e).at(opts.span))?;
    it.check_cancel()?;
    let container = |ptr: usize, stack: &mut Vec<usize>| -> Result<()> {
        if stack.contains(&ptr) {
            return Err(
                Error::new(ExceptionClass::ValueError, "Circular reference detected").at(opts.span),
            );
        }
        stack.push(ptr);
        Ok(())
    };
    match v {
        // A dict or list of a class deriving from one is encoded as its items.
        Value::Instance(i) if i.base().is_some() => {
            let base = i.base().cloned().unwrap_or(Value::None);
            return encode(it, &base, opts, level, stack, out);
        }
        Value::None => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Int(_) | Value::BigInt(_) => out.push_str(&repr_of(v)),
        Value::Float(f) => out.push_str(&float_text(*f)),
        Value::Str(s) => string(s, opts.ascii, out),
        Value::List(_) | Value::Tuple(_) => {
            let (items, ptr) = match v {
                Value::List(l) => (l.items(), Arc::as_ptr(l) as usize),
                Value::Tuple(t) => (t.to_vec(), Arc::as_ptr(t) as *const u8 as usize),
                _ => unreachable!("a list or tuple"),
            };
            if items.is_empty() {
                out.push_str("[]");
                return Ok(());
            }
            container(ptr, stack)?;
            out.push('[');
            for (i, x) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(&opts.item_sep);
                }
                newline(opts, level + 1, out);
                encode(it, x, opts, level + 1, stack, out)?;
            }
            newline(opts, level, out);
            out.push(']');
            stack.pop();
        }
        Value::Dict(d) => {
            let mut items = d.items();
            if items.is_empty() {
                out.push_str("{}");
                return Ok(());
            }
            container(Arc::as_ptr(d) as usize, stack)?;
            if opts.sort {
                sort_items(&mut items).map_err(|e| e.at(opts.span))?;
            }
            out.push('{');
            let mut first = true;
            for (k, x) in &items {
                let Some(key) = key_text(k, opts)? else {
                    continue;
                };
                if !first {
                    out.push_str(&opts.item_sep);
                }
                first = false;
                newline(opts, level + 1, out);
                string(&key, opts.ascii, out);
                out.push_str(&opts.key_sep);
                encode(it, x, opts, level + 1, stack, out)?;
            }
            newline(opts, level, out);
            out.push('}');
            stack.pop();
        }
        other => {
            let Some(f) = opts.default.clone() else {
                return Err(type_error(format!(
                    "Object of type {} is not JSON serializable",
                    other.type_name()
                ))
                .at(opts.span));
            };
            let replaced = it.call_values(&f, vec![other.clone()], opts.span)?;
            if stack.len() > 1000 {
                return Err(
                    Error::new(ExceptionClass::ValueError, "Circular reference detected")
                        .at(opts.span),
                );
            }
            stack.push(0);
            encode(it, &replaced, opts, level, stack, out)?;
            stack.pop();
        }
    }
    Ok(())
}

// ------------------------------------------------------------------------------------------
// Decoding.

struct Decoder<'a> {
    s: &'a [char],
    depth: usize,
}

/// A decoding error at character `pos` with CPython's position suffix.
fn decode_error(s: &[char], msg: &str, pos: usize) -> Error {
    let line = s[..pos.min(s.len())].iter().filter(|c| **c == '\n').count() + 1;
    let col = match s[..pos.min(s.len())].iter().rposition(|c| *c == '\n') {
        Some(nl) => pos - nl,
        None => pos + 1,
    };
    Error::new(
        ExceptionClass::ValueError,
        format!("{msg}: line {line} column {col} (char {pos})"),
    )
}

impl Decoder<'_> {
    fn ws(&self, mut i: usize) -> usize {
        while i < self.s.len() && matches!(self.s[i], ' ' | '\t' | '\n' | '\r') {
            i += 1;
        }
        i
    }

    fn err(&self, msg: &str, pos: usize) -> Error {
        decode_error(self.s, msg, pos)
    }

    fn starts(&self, i: usize, word: &str) -> bool {
        let w: Vec<char> = word.chars().collect();
        self.s.len() >= i + w.len() && self.s[i..i + w.len()] == w[..]
    }

    /// The value starting at `i` and the index after it.
    fn value(&mut self, i: usize) -> Result<(Value, usize)> {
        let Some(&c) = self.s.get(i) else {
            return Err(self.err("Expecting value", i));
        };
        match c {
            '"' => {
                let (s, end) = self.string(i + 1)?;
                Ok((Value::str(s), end))
            }
            '{' => self.nested(|d| d.object(i + 1), i),
            '[' => self.nested(|d| d.array(i + 1), i),
            'n' if self.starts(i, "null") => Ok((Value::None, i + 4)),
            't' if self.starts(i, "true") => Ok((Value::Bool(true), i + 4)),
            'f' if self.starts(i, "false") => Ok((Value::Bool(false), i + 5)),
            'N' if self.starts(i, "NaN") => Ok((Value::Float(f64::NAN), i + 3)),
            'I' if self.starts(i, "Infinity") => Ok((Value::Float(f64::INFINITY), i + 8)),
            '-' if self.starts(i, "-Infinity") => Ok((Value::Float(f64::NEG_INFINITY), i + 9)),
            _ => self.number(i),
        }
    }

    fn nested(
        &mut self,
        f: impl FnOnce(&mut Self) -> Result<(Value, usize)>,
        i: usize,
    ) -> Result<(Value, usize)> {
        self.depth += 1;
        if self.depth > 900 || ragtag_engine::guard::too_deep() {
            return Err(Error::new(
                ExceptionClass::RecursionError,
                "maximum recursion depth exceeded while decoding a JSON document",
            ));
        }
        let _ = i;
        let r = f(self);
        self.depth -= 1;
        r
    }

    fn number(&self, i: usize) -> Result<(Value, usize)> {
        let s = self.s;
        let digit = |j: usize| s.get(j).is_some_and(|c| c.is_ascii_digit());
        let mut j = i;
        if s.get(j) == Some(&'-') {
            j += 1;
        }
        if s.get(j) == Some(&'0') {
            j += 1;
        } else if digit(j) {
            while digit(j) {
                j += 1;
            }
        } else {
            return Err(self.err("Expecting value", i));
        }
        let mut float = false;
        if s.get(j) == Some(&'.') && digit(j + 1) {
            float = true;
            j += 1;
            while digit(j) {
                j += 1;
            }
        }
        if matches!(s.get(j), Some('e' | 'E')) {
            let mut k = j + 1;
            if matches!(s.get(k), Some('+' | '-')) {
                k += 1;
            }
            if digit(k) {
                float = true;
                j = k;
                while digit(j) {
                    j += 1;
                }
            }
        }
        let text: String = s[i..j].iter().collect();
        if float {
            return Ok((Value::Float(text.parse().unwrap_or(f64::NAN)), j));
        }
        Ok(match text.parse::<i64>() {
            Ok(n) => (Value::Int(n), j),
            Err(_) => (
                Value::BigInt(Arc::new(text.parse::<BigInt>().unwrap_or_default())),
                j,
            ),
        })
    }

    /// The string whose opening quote is before `i`, and the index after its closing quote.
    fn string(&self, i: usize) -> Result<(String, usize)> {
        let s = self.s;
        let mut out = String::new();
        let mut j = i;
        loop {
            let Some(&c) = s.get(j) else {
                return Err(self.err("Unterminated string starting at", i - 1));
            };
            match c {
                '"' => return Ok((out, j + 1)),
                '\\' => {
                    let Some(&e) = s.get(j + 1) else {
                        return Err(self.err("Unterminated string starting at", i - 1));
                    };
                    let simple = match e {
                        '"' => Some('"'),
                        '\\' => Some('\\'),
                        '/' => Some('/'),
                        'b' => Some('\u{08}'),
                        'f' => Some('\u{0c}'),
                        'n' => Some('\n'),
                        'r' => Some('\r'),
                        't' => Some('\t'),
                        _ => None,
                    };
                    if let Some(ch) = simple {
                        out.push(ch);
                        j += 2;
                        continue;
                    }
                    if e != 'u' {
                        return Err(self.err("Invalid \\escape", j));
                    }
                    let hex = |k: usize| -> Option<u32> {
                        let t: String = s.get(k..k + 4)?.iter().collect();
                        if t.chars().all(|c| c.is_ascii_hexdigit()) {
                            u32::from_str_radix(&t, 16).ok()
                        } else {
                            None
                        }
                    };
                    let Some(u) = hex(j + 2) else {
                        return Err(self.err("Invalid \\uXXXX escape", j + 1));
                    };
                    j += 6;
                    let mut code = u;
                    if (0xd800..0xdc00).contains(&u)
                        && s.get(j) == Some(&'\\')
                        && s.get(j + 1) == Some(&'u')
                    {
                        if let Some(lo) = hex(j + 2).filter(|lo| (0xdc00..0xe000).contains(lo)) {
                            code = 0x10000 + ((u - 0xd800) << 10) + (lo - 0xdc00);
                            j += 6;
                        }
                    }
                    out.push(char::from_u32(code).unwrap_or('\u{fffd}'));
                }
                c if (c as u32) < 0x20 => {
                    return Err(self.err("Invalid control character at", j));
                }
                c => {
                    out.push(c);
                    j += 1;
                }
            }
        }
    }

    fn object(&mut self, i: usize) -> Result<(Value, usize)> {
        let d = PyDict::new(Vec::new()).map_err(Error::from)?;
        let mut j = self.ws(i);
        if self.s.get(j) == Some(&'}') {
            return Ok((Value::Dict(d), j + 1));
        }
        loop {
            if self.s.get(j) != Some(&'"') {
                return Err(self.err("Expecting property name enclosed in double quotes", j));
            }
            let (key, end) = self.string(j + 1)?;
            j = self.ws(end);
            if self.s.get(j) != Some(&':') {
                return Err(self.err("Expecting ':' delimiter", j));
            }
            j = self.ws(j + 1);
            let (v, end) = self.value(j)?;
            d.insert(Value::str(key), v).map_err(Error::from)?;
            j = self.ws(end);
            match self.s.get(j) {
                Some('}') => return Ok((Value::Dict(d), j + 1)),
                Some(',') => j = self.ws(j + 1),
                _ => return Err(self.err("Expecting ',' delimiter", j)),
            }
        }
    }

    fn array(&mut self, i: usize) -> Result<(Value, usize)> {
        let mut items = Vec::new();
        let mut j = self.ws(i);
        if self.s.get(j) == Some(&']') {
            return Ok((Value::List(PyList::new(items, false)), j + 1));
        }
        loop {
            let (v, end) = self.value(j)?;
            items.push(v);
            j = self.ws(end);
            match self.s.get(j) {
                Some(']') => return Ok((Value::List(PyList::new(items, false)), j + 1)),
                Some(',') => j = self.ws(j + 1),
                _ => return Err(self.err("Expecting ',' delimiter", j)),
            }
        }
    }
}

fn loads(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    decode(a).map_err(|e| super::json_error::raise(it, e, a.value("s")))
}

fn decode(a: &Args) -> Result<Value> {
    let Value::Str(text) = a.value("s") else {
        return Err(a.err_at(
            "s",
            type_error(format!(
                "the JSON object must be str, bytes or bytearray, not {}",
                a.value("s").type_name()
            )),
        ));
    };
    let chars: Vec<char> = text.chars().collect();
    let mut d = Decoder {
        s: &chars,
        depth: 0,
    };
    let start = d.ws(0);
    let (v, end) = d.value(start).map_err(|e| e.at(a.span("s")))?;
    let end = d.ws(end);
    if end != chars.len() {
        return Err(d.err("Extra data", end).at(a.span("s")));
    }
    Ok(v)
}
