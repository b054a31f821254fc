//! Matrix products: `tf.linalg.matmul` on dense tensors (TensorFlow's MatMul and
//! BatchMatMulV2 kernels: broadcast batch dimensions, transposed operands), on ragged
//! tensors (TensorFlow's ragged dispatch, in [`ragged`]), and NumPy's `matmul` (vectors
//! allowed, NumPy's messages).

mod kernel;
mod ragged;

pub use ragged::matmul as matmul_arrays;

use crate::buffer::Buffer;
use crate::dtype::DType;
use crate::error::Result;
use crate::exceptions::{Exception, ExceptionClass};
use crate::tensor::Tensor;
use crate::{budget, size};
use crate::{invalid_arg, type_error, value_error};
use kernel::{Part, Plan};

/// Which operands are read transposed (`transpose_x` or `adjoint_x`: the same thing for
/// ragtag's real numbers).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Transpose {
    /// Read `a` as its transpose.
    pub a: bool,
    /// Read `b` as its transpose.
    pub b: bool,
}

/// A shape as TensorFlow's kernels print it: `[2,3]`.
fn tf_shape(s: &[usize]) -> String {
    let dims: Vec<String> = s.iter().map(|d| d.to_string()).collect();
    format!("[{}]", dims.join(","))
}

/// A shape as NumPy prints it: `(2, 3)`, `(3,)`.
fn np_shape(s: &[usize]) -> String {
    match s {
        [d] => format!("({d},)"),
        _ => {
            let dims: Vec<String> = s.iter().map(|d| d.to_string()).collect();
            format!("({})", dims.join(", "))
        }
    }
}

/// A dtype as TensorFlow's op messages name it (`float`, `double`).
fn tf_dtype(d: DType) -> &'static str {
    match d {
        DType::Float32 => "float",
        DType::Float64 => "double",
        _ => d.name(),
    }
}

/// The batch shape two batch shapes broadcast to (NumPy's rules, right-aligned), if any.
fn broadcast_batch(a: &[usize], b: &[usize]) -> Option<Vec<usize>> {
    let rank = a.len().max(b.len());
    let dim = |s: &[usize], i: usize| {
        let pad = rank - s.len();
        if i < pad {
            1
        } else {
            s[i - pad]
        }
    };
    (0..rank)
        .map(|i| match (dim(a, i), dim(b, i)) {
            (x, y) if x == y => Some(x),
            (1, y) => Some(y),
            (x, 1) => Some(x),
            _ => None,
        })
        .collect()
}

/// For every index of the batch shape `out` (row-major), the flat batch index of `a` and
/// of `b` (whose batch shapes broadcast to `out`).
#[allow(clippy::disallowed_methods)] // the per-dimension vectors have the rank's length
fn batch_pairs(out: &[usize], a: &[usize], b: &[usize]) -> Result<Vec<(usize, usize)>> {
    let count = size::numel(out)?;
    let mut pairs = budget::vec("tf.linalg.matmul", count)?;
    // Each operand's stride along each output batch dimension (0 where it broadcasts).
    let strides = |s: &[usize]| -> Vec<usize> {
        let pad = out.len() - s.len();
        let mut st = vec![0; out.len()];
        let mut acc = 1;
        for i in (0..s.len()).rev() {
            st[pad + i] = if s[i] == 1 { 0 } else { acc };
            acc *= s[i];
        }
        st
    };
    let (sa, sb) = (strides(a), strides(b));
    let mut idx = vec![0usize; out.len()];
    for _ in 0..count {
        let ai = idx.iter().zip(&sa).map(|(i, s)| i * s).sum();
        let bi = idx.iter().zip(&sb).map(|(i, s)| i * s).sum();
        pairs.push((ai, bi));
        for d in (0..out.len()).rev() {
            idx[d] += 1;
            if idx[d] < out[d] {
                break;
            }
            idx[d] = 0;
        }
    }
    Ok(pairs)
}

/// `a · b` for every pair of batch indices, as a tensor of `shape`: `a` holds `[m, k]`
/// matrices (`[k, m]` when transposed), `b` holds `[k, n]` ones (`[n, k]`).
#[allow(clippy::too_many_arguments)] // the product's full geometry
fn batched(
    a: &Tensor,
    b: &Tensor,
    (m, k, n): (usize, usize, usize),
    t: Transpose,
    pairs: &[(usize, usize)],
    shape: Vec<usize>,
    what: &str,
) -> Result<Tensor> {
    let mut parts = budget::vec(what, pairs.len())?;
    parts.extend(pairs.iter().map(|&(ai, bi)| Part {
        a: ai * m * k,
        b: bi * k * n,
        rows: m,
    }));
    let plan = Plan {
        k,
        n,
        ta: t.a,
        tb: t.b,
        parts,
    };
    product(a.data(), b.data(), &plan, shape, what)
}

