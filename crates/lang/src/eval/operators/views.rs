//! The operators of dict views: `in`, `==` and the set operators and comparisons of
//! `keys()` and `items()` (with sets and other views, as CPython's set-like views).

use std::sync::Arc;

use super::python::{identical, python_eq};
use crate::value::view::{DictView, ViewKind};
use crate::value::Value;
use ragtag_engine::Exception;
use ragtag_syntax::ast::BinOp;

/// `item in view`.
pub(super) fn contains(v: &DictView, item: &Value) -> Result<bool, Exception> {
    match v.kind {
        ViewKind::Keys => v.dict.contains(item),
        ViewKind::Items => {
            let Value::Tuple(pair) = item else {
                return Ok(false);
            };
            let [k, x] = pair.as_slice() else {
                return Ok(false);
            };
            Ok(match v.dict.get(k) {
                Ok(Some(w)) => identical(&w, x) || python_eq(&w, x),
                _ => false,
            })
        }
        ViewKind::Values => Ok(v
            .dict
            .values()
            .iter()
            .any(|w| identical(w, item) || python_eq(w, item))),
    }
}

/// The set a set-like operand stands for (a set, or a keys or items view).
fn as_set(v: &Value) -> Option<Result<Value, Exception>> {
    match v {
        Value::View(x) if x.set_like() => Some(x.to_set().map(Value::Set)),
        Value::Set(_) => Some(Ok(v.clone())),
        _ => None,
    }
}

/// `a op b` where either is a view; None when neither is.
pub(super) fn binary(op: BinOp, a: &Value, b: &Value) -> Option<Result<Value, Exception>> {
    if !matches!(a, Value::View(_)) && !matches!(b, Value::View(_)) {
        return None;
    }
    match op {
        BinOp::Eq => return Some(Ok(Value::Bool(eq(a, b)))),
        BinOp::Ne => return Some(Ok(Value::Bool(!eq(a, b)))),
        _ => {}
    }
    let setop = matches!(
        op,
        BinOp::BitOr
            | BinOp::BitAnd
            | BinOp::Sub
            | BinOp::BitXor
            | BinOp::Lt
            | BinOp::Le
            | BinOp::Gt
            | BinOp::Ge
    );
    if !setop {
        return None;
    }
    // `keys() | [1, 2]` takes any iterable on the other side, as CPython's views do.
    let other_set = |v: &Value| -> Option<Result<Value, Exception>> {
        as_set(v).or_else(|| match v {
            Value::List(_) | Value::Tuple(_) | Value::Dict(_) | Value::Range(_) => Some(
                crate::eval::subscript::iterate(v)
                    .and_then(|items| crate::value::PySet::from_items(items, false))
                    .map(Value::Set),
            ),
            _ => None,
        })
    };
    let comparison = matches!(op, BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge);
    let (x, y) = if comparison {
        (as_set(a)?, as_set(b)?)
    } else {
        (other_set(a)?, other_set(b)?)
    };
    Some(x.and_then(|x| y.and_then(|y| super::binary(op, &x, &y))))
}

/// `a == b` where either is a view: keys and items equal a set (or view) of the same
/// items; a values view equals only itself.
pub(super) fn eq(a: &Value, b: &Value) -> bool {
    if let (Value::View(x), Value::View(y)) = (a, b) {
        if Arc::ptr_eq(x, y) {
            return true;
        }
    }
    match (as_set(a), as_set(b)) {
        (Some(Ok(x)), Some(Ok(y))) => python_eq(&x, &y),
        _ => false,
    }
}
