//! Contractions: `tf.einsum` (and `tf.linalg.einsum`, `np.einsum`), `tf.tensordot`,
//! `tf.linalg.matvec`, `tf.linalg.cross` and `tf.linalg.set_diag`.

use super::numpy_args::{cast, nd, tensor_of};
use super::Builtin;
use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::Interp;
use crate::value::Value;
use ragtag_engine::ops::einsum::{einsum, Rules};
use ragtag_engine::ops::matmul::{matmul, Transpose};
use ragtag_engine::{Array, Buffer, DType, Exception, ExceptionClass, Tensor};

/// The contraction builtins.
pub static BUILTINS: &[Builtin] = &[
    Builtin::function("tf.einsum", "(equation, *inputs, **kwargs)", tf_einsum)
        .doc("Einstein summation: `equation` names each input's axes with letters (`'ij,jk->ik'` is a matrix product, `'ii'` a trace, `'i,j->ij'` an outer product); letters left out of the output are summed over, and `...` stands for broadcast leading axes. Without `->` the output is the letters used once, alphabetically. The inputs need one dtype (float16, bfloat16, float32, float64, int32 or int64) and a letter one size everywhere.")
        .aliases(&["tf.linalg.einsum"])
        .examples(&[
            "tf.einsum('ij,jk->ik', tf.constant([[1, 2], [3, 4]]), tf.constant([[5, 6], [7, 8]]))",
            "tf.einsum('ii', tf.constant([[1.0, 2.0], [3.0, 4.0]]))",
            "tf.einsum('...ij,...jk->...ik', tf.ones([2, 2, 3]), tf.ones([3, 1]))",
        ]),
    Builtin::function("np.einsum", "(subscripts, *operands, out=None, dtype=None, order='K', casting='safe', optimize=False)", np_einsum)
        .doc("NumPy's Einstein summation: as tf.einsum, with NumPy's dtypes (the operands' common dtype; bools multiply as `and` and add as `or`) and axes of size 1 broadcasting against any size. The result is a NumPy array (a NumPy scalar when 0-d).")
        .examples(&[
            "np.einsum('ij,jk->ik', np.array([[1, 2]]), np.array([[3], [4]]))",
            "np.einsum('i,i', [1, 2], [3, 4])",
        ]),
    Builtin::function("tf.tensordot", "(a, b, axes, name=None)", tensordot)
        .doc("Sums the products of `a`'s and `b`'s elements over the axes `axes` names: an integer N pairs a's last N axes with b's first N, a pair of lists `[[a_axes], [b_axes]]` names them. The result's axes are a's free axes, then b's. `axes=0` is the outer product.")
        .aliases(&["tf.linalg.tensordot"])
        .examples(&[
            "tf.tensordot(tf.constant([[1, 2], [3, 4]]), tf.constant([[1, 0], [0, 1]]), axes=1)",
            "tf.tensordot([1.0, 2.0], [3.0, 4.0], axes=0)",
            "tf.tensordot(tf.ones([2, 3, 4]), tf.ones([4, 3]), axes=[[1, 2], [1, 0]])",
        ]),
    Builtin::function("tf.linalg.matvec", "(a, b, transpose_a=False, adjoint_a=False, a_is_sparse=False, b_is_sparse=False, name=None)", matvec)
        .doc("The matrix-vector product: `a` is a (batch of) matrices [..., M, N], `b` a (batch of) vectors [..., N]; the result is [..., M]. transpose_a (or adjoint_a) reads `a` transposed.")
        .examples(&[
            "tf.linalg.matvec(tf.constant([[1, 2], [3, 4]]), tf.constant([1, 1]))",
            "tf.linalg.matvec(tf.ones([2, 2, 3]), tf.ones([3]), name='mv')",
        ]),
    Builtin::function("tf.linalg.cross", "(a, b, name=None)", cross)
        .doc("The cross product of 3-element vectors along the last axis; `a` and `b` need the same shape and dtype.")
        .examples(&["tf.linalg.cross(tf.constant([1.0, 0.0, 0.0]), tf.constant([0.0, 1.0, 0.0]))"]),
    Builtin::function("tf.linalg.set_diag", "(input, diagonal, name='set_diag', k=0, align='RIGHT_LEFT')", set_diag)
        .doc("`input` with its k-th diagonal (of the two innermost axes) replaced by `diagonal`: k=0 is the main diagonal, k>0 above it, k<0 below. `k=(lo, hi)` replaces a band of diagonals, `diagonal` holding one row per diagonal from `hi` down to `lo`, shorter ones padded as `align` says (RIGHT_LEFT: diagonals above the main one aligned right, below it left).")
        .examples(&[
            "tf.linalg.set_diag(tf.zeros([2, 3]), [1.0, 2.0])",
            "tf.linalg.set_diag(tf.zeros([3, 3], tf.int32), [[1, 2, 0], [3, 4, 5]], k=(-1, 0))",
        ]),
];

