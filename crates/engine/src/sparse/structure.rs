//! Ops that move entries around without combining values: concat, retain, fill_empty_rows,
//! slice, reshape, transpose.

use super::Sparse;
use crate::buffer::{Buffer, Scalar};
use crate::error::Result;
use crate::exceptions::ExceptionClass;
use crate::ops::positive_axis;
use crate::size::dense_shape_str;
use crate::tensor::Tensor;
use crate::{budget, size};
use crate::{invalid_arg, type_error, value_error};

impl Sparse {
    /// `tf.sparse.concat`: the inputs side by side along `axis`; the other dimensions must
    /// agree unless `expand_nonconcat` (then they grow to the largest). The result is in
    /// row-major order whatever the inputs' order.
    pub fn concat(axis: i64, inputs: &[&Sparse], expand_nonconcat: bool) -> Result<Sparse> {
        let Some(first) = inputs.first() else {
            return Err(value_error!(
                "tf.sparse.concat needs at least one SparseTensor"
            ));
        };
        if inputs.len() == 1 {
            // Like TensorFlow, a single input comes back as it is, whatever the axis.
            return Ok((*first).clone());
        }
        let rank = first.rank();
        let axis = positive_axis(axis, rank, ExceptionClass::InvalidArgumentError, "axis")?;
        let mut shape = first.dense_shape.clone();
        shape[axis] = 0;
        for (k, s) in inputs.iter().enumerate() {
            if s.rank() != rank {
                return Err(invalid_arg!(
                    "every input must have the same rank: input 0 has rank {rank}, input {k} has rank {}",
                    s.rank()
                ));
            }
            if s.dtype() != first.dtype() {
                return Err(invalid_arg!(
                    "every input must have the same dtype: input 0 holds {}, input {k} holds {}",
                    first.dtype(),
                    s.dtype()
                ));
            }
            for d in (0..rank).filter(|&d| d != axis) {
                if s.dense_shape[d] != first.dense_shape[d] {
                    if !expand_nonconcat {
                        return Err(invalid_arg!(
                            "input shapes must match except along axis {axis}: input 0 has {} in dimension {d}, input {k} has {}",
                            first.dense_shape[d],
                            s.dense_shape[d]
                        )
                        .with_hint("pass expand_nonconcat_dims=True to grow the other dimensions to the largest"));
                    }
                    shape[d] = shape[d].max(s.dense_shape[d]);
                }
            }
            shape[axis] += s.dense_shape[axis];
        }
        let nnz: usize = inputs.iter().map(|s| s.nnz()).sum();
        let mut indices = budget::vec("a sparse op", nnz * rank)?;
        let mut offset = 0;
        for s in inputs {
            for i in 0..s.nnz() {
                let start = indices.len();
                indices.extend_from_slice(s.index(i));
                indices[start + axis] += offset;
            }
            offset += s.dense_shape[axis];
        }
        let parts: Vec<&Buffer> = inputs.iter().map(|s| s.values.data()).collect();
        let values = Tensor::vector(Buffer::concat(first.dtype(), &parts)?);
        Ok(Sparse::from_parts(indices, values, shape).reorder())
    }

    /// `tf.sparse.retain`: the entries whose flag is true, in their order.
    pub fn retain(&self, keep: &[bool]) -> Result<Sparse> {
        if keep.len() != self.nnz() {
            return Err(value_error!(
                "to_retain has {} flags, but the sparse tensor stores {} values; it needs one flag per value",
                keep.len(),
                self.nnz()
            ));
        }
        let order: Vec<usize> = (0..keep.len()).filter(|&i| keep[i]).collect();
        Ok(self.gather_entries(&order))
    }

