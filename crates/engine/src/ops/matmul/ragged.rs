//! `tf.linalg.matmul` when an operand is ragged, dispatched as TensorFlow's
//! `ragged_math_ops.matmul` does: rank 2 multiplies densely (the rows must be uniform),
//! rank 3 with only `a`'s rows ragged multiplies each row of `a` by its batch's matrix, any
//! other rank-3 case multiplies batch by batch, and higher ranks fold their outer dimension.

use super::kernel::{Part, Plan};
use super::{check_dtypes, product, tf_shape, Transpose};
use crate::budget;
use crate::buffer::Scalar;
use crate::dtype::DType;
use crate::error::Result;
use crate::ops::concat::concat_dense;
use crate::partition::RowPartition;
use crate::ragged::{Array, Ragged};
use crate::tensor::Tensor;
use crate::{invalid_arg, value_error};

/// `tf.linalg.matmul(a, b)` on dense or ragged tensors: dense operands go to
/// [`super::matmul`]; with a ragged one the dtypes and ranks must match (ValueError, as in
/// TensorFlow) and the result is ragged for rank 3 and more, dense for rank 2.
pub fn matmul(a: &Array, b: &Array, t: Transpose) -> Result<Array> {
    if let (Array::Dense(x), Array::Dense(y)) = (a, b) {
        return super::matmul(x, y, t).map(Array::Dense);
    }
    if a.dtype() != b.dtype() {
        return Err(value_error!(
            "`a` and `b` must have the same dtype. (a is {}, b is {})",
            a.dtype(),
            b.dtype()
        )
        .with_hint("a ragged matmul does not convert dtypes: cast one side first with tf.cast"));
    }
    if a.rank() != b.rank() {
        return Err(value_error!(
            "`a` and `b` must have the same rank. (a has rank {}, b has rank {})",
            a.rank(),
            b.rank()
        )
        .with_hint("with a ragged operand, tf.linalg.matmul does not broadcast batch dimensions"));
    }
    match a.rank() {
        2 => matmul_2d(a, b, t).map(Array::Dense),
        3 => {
            let a_ragged_rank = match a {
                Array::Ragged(r) => r.ragged_rank(),
                Array::Dense(_) => 0,
            };
            match (a, b) {
                (Array::Ragged(r), Array::Dense(y)) if a_ragged_rank == 1 && !t.a => {
                    folded(r, y, t)
                }
                _ => batch_by_batch(a, b, t),
            }
        }
        _ => {
            let (ra, rb) = (as_ragged(a)?, as_ragged(b)?);
            if ra.outer().row_splits() != rb.outer().row_splits() {
                return Err(invalid_arg!(
                    "Batch dimensions of `a` and `b` do not have the same size. (a: {}, b: {})",
                    crate::size::shape_str(&a.shape()),
                    crate::size::shape_str(&b.shape())
                ));
            }
            let values = matmul(&ra.values(), &rb.values(), t)?;
            ra.with_values(values).map(Array::Ragged)
        }
    }
}

/// A dense operand as a ragged tensor of ragged rank 1 (uniform rows).
fn as_ragged(x: &Array) -> Result<Ragged> {
    match x {
        Array::Dense(t) => Ragged::from_tensor_uniform(t, 1),
        Array::Ragged(r) => Ok(r.clone()),
    }
}

/// A rank-2 operand as a dense matrix: a ragged one must have rows of one length.
fn dense_2d(x: &Array) -> Result<Tensor> {
    match x {
        Array::Dense(t) => Ok(t.clone()),
        Array::Ragged(r) => {
            let d = r.to_tensor(&Scalar::default_of(r.dtype()), None)?;
            if d.size() != r.flat_values().size() {
                return Err(invalid_arg!(
                    "The matrices in `a` and `b` may not be ragged in their innermost dimension. (row lengths {:?})",
                    r.row_lengths()
                )
                .with_hint("pad the rows first with rt.to_tensor(), or multiply batch by batch"));
            }
            Ok(d)
        }
    }
}

/// TensorFlow's `_matmul_2d`: both operands as dense matrices, multiplied densely.
fn matmul_2d(a: &Array, b: &Array, t: Transpose) -> Result<Tensor> {
    super::matmul(&dense_2d(a)?, &dense_2d(b)?, t)
}

