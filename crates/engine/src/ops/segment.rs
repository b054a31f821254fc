//! Segments: converting row splits to segment ids and back, and `tf.math.segment_sum` /
//! `unsorted_segment_sum` over dense and ragged data (ragged rows add up position by
//! position, so a segment's row is as long as its longest member).

use crate::budget;
use crate::error::Result;
use crate::ops::accumulate::{self, Fold};
use crate::ragged::Array;
use crate::size::dense_shape_str;
use crate::tensor::Tensor;
use crate::{invalid_arg, value_error};

/// `tf.ragged.row_splits_to_segment_ids(splits)`: the row of each value.
pub fn row_splits_to_segment_ids(splits: &[i64]) -> Result<Vec<i64>> {
    if splits.is_empty() {
        return Err(value_error!(
            "row_splits must not be empty: it needs at least the leading 0"
        ));
    }
    // Validate every split before allocating: the total is then last - first, computed
    // without overflow.
    for (row, w) in splits.windows(2).enumerate() {
        if w[1] < w[0] {
            return Err(invalid_arg!(
                "row_splits must not decrease, but splits[{}] = {} follows {}",
                row + 1,
                w[1],
                w[0]
            ));
        }
    }
    let total = splits[splits.len() - 1] as i128 - splits[0] as i128;
    budget::check(
        "tf.ragged.row_splits_to_segment_ids",
        total as u128,
        std::mem::size_of::<i64>(),
    )?;
    let mut out = budget::vec("tf.ragged.row_splits_to_segment_ids", total as usize)?;
    for (row, w) in splits.windows(2).enumerate() {
        out.extend(std::iter::repeat_n(
            row as i64,
            (w[1] as i128 - w[0] as i128) as usize,
        ));
    }
    Ok(out)
}

/// `tf.ragged.segment_ids_to_row_splits(ids, num_segments)`: splits whose row `i` is as long
/// as the number of ids equal to `i`. Ids need not be sorted; with `num_segments`, larger
/// ids are ignored.
pub fn segment_ids_to_row_splits(ids: &[i64], num_segments: Option<i64>) -> Result<Vec<i64>> {
    if let Some(i) = ids.iter().position(|&x| x < 0) {
        return Err(invalid_arg!(
            "segment ids must be non-negative, but ids[{i}] = {}",
            ids[i]
        ));
    }
    if let Some(n) = num_segments.filter(|&n| n < 0) {
        return Err(invalid_arg!("num_segments must be non-negative, not {n}"));
    }
    let n = match num_segments {
        Some(n) => n as usize,
        None => ids.iter().max().map_or(0, |&m| m as usize + 1),
    };
    let mut counts = budget::filled("a segment op", 0i64, n)?;
    for &id in ids {
        if let Some(c) = counts.get_mut(id as usize) {
            *c += 1;
        }
    }
    let mut splits = budget::vec("a segment op", n + 1)?;
    splits.push(0);
    for c in counts {
        splits.push(splits[splits.len() - 1] + c);
    }
    Ok(splits)
}

/// Which segment combination (`tf.math.segment_<op>` / `unsorted_segment_<op>`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SegOp {
    /// `segment_sum`
    Sum,
    /// `segment_prod`
    Prod,
    /// `segment_min`
    Min,
    /// `segment_max`
    Max,
    /// `segment_mean`
    Mean,
    /// `unsorted_segment_sqrt_n`: the sum over the square root of the count.
    SqrtN,
}

impl SegOp {
    /// The op's suffix (`sum`, `sqrt_n`, …).
    pub fn name(self) -> &'static str {
        match self {
            SegOp::Sum => "sum",
            SegOp::Prod => "prod",
            SegOp::Min => "min",
            SegOp::Max => "max",
            SegOp::Mean => "mean",
            SegOp::SqrtN => "sqrt_n",
        }
    }
}