/// A TensorFlow operand of einsum: a dense tensor (a Python list is an AttributeError in
/// TensorFlow, which reads `.shape` of each input).
fn tf_operand(a: &Args, v: &Value, span: ragtag_syntax::ast::Span) -> Result<Tensor> {
    match v {
        Value::Array(arr) => match &**arr {
            Array::Dense(t) => Ok(t.clone()),
            Array::Ragged(_) => Err(Error::new(
                ExceptionClass::ValueError,
                "TypeError: object of type 'RaggedTensor' has no len()",
            )
            .at(span)
            .with_hint("einsum takes dense tensors: convert with rt.to_tensor()")),
        },
        Value::List(_) | Value::Tuple(_) => Err(Error::new(
            ExceptionClass::AttributeError,
            format!("'{}' object has no attribute 'shape'", v.type_name()),
        )
        .at(span)
        .with_hint("tf.einsum takes tensors: wrap a list in tf.constant(...)")),
        other => crate::eval::convert::to_array(other, None)
            .map_err(|e| Error::from(e).at(span))
            .and_then(|x| match &*x {
                Array::Dense(t) => Ok(t.clone()),
                Array::Ragged(_) => Err(a.err_at(
                    "inputs",
                    ragtag_engine::value_error!("einsum takes dense tensors"),
                )),
            }),
    }
}

/// TensorFlow's Einsum kernel dtypes.
fn check_tf_dtypes(ts: &[Tensor], op: &str) -> std::result::Result<(), Exception> {
    let Some(d) = ts.first().map(|t| t.dtype()) else {
        return Ok(());
    };
    if let Some((i, t)) = ts.iter().enumerate().find(|(_, t)| t.dtype() != d) {
        return Err(ragtag_engine::invalid_arg!(
            "cannot compute {op} as input #{i}(zero-based) was expected to be a {d} tensor but is a {} tensor",
            t.dtype()
        )
        .with_hint("cast the inputs to one dtype with tf.cast"));
    }
    if !matches!(
        d,
        DType::Float16
            | DType::BFloat16
            | DType::Float32
            | DType::Float64
            | DType::Int32
            | DType::Int64
    ) {
        return Err(Exception::new(
            ExceptionClass::NotFoundError,
            format!("Could not find device for node: {op} of {d} tensors (TensorFlow has kernels for float16, bfloat16, float32, float64, int32 and int64)"),
        )
        .with_hint("cast first, e.g. tf.cast(x, tf.int32)"));
    }
    Ok(())
}

fn tf_einsum(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let eq = a.opt_str("equation")?.unwrap_or_default();
    let mut ts = Vec::new();
    for (v, span) in a.rest() {
        ts.push(tf_operand(a, v, *span)?);
    }
    check_tf_dtypes(&ts, "Einsum").map_err(|e| Error::from(e).at(a.call))?;
    let refs: Vec<&Tensor> = ts.iter().collect();
    einsum(&eq, &refs, Rules::TensorFlow)
        .map(Value::tensor)
        .map_err(|e| Error::from(e).at(a.call))
}

