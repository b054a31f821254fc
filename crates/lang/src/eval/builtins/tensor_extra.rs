//! More of the `tf` namespace: `tf.repeat`, `tf.slice`, `tf.broadcast_to`, `tf.eye`,
//! `tf.linspace`, the identities (`tf.stop_gradient`, `tf.identity_n`), `tf.is_tensor`,
//! `tf.executing_eagerly`, and the matrix helpers of `tf.linalg` (`matrix_transpose` /
//! `adjoint`, `trace`, `diag`, `diag_part`, `band_part`), all as one gather of positions
//! (`ops::layout::remap`).

use super::layout::dense_arg;
use super::Builtin;
use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::Interp;
use crate::value::Value;
use ragtag_engine::ops::layout::{self, strides};
use ragtag_engine::{Buffer, DType, ExceptionClass, Scalar, Tensor};

/// Builtins of `tf` and `tf.linalg`.
pub static BUILTINS: &[Builtin] = &[
    Builtin::function("tf.repeat", "(input, repeats, axis=None, name=None)", repeat)
        .doc("Repeats each slice along `axis` `repeats` times (one count for all, or one per slice); without `axis` the input is flattened first.")
        .examples(&["tf.repeat(tf.constant([[1, 2], [3, 4]]), [1, 2], axis=0)", "tf.repeat(['a', 'b'], 2)"]),
    Builtin::function("tf.slice", "(input_, begin, size, name=None)", slice)
        .doc("The block of `input_` starting at `begin` with `size` elements along each dimension (-1: everything to the end).")
        .examples(&["tf.slice(tf.constant([[1, 2, 3], [4, 5, 6]]), [0, 1], [2, -1])"]),
    Builtin::function("tf.broadcast_to", "(input, shape, name=None)", broadcast_to)
        .doc("`input` broadcast to `shape`: dimensions of size 1 (and missing leading ones) repeat.")
        .examples(&["tf.broadcast_to([1, 2], [3, 2])"]),
    Builtin::function("tf.eye", "(num_rows, num_columns=None, batch_shape=None, dtype=tf.float32, name=None)", eye)
        .doc("The identity matrix (ones on the diagonal), `num_rows` by `num_columns` (default square), repeated over `batch_shape`.")
        .aliases(&["tf.linalg.eye"])
        .examples(&["tf.eye(2, 3, dtype=tf.int32)"]),
    Builtin::function("tf.linspace", "(start, stop, num, name=None, axis=0)", linspace)
        .doc("`num` evenly spaced values from `start` to `stop`, both included (float32 for float32 ends, float64 for ints).")
        .examples(&["tf.linspace(0.0, 1.0, 5)"]),
    Builtin::function("tf.stop_gradient", "(input, name=None)", |_, a| Ok(a.value("input").clone()))
        .doc("The input itself: eager evaluation has no gradients to stop.")
        .examples(&["tf.stop_gradient(tf.ragged.constant([[1, 2], [3]]))"]),
    Builtin::function("tf.identity_n", "(input, name=None)", identity_n)
        .doc("Each tensor of the list `input`, unchanged, as a list.")
        .examples(&["tf.identity_n([tf.constant(1), tf.constant([2.0])])"]),
    Builtin::function("tf.is_tensor", "(x)", |_, a| Ok(Value::Bool(matches!(a.value("x"), Value::Array(_) | Value::Sparse(_)))))
        .doc("True for a Tensor, RaggedTensor or SparseTensor; False for Python values.")
        .examples(&["tf.is_tensor(tf.ragged.constant([[1]]))", "tf.is_tensor([1])"]),
    Builtin::function("tf.executing_eagerly", "()", |_, _| Ok(Value::Bool(true)))
        .doc("True: ragtag runs everything eagerly, as TensorFlow 2 does outside tf.function.")
        .examples(&["tf.executing_eagerly()"]),
    Builtin::function("tf.linalg.matrix_transpose", "(a, name='matrix_transpose', conjugate=False)", matrix_transpose)
        .doc("Swaps the last two dimensions of a (batch of) matrices.")
        .aliases(&["tf.linalg.adjoint"])
        .examples(&["tf.linalg.matrix_transpose(tf.constant([[1, 2, 3]]))"]),
    Builtin::function("tf.linalg.trace", "(x, name=None)", trace)
        .doc("The sum of the main diagonal of each matrix in the last two dimensions.")
        .examples(&["tf.linalg.trace(tf.constant([[1, 2], [3, 4]]))"]),
    Builtin::function("tf.linalg.diag_part", "(input, name='diag_part', k=0, padding_value=0, align='RIGHT_LEFT')", diag_part)
        .doc("The `k`-th diagonal (0: the main one, positive above it) of each matrix in the last two dimensions.")
        .examples(&["tf.linalg.diag_part(tf.constant([[1, 2, 3], [4, 5, 6]]))"]),
    Builtin::function("tf.linalg.diag", "(diagonal, name='diag', k=0, num_rows=-1, num_cols=-1, padding_value=0, align='RIGHT_LEFT')", diag)
        .doc("Square matrices with `diagonal`'s last dimension on their `k`-th diagonal and zeros elsewhere.")
        .examples(&["tf.linalg.diag(tf.constant([1, 2]))"]),
    Builtin::function("tf.linalg.band_part", "(input, num_lower, num_upper, name=None)", band_part)
        .doc("Each matrix with everything outside the band of `num_lower` diagonals below and `num_upper` above the main one set to zero (-1 keeps a whole triangle).")
        .examples(&["tf.linalg.band_part(tf.reshape(tf.range(16), [4, 4]), 1, -1)"]),
];

