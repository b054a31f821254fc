//! Sparse tensors: coordinates of the set elements, their values, and the dense shape;
//! every other element is an implicit default (zero).
//!
//! Like TensorFlow, construction checks only that the parts fit together; the ops that need
//! in-bounds, row-major-ordered indices (`to_dense`, `from_sparse`, …) check them, so a user
//! can build an unordered tensor and `reorder` it.

mod dense;
mod elementwise;
mod math;
mod ragged;
mod structure;

pub use dense::sparse_to_dense;
pub use elementwise::Extreme;
pub use math::{SparseOut, SparseReduce};

use std::cmp::Ordering;

use super::buffer::Buffer;
use super::dtype::DType;
use super::error::Result;
use super::tensor::Tensor;
use crate::exceptions::Exception;
use crate::size::dense_shape_str;
use crate::{invalid_arg, value_error};

/// A `tf.SparseTensor`: `indices` is an int64 `[n, rank]` matrix, `values` a vector of `n`.
#[derive(Debug, Clone, PartialEq)]
pub struct Sparse {
    indices: Vec<i64>,
    values: Tensor,
    dense_shape: Vec<i64>,
}

/// What is wrong with the indices of a sparse tensor, if anything (see [`Sparse::problem`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IndexProblem {
    /// `indices[i]` lies outside `dense_shape` in dimension `dim`.
    OutOfBounds {
        /// The entry.
        i: usize,
        /// The offending dimension.
        dim: usize,
    },
    /// `indices[i]` comes before `indices[i - 1]` in row-major order.
    OutOfOrder {
        /// The entry.
        i: usize,
    },
    /// `indices[i]` is the same position as `indices[i - 1]`.
    Repeated {
        /// The entry.
        i: usize,
    },
}

impl Sparse {
    /// A sparse tensor from row-major `indices` (`nnz * rank` entries), values and shape.
    /// Like TensorFlow's constructor it checks only the sizes (a ValueError); ops check
    /// bounds and order.
    pub fn new(indices: Vec<i64>, values: Tensor, dense_shape: Vec<i64>) -> Result<Sparse> {
        let rank = dense_shape.len();
        if values.rank() != 1 {
            return Err(value_error!(
                "values must be a vector (one value per index), but has shape {}",
                dense_shape_str(values.shape())
            ));
        }
        let nnz = values.size();
        if indices.len() != nnz * rank {
            return Err(value_error!(
                "indices must have shape [{nnz}, {rank}] (one row of {rank} coordinates for each of the {nnz} values), but hold {} numbers",
                indices.len()
            ));
        }
        if let Some(d) = dense_shape.iter().find(|&&d| d < 0) {
            return Err(value_error!(
                "dense_shape must be non-negative, but {} holds {d}",
                dense_shape_str(&dense_shape)
            ));
        }
        Ok(Sparse {
            indices,
            values,
            dense_shape,
        })
    }
    /// A sparse tensor from parts known to agree (internal use).
    pub(crate) fn from_parts(indices: Vec<i64>, values: Tensor, dense_shape: Vec<i64>) -> Sparse {
        debug_assert_eq!(indices.len(), values.size() * dense_shape.len());
        Sparse {
            indices,
            values,
            dense_shape,
        }
    }
    /// An empty sparse tensor (no stored values) of `dtype` and `dense_shape`.
    pub fn empty(dtype: DType, dense_shape: Vec<i64>) -> Result<Sparse> {
        Sparse::new(
            Vec::new(),
            Tensor::vector(Buffer::empty(dtype)),
            dense_shape,
        )
    }
    /// Number of stored values.
    pub fn nnz(&self) -> usize {
        self.values.size()
    }
    /// Rank of the dense shape.
    pub fn rank(&self) -> usize {
        self.dense_shape.len()
    }
    /// Flat row-major indices (`nnz * rank`).
    pub fn indices(&self) -> &[i64] {
        &self.indices
    }
    /// The coordinates of value `i`.
    // A plain method, not `std::ops::Index`: `st[i]` means something else in the language.
    #[allow(clippy::should_implement_trait)]
    pub fn index(&self, i: usize) -> &[i64] {
        let r = self.rank();
        &self.indices[i * r..(i + 1) * r]
    }
    /// The indices as an int64 `[nnz, rank]` tensor.
    pub fn indices_tensor(&self) -> Tensor {
        Tensor::from_parts(
            vec![self.nnz(), self.rank()],
            Buffer::from(self.indices.clone()),
        )
    }
    /// The stored values.
    pub fn values(&self) -> &Tensor {
        &self.values
    }
    /// The dense shape.
    pub fn dense_shape(&self) -> &[i64] {
        &self.dense_shape
    }
    /// The dense shape as sizes (they are non-negative by construction).
    pub fn shape_usize(&self) -> Vec<usize> {
        self.dense_shape.iter().map(|&d| d as usize).collect()
    }
    /// Element dtype.
    pub fn dtype(&self) -> DType {
        self.values.dtype()
    }
    /// The same indices and shape with new values (`SparseTensor.with_values`).
    pub fn with_values(&self, values: Tensor) -> Result<Sparse> {
        if values.rank() != 1 || values.size() != self.nnz() {
            return Err(value_error!(
                "new values must be a vector of {} (one per index), but have shape {}",
                self.nnz(),
                dense_shape_str(values.shape())
            ));
        }
        Ok(Sparse::from_parts(
            self.indices.clone(),
            values,
            self.dense_shape.clone(),
        ))
    }