fn np_einsum(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let eq = a.opt_str("subscripts")?.unwrap_or_default();
    let mut ts = Vec::new();
    for (v, span) in a.rest() {
        ts.push(tensor_of(v).map_err(|e| Error::from(e).at(*span))?);
    }
    let mut d = match a.dtype("dtype")? {
        Some(d) => d,
        None => ts.first().map_or(DType::Float64, |t| t.dtype()),
    };
    if a.dtype("dtype")?.is_none() {
        for t in &ts {
            d = super::numpy::promote(d, t.dtype());
        }
    }
    if d == DType::String {
        return Err(
            Error::new(ExceptionClass::TypeError, "invalid data type for einsum").at(a.call),
        );
    }
    let ts = ts.iter().map(|t| cast(t, d)).collect::<Result<Vec<_>>>()?;
    let refs: Vec<&Tensor> = ts.iter().collect();
    einsum(&eq, &refs, Rules::NumPy)
        .map(nd)
        .map_err(|e| Error::from(e).at(a.call))
}

/// An operand of tensordot, matvec and cross: a dense tensor (Python values convert with
/// `hint`'s dtype).
fn dense(a: &Args, name: &str, hint: Option<DType>) -> Result<Tensor> {
    match &*a.array(name, hint)? {
        Array::Dense(t) => Ok(t.clone()),
        Array::Ragged(_) => Err(Error::new(
            ExceptionClass::ValueError,
            "TypeError: object of type 'RaggedTensor' has no len()",
        )
        .at(a.span(name))
        .with_hint("this operation takes dense tensors: convert with rt.to_tensor()")),
    }
}

/// A letter naming an axis in a built equation.
fn label(i: usize) -> char {
    if i < 26 {
        (b'a' + i as u8) as char
    } else {
        (b'A' + (i - 26) as u8) as char
    }
}

