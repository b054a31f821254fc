//! Shape helpers and small layout ops: `tf.meshgrid`, `tf.reverse_sequence`,
//! `tf.parallel_stack`, `tf.histogram_fixed_width(_bins)`, `tf.broadcast_dynamic_shape`,
//! `tf.broadcast_static_shape`, `tf.ensure_shape` and `tf.get_static_value`.

use super::Builtin;
use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::convert;
use crate::eval::Interp;
use crate::value::Value;
use ragtag_engine::{Array, Buffer, DType, ExceptionClass, Tensor};
use std::sync::Arc;

/// The shape builtins.
pub static BUILTINS: &[Builtin] = &[
    Builtin::function("tf.meshgrid", "(*args, indexing='xy', name=None)", meshgrid)
        .doc("Coordinate grids: for N vectors, N tensors of the same shape, the i-th repeating the i-th vector along its own axis. With `indexing='xy'` (the default) the first two axes are swapped (Cartesian); with 'ij' the shape is the vectors' lengths in order (matrix indexing). The inputs need one dtype.")
        .examples(&[
            "tf.meshgrid([1, 2, 3], [4, 5])",
            "tf.meshgrid([1, 2, 3], [4, 5], indexing='ij')",
        ]),
    Builtin::function("tf.reverse_sequence", "(input, seq_lengths, seq_axis=None, batch_axis=None, name=None)", reverse_sequence)
        .doc("Reverses the first `seq_lengths[i]` elements along `seq_axis` of each slice `i` along `batch_axis` (0 by default); the rest stays in place.")
        .examples(&["tf.reverse_sequence([[1, 2, 3, 4], [5, 6, 7, 8]], [3, 2], seq_axis=1, batch_axis=0)"]),
    Builtin::function("tf.parallel_stack", "(values, name='parallel_stack')", parallel_stack)
        .doc("Graph-mode stacking; in eager execution TensorFlow refuses it with a RuntimeError, and so does ragtag. Use tf.stack.")
        .examples(&["tf.stack([[1, 2], [3, 4]])"]),
    Builtin::function("tf.histogram_fixed_width", "(values, value_range, nbins=100, dtype=tf.int32, name=None)", histogram)
        .doc("Counts `values` in `nbins` equal bins spanning `value_range` = [lo, hi]; values below lo count in the first bin, values from hi up in the last.")
        .examples(&["tf.histogram_fixed_width([-1.0, 0.0, 1.5, 2.0, 5.0, 15.0], [0.0, 5.0], nbins=5)"]),
    Builtin::function("tf.histogram_fixed_width_bins", "(values, value_range, nbins=100, dtype=tf.int32, name=None)", histogram_bins)
        .doc("The bin of each value (shaped as `values`) for `nbins` equal bins spanning `value_range`, clipped to [0, nbins - 1].")
        .examples(&["tf.histogram_fixed_width_bins([-1.0, 0.0, 1.5, 2.0, 5.0, 15.0], [0.0, 5.0], nbins=5)"]),
    Builtin::function("tf.broadcast_dynamic_shape", "(shape_x, shape_y)", broadcast_dynamic_shape)
        .doc("The shape two tensors of shapes `shape_x` and `shape_y` (1-D integer tensors) broadcast to, as a tensor of their dtype.")
        .examples(&["tf.broadcast_dynamic_shape([1, 2, 3], [5, 1, 3])"]),
    Builtin::function("tf.broadcast_static_shape", "(shape_x, shape_y)", broadcast_static_shape)
        .doc("The TensorShape two tf.TensorShapes broadcast to (unknown sizes stay unknown unless the other side is larger than 1).")
        .examples(&["tf.broadcast_static_shape(tf.TensorShape([1, 2, 3]), tf.TensorShape([5, 1, 3]))"]),
    Builtin::function("tf.ensure_shape", "(x, shape, name=None)", ensure_shape)
        .doc("`x` itself when its shape fits `shape` (None entries match any size; `shape=None` matches any shape); an InvalidArgumentError otherwise.")
        .examples(&["tf.ensure_shape(tf.constant([1, 2]), [None])"]),
    Builtin::function("tf.get_static_value", "(tensor, partial=False)", get_static_value)
        .doc("A dense tensor's value as a NumPy array (a NumPy scalar when 0-d); Python values come back as they are; None for a RaggedTensor or SparseTensor.")
        .examples(&["tf.get_static_value(tf.constant([1, 2]))"]),
];

fn dense_of(a: &Args, name: &str, v: &Value, hint: Option<DType>) -> Result<Tensor> {
    match &*convert::to_array(v, hint).map_err(|e| a.err_at(name, e))? {
        Array::Dense(t) => Ok(t.clone()),
        Array::Ragged(_) => Err(Error::new(
            ExceptionClass::ValueError,
            "TypeError: object of type 'RaggedTensor' has no len()",
        )
        .at(a.span(name))
        .with_hint("this operation takes dense tensors: convert with rt.to_tensor()")),
    }
}

