//! Shapes: `tolist`, `TensorShape` methods, the
//! dynamic `tf.shape`, `tf.rank` and `tf.size`, and `tf.reshape`.

use crate::eval::builtins::common::list_str;
use std::sync::Arc;

use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::convert;
use crate::eval::Interp;
use crate::value::Value;
use ragtag_engine::{Array, DType, ExceptionClass, Scalar, Tensor};

fn self_array(a: &Args) -> Result<Arc<Array>> {
    a.array("self", None)
}

pub(super) fn tolist(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let x = self_array(a)?;
    if x.rank() == 0 {
        return Ok(convert::unwrap_scalar(Value::Array(x)));
    }
    Ok(convert::array_to_list(&x))
}

fn shape_dims(a: &Args) -> Vec<Option<usize>> {
    match a.value("self") {
        Value::Shape(s) => s.to_vec(),
        _ => Vec::new(),
    }
}

pub(super) fn shape_as_list(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    Ok(Value::list(
        shape_dims(a)
            .into_iter()
            .map(|d| d.map_or(Value::None, |d| Value::Int(d as i64)))
            .collect(),
    ))
}

pub(super) fn shape_rank(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    Ok(Value::Int(shape_dims(a).len() as i64))
}

/// The `out_type` argument: an integer dtype (`float_ok` also allows floats, as tf.size does).
fn out_type(a: &Args, float_ok: bool) -> Result<DType> {
    match a.dtype("out_type")? {
        None => Ok(DType::Int32),
        Some(d) if d.is_int() || (float_ok && d.is_float()) => Ok(d),
        Some(d) => Err(Error::new(
            ExceptionClass::InvalidArgumentError,
            format!("out_type must be int32 or int64, not {d}"),
        )
        .at(a.span("out_type"))),
    }
}

/// `dims` as a vector of `dtype`.
fn dims_tensor(dims: &[i64], dtype: DType, a: &Args) -> Result<Value> {
    let buf = ragtag_engine::Buffer::I64(dims.to_vec().into());
    let buf =
        ragtag_engine::ops::cast::cast_buffer(&buf, dtype).map_err(|e| a.err_at("out_type", e))?;
    Ok(Value::tensor(Tensor::vector(buf)))
}

/// The dynamic shape of a dense, ragged (bounding shape) or sparse value.
fn dynamic_shape(v: &Value, a: &Args, name: &str) -> Result<Vec<i64>> {
    if let Value::Sparse(sp) = v {
        return Ok(sp.dense_shape().to_vec());
    }
    let x = convert::to_array(v, None).map_err(|e| a.err_at(name, e))?;
    Ok(match &*x {
        Array::Dense(t) => t.shape().iter().map(|&d| d as i64).collect(),
        Array::Ragged(r) => r.bounding_shape().into_iter().map(|d| d as i64).collect(),
    })
}

pub(super) fn tf_shape(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let dtype = out_type(a, false)?;
    let dims = dynamic_shape(a.value("input"), a, "input")?;
    dims_tensor(&dims, dtype, a)
}

pub(super) fn tf_shape_n(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let dtype = out_type(a, false)?;
    let items =
        crate::eval::operators::as_items(a.value("input")).map_err(|e| a.err_at("input", e))?;
    let mut out = Vec::new();
    for v in &items {
        out.push(dims_tensor(&dynamic_shape(v, a, "input")?, dtype, a)?);
    }
    Ok(Value::list(out))
}

pub(super) fn tf_rank(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let rank = match a.value("input") {
        Value::Sparse(sp) => sp.dense_shape().len(),
        _ => a.array("input", None)?.rank(),
    };
    Ok(Value::tensor(Tensor::scalar(Scalar::I32(rank as i32))))
}

pub(super) fn tf_size(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let dtype = out_type(a, true)?;
    let n: i64 = match a.value("input") {
        Value::Sparse(sp) => sp
            .dense_shape()
            .iter()
            .fold(1i64, |p, &d| p.saturating_mul(d)),
        _ => a.array("input", None)?.flat_values().size() as i64,
    };
    let s = ragtag_engine::ops::cast::cast_scalar(&Scalar::I64(n), dtype)
        .map_err(|e| a.err_at("out_type", e))?;
    Ok(Value::tensor(Tensor::scalar(s)))
}

pub(super) fn tf_reshape(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let x = a.array("tensor", None)?;
    // A RaggedTensor reshapes its values in row-major order, as TensorFlow's dispatch does:
    // the result is dense.
    let t = match &*x {
        Array::Dense(t) => t,
        Array::Ragged(r) => r.flat_values(),
    };
    let dims = a.ints("shape")?;
    if let Some(d) = dims.iter().find(|&&d| d < -1) {
        return Err(Error::new(
            ExceptionClass::InvalidArgumentError,
            format!("size {d} in the shape must be non-negative (or -1, to infer it)"),
        )
        .at(a.span("shape")));
    }
    let known_dims: Vec<usize> = dims
        .iter()
        .filter(|&&d| d >= 0)
        .map(|&d| d as usize)
        .collect();
    let known = ragtag_engine::size::numel(&known_dims).map_err(|e| a.err_at("shape", e))?;
    let unknown = dims.iter().filter(|&&d| d < 0).count();
    if unknown > 1 {
        return Err(Error::new(
            ExceptionClass::InvalidArgumentError,
            "only one dimension of the shape can be -1",
        )
        .at(a.span("shape")));
    }
    let shape: Vec<usize> = dims
        .iter()
        .map(|&d| {
            if d < 0 {
                t.size().checked_div(known).unwrap_or(0)
            } else {
                d as usize
            }
        })
        .collect();
    t.reshaped(shape.clone()).map(Value::tensor).map_err(|_| {
        Error::new(
            ExceptionClass::InvalidArgumentError,
            format!(
                "cannot reshape a tensor of {} values (shape {}) into shape {}",
                t.size(),
                list_str(t.shape()),
                list_str(&shape)
            ),
        )
        .at(a.span("shape"))
    })
}
