//! The iterator protocol of user classes: an instance whose class defines `__next__` is read
//! one item at a time (by `for`, `next()`, `list()`, `zip` and the rest), each item a call of
//! its `__next__`, until that raises StopIteration.

use super::Interp;
use crate::diagnostic::{Error, Result};
use crate::value::iter::{IterState, PyIter};
use crate::value::Value;
use ragtag_engine::ExceptionClass;
use ragtag_syntax::ast::Span;

/// `v` as an iterator, when it is an instance of a class with `__next__`.
pub fn wrap(v: &Value) -> Option<Value> {
    match v {
        Value::Instance(i) if i.class.lookup("__next__").is_some() => Some(Value::Iter(
            PyIter::new("iterator", IterState::Object { obj: v.clone() }),
        )),
        _ => None,
    }
}

impl<'s> Interp<'s> {
    /// The next item of a user iterator (`None`: its `__next__` raised StopIteration).
    pub(super) fn user_next(&mut self, obj: &Value, span: Span) -> Result<Option<Value>> {
        match self.dunder(obj, "__next__", Vec::new(), span) {
            Ok(Some(v)) => Ok(Some(v)),
            Ok(None) => Err(Error::new(
                ExceptionClass::TypeError,
                format!("'{}' object is not an iterator", obj.type_name()),
            )
            .at(span)),
            Err(e) if e.class == ExceptionClass::StopIteration => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// `iter(v)` of an instance through its `__iter__`: the iterator it returns (wrapped
    /// when it is a user iterator). `None` when the class has no `__iter__`.
    pub(super) fn instance_iter(&mut self, v: &Value, span: Span) -> Result<Option<Value>> {
        let has_iter = matches!(v, Value::Instance(i) if i.class.lookup("__iter__").is_some());
        if !has_iter {
            return Ok(None);
        }
        let Some(it) = self.dunder(v, "__iter__", Vec::new(), span)? else {
            return Ok(None);
        };
        if let Some(w) = wrap(&it) {
            return Ok(Some(w));
        }
        match it {
            Value::Iter(_) => Ok(Some(it)),
            Value::Instance(_) => Err(Error::new(
                ExceptionClass::TypeError,
                format!("iter() returned non-iterator of type '{}'", it.type_name()),
            )
            .at(span)),
            other => super::iterators::to_iter(&other).map(Some).map_err(|_| {
                Error::new(
                    ExceptionClass::TypeError,
                    format!(
                        "iter() returned non-iterator of type '{}'",
                        other.type_name()
                    ),
                )
                .at(span)
            }),
        }
    }
}

/// Whether an instance can be iterated: its class defines `__iter__`, or `__getitem__`
/// (the old sequence protocol).
pub fn iterable(v: &Value) -> bool {
    matches!(v, Value::Instance(i) if i.class.is_python()
        && (i.class.lookup("__iter__").is_some() || i.class.lookup("__getitem__").is_some()))
}
