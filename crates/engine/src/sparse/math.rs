//! Arithmetic that combines stored values: `tf.sparse.add` of two sparse tensors and the
//! sparse reductions. Implicit zeros take no part: a row with no stored values reduces to 0.

use super::{dense_strides, Sparse};
use crate::budget;
use crate::buffer::Buffer;
use crate::element::Number;
use crate::error::Result;
use crate::exceptions::ExceptionClass;
use crate::size::dense_shape_str;
use crate::tensor::Tensor;
use crate::{invalid_arg, type_error};

/// Which sparse reduction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SparseReduce {
    /// `tf.sparse.reduce_sum`
    Sum,
    /// `tf.sparse.reduce_max`: the largest *stored* value (implicit zeros are ignored).
    Max,
}

/// Applies a generic numeric kernel to the buffers of one dtype, rebuilding that dtype.
macro_rules! numeric2 {
    ($a:expr, $b:expr, $f:ident($($arg:expr),*), $what:expr) => {
        crate::dispatch!(numbers pair ($a, $b), (x, y) => {
            let (v, extra) = $f(x, y, $($arg),*)?;
            (Buffer::from(v), extra)
        }, (x, _) => return Err(type_error!("{} needs numbers, not {}", $what, x.dtype())))
    };
}

/// Merges two sorted entry lists; `pairs` says, per output entry, which input(s) it came from.
fn merge_values<T: Number>(
    a: &[T],
    b: &[T],
    pairs: &[(Option<usize>, Option<usize>)],
    threshold: f64,
) -> Result<(Vec<T>, Vec<bool>)> {
    let mut out = budget::vec("tf.sparse.add", pairs.len())?;
    let mut kept = budget::vec("a sparse op", pairs.len())?;
    for &(i, j) in pairs {
        let (v, keep) = match (i, j) {
            (Some(i), Some(j)) => {
                let s = a[i].plus(b[j]);
                // Only sums are thresholded, as TensorFlow's SparseAdd does.
                (s, s.to_f64().abs() >= threshold)
            }
            (Some(i), None) => (a[i], true),
            (None, Some(j)) => (b[j], true),
            (None, None) => unreachable!("every output entry has a source"),
        };
        if keep {
            out.push(v);
        }
        kept.push(keep);
    }
    Ok((out, kept))
}

/// Per output position: its reduced value and whether any stored value landed there.
fn reduce_groups<T: Number>(
    v: &[T],
    _same: &[T],
    groups: &[usize],
    n: usize,
    op: SparseReduce,
) -> Result<(Vec<T>, Vec<bool>)> {
    let mut out = budget::filled("a sparse reduction", T::default(), n)?;
    let mut seen = budget::filled("a sparse op", false, n)?;
    for (k, &g) in groups.iter().enumerate() {
        let x = v[k];
        out[g] = if !seen[g] {
            x
        } else {
            match op {
                SparseReduce::Sum => out[g].plus(x),
                // NaN wins, as TensorFlow's max does.
                SparseReduce::Max => out[g].max_of(x),
            }
        };
        seen[g] = true;
    }
    Ok((out, seen))
}