/// Runs `plan` on buffers of one dtype; the result has `shape`.
fn product(a: &Buffer, b: &Buffer, plan: &Plan, shape: Vec<usize>, what: &str) -> Result<Tensor> {
    let data = crate::dispatch!(elements pair (a, b), (x, y) => {
        Buffer::from(kernel::run(x, y, plan, what)?)
    }, _ => return Err(type_error!(
        "{what} multiplies numbers of one dtype, not {} and {}",
        a.dtype(),
        b.dtype()
    )));
    Tensor::new(shape, data)
}

/// TensorFlow's dtype checks, in eager order: the operands must share a dtype (`op` is the
/// kernel's name in the message), which must be a number type.
fn check_dtypes(a: DType, b: DType, op: &str) -> Result<()> {
    if a != b {
        return Err(invalid_arg!(
            "cannot compute {op} as input #1(zero-based) was expected to be a {} tensor but is a {} tensor",
            tf_dtype(a),
            tf_dtype(b)
        )
        .with_hint(format!(
            "tf.linalg.matmul does not convert dtypes: cast one side first, e.g. tf.cast(b, tf.{})",
            a.name()
        )));
    }
    if !a.is_numeric() || matches!(a, DType::Int8 | DType::Int16) {
        return Err(invalid_arg!(
            "Value for attr 'T' of {} is not in the list of allowed values: matmul multiplies float16, bfloat16, float32, float64, int32 and int64 tensors",
            a.name()
        )
        .with_hint(if a == DType::Int8 {
            "int8 tensors multiply with output_type=tf.int32; or cast first, e.g. tf.cast(x, tf.int32)"
        } else {
            "cast first, e.g. tf.cast(x, tf.int32)"
        }));
    }
    if a.is_unsigned() {
        // In the op's signature, but TensorFlow has no CPU kernel for them.
        return Err(crate::Exception::new(
            crate::ExceptionClass::NotFoundError,
            format!("TensorFlow has no kernel for {op} of {} tensors", a.name()),
        )
        .with_hint(if a == DType::UInt8 {
            "uint8 tensors multiply with output_type=tf.int32; or cast first, e.g. tf.cast(x, tf.int32)"
        } else {
            "cast first, e.g. tf.cast(x, tf.int64)"
        }));
    }
    Ok(())
}

/// `tf.linalg.matmul(a, b)` on dense tensors: the two inner dimensions multiply, the outer
/// (batch) dimensions broadcast. Both of rank 2 runs TensorFlow's MatMul kernel, anything
/// else its BatchMatMulV2 kernel; the errors are theirs (InvalidArgumentError).
///
/// ```
/// use ragtag_engine::{Buffer, Tensor};
/// use ragtag_engine::ops::matmul::{matmul, Transpose};
///
/// let a = Tensor::new(vec![2, 2], Buffer::from(vec![1i32, 2, 3, 4])).unwrap();
/// let b = Tensor::new(vec![2, 1], Buffer::from(vec![5i32, 6])).unwrap();
/// let c = matmul(&a, &b, Transpose::default()).unwrap();
/// assert_eq!((c.shape(), c.data()), (&[2, 1][..], &Buffer::from(vec![17i32, 39])));
/// assert!(matmul(&b, &b, Transpose::default()).is_err());
/// ```
pub fn matmul(a: &Tensor, b: &Tensor, t: Transpose) -> Result<Tensor> {
    let legacy = a.rank() <= 2 && b.rank() <= 2;
    let op = if legacy { "MatMul" } else { "BatchMatMulV2" };
    check_dtypes(a.dtype(), b.dtype(), op)?;
    let shapes = format!(
        "a has shape {} and b has shape {}",
        tf_shape(a.shape()),
        tf_shape(b.shape())
    );
    if legacy && a.rank() != b.rank() {
        return Err(invalid_arg!(
            "In[0] and In[1] has different ndims: {} vs. {}: both operands of tf.linalg.matmul must be matrices",
            tf_shape(a.shape()),
            tf_shape(b.shape())
        )
        .with_hint("make a vector a matrix first: tf.reshape(v, [1, -1]) is a row, tf.reshape(v, [-1, 1]) a column"));
    }
    if legacy && a.rank() != 2 {
        return Err(invalid_arg!(
            "In[0] and In[1] ndims must be == 2: {} ({shapes}; tf.linalg.matmul multiplies matrices)",
            a.rank()
        )
        .with_hint("for a dot product of vectors use tf.reduce_sum(a * b); np.matmul accepts vectors"));
    }
    for (i, x) in [a, b].into_iter().enumerate() {
        if x.rank() < 2 {
            return Err(invalid_arg!(
                "In[{i}] ndims must be >= 2: {} ({shapes}; tf.linalg.matmul multiplies matrices)",
                x.rank()
            )
            .with_hint("make a vector a matrix first: tf.reshape(v, [1, -1]) is a row, tf.reshape(v, [-1, 1]) a column"));
        }
    }
    let (ab, am) = a.shape().split_at(a.rank() - 2);
    let (bb, bm) = b.shape().split_at(b.rank() - 2);
    let Some(out_batch) = broadcast_batch(ab, bb) else {
        return Err(invalid_arg!(
            "In[0] and In[1] must have compatible batch dimensions: {} vs. {}",
            tf_shape(a.shape()),
            tf_shape(b.shape())
        )
        .with_hint(format!(
            "the batch dimensions {} and {} must be equal or 1 where they differ",
            tf_shape(ab),
            tf_shape(bb)
        )));
    };
    let (m, ka) = if t.a { (am[1], am[0]) } else { (am[0], am[1]) };
    let (kb, n) = if t.b { (bm[1], bm[0]) } else { (bm[0], bm[1]) };
    if ka != kb {
        return Err(invalid_arg!(
            "Matrix size-incompatible: In[0]: {}, In[1]: {}",
            tf_shape(a.shape()),
            tf_shape(b.shape())
        )
        .with_hint(format!(
            "a's inner dimension is {ka} ({}) but b's is {kb} ({}): they must be equal",
            if t.a {
                "its rows, transposed"
            } else {
                "its columns"
            },
            if t.b {
                "its columns, transposed"
            } else {
                "its rows"
            },
        )));
    }
    let mut shape = out_batch.clone();
    shape.extend([m, n]);
    let what = "tf.linalg.matmul";
    budget::check_shape(what, &shape, a.dtype().item_bytes())?;
    let pairs = if size::numel(&shape)? == 0 {
        Vec::new()
    } else {
        batch_pairs(&out_batch, ab, bb)?
    };
    batched(a, b, (m, ka, n), t, &pairs, shape, what)
}

