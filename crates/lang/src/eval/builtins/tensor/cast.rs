//! Making a dense tensor from a value and changing its dtype: `tf.constant`,
//! `tf.convert_to_tensor`, `tf.cast` and NumPy's `astype`.

use std::sync::Arc;

use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::convert;
use crate::eval::Interp;
use crate::value::Value;
use ragtag_engine::literal::{self, Flavor};
use ragtag_engine::{Array, ExceptionClass, Tensor};

pub(super) fn constant(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let dtype = a.dtype("dtype")?;
    let v = a.value("value");
    let t = match v {
        Value::Array(arr) => match &**arr {
            Array::Dense(t) => match dtype {
                Some(d) if d != t.dtype() => {
                    return crate::eval::builtins::cast_array(arr, d)
                        .map(Value::from_array)
                        .map_err(|e| a.err_at("value", e))
                }
                _ => t.clone(),
            },
            Array::Ragged(_) => {
                return Err(Error::new(
                    ExceptionClass::ValueError,
                    "tf.constant cannot hold a ragged tensor: its rows have different lengths",
                )
                .at(a.span("value"))
                .with_hint("use rt.to_tensor() to pad it into a dense tensor"))
            }
        },
        _ => {
            let n = convert::to_nested(v).map_err(|e| a.err_at("value", e))?;
            literal::constant(&n, dtype, Flavor::TensorFlow).map_err(|e| a.err_at("value", e))?
        }
    };
    let t = match a.get("shape") {
        None => t,
        Some(_) => {
            let shape = ragtag_engine::size::dims("dimensions", &a.ints("shape")?)
                .map_err(|e| a.err_at("shape", e))?;
            if t.size() == 1 {
                Tensor::filled("tf.constant", shape, &t.data().get(0))
                    .map_err(|e| a.err_at("shape", e))?
            } else {
                t.reshaped(shape).map_err(|e| a.err_at("shape", e))?
            }
        }
    };
    Ok(Value::tensor(t))
}

pub(super) fn astype(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let d = a
        .dtype("dtype")?
        .ok_or_else(|| Error::new(ExceptionClass::TypeError, "astype needs a dtype").at(a.call))?;
    let x = a.array("self", None)?;
    crate::eval::builtins::cast_array(&x, d)
        .map(Value::from_array)
        .map_err(|e| a.err_at("dtype", e))
}

pub(super) fn cast(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let d = a
        .dtype("dtype")?
        .ok_or_else(|| Error::new(ExceptionClass::TypeError, "tf.cast needs a dtype").at(a.call))?;
    if let Value::Sparse(s) = a.value("x") {
        let values = Tensor::vector(
            ragtag_engine::ops::cast::cast_buffer(s.values().data(), d)
                .map_err(|e| a.err_at("x", e))?,
        );
        return Ok(Value::Sparse(Arc::new(
            ragtag_engine::Sparse::new(s.indices().to_vec(), values, s.dense_shape().to_vec())
                .map_err(|e| a.err_at("x", e))?,
        )));
    }
    let x = a.array("x", None)?;
    crate::eval::builtins::cast_array(&x, d)
        .map(Value::from_array)
        .map_err(|e| a.err_at("x", e))
}

pub(super) fn convert_to_tensor(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let d = a.dtype("dtype")?;
    let x = a.array("value", d)?;
    match d {
        Some(d) if d != x.dtype() => crate::eval::builtins::cast_array(&x, d)
            .map(Value::from_array)
            .map_err(|e| a.err_at("value", e)),
        _ => Ok(Value::Array(x)),
    }
}
