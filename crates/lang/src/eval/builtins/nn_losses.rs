//! `tf.nn`'s losses and normalisations, built from elementwise ops and reductions: the cross
//! entropies, `l2_loss`, `bias_add`, `crelu`, `batch_normalization`, `normalize_moments`,
//! `compute_average_loss` and `in_top_k`. Elementwise ones take RaggedTensors where
//! TensorFlow's dispatch does.

use super::layout::dense_arg;
use super::Builtin;
use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::operators::map_flat;
use crate::eval::Interp;
use crate::value::Value;
use ragtag_engine::ops::broadcast;
use ragtag_engine::ops::kernels::{self, BinaryOp, UnaryOp};
use ragtag_engine::ops::reduce::{self, ReduceOp};
use ragtag_engine::{Array, Buffer, DType, Exception, ExceptionClass, Tensor};

/// Loss builtins.
pub static BUILTINS: &[Builtin] = &[
    Builtin::function("tf.nn.sigmoid_cross_entropy_with_logits", "(labels=None, logits=None, name=None)", sigmoid_ce)
        .doc("The elementwise logistic loss of `logits` against `labels` (same shape, floats): max(x, 0) - x * z + log(1 + exp(-|x|)). RaggedTensors with the same rows work.")
        .examples(&["tf.nn.sigmoid_cross_entropy_with_logits(labels=tf.constant([1.0, 0.0]), logits=tf.constant([2.0, -1.0]))"]),
    Builtin::function("tf.nn.weighted_cross_entropy_with_logits", "(labels, logits, pos_weight, name=None)", weighted_ce)
        .doc("The logistic loss with the positive term weighted by `pos_weight`: (1 - z) * x + (1 + (pos_weight - 1) * z) * log(1 + exp(-x)).")
        .examples(&["tf.nn.weighted_cross_entropy_with_logits(labels=tf.constant([1.0, 0.0]), logits=tf.constant([2.0, -1.0]), pos_weight=2.0)"]),
    Builtin::function("tf.nn.softmax_cross_entropy_with_logits", "(labels, logits, axis=-1, name=None)", softmax_ce)
        .doc("The cross entropy between the distributions `labels` and softmax(`logits`) along `axis`: -sum(labels * log_softmax(logits)).")
        .examples(&["tf.nn.softmax_cross_entropy_with_logits(labels=[[0.0, 1.0]], logits=[[2.0, 1.0]])"]),
    Builtin::function("tf.nn.sparse_softmax_cross_entropy_with_logits", "(labels, logits, name=None)", sparse_softmax_ce)
        .doc("The cross entropy of softmax(`logits`) against integer class `labels` (one per row of the last axis): logsumexp(logits) - logits[label].")
        .examples(&["tf.nn.sparse_softmax_cross_entropy_with_logits(labels=[1, 0], logits=[[2.0, 1.0], [0.5, 0.5]])"]),
    Builtin::function("tf.nn.l2_loss", "(t, name=None)", l2_loss)
        .doc("Half the sum of the squares of `t`'s elements: sum(t ** 2) / 2, a scalar (floats only).")
        .examples(&["tf.nn.l2_loss(tf.constant([1.0, 2.0, 3.0]))"]),
    Builtin::function("tf.nn.bias_add", "(value, bias, data_format=None, name=None)", bias_add)
        .doc("`value` plus the vector `bias` along its last dimension (which `bias` must match).")
        .examples(&["tf.nn.bias_add(tf.constant([[1.0, 2.0], [3.0, 4.0]]), tf.constant([10.0, 20.0]))"]),
    Builtin::function("tf.nn.crelu", "(features, axis=-1, name=None)", crelu)
        .doc("relu(features) and relu(-features) joined along `axis`, which doubles in size.")
        .examples(&["tf.nn.crelu(tf.constant([-1.0, 2.0]))"]),
    Builtin::function("tf.nn.batch_normalization", "(x, mean, variance, offset, scale, variance_epsilon, name=None)", batch_norm)
        .doc("(x - mean) * scale / sqrt(variance + variance_epsilon) + offset, broadcasting; `offset` and `scale` may be None.")
        .examples(&["tf.nn.batch_normalization(tf.constant([1.0, 3.0]), 2.0, 1.0, None, None, 0.0)"]),
    Builtin::function("tf.nn.normalize_moments", "(counts, mean_ss, variance_ss, shift, name=None)", normalize_moments)
        .doc("The (mean, variance) tuple from sufficient statistics: mean_ss / counts (+ shift) and variance_ss / counts - (mean_ss / counts) ** 2.")
        .examples(&["tf.nn.normalize_moments(4.0, tf.constant([8.0]), tf.constant([20.0]), None)"]),
    Builtin::function("tf.nn.compute_average_loss", "(per_example_loss, sample_weight=None, global_batch_size=None, regularization_loss=None)", compute_average_loss)
        .doc("The sum of the (weighted) per-example losses divided by `global_batch_size` (default: the number of examples).")
        .examples(&["tf.nn.compute_average_loss(tf.constant([1.0, 2.0, 3.0]))"]),
    Builtin::function("tf.math.in_top_k", "(targets, predictions, k, name=None)", in_top_k)
        .doc("For each row of `predictions`, whether the prediction for class targets[i] is among the k largest (ties count in its favour); out-of-range targets and non-finite predictions give False.")
        .aliases(&["tf.nn.in_top_k"])
        .examples(&["tf.math.in_top_k([1, 0], [[0.1, 0.9, 0.0], [0.2, 0.3, 0.5]], 2)"]),
];

