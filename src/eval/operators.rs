//! Operators on values: Python semantics between Python scalars, TensorFlow semantics as
//! soon as a tensor is involved.

use std::sync::Arc;

use super::convert;
use crate::engine::ops::broadcast;
use crate::engine::ops::kernels::{self, BinaryOp as K, UnaryOp as U};
use crate::engine::{budget, Array, EngineError, ErrorClass, Sparse, Tensor};
use crate::syntax::ast::{BinOp, UnaryOp};
use crate::value::Value;
use crate::{type_error, value_error};

fn kernel_op(op: BinOp) -> Option<K> {
    Some(match op {
        BinOp::Add => K::Add,
        BinOp::Sub => K::Sub,
        BinOp::Mul => K::Mul,
        BinOp::Div => K::Div,
        BinOp::FloorDiv => K::FloorDiv,
        BinOp::Mod => K::Mod,
        BinOp::Pow => K::Pow,
        BinOp::BitAnd => K::And,
        BinOp::BitOr => K::Or,
        BinOp::BitXor => K::Xor,
        BinOp::Eq => K::Eq,
        BinOp::Ne => K::Ne,
        BinOp::Lt => K::Lt,
        BinOp::Le => K::Le,
        BinOp::Gt => K::Gt,
        BinOp::Ge => K::Ge,
        _ => return None,
    })
}

/// True for values that take part in tensor arithmetic.
fn is_tensor(v: &Value) -> bool {
    matches!(v, Value::Array(_) | Value::Sparse(_) | Value::Lod(_))
}

/// The dtype a tensor operand imposes on the other (Python) operand.
fn typed_dtype(v: &Value) -> Option<crate::engine::DType> {
    match v {
        Value::Array(a) => Some(a.dtype()),
        Value::Sparse(s) => Some(s.dtype()),
        Value::Lod(l) => Some(l.data().dtype()),
        _ => None,
    }
}

/// `a op b`.
pub fn binary(op: BinOp, a: &Value, b: &Value) -> Result<Value, EngineError> {
    match op {
        BinOp::Is => return Ok(Value::Bool(identical(a, b))),
        BinOp::IsNot => return Ok(Value::Bool(!identical(a, b))),
        BinOp::In => return contains(b, a).map(Value::Bool),
        BinOp::NotIn => return contains(b, a).map(|c| Value::Bool(!c)),
        _ => {}
    }
    // A Python list becomes a tensor only where a tensor operand receives it.
    let tensorish = is_tensor(a) || is_tensor(b);
    if tensorish && !matches!(op, BinOp::MatMul) {
        return tensor_binary(op, a, b);
    }
    if matches!(a, Value::NdArray(_)) || matches!(b, Value::NdArray(_)) {
        return numpy_binary(op, a, b);
    }
    python_binary(op, a, b)
}

/// Elementwise tensor arithmetic with broadcasting.
pub fn tensor_binary(op: BinOp, a: &Value, b: &Value) -> Result<Value, EngineError> {
    let k = kernel_op(op).ok_or_else(|| type_error!("operator {op} is not defined for tensors"))?;
    if let Value::Sparse(s) = a {
        return sparse_scalar(k, s, b, false);
    }
    if let Value::Sparse(s) = b {
        return sparse_scalar(k, s, a, true);
    }
    let hint = typed_dtype(a).or_else(|| typed_dtype(b));
    let x = numpy_as(a, hint)?;
    let y = numpy_as(b, Some(x.dtype()))?;
    broadcast::binary(k, &x, &y).map(Value::from_array)
}

/// A tensor operand; a NumPy array beside a tensor takes the tensor's numeric dtype, as
/// TensorFlow converts it (`tf.constant([1]) + np.array([1.5])` is int32).
fn numpy_as(v: &Value, hint: Option<crate::engine::DType>) -> Result<Arc<Array>, EngineError> {
    let x = convert::to_array(v, hint)?;
    match (v, hint, &*x) {
        (Value::NdArray(_), Some(d), Array::Dense(t))
            if d != t.dtype() && d.is_numeric() && t.dtype().is_numeric() =>
        {
            Ok(Arc::new(Array::Dense(Tensor::from_parts(
                t.shape().to_vec(),
                crate::engine::ops::cast::cast_buffer(t.data(), d)?,
            ))))
        }
        _ => Ok(x),
    }
}