    /// `tf.sparse.fill_empty_rows`: every row with no stored value gets `default` at column
    /// 0. Returns the filled tensor (grouped by row, each row's entries in their order) and
    /// which rows were empty.
    pub fn fill_empty_rows(&self, default: &Scalar) -> Result<(Sparse, Vec<bool>)> {
        if self.rank() == 0 {
            return Err(invalid_arg!(
                "fill_empty_rows needs rows: the sparse tensor must have rank at least 1"
            ));
        }
        if default.dtype() != self.dtype() {
            return Err(type_error!(
                "default_value has dtype {}, but the values have dtype {}",
                default.dtype(),
                self.dtype()
            ));
        }
        const WHAT: &str = "tf.sparse.fill_empty_rows";
        let nrows = self.dense_shape[0] as usize;
        // The output has up to `nrows + nnz` entries: per entry its counting-sort slots, its
        // index row and its value.
        let entries = nrows as u128 + self.nnz() as u128;
        let per_entry =
            4 * std::mem::size_of::<usize>() + 8 * self.rank() + self.dtype().item_bytes();
        budget::check(WHAT, entries, per_entry)?;
        let mut count = budget::filled(WHAT, 0usize, nrows)?;
        for i in 0..self.nnz() {
            let r = self.index(i)[0];
            if r < 0 || r as usize >= nrows {
                return Err(invalid_arg!(
                    "indices[{i}] has row {r}, but dense_shape {} has {nrows} rows",
                    dense_shape_str(&self.dense_shape)
                ));
            }
            count[r as usize] += 1;
        }
        let empty: Vec<bool> = count.iter().map(|&c| c == 0).collect();
        // Where each row's entries start in the output: a counting sort by row.
        let mut start = budget::vec(WHAT, nrows + 1)?;
        let mut acc = 0;
        for &c in &count {
            start.push(acc);
            acc += c.max(1);
        }
        let total = acc;
        let rank = self.rank();
        let mut src = budget::filled(WHAT, usize::MAX, total)?;
        let mut next = start.clone();
        for i in 0..self.nnz() {
            let r = self.index(i)[0] as usize;
            src[next[r]] = i;
            next[r] += 1;
        }
        let mut indices = budget::filled(WHAT, 0i64, size::mul(total, rank)?)?;
        let fill_bytes = match default {
            Scalar::Str(s) => size::mul(s.len(), nrows)?,
            _ => 0,
        };
        let bytes = size::add(self.values.data().str_bytes(), fill_bytes)?;
        let fill = Buffer::filled(default, 1);
        let sources = [self.values.data(), &fill];
        let (values, ()) =
            Buffer::from_runs(WHAT, self.dtype(), &sources, (total, bytes), |copy| {
                for (r, &s) in start.iter().enumerate() {
                    let n = count[r].max(1);
                    for (k, &i) in src[s..s + n].iter().enumerate() {
                        let out = &mut indices[(s + k) * rank..(s + k + 1) * rank];
                        if i == usize::MAX {
                            out[0] = r as i64;
                            copy(1, 0, 1);
                        } else {
                            out.copy_from_slice(self.index(i));
                            copy(0, i, i + 1);
                        }
                    }
                }
            })?;
        let filled = Sparse::from_parts(indices, Tensor::vector(values), self.dense_shape.clone());
        Ok((filled, empty))
    }

    /// `tf.sparse.slice`: the entries with `start <= index < start + size` in every
    /// dimension, shifted to start at zero; the shape is clipped to the input's.
    pub fn slice(&self, start: &[i64], size: &[i64]) -> Result<Sparse> {
        let r = self.rank();
        if start.len() != r || size.len() != r {
            return Err(invalid_arg!(
                "start and size need one entry per dimension ({r}), but have {} and {}",
                start.len(),
                size.len()
            ));
        }
        // A negative start is allowed, as in TensorFlow: the block then begins before the
        // tensor, and the entries it holds land at `index - start`.
        if let Some(d) = (0..r).find(|&d| size[d] < 0) {
            return Err(invalid_arg!(
                "size must be non-negative, but dimension {d} has size {}",
                size[d]
            ));
        }
        let shape: Vec<i64> = (0..r)
            .map(|d| {
                (start[d].saturating_add(size[d]).min(self.dense_shape[d]))
                    .saturating_sub(start[d])
                    .max(0)
            })
            .collect();
        let keep: Vec<usize> = (0..self.nnz())
            .filter(|&i| {
                let idx = self.index(i);
                (0..r).all(|d| {
                    idx[d] >= start[d] && (idx[d] as i128 - start[d] as i128) < shape[d] as i128
                })
            })
            .collect();
        let mut out = self.gather_entries(&keep);
        for (k, x) in out.indices.iter_mut().enumerate() {
            *x -= start[k % r];
        }
        out.dense_shape = shape;
        Ok(out)
    }