/// Gathers flat elements of `t` at `idx` into a tensor of `shape`.
fn take(
    t: &Tensor,
    idx: &[usize],
    shape: Vec<usize>,
) -> std::result::Result<Tensor, ragtag_engine::Exception> {
    Tensor::new(shape, t.data().gather(idx))
}

fn meshgrid(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let indexing = a.opt_str("indexing")?.unwrap_or_else(|| "xy".into());
    if indexing != "xy" && indexing != "ij" {
        return Err(Error::new(
            ExceptionClass::ValueError,
            format!("Argument `indexing` parameter must be either 'xy' or 'ij', got '{indexing}'"),
        )
        .at(a.span("indexing")));
    }
    let mut vs = Vec::new();
    for (v, span) in a.rest() {
        if matches!(v, Value::Array(x) if matches!(**x, Array::Ragged(_))) {
            // TensorFlow stacks the inputs' pieces, which fails for ragged rows.
            return Err(Error::new(
                ExceptionClass::InvalidArgumentError,
                "Shapes of all inputs must match: meshgrid takes vectors, not RaggedTensors",
            )
            .at(*span));
        }
        let t = dense_of(a, "args", v, None)?;
        let n = t.size();
        vs.push(t.reshaped(vec![n]).map_err(|e| Error::from(e).at(a.call))?);
    }
    if let Some(t) = vs.iter().find(|t| t.dtype() != vs[0].dtype()) {
        return Err(Error::new(
            ExceptionClass::InvalidArgumentError,
            format!(
                "cannot compute Mul as input #1(zero-based) was expected to be a {} tensor but is a {} tensor",
                vs[0].dtype(),
                t.dtype()
            ),
        )
        .at(a.call));
    }
    let mut shape: Vec<usize> = vs.iter().map(|t| t.size()).collect();
    let xy = indexing == "xy" && shape.len() >= 2;
    if xy {
        shape.swap(0, 1);
    }
    let total: usize = shape.iter().product();
    ragtag_engine::budget::check("tf.meshgrid", (total * vs.len()) as u128, 8)
        .map_err(|e| Error::from(e).at(a.call))?;
    let mut out = Vec::new();
    for (i, t) in vs.iter().enumerate() {
        // The output axis vector i runs along.
        let axis = if xy && i < 2 { 1 - i } else { i };
        let stride: usize = shape[axis + 1..].iter().product();
        let idx: Vec<usize> = (0..total).map(|k| (k / stride) % shape[axis]).collect();
        out.push(Value::tensor(
            take(t, &idx, shape.clone()).map_err(|e| Error::from(e).at(a.call))?,
        ));
    }
    Ok(Value::list(out))
}

fn axis_arg(a: &Args, name: &str, default: Option<i64>, rank: usize) -> Result<usize> {
    let v = match a.get(name).filter(|v| !matches!(v, Value::None)) {
        Some(_) => a.int(name)?,
        None => match default {
            Some(d) => d,
            None => {
                return Err(Error::new(
                    ExceptionClass::TypeError,
                    format!("Expected int for argument '{name}' not None."),
                )
                .at(a.call))
            }
        },
    };
    let j = if v < 0 { v + rank as i64 } else { v };
    if j < 0 || j as usize >= rank {
        return Err(Error::new(
            ExceptionClass::InvalidArgumentError,
            format!("{name} = {v} is out of range for a tensor of rank {rank}"),
        )
        .at(a.span(name)));
    }
    Ok(j as usize)
}

fn reverse_sequence(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let t = dense_of(a, "input", a.value("input"), None)?;
    let lens = dense_of(a, "seq_lengths", a.value("seq_lengths"), None)?;
    let seq = axis_arg(a, "seq_axis", None, t.rank())?;
    let batch = axis_arg(a, "batch_axis", Some(0), t.rank())?;
    let bad = |m: String| Error::new(ExceptionClass::InvalidArgumentError, m).at(a.call);
    if seq == batch {
        return Err(bad(format!("seq_dim == batch_dim == {seq}")));
    }
    let l = lens
        .data()
        .to_i64_vec()
        .ok_or_else(|| bad("seq_lengths must be int32 or int64".into()))?;
    let shape = t.shape();
    if lens.rank() != 1 || l.len() != shape[batch] {
        return Err(bad(format!(
            "Length of seq_lengths != input.dims({batch}), ({} vs. {})",
            l.len(),
            shape[batch]
        )));
    }
    for (i, &x) in l.iter().enumerate() {
        if x < 0 {
            return Err(bad(format!("seq_lengths({i}) < 0")));
        }
        if x as usize > shape[seq] {
            return Err(bad(format!("seq_lengths({i}) > input.dims({seq})")));
        }
    }
    let n = t.size();
    let strides: Vec<usize> = (0..shape.len())
        .map(|k| shape[k + 1..].iter().product())
        .collect();
    let idx: Vec<usize> = (0..n)
        .map(|k| {
            let b = (k / strides[batch]) % shape[batch];
            let s = (k / strides[seq]) % shape[seq];
            let len = l[b] as usize;
            if s < len {
                k - s * strides[seq] + (len - 1 - s) * strides[seq]
            } else {
                k
            }
        })
        .collect();
    take(&t, &idx, shape.to_vec())
        .map(Value::tensor)
        .map_err(|e| Error::from(e).at(a.call))
}

