//! Python semantics between Python values: numbers, strings, lists, tuples and dicts
//! (`==`, ordering, `in`, arithmetic, repetition and `%` formatting).

use std::sync::Arc;

use super::num::{float_pow, num, zero_div, Num};

use crate::value::Value;
use ragtag_engine::{budget, DType, Exception, ExceptionClass};
use ragtag_engine::{type_error, value_error};
use ragtag_syntax::ast::BinOp;

/// Python's `is`: the same object (or the same singleton or constant).
pub fn identical(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::None, Value::None) => true,
        (Value::Bool(x), Value::Bool(y)) => x == y,
        // Ints and strs are values in ragtag: equal ones are the same object, as CPython's
        // cached small ints, interned strs and a name bound to another's value are.
        (Value::Int(x), Value::Int(y)) => x == y,
        (Value::BigInt(x), Value::BigInt(y)) => x == y,
        (Value::Str(x), Value::Str(y)) => Arc::ptr_eq(x, y) || x == y,
        (Value::Array(x), Value::Array(y)) => Arc::ptr_eq(x, y),
        (Value::List(x), Value::List(y)) => Arc::ptr_eq(x, y),
        (Value::Dict(x), Value::Dict(y)) => Arc::ptr_eq(x, y),
        (Value::Set(x), Value::Set(y)) => Arc::ptr_eq(x, y),
        (Value::Tuple(x), Value::Tuple(y)) => Arc::ptr_eq(x, y),
        (Value::Closure(x), Value::Closure(y)) => Arc::ptr_eq(x, y),
        (Value::Builtin(x), Value::Builtin(y)) => std::ptr::eq(*x, *y),
        (Value::DType(x), Value::DType(y)) => x == y,
        (Value::NpType(x), Value::NpType(y)) => x == y,
        (Value::ErrorClass(x), Value::ErrorClass(y)) => x == y,
        (Value::Module(x), Value::Module(y)) => x == y,
        // `...` and `NotImplemented` are singletons; other markers (a Paddle place, a
        // generator) are objects of their own.
        (Value::Opaque(x), Value::Opaque(y)) => {
            matches!(&**x, "Ellipsis" | "NotImplemented") && x == y
        }
        (Value::Class(x), Value::Class(y)) => Arc::ptr_eq(x, y),
        (Value::Instance(x), Value::Instance(y)) => Arc::ptr_eq(x, y),
        (Value::Iter(x), Value::Iter(y)) => Arc::ptr_eq(x, y),
        (Value::Bytes(x), Value::Bytes(y)) => Arc::ptr_eq(x, y),
        (Value::ByteArray(x), Value::ByteArray(y)) => Arc::ptr_eq(x, y),
        (Value::Range(x), Value::Range(y)) => Arc::ptr_eq(x, y),
        (Value::View(x), Value::View(y)) => Arc::ptr_eq(x, y),
        (Value::Exception(x), Value::Exception(y)) => Arc::ptr_eq(x, y),
        _ => false,
    }
}

pub(super) fn contains(container: &Value, item: &Value) -> Result<bool, Exception> {
    match container {
        Value::List(_) | Value::Tuple(_) => {
            for x in as_items(container)? {
                if identical(&x, item) || python_eq(&x, item) {
                    return Ok(true);
                }
            }
            Ok(false)
        }
        Value::Dict(d) => d.contains(item),
        Value::Set(s) => s.contains(item),
        Value::View(v) => super::views::contains(v, item),
        Value::Deque(d) => Ok(d
            .items()
            .iter()
            .any(|x| identical(x, item) || python_eq(x, item))),
        Value::Str(s) => match item {
            Value::Str(t) => Ok(s.contains(&**t)),
            _ => Err(type_error!(
                "'in <string>' requires string as left operand, not {}",
                item.type_name()
            )),
        },
        Value::Bytes(b) => super::bytes::contains(&b.data, item),
        Value::ByteArray(b) => super::bytes::contains(&b.bytes(), item),
        Value::Range(r) => Ok(match item {
            Value::Int(i) => r.contains_int(*i as i128),
            Value::Bool(b) => r.contains_int(*b as i128),
            Value::BigInt(_) => false,
            _ => crate::eval::subscript::iterate(container)?
                .iter()
                .any(|x| python_eq(x, item)),
        }),
        other => Err(type_error!(
            "argument of type '{}' is not iterable",
            other.type_name()
        )),
    }
}