fn tensordot(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let x = dense(a, "a", None)?;
    let y = dense(a, "b", None)?;
    let (ra, rb) = (x.rank(), y.rank());
    let axes_v = a.value("axes");
    let (ax, bx): (Vec<i64>, Vec<i64>) = match axes_v {
        Value::Int(n) => {
            let n = *n;
            if n < 0 {
                return Err(Error::new(
                    ExceptionClass::ValueError,
                    format!("`axes` must be at least 0. Received: {n}."),
                )
                .at(a.span("axes")));
            }
            if n as usize > ra || n as usize > rb {
                return Err(Error::new(
                    ExceptionClass::ValueError,
                    format!(
                        "`axes` must not be larger than the number of dimensions of tensor. Received {n}, vs tensor dimensions {}.",
                        ra.min(rb)
                    ),
                )
                .at(a.span("axes")));
            }
            let n = n as usize;
            (
                (ra - n..ra).map(|i| i as i64).collect(),
                (0..n).map(|i| i as i64).collect(),
            )
        }
        Value::List(_) | Value::Tuple(_) => {
            let items = crate::value::subscript_items(axes_v);
            if items.len() != 2 {
                return Err(Error::new(
                    ExceptionClass::ValueError,
                    format!(
                        "`axes` must be an integer or have length 2. Received {}.",
                        crate::render::tf_text::repr_of(axes_v)
                    ),
                )
                .at(a.span("axes")));
            }
            let one = |v: &Value| -> Result<Vec<i64>> {
                match v {
                    Value::Int(i) => Ok(vec![*i]),
                    other => crate::value::convert::to_ints(other).map_err(|e| a.err_at("axes", e)),
                }
            };
            (one(&items[0])?, one(&items[1])?)
        }
        other => crate::value::convert::to_ints(other)
            .map_err(|e| a.err_at("axes", e))
            .and_then(|v| {
                if v.len() == 2 {
                    Ok((vec![v[0]], vec![v[1]]))
                } else {
                    Err(Error::new(
                        ExceptionClass::ValueError,
                        "`axes` must be an integer or have length 2.",
                    )
                    .at(a.span("axes")))
                }
            })?,
    };
    if ax.len() != bx.len() {
        return Err(Error::new(
            ExceptionClass::ValueError,
            format!(
                "Different number of contraction axes `a` and `b`, {} != {}.",
                ax.len(),
                bx.len()
            ),
        )
        .at(a.span("axes")));
    }
    let norm = |i: i64, r: usize| -> Result<usize> {
        let j = if i < 0 { i + r as i64 } else { i };
        if j < 0 || j as usize >= r {
            return Err(Error::new(
                ExceptionClass::InvalidArgumentError,
                format!("axis {i} is out of range for a tensor of rank {r}"),
            )
            .at(a.span("axes")));
        }
        Ok(j as usize)
    };
    let mut la: Vec<usize> = (0..ra).collect();
    let mut lb: Vec<usize> = (ra..ra + rb).collect();
    for (p, q) in ax.iter().zip(&bx) {
        let (p, q) = (norm(*p, ra)?, norm(*q, rb)?);
        if x.shape()[p] != y.shape()[q] {
            return Err(Error::new(
                ExceptionClass::InvalidArgumentError,
                format!(
                    "Matrix size-incompatible: axis {p} of a has size {} but axis {q} of b has size {}",
                    x.shape()[p],
                    y.shape()[q]
                ),
            )
            .at(a.span("axes")));
        }
        lb[q] = la[p];
    }
    if ra + rb > 52 {
        return Err(Error::new(
            ExceptionClass::ValueError,
            "tensordot supports at most 52 axes in all",
        )
        .at(a.call));
    }
    let contracted: Vec<usize> = ax.iter().map(|&p| norm(p, ra)).collect::<Result<_>>()?;
    let out: String = la
        .iter()
        .enumerate()
        .filter(|(i, _)| !contracted.contains(i))
        .map(|(_, &l)| label(l))
        .chain(lb.iter().filter(|l| **l >= ra).map(|&l| label(l)))
        .collect();
    la.iter_mut().for_each(|_| {});
    let eq = format!(
        "{},{}->{out}",
        la.iter().map(|&l| label(l)).collect::<String>(),
        lb.iter().map(|&l| label(l)).collect::<String>()
    );
    let ts = [x, y];
    check_tf_dtypes(&ts, "MatMul").map_err(|e| Error::from(e).at(a.call))?;
    einsum(&eq, &[&ts[0], &ts[1]], Rules::TensorFlow)
        .map(Value::tensor)
        .map_err(|e| Error::from(e).at(a.call))
}

fn matvec(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    // A ragged `a` goes through the ragged matmul, as TensorFlow's dispatch does.
    if let Value::Array(arr) = a.value("a") {
        if let Array::Ragged(r) = &**arr {
            return ragged_matvec(a, r);
        }
    }
    let m = dense(a, "a", None)?;
    let v = dense(a, "b", Some(m.dtype()))?;
    let t = a.flag("transpose_a", false)? || a.flag("adjoint_a", false)?;
    for name in ["a_is_sparse", "b_is_sparse"] {
        a.flag(name, false)?;
    }
    if v.rank() == 0 {
        return Err(Error::new(
            ExceptionClass::ValueError,
            "b must be a vector (or a batch of vectors), not a scalar",
        )
        .at(a.span("b")));
    }
    let mut shape = v.shape().to_vec();
    shape.push(1);
    let col = v.reshaped(shape).map_err(|e| a.err_at("b", e))?;
    let out =
        matmul(&m, &col, Transpose { a: t, b: false }).map_err(|e| Error::from(e).at(a.call))?;
    let mut s = out.shape().to_vec();
    s.pop();
    out.reshaped(s)
        .map(Value::tensor)
        .map_err(|e| Error::from(e).at(a.call))
}