/// An operand of NumPy arithmetic: its elements, and whether it is a Python scalar (a
/// "weak" type that takes the array's dtype where it fits, as NumPy 2 does).
fn numpy_operand(v: &Value) -> Result<(Tensor, bool), EngineError> {
    use crate::engine::Scalar;
    Ok(match v {
        Value::NdArray(n) => match &**n {
            crate::value::NdArray::Dense(t) => (t.clone(), false),
            crate::value::NdArray::Object(..) => {
                return Err(type_error!(
                    "arithmetic on an object array (the rows of a RaggedTensor) is not supported"
                )
                .with_hint("compute on the RaggedTensor itself, then call .numpy()"))
            }
        },
        Value::Bool(x) => (Tensor::scalar(Scalar::Bool(*x)), true),
        Value::Int(x) => (Tensor::scalar(Scalar::I64(*x)), true),
        Value::Float(x) => (Tensor::scalar(Scalar::F64(*x)), true),
        Value::List(_) | Value::Literal(_) | Value::Tuple(_) => {
            let n = convert::to_nested(v)?;
            (
                crate::engine::literal::constant(&n, None, crate::engine::literal::Flavor::NumPy)?,
                false,
            )
        }
        other => {
            return Err(type_error!(
                "unsupported operand type for a NumPy array: '{}'",
                other.type_name()
            ))
        }
    })
}

/// NumPy's result dtype for two operands (NEP 50: a Python scalar adapts to the array).
fn numpy_result_dtype(
    a: crate::engine::DType,
    weak_a: bool,
    b: crate::engine::DType,
    weak_b: bool,
) -> Result<crate::engine::DType, EngineError> {
    use crate::engine::DType as D;
    if a == D::String || b == D::String {
        return Err(type_error!(
            "NumPy arithmetic needs numbers, not strings (dtypes {a} and {b})"
        ));
    }
    let rank = |d: D| match d {
        D::Bool => 0,
        _ if d.is_int() => 1,
        _ => 2,
    };
    if weak_a != weak_b {
        let (strong, weak) = if weak_a { (b, a) } else { (a, b) };
        return Ok(if rank(weak) <= rank(strong) {
            strong
        } else if weak == D::Float64 {
            D::Float64
        } else {
            D::Int64
        });
    }
    if a == b {
        return Ok(a);
    }
    Ok(match (rank(a), rank(b)) {
        (0, _) => b,
        (_, 0) => a,
        (1, 1) | (2, 2) => {
            if a.item_bytes() >= b.item_bytes() {
                a
            } else {
                b
            }
        }
        // An int with a float: float64 (int32 with float32 too, as NumPy does).
        _ => D::Float64,
    })
}

/// Elementwise NumPy arithmetic with NumPy's dtype rules; the result is a NumPy array.
fn numpy_binary(op: BinOp, a: &Value, b: &Value) -> Result<Value, EngineError> {
    use crate::engine::DType as D;
    let k = kernel_op(op)
        .ok_or_else(|| type_error!("operator {op} is not defined for NumPy arrays"))?;
    let (x, wx) = numpy_operand(a)?;
    let (y, wy) = numpy_operand(b)?;
    let mut d = numpy_result_dtype(x.dtype(), wx, y.dtype(), wy)?;
    if matches!(op, BinOp::Div) && !d.is_float() {
        d = D::Float64;
    }
    let cast = |t: Tensor| -> Result<Array, EngineError> {
        if t.dtype() == d {
            return Ok(Array::Dense(t));
        }
        Ok(Array::Dense(Tensor::from_parts(
            t.shape().to_vec(),
            crate::engine::ops::cast::cast_buffer(t.data(), d)?,
        )))
    };
    // NumPy reports shapes that do not broadcast as a ValueError.
    let out = broadcast::binary(k, &cast(x)?, &cast(y)?).map_err(|mut e| {
        if e.class == ErrorClass::InvalidArgumentError {
            e.class = ErrorClass::ValueError;
        }
        e
    })?;
    match out {
        Array::Dense(t) => Ok(Value::NdArray(Arc::new(crate::value::NdArray::Dense(t)))),
        Array::Ragged(_) => Err(type_error!("a NumPy array has no ragged dimensions")),
    }
}

