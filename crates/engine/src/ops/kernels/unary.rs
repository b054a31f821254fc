//! Unary elementwise kernels: negation, logical and bitwise not, and the float functions
//! (computed in float64, stored back in the input's width).

use super::{dtype_mismatch, UnaryOp};
use crate::buffer::Buffer;
use crate::element::Element;
use crate::error::Result;
use crate::interrupt;
use crate::invalid_arg;
use crate::ops::special;

/// Applies a unary op to every element. An interrupt stops it part-way.
pub fn unary(op: UnaryOp, b: &Buffer) -> Result<Buffer> {
    let out = unary_unchecked(op, b)?;
    interrupt::check()?;
    Ok(out)
}

fn unary_unchecked(op: UnaryOp, b: &Buffer) -> Result<Buffer> {
    let d = b.dtype();
    if op == UnaryOp::LogicalNot {
        return match bool::of(b) {
            Some(v) => Ok(Buffer::from(interrupt::map(v, |x| !x))),
            None => Err(dtype_mismatch("~ (logical not)", "bool", d).with_hint(
                "in TensorFlow `~` is logical_not and only takes bool tensors; compare first, e.g. ~(x > 2)",
            )),
        };
    }
    if op == UnaryOp::Invert {
        return crate::dispatch!(ints b, v => Ok(Buffer::from(interrupt::map(v, |x| !x))),
            _ => Err(dtype_mismatch("tf.bitwise.invert", "integer", d)));
    }
    if op.float_only() && !d.is_float() {
        return Err(dtype_mismatch(
            &format!("tf.math.{}", op.tf_name().to_lowercase()),
            "float",
            d,
        )
        .with_hint("cast first: tf.cast(x, tf.float32)"));
    }
    if matches!(op, UnaryOp::IsNan | UnaryOp::IsInf | UnaryOp::IsFinite) {
        let test = |x: f64| match op {
            UnaryOp::IsNan => x.is_nan(),
            UnaryOp::IsInf => x.is_infinite(),
            _ => x.is_finite(),
        };
        return crate::dispatch!(floats b, v => Ok(Buffer::from(interrupt::map(v, |x| {
            test(x.to_f64())
        }))), _ => unreachable!("float checked"));
    }
    crate::dispatch!(ints b, T: v => Ok(Buffer::from(interrupt::map(v, |x: T| match op {
        UnaryOp::Neg => x.wrapping_neg(),
        UnaryOp::Abs => x.wrapping_abs(),
        UnaryOp::Square => x.wrapping_mul(x),
        UnaryOp::Sign => x.signum(),
        _ => x,
    }))), b => crate::dispatch!(floats b, T: v => {
        Ok(Buffer::from(interrupt::map(v, |x| T::from_f64(float_unary(op, x.to_f64())))))
    }, _ => Err(invalid_arg!("{} is not defined for {} tensors", op.tf_name(), d))))
}

/// One float element through `op`, computed in float64.
fn float_unary(op: UnaryOp, x: f64) -> f64 {
    match op {
        UnaryOp::Neg => -x,
        UnaryOp::Abs => x.abs(),
        UnaryOp::Square => x * x,
        UnaryOp::Sqrt => x.sqrt(),
        UnaryOp::Exp => x.exp(),
        UnaryOp::Log => x.ln(),
        UnaryOp::Sign => {
            if x > 0.0 {
                1.0
            } else if x < 0.0 {
                -1.0
            } else {
                x
            }
        }
        UnaryOp::Floor => x.floor(),
        UnaryOp::Ceil => x.ceil(),
        UnaryOp::Round | UnaryOp::Rint => x.round_ties_even(),
        UnaryOp::Sin => x.sin(),
        UnaryOp::Cos => x.cos(),
        UnaryOp::Tanh => x.tanh(),
        UnaryOp::Sigmoid => 1.0 / (1.0 + (-x).exp()),
        UnaryOp::Reciprocal => 1.0 / x,
        UnaryOp::ReciprocalNoNan => {
            if x == 0.0 {
                0.0
            } else {
                1.0 / x
            }
        }
        UnaryOp::Acos => x.acos(),
        UnaryOp::Acosh => x.acosh(),
        UnaryOp::Asin => x.asin(),
        UnaryOp::Asinh => x.asinh(),
        UnaryOp::Atan => x.atan(),
        UnaryOp::Atanh => x.atanh(),
        UnaryOp::Cosh => x.cosh(),
        UnaryOp::Sinh => x.sinh(),
        UnaryOp::Tan => x.tan(),
        UnaryOp::Log1p => x.ln_1p(),
        UnaryOp::Expm1 => x.exp_m1(),
        UnaryOp::Rsqrt => 1.0 / x.sqrt(),
        UnaryOp::Erf => special::erf(x),
        UnaryOp::Erfc => special::erfc(x),
        UnaryOp::Erfinv => special::erfinv(x),
        UnaryOp::Ndtri => std::f64::consts::SQRT_2 * special::erfinv(2.0 * x - 1.0),
        UnaryOp::Lgamma => special::lgamma(x),
        UnaryOp::Digamma => special::digamma(x),
        UnaryOp::Softplus => {
            if x > 0.0 {
                x + (-x).exp().ln_1p()
            } else {
                x.exp().ln_1p()
            }
        }
        UnaryOp::Softsign => x / (1.0 + x.abs()),
        UnaryOp::LogSigmoid => {
            // -softplus(-x), stable on both sides.
            if x < 0.0 {
                x - x.exp().ln_1p()
            } else {
                -(-x).exp().ln_1p()
            }
        }
        UnaryOp::LogicalNot
        | UnaryOp::IsNan
        | UnaryOp::IsInf
        | UnaryOp::IsFinite
        | UnaryOp::Invert => x,
    }
}
