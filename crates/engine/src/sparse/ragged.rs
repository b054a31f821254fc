//! Between sparse and ragged. Every value of a ragged tensor is a stored entry of its sparse
//! form (`RaggedTensor.to_sparse`); back again, a sparse tensor is ragged only when it is
//! *right-ragged*: each row's entries fill positions 0, 1, 2, … with no holes, because a
//! ragged row has nowhere to keep a hole (`RaggedTensor.from_sparse`).

use super::{index_text, Sparse};
use crate::budget;
use crate::error::Result;
use crate::exceptions::Exception;
use crate::partition::RowPartition;
use crate::ragged::Ragged;
use crate::tensor::{numel, Tensor};
use crate::{invalid_arg, value_error};

/// The hint shared by the "not right-ragged" errors.
const KEEP_HOLES: &str = "a ragged row cannot have holes: keep them as default values with tf.sparse.to_dense(st), or build rows without gaps";

/// The indices `[row, column]` of every value of a ragged matrix with these row splits, in
/// order, written in one pass (no zero-fill).
fn matrix_indices(splits: &[i64]) -> Vec<i64> {
    let nvals = splits.last().map_or(0, |&n| n as usize);
    // Two per value of an existing tensor; where the allocator refuses, it grows as it goes.
    let mut indices = Vec::new();
    let _ = indices.try_reserve_exact(2 * nvals);
    for (row, w) in splits.windows(2).enumerate() {
        for col in 0..w[1] - w[0] {
            indices.push(row as i64);
            indices.push(col);
        }
    }
    indices
}

impl Sparse {
    /// The sparse form of a ragged tensor (`rt.to_sparse()`): one entry per value, in
    /// row-major order; the dense shape is the ragged tensor's bounding shape.
    pub fn from_ragged(r: &Ragged) -> Sparse {
        let parts = r.partitions();
        let fv = r.flat_values();
        let inner = &fv.shape()[1..];
        let inner_size = numel(inner);
        let nflat = fv.shape()[0];
        let rr = parts.len();
        let dense_shape = || r.bounding_shape().iter().map(|&d| d as i64).collect();
        if rr == 1 && inner.is_empty() {
            // A matrix: one pass over the row splits writes each value's (row, column).
            let indices = matrix_indices(parts[0].row_splits());
            return Sparse::from_parts(indices, Tensor::vector(fv.data().clone()), dense_shape());
        }
        // One index row per value of an existing tensor: grows as it is filled.
        let mut indices = Vec::new();
        #[allow(clippy::disallowed_methods)] // rank-sized
        let (mut prefix, mut inner_idx) = (vec![0i64; rr + 1], vec![0i64; inner.len()]);
        for v in 0..nflat {
            // Climb from the value to the outer row: at each level, its row and position.
            let mut child = v;
            for k in (0..rr).rev() {
                let p = &parts[k];
                let parent = p.value_rowids()[child] as usize;
                prefix[k + 1] = (child - p.row_splits()[parent] as usize) as i64;
                child = parent;
            }
            prefix[0] = child as i64;
            for e in 0..inner_size {
                let mut rest = e;
                for d in (0..inner.len()).rev() {
                    inner_idx[d] = (rest % inner[d]) as i64;
                    rest /= inner[d];
                }
                indices.extend_from_slice(&prefix);
                indices.extend_from_slice(&inner_idx);
            }
        }
        Sparse::from_parts(indices, Tensor::vector(fv.data().clone()), dense_shape())
    }

