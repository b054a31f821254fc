//! The operators of `collections`' containers: a Counter's multiset arithmetic (`+ - & |`,
//! unary `+ -`, keeping positive counts), order-sensitive `==` between OrderedDicts, a
//! Counter's `==` that reads a missing count as 0, and a deque's `+` and `*`.

use std::sync::Arc;

use ragtag_engine::Exception;
use ragtag_syntax::ast::{BinOp, UnaryOp};

use super::python::{python_binary, python_cmp, python_eq};
use crate::value::deque::PyDeque;
use crate::value::{DictKind, PyDict, Value};

fn positive(v: &Value) -> Result<bool, Exception> {
    Ok(python_cmp(v, &Value::Int(0))? == std::cmp::Ordering::Greater)
}

fn negative(v: &Value) -> Result<bool, Exception> {
    Ok(python_cmp(v, &Value::Int(0))? == std::cmp::Ordering::Less)
}

fn count(d: &PyDict, k: &Value) -> Result<Value, Exception> {
    Ok(d.get(k)?.unwrap_or(Value::Int(0)))
}

fn is_counter(v: &Value) -> Option<&Arc<PyDict>> {
    match v {
        Value::Dict(d) if matches!(d.kind(), DictKind::Counter) => Some(d),
        _ => None,
    }
}

/// `a op b` between two Counters, two dicts (`|`) or with a deque; None for other operands.
pub(super) fn binary(op: BinOp, a: &Value, b: &Value) -> Option<Result<Value, Exception>> {
    if let (Some(x), Some(y)) = (is_counter(a), is_counter(b)) {
        if matches!(op, BinOp::Add | BinOp::Sub | BinOp::BitOr | BinOp::BitAnd) {
            return Some(counter_binary(op, x, y).map(Value::Dict));
        }
    }
    match (op, a, b) {
        // `d | other`: a new dict of the left's kind, the right's pairs last.
        (BinOp::BitOr, Value::Dict(x), Value::Dict(y)) => {
            let out = x.copy();
            Some(
                y.items()
                    .into_iter()
                    .try_for_each(|(k, v)| out.insert(k, v))
                    .map(|()| Value::Dict(out)),
            )
        }
        (BinOp::Add, Value::Deque(x), Value::Deque(y)) => {
            let mut items = x.items();
            items.extend(y.items());
            Some(Ok(Value::Deque(Arc::new(PyDeque::new(items, x.maxlen)))))
        }
        (BinOp::Mul, Value::Deque(x), Value::Int(n))
        | (BinOp::Mul, Value::Int(n), Value::Deque(x)) => {
            let items = x.items();
            let n = usize::try_from(*n).unwrap_or(0);
            Some(
                ragtag_engine::budget::repeat("deque repetition", &items, n)
                    .map(|out| Value::Deque(Arc::new(PyDeque::new(out, x.maxlen)))),
            )
        }
        _ => None,
    }
}

fn counter_binary(op: BinOp, x: &PyDict, y: &PyDict) -> Result<Arc<PyDict>, Exception> {
    let out = PyDict::of_kind(DictKind::Counter);
    for (k, c) in x.items() {
        let o = count(y, &k)?;
        let n = match op {
            BinOp::Add => python_binary(BinOp::Add, &c, &o)?,
            BinOp::Sub => python_binary(BinOp::Sub, &c, &o)?,
            BinOp::BitOr if python_cmp(&c, &o)?.is_lt() => o,
            BinOp::BitAnd if python_cmp(&o, &c)?.is_lt() => o,
            _ => c,
        };
        if positive(&n)? {
            out.insert(k, n)?;
        }
    }
    if op == BinOp::BitAnd {
        return Ok(out);
    }
    for (k, c) in y.items() {
        if x.contains(&k)? {
            continue;
        }
        if op == BinOp::Sub {
            if negative(&c)? {
                out.insert(k, python_binary(BinOp::Sub, &Value::Int(0), &c)?)?;
            }
        } else if positive(&c)? {
            out.insert(k, c)?;
        }
    }
    Ok(out)
}

/// `+c` and `-c` on a Counter: the positive counts, or the negated negative ones.
pub(super) fn unary(op: UnaryOp, a: &Value) -> Option<Result<Value, Exception>> {
    let d = is_counter(a)?;
    if op == UnaryOp::Invert {
        return None;
    }
    let run = || -> Result<Value, Exception> {
        let out = PyDict::of_kind(DictKind::Counter);
        for (k, c) in d.items() {
            if op == UnaryOp::Pos && positive(&c)? {
                out.insert(k, c)?;
            } else if op == UnaryOp::Neg && negative(&c)? {
                out.insert(k, python_binary(BinOp::Sub, &Value::Int(0), &c)?)?;
            }
        }
        Ok(Value::Dict(out))
    };
    Some(run())
}

/// `x == y` where either is an OrderedDict or both are Counters; None for plain dicts.
pub(super) fn dict_eq(x: &PyDict, y: &PyDict) -> Option<bool> {
    match (x.kind(), y.kind()) {
        (DictKind::Ordered, DictKind::Ordered) => {
            let (p, q) = (x.items(), y.items());
            Some(
                p.len() == q.len()
                    && p.iter()
                        .zip(q.iter())
                        .all(|((a, b), (c, d))| python_eq(a, c) && python_eq(b, d)),
            )
        }
        (DictKind::Counter, DictKind::Counter) => {
            let zero = Value::Int(0);
            let seen = |p: &PyDict, q: &PyDict| {
                p.items().iter().all(|(k, v)| {
                    let w = q.get(k).ok().flatten().unwrap_or_else(|| zero.clone());
                    python_eq(v, &w)
                })
            };
            Some(seen(x, y) && seen(y, x))
        }
        _ => None,
    }
}
