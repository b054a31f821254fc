//! Methods of Python strings (`str.format` with its `{:spec}` replacements, `join`; the
//! others are in `str_methods` and `str_case`) and of dicts (`keys`, `values`, `items`).

use super::items_of;
use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::items::Sub;
use crate::eval::Interp;
use crate::render::tf_text::str_of;
use crate::value::view::{DictView, ViewKind};
use crate::value::Value;
use ragtag_engine::ExceptionClass;
use ragtag_syntax::ast::Span;

fn self_str(a: &Args) -> String {
    match a.value("self") {
        Value::Str(s) => s.to_string(),
        _ => String::new(),
    }
}

pub(super) fn format(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let fmt = self_str(a);
    let args: Vec<Value> = a.rest().iter().map(|(v, _)| v.clone()).collect();
    let kwargs: Vec<(String, Value)> = a
        .kwargs()
        .iter()
        .map(|(k, v, _)| (k.clone(), v.clone()))
        .collect();
    let call = a.call;
    for v in args.iter().chain(kwargs.iter().map(|(_, v)| v)) {
        it.prepare_shown(v, call)?;
    }
    let mut attr = |v: &Value, name: &str| field_attr(it, v, name, call);
    let text = super::format::str_format(&fmt, &args, &kwargs, &mut attr)
        .map_err(|e| Error::from(e).at(call))?;
    Ok(Value::str(text))
}

/// `obj[key]` as the evaluator reads it: an instance's `__getitem__`, a Counter's or
/// defaultdict's missing key, else the container's item.
pub(super) fn item_of(it: &mut Interp<'_>, obj: &Value, key: Value, span: Span) -> Result<Value> {
    if let Value::Instance(_) = obj {
        return it
            .dunder(obj, "__getitem__", vec![key], span)?
            .ok_or_else(|| {
                Error::new(
                    ExceptionClass::TypeError,
                    format!("'{}' object is not subscriptable", obj.type_name()),
                )
                .at(span)
            });
    }
    let sub = Sub::Key(key, span);
    if let Some(v) = it.dict_missing(obj, &sub, span)? {
        return Ok(v);
    }
    crate::eval::items::get_item(obj, &sub, span)
}

pub(super) fn format_map(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let fmt = self_str(a);
    let mapping = a.value("mapping").clone();
    let call = a.call;
    let mut attr = |v: &Value, name: &str| {
        let Some(key) = name.strip_prefix('[') else {
            return field_attr(it, v, name, call);
        };
        item_of(it, &mapping, Value::str(key), call)
            .and_then(|v| {
                it.prepare_shown(&v, call)?;
                Ok(v)
            })
            .map_err(|e| {
                let e = e.into_info();
                ragtag_engine::Exception::new(e.class, e.message)
            })
    };
    let text =
        super::format::str_format_map(&fmt, &mut attr).map_err(|e| Error::from(e).at(call))?;
    Ok(Value::str(text))
}

pub(super) fn join(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let sep = self_str(a);
    let items = items_of(a, "iterable").map_err(|e| {
        if e.message.ends_with("is not iterable") {
            crate::diagnostic::Error::new(
                ragtag_engine::ExceptionClass::TypeError,
                "can only join an iterable",
            )
            .at(a.span("iterable"))
        } else {
            e
        }
    })?;
    let mut parts = Vec::new();
    for (n, v) in items.iter().enumerate() {
        match v {
            Value::Str(s) => parts.push(s.to_string()),
            // An instance of a class deriving from str joins as its str.
            Value::Instance(i) if matches!(i.base(), Some(Value::Str(_))) => {
                parts.push(str_of(i.base().unwrap_or(v)))
            }
            // Tensors of strings join as their text, as ragtag has always joined them.
            Value::Array(_) | Value::NdArray(_) => parts.push(str_of(v)),
            other => {
                return Err(crate::diagnostic::Error::new(
                    ragtag_engine::ExceptionClass::TypeError,
                    format!(
                        "sequence item {n}: expected str instance, {} found",
                        other.type_name()
                    ),
                )
                .at(a.span("iterable"))
                .with_hint("convert the items first: sep.join(map(str, items))"))
            }
        }
    }
    Ok(Value::str(parts.join(&sep)))
}

pub(super) fn dict_keys(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    Ok(view_of(a, ViewKind::Keys))
}

pub(super) fn dict_values(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    Ok(view_of(a, ViewKind::Values))
}

pub(super) fn dict_items(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    Ok(view_of(a, ViewKind::Items))
}

/// A live view of the receiver dict.
fn view_of(a: &Args, kind: ViewKind) -> Value {
    let dict = match a.value("self") {
        Value::Dict(d) => d.clone(),
        _ => crate::value::PyDict::of_kind(Default::default()),
    };
    Value::View(std::sync::Arc::new(DictView { dict, kind }))
}

/// A replacement field's attribute `name` of `v`, or with `name` `:spec`, its
/// `__format__` (see `AttrLookup`).
fn field_attr(
    it: &mut Interp<'_>,
    v: &Value,
    name: &str,
    call: Span,
) -> std::result::Result<Value, ragtag_engine::Exception> {
    let result = match name.strip_prefix(':') {
        Some(spec) => it
            .format_instance(v, spec, call)
            .map(|s| s.map_or(Value::None, Value::str)),
        None => it.get_attr(v.clone(), name, call, call),
    };
    result.map_err(|e| {
        let e = e.into_info();
        ragtag_engine::Exception::new(e.class, e.message)
    })
}
