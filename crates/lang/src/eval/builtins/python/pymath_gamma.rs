//! `math.gamma` and `math.lgamma` as CPython 3.11 computes them (its own Lanczos
//! approximation, N=13 and g≈6.0247, with the reflection formula for negative x, so the
//! last bits agree with CPython on the same C library), and `math.cbrt` as glibc's (which
//! CPython calls on Linux: a polynomial guess, one Halley step and the exponent split by 3).

use super::Builtin;
use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::convert;
use crate::value::Value;
use ragtag_engine::ExceptionClass;

/// `math.gamma`, `math.lgamma` and `math.cbrt`.
pub static MATH_GAMMA: &[Builtin] = &[
    Builtin::function("math.gamma", "(x, /)", |_, a| checked(a, tgamma))
        .doc(
            "The Gamma function at x (Gamma(n) == (n-1)! for a positive int n). \
             ValueError at 0, the negative ints and -inf; OverflowError past 171.6.",
        )
        .examples(&["math.gamma(5), math.gamma(0.5) ** 2"]),
    Builtin::function("math.lgamma", "(x, /)", |_, a| checked(a, lgamma))
        .doc(
            "The natural logarithm of the absolute value of the Gamma function at x. \
             ValueError at 0 and the negative ints.",
        )
        .examples(&["math.lgamma(100), math.lgamma(-2.5)"]),
    Builtin::function("math.cbrt", "(x, /)", |_, a| {
        let x = convert::to_f64(a.value("x")).map_err(|e| a.err_at("x", e))?;
        Ok(Value::Float(cbrt(x)))
    })
    .doc("The real cube root of x (negative for a negative x), as glibc's cbrt rounds it.")
    .examples(&["math.cbrt(27), math.cbrt(-8)"]),
];

/// What C's errno says after one of CPython's functions.
enum Errno {
    Ok,
    Domain,
    Range,
}

/// CPython's `math_1a`: a domain error is a ValueError, a range error an OverflowError
/// unless the result is small (an underflow).
fn checked(a: &Args, f: fn(f64) -> (f64, Errno)) -> Result<Value> {
    let x = convert::to_f64(a.value("x")).map_err(|e| a.err_at("x", e))?;
    let (r, errno) = f(x);
    match errno {
        Errno::Domain => {
            Err(Error::new(ExceptionClass::ValueError, "math domain error").at(a.span("x")))
        }
        Errno::Range if r.abs() >= 1.5 => {
            Err(Error::new(ExceptionClass::OverflowError, "math range error").at(a.span("x")))
        }
        _ => Ok(Value::Float(r)),
    }
}

const PI: f64 = std::f64::consts::PI;
const LOGPI: f64 = 1.144_729_885_849_400_2;

/// sin(pi*x), exact at the integers and half-integers.
fn sinpi(x: f64) -> f64 {
    let y = x.abs() % 2.0;
    let r = match (2.0 * y).round() as i32 {
        0 => (PI * y).sin(),
        1 => (PI * (y - 0.5)).cos(),
        2 => (PI * (1.0 - y)).sin(),
        3 => -(PI * (y - 1.5)).cos(),
        _ => (PI * (y - 2.0)).sin(),
    };
    1.0f64.copysign(x) * r
}

// Both are exact binary fractions, written in full as CPython writes them.
#[allow(clippy::excessive_precision)]
const LANCZOS_G: f64 = 6.024_680_040_776_729_583_740_234_375;
#[allow(clippy::excessive_precision)]
const LANCZOS_G_MINUS_HALF: f64 = 5.524_680_040_776_729_583_740_234_375;
#[allow(clippy::excessive_precision)]
const LANCZOS_NUM: [f64; 13] = [
    23531376880.410759688572007674451636754734846804940,
    42919803642.649098768957899047001988850926355848959,
    35711959237.355668049440185451547166705960488635843,
    17921034426.037209699919755754458931112671403265390,
    6039542586.3520280050642916443072979210699388420708,
    1439720407.3117216736632230727949123939715485786772,
    248874557.86205415651146038641322942321632125127801,
    31426415.585400194380614231628318205362874684987640,
    2876370.6289353724412254090516208496135991145378768,
    186056.26539522349504029498971604569928220784236328,
    8071.6720023658162106380029022722506138218516325024,
    210.82427775157934587250973392071336271166969580291,
    2.5066282746310002701649081771338373386264310793408,
];
/// The denominator x*(x+1)*…*(x+11) as a polynomial.
const LANCZOS_DEN: [f64; 13] = [
    0.0,
    39916800.0,
    120543840.0,
    150917976.0,
    105258076.0,
    45995730.0,
    13339535.0,
    2637558.0,
    357423.0,
    32670.0,
    1925.0,
    66.0,
    1.0,
];

