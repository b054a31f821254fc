//! Methods of Python strings (`str.format` with its `{:spec}` replacements, `join`,
//! `split`, case and whitespace) and of dicts (`keys`, `values`, `items`).

use super::items_of;
use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::convert;
use crate::eval::Interp;
use crate::render::tf_text::str_of;
use crate::value::Value;
use ragtag_engine::{budget, ExceptionClass};

fn self_str(a: &Args) -> String {
    match a.value("self") {
        Value::Str(s) => s.to_string(),
        _ => String::new(),
    }
}

pub(super) fn format(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let fmt = self_str(a);
    // Bytes, not a String: a wide field is padded with one fill of its bytes, and the text
    // is checked as UTF-8 once, at the end.
    let mut out: Vec<u8> = Vec::new();
    let mut args = a.rest().iter();
    let mut chars = fmt.chars().peekable();
    let mut utf8 = [0u8; 4];
    while let Some(c) = chars.next() {
        match c {
            '{' if chars.peek() == Some(&'{') => {
                chars.next();
                out.push(b'{');
            }
            '}' if chars.peek() == Some(&'}') => {
                chars.next();
                out.push(b'}');
            }
            '{' => {
                let mut spec = String::new();
                for d in chars.by_ref() {
                    if d == '}' {
                        break;
                    }
                    spec.push(d);
                }
                let (v, _) = args.next().ok_or_else(|| {
                    Error::new(
                        ExceptionClass::IndexError,
                        "Replacement index out of range for positional args tuple",
                    )
                    .at(a.call)
                })?;
                format_one(&mut out, v, &spec).map_err(|e| a.err_at("self", e))?;
            }
            c => out.extend_from_slice(c.encode_utf8(&mut utf8).as_bytes()),
        }
    }
    let out = String::from_utf8(out).expect("built from whole UTF-8 pieces");
    Ok(Value::str(out))
}

/// One `{}` replacement with an optional `:spec` (`.2f`, `d`, `>5`). Widths and
/// precisions of any size are written by hand (Rust's formatter refuses those past 65535),
/// within the memory budget.
fn format_one(
    out: &mut Vec<u8>,
    v: &Value,
    spec: &str,
) -> std::result::Result<(), ragtag_engine::Exception> {
    let spec = spec.split_once(':').map_or("", |(_, s)| s);
    if let Some(prec) = spec.strip_prefix('.').and_then(|p| p.strip_suffix('f')) {
        if let (Ok(p), Ok(f)) = (prec.parse::<usize>(), convert::to_f64(v)) {
            // Up to 309 integer digits, a sign and a point, then the decimals.
            let mut text = budget::string("str.format", p.saturating_add(320))?;
            if f.is_finite() {
                ragtag_engine::ops::strings::write_fixed(&mut text, f, p);
            } else {
                text.push_str(&crate::render::tf_text::format_of(v));
            }
            budget::grow("str.format", out, text.len())?;
            out.extend_from_slice(text.as_bytes());
            return Ok(());
        }
    }
    let text = crate::render::tf_text::format_of(v);
    // Alignment to a width: `>14`, `<8`, `^5` (fill is a space).
    let (align, width) = match spec.chars().next() {
        Some(c @ ('<' | '>' | '^')) => (c, &spec[1..]),
        _ => (' ', ""),
    };
    let pad = match width.parse::<usize>() {
        Ok(width) => width.saturating_sub(text.chars().count()),
        Err(_) => 0,
    };
    let (left, right) = match align {
        '<' => (0, pad),
        '>' => (pad, 0),
        _ => (pad / 2, pad - pad / 2),
    };
    // One reservation for the whole field, checked against the budget with what is
    // already written.
    budget::grow("str.format", out, text.len().saturating_add(pad))?;
    budget::extend_filled("str.format", out, b' ', left)?;
    out.extend_from_slice(text.as_bytes());
    budget::extend_filled("str.format", out, b' ', right)
}

pub(super) fn join(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let sep = self_str(a);
    let items = items_of(a, "iterable")?;
    let parts: Vec<String> = items.iter().map(str_of).collect();
    Ok(Value::str(parts.join(&sep)))
}

pub(super) fn split(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let s = self_str(a);
    let parts: Vec<Value> = match a.opt_str("sep")? {
        None => s.split_whitespace().map(Value::str).collect(),
        Some(sep) => s.split(sep.as_str()).map(Value::str).collect(),
    };
    Ok(Value::list(parts))
}

pub(super) fn upper(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    Ok(Value::str(self_str(a).to_uppercase()))
}

pub(super) fn lower(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    Ok(Value::str(self_str(a).to_lowercase()))
}

pub(super) fn strip(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    Ok(Value::str(self_str(a).trim()))
}

fn dict_of(a: &Args) -> Vec<(Value, Value)> {
    match a.value("self") {
        Value::Dict(d) => d.to_vec(),
        _ => Vec::new(),
    }
}

pub(super) fn dict_keys(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    Ok(Value::list(
        dict_of(a).into_iter().map(|(k, _)| k).collect(),
    ))
}

pub(super) fn dict_values(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    Ok(Value::list(
        dict_of(a).into_iter().map(|(_, v)| v).collect(),
    ))
}

pub(super) fn dict_items(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    Ok(Value::list(
        dict_of(a)
            .into_iter()
            .map(|(k, v)| Value::tuple(vec![k, v]))
            .collect(),
    ))
}
