//! More of `tf.sparse`: `bincount`, `cross`, `cross_hashed`, `eye`, `mask`,
//! `sampled_addmm`, `segment_sum`, `segment_mean`, `segment_sqrt_n` and
//! `sparse_dense_matmul`.

use super::sparse::sparse_value;
use super::Builtin;
use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::convert;
use crate::eval::Interp;
use crate::value::Value;
use ragtag_engine::ops::matmul::{matmul, Transpose};
use ragtag_engine::{Array, Buffer, DType, Exception, ExceptionClass, Scalar, Sparse, Tensor};

/// The tf.sparse builtins of this file.
pub static BUILTINS: &[Builtin] = &[
    Builtin::function("tf.sparse.bincount", "(values, weights=None, axis=0, minlength=None, maxlength=None, binary_output=False, name=None)", bincount)
        .doc("Counts each non-negative integer of `values` (dense, ragged or sparse) into a SparseTensor: with `axis=0` over all values (a vector), with `axis=-1` per row (a [rows, size] matrix). `weights` sums weights instead of counting; `binary_output` gives 1 for any count; `minlength`/`maxlength` bound the size.")
        .examples(&[
            "tf.sparse.bincount(tf.constant([1, 2, 2, 5]))",
            "tf.sparse.bincount(tf.ragged.constant([[1, 1], [2]]), axis=-1)",
        ]),
    Builtin::function("tf.sparse.cross", "(inputs, name=None, separator=None)", sparse_cross)
        .doc("The feature cross of a list of rank-2 dense, ragged or sparse string or integer tensors, row by row, as a SparseTensor of strings joined by `separator` ('_X_' by default).")
        .examples(&["tf.sparse.cross([tf.constant([['a'], ['b']]), tf.constant([['d'], ['e']])])"]),
    Builtin::function("tf.sparse.cross_hashed", "(inputs, num_buckets=0, hash_key=None, name=None)", sparse_cross_hashed)
        .doc("The feature cross of tf.sparse.cross, each combination hashed (FarmHash fingerprints, as TensorFlow) into `num_buckets` buckets (0: no limit); an int64 SparseTensor.")
        .examples(&["tf.sparse.cross_hashed([tf.constant([['a'], ['b']]), tf.constant([['d'], ['e']])], num_buckets=100)"]),
    Builtin::function("tf.sparse.eye", "(num_rows, num_columns=None, dtype=tf.float32, name=None)", eye)
        .doc("The sparse identity matrix of num_rows × num_columns (square by default).")
        .examples(&["tf.sparse.eye(3)", "tf.sparse.eye(2, 3, dtype=tf.int32)"]),
    Builtin::function("tf.sparse.mask", "(a, mask_indices, name=None)", mask)
        .doc("TensorFlow's tf.sparse.mask takes tf.IndexedSlices, which ragtag does not have: calling it is an AttributeError, as TensorFlow's for a tensor. For a SparseTensor use tf.sparse.retain.")
        .examples(&["tf.sparse.retain(tf.sparse.from_dense([[1, 0, 2]]), [True, False])"]),
    Builtin::function("tf.sparse.sampled_addmm", "(indices, values, dense_shape, mat1, mat2, beta=1.0, alpha=1.0, output_type=tf.float32)", sampled_addmm)
        .doc("`alpha * (mat1 @ mat2)` sampled at `indices`, plus `beta * values`: returns the SparseTensor components (indices, values, dense_shape). mat1 and mat2 are float32 matrices (or batches).")
        .examples(&["tf.sparse.sampled_addmm([[0, 1]], [1.0], [2, 2], tf.constant([[1.0, 2.0], [3.0, 4.0]]), tf.constant([[5.0, 6.0], [7.0, 8.0]]), beta=0.5, alpha=2.0)"]),
    Builtin::function("tf.sparse.segment_sum", "(data, indices, segment_ids, num_segments=None, name=None, sparse_gradient=False)", segment_sum)
        .doc("Sums the rows `data[indices]` by their (sorted) `segment_ids`; segments no row falls in are zeros.")
        .examples(&["tf.sparse.segment_sum(tf.constant([[1, 2], [3, 4], [5, 6]]), [0, 1], [0, 0])"]),
    Builtin::function("tf.sparse.segment_mean", "(data, indices, segment_ids, num_segments=None, name=None, sparse_gradient=False)", segment_mean)
        .doc("Averages the rows `data[indices]` by their (sorted) `segment_ids` (float data).")
        .examples(&["tf.sparse.segment_mean(tf.constant([1.0, 2.0, 3.0]), [0, 1, 2], [0, 0, 1])"]),
    Builtin::function("tf.sparse.segment_sqrt_n", "(data, indices, segment_ids, num_segments=None, name=None, sparse_gradient=False)", segment_sqrt_n)
        .doc("Sums the rows `data[indices]` by their (sorted) `segment_ids`, divided by the square root of each segment's size (float data).")
        .examples(&["tf.sparse.segment_sqrt_n(tf.constant([1.0, 2.0, 3.0]), [0, 1, 2], [0, 0, 1])"]),
    Builtin::function("tf.sparse.sparse_dense_matmul", "(sp_a, b, adjoint_a=False, adjoint_b=False, name=None)", sparse_dense_matmul)
        .doc("The matrix product of a SparseTensor and a dense matrix (either may come first); adjoint_a / adjoint_b read an operand transposed. Both need one dtype.")
        .examples(&["tf.sparse.sparse_dense_matmul(tf.sparse.from_dense([[1, 0, 2], [0, 3, 0]]), tf.constant([[1], [2], [3]]))"]),
];