/// `tf.math.segment_<op>(data, ids)`: rows with equal (sorted) ids combined; the result has
/// `max(ids) + 1` rows and a missing id gives a row of zeros (ones for prod).
pub fn segment_op(data: &Tensor, ids: &Tensor, op: SegOp) -> Result<Array> {
    if ids.rank() != 1 {
        return Err(invalid_arg!(
            "segment_ids should be a vector, but has shape {}",
            dense_shape_str(ids.shape())
        ));
    }
    super::check_int_ids(&Array::Dense(ids.clone()), "segment_ids")?;
    if op == SegOp::Sum {
        if let Some(t) = super::segment_fast::sorted_sum(data, ids)? {
            return Ok(Array::Dense(t));
        }
    }
    let v = ids
        .to_i64_vec()
        .ok_or_else(|| invalid_arg!("segment_ids must be integers"))?;
    if data.rank() == 0 {
        return Err(invalid_arg!(
            "data must have at least one dimension, but it is a scalar"
        ));
    }
    if v.len() != data.shape()[0] {
        return Err(invalid_arg!(
            "segment_ids has {} entries, but data has {} rows: they must match",
            v.len(),
            data.shape()[0]
        ));
    }
    if let Some(i) = v.iter().position(|&x| x < 0) {
        return Err(invalid_arg!(
            "segment ids must be non-negative, but segment_ids[{i}] = {}",
            v[i]
        ));
    }
    if let Some(i) = v.windows(2).position(|w| w[1] < w[0]) {
        return Err(invalid_arg!(
            "segment ids must be sorted, but segment_ids[{}] = {} follows {}",
            i + 1,
            v[i + 1],
            v[i]
        )
        .with_hint(format!(
            "use tf.math.unsorted_segment_{} for ids in any order",
            op.name()
        )));
    }
    let nseg = match v.last() {
        None => 0,
        Some(&l) => sized("a reduction", l as u128 + 1)?,
    };
    let seg: Vec<usize> = v.iter().map(|&x| x as usize).collect();
    combine_dense(data, &seg, nseg, op, true).map(Array::Dense)
}

/// `tf.math.unsorted_segment_<op>(data, ids, num_segments)`: ids in any order, always
/// `num_segments` output rows, and negative ids dropped (an error for ragged data). Dense ids may cover several
/// leading dimensions of dense data; ragged ids must match the data's rows. Ragged data
/// combines position by position, so a segment's row is as long as its longest member.
pub fn unsorted_segment_op(
    data: &Array,
    ids: &Array,
    num_segments: i64,
    op: SegOp,
) -> Result<Array> {
    if num_segments < 0 {
        return Err(invalid_arg!(
            "num_segments must not be negative, but it is {num_segments}"
        ));
    }
    let (data, ids) = match (data, ids) {
        (_, Array::Ragged(ri)) => {
            let Array::Ragged(rd) = data else {
                return Err(value_error!(
                    "segment_ids.shape must be a prefix of data.shape, but segment_ids is ragged and data is not"
                ));
            };
            let mismatch = rd
                .partitions()
                .iter()
                .zip(ri.partitions())
                .any(|(a, b)| a.row_splits() != b.row_splits());
            if rd.ragged_rank() < ri.ragged_rank() || mismatch {
                return Err(invalid_arg!(
                    "segment_ids.shape must be a prefix of data.shape: their row lengths differ"
                ));
            }
            let mut d = data.clone();
            for _ in 0..ri.ragged_rank() {
                d = match d {
                    Array::Ragged(r) => r.values(),
                    dense => dense,
                };
            }
            (d, ri.flat_values().clone())
        }
        (_, Array::Dense(t)) => (data.clone(), t.clone()),
    };
    let k = ids.rank();
    super::check_int_ids(&Array::Dense(ids.clone()), "segment_ids")?;
    let v = ids
        .to_i64_vec()
        .ok_or_else(|| invalid_arg!("segment_ids must be integers"))?;
    let data = match &data {
        Array::Dense(t) => {
            if k > t.rank() || t.shape()[..k] != *ids.shape() {
                return Err(invalid_arg!(
                    "segment_ids has shape {}, which is not a prefix of data's shape {}",
                    dense_shape_str(ids.shape()),
                    dense_shape_str(t.shape())
                ));
            }
            let mut shape = vec![v.len()];
            shape.extend_from_slice(&t.shape()[k..]);
            Array::Dense(t.reshaped(shape)?)
        }
        Array::Ragged(r) => {
            if k != 1 || v.len() != r.nrows() {
                return Err(invalid_arg!(
                    "segment_ids must be a vector with one id per row of the ragged data ({} rows)",
                    r.nrows()
                ));
            }
            data
        }
    };
    if let Some(i) = v.iter().position(|&x| x >= num_segments) {
        return Err(invalid_arg!(
            "segment_ids[{i}] = {} is out of range [0, {num_segments})",
            v[i]
        ));
    }
    if matches!(data, Array::Ragged(_)) {
        if let Some(i) = v.iter().position(|&x| x < 0) {
            // TensorFlow drops negative ids for dense data only.
            return Err(invalid_arg!(
                "segment_ids[{i}] = {} is negative, which ragged data does not allow",
                v[i]
            ));
        }
    }
    let nseg = sized("a reduction", num_segments as u128)?;
    if let (SegOp::Sum, Array::Dense(t)) = (op, &data) {
        if let Some(out) = super::segment_fast::sum_rows(t, &v, nseg)? {
            return Ok(Array::Dense(out));
        }
    }
    // Negative ids drop their rows.
    let keep: Vec<usize> = (0..v.len()).filter(|&i| v[i] >= 0).collect();
    let data = if keep.len() == v.len() {
        data
    } else {
        data.gather_rows(&keep)
    };
    let seg: Vec<usize> = keep.iter().map(|&i| v[i] as usize).collect();
    combine(&data, &seg, nseg, op)
}