/// Sparse ⊕ scalar (or dense tensor, broadcast to the dense shape) acts on the stored
/// values only, so it is defined only where implicit zeros stay zeros: `st * x`, `x * st`,
/// `st / x`, `st // x`.
fn sparse_scalar(k: K, s: &Sparse, other: &Value, swapped: bool) -> Result<Value, EngineError> {
    let y = convert::to_array(other, Some(s.dtype()))?;
    let Array::Dense(yt) = &*y else {
        return Err(
            type_error!("a SparseTensor combines only with a scalar or a dense tensor")
                .with_hint("convert the ragged side with rt.to_sparse(), or both with to_dense(x)"),
        );
    };
    let keeps_zeros = matches!(k, K::Mul) || (!swapped && matches!(k, K::Div | K::FloorDiv));
    if !keeps_zeros {
        return Err(type_error!(
            "only st * x, x * st, st / x and st // x apply to a SparseTensor: they keep its implicit zeros zero"
        )
        .with_hint("use tf.sparse.add to add, or tf.sparse.to_dense(st) to compute densely"));
    }
    let vals = s.values().data();
    let n = vals.len();
    let other_vals = s.dense_at_indices(yt)?;
    let out = if swapped {
        kernels::binary(k, &other_vals, vals, n)?
    } else {
        kernels::binary(k, vals, &other_vals, n)?
    };
    let values = Tensor::vector(out);
    Ok(Value::Sparse(Arc::new(Sparse::new(
        s.indices().to_vec(),
        values,
        s.dense_shape().to_vec(),
    )?)))
}

fn identical(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::None, Value::None) => true,
        (Value::Bool(x), Value::Bool(y)) => x == y,
        (Value::Array(x), Value::Array(y)) => Arc::ptr_eq(x, y),
        (Value::DType(x), Value::DType(y)) => x == y,
        _ => false,
    }
}

fn contains(container: &Value, item: &Value) -> Result<bool, EngineError> {
    match container {
        Value::List(items) | Value::Tuple(items) => {
            for x in items.iter() {
                if python_eq(x, item) {
                    return Ok(true);
                }
            }
            Ok(false)
        }
        Value::Dict(items) => Ok(items.iter().any(|(k, _)| python_eq(k, item))),
        Value::Str(s) => match item {
            Value::Str(t) => Ok(s.contains(&**t)),
            _ => Err(type_error!("'in <string>' requires a string on the left")),
        },
        Value::Literal(_) => {
            for x in as_items(container)? {
                if python_eq(&x, item) {
                    return Ok(true);
                }
            }
            Ok(false)
        }
        other => Err(type_error!(
            "argument of type '{}' is not iterable",
            other.type_name()
        )),
    }
}

/// Python `==` between non-tensor values.
pub fn python_eq(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::None, Value::None) => true,
        (Value::Str(x), Value::Str(y)) => x == y,
        (Value::List(x), Value::List(y)) | (Value::Tuple(x), Value::Tuple(y)) => {
            x.len() == y.len() && x.iter().zip(y.iter()).all(|(p, q)| python_eq(p, q))
        }
        (Value::Literal(x), Value::Literal(y)) => x == y,
        (Value::Literal(_), Value::List(_)) | (Value::List(_), Value::Literal(_)) => {
            match (as_items(a), as_items(b)) {
                (Ok(x), Ok(y)) => python_eq(&Value::list(x), &Value::list(y)),
                _ => false,
            }
        }
        (Value::DType(x), Value::DType(y)) => x == y,
        (Value::Shape(x), Value::Shape(y)) => x == y,
        _ => match (num(a), num(b)) {
            (Some(x), Some(y)) => x == y,
            _ => false,
        },
    }
}

#[derive(Clone, Copy)]
enum Num {
    I(i64),
    F(f64),
}

fn num(v: &Value) -> Option<Num> {
    match v {
        Value::Bool(b) => Some(Num::I(*b as i64)),
        Value::Int(i) => Some(Num::I(*i)),
        Value::Float(f) => Some(Num::F(*f)),
        _ => None,
    }
}