/// Lanczos' sum for a positive x, as a rational function (in 1/x from 5 on, which
/// neither overflows nor loses accuracy).
fn lanczos_sum(x: f64) -> f64 {
    let (mut num, mut den) = (0.0, 0.0);
    if x < 5.0 {
        for i in (0..13).rev() {
            num = num * x + LANCZOS_NUM[i];
            den = den * x + LANCZOS_DEN[i];
        }
    } else {
        for i in 0..13 {
            num = num / x + LANCZOS_NUM[i];
            den = den / x + LANCZOS_DEN[i];
        }
    }
    num / den
}

fn tgamma(x: f64) -> (f64, Errno) {
    if !x.is_finite() {
        if x.is_nan() || x > 0.0 {
            return (x, Errno::Ok);
        }
        return (f64::NAN, Errno::Domain);
    }
    if x == 0.0 {
        return (1.0 / x, Errno::Domain);
    }
    if x == x.floor() {
        if x < 0.0 {
            return (f64::NAN, Errno::Domain);
        }
        if x <= 23.0 {
            // (n-1)! exactly, as CPython's table holds it.
            let f: f64 = (1..x as i64).map(|k| k as f64).product();
            return (f, Errno::Ok);
        }
    }
    let absx = x.abs();
    if absx < 1e-20 {
        let r = 1.0 / x;
        return (
            r,
            if r.is_infinite() {
                Errno::Range
            } else {
                Errno::Ok
            },
        );
    }
    if absx > 200.0 {
        if x < 0.0 {
            return (0.0 / sinpi(x), Errno::Ok);
        }
        return (f64::INFINITY, Errno::Range);
    }
    let y = absx + LANCZOS_G_MINUS_HALF;
    // The rounding error in y, which the pow and exp below would magnify.
    let z = if absx > LANCZOS_G_MINUS_HALF {
        (y - absx) - LANCZOS_G_MINUS_HALF
    } else {
        (y - LANCZOS_G_MINUS_HALF) - absx
    };
    let z = z * LANCZOS_G / y;
    let mut r;
    if x < 0.0 {
        r = -PI / sinpi(absx) / absx * y.exp() / lanczos_sum(absx);
        r -= z * r;
        if absx < 140.0 {
            r /= y.powf(absx - 0.5);
        } else {
            let sqrtpow = y.powf(absx / 2.0 - 0.25);
            r /= sqrtpow;
            r /= sqrtpow;
        }
    } else {
        r = lanczos_sum(absx) / y.exp();
        r += z * r;
        if absx < 140.0 {
            r *= y.powf(absx - 0.5);
        } else {
            let sqrtpow = y.powf(absx / 2.0 - 0.25);
            r *= sqrtpow;
            r *= sqrtpow;
        }
    }
    (
        r,
        if r.is_infinite() {
            Errno::Range
        } else {
            Errno::Ok
        },
    )
}

fn lgamma(x: f64) -> (f64, Errno) {
    if !x.is_finite() {
        return (if x.is_nan() { x } else { f64::INFINITY }, Errno::Ok);
    }
    if x == x.floor() && x <= 2.0 {
        if x <= 0.0 {
            return (f64::INFINITY, Errno::Domain);
        }
        return (0.0, Errno::Ok);
    }
    let absx = x.abs();
    if absx < 1e-20 {
        return (-absx.ln(), Errno::Ok);
    }
    let mut r = lanczos_sum(absx).ln() - LANCZOS_G;
    r += (absx - 0.5) * ((absx + LANCZOS_G - 0.5).ln() - 1.0);
    if x < 0.0 {
        r = LOGPI - sinpi(absx).abs().ln() - absx.ln() - r;
    }
    (
        r,
        if r.is_infinite() {
            Errno::Range
        } else {
            Errno::Ok
        },
    )
}

/// glibc's cbrt: not always correctly rounded (`cbrt(27.0)` is `3.0000000000000004`), so
/// Rust's own would differ from CPython's in the last bit.
#[allow(clippy::excessive_precision)]
fn cbrt(x: f64) -> f64 {
    const CBRT2: f64 = 1.259_921_049_894_873_164_8;
    const SQR_CBRT2: f64 = 1.587_401_051_968_199_474_8;
    const FACTOR: [f64; 5] = [1.0 / SQR_CBRT2, 1.0 / CBRT2, 1.0, CBRT2, SQR_CBRT2];
    if x == 0.0 || !x.is_finite() {
        return x + x;
    }
    let (xm, xe) = libm::frexp(x.abs());
    let u = 0.354_895_765_043_919_860
        + ((1.508_191_937_815_848_96
            + ((-2.114_994_941_673_712_87
                + ((2.446_931_225_635_344_30
                    + ((-1.834_692_774_836_130_86
                        + (0.784_932_344_976_639_262 - 0.145_263_899_385_486_377 * xm) * xm)
                        * xm))
                    * xm))
                * xm))
            * xm);
    let t2 = u * u * u;
    let ym = u * (t2 + 2.0 * xm) / (2.0 * t2 + xm) * FACTOR[(2 + xe % 3) as usize];
    libm::ldexp(if x > 0.0 { ym } else { -ym }, xe / 3)
}
