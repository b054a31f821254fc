//! Ops that combine stored values position by position: `tf.sparse.softmax` (within each
//! innermost row) and `tf.sparse.maximum` / `tf.sparse.minimum` of two sparse tensors.

use std::cmp::Ordering;

use super::Sparse;
use crate::budget;
use crate::buffer::Buffer;
use crate::error::Result;
use crate::exceptions::ExceptionClass;
use crate::interrupt;
use crate::invalid_arg;
use crate::ops::{insertion_axis, positive_axis};
use crate::size::dense_shape_str;
use crate::tensor::Tensor;

/// Which of `tf.sparse.maximum` and `tf.sparse.minimum`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Extreme {
    /// The larger of the two (implicit zeros count as 0).
    Max,
    /// The smaller of the two.
    Min,
}

/// The larger or smaller of two values; NaN wins, as TensorFlow's kernels do.
fn pick<T: Copy + PartialOrd>(a: T, b: T, op: Extreme) -> T {
    #[allow(clippy::eq_op)]
    if a != a {
        return a;
    }
    match op {
        Extreme::Max if b > a => b,
        Extreme::Min if b < a => b,
        _ => a,
    }
}

/// Merges two sorted entry lists: per output entry, the entry of `a` and/or of `b`.
fn merge(a: &Sparse, b: &Sparse) -> Result<Vec<(Option<usize>, Option<usize>)>> {
    let mut out = budget::vec("tf.sparse.maximum", a.nnz() + b.nnz())?;
    let (mut i, mut j) = (0, 0);
    while i < a.nnz() || j < b.nnz() {
        if out.len() % interrupt::CHUNK == 0 {
            interrupt::check()?;
        }
        let ord = match (i < a.nnz(), j < b.nnz()) {
            (true, true) => a.index(i).cmp(b.index(j)),
            (true, false) => Ordering::Less,
            _ => Ordering::Greater,
        };
        match ord {
            Ordering::Less => {
                out.push((Some(i), None));
                i += 1;
            }
            Ordering::Greater => {
                out.push((None, Some(j)));
                j += 1;
            }
            Ordering::Equal => {
                out.push((Some(i), Some(j)));
                i += 1;
                j += 1;
            }
        }
    }
    Ok(out)
}

fn combine<T: Copy + PartialOrd + Default>(
    x: &[T],
    y: &[T],
    pairs: &[(Option<usize>, Option<usize>)],
    op: Extreme,
) -> Vec<T> {
    pairs
        .iter()
        .map(|&(i, j)| {
            let a = i.map_or(T::default(), |i| x[i]);
            let b = j.map_or(T::default(), |j| y[j]);
            pick(a, b, op)
        })
        .collect()
}

/// Softmax of one group of values (computed in f64).
fn softmax_group(v: &[f64], out: &mut Vec<f64>) {
    let m = v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let start = out.len();
    let mut sum = 0.0;
    for &x in v {
        let e = (x - m).exp();
        sum += e;
        out.push(e);
    }
    for e in &mut out[start..] {
        *e /= sum;
    }
}

impl Sparse {
    /// `tf.sparse.softmax`: the softmax of the stored values of each innermost row (the
    /// entries that share all coordinates but the last); implicit zeros take no part. Like
    /// TensorFlow, rows are runs of consecutive entries, so the indices should be in
    /// row-major order (tf.sparse.reorder).
    pub fn softmax(&self) -> Result<Sparse> {
        if !self.dtype().is_float() {
            return Err(invalid_arg!(
                "tf.sparse.softmax needs float32 or float64 values, not {}",
                self.dtype()
            )
            .with_hint(
                "cast the values first, e.g. st.with_values(tf.cast(st.values, tf.float32))",
            ));
        }
        let r = self.rank();
        if r < 2 {
            return Err(invalid_arg!(
                "tf.sparse.softmax needs a SparseTensor of rank 2 or more (it normalizes along the last dimension), but this one has rank {r}"
            ));
        }
        let vals = self.values.data().to_f64_vec().unwrap_or_default();
        let mut out = budget::vec("tf.sparse.softmax", vals.len())?;
        let mut start = 0;
        while start < vals.len() {
            if start % interrupt::CHUNK == 0 {
                interrupt::check()?;
            }
            let key = &self.index(start)[..r - 1];
            let mut end = start + 1;
            while end < vals.len() && &self.index(end)[..r - 1] == key {
                end += 1;
            }
            softmax_group(&vals[start..end], &mut out);
            start = end;
        }
        let data = Buffer::from_f64s(out, self.dtype());
        Ok(Sparse::from_parts(
            self.indices.clone(),
            Tensor::vector(data),
            self.dense_shape.clone(),
        ))
    }

