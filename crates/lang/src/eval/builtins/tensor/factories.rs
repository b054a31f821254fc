//! Tensors made from sizes and fill values: `tf.zeros`/`tf.ones` (and their `_like`
//! forms), `tf.fill`, `tf.range` and `tf.one_hot`.

use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::convert;
use crate::eval::Interp;
use crate::value::Value;
use ragtag_engine::{Array, DType, ExceptionClass, Scalar, Tensor};

pub(super) fn one_hot(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let indices = a.array("indices", None)?;
    let depth = a.int("depth")?;
    let axis = a.opt_int("axis")?.unwrap_or(-1);
    let given = |name: &str| a.get(name).filter(|v| !matches!(v, Value::None));
    let dtype_of = |name: &str| -> Result<Option<DType>> {
        given(name)
            .map(|v| convert::to_array(v, None).map(|x| x.dtype()))
            .transpose()
            .map_err(|e| a.err_at(name, e))
    };
    let (on_dt, off_dt) = (dtype_of("on_value")?, dtype_of("off_value")?);
    if let (Some(x), Some(y)) = (on_dt, off_dt) {
        if x != y {
            return Err(Error::new(
                ExceptionClass::TypeError,
                format!("on_value ({x}) and off_value ({y}) must have the same dtype"),
            )
            .at(a.span("off_value")));
        }
    }
    let dtype = a
        .dtype("dtype")?
        .or(on_dt)
        .or(off_dt)
        .unwrap_or(DType::Float32);
    let value = |name: &str, default: i64| -> Result<Scalar> {
        match given(name) {
            Some(v) => convert::to_scalar(v, Some(dtype)).map_err(|e| a.err_at(name, e)),
            None => ragtag_engine::ops::cast::cast_scalar(&Scalar::I64(default), dtype)
                .map_err(|e| a.err_at("dtype", e)),
        }
    };
    let (on, off) = (value("on_value", 1)?, value("off_value", 0)?);
    ragtag_engine::ops::one_hot::one_hot(&indices, depth, &on, &off, axis)
        .map(Value::from_array)
        .map_err(|e| {
            let at = if e.message.contains("axis") {
                "axis"
            } else if e.message.contains("depth") {
                "depth"
            } else {
                "indices"
            };
            a.err_at(at, e)
        })
}

/// `tf.ones_like` (`one` = 1) and `tf.zeros_like` (`one` = 0).
pub(super) fn like(a: &Args, one: i64) -> Result<Value> {
    if matches!(a.value("input"), Value::Sparse(_)) {
        return Err(Error::new(
            ExceptionClass::ValueError,
            format!("{} does not take a SparseTensor", a.builtin().name),
        )
        .at(a.span("input"))
        .with_hint("for the values: tf.sparse.map_values(tf.ones_like, sp)"));
    }
    let x = a.array("input", None)?;
    let dtype = a.dtype("dtype")?.unwrap_or(x.dtype());
    let fv = x.flat_values();
    let value = if dtype == DType::String {
        if one == 1 {
            return Err(Error::new(
                ExceptionClass::InvalidArgumentError,
                "tf.ones_like is not defined for string tensors",
            )
            .at(a.span("input")));
        }
        Scalar::Str(Vec::new())
    } else {
        ragtag_engine::ops::cast::cast_scalar(&Scalar::I64(one), dtype)
            .map_err(|e| a.err_at("dtype", e))?
    };
    let t = Tensor::filled(a.builtin().name, fv.shape().to_vec(), &value)
        .map_err(|e| a.err_at("input", e))?;
    let out = match &*x {
        Array::Dense(_) => Array::Dense(t),
        Array::Ragged(r) => Array::Ragged(r.with_flat_values(t).map_err(|e| a.err_at("input", e))?),
    };
    Ok(Value::from_array(out))
}

/// TensorFlow's dtype order for tf.range's inferred dtype (the widest argument wins).
const RANGE_DTYPES: [DType; 4] = [DType::Int32, DType::Int64, DType::Float32, DType::Float64];

