//! What NumPy's functions share: reading an argument as an array (a NumPy array, a dense
//! tensor, a Python number or list), NumPy's `axis` argument with its `AxisError`, and
//! the dtype rules of its sums and means.

use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::convert;
use crate::value::{NdArray, Value};
use ragtag_engine::{Array, DType, Exception, ExceptionClass, Tensor};

/// `v` as NumPy's `np.asarray(v)` reads it: a NumPy array, a dense tensor, a Python number,
/// bool or (nested) list, with NumPy's defaults (int64, float64).
pub(crate) fn tensor_of(v: &Value) -> std::result::Result<Tensor, Exception> {
    match v {
        Value::NdArray(n) => match &**n {
            NdArray::Dense(t) => Ok(t.clone()),
            NdArray::Object(..) => Err(Exception::new(
                ExceptionClass::TypeError,
                "this NumPy function does not take an object array (the rows of a RaggedTensor)",
            )
            .with_hint("compute on the RaggedTensor itself, then call .numpy()")),
        },
        Value::Array(a) => match &**a {
            Array::Dense(t) => Ok(t.clone()),
            Array::Ragged(_) => Err(Exception::new(
                ExceptionClass::ValueError,
                "a RaggedTensor is not a rectangular array",
            )
            .with_hint("use .to_tensor() or .numpy() first")),
        },
        other => crate::eval::operators::numpy_operand(other).map(|(t, _)| t),
    }
}

/// Argument `name` read as [`tensor_of`] does.
pub(crate) fn arg_tensor(a: &Args, name: &str) -> Result<Tensor> {
    tensor_of(a.value(name)).map_err(|e| a.err_at(name, e))
}

/// A dense NumPy array value (a NumPy scalar when 0-d).
pub(crate) fn nd(t: Tensor) -> Value {
    super::numpy::nd(t)
}

/// `t` converted to `d` (the same tensor when it already is).
pub(crate) fn cast(t: &Tensor, d: DType) -> Result<Tensor> {
    if t.dtype() == d {
        return Ok(t.clone());
    }
    Ok(Tensor::from_parts(
        t.shape().to_vec(),
        ragtag_engine::ops::cast::cast_buffer(t.data(), d)?,
    ))
}

/// NumPy's error for `axis` past an array of `ndim` dimensions.
pub(crate) fn axis_error(axis: i64, ndim: usize) -> Exception {
    Exception::new(
        ExceptionClass::AxisError,
        format!("axis {axis} is out of bounds for array of dimension {ndim}"),
    )
}

/// `axis` counted from the front of `ndim` dimensions, or NumPy's AxisError.
pub(crate) fn norm_axis(axis: i64, ndim: usize) -> std::result::Result<usize, Exception> {
    let n = ndim as i64;
    if axis < -n || axis >= n {
        return Err(axis_error(axis, ndim));
    }
    Ok(if axis < 0 { axis + n } else { axis } as usize)
}

/// The `axis` argument (an int or a tuple of ints) counted from the front, sorted and
/// checked: None when it was not given (reduce over everything).
pub(crate) fn axes(a: &Args, ndim: usize) -> Result<Option<Vec<usize>>> {
    let Some(v) = a.get("axis") else {
        return Ok(None);
    };
    let raw = match v {
        Value::Int(i) => vec![*i],
        other => convert::to_ints(other).map_err(|e| a.err_at("axis", e))?,
    };
    let mut out = Vec::new();
    for x in raw {
        let k = norm_axis(x, ndim).map_err(|e| a.err_at("axis", e))?;
        if out.contains(&k) {
            return Err(
                Error::new(ExceptionClass::ValueError, "duplicate value in 'axis'")
                    .at(a.span("axis")),
            );
        }
        out.push(k);
    }
    out.sort_unstable();
    Ok(Some(out))
}

/// The single `axis` argument of a scan or an arg-reduction, counted from the front.
pub(crate) fn one_axis(a: &Args, ndim: usize) -> Result<Option<usize>> {
    match a.opt_int("axis")? {
        None => Ok(None),
        Some(x) => norm_axis(x, ndim)
            .map(Some)
            .map_err(|e| a.err_at("axis", e)),
    }
}

/// The dtype NumPy sums and multiplies `d` in: bools and narrower ints widen to the
/// platform int (int64, or uint64 for unsigned ints); floats keep theirs.
pub(crate) fn sum_dtype(d: DType) -> DType {
    match d {
        DType::Bool => DType::Int64,
        d if d.is_unsigned() => DType::UInt64,
        d if d.is_int() => DType::Int64,
        d => d,
    }
}

/// The dtype of NumPy's mean, var and std of `d`: float64 for ints and bools.
pub(crate) fn mean_dtype(d: DType) -> DType {
    if d.is_float() {
        d
    } else {
        DType::Float64
    }
}

/// The NumPy array `self` of a method as a dense tensor.
pub(crate) fn self_tensor(a: &Args) -> Result<Tensor> {
    arg_tensor(a, "self")
}