/// A dense scalar `v` of `dtype`.
pub(super) fn num(v: f64, dtype: DType) -> Array {
    Array::Dense(Tensor::from_parts(
        vec![],
        Buffer::from_f64s(vec![v], dtype),
    ))
}

pub(super) fn un(op: UnaryOp, x: &Array) -> Result<Array, Exception> {
    map_flat(x, |t| {
        Ok(Tensor::from_parts(
            t.shape().to_vec(),
            kernels::unary(op, t.data())?,
        ))
    })
}

pub(super) fn bin(op: BinaryOp, x: &Array, y: &Array) -> Result<Array, Exception> {
    broadcast::binary(op, x, y)
}

/// Argument `name` as a float tensor (dense or ragged), converting Python numbers as `hint`.
fn float_arg(a: &Args, name: &str, hint: Option<DType>) -> Result<std::sync::Arc<Array>> {
    let x = a.array(name, hint.or(Some(DType::Float32)))?;
    if !x.dtype().is_float() {
        return Err(Error::new(
            ExceptionClass::InvalidArgumentError,
            format!("{} needs float {name}, not {}", a.builtin().name, x.dtype()),
        )
        .at(a.span(name)));
    }
    Ok(x)
}

/// `labels` and `logits` of one dtype and shape.
fn labels_logits(a: &Args) -> Result<(std::sync::Arc<Array>, std::sync::Arc<Array>)> {
    let logits = float_arg(a, "logits", None)?;
    let labels = float_arg(a, "labels", Some(logits.dtype()))?;
    if labels.dtype() != logits.dtype() {
        return Err(Error::new(
            ExceptionClass::InvalidArgumentError,
            format!(
                "labels and logits must have the same dtype: {} vs {}",
                labels.dtype(),
                logits.dtype()
            ),
        )
        .at(a.span("labels")));
    }
    if labels.shape() != logits.shape() {
        return Err(Error::new(
            ExceptionClass::ValueError,
            format!(
                "`logits` and `labels` must have the same shape, received ({}) vs ({}).",
                ragtag_engine::ops::shape_str(&logits.shape()),
                ragtag_engine::ops::shape_str(&labels.shape())
            ),
        )
        .at(a.span("labels")));
    }
    Ok((labels, logits))
}

fn sigmoid_ce(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let (z, x) = labels_logits(a)?;
    let at = |e| Error::from(e).at(a.call);
    let d = x.dtype();
    let relu = bin(BinaryOp::Maximum, &x, &num(0.0, d)).map_err(at)?;
    let xz = bin(BinaryOp::Mul, &x, &z).map_err(at)?;
    let tail = un(
        UnaryOp::Log1p,
        &un(
            UnaryOp::Exp,
            &un(UnaryOp::Neg, &un(UnaryOp::Abs, &x).map_err(at)?).map_err(at)?,
        )
        .map_err(at)?,
    )
    .map_err(at)?;
    let out = bin(
        BinaryOp::Add,
        &bin(BinaryOp::Sub, &relu, &xz).map_err(at)?,
        &tail,
    )
    .map_err(at)?;
    Ok(Value::from_array(out))
}

