//! The method resolution order: CPython's C3 linearization of a class's bases.

use std::sync::Arc;

use super::Value;

/// The C3 linearization of a class with these bases, without the class itself (`None`
/// when there is no consistent order, as `class C(A, B)` where B derives from A).
pub fn c3(bases: &[Value]) -> Option<Vec<Value>> {
    let is = |a: &Value, b: &Value| match (a, b) {
        (Value::Class(x), Value::Class(y)) => Arc::ptr_eq(x, y),
        (a, b) => same(a, b),
    };
    let mut seqs: Vec<Vec<Value>> = bases
        .iter()
        .map(|b| match b {
            Value::Class(c) => c.mro(),
            // A builtin exception class's own order: it, then its bases up to BaseException.
            Value::ErrorClass(k) => std::iter::successors(Some(*k), |k| k.parent())
                .map(Value::ErrorClass)
                .collect(),
            other => vec![other.clone()],
        })
        .collect();
    seqs.push(bases.to_vec());
    let mut out = Vec::new();
    loop {
        seqs.retain(|s| !s.is_empty());
        if seqs.is_empty() {
            return Some(out);
        }
        let next = seqs
            .iter()
            .map(|s| &s[0])
            .find(|c| !seqs.iter().any(|s| s[1..].iter().any(|x| is(x, c))))?
            .clone();
        for s in &mut seqs {
            if is(&s[0], &next) {
                s.remove(0);
            }
        }
        out.push(next);
    }
}

/// Whether two class values are the same object.
pub(super) fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Class(x), Value::Class(y)) => Arc::ptr_eq(x, y),
        (Value::Builtin(x), Value::Builtin(y)) => std::ptr::eq(*x, *y),
        (Value::ErrorClass(x), Value::ErrorClass(y)) => x == y,
        (Value::Module(x), Value::Module(y)) => x == y,
        _ => false,
    }
}
