//! The accessors of every row-partition encoding: values, row_splits, row_lengths,
//! value_rowids, row_starts/limits and their nested forms, nrows and bounding_shape.

use super::{out_type_arg, ragged_self};
use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::builtins::common::axis_arg;
use crate::eval::Interp;
use crate::value::Value;
use ragtag_engine::partition::{index_scalar, index_tensor};
use ragtag_engine::{Array, DType, ExceptionClass, Ragged, RowPartition, Scalar, Tensor};

pub(super) fn values(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    Ok(Value::from_array(ragged_self(a)?.values()))
}

pub(super) fn flat_values(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    Ok(Value::tensor(ragged_self(a)?.flat_values().clone()))
}

pub(super) fn row_splits(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    outer_vector(a, |p| p.row_splits().to_vec())
}

fn each_partition(a: &Args, f: impl Fn(&RowPartition) -> Vec<i64>) -> Result<Value> {
    let r = ragged_self(a)?;
    Ok(Value::tuple(
        r.partitions()
            .iter()
            .map(|p| Value::tensor(p.index_tensor(f(p))))
            .collect(),
    ))
}

pub(super) fn nested_row_splits(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    each_partition(a, |p| p.row_splits().to_vec())
}

pub(super) fn nested_row_lengths(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    each_partition(a, |p| p.row_lengths().to_vec())
}

pub(super) fn nested_value_rowids(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    each_partition(a, |p| p.value_rowids().to_vec())
}

pub(super) fn ragged_rank(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    Ok(Value::Int(ragged_self(a)?.ragged_rank() as i64))
}

pub(super) fn uniform_row_length(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    Ok(match ragged_self(a)?.outer().uniform_row_length() {
        Some(u) => Value::tensor(Tensor::scalar(Scalar::I64(u))),
        None => Value::None,
    })
}

pub(super) fn row_lengths(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let r = ragged_self(a)?;
    let axis = a.opt_int("axis")?.unwrap_or(1);
    let axis = axis_arg(a, "axis", axis, r.rank(), ExceptionClass::ValueError)? as i64;
    let dtype = r.row_splits_dtype();
    if axis == 0 {
        return Ok(Value::tensor(index_scalar(r.nrows() as i64, dtype)));
    }
    if axis > r.ragged_rank() as i64 {
        // A uniform inner dimension: every row has its size, shaped like the dimensions
        // above it.
        let flat = r.flat_values();
        let k = axis as usize - r.ragged_rank();
        let size = flat.shape()[k] as i64;
        let mut lengths = Tensor::filled(
            "row_lengths",
            flat.shape()[..k].to_vec(),
            &Scalar::I64(size),
        )
        .map_err(|e| a.err_at("axis", e))?;
        if dtype == DType::Int32 {
            lengths = Tensor::filled(
                "row_lengths",
                flat.shape()[..k].to_vec(),
                &Scalar::I32(size as i32),
            )
            .map_err(|e| a.err_at("axis", e))?;
        }
        return r
            .with_flat_values(lengths)
            .map(Value::ragged)
            .map_err(|e| a.err_at("axis", e));
    }
    if axis == 1 {
        return Ok(Value::tensor(index_tensor(r.row_lengths().to_vec(), dtype)));
    }
    // Lengths of dimension `axis`, shaped like the dimensions above it.
    let part = &r.partitions()[axis as usize - 1];
    let lengths = index_tensor(part.row_lengths().to_vec(), dtype);
    let mut arr = Array::Dense(lengths);
    for p in r.partitions()[..axis as usize - 1].iter().rev() {
        arr =
            Array::Ragged(Ragged::from_partition(p.clone(), arr).map_err(|e| a.err_at("axis", e))?);
    }
    Ok(Value::from_array(arr))
}

fn outer_vector(a: &Args, f: impl Fn(&RowPartition) -> Vec<i64>) -> Result<Value> {
    let r = ragged_self(a)?;
    Ok(Value::tensor(r.outer().index_tensor(f(r.outer()))))
}

pub(super) fn row_starts(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    outer_vector(a, |p| p.row_starts().to_vec())
}

pub(super) fn row_limits(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    outer_vector(a, |p| p.row_limits().to_vec())
}

pub(super) fn value_rowids(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    outer_vector(a, |p| p.value_rowids().to_vec())
}

pub(super) fn nrows(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let r = ragged_self(a)?;
    let dtype = out_type_arg(a, &r)?;
    Ok(Value::tensor(index_scalar(r.nrows() as i64, dtype)))
}

pub(super) fn bounding_shape(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let r = ragged_self(a)?;
    let dtype = out_type_arg(a, &r)?;
    let shape: Vec<i64> = r.bounding_shape().into_iter().map(|d| d as i64).collect();
    // TensorFlow gathers from the bounding shape, so a negative axis is refused too.
    let pick = |ax: i64| -> Result<i64> {
        usize::try_from(ax)
            .ok()
            .and_then(|k| shape.get(k).copied())
            .ok_or_else(|| {
                Error::new(
                    ExceptionClass::InvalidArgumentError,
                    format!(
                        "axis {ax} is out of range: bounding_shape has {} entries (0 to {})",
                        shape.len(),
                        shape.len() - 1
                    ),
                )
                .at(a.span("axis"))
            })
    };
    match a.get("axis") {
        None => Ok(Value::tensor(index_tensor(shape.clone(), dtype))),
        // A list of axes gives one size per axis, in the order asked.
        Some(Value::List(_) | Value::Tuple(_)) => {
            let axes = a.ints("axis")?;
            let sizes = axes.into_iter().map(pick).collect::<Result<Vec<_>>>()?;
            Ok(Value::tensor(index_tensor(sizes, dtype)))
        }
        Some(Value::Array(arr)) if arr.rank() == 1 => {
            let axes = a.ints("axis")?;
            let sizes = axes.into_iter().map(pick).collect::<Result<Vec<_>>>()?;
            Ok(Value::tensor(index_tensor(sizes, dtype)))
        }
        Some(_) => Ok(Value::tensor(index_scalar(pick(a.int("axis")?)?, dtype))),
    }
}
