//! More of `tf.math`: trigonometric, hyperbolic and special functions, the float-safe
//! binary ops (`xdivy`, `divide_no_nan`, …) and `tf.add_n`. Each works elementwise on dense
//! and ragged tensors (ragged ones keep their row partitions).

use super::common::{binary_table, reduction_axes, unary_table};
use super::Builtin;
use crate::diagnostic::{Error, Result};
use std::sync::Arc;

use crate::eval::operators::as_items;
use crate::eval::operators::map_flat;
use crate::eval::{convert, Interp};
use crate::value::Value;
use ragtag_engine::ops::kernels::{BinaryOp, UnaryOp};
use ragtag_engine::ops::reduce::{self, ReduceOp};
use ragtag_engine::ops::{broadcast, kernels};
use ragtag_engine::{Array, Buffer, DType, ExceptionClass, Scalar, Tensor};

/// Unary functions of floats (`tf.math.X`, also reachable as `tf.X`).
pub static UNARY: &[Builtin] = unary_table! {
    default "[[0.5, 0.25], [], [0.75]]";
    "tf.math.acos" => Acos, "The arc cosine of every element (floats only; nan outside [-1, 1]).";
    "tf.math.acosh" => Acosh ["[[1.0, 2.5], [], [3.0]]"], "The inverse hyperbolic cosine of every element (floats only).";
    "tf.math.asin" => Asin, "The arc sine of every element (floats only).";
    "tf.math.asinh" => Asinh, "The inverse hyperbolic sine of every element (floats only).";
    "tf.math.atan" => Atan, "The arc tangent of every element (floats only).";
    "tf.math.atanh" => Atanh, "The inverse hyperbolic tangent of every element (floats only).";
    "tf.math.cosh" => Cosh, "The hyperbolic cosine of every element (floats only).";
    "tf.math.sinh" => Sinh, "The hyperbolic sine of every element (floats only).";
    "tf.math.tan" => Tan, "The tangent of every element (floats only).";
    "tf.math.log1p" => Log1p, "log(1 + x) for every element, accurate near 0 (floats only).";
    "tf.math.expm1" => Expm1, "exp(x) - 1 for every element, accurate near 0 (floats only).";
    "tf.math.rsqrt" => Rsqrt, "1 / sqrt(x) for every element (floats only).";
    "tf.math.erf" => Erf, "The Gauss error function of every element (floats only).";
    "tf.math.erfc" => Erfc, "1 - erf(x) for every element (floats only).";
    "tf.math.erfinv" => Erfinv, "The inverse of erf for every element (floats only; ±inf at ±1, nan outside).";
    "tf.math.ndtri" => Ndtri, "The inverse of the standard normal CDF for every element (floats only).";
    "tf.math.lgamma" => Lgamma, "The log of |Gamma(x)| for every element (floats only).";
    "tf.math.digamma" => Digamma, "The derivative of lgamma for every element (floats only).";
    "tf.math.softplus" => Softplus, "log(exp(x) + 1) for every element (floats only); also tf.nn.softplus.";
    "tf.math.softsign" => Softsign, "x / (abs(x) + 1) for every element (floats only); also tf.nn.softsign.";
    "tf.math.log_sigmoid" => LogSigmoid, "log(sigmoid(x)) for every element, computed stably (floats only).";
    "tf.math.rint" => Rint ["[[1.5, 2.5], [], [-0.5]]"], "Every element rounded to the nearest integer, ties to even (floats only).";
    "tf.math.reciprocal_no_nan" => ReciprocalNoNan ["[[2.0, 0.0], [], [4.0]]"], "1 / x for every element, 0 where x is 0 (floats only).";
    "tf.math.is_inf" => IsInf ["[[1.0, float('inf')], [], [float('nan')]]"], "True where an element is +inf or -inf (floats only).";
    "tf.math.is_finite" => IsFinite ["[[1.0, float('inf')], [], [float('nan')]]"], "True where an element is neither inf nor nan (floats only).";
};