/// Python `==` between non-tensor values.
pub fn python_eq(a: &Value, b: &Value) -> bool {
    if let Some(e) = super::bytes::eq(a, b) {
        return e;
    }
    match (a, b) {
        (Value::None, Value::None) => true,
        (Value::Str(x), Value::Str(y)) => x == y,
        (Value::List(x), Value::List(y)) => {
            if Arc::ptr_eq(x, y) {
                return true;
            }
            if let (Some(p), Some(q)) = (x.cached_literal(), y.cached_literal()) {
                return p == q;
            }
            x.len() == y.len() && items_eq(&x.items(), &y.items())
        }
        (Value::Tuple(x), Value::Tuple(y)) => Arc::ptr_eq(x, y) || items_eq(x, y),
        (Value::Deque(x), Value::Deque(y)) => Arc::ptr_eq(x, y) || items_eq(&x.items(), &y.items()),
        (Value::Dict(x), Value::Dict(y)) => {
            if Arc::ptr_eq(x, y) {
                return true;
            }
            if let Some(eq) = super::collections::dict_eq(x, y) {
                return eq;
            }
            if x.len() != y.len() || ragtag_engine::guard::too_deep() {
                return false;
            }
            x.items().iter().all(
                |(k, v)| matches!(y.get(k), Ok(Some(w)) if identical(v, &w) || python_eq(v, &w)),
            )
        }
        (Value::View(_), _) | (_, Value::View(_)) => super::views::eq(a, b),
        (Value::DType(x), Value::DType(y)) => x == y,
        // TensorFlow's dtypes and NumPy's types of the same element are equal; a dtype
        // equals its name (`tf.float32 == 'float32'`, `a.dtype == 'int64'`), NumPy's scalar
        // type does not.
        (Value::DType(x), Value::NpType(y)) | (Value::NpType(y), Value::DType(x)) => *x == y.dtype,
        (Value::NpType(x), Value::NpType(y)) => x.dtype == y.dtype,
        (Value::DType(x), Value::Str(s)) | (Value::Str(s), Value::DType(x)) => {
            DType::parse(s) == Some(*x)
        }
        (Value::NpType(x), Value::Str(s)) | (Value::Str(s), Value::NpType(x)) if !x.scalar => {
            DType::parse(s) == Some(x.dtype)
        }
        (Value::Set(x), Value::Set(y)) => super::sets::set_eq(x, y),
        (Value::BigInt(_), _) | (_, Value::BigInt(_)) => {
            matches!(
                super::bigint::binary(BinOp::Eq, a, b),
                Some(Ok(Value::Bool(true)))
            )
        }
        (Value::Shape(x), Value::Shape(y)) => x == y,
        (Value::Range(x), Value::Range(y)) => x.same_items(y),
        (Value::Slice(x), Value::Slice(y)) => x
            .parts()
            .iter()
            .zip(y.parts())
            .all(|(p, q)| python_eq(p, q)),
        // TensorShape.__eq__ reads a list or tuple of sizes as a shape.
        (Value::Shape(x), v @ (Value::List(_) | Value::Tuple(_)))
        | (v @ (Value::List(_) | Value::Tuple(_)), Value::Shape(x)) => {
            let items = crate::value::subscript_items(v);
            items.len() == x.len()
                && items.iter().zip(x.iter()).all(|(p, q)| match (p, q) {
                    (Value::None, None) => true,
                    (Value::Int(i), Some(d)) => *i >= 0 && *i as usize == *d,
                    _ => false,
                })
        }
        // Type objects, classes, functions and exceptions are equal only to themselves.
        (Value::Builtin(_), Value::Builtin(_))
        | (Value::Class(_), Value::Class(_))
        | (Value::Instance(_), Value::Instance(_))
        | (Value::ErrorClass(_), Value::ErrorClass(_))
        | (Value::Closure(_), Value::Closure(_))
        | (Value::Exception(_), Value::Exception(_))
        | (Value::Module(_), Value::Module(_)) => identical(a, b),
        _ => match (num(a), num(b)) {
            (Some(x), Some(y)) => x == y,
            _ => false,
        },
    }
}