/// `n` as a size, once the memory budget allows `n` eight-byte elements.
fn sized(what: &str, n: u128) -> Result<usize> {
    budget::check(what, n, 8)?;
    Ok(n as usize)
}

/// What the memory budget calls a segment op's allocations.
const WHAT: &str = "a segment reduction";

/// Combines the rows of `data` that share a segment id (unsorted rules); ragged rows
/// combine position by position.
fn combine(data: &Array, seg: &[usize], nseg: usize, op: SegOp) -> Result<Array> {
    accumulate::by_segments(WHAT, data, seg, nseg, &|t, seg, nseg| {
        combine_dense(t, seg, nseg, op, false)
    })
}

/// How `op` folds values (a mean and `sqrt_n` start as a sum).
fn fold_of(op: SegOp) -> Fold {
    match op {
        SegOp::Prod => Fold::Prod,
        SegOp::Max => Fold::Max,
        SegOp::Min => Fold::Min,
        SegOp::Sum | SegOp::Mean | SegOp::SqrtN => Fold::Sum,
    }
}

/// The dense core: rows of `t` (shape `[n, inner…]`) combine into `nseg` output rows.
/// Empty segments give 0 (1 for prod); with `sorted` false, min and max of an empty segment
/// give the dtype's largest and lowest finite values instead, as TensorFlow's unsorted ops do.
/// Integer means: the sorted op truncates, the unsorted one divides in float64.
fn combine_dense(
    t: &Tensor,
    seg: &[usize],
    nseg: usize,
    op: SegOp,
    sorted: bool,
) -> Result<Tensor> {
    let dtype = t.dtype();
    if !dtype.is_numeric() {
        return Err(invalid_arg!(
            "segment_{} is not defined for {dtype} data",
            op.name()
        ));
    }
    if op == SegOp::SqrtN && !dtype.is_float() {
        return Err(
            invalid_arg!("unsorted_segment_sqrt_n needs float data, not {dtype}")
                .with_hint("cast first: tf.cast(data, tf.float32)"),
        );
    }
    let inner = t.row_size();
    let mut shape = t.shape().to_vec();
    shape[0] = nseg;
    let m = sized(WHAT, nseg as u128 * inner as u128)?;
    let counts = accumulate::counts(WHAT, seg, nseg)?;
    let count = |i: usize| counts[i / inner.max(1)];
    let fold = fold_of(op);
    let int_path = dtype.is_int() && (op != SegOp::Mean || sorted);
    if int_path {
        let v = accumulate::widen_ints(t.data())?.expect("integer data");
        let (lo, hi) = accumulate::int_bounds(dtype);
        let init = accumulate::identity(fold, lo, hi);
        let mut acc = accumulate::accumulate(WHAT, &v, seg, inner, m, fold, init)?;
        for (i, a) in acc.iter_mut().enumerate() {
            let c = count(i);
            if c == 0 && (sorted || op == SegOp::Mean) && op != SegOp::Prod {
                *a = 0;
            } else if op == SegOp::Mean && c > 0 {
                *a /= c as i64;
            }
        }
        return Ok(Tensor::from_parts(
            shape,
            accumulate::narrow_ints(acc, dtype),
        ));
    }
    let v = accumulate::widen_floats(t.data())?.expect("numeric data");
    let (lo, hi) = accumulate::finite_bounds(dtype);
    let init = accumulate::identity(fold, lo, hi);
    let mut acc = accumulate::accumulate(WHAT, &v, seg, inner, m, fold, init)?;
    for (i, a) in acc.iter_mut().enumerate() {
        let c = count(i);
        if c == 0 {
            if sorted && op != SegOp::Prod {
                *a = 0.0;
            }
            continue;
        }
        match op {
            SegOp::Mean => *a /= c as f64,
            SegOp::SqrtN => *a /= (c as f64).sqrt(),
            _ => {}
        }
    }
    Ok(Tensor::from_parts(
        shape,
        accumulate::narrow_floats(acc, dtype),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::buffer::Buffer;
    use crate::partition::RowPartition;
    use crate::ragged::Ragged;

    #[test]
    fn hostile_splits_and_ids_fail_cleanly() {
        use crate::ExceptionClass;
        // A decreasing split after a huge one, and splits spanning all of int64.
        let e = row_splits_to_segment_ids(&[0, 1 << 62, 3]).unwrap_err();
        assert_eq!(e.class, ExceptionClass::InvalidArgumentError);
        let e = row_splits_to_segment_ids(&[i64::MIN, 3, i64::MAX]).unwrap_err();
        assert_eq!(e.class, ExceptionClass::ResourceExhaustedError);
        let e = segment_ids_to_row_splits(&[0, 1 << 62], None).unwrap_err();
        assert_eq!(e.class, ExceptionClass::ResourceExhaustedError);
        let e = segment_ids_to_row_splits(&[0, i64::MAX], None).unwrap_err();
        assert_eq!(e.class, ExceptionClass::ResourceExhaustedError);
    }

    #[test]
    fn ids_and_splits() {
        assert_eq!(
            row_splits_to_segment_ids(&[0, 3, 3, 5]).unwrap(),
            vec![0, 0, 0, 2, 2]
        );
        assert_eq!(row_splits_to_segment_ids(&[0]).unwrap(), Vec::<i64>::new());
        assert!(row_splits_to_segment_ids(&[]).is_err());
        assert!(row_splits_to_segment_ids(&[0, 2, 1]).is_err());
        assert_eq!(
            segment_ids_to_row_splits(&[0, 0, 2], None).unwrap(),
            vec![0, 2, 2, 3]
        );
        assert_eq!(segment_ids_to_row_splits(&[], None).unwrap(), vec![0]);
        assert_eq!(
            segment_ids_to_row_splits(&[0, 5], Some(2)).unwrap(),
            vec![0, 1, 1]
        );
        assert!(segment_ids_to_row_splits(&[-1], None).is_err());
    }

    #[test]
    fn sums() {
        let data =
            Array::Dense(Tensor::new(vec![3, 2], Buffer::from(vec![1i32, 2, 3, 4, 5, 6])).unwrap());
        let ids = Tensor::from_i64(vec![0, 0, 2]);
        let Array::Dense(dt) = &data else { panic!() };
        let Array::Dense(out) = segment_op(dt, &ids, SegOp::Sum).unwrap() else {
            panic!()
        };
        assert_eq!(out.shape(), &[3, 2]);
        assert_eq!(out.data(), &Buffer::from(vec![4i32, 6, 0, 0, 5, 6]));
        assert!(segment_op(dt, &Tensor::from_i64(vec![1, 0, 0]), SegOp::Sum).is_err());
        assert!(segment_op(dt, &Tensor::from_i64(vec![0, 0]), SegOp::Sum).is_err());
        let ids = Array::Dense(Tensor::from_i64(vec![1, -1, 1]));
        let Array::Dense(out) = unsorted_segment_op(&data, &ids, 2, SegOp::Sum).unwrap() else {
            panic!()
        };
        assert_eq!(out.data(), &Buffer::from(vec![0i32, 0, 6, 8]));
        assert!(unsorted_segment_op(
            &data,
            &Array::Dense(Tensor::from_i64(vec![0, 1, 2])),
            2,
            SegOp::Sum
        )
        .is_err());
        let rt = Array::Ragged(
            Ragged::new(
                vec![RowPartition::from_row_lengths(&[2, 1, 3], None).unwrap()],
                Tensor::vector(Buffer::from(vec![1i32, 2, 3, 4, 5, 6])),
            )
            .unwrap(),
        );
        let ids = Array::Dense(Tensor::from_i64(vec![0, 0, 1]));
        let Array::Ragged(out) = unsorted_segment_op(&rt, &ids, 2, SegOp::Sum).unwrap() else {
            panic!()
        };
        assert_eq!(out.row_lengths(), &[2, 3]);
        assert_eq!(out.flat_values().to_i64_vec().unwrap(), vec![4, 2, 4, 5, 6]);
    }
}
