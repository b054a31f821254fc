//! Reductions as segment reductions: rows that share a segment id combine (ragged rows
//! position by position). Every axis reduction of a dense or ragged tensor ends here.

use super::{check_dtype, ReduceOp};
use crate::buffer::Buffer;
use crate::element::Element;
use crate::error::Result;
use crate::ops::accumulate;
use crate::ragged::Array;
use crate::tensor::Tensor;

/// What the memory budget calls a reduction's allocations.
const WHAT: &str = "a reduction";

/// Combines the rows of `data` that share a segment id; ragged rows combine position by
/// position, so the result row is as long as the longest row of its segment.
pub fn segment_reduce(
    data: &Array,
    seg: &[usize],
    nseg: usize,
    op: ReduceOp,
    int_mean_float: bool,
) -> Result<Array> {
    accumulate::by_segments(WHAT, data, seg, nseg, &|t, seg, nseg| {
        segment_reduce_dense(t, seg, nseg, op, int_mean_float)
    })
}

/// The dense core: rows of `t` (shape `[n, inner…]`) combine into `nseg` output rows.
pub fn segment_reduce_dense(
    t: &Tensor,
    seg: &[usize],
    nseg: usize,
    op: ReduceOp,
    int_mean_float: bool,
) -> Result<Tensor> {
    let dtype = t.dtype();
    check_dtype(op, dtype)?;
    let inner = t.row_size();
    let mut shape = t.shape().to_vec();
    if shape.is_empty() {
        shape.push(1);
    }
    shape[0] = nseg;
    let m = nseg * inner;
    let fold = op.fold();
    if let Some(v) = bool::of(t.data()) {
        // check_dtype let only any and all through: any starts false, all true.
        let init = accumulate::identity(fold, false, true);
        let acc = accumulate::accumulate(WHAT, v, seg, inner, m, fold, init)?;
        return Ok(Tensor::from_parts(shape, Buffer::from(acc)));
    }
    let counts = accumulate::counts(WHAT, seg, nseg)?;
    if dtype.is_int() && !op.is_statistic()
        || (op == ReduceOp::Mean && dtype.is_int() && !int_mean_float)
    {
        let v = accumulate::widen_ints(t.data())?.expect("integer data");
        let (lo, hi) = accumulate::int_bounds(dtype);
        let init = accumulate::identity(fold, lo, hi);
        let mut acc = accumulate::accumulate(WHAT, &v, seg, inner, m, fold, init)?;
        if op == ReduceOp::Mean {
            for (i, a) in acc.iter_mut().enumerate() {
                let c = counts[i / inner.max(1)] as i64;
                *a = if c == 0 { 0 } else { *a / c };
            }
        }
        return Ok(Tensor::from_parts(
            shape,
            accumulate::narrow_ints(acc, dtype),
        ));
    }
    let v = accumulate::widen_floats(t.data())?.expect("numeric data");
    // Ragged reductions are segment reductions in TensorFlow: an empty row's max and min are
    // the dtype's lowest and largest finite values, where a dense one gives -inf and inf.
    let (lo, hi) = if int_mean_float {
        accumulate::finite_bounds(dtype)
    } else {
        (f64::NEG_INFINITY, f64::INFINITY)
    };
    let init = accumulate::identity(fold, lo, hi);
    let mut acc = accumulate::accumulate(WHAT, &v, seg, inner, m, fold, init)?;
    if op.is_statistic() {
        let count = |i: usize| counts[i / inner.max(1)] as f64;
        for (i, a) in acc.iter_mut().enumerate() {
            *a /= count(i);
        }
        if matches!(op, ReduceOp::Variance | ReduceOp::Std) {
            let sq = accumulate::squared_deviations(WHAT, &v, seg, inner, &acc)?;
            for (i, a) in acc.iter_mut().enumerate() {
                *a = sq[i] / count(i);
                if op == ReduceOp::Std {
                    *a = a.sqrt();
                }
            }
        }
    }
    Ok(Tensor::from_parts(
        shape,
        accumulate::narrow_floats(acc, dtype),
    ))
}