fn err(class: ExceptionClass, msg: String) -> Error {
    Error::new(class, msg)
}

/// The zero of `d` (the empty string for strings).
fn zero(d: DType) -> Scalar {
    if d == DType::String {
        Scalar::Str(Vec::new())
    } else {
        ragtag_engine::ops::cast::cast_scalar(&Scalar::I64(0), d).unwrap_or(Scalar::I64(0))
    }
}

/// The position of `t`'s element at coordinates `c` (as many as its rank).
fn at(st: &[usize], c: &[usize]) -> usize {
    c.iter().zip(st).map(|(a, b)| a * b).sum()
}

fn repeat(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let t = dense_arg(a, "input", None)?;
    let (t, axis) = match a.opt_int("axis")? {
        None => {
            let n = t.size();
            (t.reshaped(vec![n]).map_err(|e| a.err_at("input", e))?, 0)
        }
        Some(ax) => {
            let k = ragtag_engine::ops::positive_axis(
                ax,
                t.rank(),
                ExceptionClass::InvalidArgumentError,
                "axis",
            )
            .map_err(|e| a.err_at("axis", e))?;
            (t, k)
        }
    };
    let n = t.shape()[axis];
    let reps = a.ints("repeats")?;
    let reps: Vec<i64> = match reps.len() {
        1 => (0..n).map(|_| reps[0]).collect(),
        m if m == n => reps,
        m => {
            return Err(err(
                ExceptionClass::ValueError,
                format!("Dimensions {n} and {m} are not compatible"),
            )
            .at(a.span("repeats")))
        }
    };
    if let Some(r) = reps.iter().find(|&&r| r < 0) {
        return Err(err(
            ExceptionClass::InvalidArgumentError,
            format!("Expected multiples >= 0, but got {r}"),
        )
        .at(a.span("repeats")));
    }
    let total: i64 = reps.iter().sum();
    let mut src: Vec<usize> = ragtag_engine::budget::vec("tf.repeat", total as usize)
        .map_err(|e| a.err_at("repeats", e))?;
    for (i, &r) in reps.iter().enumerate() {
        src.extend(std::iter::repeat_n(i, r as usize));
    }
    let mut shape = t.shape().to_vec();
    shape[axis] = src.len();
    let st = strides(t.shape());
    let mut c2 = Vec::new();
    let out = layout::remap(
        "tf.repeat",
        &t,
        shape,
        |c| {
            c2.clear();
            c2.extend_from_slice(c);
            c2[axis] = src[c[axis]];
            Some(at(&st, &c2))
        },
        &zero(t.dtype()),
    )
    .map_err(|e| a.err_at("repeats", e))?;
    Ok(Value::tensor(out))
}

