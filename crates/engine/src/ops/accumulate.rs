//! The per-segment accumulator shared by reductions (`tf.reduce_*`, ragged reductions) and
//! segment ops (`tf.math.segment_*`, `unsorted_segment_*`): rows that share a segment id
//! fold into one output row, integers in wrapping int64 and floats in float64, in order,
//! with [`Number`]'s arithmetic (a NaN wins max and min; bool's max is `any`, min `all`).
//! Each caller keeps its own rules for empty segments and for the mean; the folding, the
//! widening of the input and the layout of ragged segments are here once.

use crate::budget;
use crate::buffer::Buffer;
use crate::dtype::DType;
use crate::element::Number;
use crate::error::Result;
use crate::interrupt;
use crate::partition::RowPartition;
use crate::ragged::{Array, Ragged};
use crate::tensor::Tensor;

/// How two values combine.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Fold {
    /// Addition (also the first step of a mean, variance and `sqrt_n`).
    Sum,
    /// Multiplication.
    Prod,
    /// The larger; a NaN wins, as in TensorFlow.
    Max,
    /// The smaller; a NaN wins, as in TensorFlow.
    Min,
}

/// Where every slot of `fold` starts: the identity of sum and product, and for max and min
/// the `lo` and `hi` the caller gives an empty segment.
pub(crate) fn identity<T: Number>(fold: Fold, lo: T, hi: T) -> T {
    match fold {
        Fold::Sum => T::ZERO,
        Fold::Prod => T::ONE,
        Fold::Max => lo,
        Fold::Min => hi,
    }
}

/// Combines the rows of a dense tensor that share a segment id (`seg`) into `nseg` rows.
pub(crate) type DenseCombine<'a> = dyn Fn(&Tensor, &[usize], usize) -> Result<Tensor> + 'a;

/// Combines the rows of `data` that share a segment id with `dense` (rows of a tensor into
/// `nseg` rows); ragged rows combine position by position, so a segment's row is as long as
/// its longest member and the values under it combine one level down.
pub(crate) fn by_segments(
    what: &str,
    data: &Array,
    seg: &[usize],
    nseg: usize,
    dense: &DenseCombine<'_>,
) -> Result<Array> {
    match data {
        Array::Dense(t) => dense(t, seg, nseg).map(Array::Dense),
        Array::Ragged(rt) => {
            let (part, child) = ragged_segments(what, rt.outer(), seg, nseg)?;
            let values = by_segments(what, &rt.values(), &child, part.nvals(), dense)?;
            Ragged::from_partition(part, values).map(Array::Ragged)
        }
    }
}

/// Rows of `v` (each `inner` long) folded by `fold` into `m` slots (`nseg * inner`), row `r`
/// into segment `seg[r]`, every slot starting at `init`. An interrupt stops it between
/// chunks of rows.
pub(crate) fn accumulate<T: Number>(
    what: &str,
    v: &[T],
    seg: &[usize],
    inner: usize,
    m: usize,
    fold: Fold,
    init: T,
) -> Result<Vec<T>> {
    let mut acc = budget::filled(what, init, m)?;
    for (r, &s) in seg.iter().enumerate() {
        if r % interrupt::CHUNK == 0 {
            interrupt::check()?;
        }
        for k in 0..inner {
            let x = v[r * inner + k];
            let slot = &mut acc[s * inner + k];
            *slot = match fold {
                Fold::Prod => slot.times(x),
                Fold::Max => slot.max_of(x),
                Fold::Min => slot.min_of(x),
                Fold::Sum => slot.plus(x),
            };
        }
    }
    Ok(acc)
}

/// All of `v` (converted by `to`) folded into one accumulator starting at `init`: the
/// one-segment case of [`accumulate`] without its index arithmetic. The match is outside the
/// loop, so each fold runs its own tight loop, a chunk at a time between interrupt checks.
#[inline(always)]
pub(crate) fn fold_all<T: Copy, A: Number>(
    v: &[T],
    to: impl Fn(T) -> A,
    fold: Fold,
    init: A,
) -> Result<A> {
    match fold {
        Fold::Sum => interrupt::fold(v, init, |s, x| s.plus(to(x))),
        Fold::Prod => interrupt::fold(v, init, |s, x| s.times(to(x))),
        Fold::Max => interrupt::fold(v, init, |s, x| s.max_of(to(x))),
        Fold::Min => interrupt::fold(v, init, |s, x| s.min_of(to(x))),
    }
}