    /// `tf.sparse.reshape`: the same elements in row-major order under a new dense shape
    /// (one dimension may be -1, inferred).
    pub fn reshape(&self, new_shape: &[i64]) -> Result<Sparse> {
        let total = self
            .dense_shape
            .iter()
            .try_fold(1i64, |a, &d| a.checked_mul(d))
            .ok_or_else(|| {
                invalid_arg!(
                    "dense_shape {} has too many elements to reshape",
                    dense_shape_str(&self.dense_shape)
                )
            })?;
        let unknown: Vec<usize> = (0..new_shape.len())
            .filter(|&d| new_shape[d] == -1)
            .collect();
        if unknown.len() > 1 {
            return Err(invalid_arg!(
                "only one dimension of the new shape may be -1, but {} has {}",
                dense_shape_str(new_shape),
                unknown.len()
            ));
        }
        if let Some(x) = new_shape.iter().find(|&&x| x < -1) {
            return Err(invalid_arg!(
                "the new shape {} holds {x}; sizes must be non-negative (or -1)",
                dense_shape_str(new_shape)
            ));
        }
        let known = new_shape
            .iter()
            .filter(|&&x| x >= 0)
            .try_fold(1i64, |a, &d| a.checked_mul(d))
            .ok_or_else(|| {
                invalid_arg!(
                    "the new shape {} has too many elements",
                    dense_shape_str(new_shape)
                )
            })?;
        let mut shape = new_shape.to_vec();
        if let Some(&u) = unknown.first() {
            if known == 0 || total % known != 0 {
                return Err(invalid_arg!(
                    "cannot reshape {total} elements (dense_shape {}) into {}: -1 cannot be inferred",
                    dense_shape_str(&self.dense_shape),
                    dense_shape_str(new_shape)
                ));
            }
            shape[u] = total / known;
        } else if known != total {
            return Err(invalid_arg!(
                "cannot reshape a sparse tensor of {total} elements (dense_shape {}) into {} ({known} elements)",
                dense_shape_str(&self.dense_shape),
                dense_shape_str(new_shape)
            ));
        }
        self.check_bounds()?;
        let r1 = shape.len();
        let mut indices = budget::vec("a sparse op", self.nnz() * r1)?;
        let mut idx = budget::filled("a sparse op", 0i64, r1)?;
        for i in 0..self.nnz() {
            let old = self.index(i);
            let mut flat = old
                .iter()
                .zip(&self.dense_shape)
                .fold(0i64, |acc, (&x, &n)| acc * n + x);
            for d in (0..r1).rev() {
                idx[d] = flat % shape[d];
                flat /= shape[d];
            }
            indices.extend_from_slice(&idx);
        }
        Ok(Sparse::from_parts(indices, self.values.clone(), shape))
    }