/// Binary functions with broadcasting.
pub static BINARY: &[Builtin] = binary_table! {
    example "tf.ragged.constant([[2.0, 0.0], [3.0]]), tf.ragged.constant([[4.0, 5.0], [0.0]])";
    "tf.math.atan2" => Atan2, "The arc tangent of the first argument over the second, in the right quadrant (TensorFlow names them y and x), elementwise (floats only).";
    "tf.math.squared_difference" => SquaredDifference, "(x - y) ** 2, elementwise.";
    "tf.math.xdivy" => Xdivy, "x / y, elementwise, but 0 where x is 0 (floats only).";
    "tf.math.xlogy" => Xlogy, "x * log(y), elementwise, but 0 where x is 0 (floats only).";
    "tf.math.xlog1py" => Xlog1py, "x * log1p(y), elementwise, but 0 where x is 0 (floats only).";
    "tf.math.divide_no_nan" => DivNoNan, "x / y, elementwise, but 0 where y is 0; integers divide as float64.";
    "tf.math.multiply_no_nan" => MulNoNan, "x * y, elementwise, but 0 where y is 0 even if x is inf or nan (floats only).";
    "tf.math.mod" => Mod, "x % y, elementwise, with the sign of y (the same as tf.math.floormod).";
    "tf.realdiv" => Div, "x / y, elementwise (true division).";
    "tf.truncatediv" => TruncateDiv, "x / y, elementwise, rounded toward zero (C semantics); integer division by zero is an error.";
    "tf.truncatemod" => TruncateMod, "The remainder of truncatediv: x - y * truncatediv(x, y), with the sign of x.";
};

/// Functions of real numbers seen as complex ones, identity, clipping and checks.
pub static MISC: &[Builtin] = &[
    Builtin::function("tf.math.real", "(input)", |_, a| real_part(a, false))
        .doc("The real part: for ragtag's real-valued tensors, the input unchanged.")
        .examples(&["tf.math.real(tf.ragged.constant([[-2.0, 3.0], [-3.0]]))"]),
    Builtin::function("tf.math.imag", "(input)", |_, a| real_part(a, true))
        .doc("The imaginary part: for ragtag's real-valued tensors, zeros of the same dtype and shape.")
        .examples(&["tf.math.imag(tf.ragged.constant([[-2.0, 3.0], [-3.0]]))"]),
    Builtin::function("tf.math.conj", "(x)", conj)
        .doc("The complex conjugate: for ragtag's real-valued (numeric) tensors, the input unchanged.")
        .examples(&["tf.math.conj(tf.ragged.constant([[-2.0, 3.0], [-3.0]]))"]),
    Builtin::function("tf.math.angle", "(input)", angle)
        .doc("The argument of each element as a complex number: pi for negative reals, 0 otherwise (floats only).")
        .examples(&["tf.math.angle(tf.ragged.constant([[-2.0, 3.0], [-3.0]]))"]),
    Builtin::function("tf.identity", "(input)", |_, a| Ok(a.value("input").clone()))
        .doc("The input itself (dense, ragged or sparse).")
        .examples(&["tf.identity(tf.ragged.constant([[1, 2], [3]]))"]),
    Builtin::function("tf.clip_by_value", "(t, clip_value_min, clip_value_max)", clip_by_value)
        .doc("Every element limited to [clip_value_min, clip_value_max]: maximum(minimum(t, max), min), so a min above the max wins.")
        .examples(&["tf.clip_by_value(tf.ragged.constant([[-2.0, 3.0], [-3.0]]), 0.1, 4.0)"]),
    Builtin::function("tf.dtypes.saturate_cast", "(value, dtype)", saturate_cast)
        .doc("The values converted to `dtype`, clamped to its range first (no wrap-around).")
        .aliases(&["tf.saturate_cast"])
        .examples(&["tf.dtypes.saturate_cast(tf.constant([3e10, -2.5]), tf.int32)"]),
    Builtin::function("tf.debugging.check_numerics", "(tensor, message)", check_numerics)
        .doc("The tensor itself, or an InvalidArgumentError with `message` when a float element is nan or infinite (floats only).")
        .examples(&["tf.debugging.check_numerics(tf.ragged.constant([[1.0], [2.0]]), 'bad values')"]),
];