fn parallel_stack(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    Err(Error::new(
        ExceptionClass::RuntimeError,
        "tf.parallel_stack() is not compatible with eager execution.",
    )
    .at(a.call)
    .with_hint("use tf.stack(values)"))
}

/// values, [lo, hi] and nbins of the histograms, checked.
fn histogram_args(a: &Args) -> Result<(Tensor, f64, f64, usize)> {
    let v = dense_of(a, "values", a.value("values"), None)?;
    let r = dense_of(a, "value_range", a.value("value_range"), Some(v.dtype()))?;
    let bad = |m: String| Error::new(ExceptionClass::InvalidArgumentError, m).at(a.call);
    if r.dtype() != v.dtype() {
        return Err(bad(format!(
            "value_range must have values' dtype {}, not {}",
            v.dtype(),
            r.dtype()
        )));
    }
    let rv = r.data().to_f64_vec().unwrap_or_default();
    if rv.len() != 2 {
        return Err(bad("value_range should be a vector of 2 elements".into()));
    }
    let nbins = a.get("nbins").map_or(Ok(100), |_| a.int("nbins"))?;
    if nbins <= 0 {
        return Err(bad(format!(
            "nbins should be a positive number, but got '{nbins}'"
        )));
    }
    if rv[0] >= rv[1] {
        return Err(bad(format!(
            "value_range should satisfy value_range[0] < value_range[1], but got '[{}, {}]'",
            rv[0], rv[1]
        )));
    }
    Ok((v, rv[0], rv[1], nbins as usize))
}

fn out_dtype(a: &Args) -> Result<DType> {
    let d = a.dtype("dtype")?.unwrap_or(DType::Int32);
    if !matches!(d, DType::Int32 | DType::Int64) {
        return Err(Error::new(
            ExceptionClass::TypeError,
            format!("dtype must be int32 or int64, not {d}"),
        )
        .at(a.span("dtype")));
    }
    Ok(d)
}

fn histogram(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let (v, lo, hi, nbins) = histogram_args(a)?;
    let d = out_dtype(a)?;
    let step = (hi - lo) / nbins as f64;
    let mut counts = ragtag_engine::budget::filled("tf.histogram_fixed_width", 0i64, nbins)
        .map_err(|e| Error::from(e).at(a.call))?;
    for x in v.data().to_f64_vec().unwrap_or_default() {
        let b = ((x - lo) / step).min((nbins - 1) as f64).max(0.0);
        counts[if b.is_nan() { 0 } else { b as usize }] += 1;
    }
    Tensor::new(vec![nbins], Buffer::from_i64s(counts, d))
        .map(Value::tensor)
        .map_err(|e| Error::from(e).at(a.call))
}

fn histogram_bins(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let (v, lo, hi, nbins) = histogram_args(a)?;
    let f32_math = matches!(v.dtype(), DType::Float32 | DType::Float16 | DType::BFloat16);
    let round = |x: f64| if f32_math { x as f32 as f64 } else { x };
    let n = nbins as f64;
    let out: Vec<i64> = v
        .data()
        .to_f64_vec()
        .unwrap_or_default()
        .into_iter()
        .map(|x| {
            let scaled = round(round(x - lo) / round(hi - lo));
            let i = round(n * scaled).floor();
            i.max(0.0).min(n - 1.0) as i64
        })
        .collect();
    Tensor::new(v.shape().to_vec(), Buffer::from_i64s(out, DType::Int32))
        .map(Value::tensor)
        .map_err(|e| Error::from(e).at(a.call))
}

