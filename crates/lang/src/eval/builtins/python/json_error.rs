//! `json.JSONDecodeError`: CPython's `json.decoder.JSONDecodeError`, a ValueError subclass
//! whose instances carry `msg`, `doc`, `pos`, `lineno` and `colno`. A decoding error is
//! raised as an instance of it, so `type(e).__name__` is `JSONDecodeError`, tracebacks name
//! `json.decoder.JSONDecodeError`, and `except ValueError` still catches it.

use std::sync::{Arc, OnceLock};

use crate::diagnostic::Error;
use crate::eval::Interp;
use crate::value::class::{attr_set, Class, Instance};
use crate::value::Value;
use ragtag_engine::ExceptionClass;

/// The class, made once.
pub fn class() -> Arc<Class> {
    static CLASS: OnceLock<Arc<Class>> = OnceLock::new();
    CLASS
        .get_or_init(|| {
            Class::new(
                "JSONDecodeError",
                "json.decoder",
                vec![Value::ErrorClass(ExceptionClass::ValueError)],
                Vec::new(),
            )
        })
        .clone()
}

/// `err` (a ValueError `MSG: line L column C (char P)` from decoding `doc`) raised as a
/// JSONDecodeError; any other error as it is.
pub fn raise(it: &mut Interp<'_>, err: Error, doc: &Value) -> Error {
    let Some(parts) = parse(&err) else {
        return err;
    };
    let inst = Instance::new(class());
    attr_set(
        &inst.attrs,
        "args",
        Value::tuple(vec![Value::str(&err.message)]),
    );
    attr_set(&inst.attrs, "msg", Value::str(parts.0));
    attr_set(&inst.attrs, "doc", doc.clone());
    attr_set(&inst.attrs, "pos", Value::Int(parts.3));
    attr_set(&inst.attrs, "lineno", Value::Int(parts.1));
    attr_set(&inst.attrs, "colno", Value::Int(parts.2));
    inst.set_shown(err.message.clone(), err.message.clone());
    it.raised = Some((
        Value::Instance(inst),
        ExceptionClass::ValueError,
        err.message.clone(),
    ));
    err.raised_as("json.decoder.JSONDecodeError")
}

/// The message, line, column and position of a decoding error.
fn parse(err: &Error) -> Option<(&str, i64, i64, i64)> {
    if err.class != ExceptionClass::ValueError || err.raised_as.is_some() {
        return None;
    }
    let (msg, rest) = err.message.rsplit_once(": line ")?;
    let (line, rest) = rest.split_once(" column ")?;
    let (col, rest) = rest.split_once(" (char ")?;
    let pos = rest.strip_suffix(')')?;
    Some((
        msg,
        line.parse().ok()?,
        col.parse().ok()?,
        pos.parse().ok()?,
    ))
}