/// Item-by-item `==` of two sequences (an item is equal to itself, as in Python).
fn items_eq(xs: &[Value], ys: &[Value]) -> bool {
    if xs.len() != ys.len() || ragtag_engine::guard::too_deep() {
        return false;
    }
    xs.iter()
        .zip(ys)
        .all(|(p, q)| identical(p, q) || python_eq(p, q))
}

/// CPython's TypeError for an operator its operands do not support.
pub(super) fn unsupported_operands(op: BinOp, a: &Value, b: &Value) -> Exception {
    match (op, a) {
        // The sequence on the left concatenates only its own kind.
        (BinOp::Add, Value::Str(_) | Value::List(_) | Value::Tuple(_)) => {
            return type_error!(
                "can only concatenate {} (not \"{}\") to {}",
                a.type_name(),
                b.type_name(),
                a.type_name()
            )
        }
        (BinOp::Add, Value::Bytes(_) | Value::ByteArray(_)) => {
            return type_error!("can't concat {} to {}", b.type_name(), a.type_name())
        }
        _ => {}
    }
    match op {
        BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => type_error!(
            "'{op}' not supported between instances of '{}' and '{}'",
            a.type_name(),
            b.type_name()
        ),
        _ => type_error!(
            "unsupported operand type(s) for {op}: '{}' and '{}'",
            a.type_name(),
            b.type_name()
        ),
    }
}

