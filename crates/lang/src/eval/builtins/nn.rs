//! `tf.nn`'s activations (relu, relu6, elu, selu, leaky_relu, gelu, silu/swish and the
//! `tf.nn` spellings of sigmoid, tanh, softplus and softsign), which work elementwise on dense
//! and ragged tensors as TensorFlow's ragged dispatch does, and `tf.nn.l2_normalize` and
//! `tf.nn.moments`.

use super::Builtin;
use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::operators::map_flat;
use crate::eval::Interp;
use crate::value::Value;
use ragtag_engine::ops::kernels::UnaryOp;
use ragtag_engine::ops::reduce::{self, ReduceOp};
use ragtag_engine::{interrupt, invalid_arg, Array, Buffer, DType, ExceptionClass, Tensor};

/// `tf.nn` builtins.
pub static BUILTINS: &[Builtin] = &[
    Builtin::function("tf.nn.relu", "(features, name=None)", |_, a| activation(a, Act::Relu))
        .doc("max(features, 0) for every element (numbers, not bool).")
        .examples(&["tf.nn.relu(tf.ragged.constant([[-1, 2], [3, -4]]))"]),
    Builtin::function("tf.nn.relu6", "(features, name=None)", |_, a| activation(a, Act::Relu6))
        .doc("min(max(features, 0), 6) for every element (numbers, not bool).")
        .examples(&["tf.nn.relu6(tf.constant([-1.0, 3.0, 8.0]))"]),
    Builtin::function("tf.nn.elu", "(features, name=None)", |_, a| activation(a, Act::Elu))
        .doc("features where positive, exp(features) - 1 elsewhere (floats only).")
        .examples(&["tf.nn.elu(tf.ragged.constant([[-1.0, 2.0], [0.5]]))"]),
    Builtin::function("tf.nn.selu", "(features, name=None)", |_, a| activation(a, Act::Selu))
        .doc("The scaled elu, scale * (features if positive else alpha * (exp(features) - 1)), with scale 1.0507… and alpha 1.6732… (floats only).")
        .examples(&["tf.nn.selu(tf.constant([-1.0, 2.0]))"]),
    Builtin::function("tf.nn.leaky_relu", "(features, alpha=0.2, name=None)", |_, a| activation(a, Act::Leaky))
        .doc("features where positive, alpha * features elsewhere; integers are computed as float32.")
        .examples(&["tf.nn.leaky_relu(tf.ragged.constant([[-1.0, 2.0], [-3.0]]), alpha=0.1)"]),
    Builtin::function("tf.nn.gelu", "(features, approximate=False, name=None)", |_, a| activation(a, Act::Gelu))
        .doc("The Gaussian error linear unit, features * Phi(features), or its tanh approximation with `approximate=True` (floats only).")
        .examples(&["tf.nn.gelu(tf.constant([-1.0, 0.0, 1.0]))"]),
    Builtin::function("tf.nn.silu", "(features, beta=1.0)", |_, a| activation(a, Act::Silu))
        .doc("features * sigmoid(beta * features) for every element (floats only).")
        .aliases(&["tf.nn.swish"])
        .examples(&["tf.nn.silu(tf.ragged.constant([[-1.0, 2.0], [3.0]]))"]),
    Builtin::function("tf.nn.sigmoid", "(x, name=None)", |_, a| super::tensor::unary(a, UnaryOp::Sigmoid))
        .doc("tf.math.sigmoid: the logistic sigmoid of every element (floats only).")
        .examples(&["tf.nn.sigmoid(tf.constant([0.0, 2.0]))"]),
    Builtin::function("tf.nn.tanh", "(x, name=None)", |_, a| super::tensor::unary(a, UnaryOp::Tanh))
        .doc("tf.math.tanh: the hyperbolic tangent of every element (floats only).")
        .examples(&["tf.nn.tanh(tf.constant([0.0, 2.0]))"]),
    Builtin::function("tf.nn.softplus", "(x, name=None)", |_, a| super::tensor::unary(a, UnaryOp::Softplus))
        .doc("tf.math.softplus: log(exp(x) + 1) for every element (floats only).")
        .examples(&["tf.nn.softplus(tf.ragged.constant([[-1.0, 2.0], [3.0]]))"]),
    Builtin::function("tf.nn.softsign", "(x, name=None)", |_, a| super::tensor::unary(a, UnaryOp::Softsign))
        .doc("tf.math.softsign: x / (abs(x) + 1) for every element (floats only).")
        .examples(&["tf.nn.softsign(tf.ragged.constant([[-1.0, 2.0], [3.0]]))"]),
    Builtin::function("tf.nn.l2_normalize", "(x, axis=None, epsilon=1e-12, name=None, dim=None)", l2_normalize)
        .doc("x divided by its L2 norm along `axis` (all axes by default), the squared norm at least `epsilon`.")
        .aliases(&["tf.math.l2_normalize", "tf.linalg.l2_normalize"])
        .examples(&["tf.nn.l2_normalize(tf.constant([[3.0, 4.0], [1.0, 0.0]]), axis=1)"]),
    Builtin::function("tf.nn.moments", "(x, axes, shift=None, keepdims=False, name=None)", moments)
        .doc("The mean and variance of x over `axes`, as a (mean, variance) tuple.")
        .examples(&["tf.nn.moments(tf.constant([[1.0, 2.0], [3.0, 6.0]]), axes=[0])"]),
];