fn err_at<'a>(a: &'a Args, name: &str) -> impl Fn(Exception) -> Error + 'a {
    let span = a.span(name);
    move |e| Error::from(e).at(span)
}

/// (row, value) of every element of `values` with its weight, and the number of rows.
type Counted = (Vec<(usize, i64, f64)>, usize, DType);

fn bincount_inputs(a: &Args, per_row: bool) -> Result<Counted> {
    let v = a.value("values");
    let weights = match a.get("weights").filter(|w| !matches!(w, Value::None)) {
        None => None,
        Some(w) => Some(convert::to_array(w, None).map_err(err_at(a, "weights"))?),
    };
    let (items, nrows, dtype): (Vec<(usize, i64)>, usize, DType) = match v {
        Value::Sparse(s) => {
            let vals = s.values().data().to_i64_vec().unwrap_or_default();
            let rows = if per_row {
                s.dense_shape().first().copied().unwrap_or(0).max(0) as usize
            } else {
                1
            };
            let items = (0..s.nnz())
                .map(|i| (if per_row { s.index(i)[0] as usize } else { 0 }, vals[i]))
                .collect();
            (items, rows, s.values().dtype())
        }
        other => {
            let arr = convert::to_array(other, None).map_err(err_at(a, "values"))?;
            let fv = arr.flat_values().data().to_i64_vec().ok_or_else(|| {
                Error::new(
                    ExceptionClass::InvalidArgumentError,
                    "values must be integers",
                )
                .at(a.span("values"))
            })?;
            if per_row && arr.rank() != 2 {
                return Err(Error::new(
                    ExceptionClass::InvalidArgumentError,
                    "axis=-1 needs values of rank 2",
                )
                .at(a.span("values")));
            }
            let (rows, row_of): (usize, Vec<usize>) = match &*arr {
                Array::Ragged(r) if per_row => {
                    let splits = r.outer().row_splits().to_vec();
                    let mut row_of = Vec::new();
                    for i in 0..r.nrows() {
                        row_of.extend(std::iter::repeat_n(i, (splits[i + 1] - splits[i]) as usize));
                    }
                    (r.nrows(), row_of)
                }
                Array::Dense(t) if per_row => {
                    let m = t.shape()[1];
                    (t.shape()[0], (0..fv.len()).map(|k| k / m.max(1)).collect())
                }
                _ => (1, fv.iter().map(|_| 0).collect()),
            };
            (row_of.into_iter().zip(fv).collect(), rows, arr.dtype())
        }
    };
    if let Some((_, x)) = items.iter().find(|(_, x)| *x < 0) {
        return Err(Error::new(
            ExceptionClass::InvalidArgumentError,
            format!("Input values must all be non-negative, got {x}"),
        )
        .at(a.span("values")));
    }
    let (wv, wd) = match &weights {
        None => (None, dtype),
        Some(w) => {
            let wv = w.flat_values().data().to_f64_vec().unwrap_or_default();
            if wv.len() != items.len() {
                return Err(Error::new(
                    ExceptionClass::InvalidArgumentError,
                    "weights must have the same shape as values",
                )
                .at(a.span("weights")));
            }
            (Some(wv), w.dtype())
        }
    };
    let out = items
        .into_iter()
        .enumerate()
        .map(|(k, (r, x))| (r, x, wv.as_ref().map_or(1.0, |w| w[k])))
        .collect();
    Ok((out, nrows, wd))
}