pub(super) fn python_binary(op: BinOp, a: &Value, b: &Value) -> Result<Value, Exception> {
    let unsupported = || unsupported_operands(op, a, b);
    match op {
        BinOp::Eq => return Ok(Value::Bool(python_eq(a, b))),
        BinOp::Ne => return Ok(Value::Bool(!python_eq(a, b))),
        _ => {}
    }
    if let Some(r) = super::bytes::binary(op, a, b) {
        return r;
    }
    if let Some(r) = super::collections::binary(op, a, b) {
        return r;
    }
    // Sequences and strings.
    match (op, a, b) {
        (BinOp::Add, Value::Str(x), Value::Str(y)) => {
            let mut s = budget::string("string concatenation", x.len().saturating_add(y.len()))?;
            s.push_str(x);
            s.push_str(y);
            return Ok(Value::str(s));
        }
        (BinOp::Mul, Value::Str(x), Value::Int(n)) | (BinOp::Mul, Value::Int(n), Value::Str(x)) => {
            let n = usize::try_from(*n).unwrap_or(0);
            return Ok(Value::str(budget::repeat_str("string repetition", x, n)?));
        }
        (BinOp::Mul, Value::Str(_) | Value::List(_) | Value::Tuple(_), Value::BigInt(_))
        | (BinOp::Mul, Value::BigInt(_), Value::Str(_) | Value::List(_) | Value::Tuple(_)) => {
            return Err(Exception::new(
                ExceptionClass::OverflowError,
                "cannot fit 'int' into an index-sized integer",
            ));
        }
        (BinOp::Mod, Value::Str(x), _) => {
            return crate::eval::builtins::percent_format(x, b);
        }

        (BinOp::Add, _, _) if is_list(a) || is_list(b) => {
            if !(is_list(a) && is_list(b)) {
                return Err(unsupported());
            }
            let xs = as_items(a)?;
            let ys = as_items(b)?;
            let mut out = budget::vec("list concatenation", xs.len().saturating_add(ys.len()))?;
            out.extend(xs);
            out.extend(ys);
            let display = is_display(a) && is_display(b);
            return Ok(crate::value::relist(out, display));
        }
        (BinOp::Mul, Value::Tuple(x), Value::Int(n))
        | (BinOp::Mul, Value::Int(n), Value::Tuple(x)) => {
            let n = usize::try_from(*n).unwrap_or(0);
            return Ok(Value::tuple(budget::repeat("tuple repetition", x, n)?));
        }
        (BinOp::Add, Value::Tuple(x), Value::Tuple(y)) => {
            return Ok(Value::tuple(x.iter().chain(y.iter()).cloned().collect()))
        }
        (BinOp::Mul, x, Value::Int(n)) | (BinOp::Mul, Value::Int(n), x) if is_list(x) => {
            let n = usize::try_from(*n).unwrap_or(0);
            let items = as_items(x)?;
            let out = budget::repeat("list repetition", &items, n)?;
            return Ok(crate::value::relist(out, is_display(x)));
        }
        (BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge, _, _)
            if (is_list(a) && is_list(b))
                || matches!((a, b), (Value::Tuple(_), Value::Tuple(_))) =>
        {
            let o = python_cmp(a, b)?;
            return Ok(Value::Bool(match op {
                BinOp::Lt => o.is_lt(),
                BinOp::Le => o.is_le(),
                BinOp::Gt => o.is_gt(),
                _ => o.is_ge(),
            }));
        }
        (BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge, Value::Str(x), Value::Str(y)) => {
            let o = x.cmp(y);
            return Ok(Value::Bool(match op {
                BinOp::Lt => o.is_lt(),
                BinOp::Le => o.is_le(),
                BinOp::Gt => o.is_gt(),
                _ => o.is_ge(),
            }));
        }
        _ => {}
    }
    if let (Value::Set(x), Value::Set(y)) = (a, b) {
        return super::sets::binary(op, x, y).unwrap_or_else(|| Err(unsupported()));
    }
    if matches!(a, Value::BigInt(_)) || matches!(b, Value::BigInt(_)) {
        return super::bigint::binary(op, a, b).unwrap_or_else(|| Err(unsupported()));
    }
    let (Some(x), Some(y)) = (num(a), num(b)) else {
        return Err(unsupported());
    };
    // An int result past 64 bits: the same operation on big ints.
    let grow = || super::bigint::binary(op, a, b).unwrap_or_else(|| Err(unsupported()));
    let both_bool = matches!((a, b), (Value::Bool(_), Value::Bool(_)));
    Ok(match (x, y) {
        (Num::I(p), Num::I(q)) => match op {
            BinOp::Add => p.checked_add(q).map_or_else(grow, |r| Ok(Value::Int(r)))?,
            BinOp::Sub => p.checked_sub(q).map_or_else(grow, |r| Ok(Value::Int(r)))?,
            BinOp::Mul => p.checked_mul(q).map_or_else(grow, |r| Ok(Value::Int(r)))?,
            BinOp::Div => {
                if q == 0 {
                    return Err(zero_div("division by zero"));
                }
                Value::Float(p as f64 / q as f64)
            }
            BinOp::FloorDiv => {
                if q == 0 {
                    return Err(zero_div("integer division or modulo by zero"));
                }
                // Python floors; Rust truncates. Only MIN // -1 overflows.
                let Some(d) = p.checked_div(q) else {
                    return grow();
                };
                Value::Int(if p % q != 0 && ((p < 0) != (q < 0)) {
                    d - 1
                } else {
                    d
                })
            }
            BinOp::Mod => {
                if q == 0 {
                    return Err(zero_div("integer modulo by zero"));
                }
                // `MIN % -1` overflows in Rust; its value is 0.
                let r = p.checked_rem(q).unwrap_or(0);
                Value::Int(if r != 0 && ((r < 0) != (q < 0)) {
                    r + q
                } else {
                    r
                })
            }
            BinOp::Pow => {
                if q >= 0 {
                    // 0, 1 and -1 stay small for any exponent and every other base
                    // overflows past 64, so a huge exponent is cut to 64 or 65 (same parity).
                    let e = if q > 64 {
                        64 + (q & 1) as u32
                    } else {
                        q as u32
                    };
                    p.checked_pow(e).map_or_else(grow, |r| Ok(Value::Int(r)))?
                } else if p == 0 {
                    return Err(zero_div("0 cannot be raised to a negative power"));
                } else {
                    Value::Float((p as f64).powf(q as f64))
                }
            }
            BinOp::BitAnd if both_bool => Value::Bool(p & q != 0),
            BinOp::BitOr if both_bool => Value::Bool(p | q != 0),
            BinOp::BitXor if both_bool => Value::Bool(p ^ q != 0),
            BinOp::BitAnd => Value::Int(p & q),
            BinOp::BitOr => Value::Int(p | q),
            BinOp::BitXor => Value::Int(p ^ q),
            BinOp::LShift | BinOp::RShift if q < 0 => {
                return Err(value_error!("negative shift count"))
            }
            BinOp::LShift if p == 0 => Value::Int(0),
            BinOp::LShift => {
                // A shift that loses bits grows into a big int.
                let shifted = u32::try_from(q)
                    .ok()
                    .and_then(|q| p.checked_shl(q))
                    .filter(|r| q < 64 && r >> q == p);
                shifted.map_or_else(grow, |r| Ok(Value::Int(r)))?
            }
            BinOp::RShift => Value::Int(p >> q.min(63)),
            BinOp::Lt => Value::Bool(p < q),
            BinOp::Le => Value::Bool(p <= q),
            BinOp::Gt => Value::Bool(p > q),
            BinOp::Ge => Value::Bool(p >= q),
            _ => return Err(unsupported()),
        },
        (x, y) => {
            let (p, q) = (x.f(), y.f());
            match op {
                BinOp::Add => Value::Float(p + q),
                BinOp::Sub => Value::Float(p - q),
                BinOp::Mul => Value::Float(p * q),
                BinOp::Div => {
                    if q == 0.0 {
                        return Err(zero_div("float division by zero"));
                    }
                    Value::Float(p / q)
                }
                BinOp::FloorDiv => {
                    if q == 0.0 {
                        return Err(zero_div("float floor division by zero"));
                    }
                    Value::Float((p / q).floor())
                }
                BinOp::Mod => {
                    if q == 0.0 {
                        return Err(zero_div("float modulo"));
                    }
                    let r = p % q;
                    Value::Float(if r != 0.0 && ((r < 0.0) != (q < 0.0)) {
                        r + q
                    } else {
                        r
                    })
                }
                BinOp::Pow => float_pow(p, q)?,
                BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
                    let o = x.cmp_exact(y);
                    Value::Bool(match op {
                        BinOp::Lt => o.is_some_and(|o| o.is_lt()),
                        BinOp::Le => o.is_some_and(|o| o.is_le()),
                        BinOp::Gt => o.is_some_and(|o| o.is_gt()),
                        _ => o.is_some_and(|o| o.is_ge()),
                    })
                }
                _ => return Err(unsupported()),
            }
        }
    })
}