    /// The first problem with the indices: out of bounds, or (when `order` is set) out of
    /// row-major order or repeated. `None` when every op will accept them.
    pub fn problem(&self, order: bool) -> Option<IndexProblem> {
        let r = self.rank();
        for i in 0..self.nnz() {
            let idx = self.index(i);
            if let Some(dim) = (0..r).find(|&d| idx[d] < 0 || idx[d] >= self.dense_shape[d]) {
                return Some(IndexProblem::OutOfBounds { i, dim });
            }
            if order && i > 0 {
                match self.index(i - 1).cmp(idx) {
                    Ordering::Less => {}
                    Ordering::Equal => return Some(IndexProblem::Repeated { i }),
                    Ordering::Greater => return Some(IndexProblem::OutOfOrder { i }),
                }
            }
        }
        None
    }
    /// Fails with InvalidArgumentError when an index lies outside the dense shape.
    pub fn check_bounds(&self) -> Result<()> {
        self.problem(false)
            .map_or(Ok(()), |p| Err(self.problem_error(p)))
    }
    /// Fails with InvalidArgumentError unless the indices are in bounds, in row-major order
    /// and distinct — what TensorFlow's `validate_indices` checks.
    pub fn check_indices(&self) -> Result<()> {
        self.problem(true)
            .map_or(Ok(()), |p| Err(self.problem_error(p)))
    }
    /// True when the indices are sorted in row-major order (repeats allowed).
    pub fn is_ordered(&self) -> bool {
        (1..self.nnz()).all(|i| self.index(i - 1) <= self.index(i))
    }
    /// The error (with a hint) describing `p`.
    pub fn problem_error(&self, p: IndexProblem) -> Exception {
        match p {
            IndexProblem::OutOfBounds { i, dim } => {
                let x = self.index(i)[dim];
                let n = self.dense_shape[dim];
                invalid_arg!(
                    "indices[{i}] = {} is out of bounds: dense_shape is {}, so coordinate {dim} must satisfy 0 <= {x} < {n}",
                    index_text(self.index(i)),
                    dense_shape_str(&self.dense_shape)
                )
                .with_hint("every index must lie inside dense_shape: enlarge dense_shape or drop the entry")
            }
            IndexProblem::OutOfOrder { i } => invalid_arg!(
                "indices[{i}] = {} is out of order: it comes before indices[{}] = {} in row-major order",
                index_text(self.index(i)),
                i - 1,
                index_text(self.index(i - 1))
            )
            .with_hint("this op needs indices sorted row by row: sort them with tf.sparse.reorder(st)"),
            IndexProblem::Repeated { i } => invalid_arg!(
                "indices[{i}] = {} is repeated: indices[{}] is the same position",
                index_text(self.index(i)),
                i - 1
            )
            .with_hint("a SparseTensor holds one value per position: drop the duplicate (tf.sparse.retain), or add them up with tf.sparse.reduce_sum"),
        }
    }

    /// The entries at `order` (a permutation or subset of `0..nnz`), same dense shape.
    pub fn gather_entries(&self, order: &[usize]) -> Sparse {
        // A subset or permutation of existing entries: grows as it is filled.
        let mut indices = Vec::new();
        for &i in order {
            indices.extend_from_slice(self.index(i));
        }
        Sparse::from_parts(
            indices,
            Tensor::vector(self.values.data().gather(order)),
            self.dense_shape.clone(),
        )
    }
    /// The entries sorted into row-major order; entries at one position keep their order.
    pub fn reorder(&self) -> Sparse {
        if self.is_ordered() {
            return self.clone();
        }
        let mut order: Vec<usize> = (0..self.nnz()).collect();
        order.sort_by(|&a, &b| self.index(a).cmp(self.index(b)));
        self.gather_entries(&order)
    }
}