fn bincount(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let axis = a.get("axis").map_or(Ok(0), |_| a.int("axis"))?;
    if axis != 0 && axis != -1 {
        return Err(Error::new(
            ExceptionClass::ValueError,
            format!("Unsupported value for argument axis={axis}. Only 0 and -1 are currently supported."),
        )
        .at(a.span("axis")));
    }
    let per_row = axis == -1;
    let (items, nrows, dtype) = bincount_inputs(a, per_row)?;
    let opt = |n: &str| -> Result<Option<i64>> {
        match a.get(n).filter(|v| !matches!(v, Value::None)) {
            None => Ok(None),
            Some(_) => a.int(n).map(Some),
        }
    };
    let (minlength, maxlength) = (opt("minlength")?, opt("maxlength")?);
    let binary = a.flag("binary_output", false)?;
    let mut size = items.iter().map(|x| x.1 + 1).max().unwrap_or(0);
    if let Some(m) = minlength {
        size = size.max(m);
    }
    if let Some(m) = maxlength {
        size = size.min(m);
    }
    let mut counts: std::collections::BTreeMap<(usize, i64), f64> = Default::default();
    for (r, x, w) in items {
        if x < size {
            *counts.entry((r, x)).or_insert(0.0) += w;
        }
    }
    let mut indices = Vec::new();
    let mut vals = Vec::new();
    for ((r, x), c) in counts {
        if per_row {
            indices.push(r as i64);
        }
        indices.push(x);
        vals.push(if binary { 1.0 } else { c });
    }
    let buf = if dtype.is_float() {
        Buffer::from_f64s(vals, dtype)
    } else {
        Buffer::from_i64s(vals.into_iter().map(|v| v as i64).collect(), dtype)
    };
    let shape = if per_row {
        vec![nrows as i64, size]
    } else {
        vec![size]
    };
    let err = |e: Exception| Error::from(e).at(a.call);
    let n = buf.len();
    Sparse::new(indices, Tensor::new(vec![n], buf).map_err(err)?, shape)
        .map(sparse_value)
        .map_err(err)
}

fn sparse_cross(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let out = super::ragged::ragged_cross(it, a)?;
    let sep = a.opt_str("separator")?.unwrap_or_else(|| "_X_".into());
    let Value::Array(arr) = &out else {
        return Ok(out);
    };
    let Array::Ragged(r) = &**arr else {
        return Ok(out);
    };
    let r = if sep == "_X_" {
        r.clone()
    } else {
        // The engine joins the features with '_X_': split them there and rejoin (a
        // feature that itself holds '_X_' keeps the default separator).
        let ninputs = crate::value::subscript_items(a.value("inputs")).len();
        let fv = r.flat_values();
        let mut b = Buffer::with_capacity("tf.sparse.cross", DType::String, fv.size(), 0)
            .map_err(|e| Error::from(e).at(a.call))?;
        for i in 0..fv.size() {
            let Scalar::Str(x) = fv.data().get(i) else {
                continue;
            };
            let text = String::from_utf8_lossy(&x).into_owned();
            let parts: Vec<&str> = text.split("_X_").collect();
            let joined = if parts.len() == ninputs {
                parts.join(&sep)
            } else {
                text.clone()
            };
            b.push(&Scalar::Str(joined.into_bytes()));
        }
        let n = b.len();
        r.with_flat_values(Tensor::new(vec![n], b).map_err(|e| Error::from(e).at(a.call))?)
            .map_err(|e| Error::from(e).at(a.call))?
    };
    Ok(sparse_value(Sparse::from_ragged(&r)))
}