    /// `tf.sparse.maximum` / `tf.sparse.minimum`: the element-wise larger or smaller of two
    /// sparse tensors of one shape. Entries stored in only one of them meet an implicit 0.
    /// Both should be in row-major order; the result is.
    pub fn extreme(&self, other: &Sparse, op: Extreme) -> Result<Sparse> {
        let name = match op {
            Extreme::Max => "tf.sparse.maximum",
            Extreme::Min => "tf.sparse.minimum",
        };
        if self.dense_shape != other.dense_shape {
            return Err(invalid_arg!(
                "{name} needs operands of one shape, but got dense shapes {} and {}",
                dense_shape_str(&self.dense_shape),
                dense_shape_str(&other.dense_shape)
            ));
        }
        if self.dtype() != other.dtype() {
            return Err(invalid_arg!(
                "{name} needs operands of one dtype, but got {} and {}",
                self.dtype(),
                other.dtype()
            ));
        }
        let pairs = merge(self, other)?;
        let data = crate::dispatch!(numbers pair (self.values.data(), other.values.data()),
            (x, y) => Buffer::from(combine(x, y, &pairs, op)),
            (x, _) => return Err(invalid_arg!("{name} needs numeric values, not {}", x.dtype())));
        let r = self.rank();
        let mut indices = budget::vec(name, pairs.len() * r)?;
        for &(i, j) in &pairs {
            let idx = match (i, j) {
                (Some(i), _) => self.index(i),
                (None, Some(j)) => other.index(j),
                (None, None) => &[],
            };
            indices.extend_from_slice(idx);
        }
        Ok(Sparse::from_parts(
            indices,
            Tensor::vector(data),
            self.dense_shape.clone(),
        ))
    }

    /// `tf.sparse.reset_shape`: the same entries under `new_shape`, which must have the same
    /// rank and no smaller dimension; without one, the tightest shape that holds the
    /// entries (one past the largest index in each dimension).
    pub fn reset_shape(&self, new_shape: Option<&[i64]>) -> Result<Sparse> {
        let r = self.rank();
        let shape = match new_shape {
            None => {
                let mut s = budget::filled("tf.sparse.reset_shape", 0i64, r)?;
                for i in 0..self.nnz() {
                    if i % interrupt::CHUNK == 0 {
                        interrupt::check()?;
                    }
                    for (d, &x) in self.index(i).iter().enumerate() {
                        s[d] = s[d].max(x.saturating_add(1));
                    }
                }
                s
            }
            Some(s) => {
                if s.len() != r {
                    return Err(crate::value_error!(
                        "new_shape {} has rank {}, but the SparseTensor has rank {r}",
                        dense_shape_str(s),
                        s.len()
                    ));
                }
                if let Some(d) = (0..r).find(|&d| s[d] < self.dense_shape[d]) {
                    return Err(crate::value_error!(
                        "new_shape {} is smaller than the dense shape {} in dimension {d}",
                        dense_shape_str(s),
                        dense_shape_str(&self.dense_shape)
                    )
                    .with_hint(
                        "reset_shape can only grow a shape; tf.sparse.slice cuts one down",
                    ));
                }
                s.to_vec()
            }
        };
        Ok(Sparse::from_parts(
            self.indices.clone(),
            self.values.clone(),
            shape,
        ))
    }

