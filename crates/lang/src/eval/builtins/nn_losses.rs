//! `tf.nn`'s losses and normalisations, and the small `tf.math` functions built the same way
//! from elementwise ops and reductions: the cross entropies, `l2_loss`, `bias_add`, `crelu`,
//! `batch_normalization`, `normalize_moments`, `compute_average_loss`, `in_top_k`,
//! `zero_fraction`, `count_nonzero`, `scalar_mul`, `erfcinv`, `polyval`,
//! `invert_permutation` and the monotonicity checks. Elementwise ones take RaggedTensors
//! where TensorFlow's dispatch does.

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
use ragtag_engine::{Array, Buffer, DType, Exception, ExceptionClass, Scalar, Tensor};

/// Loss and small math builtins.
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
    Builtin::function("tf.math.zero_fraction", "(value, name=None)", zero_fraction)
        .doc("The fraction of `value`'s elements that are zero, a float32 scalar.")
        .aliases(&["tf.nn.zero_fraction"])
        .examples(&["tf.math.zero_fraction(tf.constant([0, 1, 0, 3]))"]),
    Builtin::function("tf.math.count_nonzero", "(input, axis=None, keepdims=None, dtype=tf.int64, name=None)", count_nonzero)
        .doc("How many elements are not zero (strings: not empty), over `axis` (all by default), as `dtype` (int64).")
        .examples(&["tf.math.count_nonzero(tf.constant([[0, 1], [2, 0]]), axis=1)"]),
    Builtin::function("tf.math.scalar_mul", "(scalar, x, name=None)", scalar_mul)
        .doc("`x` multiplied by the scalar `scalar` (a RaggedTensor keeps its rows).")
        .aliases(&["tf.scalar_mul"])
        .examples(&["tf.math.scalar_mul(2, tf.ragged.constant([[1, 2], [3]]))"]),
    Builtin::function("tf.math.erfcinv", "(x, name=None)", erfcinv)
        .doc("The inverse of erfc for every element (floats only): erfcinv(erfc(x)) = x.")
        .examples(&["tf.math.erfcinv(tf.ragged.constant([[0.5, 1.0], [1.5]]))"]),
    Builtin::function("tf.math.polyval", "(coeffs, x, name=None)", polyval)
        .doc("The polynomial with coefficients `coeffs` (highest power first) at every element of `x`, by Horner's rule.")
        .examples(&["tf.math.polyval([1.0, 2.0, 3.0], tf.constant([0.0, 1.0, 2.0]))"]),
    Builtin::function("tf.math.invert_permutation", "(x, name=None)", invert_permutation)
        .doc("The inverse of the permutation `x` of 0..n-1: y[x[i]] = i.")
        .examples(&["tf.math.invert_permutation([3, 4, 0, 2, 1])"]),
    Builtin::function("tf.math.is_non_decreasing", "(x, name=None)", |_, a| monotonic(a, false))
        .doc("True when each element (in row-major order) is at least the one before it; True for fewer than two elements.")
        .aliases(&["tf.debugging.is_non_decreasing"])
        .examples(&["tf.math.is_non_decreasing([1, 1, 2])"]),
    Builtin::function("tf.math.is_strictly_increasing", "(x, name=None)", |_, a| monotonic(a, true))
        .doc("True when each element (in row-major order) is greater than the one before it; True for fewer than two elements.")
        .aliases(&["tf.debugging.is_strictly_increasing"])
        .examples(&["tf.math.is_strictly_increasing([1, 1, 2])"]),
];

/// A dense scalar `v` of `dtype`.
fn num(v: f64, dtype: DType) -> Array {
    Array::Dense(Tensor::from_parts(
        vec![],
        Buffer::from_f64s(vec![v], dtype),
    ))
}

fn un(op: UnaryOp, x: &Array) -> Result<Array, Exception> {
    map_flat(x, |t| {
        Ok(Tensor::from_parts(
            t.shape().to_vec(),
            kernels::unary(op, t.data())?,
        ))
    })
}

