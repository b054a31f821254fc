//! Set operators: `| & - ^` (a new set of the left operand's kind, as CPython's), their
//! in-place forms on a set, and the subset comparisons `<= < >= >` and `==`.

use std::sync::Arc;

use crate::value::{PySet, Value};
use ragtag_engine::{type_error, Exception};
use ragtag_syntax::ast::BinOp;

/// `x op y` between two sets; None for an operator sets do not have.
pub(super) fn binary(
    op: BinOp,
    x: &Arc<PySet>,
    y: &Arc<PySet>,
) -> Option<Result<Value, Exception>> {
    let frozen = x.is_frozen();
    let set = |r: Result<Arc<PySet>, Exception>| Some(r.map(Value::Set));
    match op {
        BinOp::BitOr => set(union(x, y, frozen)),
        BinOp::BitAnd => set(x.intersection(y)),
        BinOp::Sub => set(x.difference(y)),
        BinOp::BitXor => set(symmetric_difference(x, y, frozen)),
        BinOp::Le => Some(Ok(Value::Bool(x.is_subset(y)))),
        BinOp::Lt => Some(Ok(Value::Bool(x.len() < y.len() && x.is_subset(y)))),
        BinOp::Ge => Some(Ok(Value::Bool(y.is_subset(x)))),
        BinOp::Gt => Some(Ok(Value::Bool(y.len() < x.len() && y.is_subset(x)))),
        _ => None,
    }
}

/// CPython's `set_or`: a copy of `x` updated with `y`.
pub(crate) fn union(x: &PySet, y: &Arc<PySet>, frozen: bool) -> Result<Arc<PySet>, Exception> {
    let out = x.copy_as(frozen)?;
    out.update(&Value::Set(y.clone()), || Ok(Vec::new()))?;
    Ok(out)
}

/// CPython's `set_symmetric_difference`: a copy of `y` updated by `x`.
pub(crate) fn symmetric_difference(
    x: &Arc<PySet>,
    y: &PySet,
    frozen: bool,
) -> Result<Arc<PySet>, Exception> {
    let out = y.copy_as(frozen)?;
    out.symmetric_difference_update(x)?;
    Ok(out)
}

/// `x == y` between sets and frozensets: the same items.
pub(super) fn set_eq(x: &Arc<PySet>, y: &Arc<PySet>) -> bool {
    Arc::ptr_eq(x, y) || (x.len() == y.len() && x.is_subset(y))
}

/// `s op= other` on a set, in place; None where Python rebinds instead.
pub(super) fn in_place(
    op: BinOp,
    s: &Arc<PySet>,
    other: &Value,
) -> Option<Result<Value, Exception>> {
    if !matches!(
        op,
        BinOp::BitOr | BinOp::BitAnd | BinOp::Sub | BinOp::BitXor
    ) {
        return None;
    }
    let Value::Set(o) = other else {
        return Some(Err(type_error!(
            "unsupported operand type(s) for {op}=: 'set' and '{}'",
            other.type_name()
        )));
    };
    let run = || -> Result<Value, Exception> {
        match op {
            BinOp::BitOr => s.update(other, || Ok(Vec::new()))?,
            BinOp::BitAnd => {
                let kept = s.intersection(o)?;
                s.take_table(&kept);
            }
            BinOp::Sub => s.difference_update(o)?,
            _ => s.symmetric_difference_update(o)?,
        }
        Ok(Value::Set(s.clone()))
    };
    Some(run())
}