impl PartialEq for Num {
    fn eq(&self, other: &Self) -> bool {
        match (*self, *other) {
            (Num::I(a), Num::I(b)) => a == b,
            (a, b) => a.f() == b.f(),
        }
    }
}

impl Num {
    fn f(self) -> f64 {
        match self {
            Num::I(i) => i as f64,
            Num::F(f) => f,
        }
    }
}

fn python_binary(op: BinOp, a: &Value, b: &Value) -> Result<Value, EngineError> {
    let unsupported = || {
        type_error!(
            "unsupported operand type(s) for {op}: '{}' and '{}'",
            a.type_name(),
            b.type_name()
        )
    };
    match op {
        BinOp::Eq => return Ok(Value::Bool(python_eq(a, b))),
        BinOp::Ne => return Ok(Value::Bool(!python_eq(a, b))),
        _ => {}
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
        (BinOp::Mod, Value::Str(x), _) => {
            return super::builtins::percent_format(x, b);
        }
        (BinOp::Add, _, _) if is_list(a) || is_list(b) => {
            if !(is_list(a) && is_list(b)) {
                let other = if is_list(a) { b } else { a };
                return Err(type_error!(
                    "can only concatenate list (not \"{}\") to list",
                    other.type_name()
                ));
            }
            let xs = as_items(a)?;
            let ys = as_items(b)?;
            let mut out = budget::vec("list concatenation", xs.len().saturating_add(ys.len()))?;
            out.extend(xs);
            out.extend(ys);
            let display = matches!((a, b), (Value::Literal(_), Value::Literal(_)));
            return Ok(crate::value::relist(out, display));
        }
        (BinOp::Add, Value::Tuple(x), Value::Tuple(y)) => {
            return Ok(Value::tuple(x.iter().chain(y.iter()).cloned().collect()))
        }
        (BinOp::Mul, x, Value::Int(n)) | (BinOp::Mul, Value::Int(n), x) if is_list(x) => {
            let n = usize::try_from(*n).unwrap_or(0);
            let items = as_items(x)?;
            let out = budget::repeat("list repetition", &items, n)?;
            return Ok(crate::value::relist(out, matches!(x, Value::Literal(_))));
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
    let (Some(x), Some(y)) = (num(a), num(b)) else {
        return Err(unsupported());
    };
    let both_bool = matches!((a, b), (Value::Bool(_), Value::Bool(_)));
    Ok(match (x, y) {
        (Num::I(p), Num::I(q)) => match op {
            BinOp::Add => Value::Int(p.checked_add(q).ok_or_else(overflow)?),
            BinOp::Sub => Value::Int(p.checked_sub(q).ok_or_else(overflow)?),
            BinOp::Mul => Value::Int(p.checked_mul(q).ok_or_else(overflow)?),
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
                let d = p.checked_div(q).ok_or_else(overflow)?;
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
                    Value::Int(p.checked_pow(e).ok_or_else(overflow)?)
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
                BinOp::Pow => Value::Float(p.powf(q)),
                BinOp::Lt => Value::Bool(p < q),
                BinOp::Le => Value::Bool(p <= q),
                BinOp::Gt => Value::Bool(p > q),
                BinOp::Ge => Value::Bool(p >= q),
                _ => return Err(unsupported()),
            }
        }
    })
}

/// A Python list (a display of literals or of any values).
fn is_list(v: &Value) -> bool {
    matches!(v, Value::List(_) | Value::Literal(_))
}

/// Python's ordering of two values (`<` on numbers, strings, lists and tuples, item by
/// item); a TypeError between kinds Python does not order.
pub fn python_cmp(a: &Value, b: &Value) -> Result<std::cmp::Ordering, EngineError> {
    use std::cmp::Ordering;
    crate::guard::check_stack()?;
    match (a, b) {
        (Value::Str(x), Value::Str(y)) => return Ok(x.cmp(y)),
        (Value::Tuple(_), Value::Tuple(_)) => {}
        _ if is_list(a) && is_list(b) => {}
        _ => {
            return match (num(a), num(b)) {
                (Some(Num::I(x)), Some(Num::I(y))) => Ok(x.cmp(&y)),
                (Some(x), Some(y)) => Ok(x.f().partial_cmp(&y.f()).unwrap_or(Ordering::Equal)),
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

fn zero_div(msg: &str) -> EngineError {
    EngineError::new(ErrorClass::ZeroDivisionError, msg)
}

/// A Python int result past 64 bits: Python would grow the int, ragtag cannot.
fn overflow() -> EngineError {
    EngineError::new(
        ErrorClass::OverflowError,
        "integer result does not fit in 64 bits",
    )
    .with_hint("ragtag's Python ints are int64; use a float (e.g. 10.0**100) for larger numbers")
}

/// The items of a list-like value.
pub fn as_items(v: &Value) -> Result<Vec<Value>, EngineError> {
    match v {
        Value::List(items) | Value::Tuple(items) => Ok(items.to_vec()),
        Value::Literal(n) => match &**n {
            crate::engine::literal::Nested::List(items) => {
                Ok(items.iter().map(crate::value::literal_item).collect())
            }
            _ => Err(value_error!("not a list")),
        },
        other => Err(type_error!(
            "'{}' object is not iterable",
            other.type_name()
        )),
    }
}

/// `op a`.
pub fn unary(op: UnaryOp, a: &Value) -> Result<Value, EngineError> {
    match (op, a) {
        (UnaryOp::Pos, Value::Int(_) | Value::Float(_)) => Ok(a.clone()),
        (UnaryOp::Neg, Value::Int(i)) => Ok(Value::Int(i.checked_neg().ok_or_else(overflow)?)),
        (UnaryOp::Neg, Value::Float(f)) => Ok(Value::Float(-f)),
        (UnaryOp::Neg, Value::Bool(b)) => Ok(Value::Int(-(*b as i64))),
        (UnaryOp::Invert, Value::Int(i)) => Ok(Value::Int(!i)),
        (UnaryOp::Invert, Value::Bool(b)) => Ok(Value::Int(!(*b as i64))),
        (_, Value::NdArray(n)) => {
            let crate::value::NdArray::Dense(t) = &**n else {
                return Err(type_error!(
                    "bad operand type for unary {}: an object array",
                    op.symbol()
                ));
            };
            if op == UnaryOp::Pos {
                return Ok(a.clone());
            }
            let k = if op == UnaryOp::Neg {
                U::Neg
            } else {
                U::LogicalNot
            };
            let out = Tensor::from_parts(t.shape().to_vec(), kernels::unary(k, t.data())?);
            Ok(Value::NdArray(Arc::new(crate::value::NdArray::Dense(out))))
        }
        (_, v) if is_tensor(v) && op != UnaryOp::Pos => {
            let k = if op == UnaryOp::Neg {
                U::Neg
            } else {
                U::LogicalNot
            };
            map_unary(k, a)
        }
        _ => Err(type_error!(
            "bad operand type for unary {}: '{}'",
            op.symbol(),
            a.type_name()
        )),
    }
}

/// Applies an elementwise unary kernel to a tensor of any kind (structure unchanged).
pub fn map_unary(k: U, a: &Value) -> Result<Value, EngineError> {
    if let Value::Sparse(s) = a {
        let values = Tensor::vector(kernels::unary(k, s.values().data())?);
        return Ok(Value::Sparse(Arc::new(Sparse::new(
            s.indices().to_vec(),
            values,
            s.dense_shape().to_vec(),
        )?)));
    }
    let x = convert::to_array(a, None)?;
    map_flat(&x, |t| {
        Ok(Tensor::from_parts(
            t.shape().to_vec(),
            kernels::unary(k, t.data())?,
        ))
    })
    .map(Value::from_array)
}

/// Applies `f` to the flat values of a dense or ragged tensor, keeping its partitions.
pub fn map_flat(
    a: &Array,
    f: impl FnOnce(&Tensor) -> Result<Tensor, EngineError>,
) -> Result<Array, EngineError> {
    match a {
        Array::Dense(t) => f(t).map(Array::Dense),
        Array::Ragged(r) => {
            let fv = f(r.flat_values())?;
            r.with_flat_values(fv).map(Array::Ragged)
        }
    }
}
