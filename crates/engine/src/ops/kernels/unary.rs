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
    crate::dispatch!(signed b, T: v => Ok(Buffer::from(interrupt::map(v, |x: T| match op {
        UnaryOp::Neg => x.wrapping_neg(),
        UnaryOp::Abs => x.wrapping_abs(),
        UnaryOp::Square => x.wrapping_mul(x),
        UnaryOp::Sign => x.signum(),
        _ => x,
    }))), b => crate::dispatch!(unsigned b, T: v => {
        if matches!(op, UnaryOp::Neg | UnaryOp::Abs) {
            // TensorFlow registers Neg and Abs for the signed types only.
            return Err(invalid_arg!(
                "{} is not defined for {} tensors: the type is unsigned",
                op.tf_name(),
                d
            )
            .with_hint("cast to a signed type first: tf.cast(x, tf.int32)"));
        }
        Ok(Buffer::from(interrupt::map(v, |x: T| match op {
        UnaryOp::Square => x.wrapping_mul(x),
        UnaryOp::Sign => T::from(x != 0),
        _ => x,
    })))}, b => crate::dispatch!(floats b, T: v => {
        Ok(Buffer::from(interrupt::map(v, |x| T::from_f64(float_unary(op, x.to_f64())))))
    }, _ => Err(invalid_arg!("{} is not defined for {} tensors", op.tf_name(), d)))))
}

/// One float element through `op`, computed in float64. Float32 elements come here too and
/// are rounded once at the end: that is the float32 nearest the true value, which matches
/// TensorFlow's float32 kernels (Eigen's own float32 erf, lgammaf, …) as often as libm's
/// float32 functions do, or more often (its recorded erfc(3) is the rounded float64 one).
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
        UnaryOp::Erf => libm::erf(x),
        UnaryOp::Erfc => libm::erfc(x),
        UnaryOp::Erfinv => special::erfinv(x),
        UnaryOp::Ndtri => std::f64::consts::SQRT_2 * special::erfinv(2.0 * x - 1.0),
        UnaryOp::Lgamma => libm::lgamma(x),
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Float64 tensors get float64 answers (the functions' own accuracy is tested in
    /// ops/special.rs); float32 tensors get the float32 nearest them.
    #[test]
    fn special_functions_keep_the_tensors_precision() {
        let f64s = |op| match unary(op, &Buffer::F64(vec![0.5].into())).unwrap() {
            Buffer::F64(v) => v[0],
            other => panic!("{:?}", other.dtype()),
        };
        // Python's math.erf, math.erfc and math.lgamma, and mpmath's digamma, at 0.5.
        assert_eq!(f64s(UnaryOp::Erf), 0.520_499_877_813_046_5);
        assert_eq!(f64s(UnaryOp::Erfc), 0.479_500_122_186_953_5);
        assert_eq!(f64s(UnaryOp::Lgamma), 0.572_364_942_924_700_1);
        assert_eq!(f64s(UnaryOp::Digamma), -1.963_510_026_021_423_5);
        // TensorFlow's float32 answers at 0.5 (tests/tf/math.jsonl).
        match unary(UnaryOp::Erf, &Buffer::F32(vec![0.5].into())).unwrap() {
            Buffer::F32(v) => assert_eq!(v[0], 0.520_499_9),
            other => panic!("{:?}", other.dtype()),
        }
    }
}
