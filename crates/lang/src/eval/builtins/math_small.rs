//! Small `tf.math` functions: `zero_fraction`, `count_nonzero`, `scalar_mul`, `erfcinv`,
//! `polyval`, `invert_permutation` and the monotonicity checks (`erfcinv` and `scalar_mul`
//! take RaggedTensors, as TensorFlow's dispatch does).

use super::layout::dense_arg;
use super::nn_losses::{bin, num};
use super::Builtin;
use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::operators::map_flat;
use crate::eval::Interp;
use crate::value::Value;
use ragtag_engine::ops::kernels::BinaryOp;
use ragtag_engine::ops::reduce::{self, ReduceOp};
use ragtag_engine::{Array, Buffer, DType, ExceptionClass, Scalar, Tensor};

/// Small math builtins.
pub static BUILTINS: &[Builtin] = &[
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