fn real_part(a: &Args, imag: bool) -> Result<Value> {
    let x = a.array("input", None)?;
    if !x.dtype().is_numeric() {
        return Err(Error::new(
            ExceptionClass::TypeError,
            format!(
                "{} needs a numeric tensor, not {}",
                a.builtin().name,
                x.dtype()
            ),
        )
        .at(a.span("input")));
    }
    if !imag {
        return Ok(Value::Array(x));
    }
    map_flat(&x, |t| {
        let zero = ragtag_engine::ops::cast::cast_scalar(&Scalar::I64(0), t.dtype())?;
        Tensor::filled("tf.math.imag", t.shape().to_vec(), &zero)
    })
    .map(Value::from_array)
    .map_err(|e| a.err_at("input", e))
}

fn conj(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let x = a.array("x", None)?;
    if !x.dtype().is_numeric() {
        return Err(Error::new(
            ExceptionClass::TypeError,
            format!("tf.math.conj needs a numeric tensor, not {}", x.dtype()),
        )
        .at(a.span("x")));
    }
    Ok(Value::Array(x))
}

fn angle(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let x = a.array("input", None)?;
    map_flat(&x, |t| {
        let data =
            match t.data() {
                Buffer::F32(v) => Buffer::F32(
                    ragtag_engine::interrupt::map(v, |x| {
                        if x < 0.0 {
                            std::f32::consts::PI
                        } else {
                            0.0
                        }
                    })
                    .into(),
                ),
                Buffer::F64(v) => Buffer::F64(
                    ragtag_engine::interrupt::map(v, |x| {
                        if x < 0.0 {
                            std::f64::consts::PI
                        } else {
                            0.0
                        }
                    })
                    .into(),
                ),
                other => {
                    return Err(ragtag_engine::type_error!(
                        "tf.math.angle of real numbers needs floats, not {}",
                        other.dtype()
                    ))
                }
            };
        ragtag_engine::interrupt::check()?;
        Tensor::new(t.shape().to_vec(), data)
    })
    .map(Value::from_array)
    .map_err(|e| a.err_at("input", e))
}

fn clip_by_value(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let t = a.array("t", None)?;
    let lo = a.array("clip_value_min", Some(t.dtype()))?;
    let hi = a.array("clip_value_max", Some(t.dtype()))?;
    let upper =
        broadcast::binary(BinaryOp::Minimum, &t, &hi).map_err(|e| a.err_at("clip_value_max", e))?;
    broadcast::binary(BinaryOp::Maximum, &upper, &lo)
        .map(Value::from_array)
        .map_err(|e| a.err_at("clip_value_min", e))
}

fn saturate_cast(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let x = a.array("value", None)?;
    let Some(dtype) = a.dtype("dtype")? else {
        return Err(
            Error::new(ExceptionClass::TypeError, "saturate_cast needs a dtype").at(a.call),
        );
    };
    let clamped = map_flat(&x, |t| {
        let data = saturated(t.data(), dtype)?;
        ragtag_engine::interrupt::check()?;
        Tensor::new(t.shape().to_vec(), data)
    })
    .map_err(|e| a.err_at("value", e))?;
    super::cast_array(&clamped, dtype)
        .map(Value::from_array)
        .map_err(|e| a.err_at("dtype", e))
}

/// `x` clamped to the values of `dtype` that it can hold, as `tf.dtypes.saturate_cast`
/// clamps before it casts (the cast is then exact or a plain rounding): ints with ints in
/// int64, everything else in float64, against the largest float that truncates into range.
fn saturated(x: &Buffer, dtype: DType) -> Result<Buffer, ragtag_engine::Exception> {
    use ragtag_engine::ops::cast::cast_buffer;
    let src = x.dtype();
    if !src.is_numeric() || !dtype.is_numeric() {
        return cast_buffer(x, dtype);
    }
    if src.is_int() && dtype.is_int() {
        let (lo, hi) = ragtag_engine::dispatch!(ints dtype dtype, T => {
            let hi = if dtype == DType::UInt64 { i64::MAX } else { T::HIGHEST.to_i64() };
            (T::LOWEST.to_i64(), hi)
        }, _ => unreachable!("an int dtype"));
        let Buffer::I64(v) = cast_buffer(x, DType::Int64)? else {
            unreachable!("cast to int64")
        };
        let v = ragtag_engine::interrupt::map(&v, |x| x.clamp(lo, hi));
        return cast_buffer(&Buffer::from(v), dtype);
    }
    let (lo, hi) = ragtag_engine::dispatch!(numbers dtype dtype, T => {
        let (lo, hi) = (T::LOWEST.to_f64(), T::HIGHEST.to_f64());
        // int64's and uint64's largest values round up as floats, past the range.
        let hi = if T::from_f64(hi) == T::HIGHEST { hi } else { hi.next_down() };
        (lo, hi)
    }, _ => unreachable!("a numeric dtype"));
    let Buffer::F64(v) = cast_buffer(x, DType::Float64)? else {
        unreachable!("cast to float64")
    };
    let v = ragtag_engine::interrupt::map(&v, |x| x.clamp(lo, hi));
    cast_buffer(&Buffer::from(v), dtype)
}