/// matvec of a RaggedTensor `a` [B, (I), J] and vectors `b`: b becomes a column, the
/// ragged matmul multiplies, and the column's axis goes away again.
fn ragged_matvec(a: &Args, r: &ragtag_engine::Ragged) -> Result<Value> {
    let v = dense(a, "b", Some(r.dtype()))?;
    let t = a.flag("transpose_a", false)? || a.flag("adjoint_a", false)?;
    let mut shape = v.shape().to_vec();
    shape.push(1);
    let col = v.reshaped(shape).map_err(|e| a.err_at("b", e))?;
    let err = |e: Exception| Error::from(e).at(a.call);
    let out = ragtag_engine::ops::matmul::matmul_arrays(
        &Array::Ragged(r.clone()),
        &Array::Dense(col),
        Transpose { a: t, b: false },
    )
    .map_err(err)?;
    match out {
        Array::Ragged(o) => {
            let fv = o.flat_values();
            let mut s = fv.shape().to_vec();
            s.pop();
            let fv = fv.reshaped(s).map_err(err)?;
            o.with_flat_values(fv).map(Value::ragged).map_err(err)
        }
        Array::Dense(d) => {
            let mut s = d.shape().to_vec();
            s.pop();
            d.reshaped(s).map(Value::tensor).map_err(err)
        }
    }
}

fn cross(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let x = dense(a, "a", None)?;
    let y = dense(a, "b", Some(x.dtype()))?;
    let err = |m: String| Error::new(ExceptionClass::InvalidArgumentError, m).at(a.call);
    if x.dtype() != y.dtype() {
        return Err(err(format!(
            "cannot compute Cross as input #1(zero-based) was expected to be a {} tensor but is a {} tensor",
            x.dtype(),
            y.dtype()
        )));
    }
    if x.shape() != y.shape() {
        return Err(err(format!(
            "Both inputs must be of same shape: {:?} vs. {:?}",
            x.shape(),
            y.shape()
        )));
    }
    if x.shape().last() != Some(&3) {
        return Err(Error::new(
            ExceptionClass::FailedPreconditionError,
            "Cross-products are only defined for 3-element vectors.",
        )
        .at(a.call));
    }
    if !(x.dtype().is_int() || x.dtype().is_float()) {
        return Err(err(format!(
            "TensorFlow has no Cross kernel for {} tensors",
            x.dtype()
        )));
    }
    let n = x.size() / 3;
    let buf = if x.dtype().is_float() {
        let (p, q) = (
            x.data().to_f64_vec().unwrap_or_default(),
            y.data().to_f64_vec().unwrap_or_default(),
        );
        let mut out = ragtag_engine::budget::vec::<f64>("tf.linalg.cross", x.size())
            .map_err(|e| Error::from(e).at(a.call))?;
        for i in 0..n {
            let (u, v) = (&p[3 * i..3 * i + 3], &q[3 * i..3 * i + 3]);
            out.extend([
                u[1] * v[2] - u[2] * v[1],
                u[2] * v[0] - u[0] * v[2],
                u[0] * v[1] - u[1] * v[0],
            ]);
        }
        Buffer::from_f64s(out, x.dtype())
    } else {
        let (p, q) = (
            x.data().to_i64_vec().unwrap_or_default(),
            y.data().to_i64_vec().unwrap_or_default(),
        );
        let mut out = ragtag_engine::budget::vec::<i64>("tf.linalg.cross", x.size())
            .map_err(|e| Error::from(e).at(a.call))?;
        for i in 0..n {
            let (u, v) = (&p[3 * i..3 * i + 3], &q[3 * i..3 * i + 3]);
            out.extend([
                u[1].wrapping_mul(v[2])
                    .wrapping_sub(u[2].wrapping_mul(v[1])),
                u[2].wrapping_mul(v[0])
                    .wrapping_sub(u[0].wrapping_mul(v[2])),
                u[0].wrapping_mul(v[1])
                    .wrapping_sub(u[1].wrapping_mul(v[0])),
            ]);
        }
        Buffer::from_i64s(out, x.dtype())
    };
    Tensor::new(x.shape().to_vec(), buf)
        .map(Value::tensor)
        .map_err(|e| Error::from(e).at(a.call))
}