fn slice(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let t = dense_arg(a, "input_", None)?;
    let begin = a.ints("begin")?;
    let size = a.ints("size")?;
    let r = t.rank();
    if begin.len() != r || size.len() != r {
        return Err(err(
            ExceptionClass::InvalidArgumentError,
            format!(
                "Expected begin and size arguments to be 1-D tensors of size {r}, but got shapes [{}] and [{}] instead.",
                begin.len(),
                size.len()
            ),
        )
        .at(a.span("begin")));
    }
    let mut shape = Vec::new();
    for d in 0..r {
        let n = t.shape()[d] as i64;
        let b = begin[d];
        if b < 0 || b > n {
            return Err(err(
                ExceptionClass::InvalidArgumentError,
                format!("Expected begin[{d}] in [0, {n}], but got {b}"),
            )
            .at(a.span("begin")));
        }
        let s = if size[d] == -1 { n - b } else { size[d] };
        if s < 0 || s > n - b {
            return Err(err(
                ExceptionClass::InvalidArgumentError,
                format!("Expected size[{d}] in [0, {}], but got {}", n - b, size[d]),
            )
            .at(a.span("size")));
        }
        shape.push(s as usize);
    }
    let st = strides(t.shape());
    let out = layout::remap(
        "tf.slice",
        &t,
        shape,
        |c| {
            Some(
                c.iter()
                    .enumerate()
                    .map(|(d, &x)| (x + begin[d] as usize) * st[d])
                    .sum(),
            )
        },
        &zero(t.dtype()),
    )
    .map_err(|e| a.err_at("input_", e))?;
    Ok(Value::tensor(out))
}

fn broadcast_to(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let t = dense_arg(a, "input", None)?;
    let target = a.ints("shape")?;
    let r = t.rank();
    let bad = || {
        err(
            ExceptionClass::InvalidArgumentError,
            format!(
                "Incompatible shapes: {} vs. {}",
                ragtag_engine::ops::dense_shape_str(t.shape()),
                super::common::list_str(target.iter()).replace(' ', "")
            ),
        )
        .at(a.span("shape"))
    };
    if target.len() < r || target.iter().any(|&d| d < 0) {
        return Err(bad());
    }
    let off = target.len() - r;
    for d in 0..r {
        let (n, m) = (t.shape()[d] as i64, target[off + d]);
        if n != m && n != 1 {
            return Err(bad());
        }
    }
    let shape: Vec<usize> = target.iter().map(|&d| d as usize).collect();
    let out = layout::broadcast_to(&t, shape).map_err(|e| a.err_at("input", e))?;
    Ok(Value::tensor(out))
}

fn eye(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let rows = a.int("num_rows")?;
    let cols = a.opt_int("num_columns")?.unwrap_or(rows);
    let batch = match a.get("batch_shape") {
        Some(_) => a.ints("batch_shape")?,
        None => Vec::new(),
    };
    if let Some(d) = batch.iter().chain([rows, cols].iter()).find(|&&d| d < 0) {
        return Err(err(
            ExceptionClass::InvalidArgumentError,
            format!("Dimension {d} must be >= 0"),
        )
        .at(a.span("num_rows")));
    }
    let dtype = a.dtype("dtype")?.unwrap_or(DType::Float32);
    let mut shape: Vec<usize> = batch.iter().map(|&d| d as usize).collect();
    shape.extend([rows as usize, cols as usize]);
    let one = ragtag_engine::ops::cast::cast_scalar(&Scalar::I64(1), dtype)
        .map_err(|e| a.err_at("dtype", e))?;
    let src = Tensor::from_parts(vec![1], Buffer::filled(&one, 1));
    let k = shape.len();
    let out = layout::remap(
        "tf.eye",
        &src,
        shape,
        |c| (c[k - 2] == c[k - 1]).then_some(0),
        &zero(dtype),
    )
    .map_err(|e| a.err_at("num_rows", e))?;
    Ok(Value::tensor(out))
}

