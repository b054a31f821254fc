//! Reductions (`tf.reduce_sum`, `reduce_mean`, …) over any axis of dense and ragged tensors.
//!
//! A ragged reduction is a segment reduction: over axis 1 each row's values form a segment;
//! over axis 0 the values at the same position of every row do. Ragged values recurse, so
//! any axis of any ragged rank ends in one dense segment reduction.

mod flat;
mod rows;
mod segments;
#[cfg(test)]
mod tests;

pub use segments::{segment_reduce, segment_reduce_dense};

use crate::budget;
use crate::dtype::DType;
use crate::error::Result;
use crate::exceptions::ExceptionClass;
use crate::interrupt;
use crate::invalid_arg;
use crate::ops::accumulate::Fold;
use crate::ragged::Array;
use crate::tensor::Tensor;
use flat::reduce_everything;
use rows::rows_1d;

/// Which reduction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReduceOp {
    /// `reduce_sum`
    Sum,
    /// `reduce_prod`
    Prod,
    /// `reduce_max`
    Max,
    /// `reduce_min`
    Min,
    /// `reduce_mean`
    Mean,
    /// `reduce_any`
    Any,
    /// `reduce_all`
    All,
    /// `reduce_variance`
    Variance,
    /// `reduce_std`
    Std,
}

impl ReduceOp {
    /// TensorFlow's function name.
    pub fn name(self) -> &'static str {
        match self {
            ReduceOp::Sum => "reduce_sum",
            ReduceOp::Prod => "reduce_prod",
            ReduceOp::Max => "reduce_max",
            ReduceOp::Min => "reduce_min",
            ReduceOp::Mean => "reduce_mean",
            ReduceOp::Any => "reduce_any",
            ReduceOp::All => "reduce_all",
            ReduceOp::Variance => "reduce_variance",
            ReduceOp::Std => "reduce_std",
        }
    }
    pub(super) fn is_logical(self) -> bool {
        matches!(self, ReduceOp::Any | ReduceOp::All)
    }
    pub(super) fn is_statistic(self) -> bool {
        matches!(self, ReduceOp::Mean | ReduceOp::Variance | ReduceOp::Std)
    }
    /// How the op folds values: a mean, variance and std start as a sum; any is a max of
    /// bools, all a min.
    pub(super) fn fold(self) -> Fold {
        match self {
            ReduceOp::Prod => Fold::Prod,
            ReduceOp::Max | ReduceOp::Any => Fold::Max,
            ReduceOp::Min | ReduceOp::All => Fold::Min,
            ReduceOp::Sum | ReduceOp::Mean | ReduceOp::Variance | ReduceOp::Std => Fold::Sum,
        }
    }
}

/// Checks that `op` accepts `dtype`.
pub(super) fn check_dtype(op: ReduceOp, dtype: DType) -> Result<()> {
    let ok = if op.is_logical() {
        dtype == DType::Bool
    } else if matches!(op, ReduceOp::Variance | ReduceOp::Std) {
        dtype.is_float()
    } else {
        dtype.is_numeric()
    };
    if ok {
        Ok(())
    } else if op.is_logical() {
        Err(
            invalid_arg!("tf.{} needs a bool tensor, not {dtype}", op.name())
                .with_hint("compare first, e.g. tf.reduce_any(x > 0)"),
        )
    } else {
        Err(invalid_arg!(
            "tf.{} is not defined for {dtype} tensors",
            op.name()
        ))
    }
}