pub(super) fn tf_range(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let names = ["start", "limit", "delta"];
    let given = |n: &str| a.get(n).filter(|v| !matches!(v, Value::None));
    let arg_dtype = |n: &str| -> Result<Option<DType>> {
        Ok(match given(n) {
            None => None,
            Some(Value::Int(i)) => Some(if i32::try_from(*i).is_ok() {
                DType::Int32
            } else {
                DType::Int64
            }),
            Some(Value::Float(_)) => Some(DType::Float32),
            Some(_) => Some(a.array(n, None)?.dtype()),
        })
    };
    let mut inferred = DType::Int32;
    for n in names {
        if let Some(d) = arg_dtype(n)? {
            if !RANGE_DTYPES.contains(&d) {
                return Err(Error::new(
                    ExceptionClass::TypeError,
                    format!("tf.range needs numbers, but {n} is {d}"),
                )
                .at(a.span(n)));
            }
            let pos = |d: DType| RANGE_DTYPES.iter().position(|&x| x == d);
            if pos(d) > pos(inferred) {
                inferred = d;
            }
        }
    }
    let dtype = a.dtype("dtype")?.unwrap_or(inferred);
    if !dtype.is_numeric() {
        return Err(Error::new(
            ExceptionClass::TypeError,
            format!("tf.range cannot make {dtype} values"),
        )
        .at(a.span("dtype")));
    }
    // TensorFlow's CPU kernels of Range: the other ints are in the op's signature but have
    // no kernel, which TensorFlow reports as a NotFoundError.
    if !(RANGE_DTYPES.contains(&dtype) || matches!(dtype, DType::Float16 | DType::BFloat16)) {
        return Err(Error::new(
            ExceptionClass::NotFoundError,
            format!("tf.range has no kernel for {dtype}: TensorFlow computes ranges of int32, int64, float16, bfloat16, float32 and float64"),
        )
        .with_hint(format!("make an int32 or int64 range and cast it: tf.cast(tf.range(n), tf.{dtype})"))
        .at(a.span("dtype")));
    }
    // With one argument it is the limit and the range starts at 0.
    let one_arg = given("limit").is_none();
    if dtype.is_int() {
        let int = |n: &str, default: i64| -> Result<i64> {
            match given(n) {
                None => Ok(default),
                Some(Value::Int(i)) => Ok(*i),
                Some(v) => {
                    let t = convert::to_scalar(v, None).map_err(|e| a.err_at(n, e))?;
                    match ragtag_engine::ops::cast::cast_scalar(&t, DType::Int64) {
                        Ok(Scalar::I64(i)) => Ok(i),
                        Ok(_) => unreachable!("cast to int64"),
                        Err(e) => Err(a.err_at(n, e)),
                    }
                }
            }
        };
        let start = if one_arg { 0 } else { int("start", 0)? };
        let limit = int(if one_arg { "start" } else { "limit" }, 0)?;
        let delta = int("delta", 1)?;
        check_range_signs(a, start as f64, limit as f64, delta as f64, delta == 0)?;
        let span = (i128::from(limit) - i128::from(start)).unsigned_abs();
        let step = i128::from(delta).unsigned_abs();
        let count = span.div_ceil(step);
        // int64 values are the result; int32 ones are cast from them (both live at once).
        let extra = if dtype == DType::Int64 {
            0
        } else {
            dtype.item_bytes()
        };
        ragtag_engine::budget::check("tf.range", count, 8 + extra)
            .map_err(|e| Error::from(e).at(a.call))?;
        let n = count as usize;
        let mut values: Vec<i64> =
            ragtag_engine::budget::vec("tf.range", n).map_err(|e| Error::from(e).at(a.call))?;
        ragtag_engine::interrupt::for_chunks(n, |chunk| {
            values.extend(chunk.map(|i| start.wrapping_add((i as i64).wrapping_mul(delta))))
        })
        .map_err(|e| Error::from(e).at(a.call))?;
        let buf = ragtag_engine::Buffer::I64(values.into());
        let buf = if dtype == DType::Int64 {
            buf
        } else {
            ragtag_engine::ops::cast::cast_buffer(&buf, dtype).map_err(|e| a.err_at("dtype", e))?
        };
        return Ok(Value::tensor(Tensor::vector(buf)));
    }
    let num = |n: &str| -> Result<Option<f64>> {
        given(n)
            .map(|v| convert::to_f64(v).map_err(|e| a.err_at(n, e)))
            .transpose()
    };
    let first = num("start")?.unwrap_or(0.0);
    let (start, limit) = match num("limit")? {
        Some(l) => (first, l),
        None => (0.0, first),
    };
    let delta = num("delta")?.unwrap_or(1.0);
    check_range_signs(a, start, limit, delta, delta == 0.0)?;
    let count = ((limit - start) / delta).abs().ceil();
    if !count.is_finite() {
        return Err(Error::new(
            ExceptionClass::InvalidArgumentError,
            "tf.range needs finite start, limit and delta",
        )
        .at(a.call));
    }
    // Values are computed in float64, then cast: both buffers live at once.
    ragtag_engine::budget::check("tf.range", count as u128, 8 + dtype.item_bytes())
        .map_err(|e| Error::from(e).at(a.call))?;
    let n = count as usize;
    let mut values: Vec<f64> =
        ragtag_engine::budget::vec("tf.range", n).map_err(|e| Error::from(e).at(a.call))?;
    ragtag_engine::interrupt::for_chunks(n, |chunk| {
        values.extend(chunk.map(|i| start + i as f64 * delta))
    })
    .map_err(|e| Error::from(e).at(a.call))?;
    let buf = ragtag_engine::Buffer::F64(values.into());
    let buf =
        ragtag_engine::ops::cast::cast_buffer(&buf, dtype).map_err(|e| a.err_at("dtype", e))?;
    Ok(Value::tensor(Tensor::vector(buf)))
}

