//! Python semantics of bytes and bytearray under operators: `==` and ordering by content
//! (a bytes equals a bytearray of the same bytes), `+` and `*` (the left operand's kind
//! wins), `in` (an int in 0..256 or a subsequence), and a bytearray's in-place `+=`, `*=`.

use std::cmp::Ordering;

use crate::value::Value;
use ragtag_engine::{budget, type_error, value_error, Exception};
use ragtag_syntax::ast::BinOp;

/// The bytes of a bytes-like operand (bytes, NumPy's bytes_, bytearray).
pub fn data(v: &Value) -> Option<Vec<u8>> {
    v.as_bytes()
}

/// Whether a value is bytes-like.
pub fn is_bytes_like(v: &Value) -> bool {
    matches!(v, Value::Bytes(_) | Value::ByteArray(_))
}

/// The value of the operand's kind holding `out`: a bytearray stays one.
fn like(v: &Value, out: Vec<u8>) -> Value {
    match v {
        Value::ByteArray(_) => Value::bytearray(out),
        _ => Value::bytes(out),
    }
}

/// `a op b` when either operand is bytes-like; None when neither is.
pub fn binary(op: BinOp, a: &Value, b: &Value) -> Option<Result<Value, Exception>> {
    if !is_bytes_like(a) && !is_bytes_like(b) {
        return None;
    }
    Some(run(op, a, b))
}

fn run(op: BinOp, a: &Value, b: &Value) -> Result<Value, Exception> {
    let unsupported = || super::python::unsupported_operands(op, a, b);
    match (op, data(a), data(b)) {
        (BinOp::Add, Some(x), Some(y)) => {
            let mut out = budget::vec("bytes concatenation", x.len().saturating_add(y.len()))?;
            out.extend(x);
            out.extend(y);
            Ok(like(a, out))
        }
        (BinOp::Add, Some(_), None) => Err(type_error!(
            "can't concat {} to {}",
            b.type_name(),
            a.type_name()
        )),
        (BinOp::Mul, Some(x), None) | (BinOp::Mul, None, Some(x)) => {
            let (seq, n) = if is_bytes_like(a) { (a, b) } else { (b, a) };
            let n = match n {
                Value::Int(n) => *n,
                Value::Bool(t) => *t as i64,
                Value::BigInt(_) => {
                    return Err(Exception::new(
                        ragtag_engine::ExceptionClass::OverflowError,
                        "cannot fit 'int' into an index-sized integer",
                    ))
                }
                other => {
                    return Err(type_error!(
                        "can't multiply sequence by non-int of type '{}'",
                        other.type_name()
                    ))
                }
            };
            let n = usize::try_from(n).unwrap_or(0);
            let total = x.len().saturating_mul(n);
            let mut out = budget::vec("bytes repetition", total)?;
            for _ in 0..n {
                out.extend_from_slice(&x);
            }
            Ok(like(seq, out))
        }
        (BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge, Some(x), Some(y)) => {
            let o = x.cmp(&y);
            Ok(Value::Bool(match op {
                BinOp::Lt => o.is_lt(),
                BinOp::Le => o.is_le(),
                BinOp::Gt => o.is_gt(),
                _ => o.is_ge(),
            }))
        }
        (BinOp::Mod, Some(fmt), _) => crate::eval::builtins::python::format::percent_format_bytes(
            &fmt,
            b,
            matches!(a, Value::ByteArray(_)),
        ),
        _ => Err(unsupported()),
    }
}

/// Python's `==` when either side is bytes-like.
pub fn eq(a: &Value, b: &Value) -> Option<bool> {
    if !is_bytes_like(a) && !is_bytes_like(b) {
        return None;
    }
    Some(match (a, b) {
        (Value::Bytes(x), Value::Bytes(y)) => x.data == y.data,
        _ => matches!((data(a), data(b)), (Some(x), Some(y)) if x == y),
    })
}

/// Python's ordering of two bytes-like values; None unless both are.
pub fn cmp(a: &Value, b: &Value) -> Option<Ordering> {
    Some(data(a)?.cmp(&data(b)?))
}

/// `item in container` for a bytes-like container: an int byte or a subsequence.
pub fn contains(container: &[u8], item: &Value) -> Result<bool, Exception> {
    match item {
        Value::Int(_) | Value::Bool(_) => Ok(container.contains(&byte_of(item)?)),
        Value::Bytes(_) | Value::ByteArray(_) => {
            let needle = data(item).unwrap_or_default();
            Ok(find(container, &needle, 0).is_some())
        }
        other => Err(type_error!(
            "a bytes-like object is required, not '{}'",
            other.type_name()
        )),
    }
}

/// An int as a byte, with CPython's ValueError outside 0..256.
pub fn byte_of(v: &Value) -> Result<u8, Exception> {
    let i = match v {
        Value::Int(i) => *i,
        Value::Bool(b) => *b as i64,
        Value::BigInt(_) => -1,
        other => {
            return Err(type_error!(
                "'{}' object cannot be interpreted as an integer",
                other.type_name()
            ))
        }
    };
    u8::try_from(i).map_err(|_| value_error!("byte must be in range(0, 256)"))
}

/// The first position of `needle` in `hay` at or after `from`.
pub fn find(hay: &[u8], needle: &[u8], from: usize) -> Option<usize> {
    if needle.is_empty() {
        return (from <= hay.len()).then_some(from);
    }
    if needle.len() > hay.len() {
        return None;
    }
    (from..=hay.len() - needle.len()).find(|&i| hay[i..].starts_with(needle))
}

/// A bytearray's `+=` (any bytes-like operand) and `*=`; None for other operands.
pub fn in_place(op: BinOp, a: &Value, b: &Value) -> Option<Result<Value, Exception>> {
    let Value::ByteArray(arr) = a else {
        return None;
    };
    let run = || -> Result<Value, Exception> {
        match op {
            BinOp::Add => {
                let more = data(b)
                    .ok_or_else(|| type_error!("can't concat {} to bytearray", b.type_name()))?;
                budget::check(
                    "bytearray concatenation",
                    (arr.len() + more.len()) as u128,
                    1,
                )?;
                arr.with_mut(|v| v.extend(more));
            }
            _ => {
                let out = run(BinOp::Mul, a, b)?;
                let bytes = data(&out).unwrap_or_default();
                arr.with_mut(|v| *v = bytes);
            }
        }
        Ok(a.clone())
    };
    match op {
        BinOp::Add | BinOp::Mul => Some(run()),
        _ => None,
    }
}
