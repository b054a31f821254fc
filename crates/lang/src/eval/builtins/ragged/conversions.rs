//! Conversions of a ragged tensor: to lists, to a padded dense tensor, to new values,
//! flat values or row-splits dtype, and merging dimensions.

use super::{me, ragged_self, splits_dtype_arg};
use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::builtins::common::{axis_arg, list_str};
use crate::eval::convert;
use crate::eval::Interp;
use crate::value::Value;
use ragtag_engine::{Array, ExceptionClass, Scalar, Tensor};

pub(super) fn to_list(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    Ok(convert::array_to_list(&*me(a)?))
}

pub(super) fn to_tensor(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let x = me(a)?;
    let r = match &*x {
        Array::Dense(_) => return Ok(Value::Array(x)),
        Array::Ragged(r) => r,
    };
    let default_arr = match a.get("default_value") {
        None => None,
        Some(_) => Some(a.array("default_value", Some(r.dtype()))?),
    };
    let default = match &default_arr {
        Some(d) if d.rank() > 0 => None,
        Some(_) => Some(
            convert::to_scalar(a.value("default_value"), Some(r.dtype()))
                .map_err(|e| a.err_at("default_value", e))?,
        ),
        None => Some(Scalar::default_of(r.dtype())),
    };
    let shape: Option<Vec<Option<usize>>> = match a.get("shape") {
        None => None,
        Some(v) => Some(
            crate::eval::subscript::iterate(v)
                .map_err(|e| a.err_at("shape", e))?
                .iter()
                // -1 (or None) keeps the natural size of that dimension, as TensorFlow's
                // RaggedTensorToTensor kernel does; anything below -1 is an error.
                .map(|d| match d {
                    Value::None => Ok(None),
                    d => match convert::to_int(d)? {
                        -1 => Ok(None),
                        i => usize::try_from(i).map(Some).map_err(|_| {
                            ragtag_engine::invalid_arg!(
                                "shape dimensions must be -1 (the natural size) or non-negative, not {i}"
                            )
                        }),
                    },
                })
                .collect::<Result<_, _>>()
                .map_err(|e| a.err_at("shape", e))?,
        ),
    };
    let Some(default) = default else {
        // A default with inner dimensions fills whole padded elements: pad a mask of the
        // real elements alongside, then choose between the values and the broadcast default.
        let d = default_arr.expect("given");
        let inner = &r.flat_values().shape()[1..];
        let dshape: Vec<usize> = match &*d {
            Array::Dense(t) => t.shape().to_vec(),
            Array::Ragged(_) => {
                return Err(
                    Error::new(ExceptionClass::TypeError, "default_value must be dense")
                        .at(a.span("default_value")),
                )
            }
        };
        let fits = dshape.len() <= inner.len()
            && dshape
                .iter()
                .rev()
                .zip(inner.iter().rev())
                .all(|(&x, &y)| x == 1 || x == y);
        if !fits {
            return Err(Error::new(
                ExceptionClass::InvalidArgumentError,
                format!(
                    "default_value has shape {}, which does not broadcast to the inner shape {}",
                    list_str(&dshape),
                    list_str(inner)
                ),
            )
            .at(a.span("default_value")));
        }
        let at = |e| Error::from(e).at(a.call);
        let zero = Scalar::default_of(r.dtype());
        let values = r.to_tensor(&zero, shape.as_deref()).map_err(at)?;
        let ones = Tensor::filled(
            "to_tensor",
            r.flat_values().shape().to_vec(),
            &Scalar::Bool(true),
        )
        .map_err(at)?;
        let mask = r
            .with_flat_values(ones)
            .map_err(at)?
            .to_tensor(&Scalar::Bool(false), shape.as_deref())
            .map_err(at)?;
        return ragtag_engine::ops::mask::where_select(
            &Array::Dense(mask),
            &Array::Dense(values),
            &d,
        )
        .map(Value::from_array)
        .map_err(at);
    };
    r.to_tensor(&default, shape.as_deref())
        .map(Value::tensor)
        .map_err(|e| Error::from(e).at(a.call))
}

pub(super) fn with_row_splits_dtype(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let r = ragged_self(a)?;
    let d = splits_dtype_arg(a, "dtype")?;
    Ok(Value::ragged(r.with_row_splits_dtype(d)))
}

pub(super) fn with_values(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let r = ragged_self(a)?;
    let v = a.array("new_values", None)?;
    r.with_values((*v).clone())
        .map(Value::ragged)
        .map_err(|e| a.err_at("new_values", e))
}

pub(super) fn with_flat_values(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let r = ragged_self(a)?;
    let v = a.array("new_values", None)?;
    let Array::Dense(t) = &*v else {
        return Err(
            Error::new(ExceptionClass::TypeError, "new flat values must be dense")
                .at(a.span("new_values")),
        );
    };
    r.with_flat_values(t.clone())
        .map(Value::ragged)
        .map_err(|e| a.err_at("new_values", e))
}

pub(super) fn merge_dims(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let r = ragged_self(a)?;
    let rank = r.rank();
    let axis = |name: &str| -> Result<usize> {
        axis_arg(a, name, a.int(name)?, rank, ExceptionClass::ValueError)
    };
    let (o, i) = (axis("outer_axis")?, axis("inner_axis")?);
    if o > i {
        return Err(Error::new(
            ExceptionClass::ValueError,
            "need 0 <= outer_axis <= inner_axis < rank",
        )
        .at(a.call));
    }
    let merged = ragtag_engine::ops::shape::merge_dims(&Array::Ragged(r), o, i)
        .map_err(|e| Error::from(e).at(a.call))?;
    Ok(Value::from_array(merged))
}