fn check_numerics(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let x = a.array("tensor", None)?;
    let message = a.opt_str("message")?.unwrap_or_default();
    let bad = match x.flat_values().data() {
        Buffer::F32(v) => v.iter().find(|x| !x.is_finite()).map(|&x| f64::from(x)),
        Buffer::F64(v) => v.iter().find(|x| !x.is_finite()).copied(),
        other => {
            return Err(Error::new(
                ExceptionClass::InvalidArgumentError,
                format!("check_numerics needs a float tensor, not {}", other.dtype()),
            )
            .at(a.span("tensor")))
        }
    };
    match bad {
        Some(v) => Err(Error::new(
            ExceptionClass::InvalidArgumentError,
            format!(
                "{message} : Tensor had {} values",
                if v.is_nan() { "NaN" } else { "Inf" }
            ),
        )
        .at(a.span("tensor"))),
        None => Ok(Value::Array(x)),
    }
}

/// Reductions TensorFlow defines for dense tensors only.
pub static REDUCTIONS: &[Builtin] = &[
    Builtin::function("tf.math.reduce_euclidean_norm", "(input_tensor, axis=None, keepdims=False)", euclidean_norm)
        .doc("sqrt(sum(x ** 2)) over `axis` (all axes when None) of a dense tensor; integer inputs give the integer part.")
        .examples(&["tf.math.reduce_euclidean_norm(tf.constant([[3.0, 4.0], [6.0, 8.0]]), axis=1)"]),
    Builtin::function("tf.math.reduce_logsumexp", "(input_tensor, axis=None, keepdims=False)", logsumexp)
        .doc("log(sum(exp(x))) over `axis` of a dense float tensor, computed stably by subtracting the maximum first.")
        .examples(&["tf.math.reduce_logsumexp(tf.constant([[0.0, 0.0], [1.0, 2.0]]), axis=1)"]),
];

/// Softmax along an axis of a dense or ragged tensor.
pub static SOFTMAX: &[Builtin] = &[
    Builtin::function("tf.nn.softmax", "(logits, axis=None)", |_, a| softmax(a, false))
        .doc("exp(x) / sum(exp(x)) along `axis` (the last one by default) of a float tensor; for a ragged tensor each innermost row is normalised on its own. Computed stably by subtracting each row's maximum.")
        .aliases(&["tf.math.softmax"])
        .examples(&["tf.nn.softmax(tf.ragged.constant([[1.0, 2.0, 3.0], [], [5.0, 5.0]]))"]),
    Builtin::function("tf.nn.log_softmax", "(logits, axis=None)", |_, a| softmax(a, true))
        .doc("log(softmax(x)) along `axis` (the last one by default) of a dense float tensor, computed stably: x - max - log(sum(exp(x - max))).")
        .aliases(&["tf.math.log_softmax"])
        .examples(&["tf.nn.log_softmax(tf.constant([[1.0, 2.0], [3.0, 3.0]]))"]),
];