/// Broadcasts two shapes (None: unknown); Err with the two shapes when they do not.
fn broadcast_dims(x: &[Option<usize>], y: &[Option<usize>]) -> Option<Vec<Option<usize>>> {
    let n = x.len().max(y.len());
    let get = |s: &[Option<usize>], k: usize| {
        if k + s.len() >= n {
            s[k + s.len() - n]
        } else {
            Some(1)
        }
    };
    (0..n)
        .map(|k| match (get(x, k), get(y, k)) {
            (Some(p), Some(q)) if p == q => Some(Some(p)),
            (Some(1), q) => Some(q),
            (p, Some(1)) => Some(p),
            (None, Some(q)) | (Some(q), None) => Some(Some(q)),
            (None, None) => Some(None),
            _ => None,
        })
        .collect()
}

fn broadcast_dynamic_shape(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let x = dense_of(a, "shape_x", a.value("shape_x"), None)?;
    let y = dense_of(a, "shape_y", a.value("shape_y"), Some(x.dtype()))?;
    let bad = |m: String| Error::new(ExceptionClass::InvalidArgumentError, m).at(a.call);
    if x.dtype() != y.dtype() || !matches!(x.dtype(), DType::Int32 | DType::Int64) {
        return Err(bad(format!(
            "shapes must be int32 or int64 tensors of one dtype, got {} and {}",
            x.dtype(),
            y.dtype()
        )));
    }
    let dims = |t: &Tensor| -> Vec<Option<usize>> {
        t.data()
            .to_i64_vec()
            .unwrap_or_default()
            .into_iter()
            .map(|d| Some(d.max(0) as usize))
            .collect()
    };
    let (dx, dy) = (dims(&x), dims(&y));
    let out = broadcast_dims(&dx, &dy).ok_or_else(|| {
        bad(format!(
            "Incompatible shapes: {:?} vs. {:?}",
            x.data().to_i64_vec().unwrap_or_default(),
            y.data().to_i64_vec().unwrap_or_default()
        ))
    })?;
    let v: Vec<i64> = out.into_iter().map(|d| d.unwrap_or(0) as i64).collect();
    Tensor::new(vec![v.len()], Buffer::from_i64s(v, x.dtype()))
        .map(Value::tensor)
        .map_err(|e| Error::from(e).at(a.call))
}

fn broadcast_static_shape(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let shape = |name: &str| -> Result<Arc<Vec<Option<usize>>>> {
        match a.value(name) {
            Value::Shape(s) => Ok(s.clone()),
            other => Err(Error::new(
                ExceptionClass::AttributeError,
                format!("'{}' object has no attribute 'ndims'", other.type_name()),
            )
            .at(a.span(name))
            .with_hint("pass tf.TensorShape(...) values")),
        }
    };
    let (x, y) = (shape("shape_x")?, shape("shape_y")?);
    match broadcast_dims(&x, &y) {
        Some(s) => Ok(Value::Shape(Arc::new(s))),
        None => Err(Error::new(
            ExceptionClass::ValueError,
            "Incompatible shapes for broadcasting. Two shapes are compatible if for each dimension pair they are either equal or one of them is 1.",
        )
        .at(a.call)),
    }
}

fn ensure_shape(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let x = a.value("x").clone();
    let arr = convert::to_array(&x, None).map_err(|e| a.err_at("x", e))?;
    if matches!(*arr, Array::Ragged(_)) {
        return Err(Error::new(
            ExceptionClass::ValueError,
            "TypeError: object of type 'RaggedTensor' has no len()",
        )
        .at(a.span("x")));
    }
    let want: Option<Vec<Option<usize>>> = match a.value("shape") {
        Value::None => None,
        Value::Shape(s) => Some((**s).clone()),
        other => Some(
            crate::value::subscript_items(other)
                .iter()
                .map(|d| match d {
                    Value::None => Ok(None),
                    v => convert::to_int(v).map(|i| Some(i.max(0) as usize)),
                })
                .collect::<std::result::Result<_, _>>()
                .map_err(|e| a.err_at("shape", e))?,
        ),
    };
    let have: Vec<usize> = arr.shape().iter().map(|d| d.unwrap_or(0)).collect();
    if let Some(w) = want {
        let fits =
            w.len() == have.len() && w.iter().zip(&have).all(|(p, q)| p.is_none_or(|p| p == *q));
        if !fits {
            let shown: Vec<String> = w
                .iter()
                .map(|d| d.map_or("?".into(), |d| d.to_string()))
                .collect();
            return Err(Error::new(
                ExceptionClass::InvalidArgumentError,
                format!(
                    "Shape of tensor x {have:?} is not compatible with expected shape [{}].",
                    shown.join(",")
                ),
            )
            .at(a.call));
        }
    }
    Ok(Value::from_array((*arr).clone()))
}

fn get_static_value(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    Ok(match a.value("tensor") {
        Value::Array(arr) => match &**arr {
            Array::Dense(t) => super::numpy::nd(t.clone()),
            Array::Ragged(_) => Value::None,
        },
        Value::Sparse(_) => Value::None,
        other => other.clone(),
    })
}