    /// `tf.sparse.transpose`: dimension `j` of the result is dimension `perm[j]` of the input
    /// (reversed when `perm` is None); the result is reordered row-major.
    pub fn transpose(&self, perm: Option<&[i64]>) -> Result<Sparse> {
        let r = self.rank();
        let perm: Vec<usize> = match perm {
            None => (0..r).rev().collect(),
            Some(p) => {
                let mut seen = budget::filled("a sparse op", false, r)?;
                let ok = p.len() == r
                    && p.iter().all(|&x| {
                        (0..r as i64).contains(&x)
                            && !std::mem::replace(&mut seen[x as usize], true)
                    });
                if !ok {
                    return Err(invalid_arg!(
                        "perm {} is not a permutation of the {r} dimensions 0..{r}",
                        dense_shape_str(p)
                    ));
                }
                p.iter().map(|&x| x as usize).collect()
            }
        };
        let mut indices = budget::vec("a sparse op", self.indices.len())?;
        for i in 0..self.nnz() {
            let idx = self.index(i);
            indices.extend(perm.iter().map(|&p| idx[p]));
        }
        let shape = perm.iter().map(|&p| self.dense_shape[p]).collect();
        Ok(Sparse::from_parts(indices, self.values.clone(), shape).reorder())
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{rows, sp, vals};
    use super::*;
    use crate::ExceptionClass;

    #[test]
    fn concat_both_axes() {
        let a = sp(&[&[0, 1], &[0, 3], &[2, 0]], &[1, 2, 3], &[3, 5]);
        let aa = sp(&[&[1, 1], &[1, 3], &[2, 1]], &[11, 12, 13], &[3, 5]);
        let c0 = Sparse::concat(0, &[&a, &aa], false).unwrap();
        assert_eq!(c0.dense_shape(), &[6, 5]);
        assert_eq!(
            rows(&c0),
            vec![
                vec![0, 1],
                vec![0, 3],
                vec![2, 0],
                vec![4, 1],
                vec![4, 3],
                vec![5, 1]
            ]
        );
        let c1 = Sparse::concat(-1, &[&a, &aa], false).unwrap();
        assert_eq!(c1.dense_shape(), &[3, 10]);
        assert_eq!(
            rows(&c1),
            vec![
                vec![0, 1],
                vec![0, 3],
                vec![1, 6],
                vec![1, 8],
                vec![2, 0],
                vec![2, 6]
            ]
        );
        assert_eq!(vals(&c1), vec![1, 2, 11, 12, 3, 13]);
    }

    #[test]
    fn concat_errors_and_expansion() {
        let a = sp(&[&[0, 1]], &[1], &[3, 5]);
        let b = sp(&[&[3, 0]], &[2], &[4, 1]);
        assert_eq!(
            Sparse::concat(1, &[&a, &b], false).unwrap_err().class,
            ExceptionClass::InvalidArgumentError
        );
        let c = Sparse::concat(1, &[&a, &b], true).unwrap();
        assert_eq!(c.dense_shape(), &[4, 6]);
        assert_eq!(
            Sparse::concat(2, &[&a, &b], false).unwrap_err().class,
            ExceptionClass::InvalidArgumentError
        );
        assert_eq!(
            Sparse::concat(0, &[], false).unwrap_err().class,
            ExceptionClass::ValueError
        );
    }

    #[test]
    fn retain_keeps_order() {
        let b = sp(&[&[2, 1], &[0, 3], &[2, 0]], &[1, 2, 3], &[3, 5]);
        let r = b.retain(&[true, false, true]).unwrap();
        assert_eq!(rows(&r), vec![vec![2, 1], vec![2, 0]]);
        assert_eq!(
            b.retain(&[true]).unwrap_err().class,
            ExceptionClass::ValueError
        );
    }

    #[test]
    fn fill_empty_rows_groups_by_row() {
        let c = sp(
            &[&[0, 1], &[0, 3], &[2, 0], &[3, 1]],
            &[1, 2, 3, 4],
            &[5, 6],
        );
        let (f, empty) = c.fill_empty_rows(&Scalar::I32(10)).unwrap();
        assert_eq!(
            rows(&f),
            vec![
                vec![0, 1],
                vec![0, 3],
                vec![1, 0],
                vec![2, 0],
                vec![3, 1],
                vec![4, 0]
            ]
        );
        assert_eq!(vals(&f), vec![1, 2, 10, 3, 4, 10]);
        assert_eq!(empty, vec![false, true, false, false, true]);
        let bad = sp(&[&[7, 0]], &[1], &[5, 6]);
        assert_eq!(
            bad.fill_empty_rows(&Scalar::I32(0)).unwrap_err().class,
            ExceptionClass::InvalidArgumentError
        );
    }

    #[test]
    fn slice_shifts_and_clips() {
        let a = sp(&[&[0, 1], &[0, 3], &[2, 0]], &[1, 2, 3], &[3, 5]);
        let s = a.slice(&[0, 1], &[5, 3]).unwrap();
        assert_eq!(s.dense_shape(), &[3, 3]);
        assert_eq!(rows(&s), vec![vec![0, 0], vec![0, 2]]);
        assert_eq!(
            a.slice(&[0], &[1]).unwrap_err().class,
            ExceptionClass::InvalidArgumentError
        );
    }

    #[test]
    fn reshape_and_transpose() {
        let a = sp(&[&[0, 1], &[0, 3], &[2, 0]], &[1, 2, 3], &[3, 5]);
        let r = a.reshape(&[5, -1]).unwrap();
        assert_eq!(r.dense_shape(), &[5, 3]);
        assert_eq!(rows(&r), vec![vec![0, 1], vec![1, 0], vec![3, 1]]);
        assert_eq!(
            a.reshape(&[4, 4]).unwrap_err().class,
            ExceptionClass::InvalidArgumentError
        );
        assert_eq!(
            a.reshape(&[-1, -1]).unwrap_err().class,
            ExceptionClass::InvalidArgumentError
        );
        let t = a.transpose(None).unwrap();
        assert_eq!(t.dense_shape(), &[5, 3]);
        assert_eq!(rows(&t), vec![vec![0, 2], vec![1, 0], vec![3, 0]]);
        assert_eq!(vals(&t), vec![3, 1, 2]);
        assert_eq!(
            a.transpose(Some(&[0, 0])).unwrap_err().class,
            ExceptionClass::InvalidArgumentError
        );
    }
}