/// TensorFlow's checks: a nonzero delta that points from start toward limit.
fn check_range_signs(a: &Args, start: f64, limit: f64, delta: f64, zero: bool) -> Result<()> {
    if zero {
        return Err(Error::new(
            ExceptionClass::InvalidArgumentError,
            "tf.range needs a nonzero delta",
        )
        .at(a.span("delta")));
    }
    if (delta > 0.0 && start > limit) || (delta < 0.0 && start < limit) {
        let need = if delta > 0.0 {
            "start <= limit"
        } else {
            "start >= limit"
        };
        return Err(Error::new(
            ExceptionClass::InvalidArgumentError,
            format!("tf.range requires {need} when delta is {delta}"),
        )
        .at(a.call)
        .with_hint("flip the sign of delta, or swap start and limit"));
    }
    Ok(())
}

/// Non-negative dimensions whose element count fits in int64 (InvalidArgumentError).
fn dims_arg(a: &Args, name: &str) -> Result<Vec<usize>> {
    ragtag_engine::size::dims("dimensions", &a.ints(name)?).map_err(|e| a.err_at(name, e))
}

pub(super) fn tf_fill(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let dims = dims_arg(a, "dims")?;
    let value = convert::to_scalar(a.value("value"), None).map_err(|e| a.err_at("value", e))?;
    Tensor::filled("tf.fill", dims, &value)
        .map(Value::tensor)
        .map_err(|e| a.err_at("dims", e))
}

pub(super) fn filled(a: &Args, one: i64) -> Result<Value> {
    let dims = dims_arg(a, "shape")?;
    let dtype = a.dtype("dtype")?.unwrap_or(DType::Float32);
    // Zeros are each dtype's default (`''` for strings, as in TensorFlow); a string one is a
    // TypeError there and here.
    let s = if one == 0 {
        Scalar::default_of(dtype)
    } else {
        ragtag_engine::ops::cast::cast_scalar(&Scalar::I64(one), dtype)
            .map_err(|e| a.err_at("dtype", e))?
    };
    Tensor::filled(a.builtin().name, dims, &s)
        .map(Value::tensor)
        .map_err(|e| a.err_at("shape", e))
}
