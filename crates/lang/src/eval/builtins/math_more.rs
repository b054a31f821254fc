//! More of `tf.math`: `accumulate_n`, `confusion_matrix`, `cumulative_logsumexp`, `lbeta`,
//! `approx_max_k` and `approx_min_k`.

use super::Builtin;
use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::convert;
use crate::eval::Interp;
use crate::value::Value;
use ragtag_engine::{Array, Buffer, DType, Exception, ExceptionClass, Tensor};

/// The tf.math builtins of this file.
pub static BUILTINS: &[Builtin] = &[
    Builtin::function("tf.math.accumulate_n", "(inputs, shape=None, tensor_dtype=None, name=None)", accumulate_n)
        .doc("The elementwise sum of a list of tensors of one dtype and shape (TensorFlow deprecates it for tf.math.add_n, which gives the same answer).")
        .examples(&["tf.math.accumulate_n([tf.constant([1, 2]), tf.constant([3, 4])])"]),
    Builtin::function("tf.math.confusion_matrix", "(labels, predictions, num_classes=None, weights=None, dtype=tf.int32, name=None)", confusion_matrix)
        .doc("The num_classes × num_classes matrix whose element [i, j] counts (or sums the `weights` of) the examples with label i predicted as j. Without num_classes it is one more than the largest label or prediction.")
        .examples(&[
            "tf.math.confusion_matrix([1, 2, 4], [2, 2, 4])",
            "tf.math.confusion_matrix([1, 2], [2, 2], weights=[0.5, 1.5], dtype=tf.float32)",
        ]),
    Builtin::function("tf.math.cumulative_logsumexp", "(x, axis=0, exclusive=False, reverse=False, name=None)", cumulative_logsumexp)
        .doc("log(cumsum(exp(x))) along `axis`, computed without overflow; `exclusive` and `reverse` as in tf.math.cumsum (an exclusive first element is -inf).")
        .examples(&["tf.math.cumulative_logsumexp(tf.constant([1.0, 2.0, 3.0]))"]),
    Builtin::function("tf.math.lbeta", "(x, name=None)", lbeta)
        .doc("The log of the multivariate beta function along the last axis: sum(lgamma(x)) - lgamma(sum(x)). An empty last axis gives -inf.")
        .examples(&["tf.math.lbeta(tf.constant([[1.0, 2.0, 3.0], [0.5, 0.5, 1.0]]))"]),
    Builtin::function("tf.math.approx_max_k", "(operand, k, reduction_dimension=-1, recall_target=0.95, reduction_input_size_override=-1, aggregate_to_topk=True, name=None)", approx_max_k)
        .doc("The k largest values along the last axis and their indices, as a (values, indices) pair. On CPU TensorFlow computes them exactly (ties: the lower index first) and has a kernel only for the last axis.")
        .examples(&["tf.math.approx_max_k(tf.constant([[1.0, 5.0, 3.0], [9.0, 0.0, 4.0]]), 2)"]),
    Builtin::function("tf.math.approx_min_k", "(operand, k, reduction_dimension=-1, recall_target=0.95, reduction_input_size_override=-1, aggregate_to_topk=True, name=None)", approx_min_k)
        .doc("The k smallest values along an axis and their indices. TensorFlow has no CPU kernel for it (NotFoundError), so ragtag raises the same; use tf.math.top_k(-x).")
        .examples(&["tf.math.approx_max_k(-tf.constant([1.0, 5.0, 3.0]), 2)"]),
];

fn dense(v: &Value, hint: Option<DType>) -> std::result::Result<Tensor, Exception> {
    match &*convert::to_array(v, hint)? {
        Array::Dense(t) => Ok(t.clone()),
        Array::Ragged(_) => Err(ragtag_engine::value_error!(
            "TypeError: object of type 'RaggedTensor' has no len()"
        )),
    }
}

fn float_only(t: &Tensor, op: &str) -> std::result::Result<(), Exception> {
    if t.dtype().is_float() {
        Ok(())
    } else {
        Err(ragtag_engine::invalid_arg!(
            "Value for attr 'T' of {} is not in the list of allowed values: bfloat16, half, float, double (in {op})",
            t.dtype()
        )
        .with_hint("cast to a float dtype first: tf.cast(x, tf.float32)"))
    }
}