/// `reduce(a, axis)`: `axis` None reduces everything; negative axes count from the end.
/// `ragged_mean_is_float`: TensorFlow's ragged mean of ints divides as floats (float64),
/// while the dense mean of ints truncates.
pub fn reduce(a: &Array, axes: Option<&[i64]>, op: ReduceOp, keepdims: bool) -> Result<Array> {
    let ragged = matches!(a, Array::Ragged(_));
    if ragged && op.is_logical() && a.dtype() != DType::Bool && a.dtype().is_numeric() {
        // TensorFlow's ragged reduce_any / reduce_all cast their input to bool first.
        return reduce(&with_flat_dtype(a, DType::Bool)?, axes, op, keepdims);
    }
    if matches!(op, ReduceOp::Variance | ReduceOp::Std) && a.dtype().is_int() {
        if !ragged {
            return Err(crate::type_error!(
                "tf.math.{} needs float input, not {}",
                op.name(),
                a.dtype()
            )
            .with_hint("cast first: tf.cast(x, tf.float32)"));
        }
        return reduce(&with_flat_dtype(a, DType::Float64)?, axes, op, keepdims);
    }
    check_dtype(op, a.dtype())?;
    let int_mean_float = ragged;
    let Some(axes) = axes else {
        return reduce_everything(a, op, keepdims, int_mean_float);
    };
    let class = if ragged {
        ExceptionClass::ValueError
    } else {
        ExceptionClass::InvalidArgumentError
    };
    let norm = super::positive_axes(axes, a.rank(), class)?;
    if norm.is_empty() {
        // Reducing over no axis changes nothing (keepdims or not).
        return Ok(a.clone());
    }
    if ragged && op == ReduceOp::Mean && norm.len() > 1 {
        // TensorFlow's ragged mean over several axes: their sum over their count.
        let x = if a.dtype().is_int() {
            with_flat_dtype(a, DType::Float64)?
        } else {
            a.clone()
        };
        let b = with_flat_dtype(a, DType::Bool)?;
        let all_true = super::broadcast::binary(super::kernels::BinaryOp::Eq, &b, &b)?;
        let ones = with_flat_dtype(&all_true, x.dtype())?;
        let sum = reduce(&x, Some(axes), ReduceOp::Sum, keepdims)?;
        let count = reduce(&ones, Some(axes), ReduceOp::Sum, keepdims)?;
        return super::broadcast::binary(super::kernels::BinaryOp::Div, &sum, &count);
    }
    if matches!(a, Array::Dense(_)) && norm.len() == a.rank() {
        return reduce_everything(a, op, keepdims, int_mean_float);
    }
    let mut cur = a.clone();
    for &ax in norm.iter().rev() {
        cur = reduce_axis(&cur, ax, op, int_mean_float)?;
        if keepdims && ragged {
            // TensorFlow keeps each ragged axis as it goes (from the last one), so a
            // dimension that came out of a ragged one stays ragged.
            cur = super::reshape::expand_dims(&cur, ax as i64)?;
        }
    }
    if keepdims && !ragged {
        if let Array::Dense(t) = &cur {
            let mut shape = t.shape().to_vec();
            for &ax in &norm {
                shape.insert(ax, 1);
            }
            return Ok(Array::Dense(t.reshaped(shape)?));
        }
    }
    Ok(cur)
}

/// A ragged tensor with its flat values cast to `dtype`.
fn with_flat_dtype(a: &Array, dtype: DType) -> Result<Array> {
    let fv = a.flat_values();
    let data = super::cast::cast_buffer(fv.data(), dtype)?;
    let t = Tensor::from_parts(fv.shape().to_vec(), data);
    match a {
        Array::Ragged(r) => r.with_flat_values(t).map(Array::Ragged),
        Array::Dense(_) => Ok(Array::Dense(t)),
    }
}

fn reduce_axis(a: &Array, axis: usize, op: ReduceOp, int_mean_float: bool) -> Result<Array> {
    match a {
        Array::Dense(t) => reduce_dense_axis(t, axis, op, int_mean_float).map(Array::Dense),
        Array::Ragged(rt) => match axis {
            0 => {
                let outer = rt.outer();
                let mut seg = budget::vec("a reduction", outer.nvals())?;
                for r in 0..outer.nrows() {
                    let (a0, b0) = outer.row_range(r);
                    seg.extend(0..b0 - a0);
                }
                segment_reduce(
                    &rt.values(),
                    &seg,
                    outer.max_row_length(),
                    op,
                    int_mean_float,
                )
            }
            1 => {
                let outer = rt.outer();
                if rt.ragged_rank() == 1 && rt.flat_values().rank() == 1 {
                    let values = rt.flat_values().data();
                    if let Some(data) = rows_1d(outer.row_splits(), values, op, int_mean_float) {
                        return Ok(Array::Dense(Tensor::vector(data)));
                    }
                }
                let seg: Vec<usize> = outer.value_rowids().iter().map(|&r| r as usize).collect();
                segment_reduce(&rt.values(), &seg, outer.nrows(), op, int_mean_float)
            }
            _ => {
                let values = reduce_axis(&rt.values(), axis - 1, op, int_mean_float)?;
                rt.with_values(values).map(Array::Ragged)
            }
        },
    }
}

/// Reduces one axis of a dense tensor by viewing it as `[outer, n, inner]`.
fn reduce_dense_axis(
    t: &Tensor,
    axis: usize,
    op: ReduceOp,
    int_mean_float: bool,
) -> Result<Tensor> {
    let shape = t.shape();
    let outer: usize = shape[..axis].iter().product();
    let n = shape[axis];
    let inner: usize = shape[axis + 1..].iter().product();
    // Move the reduced axis outermost: rows of the [n, outer * inner] view are its positions.
    let moved = if outer == 1 {
        t.reshaped(vec![n, inner])?
    } else {
        let mut idx = budget::vec("a reduction", t.size())?;
        for k in 0..n {
            interrupt::check()?;
            for o in 0..outer {
                let base = o * n * inner + k * inner;
                idx.extend(base..base + inner);
            }
        }
        Tensor::from_parts(vec![n, outer * inner], t.data().gather(&idx))
    };
    let seg = budget::filled("a reduction", 0usize, n)?;
    let r = segment_reduce_dense(&moved, &seg, 1, op, int_mean_float)?;
    let mut out_shape = shape[..axis].to_vec();
    out_shape.extend_from_slice(&shape[axis + 1..]);
    r.reshaped(out_shape)
}