fn sparse_cross_hashed(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let out = super::ragged::ragged_cross_hashed(it, a)?;
    match &out {
        Value::Array(arr) => match &**arr {
            Array::Ragged(r) => Ok(sparse_value(Sparse::from_ragged(r))),
            Array::Dense(_) => Ok(out.clone()),
        },
        _ => Ok(out),
    }
}

fn eye(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let rows = a.int("num_rows")?;
    let cols = match a.get("num_columns").filter(|v| !matches!(v, Value::None)) {
        None => rows,
        Some(_) => a.int("num_columns")?,
    };
    if rows < 0 || cols < 0 {
        return Err(Error::new(
            ExceptionClass::InvalidArgumentError,
            format!(
                "Requires start <= limit when delta > 0: 0/{}",
                rows.min(cols)
            ),
        )
        .at(a.call));
    }
    let d = a.dtype("dtype")?.unwrap_or(DType::Float32);
    let n = rows.min(cols);
    ragtag_engine::budget::check("tf.sparse.eye", n as u128 * 3, 8)
        .map_err(|e| Error::from(e).at(a.call))?;
    let indices: Vec<i64> = (0..n).flat_map(|i| [i, i]).collect();
    let one = convert::to_scalar(&Value::Int(1), Some(d)).map_err(|e| Error::from(e).at(a.call))?;
    let err = |e: Exception| Error::from(e).at(a.call);
    let values = Tensor::filled("tf.sparse.eye", vec![n as usize], &one).map_err(err)?;
    Sparse::new(indices, values, vec![rows, cols])
        .map(sparse_value)
        .map_err(err)
}

fn mask(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    Err(Error::new(
        ExceptionClass::AttributeError,
        format!(
            "'{}' object has no attribute 'indices': tf.sparse.mask takes tf.IndexedSlices, which ragtag does not have",
            a.value("a").type_name()
        ),
    )
    .at(a.span("a"))
    .with_hint("for a SparseTensor, keep the wanted values with tf.sparse.retain(st, keep)"))
}