/// TensorFlow's `_matmul_3d_with_batch_dim_folding`: `a` is `[B, (I), J]` (ragged rank 1),
/// `b` is `[B, J, K]`; each row of `a` times its batch's matrix gives `[B, (I), K]`.
fn folded(a: &Ragged, b: &Tensor, t: Transpose) -> Result<Array> {
    check_dtypes(a.dtype(), b.dtype(), "BatchMatMulV2")?;
    let values = a.flat_values();
    let (nvals, j) = (values.shape()[0], values.shape()[1]);
    let bs = b.shape();
    if a.nrows() != bs[0] {
        return Err(invalid_arg!(
            "a has {} rows (batches) but b has {}: the batch dimensions of `a` and `b` must be equal",
            a.nrows(),
            bs[0]
        ));
    }
    let (kb, n) = if t.b { (bs[2], bs[1]) } else { (bs[1], bs[2]) };
    if kb != j {
        // TensorFlow multiplies a.values as [N, 1, J] by b repeated to [N, ...].
        return Err(invalid_arg!(
            "Matrix size-incompatible: In[0]: {}, In[1]: {}",
            tf_shape(&[nvals, 1, j]),
            tf_shape(&[nvals, bs[1], bs[2]])
        )
        .with_hint(format!(
            "a's rows have {j} values but b's matrices have {kb} {}: they must be equal",
            if t.b { "columns (transposed)" } else { "rows" }
        )));
    }
    let what = "tf.linalg.matmul";
    let splits = a.outer().row_splits();
    let mut parts = budget::vec(what, a.nrows())?;
    for (bi, w) in splits.windows(2).enumerate() {
        let (r0, r1) = (w[0] as usize, w[1] as usize);
        parts.push(Part {
            a: r0 * j,
            b: bi * kb * n,
            rows: r1 - r0,
        });
    }
    let plan = Plan {
        k: j,
        n,
        ta: false,
        tb: t.b,
        parts,
    };
    let out = product(values.data(), b.data(), &plan, vec![nvals, n], what)?;
    a.with_flat_values(out).map(Array::Ragged)
}

/// TensorFlow's `_matmul_3d_with_map_fn`: batch `i` of the result is `a[i] · b[i]`, each
/// multiplied as rank 2. The result is `[B, (I), K]`, or `[B, (I), (K)]` when `b`'s
/// columns may differ between batches (`b` ragged with ragged rank 2, or transposed).
fn batch_by_batch(a: &Array, b: &Array, t: Transpose) -> Result<Array> {
    let nb = a.nrows();
    if b.nrows() != nb {
        return Err(invalid_arg!(
            "a has {nb} batches but b has {}: the batch dimensions of `a` and `b` must be equal",
            b.nrows()
        ));
    }
    let ragged_k = matches!(b, Array::Ragged(r) if r.ragged_rank() == 2 || t.b);
    let splits_dtype = match (a, b) {
        (Array::Ragged(r), _) | (_, Array::Ragged(r)) => r.row_splits_dtype(),
        _ => DType::Int64,
    };
    let what = "tf.linalg.matmul";
    let mut outer = budget::vec(what, nb)?;
    let mut inner = Vec::new();
    let mut blocks = budget::vec(what, nb)?;
    for i in 0..nb {
        let p = matmul_2d(&a.row(i as i64)?, &b.row(i as i64)?, t)?;
        let (rows, cols) = (p.shape()[0], p.shape()[1]);
        outer.push(rows as i64);
        if ragged_k {
            budget::extend_filled(what, &mut inner, cols as i64, rows)?;
            blocks.push(p.reshaped(vec![rows * cols])?);
        } else {
            blocks.push(p);
        }
    }
    let values = if blocks.is_empty() {
        let shape = if ragged_k {
            vec![0]
        } else {
            vec![0, static_k(b, t)]
        };
        Tensor::filled(what, shape, &Scalar::default_of(a.dtype()))?
    } else {
        let refs: Vec<&Tensor> = blocks.iter().collect();
        concat_dense(&refs, 0)?
    };
    let mut partitions = vec![RowPartition::from_row_lengths(&outer, None)?];
    if ragged_k {
        partitions.push(RowPartition::from_row_lengths(&inner, None)?);
    }
    let partitions = partitions
        .into_iter()
        .map(|p| p.with_splits_dtype(splits_dtype))
        .collect();
    Ragged::new(partitions, values).map(Array::Ragged)
}

/// The columns of every batch's product when they are uniform (`b` dense, or ragged with
/// dense matrices rows).
fn static_k(b: &Array, t: Transpose) -> usize {
    let shape = b.shape();
    let pick = if t.b { shape[1] } else { shape[2] };
    pick.unwrap_or(0)
}
