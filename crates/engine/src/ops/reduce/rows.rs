//! The fast path of the commonest ragged reduction: each row of a 2-D ragged tensor reduced
//! to one value in one pass over the typed values, without widening them first.

use rayon::prelude::*;

use super::ReduceOp;
use crate::buffer::Buffer;
use crate::element::Number;
use crate::interrupt::{CHUNK, PARALLEL_MIN};
use crate::shared::Shared;

/// `f(start, end)` for each row of `splits`, on every core when the rows hold at least
/// [`PARALLEL_MIN`] values (a few thousand rows per task, so short rows do not each pay
/// for a split); the output is one value per row.
#[inline(always)]
fn per_row<U: Send + Clone>(splits: &[i64], f: impl Fn(usize, usize) -> U + Sync) -> Shared<U> {
    let row = |w: &[i64]| f(w[0] as usize, w[1] as usize);
    if splits.last().is_some_and(|&n| n as usize >= PARALLEL_MIN) {
        splits
            .par_windows(2)
            .with_min_len(CHUNK / 8)
            .map(row)
            .collect::<Vec<U>>()
            .into()
    } else {
        splits.windows(2).map(row).collect()
    }
}

/// The common case done in one pass over typed values: each row of a 2-D ragged tensor
/// (`splits`) reduced to one value, with the same results as [`super::segment_reduce_dense`].
/// `None` for the reductions it does not cover (variance, std).
pub(super) fn rows_1d(
    splits: &[i64],
    values: &Buffer,
    op: ReduceOp,
    int_mean_float: bool,
) -> Option<Buffer> {
    crate::dispatch!(numbers values, v => rows_numeric(splits, v, op, int_mean_float),
        Buffer::Bool(v) => match op {
            ReduceOp::Any => Some(Buffer::from(per_row(splits, |a, b| v[a..b].iter().any(|&x| x)))),
            ReduceOp::All => Some(Buffer::from(per_row(splits, |a, b| v[a..b].iter().all(|&x| x)))),
            _ => None,
        },
        Buffer::Str(_) => None)
}

/// [`rows_1d`] of numbers: integers fold in their own type (wrapping; the mean in int64),
/// floats in float64 but for max and min; an empty row's max and min are the type's lowest
/// and largest finite values, as TensorFlow's unsorted segment max and min give.
#[inline(always)]
fn rows_numeric<T: Number>(
    splits: &[i64],
    v: &[T],
    op: ReduceOp,
    int_mean_float: bool,
) -> Option<Buffer> {
    let max = |a: usize, b: usize| v[a..b].iter().fold(T::LOWEST, |m, &x| m.max_of(x));
    let min = |a: usize, b: usize| v[a..b].iter().fold(T::HIGHEST, |m, &x| m.min_of(x));
    if T::DTYPE.is_float() {
        let sum = |a: usize, b: usize| v[a..b].iter().fold(0.0f64, |s, &x| s + x.to_f64());
        return Some(Buffer::from(match op {
            ReduceOp::Sum => per_row(splits, |a, b| T::from_f64(sum(a, b))),
            ReduceOp::Prod => per_row(splits, |a, b| {
                T::from_f64(v[a..b].iter().fold(1.0f64, |s, &x| s * x.to_f64()))
            }),
            ReduceOp::Max => per_row(splits, max),
            ReduceOp::Min => per_row(splits, min),
            ReduceOp::Mean => per_row(splits, |a, b| T::from_f64(sum(a, b) / (b - a) as f64)),
            _ => return None,
        }));
    }
    let wide_sum = |a: usize, b: usize| {
        v[a..b]
            .iter()
            .fold(0i64, |s, &x| s.wrapping_add(x.to_i64()))
    };
    Some(Buffer::from(match op {
        ReduceOp::Sum => per_row(splits, |a, b| {
            v[a..b].iter().fold(T::ZERO, |s, &x| s.plus(x))
        }),
        ReduceOp::Prod => per_row(splits, |a, b| {
            v[a..b].iter().fold(T::ONE, |s, &x| s.times(x))
        }),
        ReduceOp::Max => per_row(splits, max),
        ReduceOp::Min => per_row(splits, min),
        ReduceOp::Mean if int_mean_float => {
            return Some(Buffer::from(per_row(splits, |a, b| {
                wide_sum(a, b) as f64 / (b - a) as f64
            })))
        }
        ReduceOp::Mean => per_row(splits, |a, b| {
            if a == b {
                T::ZERO
            } else {
                T::from_i64(wide_sum(a, b) / (b - a) as i64)
            }
        }),
        _ => return None,
    }))
}
