//! Operators on values: Python semantics between Python scalars, TensorFlow semantics as
//! soon as a tensor is involved. This module dispatches and holds the tensor side; NumPy's
//! and Python's rules are in [`numpy`] and [`python`].

pub mod bigint;
pub mod bytes;
mod collections;
mod num;
mod numpy;
mod python;
mod sets;
mod views;

use std::sync::Arc;

use super::convert;
use crate::value::Value;
pub use numpy::numpy_matmul;
use numpy::{numpy_as, numpy_binary};
pub(crate) use numpy::{numpy_kernel, numpy_operand};
pub use python::{as_items, identical, in_place, python_cmp, python_eq};
use python::{contains, python_binary};
use ragtag_engine::ops::broadcast;
use ragtag_engine::ops::kernels::{self, BinaryOp as K, UnaryOp as U};
use ragtag_engine::ops::matmul::{matmul_arrays, Transpose};
use ragtag_engine::{type_error, value_error};
use ragtag_engine::{Array, Exception, Sparse, Tensor};
use ragtag_syntax::ast::{BinOp, UnaryOp};

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
        BinOp::LShift => K::LeftShift,
        BinOp::RShift => K::RightShift,
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
fn typed_dtype(v: &Value) -> Option<ragtag_engine::DType> {
    match v {
        Value::Array(a) => Some(a.dtype()),
        Value::Sparse(s) => Some(s.dtype()),
        Value::Lod(l) => Some(l.data().dtype()),
        _ => None,
    }
}

/// `a op b`.
pub fn binary(op: BinOp, a: &Value, b: &Value) -> Result<Value, Exception> {
    // Two Python ints (loop counters, indices, sums) are answered before the tensor, view
    // and sequence checks; an overflow past i64 goes on to the big-int path.
    if let (Value::Int(x), Value::Int(y)) = (a, b) {
        if let Some(v) = small_ints(op, *x, *y) {
            return Ok(v);
        }
    }
    match op {
        BinOp::Is => return Ok(Value::Bool(identical(a, b))),
        BinOp::IsNot => return Ok(Value::Bool(!identical(a, b))),
        BinOp::In => return contains(b, a).map(Value::Bool),
        BinOp::NotIn => return contains(b, a).map(|c| Value::Bool(!c)),
        _ => {}
    }
    if let Some(r) = views::binary(op, a, b) {
        return r;
    }
    if op == BinOp::MatMul {
        return matmul_operator(a, b);
    }
    // A Python list becomes a tensor only where a tensor operand receives it.
    if is_tensor(a) || is_tensor(b) {
        return tensor_binary(op, a, b);
    }
    if matches!(a, Value::NdArray(_)) || matches!(b, Value::NdArray(_)) {
        return numpy_binary(op, a, b);
    }
    python_binary(op, a, b)
}

/// `x op y` for two ints when the answer is an int of i64 or a bool: Python's floored `//`
/// and `%` (the sign of the divisor); `None` for a zero divisor, an overflow or another
/// operator, which the general path answers (with its errors).
pub(crate) fn small_ints(op: BinOp, x: i64, y: i64) -> Option<Value> {
    let floored = |x: i64, y: i64| {
        let q = x.checked_div(y)?;
        let r = x.checked_rem(y)?;
        Some(if r != 0 && ((r < 0) != (y < 0)) {
            (q - 1, r + y)
        } else {
            (q, r)
        })
    };
    Some(match op {
        BinOp::Add => Value::Int(x.checked_add(y)?),
        BinOp::Sub => Value::Int(x.checked_sub(y)?),
        BinOp::Mul => Value::Int(x.checked_mul(y)?),
        BinOp::FloorDiv => Value::Int(floored(x, y)?.0),
        BinOp::Mod => Value::Int(floored(x, y)?.1),
        BinOp::Lt => Value::Bool(x < y),
        BinOp::Le => Value::Bool(x <= y),
        BinOp::Gt => Value::Bool(x > y),
        BinOp::Ge => Value::Bool(x >= y),
        BinOp::Eq => Value::Bool(x == y),
        BinOp::Ne => Value::Bool(x != y),
        _ => return None,
    })
}