    /// `tf.sparse.expand_dims`: a new dimension of size 1 at `axis` (in
    /// `[-rank - 1, rank]`; negative counts from the end).
    pub fn expand_dims(&self, axis: i64) -> Result<Sparse> {
        let r = self.rank();
        let at = insertion_axis(axis, r, ExceptionClass::InvalidArgumentError, "axis")?;
        let mut indices = budget::vec("tf.sparse.expand_dims", self.nnz() * (r + 1))?;
        for i in 0..self.nnz() {
            if i % interrupt::CHUNK == 0 {
                interrupt::check()?;
            }
            let idx = self.index(i);
            indices.extend_from_slice(&idx[..at]);
            indices.push(0);
            indices.extend_from_slice(&idx[at..]);
        }
        let mut shape = self.dense_shape.clone();
        shape.insert(at, 1);
        Ok(Sparse::from_parts(indices, self.values.clone(), shape))
    }

    /// `tf.sparse.split`: `num_split` pieces along `axis`; when the dimension does not
    /// divide evenly, the first pieces are one larger.
    pub fn split(&self, num_split: i64, axis: i64) -> Result<Vec<Sparse>> {
        let ax = positive_axis(
            axis,
            self.rank(),
            ExceptionClass::InvalidArgumentError,
            "axis",
        )?;
        let dim = self.dense_shape[ax];
        if num_split < 1 || num_split > dim {
            return Err(invalid_arg!(
                "num_split must be in [1, {dim}] (the size of dimension {ax}), but is {num_split}"
            ));
        }
        self.check_bounds()?;
        let (base, extra) = (dim / num_split, dim % num_split);
        let mut out = budget::vec("tf.sparse.split", num_split as usize)?;
        let mut start = 0;
        for k in 0..num_split {
            let size = base + i64::from(k < extra);
            let mut begin = self.dense_shape.clone();
            let mut sizes = self.dense_shape.clone();
            begin.iter_mut().for_each(|b| *b = 0);
            begin[ax] = start;
            sizes[ax] = size;
            out.push(self.slice(&begin, &sizes)?);
            start += size;
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{rows, sp, vals};
    use super::*;

    #[test]
    fn maximum_meets_implicit_zeros() {
        let a = sp(&[&[0, 0], &[0, 2], &[1, 1]], &[1, -5, 3], &[2, 3]);
        let b = sp(&[&[0, 2], &[1, 0], &[1, 1]], &[-2, 4, 1], &[2, 3]);
        let m = a.extreme(&b, Extreme::Max).unwrap();
        assert_eq!(
            rows(&m),
            vec![vec![0, 0], vec![0, 2], vec![1, 0], vec![1, 1]]
        );
        assert_eq!(vals(&m), vec![1, -2, 4, 3]);
        let n = a.extreme(&b, Extreme::Min).unwrap();
        assert_eq!(vals(&n), vec![0, -5, 0, 1]);
    }

    #[test]
    fn split_gives_the_first_pieces_the_remainder() {
        let a = sp(&[&[0, 0], &[1, 1], &[3, 2]], &[1, 2, 3], &[4, 3]);
        let p = a.split(3, 0).unwrap();
        assert_eq!(
            p.iter().map(|s| s.dense_shape()[0]).collect::<Vec<_>>(),
            vec![2, 1, 1]
        );
        assert_eq!(vals(&p[2]), vec![3]);
        assert!(a.split(5, 0).is_err());
    }

    #[test]
    fn expand_dims_and_reset_shape() {
        let a = sp(&[&[0, 1], &[2, 2]], &[1, 2], &[3, 4]);
        let e = a.expand_dims(-1).unwrap();
        assert_eq!(e.dense_shape(), &[3, 4, 1]);
        assert_eq!(rows(&e), vec![vec![0, 1, 0], vec![2, 2, 0]]);
        assert!(a.expand_dims(3).is_err());
        assert_eq!(a.reset_shape(None).unwrap().dense_shape(), &[3, 3]);
        assert!(a.reset_shape(Some(&[2, 4])).is_err());
    }
}