/// The sum of squared distances from each slot's `mean`, per slot: the numerator of a
/// variance, in a second pass over the same rows.
pub(crate) fn squared_deviations(
    what: &str,
    v: &[f64],
    seg: &[usize],
    inner: usize,
    mean: &[f64],
) -> Result<Vec<f64>> {
    let mut sq = budget::filled(what, 0.0, mean.len())?;
    for (r, &s) in seg.iter().enumerate() {
        if r % interrupt::CHUNK == 0 {
            interrupt::check()?;
        }
        for k in 0..inner {
            let d = v[r * inner + k] - mean[s * inner + k];
            sq[s * inner + k] += d * d;
        }
    }
    Ok(sq)
}

/// How many rows each of `nseg` segments holds.
pub(crate) fn counts(what: &str, seg: &[usize], nseg: usize) -> Result<Vec<u64>> {
    let mut counts = budget::filled(what, 0u64, nseg)?;
    for &s in seg {
        counts[s] += 1;
    }
    Ok(counts)
}

/// The lowest and largest values of integer `dtype`, in int64: where an empty segment's max
/// and min start.
pub(crate) fn int_bounds(dtype: DType) -> (i64, i64) {
    crate::dispatch!(ints dtype dtype, T => (T::LOWEST.to_i64(), T::HIGHEST.to_i64()),
        _ => (i64::MIN, i64::MAX))
}

/// The lowest and largest finite values of float `dtype` (float64 for integers, which
/// accumulate as float64), in float64.
pub(crate) fn finite_bounds(dtype: DType) -> (f64, f64) {
    crate::dispatch!(floats dtype dtype, T => (T::LOWEST.to_f64(), T::HIGHEST.to_f64()),
        _ => (f64::MIN, f64::MAX))
}

/// Int64 accumulators back in the input's integer `dtype` (int32 wraps, as TensorFlow's
/// int32 arithmetic does).
pub(crate) fn narrow_ints(acc: Vec<i64>, dtype: DType) -> Buffer {
    Buffer::from_i64s(acc, dtype)
}

/// Float64 accumulators as the result of input `dtype`: float32 stays float32, everything
/// else (float64 and the float mean of integers) is float64.
pub(crate) fn narrow_floats(acc: Vec<f64>, dtype: DType) -> Buffer {
    if dtype.is_float() {
        Buffer::from_f64s(acc, dtype)
    } else {
        Buffer::from(acc)
    }
}

/// Integer data widened to int64 (None for any other dtype).
pub(crate) fn widen_ints(data: &Buffer) -> Result<Option<Vec<i64>>> {
    let v =
        crate::dispatch!(ints data, v => interrupt::map(v, |x| x.to_i64()), _ => return Ok(None));
    // `map` stops early when interrupted; its partial output is dropped here.
    interrupt::check()?;
    Ok(Some(v))
}

/// Numeric data widened to float64 (None for bool and string data).
pub(crate) fn widen_floats(data: &Buffer) -> Result<Option<Vec<f64>>> {
    let v = crate::dispatch!(numbers data, v => interrupt::map(v, |x| x.to_f64()),
        _ => return Ok(None));
    interrupt::check()?;
    Ok(Some(v))
}

/// The layout of a segment combination of ragged rows, which combine position by position:
/// the output partition (segment `s` as long as its longest member row of `outer`) and, for
/// every value under `outer`, the output position it folds into.
fn ragged_segments(
    what: &str,
    outer: &RowPartition,
    seg: &[usize],
    nseg: usize,
) -> Result<(RowPartition, Vec<usize>)> {
    let mut out_len = budget::filled(what, 0i64, nseg)?;
    for (r, &s) in seg.iter().enumerate() {
        if r % interrupt::CHUNK == 0 {
            interrupt::check()?;
        }
        let (a0, b0) = outer.row_range(r);
        out_len[s] = out_len[s].max((b0 - a0) as i64);
    }
    let part = RowPartition::from_row_lengths(&out_len, None)?;
    let splits = part.row_splits();
    let mut child = budget::vec(what, outer.nvals())?;
    for (r, &s) in seg.iter().enumerate() {
        if r % interrupt::CHUNK == 0 {
            interrupt::check()?;
        }
        let (a0, b0) = outer.row_range(r);
        child.extend((0..b0 - a0).map(|j| splits[s] as usize + j));
    }
    Ok((part, child))
}