fn accumulate_n(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let v = a.value("inputs");
    let invalid = || {
        Error::new(
            ExceptionClass::ValueError,
            "inputs must be a list of at least one Tensor with the same dtype and shape",
        )
        .at(a.span("inputs"))
    };
    if !matches!(v, Value::List(_) | Value::Tuple(_)) {
        return Err(invalid());
    }
    let items = crate::value::subscript_items(v);
    if items.is_empty() {
        return Err(invalid());
    }
    let ts = items
        .iter()
        .map(|x| dense(x, None))
        .collect::<std::result::Result<Vec<_>, _>>()
        .map_err(|e| a.err_at("inputs", e))?;
    let d = ts[0].dtype();
    if ts.iter().any(|t| t.dtype() != d) {
        return Err(invalid());
    }
    if let Some(t) = ts.iter().find(|t| t.shape() != ts[0].shape()) {
        return Err(Error::new(
            ExceptionClass::ValueError,
            format!(
                "Shapes {:?} and {:?} are not compatible",
                ts[0].shape(),
                t.shape()
            ),
        )
        .at(a.span("inputs")));
    }
    let buf = if d.is_float() {
        #[allow(clippy::disallowed_methods)] // the size of an input, which exists
        let mut acc = vec![0.0; ts[0].size()];
        for t in &ts {
            for (x, y) in acc
                .iter_mut()
                .zip(t.data().to_f64_vec().unwrap_or_default())
            {
                *x += y;
            }
        }
        Buffer::from_f64s(acc, d)
    } else if d.is_int() {
        #[allow(clippy::disallowed_methods)] // the size of an input, which exists
        let mut acc = vec![0i64; ts[0].size()];
        for t in &ts {
            for (x, y) in acc
                .iter_mut()
                .zip(t.data().to_i64_vec().unwrap_or_default())
            {
                *x = x.wrapping_add(y);
            }
        }
        Buffer::from_i64s(acc, d)
    } else {
        return Err(invalid());
    };
    Tensor::new(ts[0].shape().to_vec(), buf)
        .map(Value::tensor)
        .map_err(|e| Error::from(e).at(a.call))
}

fn confusion_matrix(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let labels = dense(a.value("labels"), None).map_err(|e| a.err_at("labels", e))?;
    let preds = dense(a.value("predictions"), None).map_err(|e| a.err_at("predictions", e))?;
    let bad = |m: String| Error::new(ExceptionClass::InvalidArgumentError, m).at(a.call);
    let l = labels
        .data()
        .to_i64_vec()
        .ok_or_else(|| bad("labels must be integers".into()))?;
    let p = preds
        .data()
        .to_i64_vec()
        .ok_or_else(|| bad("predictions must be integers".into()))?;
    if l.len() != p.len() {
        return Err(bad(format!(
            "Shapes of all inputs must match: labels has shape {:?} and predictions {:?}",
            labels.shape(),
            preds.shape()
        )));
    }
    if l.iter().any(|&x| x < 0) {
        return Err(bad("`labels` contains negative values.".into()));
    }
    if p.iter().any(|&x| x < 0) {
        return Err(bad("`predictions` contains negative values.".into()));
    }
    let n = match a.get("num_classes").filter(|v| !matches!(v, Value::None)) {
        Some(_) => {
            let n = a.int("num_classes")?;
            if l.iter().any(|&x| x >= n) {
                return Err(bad("`labels` out of bound".into()));
            }
            if p.iter().any(|&x| x >= n) {
                return Err(bad("`predictions` out of bound".into()));
            }
            n.max(0) as usize
        }
        None => (l.iter().chain(&p).copied().max().unwrap_or(-1) + 1) as usize,
    };
    let d = a.dtype("dtype")?.unwrap_or(DType::Int32);
    let weights = match a.get("weights").filter(|v| !matches!(v, Value::None)) {
        None => None,
        Some(v) => Some(
            dense(v, Some(d))
                .map_err(|e| a.err_at("weights", e))?
                .data()
                .to_f64_vec()
                .unwrap_or_default(),
        ),
    };
    ragtag_engine::budget::check("tf.math.confusion_matrix", (n * n) as u128, 8)
        .map_err(|e| Error::from(e).at(a.call))?;
    let mut m = ragtag_engine::budget::filled("tf.math.confusion_matrix", 0.0f64, n * n)
        .map_err(|e| Error::from(e).at(a.call))?;
    for (k, (&i, &j)) in l.iter().zip(&p).enumerate() {
        m[i as usize * n + j as usize] += weights
            .as_ref()
            .map_or(1.0, |w| w.get(k).copied().unwrap_or(1.0));
    }
    let buf = if d.is_float() {
        Buffer::from_f64s(m, d)
    } else {
        Buffer::from_i64s(m.into_iter().map(|x| x as i64).collect(), d)
    };
    Tensor::new(vec![n, n], buf)
        .map(Value::tensor)
        .map_err(|e| Error::from(e).at(a.call))
}

/// log(exp(a) + exp(b)) without overflow.
fn log_add(a: f64, b: f64) -> f64 {
    if a == f64::NEG_INFINITY {
        return b;
    }
    if b == f64::NEG_INFINITY {
        return a;
    }
    let m = a.max(b);
    m + ((a - m).exp() + (b - m).exp()).ln()
}