/// An activation.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Act {
    Relu,
    Relu6,
    Elu,
    Selu,
    Leaky,
    Gelu,
    Silu,
}

/// SELU's constants, as TensorFlow's kernel writes them.
const SELU_SCALE: f64 = 1.050_700_987_355_480_5;
const SELU_ALPHA: f64 = 1.673_263_242_354_377_3;

fn activation(a: &Args, act: Act) -> Result<Value> {
    let x = a.array("features", None)?;
    let alpha = match act {
        Act::Leaky => a
            .get("alpha")
            .map(crate::eval::convert::to_f64)
            .transpose()
            .map_err(|e| a.err_at("alpha", e))?
            .unwrap_or(0.2),
        Act::Silu => a
            .get("beta")
            .map(crate::eval::convert::to_f64)
            .transpose()
            .map_err(|e| a.err_at("beta", e))?
            .unwrap_or(1.0),
        _ => 0.0,
    };
    let approximate = act == Act::Gelu && a.flag("approximate", false)?;
    let name = a.builtin().name;
    let d = x.dtype();
    let x = if act == Act::Leaky && d.is_int() {
        // TensorFlow's leaky_relu converts integer features to float32.
        Value::from_array(
            super::cast_array(&x, DType::Float32).map_err(|e| a.err_at("features", e))?,
        )
    } else {
        Value::Array(x)
    };
    let Value::Array(x) = x else {
        unreachable!("an array")
    };
    let int_ok = matches!(act, Act::Relu | Act::Relu6);
    if !(x.dtype().is_float() || (int_ok && x.dtype().is_int())) {
        let class = if act == Act::Gelu {
            ExceptionClass::ValueError
        } else {
            ExceptionClass::InvalidArgumentError
        };
        return Err(Error::new(
            class,
            format!(
                "{name} needs float{} features, not {d}",
                if int_ok { " or integer" } else { "" }
            ),
        )
        .at(a.span("features")));
    }
    let f = move |v: f64| -> f64 {
        match act {
            Act::Relu => v.max(0.0),
            Act::Relu6 => v.clamp(0.0, 6.0),
            Act::Elu => {
                if v > 0.0 {
                    v
                } else {
                    v.exp_m1()
                }
            }
            Act::Selu => {
                if v > 0.0 {
                    SELU_SCALE * v
                } else {
                    SELU_SCALE * SELU_ALPHA * v.exp_m1()
                }
            }
            Act::Leaky => {
                if v > 0.0 {
                    v
                } else {
                    alpha * v
                }
            }
            Act::Gelu if approximate => {
                let c = (2.0 / std::f64::consts::PI).sqrt();
                0.5 * v * (1.0 + (c * (v + 0.044_715 * v * v * v)).tanh())
            }
            Act::Gelu => {
                0.5 * v * (1.0 + ragtag_engine::ops::special::erf(v / std::f64::consts::SQRT_2))
            }
            Act::Silu => v / (1.0 + (-alpha * v).exp()),
        }
    };
    map_flat(&x, |t| {
        let data = ragtag_engine::dispatch!(floats t.data(), T: v => Buffer::from(interrupt::map(v, |e: T| T::from_f64(f(e.to_f64())))),
            b => ragtag_engine::dispatch!(signed b, T: v => Buffer::from(interrupt::map(v, |e: T| {
                let z = T::from_i64(0);
                let six = T::from_i64(6);
                let r = if e > z { e } else { z };
                if act == Act::Relu6 && r > six { six } else { r }
            })),
            b => ragtag_engine::dispatch!(unsigned b, T: v => Buffer::from(interrupt::map(v, |e: T| {
                let six = T::from_i64(6);
                if act == Act::Relu6 && e > six { six } else { e }
            })), _ => return Err(invalid_arg!("{name} does not take {d}")))));
        interrupt::check()?;
        Ok(Tensor::from_parts(t.shape().to_vec(), data))
    })
    .map(Value::from_array)
    .map_err(|e| a.err_at("features", e))
}