fn softmax(a: &Args, log: bool) -> Result<Value> {
    let x = a.array("logits", None)?;
    if !x.dtype().is_float() {
        return Err(Error::new(
            ExceptionClass::InvalidArgumentError,
            format!(
                "{} needs a float tensor, not {}",
                a.builtin().name,
                x.dtype()
            ),
        )
        .at(a.span("logits")));
    }
    if log && matches!(&*x, Array::Ragged(_)) {
        return Err(Error::new(
            ExceptionClass::ValueError,
            "tf.nn.log_softmax takes a dense tensor, not a RaggedTensor",
        )
        .at(a.span("logits"))
        .with_hint("tf.math.log(tf.nn.softmax(rt)) works on ragged tensors"));
    }
    let axis = a.opt_int("axis")?.unwrap_or(-1);
    let at = |e| a.err_at("logits", e);
    let ax = [axis];
    let unary = |op: UnaryOp, v: &Array| {
        map_flat(v, |t| {
            Ok(Tensor::from_parts(
                t.shape().to_vec(),
                kernels::unary(op, t.data())?,
            ))
        })
    };
    let max = reduce::reduce(&x, Some(&ax), ReduceOp::Max, true).map_err(at)?;
    let shifted = broadcast::binary(BinaryOp::Sub, &x, &max).map_err(at)?;
    let exp = unary(UnaryOp::Exp, &shifted).map_err(at)?;
    let sum = reduce::reduce(&exp, Some(&ax), ReduceOp::Sum, true).map_err(at)?;
    let out = if log {
        let log_sum = unary(UnaryOp::Log, &sum).map_err(at)?;
        broadcast::binary(BinaryOp::Sub, &shifted, &log_sum)
    } else {
        broadcast::binary(BinaryOp::Div, &exp, &sum)
    };
    out.map(Value::from_array).map_err(at)
}

/// The dense input, axes and keepdims of a dense-only reduction.
fn dense_reduction_args(a: &Args) -> Result<(Arc<Array>, Option<Vec<i64>>, bool)> {
    let x = a.array("input_tensor", None)?;
    if matches!(&*x, Array::Ragged(_)) {
        return Err(Error::new(
            ExceptionClass::ValueError,
            format!(
                "{} takes a dense tensor, not a RaggedTensor",
                a.builtin().name
            ),
        )
        .at(a.span("input_tensor"))
        .with_hint("reduce the flat values (rt.flat_values), or pad first with rt.to_tensor()"));
    }
    let (axes, keepdims) = reduction_axes(a)?;
    Ok((x, axes, keepdims))
}

fn euclidean_norm(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let (x, axes, keepdims) = dense_reduction_args(a)?;
    if !x.dtype().is_numeric() {
        return Err(Error::new(
            ExceptionClass::InvalidArgumentError,
            format!(
                "reduce_euclidean_norm is not defined for {} tensors",
                x.dtype()
            ),
        )
        .at(a.span("input_tensor")));
    }
    let at = |e| a.err_at("axis", e);
    let sq = map_flat(&x, |t| {
        Ok(Tensor::from_parts(
            t.shape().to_vec(),
            kernels::unary(UnaryOp::Square, t.data())?,
        ))
    })
    .map_err(at)?;
    let sum = reduce::reduce(&sq, axes.as_deref(), ReduceOp::Sum, keepdims).map_err(at)?;
    map_flat(&sum, |t| {
        let data = match t.data() {
            Buffer::I32(v) => {
                Buffer::I32(ragtag_engine::interrupt::map(v, |x| f64::from(x).sqrt() as i32).into())
            }
            Buffer::I64(v) => {
                Buffer::I64(ragtag_engine::interrupt::map(v, |x| (x as f64).sqrt() as i64).into())
            }
            other => kernels::unary(UnaryOp::Sqrt, other)?,
        };
        ragtag_engine::interrupt::check()?;
        Tensor::new(t.shape().to_vec(), data)
    })
    .map(Value::from_array)
    .map_err(at)
}