fn linspace(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let start = dense_arg(a, "start", None)?;
    let stop = dense_arg(a, "stop", Some(start.dtype()))?;
    let num = a.int("num")?;
    let dtype = if start.dtype().is_float() {
        start.dtype()
    } else {
        DType::Float64
    };
    let scalar = |t: &Tensor| {
        t.data()
            .to_f64_vec()
            .filter(|v| v.len() == 1 && t.rank() == 0)
            .map(|v| v[0])
    };
    let (Some(s), Some(e)) = (scalar(&start), scalar(&stop)) else {
        return Err(err(
            ExceptionClass::InvalidArgumentError,
            "tf.linspace in ragtag needs scalar numbers for start and stop".to_string(),
        )
        .at(a.span("start")));
    };
    if num < 0 {
        return Err(err(
            ExceptionClass::InvalidArgumentError,
            format!("Requires start <= limit when delta > 0: 1/{}", num - 1),
        )
        .at(a.span("num")));
    }
    let n = num as usize;
    let steps = (num - 1).max(1);
    // TensorFlow computes start + i * delta in the output dtype, and ends at `stop` exactly.
    let vals: Vec<f64> = if dtype == DType::Float32 {
        let (s32, e32) = (s as f32, e as f32);
        let delta = (e32 - s32) / steps as f32;
        (0..n)
            .map(|i| {
                if i == 0 {
                    s32 as f64
                } else if i + 1 == n {
                    e32 as f64
                } else {
                    (s32 + i as f32 * delta) as f64
                }
            })
            .collect()
    } else {
        let delta = (e - s) / steps as f64;
        (0..n)
            .map(|i| {
                if i == 0 {
                    s
                } else if i + 1 == n {
                    e
                } else {
                    s + i as f64 * delta
                }
            })
            .collect()
    };
    Ok(Value::tensor(Tensor::from_parts(
        vec![n],
        Buffer::from_f64s(vals, dtype),
    )))
}

fn identity_n(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let items = super::array::tensor_list(a, "input")?;
    Ok(Value::list(
        items.into_iter().map(Value::from_array).collect(),
    ))
}

/// Argument `name` as a dense tensor of rank at least 2 (`class` error otherwise).
fn matrices(a: &Args, name: &str, class: ExceptionClass) -> Result<Tensor> {
    let t = dense_arg(a, name, None)?;
    if t.rank() < 2 {
        return Err(err(
            class,
            format!(
                "{} needs a (batch of) matrices of rank >= 2, not shape {}",
                a.builtin().name,
                ragtag_engine::ops::dense_shape_str(t.shape())
            ),
        )
        .at(a.span(name)));
    }
    Ok(t)
}

fn matrix_transpose(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let t = matrices(a, "a", ExceptionClass::ValueError)?;
    let r = t.rank() as i64;
    let mut perm: Vec<i64> = (0..r).collect();
    perm.swap((r - 2) as usize, (r - 1) as usize);
    layout::transpose(&t, &perm)
        .map(Value::tensor)
        .map_err(|e| a.err_at("a", e))
}

