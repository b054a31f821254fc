//! Segments: converting row splits to segment ids and back, and `tf.math.segment_sum` /
//! `unsorted_segment_sum` over dense and ragged data (ragged rows add up position by
//! position, so a segment's row is as long as its longest member).

use super::reduce::{segment_reduce, ReduceOp};
use crate::engine::budget;
use crate::engine::error::Result;
use crate::engine::ragged::Array;
use crate::engine::tensor::Tensor;
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

/// `tf.math.segment_sum(data, ids)`: rows with equal (sorted) ids added together; the
/// result has `max(ids) + 1` rows and a missing id gives a row of zeros.
pub fn segment_sum(data: &Array, ids: &Tensor) -> Result<Array> {
    if ids.rank() != 1 {
        return Err(invalid_arg!(
            "segment_ids must be a vector, but has shape {:?}",
            ids.shape()
        ));
    }
    let v = ids
        .to_i64_vec()
        .ok_or_else(|| invalid_arg!("segment_ids must be integers"))?;
    if data.rank() == 0 {
        return Err(invalid_arg!(
            "data must have at least one dimension, but it is a scalar"
        ));
    }
    if v.len() != data.nrows() {
        return Err(invalid_arg!(
            "segment_ids has {} entries, but data has {} rows: they must match",
            v.len(),
            data.nrows()
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
        .with_hint("use tf.math.unsorted_segment_sum for ids in any order"));
    }
    let nseg = v.last().map_or(0, |&l| l as usize + 1);
    let seg: Vec<usize> = v.iter().map(|&x| x as usize).collect();
    segment_reduce(data, &seg, nseg, ReduceOp::Sum, false)
}

/// `tf.math.unsorted_segment_sum(data, ids, num_segments)`: like `segment_sum`, with ids in
/// any order, always `num_segments` output rows, and negative ids dropped. Dense ids may
/// cover several leading dimensions of dense data; ragged ids must match the data's rows.
pub fn unsorted_segment_sum(data: &Array, ids: &Array, num_segments: i64) -> Result<Array> {
    if num_segments < 0 {
        return Err(invalid_arg!(
            "num_segments must be non-negative, not {num_segments}"
        ));
    }
    let (data, ids) = match (data, ids) {
        (_, Array::Ragged(ri)) => {
            let Array::Ragged(rd) = data else {
                return Err(value_error!(
                    "ragged segment ids need ragged data with the same row lengths"
                ));
            };
            let mismatch = rd
                .partitions()
                .iter()
                .zip(ri.partitions())
                .any(|(a, b)| a.row_splits() != b.row_splits());
            if rd.ragged_rank() < ri.ragged_rank() || mismatch {
                return Err(invalid_arg!(
                    "segment_ids and data have different row lengths"
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
    let v = ids
        .to_i64_vec()
        .ok_or_else(|| invalid_arg!("segment_ids must be integers"))?;
    let data = match &data {
        Array::Dense(t) => {
            if k > t.rank() || t.shape()[..k] != *ids.shape() {
                return Err(invalid_arg!(
                    "segment_ids has shape {:?}, which is not a prefix of data's shape {:?}",
                    ids.shape(),
                    t.shape()
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
    // Negative ids drop their rows.
    let keep: Vec<usize> = (0..v.len()).filter(|&i| v[i] >= 0).collect();
    let data = if keep.len() == v.len() {
        data
    } else {
        data.gather_rows(&keep)
    };
    let seg: Vec<usize> = keep.iter().map(|&i| v[i] as usize).collect();
    segment_reduce(&data, &seg, num_segments as usize, ReduceOp::Sum, false)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::buffer::Buffer;
    use crate::engine::partition::RowPartition;
    use crate::engine::ragged::Ragged;

    #[test]
    fn hostile_splits_and_ids_fail_cleanly() {
        use crate::engine::ErrorClass;
        // A decreasing split after a huge one, and splits spanning all of int64.
        let e = row_splits_to_segment_ids(&[0, 1 << 62, 3]).unwrap_err();
        assert_eq!(e.class, ErrorClass::InvalidArgumentError);
        let e = row_splits_to_segment_ids(&[i64::MIN, 3, i64::MAX]).unwrap_err();
        assert_eq!(e.class, ErrorClass::ResourceExhaustedError);
        let e = segment_ids_to_row_splits(&[0, 1 << 62], None).unwrap_err();
        assert_eq!(e.class, ErrorClass::ResourceExhaustedError);
        let e = segment_ids_to_row_splits(&[0, i64::MAX], None).unwrap_err();
        assert_eq!(e.class, ErrorClass::ResourceExhaustedError);
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
            Array::Dense(Tensor::new(vec![3, 2], Buffer::I32(vec![1, 2, 3, 4, 5, 6])).unwrap());
        let ids = Tensor::from_i64(vec![0, 0, 2]);
        let Array::Dense(out) = segment_sum(&data, &ids).unwrap() else {
            panic!()
        };
        assert_eq!(out.shape(), &[3, 2]);
        assert_eq!(out.data(), &Buffer::I32(vec![4, 6, 0, 0, 5, 6]));
        assert!(segment_sum(&data, &Tensor::from_i64(vec![1, 0, 0])).is_err());
        assert!(segment_sum(&data, &Tensor::from_i64(vec![0, 0])).is_err());
        let ids = Array::Dense(Tensor::from_i64(vec![1, -1, 1]));
        let Array::Dense(out) = unsorted_segment_sum(&data, &ids, 2).unwrap() else {
            panic!()
        };
        assert_eq!(out.data(), &Buffer::I32(vec![0, 0, 6, 8]));
        assert!(
            unsorted_segment_sum(&data, &Array::Dense(Tensor::from_i64(vec![0, 1, 2])), 2).is_err()
        );
        let rt = Array::Ragged(
            Ragged::new(
                vec![RowPartition::from_row_lengths(&[2, 1, 3], None).unwrap()],
                Tensor::vector(Buffer::I32(vec![1, 2, 3, 4, 5, 6])),
            )
            .unwrap(),
        );
        let Array::Ragged(out) = segment_sum(&rt, &Tensor::from_i64(vec![0, 0, 1])).unwrap() else {
            panic!()
        };
        assert_eq!(out.row_lengths(), &[2, 3]);
        assert_eq!(out.flat_values().to_i64_vec().unwrap(), vec![4, 2, 4, 5, 6]);
    }
}