    /// The ragged tensor of a right-ragged sparse tensor (`RaggedTensor.from_sparse`),
    /// every dimension after the first ragged. Rows may be empty; inner rows cannot (they
    /// would be holes).
    pub fn to_ragged(&self) -> Result<Ragged> {
        let r = self.rank();
        if r < 2 {
            return Err(value_error!(
                "a rank-{r} SparseTensor has no rows, so it cannot become ragged: a ragged tensor has rank 2 or more"
            )
            .with_hint("convert it with tf.sparse.to_dense(st) instead"));
        }
        self.check_bounds()?;
        if r == 2 {
            if let Some(part) = self.matrix_partition()? {
                return Ragged::new(vec![part], self.values.clone());
            }
        }
        // rowids[k]: for each item of partition k's values, the row it belongs to.
        let mut rowids: Vec<Vec<i64>> =
            budget::filled("a ragged-sparse conversion", Vec::new(), r - 1)?;
        // count[l]: how many items exist at depth l (depth r-1 items are the values).
        let mut count = budget::filled("a ragged-sparse conversion", 0i64, r)?;
        for i in 0..self.nnz() {
            let idx = self.index(i);
            let k = if i == 0 { 0 } else { self.ragged_step(i)? };
            if let Some(d) = ((k + 1).max(1)..r).find(|&d| idx[d] != 0) {
                return Err(invalid_arg!(
                    "SparseTensor is not right-ragged: indices[{i}] = {} starts row {} at position {} instead of 0",
                    index_text(idx),
                    index_text(&idx[..d]),
                    idx[d]
                )
                .with_hint(KEEP_HOLES));
            }
            for l in k.max(1)..r {
                let parent = if l == 1 { idx[0] } else { count[l - 1] - 1 };
                rowids[l - 1].push(parent);
                count[l] += 1;
            }
        }
        let mut parts = budget::vec("a ragged-sparse conversion", r - 1)?;
        for (k, ids) in rowids.iter().enumerate() {
            let nrows = if k == 0 {
                self.dense_shape[0]
            } else {
                count[k]
            };
            parts.push(RowPartition::from_value_rowids(ids, Some(nrows))?);
        }
        Ragged::new(parts, self.values.clone())
    }

    /// The row partition of a right-ragged matrix (rank 2), written in one pass over the
    /// indices with no row id per value; None at the first entry that breaks right-raggedness,
    /// where the general pass takes over and reports it. Bounds are already checked.
    fn matrix_partition(&self) -> Result<Option<RowPartition>> {
        let nrows = self.dense_shape[0] as usize;
        let mut splits = budget::vec("a row partition", nrows + 1)?;
        splits.push(0i64);
        let (mut row, mut next_col) = (0i64, 0i64);
        for (i, pair) in self.indices.chunks_exact(2).enumerate() {
            let (r, c) = (pair[0], pair[1]);
            if r != row || i == 0 {
                // A new row starts at column 0, after every row before it.
                if c != 0 || r < row {
                    return Ok(None);
                }
                let gap = r as usize + 1 - splits.len();
                budget::extend_filled("a row partition", &mut splits, i as i64, gap)?;
                row = r;
            } else if c != next_col {
                return Ok(None);
            }
            next_col = c + 1;
        }
        let rest = nrows + 1 - splits.len();
        budget::extend_filled("a row partition", &mut splits, self.nnz() as i64, rest)?;
        Ok(Some(RowPartition::from_valid_splits(splits)))
    }