/// The `k`-th diagonal of each matrix of `t`.
fn diagonal(a: &Args, t: &Tensor, k: i64) -> Result<Tensor> {
    let r = t.rank();
    let (m, n) = (t.shape()[r - 2] as i64, t.shape()[r - 1] as i64);
    let len = if k >= 0 { m.min(n - k) } else { (m + k).min(n) }.max(0) as usize;
    let mut shape = t.shape()[..r - 2].to_vec();
    shape.push(len);
    let st = strides(t.shape());
    layout::remap(
        "tf.linalg.diag_part",
        t,
        shape,
        |c| {
            let i = c[r - 2];
            let (row, col) = if k >= 0 {
                (i, i + k as usize)
            } else {
                (i + (-k) as usize, i)
            };
            Some(at(&st[..r - 2], &c[..r - 2]) + row * st[r - 2] + col)
        },
        &zero(t.dtype()),
    )
    .map_err(|e| a.err_at("input", e))
}

fn diag_part(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let t = matrices(a, "input", ExceptionClass::InvalidArgumentError)?;
    let k = a.opt_int("k")?.unwrap_or(0);
    diagonal(a, &t, k).map(Value::tensor)
}

fn trace(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let t = matrices(a, "x", ExceptionClass::InvalidArgumentError)?;
    let d = diagonal(a, &t, 0)?;
    let sum = ragtag_engine::ops::reduce::reduce(
        &ragtag_engine::Array::Dense(d),
        Some(&[-1]),
        ragtag_engine::ops::reduce::ReduceOp::Sum,
        false,
    )
    .map_err(|e| a.err_at("x", e))?;
    Ok(Value::from_array(sum))
}

fn diag(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let t = dense_arg(a, "diagonal", None)?;
    if t.rank() == 0 {
        return Err(err(
            ExceptionClass::InvalidArgumentError,
            "diagonal must be at least 1-dim, received shape: []".to_string(),
        )
        .at(a.span("diagonal")));
    }
    let k = a.opt_int("k")?.unwrap_or(0);
    let r = t.rank();
    let n = t.shape()[r - 1];
    let size = n + k.unsigned_abs() as usize;
    let mut shape = t.shape()[..r - 1].to_vec();
    shape.extend([size, size]);
    let st = strides(t.shape());
    let out = layout::remap(
        "tf.linalg.diag",
        &t,
        shape,
        |c| {
            let (i, j) = (c[r - 1] as i64, c[r] as i64);
            if j - i != k {
                return None;
            }
            let idx = if k >= 0 { i } else { j } as usize;
            Some(at(&st[..r - 1], &c[..r - 1]) + idx)
        },
        &zero(t.dtype()),
    )
    .map_err(|e| a.err_at("diagonal", e))?;
    Ok(Value::tensor(out))
}

fn band_part(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let t = matrices(a, "input", ExceptionClass::InvalidArgumentError)?;
    let lower = a.int("num_lower")?;
    let upper = a.int("num_upper")?;
    let r = t.rank();
    let (m, n) = (t.shape()[r - 2] as i64, t.shape()[r - 1] as i64);
    if lower > m {
        return Err(err(
            ExceptionClass::InvalidArgumentError,
            format!(
                "num_lower must be negative or less or equal to number of rows ({m}) got: {lower}"
            ),
        )
        .at(a.span("num_lower")));
    }
    if upper > n {
        return Err(err(
            ExceptionClass::InvalidArgumentError,
            format!("num_upper must be negative or less or equal to number of columns ({n}) got: {upper}"),
        )
        .at(a.span("num_upper")));
    }
    let st = strides(t.shape());
    let out = layout::remap(
        "tf.linalg.band_part",
        &t,
        t.shape().to_vec(),
        |c| {
            let (i, j) = (c[r - 2] as i64, c[r - 1] as i64);
            let keep = (lower < 0 || i - j <= lower) && (upper < 0 || j - i <= upper);
            keep.then(|| at(&st, c))
        },
        &zero(t.dtype()),
    )
    .map_err(|e| a.err_at("input", e))?;
    Ok(Value::tensor(out))
}