/// NumPy's `np.matmul(a, b)` (and `a @ b` on arrays), on operands already of one dtype:
/// a rank-1 operand is a row (`a`) or a column (`b`) whose dimension leaves the result;
/// batch dimensions broadcast; errors are NumPy's ValueErrors.
pub fn numpy_matmul(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    const SIG: &str = "(n?,k),(k,m?)->(n?,m?)";
    for (i, x) in [a, b].into_iter().enumerate() {
        if x.rank() == 0 {
            return Err(value_error!(
                "matmul: Input operand {i} does not have enough dimensions (has 0, gufunc core with signature {SIG} requires 1)"
            )
            .with_hint("multiply by a scalar with *, not @"));
        }
        if x.dtype() == DType::String {
            return Err(Exception::new(
                ExceptionClass::TypeError,
                "ufunc 'matmul' did not contain a loop with signature matching types: it multiplies numbers and bools, not strings",
            ));
        }
    }
    // A vector becomes a one-row (a) or one-column (b) matrix.
    let a_shape: Vec<usize> = match a.shape() {
        [k] => vec![1, *k],
        s => s.to_vec(),
    };
    let b_shape: Vec<usize> = match b.shape() {
        [k] => vec![*k, 1],
        s => s.to_vec(),
    };
    let (ab, am) = a_shape.split_at(a_shape.len() - 2);
    let (bb, bm) = b_shape.split_at(b_shape.len() - 2);
    let (m, k, n) = (am[0], am[1], bm[1]);
    if bm[0] != k {
        return Err(value_error!(
            "matmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature {SIG} (size {} is different from {k})",
            bm[0]
        )
        .with_hint(format!(
            "a {} has {k} columns but b {} has {} rows",
            np_shape(a.shape()),
            np_shape(b.shape()),
            bm[0]
        )));
    }
    let Some(out_batch) = broadcast_batch(ab, bb) else {
        let remap = |s: &[usize], batch: &[usize]| {
            let mut r: Vec<String> = batch.iter().map(|d| d.to_string()).collect();
            r.extend(["newaxis".to_string(), "newaxis".to_string()]);
            format!(
                "{}->({})",
                tf_shape(s).replace('[', "(").replace(']', ")"),
                r.join(",")
            )
        };
        return Err(value_error!(
            "operands could not be broadcast together with remapped shapes [original->remapped]: {} {}  and requested shape ({m},{n})",
            remap(a.shape(), ab),
            remap(b.shape(), bb)
        ));
    };
    let mut shape = out_batch.clone();
    if a.rank() > 1 {
        shape.push(m);
    }
    if b.rank() > 1 {
        shape.push(n);
    }
    let what = "np.matmul";
    budget::check_shape(what, &shape, a.dtype().item_bytes())?;
    let pairs = if size::numel(&shape)? == 0 {
        Vec::new()
    } else {
        batch_pairs(&out_batch, ab, bb)?
    };
    batched(a, b, (m, k, n), Transpose::default(), &pairs, shape, what)
}