    /// For entry `i > 0`, the first dimension where it differs from entry `i - 1`, after
    /// checking that it continues the previous row or starts a new one without a gap.
    fn ragged_step(&self, i: usize) -> Result<usize, Exception> {
        let (prev, idx) = (self.index(i - 1), self.index(i));
        let Some(d) = (0..self.rank()).find(|&d| idx[d] != prev[d]) else {
            return Err(invalid_arg!(
                "SparseTensor is not right-ragged: indices[{i}] = {} repeats indices[{}]",
                index_text(idx),
                i - 1
            )
            .with_hint("a SparseTensor holds one value per position: drop the duplicate with tf.sparse.retain"));
        };
        if idx[d] < prev[d] {
            return Err(invalid_arg!(
                "SparseTensor is not right-ragged: indices[{i}] = {} comes before indices[{}] = {}, so the indices are not in row-major order",
                index_text(idx),
                i - 1,
                index_text(prev)
            )
            .with_hint("sort them first with tf.sparse.reorder(st)"));
        }
        if d >= 1 && idx[d] != prev[d] + 1 {
            return Err(invalid_arg!(
                "SparseTensor is not right-ragged: indices[{i}] = {} follows indices[{}] = {}, leaving a hole at position{} {} of row {}",
                index_text(idx),
                i - 1,
                index_text(prev),
                if idx[d] - prev[d] > 2 { "s" } else { "" },
                if idx[d] - prev[d] > 2 {
                    format!("{}..{}", prev[d] + 1, idx[d] - 1)
                } else {
                    (prev[d] + 1).to_string()
                },
                index_text(&idx[..d])
            )
            .with_hint(KEEP_HOLES));
        }
        Ok(d)
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{rows, sp, vals};
    use super::*;
    use crate::buffer::Buffer;
    use crate::ExceptionClass;

    fn ragged(splits: &[i64], values: &[i32]) -> Ragged {
        Ragged::new(
            vec![RowPartition::from_row_splits(splits.to_vec(), Some(values.len())).unwrap()],
            Tensor::vector(Buffer::I32(values.to_vec().into())),
        )
        .unwrap()
    }

    #[test]
    fn ragged_to_sparse() {
        let r = ragged(&[0, 2, 2, 5], &[1, 2, 3, 4, 5]);
        let s = Sparse::from_ragged(&r);
        assert_eq!(s.dense_shape(), &[3, 3]);
        assert_eq!(
            rows(&s),
            vec![vec![0, 0], vec![0, 1], vec![2, 0], vec![2, 1], vec![2, 2]]
        );
        assert_eq!(s.to_ragged().unwrap(), r);
    }

    #[test]
    fn uniform_inner_dims_become_coordinates() {
        let part = RowPartition::from_row_splits(vec![0, 1, 3], Some(3)).unwrap();
        let fv = Tensor::new(vec![3, 2], Buffer::from(vec![1i32, 2, 3, 4, 5, 6])).unwrap();
        let r = Ragged::new(vec![part], fv).unwrap();
        let s = Sparse::from_ragged(&r);
        assert_eq!(s.dense_shape(), &[2, 2, 2]);
        assert_eq!(rows(&s)[2], vec![1, 0, 0]);
        assert_eq!(vals(&s), vec![1, 2, 3, 4, 5, 6]);
        // Back, every dimension after the first is ragged.
        let back = s.to_ragged().unwrap();
        assert_eq!(back.ragged_rank(), 2);
        assert_eq!(back.flat_values().size(), 6);
    }

    #[test]
    fn from_sparse_needs_right_ragged_rows() {
        let st = sp(&[&[0, 0], &[2, 0], &[2, 1]], &[1, 2, 3], &[3, 3]);
        let r = st.to_ragged().unwrap();
        assert_eq!(r.row_lengths(), &[1, 0, 2]);
        let hole = sp(&[&[0, 1], &[0, 3], &[2, 0]], &[1, 2, 3], &[3, 5]);
        let e = hole.to_ragged().unwrap_err();
        assert_eq!(e.class, ExceptionClass::InvalidArgumentError);
        assert!(e.message.contains("not right-ragged"), "{}", e.message);
        let gap = sp(&[&[0, 0], &[0, 2]], &[1, 2], &[1, 3]);
        assert!(gap
            .to_ragged()
            .unwrap_err()
            .message
            .contains("hole at position 1 of row [0]"));
        let unordered = sp(&[&[1, 0], &[0, 0]], &[1, 2], &[2, 1]);
        assert!(unordered
            .to_ragged()
            .unwrap_err()
            .hint
            .unwrap()
            .contains("reorder"));
        let vector = sp(&[&[1]], &[1], &[2]);
        assert_eq!(
            vector.to_ragged().unwrap_err().class,
            ExceptionClass::ValueError
        );
    }

    #[test]
    fn a_matrix_becomes_ragged_in_one_pass_with_its_empty_rows() {
        // Row lengths with empty rows first, inside and last, against row ids.
        for lengths in [
            vec![0, 0, 3, 0, 1, 2, 0],
            vec![2],
            vec![0, 0],
            vec![1, 0, 0, 4],
        ] {
            let mut idx: Vec<Vec<i64>> = Vec::new();
            let mut ids = Vec::new();
            for (r, &n) in lengths.iter().enumerate() {
                for c in 0..n {
                    idx.push(vec![r as i64, c]);
                    ids.push(r as i64);
                }
            }
            let refs: Vec<&[i64]> = idx.iter().map(|v| v.as_slice()).collect();
            let values: Vec<i32> = (0..ids.len() as i32).collect();
            let st = sp(&refs, &values, &[lengths.len() as i64, 5]);
            let r = st.to_ragged().unwrap();
            let want = RowPartition::from_value_rowids(&ids, Some(lengths.len() as i64)).unwrap();
            assert_eq!(r.outer().row_splits(), want.row_splits(), "{lengths:?}");
        }
        // A repeated entry and a row that restarts are the general pass's errors.
        let repeat = sp(&[&[0, 0], &[0, 0]], &[1, 2], &[1, 3]);
        assert!(repeat.to_ragged().unwrap_err().message.contains("repeats"));
        let back = sp(&[&[0, 0], &[0, 1], &[0, 0]], &[1, 2, 3], &[1, 3]);
        assert!(back.to_ragged().is_err());
    }
}
