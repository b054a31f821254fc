//! Whole-tensor reductions: every element folded to one value in a single chunked pass over
//! the typed flat values (two for variance), with the arithmetic of a one-segment reduction.

use super::{check_dtype, ReduceOp};
use crate::budget;
use crate::buffer::Buffer;
use crate::dtype::DType;
use crate::element::Element;
use crate::error::Result;
use crate::interrupt;
use crate::ops::accumulate;
use crate::ragged::Array;
use crate::tensor::Tensor;

/// Every element of `a` reduced to one value, in one chunked pass over the typed flat values
/// (two for variance): nothing is copied, and an interrupt stops it within a chunk.
pub(super) fn reduce_everything(
    a: &Array,
    op: ReduceOp,
    keepdims: bool,
    int_mean_float: bool,
) -> Result<Array> {
    let data = reduce_flat(a.flat_values().data(), op, int_mean_float)?;
    let shape = if keepdims {
        budget::filled("a reduction", 1, a.rank())?
    } else {
        Vec::new()
    };
    Ok(Array::Dense(Tensor::from_parts(shape, data)))
}

/// One value from all of `data`, with the same arithmetic (the same accumulator) as
/// [`super::segment_reduce_dense`] over a single segment: integers accumulate in wrapping int64, floats (and the ragged mean of
/// integers) in float64, in order.
pub(super) fn reduce_flat(data: &Buffer, op: ReduceOp, int_mean_float: bool) -> Result<Buffer> {
    let dtype = data.dtype();
    check_dtype(op, dtype)?;
    let fold = op.fold();
    if let Some(v) = bool::of(data) {
        // check_dtype let only any and all through: any starts false, all true.
        let r = accumulate::fold_all(v, |x| x, fold, accumulate::identity(fold, false, true))?;
        return Ok(Buffer::from(vec![r]));
    }
    let int_path = dtype.is_int() && !op.is_statistic()
        || (op == ReduceOp::Mean && dtype.is_int() && !int_mean_float);
    if int_path {
        let r = crate::dispatch!(ints data, v => fold_ints(v, |x| x.to_i64(), op, dtype)?,
            _ => unreachable!("integer dtype"));
        return Ok(accumulate::narrow_ints(vec![r], dtype));
    }
    let r = crate::dispatch!(numbers data, v => fold_floats(v, |x| x.to_f64(), op)?,
        _ => unreachable!("checked"));
    Ok(accumulate::narrow_floats(vec![r], dtype))
}

/// [`reduce_flat`] over integers, accumulated in int64; an empty max and min are the
/// bounds of `dtype`.
fn fold_ints<T: Copy>(v: &[T], to: impl Fn(T) -> i64, op: ReduceOp, dtype: DType) -> Result<i64> {
    let fold = op.fold();
    let (lo, hi) = accumulate::int_bounds(dtype);
    let s = accumulate::fold_all(v, to, fold, accumulate::identity(fold, lo, hi))?;
    Ok(match op {
        ReduceOp::Mean if v.is_empty() => 0,
        ReduceOp::Mean => s / v.len() as i64,
        _ => s,
    })
}

/// [`reduce_flat`] in float64; an empty max and min are -inf and inf.
fn fold_floats<T: Copy>(v: &[T], to: impl Fn(T) -> f64, op: ReduceOp) -> Result<f64> {
    let n = v.len() as f64;
    let fold = op.fold();
    let init = accumulate::identity(fold, f64::NEG_INFINITY, f64::INFINITY);
    Ok(match op {
        ReduceOp::Mean => accumulate::fold_all(v, &to, fold, init)? / n,
        ReduceOp::Variance | ReduceOp::Std => {
            let mean = accumulate::fold_all(v, &to, fold, init)? / n;
            let var = interrupt::fold(v, 0.0, |s, x| {
                let d = to(x) - mean;
                s + d * d
            })? / n;
            if op == ReduceOp::Std {
                var.sqrt()
            } else {
                var
            }
        }
        _ => accumulate::fold_all(v, &to, fold, init)?,
    })
}
