//! Python builtins that take functions or test items: `map`, `filter`, `any`, `all`,
//! `reversed`, `callable`, and `sorted`, `min`, `max` with `key=` (and `default=`). Where
//! CPython returns an iterator (`map`, `filter`, `reversed`), ragtag returns the list of its
//! items.

use std::cmp::Ordering;

use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::operators::python_cmp;
use crate::eval::subscript::iterate;
use crate::eval::Interp;
use crate::value::Value;
use ragtag_engine::{Exception, ExceptionClass};

pub(super) fn callable(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    Ok(Value::Bool(
        matches!(
            a.value("obj"),
            Value::Builtin(_)
                | Value::Method(..)
                | Value::Closure(_)
                | Value::ErrorClass(_)
                | Value::DType(_)
                | Value::NpType(crate::value::np_type::NpType { scalar: true, .. })
                | Value::Class(_)
                | Value::Bound(_)
        ) || matches!(a.value("obj"), Value::Instance(i) if i.class.lookup("__call__").is_some()),
    ))
}

/// Each item with its sort key: `key(item)` when a key function is given.
fn keyed(it: &mut Interp<'_>, a: &Args, items: Vec<Value>) -> Result<Vec<(Value, Value)>> {
    let key = a.get("key").cloned();
    let mut out = Vec::new();
    for item in items {
        let k = match &key {
            Some(f) => {
                it.check_cancel()?;
                it.call_values(f, vec![item.clone()], a.call)?
            }
            None => item.clone(),
        };
        out.push((k, item));
    }
    Ok(out)
}

/// Python's ordering of two keys; values `python_cmp` does not order (scalar tensors) are
/// compared with `<` as before.
fn order(x: &Value, y: &Value) -> std::result::Result<Ordering, Exception> {
    python_cmp(x, y).or_else(|e| {
        let lt = |p: &Value, q: &Value| {
            crate::eval::operators::binary(ragtag_syntax::ast::BinOp::Lt, p, q)
                .and_then(|r| r.truthy())
        };
        match (lt(x, y), lt(y, x)) {
            (Ok(true), _) => Ok(Ordering::Less),
            (Ok(false), Ok(true)) => Ok(Ordering::Greater),
            (Ok(false), Ok(false)) => Ok(Ordering::Equal),
            _ => Err(e),
        }
    })
}

/// `sorted(iterable, key=None, reverse=False)`: Python's stable sort (shared with
/// `list.sort`).
pub(super) fn sorted(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let items = super::items_in(it, a, "iterable")?;
    let reverse = a.flag("reverse", false)?;
    let out = super::containers::sort_values(it, items, a.get("key"), reverse, a.span("iterable"))?;
    Ok(Value::list(out))
}

fn extreme(it: &mut Interp<'_>, a: &Args, want: Ordering, name: &str) -> Result<Value> {
    let default = a.given("default").cloned();
    let items: Vec<Value> = match a.rest() {
        [] => {
            return Err(Error::new(
                ExceptionClass::TypeError,
                format!("{name} expected at least 1 argument, got 0"),
            )
            .at(a.call))
        }
        [(v, s)] => iterate(v).map_err(|_| {
            Error::new(
                ExceptionClass::TypeError,
                format!("'{}' object is not iterable", v.type_name()),
            )
            .at(*s)
        })?,
        many => {
            if default.is_some() {
                return Err(Error::new(
                    ExceptionClass::TypeError,
                    format!(
                        "Cannot specify a default for {name}() with multiple positional arguments"
                    ),
                )
                .at(a.call));
            }
            many.iter().map(|(v, _)| v.clone()).collect()
        }
    };
    let mut best: Option<(Value, Value)> = None;
    for (k, v) in keyed(it, a, items)? {
        best = Some(match best {
            None => (k, v),
            Some((bk, bv)) => {
                // The first of equal items wins, as in Python.
                let better = match order(&k, &bk) {
                    Ok(o) => o == want,
                    // Instances (or lists and tuples of them) compare with their methods:
                    // `max` asks `k > best`, `min` `k < best`, as CPython does.
                    Err(_) if it.may_order(&k, &bk) => {
                        let op = match want {
                            Ordering::Greater => ragtag_syntax::ast::BinOp::Gt,
                            _ => ragtag_syntax::ast::BinOp::Lt,
                        };
                        let r = it.order_any(op, &k, &bk, a.call)?;
                        it.truth(&r, a.call)?
                    }
                    Err(e) => return Err(Error::from(e).at(a.call)),
                };
                if better {
                    (k, v)
                } else {
                    (bk, bv)
                }
            }
        });
    }
    match (best, default) {
        (Some((_, v)), _) => Ok(v),
        (None, Some(d)) => Ok(d),
        (None, None) => Err(Error::new(
            ExceptionClass::ValueError,
            format!("{name}() arg is an empty sequence"),
        )
        .at(a.call)),
    }
}

pub(super) fn min(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    extreme(it, a, Ordering::Less, "min")
}

pub(super) fn max(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    extreme(it, a, Ordering::Greater, "max")
}