fn bin(op: BinaryOp, x: &Array, y: &Array) -> Result<Array, Exception> {
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
    let mut out = Vec::with_capacity(lab.len());
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

fn zero_fraction(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let fv = dense_arg(a, "value", None)?;
    let n = fv.size();
    let zeros = match fv.data() {
        // A string is zero when it is empty, as TensorFlow compares it with "".
        Buffer::Str(s) => (0..s.len()).filter(|&i| s.get(i).is_empty()).count(),
        b => b
            .to_f64_vec()
            .unwrap_or_default()
            .iter()
            .filter(|&&x| x == 0.0)
            .count(),
    };
    let f = if n == 0 {
        f64::NAN
    } else {
        zeros as f64 / n as f64
    };
    Ok(Value::tensor(Tensor::scalar(Scalar::F32(f as f32))))
}

fn count_nonzero(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let x = a.array("input", None)?;
    let dtype = a.dtype("dtype")?.unwrap_or(DType::Int64);
    let axes = super::common::opt_ints(a, "axis")?;
    let keep = a.flag("keepdims", false)?;
    let at = |e| a.err_at("input", e);
    let nonzero = map_flat(&x, |t| {
        let flags: Vec<i64> = match t.data() {
            Buffer::Str(s) => (0..s.len())
                .map(|i| i64::from(!s.get(i).is_empty()))
                .collect(),
            b => b
                .to_f64_vec()
                .unwrap_or_default()
                .iter()
                .map(|&v| i64::from(v != 0.0))
                .collect(),
        };
        Ok(Tensor::from_parts(t.shape().to_vec(), Buffer::from(flags)))
    })
    .map_err(at)?;
    let sum = reduce::reduce(&nonzero, axes.as_deref(), ReduceOp::Sum, keep)
        .map_err(|e| a.err_at("axis", e))?;
    super::cast_array(&sum, dtype)
        .map(Value::from_array)
        .map_err(|e| a.err_at("dtype", e))
}

fn scalar_mul(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let x = a.array("x", None)?;
    let s = a.array("scalar", Some(x.dtype()))?;
    if s.rank() != 0 {
        return Err(Error::new(
            ExceptionClass::ValueError,
            format!(
                "Only scalar multiply works, got shape {}",
                ragtag_engine::ops::shape_str(&s.shape())
            ),
        )
        .at(a.span("scalar")));
    }
    let s = if s.dtype() == x.dtype() {
        (*s).clone()
    } else {
        super::cast_array(&s, x.dtype()).map_err(|e| a.err_at("scalar", e))?
    };
    bin(BinaryOp::Mul, &s, &x)
        .map(Value::from_array)
        .map_err(|e| Error::from(e).at(a.call))
}

fn erfcinv(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let x = a.array("x", Some(DType::Float32))?;
    if !x.dtype().is_float() {
        return Err(Error::new(
            ExceptionClass::TypeError,
            format!("tf.math.erfcinv needs floats, not {}", x.dtype()),
        )
        .at(a.span("x")));
    }
    map_flat(&x, |t| {
        let v = t.data().to_f64_vec().unwrap_or_default();
        let out: Vec<f64> = v
            .iter()
            .map(|&y| ragtag_engine::ops::special::erfinv(1.0 - y))
            .collect();
        Ok(Tensor::from_parts(
            t.shape().to_vec(),
            Buffer::from_f64s(out, t.dtype()),
        ))
    })
    .map(Value::from_array)
    .map_err(|e| a.err_at("x", e))
}

fn polyval(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let x = a.array("x", Some(DType::Float32))?;
    let coeffs = super::array::tensor_list(a, "coeffs")?;
    let at = |e| Error::from(e).at(a.call);
    let mut p: Option<Array> = None;
    for c in coeffs {
        let c = if c.dtype() == x.dtype() {
            c
        } else {
            super::cast_array(&c, x.dtype()).map_err(|e| a.err_at("coeffs", e))?
        };
        p = Some(match p {
            None => c,
            Some(p) => {
                bin(BinaryOp::Add, &bin(BinaryOp::Mul, &p, &x).map_err(at)?, &c).map_err(at)?
            }
        });
    }
    let out = match p {
        Some(p) => bin(
            BinaryOp::Add,
            &p,
            &bin(BinaryOp::Mul, &x, &num(0.0, x.dtype())).map_err(at)?,
        )
        .map_err(at)?,
        None => bin(BinaryOp::Mul, &x, &num(0.0, x.dtype())).map_err(at)?,
    };
    Ok(Value::from_array(out))
}

fn invert_permutation(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let t = dense_arg(a, "x", Some(DType::Int32))?;
    let Some(v) = t
        .to_i64_vec()
        .filter(|_| t.dtype() == DType::Int32 || t.dtype() == DType::Int64)
    else {
        return Err(Error::new(
            ExceptionClass::InvalidArgumentError,
            format!("x must be int32 or int64, not {}", t.dtype()),
        )
        .at(a.span("x")));
    };
    if t.rank() != 1 {
        return Err(Error::new(
            ExceptionClass::InvalidArgumentError,
            "invert_permutation expects a 1D vector.",
        )
        .at(a.span("x")));
    }
    let n = v.len();
    let mut out: Vec<i64> = (0..n).map(|_| -1).collect();
    for (i, &d) in v.iter().enumerate() {
        if d < 0 || d as u64 >= n as u64 {
            return Err(Error::new(
                ExceptionClass::InvalidArgumentError,
                format!("{d} is not between 0 and {n}"),
            )
            .at(a.span("x")));
        }
        if out[d as usize] != -1 {
            return Err(Error::new(
                ExceptionClass::InvalidArgumentError,
                format!("{d} is duplicated in the input."),
            )
            .at(a.span("x")));
        }
        out[d as usize] = i as i64;
    }
    Ok(Value::tensor(Tensor::from_parts(
        vec![n],
        Buffer::from_i64s(out, t.dtype()),
    )))
}

fn monotonic(a: &Args, strict: bool) -> Result<Value> {
    let t = dense_arg(a, "x", None)?;
    if !t.dtype().is_numeric() {
        return Err(Error::new(
            ExceptionClass::TypeError,
            format!("Expected x to be numeric, not {}", t.dtype()),
        )
        .at(a.span("x")));
    }
    let ok = ragtag_engine::dispatch!(numbers t.data(), v => v.windows(2).all(|w| if strict { w[0] < w[1] } else { w[0] <= w[1] }),
        _ => false);
    Ok(Value::tensor(Tensor::scalar(Scalar::Bool(ok))))
}
