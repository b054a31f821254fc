//! Linear algebra: `tf.linalg.matmul` (also `tf.matmul` and the `@` operator) on dense and
//! ragged tensors, and NumPy's `np.matmul`.

use super::Builtin;
use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::operators::numpy_matmul;
use crate::eval::Interp;
use crate::value::Value;
use ragtag_engine::ops::matmul::{matmul_arrays, Transpose};
use ragtag_engine::{Array, DType, ExceptionClass};
use std::sync::Arc;

/// The matrix products.
pub static BUILTINS: &[Builtin] = &[
    Builtin::function(
        "tf.linalg.matmul",
        "(a, b, transpose_a=False, transpose_b=False, adjoint_a=False, adjoint_b=False, a_is_sparse=False, b_is_sparse=False, output_type=None, grad_a=False, grad_b=False, name=None)",
        matmul,
    )
    .doc("The matrix product a · b of the two inner dimensions; outer (batch) dimensions broadcast. Both operands need one dtype (int32, int64, float32 or float64; integers wrap around on overflow) and rank 2 or more; a Python list converts to a's dtype. transpose_x (or adjoint_x: the same for real numbers) reads an operand transposed. With a RaggedTensor operand it follows TensorFlow's ragged matmul: ranks must match, [B, (I), J] · [B, J, K] is a RaggedTensor [B, (I), K], and rank-2 ragged operands must have rows of one length. a_is_sparse, b_is_sparse, grad_a and grad_b are hints with no effect on the result. Also the `@` operator.")
    .aliases(&["tf.matmul"])
    .examples(&[
        "tf.linalg.matmul(tf.constant([[1, 2], [3, 4]]), tf.constant([[5], [6]]))",
        "tf.matmul([[1.0, 2.0]], [[3.0, 4.0]], transpose_b=True)",
        "tf.linalg.matmul(tf.ones([2, 2, 3]), tf.ones([3, 1]))",
        "tf.linalg.matmul(tf.ragged.constant([[[1.0, 2.0]], [[3.0, 4.0], [5.0, 6.0]]], ragged_rank=1), tf.constant([[[1.0], [1.0]], [[2.0], [0.0]]]))",
        "tf.constant([[1, 2]]) @ [[3], [4]]",
    ]),
    Builtin::function("np.matmul", "(x1, x2)", np_matmul)
        .doc("NumPy's matrix product: the two inner dimensions multiply and outer ones broadcast; a vector operand is a row (first) or a column (second) whose dimension leaves the result, so two vectors give their dot product. The operands take NumPy's common dtype (int32 with float32 is float64); the result is a NumPy array. Also `@` between NumPy arrays.")
        .examples(&[
            "np.matmul(np.array([[1, 2], [3, 4]]), np.array([1, 1]))",
            "np.array([1.0, 2.0]) @ np.array([3.0, 4.0])",
        ]),
];

/// `tf.linalg.matmul(a, b, ...)`.
fn matmul(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let is_ragged = |v: &Value| matches!(v, Value::Array(x) if matches!(**x, Array::Ragged(_)));
    let ragged = is_ragged(a.value("a")) || is_ragged(a.value("b"));
    let mut flags = [false; 4];
    for (f, name) in flags
        .iter_mut()
        .zip(["transpose_a", "transpose_b", "adjoint_a", "adjoint_b"])
    {
        *f = a.flag(name, false)?;
    }
    for name in ["a_is_sparse", "b_is_sparse", "grad_a", "grad_b"] {
        a.flag(name, false)?;
    }
    a.opt_str("name")?;
    let [ta, tb, aa, ab] = flags;
    for (side, t, adj) in [("a", ta, aa), ("b", tb, ab)] {
        if t && adj {
            let msg = if ragged {
                format!("Only one of transpose_{side} and adjoint_{side} can be True.")
            } else {
                format!("Only one of `transpose_{side}` and `adjoint_{side}` can be True. Received `transpose_{side}`=True, `adjoint_{side}`=True.")
            };
            return Err(Error::new(ExceptionClass::ValueError, msg)
                .with_hint("for real numbers the adjoint is the transpose: pass one of them")
                .at(a.span(&format!("adjoint_{side}"))));
        }
    }
    // TensorFlow converts `b` to `a`'s dtype where it can, except beside a ragged tensor.
    let mut x = a.array("a", None)?;
    let mut y = a.array("b", if ragged { None } else { Some(x.dtype()) })?;
    if let Some(d) = a.dtype("output_type")? {
        // BatchMatMulV3's one widening kernel: 8-bit ints multiply into int32.
        let eight_bit = |d: DType| matches!(d, DType::Int8 | DType::UInt8);
        if d == DType::Int32 && eight_bit(x.dtype()) && eight_bit(y.dtype()) {
            let wide = |t: &Array, side: &str| {
                super::cast_array(t, DType::Int32)
                    .map(Arc::new)
                    .map_err(|e| a.err_at(side, e))
            };
            x = wide(&x, "a")?;
            y = wide(&y, "b")?;
        }
        if d != x.dtype() || d != y.dtype() {
            return Err(Error::new(
                ExceptionClass::UnimplementedError,
                format!(
                    "no matmul kernel computes {d} from {} and {} (TensorFlow's BatchMatMulV3 has none for these dtypes: output_type is for int8 inputs)",
                    x.dtype(),
                    y.dtype()
                ),
            )
            .with_hint(format!(
                "cast the product instead: tf.cast(tf.linalg.matmul(a, b), tf.{})",
                d.name()
            ))
            .at(a.span("output_type")));
        }
    }
    let t = Transpose {
        a: ta || aa,
        b: tb || ab,
    };
    matmul_arrays(&x, &y, t)
        .map(Value::from_array)
        .map_err(|e| Error::from(e).at(a.call))
}

/// `np.matmul(x1, x2)`.
fn np_matmul(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    numpy_matmul(a.value("x1"), a.value("x2")).map_err(|e| Error::from(e).at(a.call))
}
