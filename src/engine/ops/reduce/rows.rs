//! The fast path of the commonest ragged reduction: each row of a 2-D ragged tensor reduced
//! to one value in one pass over the typed values, without widening them first.

use super::ReduceOp;
use crate::engine::buffer::Buffer;

/// The common case done in one pass over typed values: each row of a 2-D ragged tensor
/// (`splits`) reduced to one value, with the same results as [`super::segment_reduce_dense`].
/// `None` for the reductions it does not cover (variance, std).
pub(super) fn rows_1d(
    splits: &[i64],
    values: &Buffer,
    op: ReduceOp,
    int_mean_float: bool,
) -> Option<Buffer> {
    let rows = splits.windows(2).map(|w| (w[0] as usize, w[1] as usize));
    macro_rules! ints {
        ($v:expr, $t:ty, $variant:ident) => {{
            let v: &[$t] = $v;
            match op {
                ReduceOp::Sum => Buffer::$variant(
                    rows.map(|(a, b)| v[a..b].iter().fold(0 as $t, |s, &x| s.wrapping_add(x)))
                        .collect(),
                ),
                ReduceOp::Prod => Buffer::$variant(
                    rows.map(|(a, b)| v[a..b].iter().fold(1 as $t, |s, &x| s.wrapping_mul(x)))
                        .collect(),
                ),
                ReduceOp::Max => Buffer::$variant(
                    rows.map(|(a, b)| v[a..b].iter().copied().max().unwrap_or(<$t>::MIN))
                        .collect(),
                ),
                ReduceOp::Min => Buffer::$variant(
                    rows.map(|(a, b)| v[a..b].iter().copied().min().unwrap_or(<$t>::MAX))
                        .collect(),
                ),
                ReduceOp::Mean if int_mean_float => Buffer::F64(
                    rows.map(|(a, b)| {
                        v[a..b].iter().fold(0i64, |s, &x| s.wrapping_add(x as i64)) as f64
                            / (b - a) as f64
                    })
                    .collect(),
                ),
                ReduceOp::Mean => Buffer::$variant(
                    rows.map(|(a, b)| {
                        let s = v[a..b].iter().fold(0i64, |s, &x| s.wrapping_add(x as i64));
                        if a == b {
                            0
                        } else {
                            (s / (b - a) as i64) as $t
                        }
                    })
                    .collect(),
                ),
                _ => return None,
            }
        }};
    }
    macro_rules! floats {
        ($v:expr, $t:ty, $variant:ident) => {{
            let v: &[$t] = $v;
            let sum = |a: usize, b: usize| v[a..b].iter().fold(0.0f64, |s, &x| s + x as f64);
            match op {
                ReduceOp::Sum => Buffer::$variant(rows.map(|(a, b)| sum(a, b) as $t).collect()),
                ReduceOp::Prod => Buffer::$variant(
                    rows.map(|(a, b)| v[a..b].iter().fold(1.0f64, |s, &x| s * x as f64) as $t)
                        .collect(),
                ),
                ReduceOp::Max => Buffer::$variant(
                    rows.map(|(a, b)| {
                        // An empty ragged row gives the lowest finite value, as
                        // TensorFlow's unsorted segment max does.
                        v[a..b].iter().fold(
                            <$t>::MIN,
                            |m, &x| {
                                if x > m || x.is_nan() {
                                    x
                                } else {
                                    m
                                }
                            },
                        )
                    })
                    .collect(),
                ),
                ReduceOp::Min => Buffer::$variant(
                    rows.map(|(a, b)| {
                        v[a..b]
                            .iter()
                            .fold(<$t>::MAX, |m, &x| if x < m || x.is_nan() { x } else { m })
                    })
                    .collect(),
                ),
                ReduceOp::Mean => Buffer::$variant(
                    rows.map(|(a, b)| (sum(a, b) / (b - a) as f64) as $t)
                        .collect(),
                ),
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
            ReduceOp::Any => Buffer::Bool(rows.map(|(a, b)| v[a..b].iter().any(|&x| x)).collect()),
            ReduceOp::All => Buffer::Bool(rows.map(|(a, b)| v[a..b].iter().all(|&x| x)).collect()),
            _ => return None,
        },
        Buffer::Str(_) => return None,
    })
}