/// A Python list.
fn is_list(v: &Value) -> bool {
    matches!(v, Value::List(_))
}

/// A list made by a list display (shown as the tensor it would become).
fn is_display(v: &Value) -> bool {
    matches!(v, Value::List(l) if l.is_display())
}

/// `a op= b` where Python changes `a` in place: a list's `+=` (extend by any iterable) and
/// `*=` (repeat), a dict's `|=` (update). None where `a op= b` is `a = a op b`.
pub fn in_place(op: BinOp, a: &Value, b: &Value) -> Option<Result<Value, Exception>> {
    let run = || -> Result<Value, Exception> {
        match (op, a) {
            (BinOp::Add, Value::List(l)) => {
                let more = crate::eval::subscript::iterate(b)?;
                budget::check(
                    "list concatenation",
                    l.len().saturating_add(more.len()) as u128,
                    std::mem::size_of::<Value>(),
                )?;
                l.with_mut(|items| items.extend(more));
            }
            (BinOp::Mul, Value::List(l)) => {
                let Some(Num::I(n)) = num(b) else {
                    return Err(type_error!(
                        "can't multiply sequence by non-int of type '{}'",
                        b.type_name()
                    ));
                };
                let items = l.items();
                let out =
                    budget::repeat("list repetition", &items, usize::try_from(n).unwrap_or(0))?;
                l.set_items(out);
            }
            (BinOp::BitOr, Value::Dict(d)) => {
                let pairs = match b {
                    Value::Dict(o) => o.items(),
                    other => {
                        return Err(type_error!(
                            "unsupported operand type(s) for |=: 'dict' and '{}'",
                            other.type_name()
                        ))
                    }
                };
                for (k, v) in pairs {
                    d.insert(k, v)?;
                }
            }
            _ => unreachable!("checked below"),
        }
        Ok(a.clone())
    };
    match (op, a) {
        (BinOp::Add | BinOp::Mul, Value::List(_)) | (BinOp::BitOr, Value::Dict(_)) => Some(run()),
        (_, Value::Set(s)) if !s.is_frozen() => super::sets::in_place(op, s, b),
        (_, Value::ByteArray(_)) => super::bytes::in_place(op, a, b),
        _ => None,
    }
}