fn weighted_ce(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let (z, x) = labels_logits(a)?;
    let d = x.dtype();
    let w = float_arg(a, "pos_weight", Some(d))?;
    let at = |e| Error::from(e).at(a.call);
    let one = num(1.0, d);
    // log_weight = 1 + (pos_weight - 1) * z
    let lw = bin(
        BinaryOp::Add,
        &one,
        &bin(
            BinaryOp::Mul,
            &bin(BinaryOp::Sub, &w, &one).map_err(at)?,
            &z,
        )
        .map_err(at)?,
    )
    .map_err(at)?;
    let first = bin(
        BinaryOp::Mul,
        &bin(BinaryOp::Sub, &one, &z).map_err(at)?,
        &x,
    )
    .map_err(at)?;
    let soft = un(
        UnaryOp::Log1p,
        &un(
            UnaryOp::Exp,
            &un(UnaryOp::Neg, &un(UnaryOp::Abs, &x).map_err(at)?).map_err(at)?,
        )
        .map_err(at)?,
    )
    .map_err(at)?;
    let relu_neg = bin(
        BinaryOp::Maximum,
        &un(UnaryOp::Neg, &x).map_err(at)?,
        &num(0.0, d),
    )
    .map_err(at)?;
    let second = bin(
        BinaryOp::Mul,
        &lw,
        &bin(BinaryOp::Add, &soft, &relu_neg).map_err(at)?,
    )
    .map_err(at)?;
    Ok(Value::from_array(
        bin(BinaryOp::Add, &first, &second).map_err(at)?,
    ))
}

/// log_softmax of `x` along `axis`.
fn log_softmax(x: &Array, axis: i64) -> Result<Array, Exception> {
    let ax = [axis];
    let max = reduce::reduce(x, Some(&ax), ReduceOp::Max, true)?;
    let shifted = bin(BinaryOp::Sub, x, &max)?;
    let sum = reduce::reduce(&un(UnaryOp::Exp, &shifted)?, Some(&ax), ReduceOp::Sum, true)?;
    bin(BinaryOp::Sub, &shifted, &un(UnaryOp::Log, &sum)?)
}

fn softmax_ce(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let logits = float_arg(a, "logits", None)?;
    let labels = float_arg(a, "labels", Some(logits.dtype()))?;
    let axis = a.opt_int("axis")?.unwrap_or(-1);
    let at = |e| Error::from(e).at(a.call);
    let ls = log_softmax(&logits, axis).map_err(|e| a.err_at("logits", e))?;
    let prod = bin(BinaryOp::Mul, &labels, &ls).map_err(at)?;
    let sum = reduce::reduce(&prod, Some(&[axis]), ReduceOp::Sum, false).map_err(at)?;
    Ok(Value::from_array(un(UnaryOp::Neg, &sum).map_err(at)?))
}

