//! `csv.writer`: a row's values joined as CPython's writer joins them (quoted or escaped
//! as the dialect needs) and written with the file's `write`.

use super::{
    class, csv_error, field, type_error, Dialect, QUOTE_ALL, QUOTE_NONE, QUOTE_NONNUMERIC,
};
use crate::diagnostic::{Error, Result};
use crate::eval::args::{Args, CallArg};
use crate::eval::builtins::registry;
use crate::eval::Interp;
use crate::value::class::{attr_set, Instance};
use crate::value::Value;
use ragtag_engine::ExceptionClass as C;
use ragtag_syntax::ast::Span;

/// A `csv.writer` over the file in parameter `param` of the call, with the call's dialect.
pub(super) fn make_writer(it: &mut Interp<'_>, a: &Args, param: &str) -> Result<Value> {
    let d = Dialect::of_call(it, a)?;
    let f = a.value(param).clone();
    let write = it
        .get_attr(f, "write", a.span(param), a.span(param))
        .map_err(|_| type_error("argument 1 must have a \"write\" method", a))?;
    let w = Instance::new(class("writer", "_csv"));
    attr_set(&w.attrs, "dialect", d.to_value());
    attr_set(&w.attrs, "_write", write);
    Ok(Value::Instance(w))
}

/// Writes `row` with `w`'s `write`: each value as text, quoted or escaped as `d` needs.
pub(super) fn write_row(
    it: &mut Interp<'_>,
    w: &Value,
    d: &Dialect,
    row: &Value,
    span: Span,
) -> Result<Value> {
    let values = match row {
        Value::Str(_)
        | Value::List(_)
        | Value::Tuple(_)
        | Value::Iter(_)
        | Value::Instance(_)
        | Value::Dict(_)
        | Value::Range(_)
        | Value::Set(_)
        | Value::View(_)
        | Value::Deque(_) => it.iterate_value(row, span)?,
        other => {
            let msg = format!("iterable expected, not {}", other.type_name());
            return Err(csv_error(it, msg, span));
        }
    };
    let mut out = String::new();
    let n = values.len();
    for (k, v) in values.iter().enumerate() {
        if k > 0 {
            out.push(d.delimiter);
        }
        let numeric = matches!(
            v,
            Value::Int(_) | Value::Float(_) | Value::Bool(_) | Value::BigInt(_)
        );
        let text = match v {
            Value::None => String::new(),
            Value::Str(s) => s.to_string(),
            other => {
                let s = it.call(
                    &registry_value("str")?,
                    vec![CallArg {
                        name: None,
                        value: other.clone(),
                        span,
                    }],
                    span,
                )?;
                crate::render::tf_text::str_of(&s)
            }
        };
        let mut quoted = match d.quoting {
            QUOTE_ALL => true,
            QUOTE_NONNUMERIC => !numeric,
            _ => false,
        };
        // A row of one empty field is written quoted, so that it reads back as [''].
        if n == 1 && text.is_empty() {
            if d.quoting == QUOTE_NONE {
                return Err(csv_error(
                    it,
                    "single empty field record must be quoted".into(),
                    span,
                ));
            }
            quoted = true;
        }
        let mut field = String::new();
        for c in text.chars() {
            let special = c == d.delimiter
                || Some(c) == d.escapechar
                || Some(c) == d.quotechar
                || d.lineterminator.contains(c);
            let mut escape = false;
            if special {
                if d.quoting == QUOTE_NONE {
                    escape = true;
                } else if Some(c) == d.quotechar {
                    if d.doublequote {
                        field.push(c);
                    } else {
                        escape = true;
                    }
                } else if Some(c) == d.escapechar {
                    escape = true;
                }
                if !escape {
                    quoted = true;
                }
            }
            if escape {
                match d.escapechar {
                    Some(e) => field.push(e),
                    None => {
                        return Err(csv_error(
                            it,
                            "need to escape, but no escapechar set".into(),
                            span,
                        ))
                    }
                }
            }
            field.push(c);
        }
        if quoted {
            let q = d.quotechar.unwrap_or('"');
            out.push(q);
            out.push_str(&field);
            out.push(q);
        } else {
            out.push_str(&field);
        }
    }
    out.push_str(&d.lineterminator);
    let write = field(w, "_write");
    it.call(
        &write,
        vec![CallArg {
            name: None,
            value: Value::str(out),
            span,
        }],
        span,
    )
}

fn registry_value(path: &str) -> Result<Value> {
    registry()
        .get(path)
        .map(Value::Builtin)
        .ok_or_else(|| Error::new(C::NameError, format!("no builtin {path}")))
}