/// Argument `name` as reduction axes: an int, a list of ints, or None for all.
fn axes_arg(a: &Args, name: &str) -> Result<Option<Vec<i64>>> {
    match a.get(name) {
        None => Ok(None),
        Some(Value::Int(i)) => Ok(Some(vec![*i])),
        Some(_) => a.ints(name).map(Some),
    }
}

fn l2_normalize(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let x = super::layout::dense_arg(a, "x", None)?;
    if !x.dtype().is_float() {
        return Err(Error::new(
            ExceptionClass::TypeError,
            format!("tf.nn.l2_normalize needs float values, not {}", x.dtype()),
        )
        .at(a.span("x")));
    }
    let axes = match axes_arg(a, "axis")? {
        Some(v) => Some(v),
        None => axes_arg(a, "dim")?,
    };
    let eps = match a.get("epsilon") {
        Some(v) => crate::eval::convert::to_f64(v).map_err(|e| a.err_at("epsilon", e))?,
        None => 1e-12,
    };
    let sq = Array::Dense(Tensor::from_parts(
        x.shape().to_vec(),
        ragtag_engine::ops::kernels::unary(UnaryOp::Square, x.data())
            .map_err(|e| a.err_at("x", e))?,
    ));
    let sums = reduce::reduce(&sq, axes.as_deref(), ReduceOp::Sum, true)
        .map_err(|e| a.err_at("axis", e))?;
    let Array::Dense(sums) = sums else {
        unreachable!("a dense reduction")
    };
    let norms = ragtag_engine::dispatch!(floats sums.data(), T: v => Buffer::from(v.iter().map(|&s: &T| {
        T::from_f64(1.0 / s.to_f64().max(eps).sqrt())
    }).collect::<Vec<T>>()), _ => unreachable!("floats checked"));
    let inv = Array::Dense(Tensor::from_parts(sums.shape().to_vec(), norms));
    ragtag_engine::ops::broadcast::binary(
        ragtag_engine::ops::kernels::BinaryOp::Mul,
        &Array::Dense(x),
        &inv,
    )
    .map(Value::from_array)
    .map_err(|e| a.err_at("x", e))
}

fn moments(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let x = a.array("x", None)?;
    let axes = axes_arg(a, "axes")?;
    let keep = a.flag("keepdims", false)?;
    let mean = reduce::reduce(&x, axes.as_deref(), ReduceOp::Mean, keep)
        .map_err(|e| a.err_at("axes", e))?;
    let var = reduce::reduce(&x, axes.as_deref(), ReduceOp::Variance, keep)
        .map_err(|e| a.err_at("axes", e))?;
    Ok(Value::tuple(vec![
        Value::from_array(mean),
        Value::from_array(var),
    ]))
}