fn sparse_softmax_ce(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let logits = dense_arg(a, "logits", Some(DType::Float32))?;
    let labels = dense_arg(a, "labels", Some(DType::Int32))?;
    if !logits.dtype().is_float() {
        return Err(Error::new(
            ExceptionClass::InvalidArgumentError,
            format!("logits must be floats, not {}", logits.dtype()),
        )
        .at(a.span("logits")));
    }
    let Some(lab) = labels.to_i64_vec().filter(|_| labels.dtype().is_int()) else {
        return Err(Error::new(
            ExceptionClass::InvalidArgumentError,
            format!("labels must be int32 or int64, not {}", labels.dtype()),
        )
        .at(a.span("labels")));
    };
    let r = logits.rank();
    if r == 0 || labels.shape() != &logits.shape()[..r - 1] {
        return Err(Error::new(
            ExceptionClass::ValueError,
            format!(
                "`labels.shape.rank` must equal `logits.shape.rank - 1`: labels {} and logits {}",
                ragtag_engine::ops::dense_shape_str(labels.shape()),
                ragtag_engine::ops::dense_shape_str(logits.shape())
            ),
        )
        .at(a.span("labels")));
    }
    let n = logits.shape()[r - 1];
    let v = logits.data().to_f64_vec().unwrap_or_default();
    let mut out =
        ragtag_engine::budget::vec("tf.nn.sparse_softmax_cross_entropy_with_logits", lab.len())
            .map_err(|e| a.err_at("labels", e))?;
    for (i, &l) in lab.iter().enumerate() {
        if l < 0 || l as u64 >= n as u64 {
            return Err(Error::new(
                ExceptionClass::InvalidArgumentError,
                format!(
                    "Received a label value of {l} which is outside the valid range of [0, {n})."
                ),
            )
            .at(a.span("labels")));
        }
        let row = &v[i * n..(i + 1) * n];
        let m = row.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let lse = m + row.iter().map(|x| (x - m).exp()).sum::<f64>().ln();
        out.push(lse - row[l as usize]);
    }
    Ok(Value::tensor(Tensor::from_parts(
        labels.shape().to_vec(),
        Buffer::from_f64s(out, logits.dtype()),
    )))
}

fn l2_loss(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let t = dense_arg(a, "t", None)?;
    if !t.dtype().is_float() {
        return Err(Error::new(
            ExceptionClass::InvalidArgumentError,
            format!("tf.nn.l2_loss needs floats, not {}", t.dtype()),
        )
        .at(a.span("t")));
    }
    let s: f64 = t
        .data()
        .to_f64_vec()
        .unwrap_or_default()
        .iter()
        .map(|x| x * x)
        .sum();
    Ok(Value::tensor(Tensor::from_parts(
        vec![],
        Buffer::from_f64s(vec![s / 2.0], t.dtype()),
    )))
}

fn bias_add(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let v = dense_arg(a, "value", None)?;
    let b = dense_arg(a, "bias", Some(v.dtype()))?;
    if b.rank() != 1 || v.rank() < 2 || v.shape()[v.rank() - 1] != b.shape()[0] {
        return Err(Error::new(
            ExceptionClass::InvalidArgumentError,
            format!(
                "Must provide as many biases as the last dimension of the input tensor: {} vs. {}",
                ragtag_engine::ops::dense_shape_str(b.shape()),
                ragtag_engine::ops::dense_shape_str(v.shape())
            ),
        )
        .at(a.span("bias")));
    }
    bin(BinaryOp::Add, &Array::Dense(v), &Array::Dense(b))
        .map(Value::from_array)
        .map_err(|e| Error::from(e).at(a.call))
}

fn crelu(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let x = float_arg(a, "features", None)?;
    let axis = a.opt_int("axis")?.unwrap_or(-1);
    let at = |e| a.err_at("features", e);
    let zero = num(0.0, x.dtype());
    let pos = bin(BinaryOp::Maximum, &x, &zero).map_err(at)?;
    let neg = bin(BinaryOp::Maximum, &un(UnaryOp::Neg, &x).map_err(at)?, &zero).map_err(at)?;
    ragtag_engine::ops::concat::concat(&[pos, neg], axis)
        .map(Value::from_array)
        .map_err(|e| a.err_at("axis", e))
}

fn batch_norm(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let x = float_arg(a, "x", None)?;
    let d = x.dtype();
    let mean = float_arg(a, "mean", Some(d))?;
    let var = float_arg(a, "variance", Some(d))?;
    let eps = float_arg(a, "variance_epsilon", Some(d))?;
    let at = |e| Error::from(e).at(a.call);
    let mut inv = un(UnaryOp::Rsqrt, &bin(BinaryOp::Add, &var, &eps).map_err(at)?).map_err(at)?;
    if a.get("scale").is_some() {
        let s = float_arg(a, "scale", Some(d))?;
        inv = bin(BinaryOp::Mul, &inv, &s).map_err(at)?;
    }
    let shift = bin(BinaryOp::Mul, &mean, &inv).map_err(at)?;
    let shift = match a.get("offset") {
        Some(_) => {
            let o = float_arg(a, "offset", Some(d))?;
            bin(BinaryOp::Sub, &o, &shift).map_err(at)?
        }
        None => un(UnaryOp::Neg, &shift).map_err(at)?,
    };
    let out = bin(
        BinaryOp::Add,
        &bin(BinaryOp::Mul, &x, &inv).map_err(at)?,
        &shift,
    )
    .map_err(at)?;
    Ok(Value::from_array(out))
}