fn set_diag(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let x = dense(a, "input", None)?;
    let d = dense(a, "diagonal", Some(x.dtype()))?;
    let bad = |m: String| Error::new(ExceptionClass::InvalidArgumentError, m).at(a.call);
    if x.rank() < 2 {
        return Err(bad(format!(
            "input must be at least 2-dim, received shape: {:?}",
            x.shape()
        )));
    }
    if d.dtype() != x.dtype() {
        return Err(bad(format!(
            "cannot compute MatrixSetDiagV3 as input #1(zero-based) was expected to be a {} tensor but is a {} tensor",
            x.dtype(),
            d.dtype()
        )));
    }
    let (lo, hi) = match a.get("k").unwrap_or(&Value::Int(0)) {
        Value::Int(k) => (*k, *k),
        other => {
            let ks = crate::value::convert::to_ints(other).map_err(|e| a.err_at("k", e))?;
            match ks.as_slice() {
                [k] => (*k, *k),
                [l, h] => (*l, *h),
                _ => return Err(bad("k must be a scalar or a pair of diagonals".into())),
            }
        }
    };
    let align = a.opt_str("align")?.unwrap_or_else(|| "RIGHT_LEFT".into());
    let (r, c) = (
        x.shape()[x.rank() - 2] as i64,
        x.shape()[x.rank() - 1] as i64,
    );
    if lo > hi || lo <= -r.max(1) && r > 0 || hi >= c.max(1) && c > 0 {
        return Err(bad(format!(
            "Invalid diagonal range k=({lo}, {hi}) for a {r}x{c} matrix"
        )));
    }
    let ndiag = (hi - lo + 1) as usize;
    let len_of = |k: i64| -> i64 { (r.min(c - k)).min(r + k).min(c).max(0) };
    let max_len = (lo..=hi).map(len_of).max().unwrap_or(0) as usize;
    let batch: Vec<usize> = x.shape()[..x.rank() - 2].to_vec();
    let mut want = batch.clone();
    if ndiag > 1 {
        want.push(ndiag);
    }
    want.push(max_len);
    if d.shape() != want.as_slice() {
        return Err(bad(format!(
            "Either first dimensions of diagonal don't match input.shape[:-2], or diagonal.shape[:-1] is not equal to the diagonals' lengths: diagonal has shape {:?}, expected {:?}",
            d.shape(),
            want
        )));
    }
    let nb: usize = batch.iter().product();
    let (ru, cu) = (r as usize, c as usize);
    let mut idx: Vec<usize> = (0..x.size()).collect();
    let mut src: Vec<Option<usize>> =
        ragtag_engine::budget::filled("tf.linalg.set_diag", None, x.size())
            .map_err(|e| Error::from(e).at(a.call))?;
    for b in 0..nb {
        for (j, k) in (lo..=hi).rev().enumerate() {
            let len = len_of(k) as usize;
            let right = match align.as_str() {
                "RIGHT_LEFT" => k >= 0,
                "LEFT_RIGHT" => k < 0,
                "RIGHT_RIGHT" => true,
                _ => false,
            };
            let pad = if right && ndiag > 1 { max_len - len } else { 0 };
            for i in 0..len {
                let (row, col) = if k >= 0 {
                    (i, i + k as usize)
                } else {
                    (i + (-k) as usize, i)
                };
                let pos = b * ru * cu + row * cu + col;
                let dpos = b * ndiag * max_len + j * max_len + pad + i;
                src[pos] = Some(dpos);
            }
        }
    }
    let _ = &mut idx;
    let mut out = Buffer::with_capacity("tf.linalg.set_diag", x.dtype(), x.size(), 0)
        .map_err(|e| Error::from(e).at(a.call))?;
    for (pos, s) in src.iter().enumerate() {
        match s {
            Some(dp) => out.push(&d.data().get(*dp)),
            None => out.push(&x.data().get(pos)),
        }
    }
    Tensor::new(x.shape().to_vec(), out)
        .map(Value::tensor)
        .map_err(|e| Error::from(e).at(a.call))
}
