//! The fast path of the commonest ragged reduction: each row of a 2-D ragged tensor reduced
//! to one value in one pass over the typed values, without widening them first.

use rayon::prelude::*;

use super::ReduceOp;
use crate::buffer::Buffer;
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
    macro_rules! ints {
        ($v:expr, $t:ty, $variant:ident) => {{
            let v: &[$t] = $v;
            match op {
                ReduceOp::Sum => Buffer::$variant(per_row(splits, |a, b| {
                    v[a..b].iter().fold(0 as $t, |s, &x| s.wrapping_add(x))
                })),
                ReduceOp::Prod => Buffer::$variant(per_row(splits, |a, b| {
                    v[a..b].iter().fold(1 as $t, |s, &x| s.wrapping_mul(x))
                })),
                ReduceOp::Max => Buffer::$variant(per_row(splits, |a, b| {
                    v[a..b].iter().fold(<$t>::MIN, |m, &x| m.max(x))
                })),
                ReduceOp::Min => Buffer::$variant(per_row(splits, |a, b| {
                    v[a..b].iter().fold(<$t>::MAX, |m, &x| m.min(x))
                })),
                ReduceOp::Mean if int_mean_float => Buffer::F64(per_row(splits, |a, b| {
                    v[a..b].iter().fold(0i64, |s, &x| s.wrapping_add(x as i64)) as f64
                        / (b - a) as f64
                })),
                ReduceOp::Mean => Buffer::$variant(per_row(splits, |a, b| {
                    let s = v[a..b].iter().fold(0i64, |s, &x| s.wrapping_add(x as i64));
                    if a == b {
                        0
                    } else {
                        (s / (b - a) as i64) as $t
                    }
                })),
                _ => return None,
            }
        }};
    }
    macro_rules! floats {
        ($v:expr, $t:ty, $variant:ident) => {{
            let v: &[$t] = $v;
            let sum = |a: usize, b: usize| v[a..b].iter().fold(0.0f64, |s, &x| s + x as f64);
            match op {
                ReduceOp::Sum => Buffer::$variant(per_row(splits, |a, b| sum(a, b) as $t)),
                ReduceOp::Prod => Buffer::$variant(per_row(splits, |a, b| {
                    v[a..b].iter().fold(1.0f64, |s, &x| s * x as f64) as $t
                })),
                ReduceOp::Max => Buffer::$variant(per_row(splits, |a, b| {
                    // An empty ragged row gives the lowest finite value, as
                    // TensorFlow's unsorted segment max does.
                    v[a..b]
                        .iter()
                        .fold(<$t>::MIN, |m, &x| if x > m || x.is_nan() { x } else { m })
                })),
                ReduceOp::Min => Buffer::$variant(per_row(splits, |a, b| {
                    v[a..b]
                        .iter()
                        .fold(<$t>::MAX, |m, &x| if x < m || x.is_nan() { x } else { m })
                })),
                ReduceOp::Mean => {
                    Buffer::$variant(per_row(splits, |a, b| (sum(a, b) / (b - a) as f64) as $t))
                }
                _ => return None,
            }
        }};
    }
    Some(match values {
        Buffer::I32(v) => ints!(v, i32, I32),
        Buffer::I64(v) => ints!(v, i64, I64),
        Buffer::F32(v) => floats!(v, f32, F32),
        Buffer::F64(v) => floats!(v, f64, F64),
        Buffer::Bool(v) => match op {
            ReduceOp::Any => Buffer::Bool(per_row(splits, |a, b| v[a..b].iter().any(|&x| x))),
            ReduceOp::All => Buffer::Bool(per_row(splits, |a, b| v[a..b].iter().all(|&x| x))),
            _ => return None,
        },
        Buffer::Str(_) => return None,
    })
}