fn logsumexp(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let (x, axes, keepdims) = dense_reduction_args(a)?;
    if !x.dtype().is_float() {
        return Err(Error::new(
            ExceptionClass::InvalidArgumentError,
            format!("reduce_logsumexp needs a float tensor, not {}", x.dtype()),
        )
        .at(a.span("input_tensor")));
    }
    let at = |e| a.err_at("axis", e);
    // The maximum (0 where it is not finite) is taken out before exp and added back.
    let finite_max = |kd: bool| -> std::result::Result<Array, ragtag_engine::Exception> {
        let m = reduce::reduce(&x, axes.as_deref(), ReduceOp::Max, kd)?;
        map_flat(&m, |t| {
            let data = match t.data() {
                Buffer::F32(v) => Buffer::F32(
                    ragtag_engine::interrupt::map(v, |x| if x.is_finite() { x } else { 0.0 })
                        .into(),
                ),
                Buffer::F64(v) => Buffer::F64(
                    ragtag_engine::interrupt::map(v, |x| if x.is_finite() { x } else { 0.0 })
                        .into(),
                ),
                other => other.clone(),
            };
            Tensor::new(t.shape().to_vec(), data)
        })
    };
    let max_kd = finite_max(true).map_err(at)?;
    let shifted = broadcast::binary(BinaryOp::Sub, &x, &max_kd).map_err(at)?;
    let exp = map_flat(&shifted, |t| {
        Ok(Tensor::from_parts(
            t.shape().to_vec(),
            kernels::unary(UnaryOp::Exp, t.data())?,
        ))
    })
    .map_err(at)?;
    let sum = reduce::reduce(&exp, axes.as_deref(), ReduceOp::Sum, keepdims).map_err(at)?;
    let log = map_flat(&sum, |t| {
        Ok(Tensor::from_parts(
            t.shape().to_vec(),
            kernels::unary(UnaryOp::Log, t.data())?,
        ))
    })
    .map_err(at)?;
    let max = if keepdims {
        max_kd
    } else {
        finite_max(false).map_err(at)?
    };
    broadcast::binary(BinaryOp::Add, &log, &max)
        .map(Value::from_array)
        .map_err(at)
}

/// `tf.add_n`.
pub static LISTS: &[Builtin] = &[Builtin::function("tf.math.add_n", "(inputs)", add_n)
    .doc("The elementwise sum of a list of tensors of one dtype and one shape (ragged ones with the same row partitions); no broadcasting.")
    .aliases(&["tf.add_n"])
    .examples(&["tf.add_n([tf.ragged.constant([[1, 2], [3]]), tf.ragged.constant([[10, 20], [30]])])"])];

fn add_n(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    // Each tensor keeps its own dtype (a list of tensors is not packed into one here).
    let items = match a.value("inputs") {
        v @ (Value::List(_) | Value::Tuple(_)) => as_items(v)
            .and_then(|vs| {
                vs.iter()
                    .map(|v| convert::to_array(v, None).map(|x| (*x).clone()))
                    .collect::<std::result::Result<Vec<Array>, _>>()
            })
            .map_err(|e| a.err_at("inputs", e))?,
        _ => super::array::tensor_list(a, "inputs")?,
    };
    let Some(first) = items.first() else {
        return Err(Error::new(
            ExceptionClass::ValueError,
            "tf.add_n needs at least one tensor, but the list is empty",
        )
        .at(a.span("inputs")));
    };
    for (i, t) in items.iter().enumerate().skip(1) {
        if t.dtype() != first.dtype() {
            return Err(Error::new(
                ExceptionClass::InvalidArgumentError,
                format!(
                    "tf.add_n needs tensors of one dtype, but inputs[0] is {} and inputs[{i}] is {}",
                    first.dtype(),
                    t.dtype()
                ),
            )
            .at(a.span("inputs")));
        }
        let same = match (first, t) {
            (Array::Dense(x), Array::Dense(y)) => x.shape() == y.shape(),
            (Array::Ragged(x), Array::Ragged(y)) => {
                x.ragged_rank() == y.ragged_rank()
                    && x.partitions()
                        .iter()
                        .zip(y.partitions())
                        .all(|(p, q)| p.row_splits() == q.row_splits())
                    && x.flat_values().shape() == y.flat_values().shape()
            }
            _ => false,
        };
        if !same {
            return Err(Error::new(
                ExceptionClass::ValueError,
                format!(
                    "tf.add_n needs tensors of one shape, but inputs[0] has shape {} and inputs[{i}] has shape {}",
                    ragtag_engine::ops::shape_str(&first.shape()),
                    ragtag_engine::ops::shape_str(&t.shape())
                ),
            )
            .at(a.span("inputs")));
        }
    }
    let mut acc = first.clone();
    for t in &items[1..] {
        acc = broadcast::binary(BinaryOp::Add, &acc, t).map_err(|e| a.err_at("inputs", e))?;
    }
    Ok(Value::from_array(acc))
}

use crate::eval::args::Args;