fn sampled_addmm(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    // TensorFlow converts indices and dense_shape to int32: an int64 tensor is refused.
    let int32 = |n: &str| -> Result<std::sync::Arc<Array>> {
        let x = convert::to_array(a.value(n), Some(DType::Int32)).map_err(err_at(a, n))?;
        if x.dtype() != DType::Int32 {
            return Err(Error::new(
                ExceptionClass::ValueError,
                format!(
                    "Tensor conversion requested dtype int32 for Tensor with dtype {}",
                    x.dtype()
                ),
            )
            .at(a.span(n)));
        }
        Ok(x)
    };
    let shape = int32("dense_shape")?;
    let idx = int32("indices")?;
    let vals =
        convert::to_array(a.value("values"), Some(DType::Float32)).map_err(err_at(a, "values"))?;
    let m = |n: &str| -> Result<Tensor> {
        match &*convert::to_array(a.value(n), Some(DType::Float32)).map_err(err_at(a, n))? {
            Array::Dense(t) if t.dtype() == DType::Float32 => Ok(t.clone()),
            other => Err(Error::new(
                ExceptionClass::ValueError,
                format!(
                    "Tensor conversion requested dtype float32 for Tensor with dtype {}",
                    other.dtype()
                ),
            )
            .at(a.span(n))),
        }
    };
    let (m1, m2) = (m("mat1")?, m("mat2")?);
    let prod = matmul(&m1, &m2, Transpose::default()).map_err(|e| Error::from(e).at(a.call))?;
    let ds = shape.flat_values().data().to_i64_vec().unwrap_or_default();
    let ps: Vec<i64> = prod.shape().iter().map(|&d| d as i64).collect();
    if ds != ps {
        return Err(Error::new(
            ExceptionClass::ValueError,
            format!("Dense shape: {ds:?} does not match output shape: {ps:?}"),
        )
        .at(a.span("dense_shape")));
    }
    let beta =
        convert::to_f64(a.get("beta").unwrap_or(&Value::Float(1.0))).map_err(err_at(a, "beta"))?;
    let alpha = convert::to_f64(a.get("alpha").unwrap_or(&Value::Float(1.0)))
        .map_err(err_at(a, "alpha"))?;
    let iv = idx.flat_values().data().to_i64_vec().unwrap_or_default();
    let r = ps.len();
    let pv = prod.data().to_f64_vec().unwrap_or_default();
    let vv = vals.flat_values().data().to_f64_vec().unwrap_or_default();
    let mut out = Vec::new();
    for (k, pos) in iv.chunks(r.max(1)).enumerate() {
        let mut off = 0usize;
        for (d, &p) in pos.iter().enumerate() {
            if p < 0 || p >= ps[d] {
                return Err(Error::new(
                    ExceptionClass::InvalidArgumentError,
                    format!("indices[{k}] = {pos:?} is out of bounds"),
                )
                .at(a.span("indices")));
            }
            off = off * ps[d] as usize + p as usize;
        }
        out.push(alpha * pv[off] + beta * vv.get(k).copied().unwrap_or(0.0));
    }
    let n = out.len();
    Ok(Value::tuple(vec![
        Value::from_array((*idx).clone()),
        Value::tensor(
            Tensor::new(vec![n], Buffer::from_f64s(out, DType::Float32))
                .map_err(|e| Error::from(e).at(a.call))?,
        ),
        Value::from_array((*shape).clone()),
    ]))
}

#[derive(Clone, Copy, PartialEq)]
enum Reduce {
    Sum,
    Mean,
    SqrtN,
}

fn segment(a: &Args, how: Reduce) -> Result<Value> {
    let data = match &*convert::to_array(a.value("data"), None).map_err(err_at(a, "data"))? {
        Array::Dense(t) => t.clone(),
        Array::Ragged(_) => {
            return Err(Error::new(
                ExceptionClass::ValueError,
                "TypeError: object of type 'RaggedTensor' has no len()",
            )
            .at(a.span("data")))
        }
    };
    let bad = |m: String| Error::new(ExceptionClass::InvalidArgumentError, m).at(a.call);
    if how != Reduce::Sum && !data.dtype().is_float() {
        return Err(bad(format!(
            "Value for attr 'T' of {} is not in the list of allowed values: bfloat16, half, float, double",
            data.dtype()
        )));
    }
    if data.rank() == 0 {
        return Err(bad("data must be at least rank 1".into()));
    }
    let ints = |n: &str| {
        convert::to_array(a.value(n), None)
            .map_err(err_at(a, n))
            .map(|x| x.flat_values().data().to_i64_vec().unwrap_or_default())
    };
    let (idx, seg) = (ints("indices")?, ints("segment_ids")?);
    if idx.len() != seg.len() {
        return Err(bad(format!(
            "segment_ids and indices should have same size: {} vs {}",
            seg.len(),
            idx.len()
        )));
    }
    let rows = data.shape()[0];
    if let Some((k, x)) = idx
        .iter()
        .enumerate()
        .find(|(_, &x)| x < 0 || x as usize >= rows)
    {
        return Err(bad(format!(
            "Bad: indices[{k}] == {x} out of range [0, {rows})"
        )));
    }
    if seg.windows(2).any(|w| w[1] < w[0]) || seg.first().is_some_and(|&s| s < 0) {
        return Err(bad("segment ids are not increasing".into()));
    }
    let n = match a.get("num_segments").filter(|v| !matches!(v, Value::None)) {
        Some(_) => {
            let n = a.int("num_segments")?;
            if seg.last().is_some_and(|&s| s >= n) {
                return Err(bad(format!("segment ids must be < num_segments = {n}")));
            }
            n as usize
        }
        None => seg.last().map_or(0, |&s| s as usize + 1),
    };
    let row = data.row_size();
    let x = data.data().to_f64_vec().unwrap_or_default();
    let mut sums = ragtag_engine::budget::filled("tf.sparse.segment_sum", 0.0f64, n * row)
        .map_err(|e| Error::from(e).at(a.call))?;
    let mut counts = ragtag_engine::budget::filled("tf.sparse.segment_sum", 0usize, n)
        .map_err(|e| Error::from(e).at(a.call))?;
    for (&i, &s) in idx.iter().zip(&seg) {
        let (i, s) = (i as usize, s as usize);
        counts[s] += 1;
        for j in 0..row {
            sums[s * row + j] += x[i * row + j];
        }
    }
    for s in 0..n {
        let c = counts[s] as f64;
        if c > 0.0 {
            for v in &mut sums[s * row..(s + 1) * row] {
                match how {
                    Reduce::Mean => *v /= c,
                    Reduce::SqrtN => *v /= c.sqrt(),
                    Reduce::Sum => {}
                }
            }
        }
    }
    let mut shape = data.shape().to_vec();
    shape[0] = n;
    let buf = if data.dtype().is_float() {
        Buffer::from_f64s(sums, data.dtype())
    } else {
        Buffer::from_i64s(sums.into_iter().map(|v| v as i64).collect(), data.dtype())
    };
    Tensor::new(shape, buf)
        .map(Value::tensor)
        .map_err(|e| Error::from(e).at(a.call))
}