fn normalize_moments(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let m = float_arg(a, "mean_ss", None)?;
    let d = m.dtype();
    let counts = float_arg(a, "counts", Some(d))?;
    let v = float_arg(a, "variance_ss", Some(d))?;
    let at = |e| Error::from(e).at(a.call);
    let divisor = bin(BinaryOp::Div, &num(1.0, d), &counts).map_err(at)?;
    let shifted = bin(BinaryOp::Mul, &m, &divisor).map_err(at)?;
    let mean = match a.get("shift") {
        Some(_) => {
            let s = float_arg(a, "shift", Some(d))?;
            bin(BinaryOp::Add, &shifted, &s).map_err(at)?
        }
        None => shifted.clone(),
    };
    let var = bin(
        BinaryOp::Sub,
        &bin(BinaryOp::Mul, &v, &divisor).map_err(at)?,
        &un(UnaryOp::Square, &shifted).map_err(at)?,
    )
    .map_err(at)?;
    Ok(Value::tuple(vec![
        Value::from_array(mean),
        Value::from_array(var),
    ]))
}

fn compute_average_loss(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let loss = float_arg(a, "per_example_loss", None)?;
    let d = loss.dtype();
    let at = |e| Error::from(e).at(a.call);
    let loss = match a.get("sample_weight") {
        Some(_) => {
            let w = float_arg(a, "sample_weight", Some(d))?;
            std::sync::Arc::new(bin(BinaryOp::Mul, &loss, &w).map_err(at)?)
        }
        None => loss,
    };
    let n = match a.opt_int("global_batch_size")? {
        Some(n) => n as f64,
        None => match loss.shape().first() {
            Some(Some(n)) => *n as f64,
            _ => 1.0,
        },
    };
    let total = reduce::reduce(&loss, None, ReduceOp::Sum, false).map_err(at)?;
    let mut out = bin(BinaryOp::Div, &total, &num(n, d)).map_err(at)?;
    if a.get("regularization_loss").is_some() {
        let r = float_arg(a, "regularization_loss", Some(d))?;
        out = bin(BinaryOp::Add, &out, &r).map_err(at)?;
    }
    Ok(Value::from_array(out))
}

fn in_top_k(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let p = dense_arg(a, "predictions", Some(DType::Float32))?;
    let t = dense_arg(a, "targets", Some(DType::Int32))?;
    let k = a.int("k")?;
    if p.dtype() != DType::Float32 {
        return Err(Error::new(
            ExceptionClass::InvalidArgumentError,
            format!("predictions must be float32, not {}", p.dtype()),
        )
        .at(a.span("predictions")));
    }
    let Some(targets) = t
        .to_i64_vec()
        .filter(|_| t.dtype().is_int() && t.rank() == 1)
    else {
        return Err(Error::new(
            ExceptionClass::InvalidArgumentError,
            "targets must be a vector of int32 or int64",
        )
        .at(a.span("targets")));
    };
    if p.rank() != 2 || p.shape()[0] != targets.len() {
        return Err(Error::new(
            ExceptionClass::InvalidArgumentError,
            format!(
                "predictions must be a matrix with one row per target: {} vs {} targets",
                ragtag_engine::ops::dense_shape_str(p.shape()),
                targets.len()
            ),
        )
        .at(a.span("predictions")));
    }
    let n = p.shape()[1];
    let v = p.data().to_f64_vec().unwrap_or_default();
    let out: Vec<bool> = targets
        .iter()
        .enumerate()
        .map(|(i, &c)| {
            let row = &v[i * n..(i + 1) * n];
            if c < 0 || c as u64 >= n as u64 || !row[c as usize].is_finite() {
                return false;
            }
            let x = row[c as usize];
            let above = row.iter().filter(|&&y| y > x).count() as i64;
            above < k
        })
        .collect();
    Ok(Value::tensor(Tensor::from_parts(
        vec![targets.len()],
        Buffer::from(out),
    )))
}