/// `a @ b`, as Python resolves it: a dense tensor on the left is `tf.linalg.matmul(a, b)`
/// (a ragged `b` takes TensorFlow's ragged dispatch; a list converts to `a`'s dtype); a
/// dense tensor on the right takes the left operand through its reflected `@` (converted to
/// its dtype; a RaggedTensor cannot be). A RaggedTensor has no `@` of its own, so it fails
/// on the left as Python does. NumPy arrays without tensors follow NumPy's `matmul`.
fn matmul_operator(a: &Value, b: &Value) -> Result<Value, Exception> {
    let ragged = |v: &Value| matches!(v, Value::Array(x) if matches!(**x, Array::Ragged(_)));
    let dense = |v: &Value| is_tensor(v) && !ragged(v);
    if dense(a) {
        let x = numpy_as(a, None)?;
        let y = numpy_as(b, if ragged(b) { None } else { Some(x.dtype()) })?;
        return matmul_arrays(&x, &y, Transpose::default()).map(Value::from_array);
    }
    if dense(b) && !ragged(a) {
        let y = numpy_as(b, None)?;
        let x = numpy_as(a, Some(y.dtype()))?;
        return matmul_arrays(&x, &y, Transpose::default()).map(Value::from_array);
    }
    if ragged(a) && dense(b) {
        return Err(value_error!(
            "Attempt to convert a value (a RaggedTensor) with an unsupported type (RaggedTensor) to a Tensor: a RaggedTensor has no @ of its own, and the Tensor's reflected @ converts its left operand"
        )
        .with_hint("call tf.linalg.matmul(a, b), which takes RaggedTensors"));
    }
    if (ragged(a) || ragged(b)) && is_tensor(a) && is_tensor(b) {
        return python_binary(BinOp::MatMul, a, b).map_err(|e| {
            e.with_hint("a RaggedTensor has no @ of its own: call tf.linalg.matmul(a, b)")
        });
    }
    if matches!(a, Value::NdArray(_)) || matches!(b, Value::NdArray(_)) {
        return numpy_matmul(a, b);
    }
    python_binary(BinOp::MatMul, a, b)
}

/// Elementwise tensor arithmetic with broadcasting.
pub fn tensor_binary(op: BinOp, a: &Value, b: &Value) -> Result<Value, Exception> {
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

/// Sparse ⊕ scalar (or dense tensor, broadcast to the dense shape) acts on the stored
/// values only, so it is defined only where implicit zeros stay zeros: `st * x`, `x * st`,
/// `st / x`, `st // x`.
fn sparse_scalar(k: K, s: &Sparse, other: &Value, swapped: bool) -> Result<Value, Exception> {
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
/// `op a`.
pub fn unary(op: UnaryOp, a: &Value) -> Result<Value, Exception> {
    if let Some(r) = collections::unary(op, a) {
        return r;
    }
    match (op, a) {
        (UnaryOp::Pos, Value::Int(_) | Value::Float(_)) => Ok(a.clone()),
        (UnaryOp::Neg, Value::Int(i)) => Ok(i
            .checked_neg()
            .map_or_else(|| bigint::neg(&(*i).into()), Value::Int)),
        (UnaryOp::Pos, Value::BigInt(_)) => Ok(a.clone()),
        (UnaryOp::Neg, Value::BigInt(n)) => Ok(bigint::neg(n)),
        (UnaryOp::Invert, Value::BigInt(n)) => Ok(bigint::invert(n)),
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
pub fn map_unary(k: U, a: &Value) -> Result<Value, Exception> {
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
    f: impl FnOnce(&Tensor) -> Result<Tensor, Exception>,
) -> Result<Array, Exception> {
    match a {
        Array::Dense(t) => f(t).map(Array::Dense),
        Array::Ragged(r) => {
            let fv = f(r.flat_values())?;
            r.with_flat_values(fv).map(Array::Ragged)
        }
    }
}