fn cumulative_logsumexp(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let t = dense(a.value("x"), None).map_err(|e| a.err_at("x", e))?;
    float_only(&t, "CumulativeLogsumexp").map_err(|e| a.err_at("x", e))?;
    let rank = t.rank() as i64;
    let axis = a.get("axis").map_or(Ok(0), |_| a.int("axis"))?;
    let ax = if axis < 0 { axis + rank } else { axis };
    if ax < 0 || ax >= rank.max(1) {
        return Err(Error::new(
            ExceptionClass::InvalidArgumentError,
            format!("axis {axis} is out of range for a tensor of rank {rank}"),
        )
        .at(a.span("axis")));
    }
    let (exclusive, reverse) = (a.flag("exclusive", false)?, a.flag("reverse", false)?);
    let shape = t.shape();
    let ax = ax as usize;
    let (len, inner) = if shape.is_empty() {
        (1, 1)
    } else {
        (shape[ax], shape[ax + 1..].iter().product::<usize>())
    };
    let outer: usize = if shape.is_empty() {
        1
    } else {
        shape[..ax].iter().product()
    };
    let x = t.data().to_f64_vec().unwrap_or_default();
    #[allow(clippy::disallowed_methods)] // the size of the input, which exists
    let mut out = vec![0.0; x.len()];
    for o in 0..outer {
        for i in 0..inner {
            let mut acc = f64::NEG_INFINITY;
            let order: Vec<usize> = if reverse {
                (0..len).rev().collect()
            } else {
                (0..len).collect()
            };
            for k in order {
                let pos = o * len * inner + k * inner + i;
                if exclusive {
                    out[pos] = acc;
                    acc = log_add(acc, x[pos]);
                } else {
                    acc = log_add(acc, x[pos]);
                    out[pos] = acc;
                }
            }
        }
    }
    Tensor::new(shape.to_vec(), Buffer::from_f64s(out, t.dtype()))
        .map(Value::tensor)
        .map_err(|e| Error::from(e).at(a.call))
}

fn lbeta(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let t = dense(a.value("x"), None).map_err(|e| a.err_at("x", e))?;
    float_only(&t, "Lgamma").map_err(|e| a.err_at("x", e))?;
    let x = t.data().to_f64_vec().unwrap_or_default();
    let (shape, last) = match t.shape().split_last() {
        Some((l, rest)) => (rest.to_vec(), *l),
        None => (Vec::new(), 1),
    };
    let n: usize = shape.iter().product();
    let out: Vec<f64> = (0..n)
        .map(|i| {
            let row = &x[i * last..(i + 1) * last];
            if row.is_empty() {
                return f64::NEG_INFINITY;
            }
            let s: f64 = row.iter().map(|v| libm::lgamma(*v)).sum();
            s - libm::lgamma(row.iter().sum())
        })
        .collect();
    Tensor::new(shape, Buffer::from_f64s(out, t.dtype()))
        .map(Value::tensor)
        .map_err(|e| Error::from(e).at(a.call))
}

fn approx_k(a: &Args, max: bool) -> Result<Value> {
    let t = dense(a.value("operand"), None).map_err(|e| a.err_at("operand", e))?;
    if !matches!(t.dtype(), DType::Float16 | DType::BFloat16 | DType::Float32) {
        return Err(Error::new(
            ExceptionClass::InvalidArgumentError,
            format!(
                "Value for attr 'T' of {} is not in the list of allowed values: half, bfloat16, float",
                t.dtype()
            ),
        )
        .at(a.span("operand")));
    }
    let k = a.int("k")?;
    let rd = a
        .get("reduction_dimension")
        .map_or(Ok(-1), |_| a.int("reduction_dimension"))?;
    let rank = t.rank() as i64;
    if !max || (rd != -1 && rd != rank - 1) {
        return Err(Error::new(
            ExceptionClass::NotFoundError,
            format!(
                "Could not find device for node: ApproxTopK (is_max_k={}, reduction_dimension={rd}): TensorFlow's CPU kernel reduces only the last axis, for the largest values",
                max
            ),
        )
        .at(a.call)
        .with_hint("use tf.math.top_k(x, k) (with -x for the smallest), on the last axis"));
    }
    let last = *t.shape().last().unwrap_or(&0);
    if k < 0 || k as usize > last {
        return Err(Error::new(
            ExceptionClass::InvalidArgumentError,
            format!("input must have at least k columns. Had {last}, needed {k}"),
        )
        .at(a.span("k")));
    }
    let k = k as usize;
    let x = t.data().to_f64_vec().unwrap_or_default();
    let rows = x.len().checked_div(last).unwrap_or(0);
    let mut vals = Vec::new();
    let mut idx = Vec::new();
    for r in 0..rows {
        let row = &x[r * last..(r + 1) * last];
        let mut order: Vec<usize> = (0..last).collect();
        order.sort_by(|&i, &j| row[j].total_cmp(&row[i]).then(i.cmp(&j)));
        for &i in &order[..k] {
            vals.push(row[i]);
            idx.push(i as i64);
        }
    }
    let mut shape = t.shape().to_vec();
    if let Some(l) = shape.last_mut() {
        *l = k;
    }
    let err = |e: Exception| Error::from(e).at(a.call);
    Ok(Value::tuple(vec![
        Value::tensor(Tensor::new(shape.clone(), Buffer::from_f64s(vals, t.dtype())).map_err(err)?),
        Value::tensor(Tensor::new(shape, Buffer::from_i64s(idx, DType::Int32)).map_err(err)?),
    ]))
}

fn approx_max_k(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    approx_k(a, true)
}

fn approx_min_k(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    approx_k(a, false)
}