/// `[4, 1]`: an index as the messages show it.
pub fn index_text(idx: &[i64]) -> String {
    format!(
        "[{}]",
        idx.iter()
            .map(|x| x.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    )
}

/// Row-major strides of `shape` and its element count, or an error when the count overflows
/// (InvalidArgumentError) or a dense tensor of `item_bytes` an element would not fit the
/// memory budget (ResourceExhaustedError; a sparse tensor's dense shape can be
/// astronomically larger than what it stores).
pub(crate) fn dense_strides(shape: &[usize], item_bytes: usize) -> Result<(Vec<usize>, usize)> {
    let total = crate::size::numel(shape)?;
    crate::budget::check("a dense tensor of this shape", total as u128, item_bytes).map_err(
        |e| {
            e.with_hint(format!(
                "the dense shape {} is too large to materialise: keep it sparse (slice it \
                 first with tf.sparse.slice, or reduce it with tf.sparse.reduce_sum), or raise the \
                 limit with --max-memory or `:set memory=`",
                dense_shape_str(shape)
            ))
        },
    )?;
    let mut strides = crate::budget::filled("a dense tensor", 1usize, shape.len())?;
    for d in (0..shape.len().saturating_sub(1)).rev() {
        strides[d] = strides[d + 1] * shape[d + 1];
    }
    Ok((strides, total))
}

/// The flat row-major offset of an in-bounds index.
pub(crate) fn flat_offset(idx: &[i64], strides: &[usize]) -> usize {
    idx.iter().zip(strides).map(|(&x, &s)| x as usize * s).sum()
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::ExceptionClass;

    /// A sparse int32 tensor from index rows.
    #[track_caller]
    pub fn sp(indices: &[&[i64]], values: &[i32], shape: &[i64]) -> Sparse {
        Sparse::new(
            indices.iter().flat_map(|r| r.iter().copied()).collect(),
            Tensor::vector(Buffer::I32(values.to_vec().into())),
            shape.to_vec(),
        )
        .unwrap()
    }

    /// The index rows of a sparse tensor.
    pub fn rows(s: &Sparse) -> Vec<Vec<i64>> {
        (0..s.nnz()).map(|i| s.index(i).to_vec()).collect()
    }

    /// The int32 values of a sparse tensor.
    pub fn vals(s: &Sparse) -> Vec<i32> {
        match s.values().data() {
            Buffer::I32(v) => v.to_vec(),
            other => panic!("not int32: {other:?}"),
        }
    }

    #[test]
    fn construction_checks_sizes_only() {
        let ok = sp(&[&[4, 1], &[1, 2]], &[1, 2], &[3, 4]);
        assert_eq!(ok.nnz(), 2);
        let e = Sparse::new(
            vec![0, 0],
            Tensor::vector(Buffer::from(vec![1i32, 2])),
            vec![2, 2],
        )
        .unwrap_err();
        assert_eq!(e.class, ExceptionClass::ValueError);
        let e = Sparse::new(
            vec![],
            Tensor::vector(Buffer::from(Vec::<i32>::new())),
            vec![-1],
        )
        .unwrap_err();
        assert_eq!(e.class, ExceptionClass::ValueError);
    }

    #[test]
    fn validation_names_the_entry() {
        let s = sp(&[&[4, 1], &[1, 2]], &[1, 2], &[3, 4]);
        let e = s.check_indices().unwrap_err();
        assert_eq!(e.class, ExceptionClass::InvalidArgumentError);
        assert!(
            e.message.contains("indices[0] = [4, 1] is out of bounds"),
            "{}",
            e.message
        );
        let s = sp(&[&[2, 1], &[0, 3], &[2, 0]], &[1, 2, 3], &[3, 5]);
        assert!(s.check_bounds().is_ok());
        let e = s.check_indices().unwrap_err();
        assert!(
            e.message.contains("indices[1] = [0, 3] is out of order"),
            "{}",
            e.message
        );
        assert!(e.hint.unwrap().contains("tf.sparse.reorder"));
        let s = sp(&[&[0, 1], &[0, 1]], &[1, 2], &[3, 5]);
        assert!(s.check_indices().unwrap_err().message.contains("repeated"));
    }

    #[test]
    fn reorder_sorts_stably() {
        let s = sp(&[&[2, 1], &[0, 3], &[2, 0]], &[1, 2, 3], &[3, 5]);
        let r = s.reorder();
        assert_eq!(rows(&r), vec![vec![0, 3], vec![2, 0], vec![2, 1]]);
        assert_eq!(vals(&r), vec![2, 3, 1]);
        assert!(r.is_ordered());
    }

    #[test]
    fn huge_dense_shapes_are_refused() {
        let e = dense_strides(&[1 << 40, 1 << 20], 1).unwrap_err();
        assert_eq!(e.class, ExceptionClass::ResourceExhaustedError);
        assert_eq!(dense_strides(&[2, 3, 4], 8).unwrap(), (vec![12, 4, 1], 24));
        let e = dense_strides(&[usize::MAX, 2, 0], 1).unwrap_err();
        assert_eq!(e.class, ExceptionClass::InvalidArgumentError);
    }
}
