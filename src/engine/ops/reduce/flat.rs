//! Whole-tensor reductions: every element folded to one value in a single chunked pass over
//! the typed flat values (two for variance), with the arithmetic of a one-segment reduction.

use super::{check_dtype, ReduceOp};
use crate::engine::budget;
use crate::engine::buffer::Buffer;
use crate::engine::dtype::DType;
use crate::engine::error::Result;
use crate::engine::interrupt;
use crate::engine::ragged::Array;
use crate::engine::tensor::Tensor;

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

/// One value from all of `data`, with the same arithmetic as [`super::segment_reduce_dense`] over a
/// single segment: integers accumulate in wrapping int64, floats (and the ragged mean of
/// integers) in float64, in order.
pub(super) fn reduce_flat(data: &Buffer, op: ReduceOp, int_mean_float: bool) -> Result<Buffer> {
    let dtype = data.dtype();
    check_dtype(op, dtype)?;
    if let Buffer::Bool(v) = data {
        let all = op == ReduceOp::All;
        let r = interrupt::fold(v, all, |acc, x| if all { acc && x } else { acc || x })?;
        return Ok(Buffer::Bool(vec![r]));
    }
    let int_path = dtype.is_int() && !op.is_statistic()
        || (op == ReduceOp::Mean && dtype.is_int() && !int_mean_float);
    if int_path {
        let r = match data {
            Buffer::I32(v) => fold_ints(v, |x| x as i64, op, (i32::MIN as i64, i32::MAX as i64))?,
            Buffer::I64(v) => fold_ints(v, |x| x, op, (i64::MIN, i64::MAX))?,
            _ => unreachable!("integer dtype"),
        };
        return Ok(if dtype == DType::Int32 {
            Buffer::I32(vec![r as i32])
        } else {
            Buffer::I64(vec![r])
        });
    }
    let r = match data {
        Buffer::I32(v) => fold_floats(v, |x| x as f64, op)?,
        Buffer::I64(v) => fold_floats(v, |x| x as f64, op)?,
        Buffer::F32(v) => fold_floats(v, |x| x as f64, op)?,
        Buffer::F64(v) => fold_floats(v, |x| x, op)?,
        _ => unreachable!("checked"),
    };
    Ok(if dtype == DType::Float32 {
        Buffer::F32(vec![r as f32])
    } else {
        Buffer::F64(vec![r])
    })
}

/// [`reduce_flat`] over integers; `(lo, hi)` are the dtype's bounds, the empty max and min.
fn fold_ints<T: Copy>(
    v: &[T],
    to: impl Fn(T) -> i64,
    op: ReduceOp,
    (lo, hi): (i64, i64),
) -> Result<i64> {
    Ok(match op {
        ReduceOp::Prod => interrupt::fold(v, 1i64, |s, x| s.wrapping_mul(to(x)))?,
        ReduceOp::Max => interrupt::fold(v, lo, |s, x| s.max(to(x)))?,
        ReduceOp::Min => interrupt::fold(v, hi, |s, x| s.min(to(x)))?,
        ReduceOp::Mean => {
            let s = interrupt::fold(v, 0i64, |s, x| s.wrapping_add(to(x)))?;
            if v.is_empty() {
                0
            } else {
                s / v.len() as i64
            }
        }
        _ => interrupt::fold(v, 0i64, |s, x| s.wrapping_add(to(x)))?,
    })
}

/// [`reduce_flat`] in float64.
fn fold_floats<T: Copy>(v: &[T], to: impl Fn(T) -> f64, op: ReduceOp) -> Result<f64> {
    let n = v.len() as f64;
    Ok(match op {
        ReduceOp::Prod => interrupt::fold(v, 1.0, |s, x| s * to(x))?,
        ReduceOp::Max => interrupt::fold(v, f64::NEG_INFINITY, |m, x| {
            let x = to(x);
            if x > m || x.is_nan() {
                x
            } else {
                m
            }
        })?,
        ReduceOp::Min => interrupt::fold(v, f64::INFINITY, |m, x| {
            let x = to(x);
            if x < m || x.is_nan() {
                x
            } else {
                m
            }
        })?,
        ReduceOp::Mean => interrupt::fold(v, 0.0, |s, x| s + to(x))? / n,
        ReduceOp::Variance | ReduceOp::Std => {
            let mean = interrupt::fold(v, 0.0, |s, x| s + to(x))? / n;
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
        _ => interrupt::fold(v, 0.0, |s, x| s + to(x))?,
    })
}