fn segment_sum(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    segment(a, Reduce::Sum)
}
fn segment_mean(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    segment(a, Reduce::Mean)
}
fn segment_sqrt_n(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    segment(a, Reduce::SqrtN)
}

fn sparse_dense_matmul(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let dense_of = |n: &str| -> Result<Tensor> {
        match a.value(n) {
            Value::Sparse(s) => s
                .to_dense(&Scalar::default_of(s.values().dtype()), false)
                .map_err(|e| Error::from(e).at(a.span(n))),
            other => match &*convert::to_array(other, None).map_err(err_at(a, n))? {
                Array::Dense(t) => Ok(t.clone()),
                Array::Ragged(_) => Err(Error::new(
                    ExceptionClass::TypeError,
                    "sparse_dense_matmul takes a SparseTensor and a dense tensor",
                )
                .at(a.span(n))),
            },
        }
    };
    if let Value::Sparse(s) = a.value("sp_a") {
        if !a.flag("adjoint_a", false)? && !a.flag("adjoint_b", false)? {
            let b = convert::to_array(a.value("b"), None).map_err(err_at(a, "b"))?;
            if let Array::Dense(b) = &*b {
                let fast = ragtag_engine::ops::sparse_matmul::sparse_dense_matmul(s, b)
                    .map_err(|e| Error::from(e).at(a.call))?;
                if let Some(out) = fast {
                    return Ok(Value::tensor(out));
                }
            }
        }
    }
    let (x, y) = (dense_of("sp_a")?, dense_of("b")?);
    if x.dtype() != y.dtype() {
        return Err(Error::new(
            ExceptionClass::InvalidArgumentError,
            format!(
                "cannot compute SparseTensorDenseMatMul as input #3(zero-based) was expected to be a {} tensor but is a {} tensor",
                x.dtype(),
                y.dtype()
            ),
        )
        .at(a.call));
    }
    let t = Transpose {
        a: a.flag("adjoint_a", false)?,
        b: a.flag("adjoint_b", false)?,
    };
    matmul(&x, &y, t).map(Value::tensor).map_err(|e| {
        Error::new(
            ExceptionClass::InvalidArgumentError,
            format!(
                "Cannot multiply A and B because inner dimension does not match: {}",
                e.message
            ),
        )
        .at(a.call)
    })
}