/// Python's ordering of two values (`<` on numbers, strings, lists and tuples, item by
/// item); a TypeError between kinds Python does not order.
pub fn python_cmp(a: &Value, b: &Value) -> Result<std::cmp::Ordering, Exception> {
    use std::cmp::Ordering;
    ragtag_engine::guard::check_stack()?;
    match (a, b) {
        (Value::Str(x), Value::Str(y)) => return Ok(x.cmp(y)),
        (Value::Bytes(_) | Value::ByteArray(_), Value::Bytes(_) | Value::ByteArray(_)) => {
            return Ok(super::bytes::cmp(a, b).unwrap_or(Ordering::Equal))
        }
        (Value::Tuple(_), Value::Tuple(_)) => {}
        _ if is_list(a) && is_list(b) => {}
        (Value::BigInt(_), _) | (_, Value::BigInt(_)) => {
            if let Some(Ok(Value::Bool(lt))) = super::bigint::binary(BinOp::Lt, a, b) {
                let gt = matches!(
                    super::bigint::binary(BinOp::Gt, a, b),
                    Some(Ok(Value::Bool(true)))
                );
                return Ok(if lt {
                    Ordering::Less
                } else if gt {
                    Ordering::Greater
                } else {
                    Ordering::Equal
                });
            }
            return Err(type_error!(
                "'<' not supported between instances of '{}' and '{}'",
                a.type_name(),
                b.type_name()
            ));
        }
        _ => {
            return match (num(a), num(b)) {
                (Some(Num::I(x)), Some(Num::I(y))) => Ok(x.cmp(&y)),
                (Some(x), Some(y)) => Ok(x.cmp_exact(y).unwrap_or(Ordering::Equal)),
                _ => Err(type_error!(
                    "'<' not supported between instances of '{}' and '{}'",
                    a.type_name(),
                    b.type_name()
                )),
            }
        }
    }
    let xs = as_items(a)?;
    let ys = as_items(b)?;
    for (x, y) in xs.iter().zip(ys.iter()) {
        if python_eq(x, y) {
            continue;
        }
        return python_cmp(x, y);
    }
    Ok(xs.len().cmp(&ys.len()))
}

/// The items of a list-like value.
pub fn as_items(v: &Value) -> Result<Vec<Value>, Exception> {
    match v {
        Value::List(l) => Ok(l.items()),
        Value::Tuple(items) => Ok(items.to_vec()),
        other => Err(type_error!(
            "'{}' object is not iterable",
            other.type_name()
        )),
    }
}