impl Sparse {
    /// `tf.sparse.add` of two sparse tensors of one shape: values at the same index add up;
    /// a sum whose magnitude is below `threshold` is dropped.
    pub fn add(&self, other: &Sparse, threshold: f64) -> Result<Sparse> {
        if self.dense_shape != other.dense_shape {
            return Err(invalid_arg!(
                "both operands must have one dense_shape, but they have {} and {}",
                dense_shape_str(&self.dense_shape),
                dense_shape_str(&other.dense_shape)
            ));
        }
        if self.dtype() != other.dtype() {
            return Err(type_error!(
                "cannot add a {} and a {} sparse tensor",
                self.dtype(),
                other.dtype()
            ));
        }
        // The merge needs sorted inputs; sorting unordered ones gives the sum a reader expects.
        let (a, b) = (self.reorder(), other.reorder());
        let mut pairs = budget::vec("a sparse op", a.nnz() + b.nnz())?;
        let (mut i, mut j) = (0, 0);
        while i < a.nnz() || j < b.nnz() {
            let ord = match (i < a.nnz(), j < b.nnz()) {
                (true, true) => a.index(i).cmp(b.index(j)),
                (true, false) => std::cmp::Ordering::Less,
                _ => std::cmp::Ordering::Greater,
            };
            match ord {
                std::cmp::Ordering::Less => {
                    pairs.push((Some(i), None));
                    i += 1;
                }
                std::cmp::Ordering::Equal => {
                    pairs.push((Some(i), Some(j)));
                    i += 1;
                    j += 1;
                }
                std::cmp::Ordering::Greater => {
                    pairs.push((None, Some(j)));
                    j += 1;
                }
            }
        }
        let (values, kept) = numeric2!(
            a.values.data(),
            b.values.data(),
            merge_values(&pairs, threshold),
            "tf.sparse.add"
        );
        let r = self.rank();
        let mut indices = budget::vec("a sparse op", values.len() * r)?;
        for (&(i, j), keep) in pairs.iter().zip(kept) {
            if keep {
                indices.extend_from_slice(match i {
                    Some(i) => a.index(i),
                    None => b.index(j.expect("a source")),
                });
            }
        }
        Ok(Sparse::from_parts(
            indices,
            Tensor::vector(values),
            self.dense_shape.clone(),
        ))
    }

    /// `tf.sparse.reduce_sum` / `reduce_max` over `axes` (all when None): a dense tensor,
    /// or with `output_is_sparse` a sparse one holding only the positions some value reached.
    pub fn reduce(
        &self,
        axes: Option<&[i64]>,
        op: SparseReduce,
        keepdims: bool,
        output_is_sparse: bool,
    ) -> Result<SparseOut> {
        let r = self.rank();
        let mut reduced = budget::filled("a sparse op", false, r)?;
        match axes {
            None => reduced.iter_mut().for_each(|x| *x = true),
            Some(axes) => {
                let class = ExceptionClass::InvalidArgumentError;
                for k in crate::ops::positive_axes(axes, r, class)? {
                    reduced[k] = true;
                }
            }
        }
        self.check_bounds()?;
        let kept_dims: Vec<usize> = (0..r).filter(|&d| !reduced[d]).collect();
        let group_shape: Vec<usize> = kept_dims
            .iter()
            .map(|&d| self.dense_shape[d] as usize)
            .collect();
        let (strides, n) = dense_strides(&group_shape, 8)?;
        let groups: Vec<usize> = (0..self.nnz())
            .map(|i| {
                let idx = self.index(i);
                kept_dims
                    .iter()
                    .zip(&strides)
                    .map(|(&d, &s)| idx[d] as usize * s)
                    .sum()
            })
            .collect();
        let what = match op {
            SparseReduce::Sum => "tf.sparse.reduce_sum",
            SparseReduce::Max => "tf.sparse.reduce_max",
        };
        let data = self.values.data();
        let (out, seen) = numeric2!(data, data, reduce_groups(&groups, n, op), what);
        let out_shape: Vec<usize> = if keepdims {
            (0..r)
                .map(|d| {
                    if reduced[d] {
                        1
                    } else {
                        self.dense_shape[d] as usize
                    }
                })
                .collect()
        } else {
            group_shape.clone()
        };
        if !output_is_sparse {
            return Ok(SparseOut::Dense(Tensor::from_parts(out_shape, out)));
        }
        let positions: Vec<usize> = (0..n).filter(|&g| seen[g]).collect();
        let rank_out = out_shape.len();
        let mut indices = budget::vec("a sparse op", positions.len() * rank_out)?;
        for &g in &positions {
            let mut rest = g;
            let mut idx = budget::filled("a sparse op", 0i64, group_shape.len())?;
            for d in (0..group_shape.len()).rev() {
                idx[d] = (rest % group_shape[d]) as i64;
                rest /= group_shape[d];
            }
            let mut it = idx.into_iter();
            for &gone in &reduced {
                if !gone {
                    indices.push(it.next().expect("one coordinate per kept dimension"));
                } else if keepdims {
                    indices.push(0);
                }
            }
        }
        Ok(SparseOut::Sparse(Sparse::from_parts(
            indices,
            Tensor::vector(out.gather(&positions)),
            out_shape.iter().map(|&d| d as i64).collect(),
        )))
    }
}

