//! Reductions (`tf.reduce_sum`, `reduce_mean`, …) over any axis of dense and ragged tensors.
//!
//! A ragged reduction is a segment reduction: over axis 1 each row's values form a segment;
//! over axis 0 the values at the same position of every row do. Ragged values recurse, so
//! any axis of any ragged rank ends in one dense segment reduction.

use crate::engine::budget;
use crate::engine::buffer::Buffer;
use crate::engine::dtype::DType;
use crate::engine::error::Result;
use crate::engine::interrupt;
use crate::engine::partition::RowPartition;
use crate::engine::ragged::{Array, Ragged};
use crate::engine::tensor::Tensor;
use crate::invalid_arg;

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
    fn is_logical(self) -> bool {
        matches!(self, ReduceOp::Any | ReduceOp::All)
    }
    fn is_statistic(self) -> bool {
        matches!(self, ReduceOp::Mean | ReduceOp::Variance | ReduceOp::Std)
    }
}

/// Checks that `op` accepts `dtype`.
fn check_dtype(op: ReduceOp, dtype: DType) -> Result<()> {
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
    let rank = a.rank() as i64;
    let int_mean_float = ragged;
    let Some(axes) = axes else {
        return reduce_everything(a, op, keepdims, int_mean_float);
    };
    let mut norm: Vec<usize> = budget::vec("a reduction", axes.len())?;
    for &ax in axes {
        let k = if ax < 0 { ax + rank } else { ax };
        if k < 0 || k >= rank {
            let class = if ragged {
                crate::engine::ErrorClass::ValueError
            } else {
                crate::engine::ErrorClass::InvalidArgumentError
            };
            return Err(crate::engine::EngineError::new(
                class,
                format!(
                    "axis {ax} is out of range for a tensor of rank {rank} (valid: {} to {})",
                    -rank,
                    rank - 1
                ),
            ));
        }
        if !norm.contains(&(k as usize)) {
            norm.push(k as usize);
        }
    }
    norm.sort_unstable();
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

/// Every element of `a` reduced to one value, in one chunked pass over the typed flat values
/// (two for variance): nothing is copied, and an interrupt stops it within a chunk.
fn reduce_everything(
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

/// One value from all of `data`, with the same arithmetic as [`segment_reduce_dense`] over a
/// single segment: integers accumulate in wrapping int64, floats (and the ragged mean of
/// integers) in float64, in order.
fn reduce_flat(data: &Buffer, op: ReduceOp, int_mean_float: bool) -> Result<Buffer> {
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
            1 if rt.ragged_rank() == 1 && rt.flat_values().rank() == 1 => {
                match rows_1d(
                    rt.outer().row_splits(),
                    rt.flat_values().data(),
                    op,
                    int_mean_float,
                ) {
                    Some(data) => Ok(Array::Dense(Tensor::vector(data))),
                    None => {
                        let outer = rt.outer();
                        let seg: Vec<usize> =
                            outer.value_rowids().iter().map(|&r| r as usize).collect();
                        segment_reduce(&rt.values(), &seg, outer.nrows(), op, int_mean_float)
                    }
                }
            }
            1 => {
                let outer = rt.outer();
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

/// The common case done in one pass over typed values: each row of a 2-D ragged tensor
/// (`splits`) reduced to one value, with the same results as [`segment_reduce_dense`].
/// `None` for the reductions it does not cover (variance, std).
fn rows_1d(splits: &[i64], values: &Buffer, op: ReduceOp, int_mean_float: bool) -> Option<Buffer> {
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

/// Combines the rows of `data` that share a segment id; ragged rows combine position by
/// position, so the result row is as long as the longest row of its segment.
pub fn segment_reduce(
    data: &Array,
    seg: &[usize],
    nseg: usize,
    op: ReduceOp,
    int_mean_float: bool,
) -> Result<Array> {
    match data {
        Array::Dense(t) => segment_reduce_dense(t, seg, nseg, op, int_mean_float).map(Array::Dense),
        Array::Ragged(rt) => {
            let outer = rt.outer();
            let mut out_len = budget::filled("a reduction", 0i64, nseg)?;
            for (r, &s) in seg.iter().enumerate() {
                if r % interrupt::CHUNK == 0 {
                    interrupt::check()?;
                }
                let (a0, b0) = outer.row_range(r);
                out_len[s] = out_len[s].max((b0 - a0) as i64);
            }
            let part = RowPartition::from_row_lengths(&out_len, None)?;
            let splits = part.row_splits();
            let mut child = budget::vec("a reduction", outer.nvals())?;
            for (r, &s) in seg.iter().enumerate() {
                if r % interrupt::CHUNK == 0 {
                    interrupt::check()?;
                }
                let (a0, b0) = outer.row_range(r);
                child.extend((0..b0 - a0).map(|j| splits[s] as usize + j));
            }
            let values = segment_reduce(&rt.values(), &child, part.nvals(), op, int_mean_float)?;
            Ragged::from_partition(part, values).map(Array::Ragged)
        }
    }
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
    if let Buffer::Bool(v) = t.data() {
        let all = op == ReduceOp::All;
        let mut acc = budget::filled("a reduction", all, m)?;
        for (r, &s) in seg.iter().enumerate() {
            if r % interrupt::CHUNK == 0 {
                interrupt::check()?;
            }
            for k in 0..inner {
                let x = v[r * inner + k];
                let slot = &mut acc[s * inner + k];
                *slot = if all { *slot && x } else { *slot || x };
            }
        }
        return Ok(Tensor::from_parts(shape, Buffer::Bool(acc)));
    }
    let mut counts = budget::filled("a reduction", 0u64, nseg)?;
    for &s in seg {
        counts[s] += 1;
    }
    if dtype.is_int() && !op.is_statistic()
        || (op == ReduceOp::Mean && dtype.is_int() && !int_mean_float)
    {
        let v = match t.data() {
            Buffer::I32(v) => interrupt::map(v, |x| x as i64),
            Buffer::I64(v) => interrupt::map(v, |x| x),
            _ => unreachable!("integer data"),
        };
        interrupt::check()?;
        let (lo, hi) = if dtype == DType::Int32 {
            (i32::MIN as i64, i32::MAX as i64)
        } else {
            (i64::MIN, i64::MAX)
        };
        let init = match op {
            ReduceOp::Prod => 1,
            ReduceOp::Max => lo,
            ReduceOp::Min => hi,
            _ => 0,
        };
        let mut acc = budget::filled("a reduction", init, m)?;
        for (r, &s) in seg.iter().enumerate() {
            if r % interrupt::CHUNK == 0 {
                interrupt::check()?;
            }
            for k in 0..inner {
                let x = v[r * inner + k];
                let slot = &mut acc[s * inner + k];
                *slot = match op {
                    ReduceOp::Prod => slot.wrapping_mul(x),
                    ReduceOp::Max => (*slot).max(x),
                    ReduceOp::Min => (*slot).min(x),
                    _ => slot.wrapping_add(x),
                };
            }
        }
        if op == ReduceOp::Mean {
            for (i, a) in acc.iter_mut().enumerate() {
                let c = counts[i / inner.max(1)] as i64;
                *a = if c == 0 { 0 } else { *a / c };
            }
        }
        let data = if dtype == DType::Int32 {
            Buffer::I32(acc.into_iter().map(|x| x as i32).collect())
        } else {
            Buffer::I64(acc)
        };
        return Ok(Tensor::from_parts(shape, data));
    }
    let v = match t.data() {
        Buffer::I32(v) => interrupt::map(v, |x| x as f64),
        Buffer::I64(v) => interrupt::map(v, |x| x as f64),
        Buffer::F32(v) => interrupt::map(v, |x| x as f64),
        Buffer::F64(v) => interrupt::map(v, |x| x),
        _ => unreachable!("numeric data"),
    };
    interrupt::check()?;
    // Ragged reductions are segment reductions in TensorFlow: an empty row's max and min are
    // the dtype's lowest and largest finite values, where a dense one gives -inf and inf.
    let (lo, hi) = match (int_mean_float, dtype) {
        (false, _) => (f64::NEG_INFINITY, f64::INFINITY),
        (true, DType::Float32) => (f64::from(f32::MIN), f64::from(f32::MAX)),
        (true, _) => (f64::MIN, f64::MAX),
    };
    let init = match op {
        ReduceOp::Prod => 1.0,
        ReduceOp::Max => lo,
        ReduceOp::Min => hi,
        _ => 0.0,
    };
    let mut acc = budget::filled("a reduction", init, m)?;
    for (r, &s) in seg.iter().enumerate() {
        if r % interrupt::CHUNK == 0 {
            interrupt::check()?;
        }
        for k in 0..inner {
            let x = v[r * inner + k];
            let slot = &mut acc[s * inner + k];
            *slot = match op {
                ReduceOp::Prod => *slot * x,
                ReduceOp::Max => {
                    if x > *slot || x.is_nan() {
                        x
                    } else {
                        *slot
                    }
                }
                ReduceOp::Min => {
                    if x < *slot || x.is_nan() {
                        x
                    } else {
                        *slot
                    }
                }
                _ => *slot + x,
            };
        }
    }
    if op.is_statistic() {
        let count = |i: usize| counts[i / inner.max(1)] as f64;
        for (i, a) in acc.iter_mut().enumerate() {
            *a /= count(i);
        }
        if matches!(op, ReduceOp::Variance | ReduceOp::Std) {
            let mean = acc.clone();
            let mut sq = budget::filled("a reduction", 0.0, m)?;
            for (r, &s) in seg.iter().enumerate() {
                if r % interrupt::CHUNK == 0 {
                    interrupt::check()?;
                }
                for k in 0..inner {
                    let d = v[r * inner + k] - mean[s * inner + k];
                    sq[s * inner + k] += d * d;
                }
            }
            for (i, a) in acc.iter_mut().enumerate() {
                *a = sq[i] / count(i);
                if op == ReduceOp::Std {
                    *a = a.sqrt();
                }
            }
        }
    }
    let data = match dtype {
        DType::Float32 => Buffer::F32(acc.into_iter().map(|x| x as f32).collect()),
        DType::Int32 | DType::Int64 | DType::Float64 => Buffer::F64(acc),
        _ => unreachable!("checked"),
    };
    Ok(Tensor::from_parts(shape, data))
}

#[cfg(test)]
#[allow(clippy::disallowed_methods)] // test inputs: sizes are constants here
mod tests {
    use super::*;

    const OPS: [ReduceOp; 7] = [
        ReduceOp::Sum,
        ReduceOp::Prod,
        ReduceOp::Max,
        ReduceOp::Min,
        ReduceOp::Mean,
        ReduceOp::Variance,
        ReduceOp::Std,
    ];

    /// The one-pass reduction of everything gives what the segment reduction gives with one
    /// segment, for every dtype, op and ragged/dense mean rule, including empty and
    /// overflowing inputs.
    #[test]
    fn reducing_everything_matches_one_segment() {
        let buffers = [
            Buffer::I32(vec![i32::MAX, 7, -3, i32::MAX, 2]),
            Buffer::I64(vec![i64::MAX, 5, -9, 4]),
            Buffer::F32(vec![1.5, -0.25, f32::NAN, 3.0]),
            Buffer::F64(vec![0.1, 0.2, 0.3, -7.5, 1e300]),
            Buffer::I32(vec![]),
            Buffer::F64(vec![]),
        ];
        for data in buffers {
            let n = data.len();
            let t = Tensor::from_parts(vec![n], data.clone());
            for op in OPS {
                for int_mean_float in [false, true] {
                    if int_mean_float && n == 0 && matches!(op, ReduceOp::Max | ReduceOp::Min) {
                        // An empty ragged row's max is the lowest finite value; reducing
                        // everything (the flat values, dense) gives -inf.
                        continue;
                    }
                    let flat = reduce_flat(&data, op, int_mean_float);
                    let seg = segment_reduce_dense(&t, &vec![0; n], 1, op, int_mean_float);
                    match (flat, seg) {
                        (Ok(f), Ok(s)) => assert_eq!(
                            format!("{f:?}"),
                            format!("{:?}", s.data()),
                            "{op:?} of {data:?} (ragged mean: {int_mean_float})"
                        ),
                        (Err(_), Err(_)) => {}
                        (f, s) => panic!("{op:?} of {data:?}: {f:?} against {s:?}"),
                    }
                }
            }
        }
        for (op, want) in [(ReduceOp::Any, true), (ReduceOp::All, false)] {
            let got = reduce_flat(&Buffer::Bool(vec![false, true]), op, false).unwrap();
            assert_eq!(
                format!("{got:?}"),
                format!("{:?}", Buffer::Bool(vec![want]))
            );
        }
    }
}