/// The result of a sparse reduction: dense by default, sparse on request.
#[derive(Debug, Clone, PartialEq)]
pub enum SparseOut {
    /// A dense tensor.
    Dense(Tensor),
    /// A sparse tensor.
    Sparse(Sparse),
}

#[cfg(test)]
mod tests {
    use super::super::tests::{rows, sp, vals};
    use super::*;
    use crate::ExceptionClass;

    fn dense_i32(o: SparseOut) -> (Vec<usize>, Vec<i32>) {
        match o {
            SparseOut::Dense(t) => match t.data() {
                Buffer::I32(v) => (t.shape().to_vec(), v.to_vec()),
                other => panic!("{other:?}"),
            },
            SparseOut::Sparse(_) => panic!("sparse"),
        }
    }

    #[test]
    fn add_merges_and_sums() {
        let a = sp(&[&[0, 1], &[0, 3], &[2, 0]], &[1, 2, 3], &[3, 5]);
        let s = a.add(&a, 0.0).unwrap();
        assert_eq!(rows(&s), rows(&a));
        assert_eq!(vals(&s), vec![2, 4, 6]);
        let b = sp(&[&[0, 3], &[1, 1]], &[-2, 7], &[3, 5]);
        let s = a.add(&b, 1.0).unwrap();
        assert_eq!(rows(&s), vec![vec![0, 1], vec![1, 1], vec![2, 0]]);
        assert_eq!(vals(&s), vec![1, 7, 3]);
        let c = sp(&[], &[], &[3, 4]);
        assert_eq!(
            a.add(&c, 0.0).unwrap_err().class,
            ExceptionClass::InvalidArgumentError
        );
    }

    #[test]
    fn reductions_ignore_implicit_zeros() {
        let a = sp(&[&[0, 1], &[0, 3], &[2, 0]], &[1, 2, 3], &[3, 5]);
        assert_eq!(
            dense_i32(
                a.reduce(Some(&[1]), SparseReduce::Sum, false, false)
                    .unwrap()
            ),
            (vec![3], vec![3, 0, 3])
        );
        assert_eq!(
            dense_i32(a.reduce(None, SparseReduce::Sum, false, false).unwrap()),
            (vec![], vec![6])
        );
        assert_eq!(
            dense_i32(
                a.reduce(Some(&[-1]), SparseReduce::Max, true, false)
                    .unwrap()
            ),
            (vec![3, 1], vec![2, 0, 3])
        );
        let y = sp(&[&[0, 0], &[1, 0], &[1, 1]], &[-7, 4, 3], &[3, 2]);
        assert_eq!(
            dense_i32(
                y.reduce(Some(&[1]), SparseReduce::Max, false, false)
                    .unwrap()
            )
            .1,
            vec![-7, 4, 0]
        );
        let SparseOut::Sparse(s) = a
            .reduce(Some(&[1]), SparseReduce::Sum, false, true)
            .unwrap()
        else {
            panic!()
        };
        assert_eq!(rows(&s), vec![vec![0], vec![2]]);
        assert_eq!(vals(&s), vec![3, 3]);
        assert_eq!(
            a.reduce(Some(&[2]), SparseReduce::Sum, false, false)
                .unwrap_err()
                .class,
            ExceptionClass::InvalidArgumentError
        );
    }
}
