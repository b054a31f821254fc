//! `random`'s distributions beyond `gauss`, and `randbytes`, written as CPython 3.11's
//! Lib/random.py writes them so a seeded program draws the same values.

use std::f64::consts::{E, PI, TAU};

use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::builtins::Builtin;
use crate::eval::{rng, Interp};
use crate::value::Value;
use ragtag_engine::ExceptionClass;

macro_rules! dist {
    ($name:literal, $sig:literal, $f:expr, $doc:literal, $ex:literal) => {
        Builtin::function(concat!("random.", $name), $sig, $f)
            .doc($doc)
            .examples(&[concat!("import random\nrandom.seed(1)\n", $ex)])
    };
}

/// The distributions.
pub static RANDOM_DISTS: &[Builtin] = &[
    dist!("triangular", "(low=0.0, high=1.0, mode=None)", triangular,
        "A float in [low, high] from the triangular distribution peaking at `mode` (the middle by default).",
        "random.triangular(0, 10, 2)"),
    dist!("normalvariate", "(mu=0.0, sigma=1.0)", normalvariate,
        "A normal draw by Kinderman and Monahan's ratio method.",
        "random.normalvariate(0, 1)"),
    dist!("lognormvariate", "(mu, sigma)", lognormvariate,
        "`exp` of a normal draw with mean `mu` and deviation `sigma`.",
        "random.lognormvariate(0, 0.5)"),
    dist!("expovariate", "(lambd)", expovariate,
        "An exponential draw with rate `lambd` (mean `1/lambd`).",
        "random.expovariate(2)"),
    dist!("vonmisesvariate", "(mu, kappa)", vonmisesvariate,
        "An angle in [0, 2π) from the von Mises distribution around `mu` with concentration `kappa`.",
        "random.vonmisesvariate(1, 4)"),
    dist!("gammavariate", "(alpha, beta)", gammavariate,
        "A gamma draw of shape `alpha` and scale `beta` (both > 0).",
        "random.gammavariate(2, 3)"),
    dist!("betavariate", "(alpha, beta)", betavariate,
        "A beta draw in [0, 1], from two gamma draws.",
        "random.betavariate(2, 5)"),
    dist!("paretovariate", "(alpha)", paretovariate,
        "A Pareto draw of shape `alpha`.",
        "random.paretovariate(3)"),
    dist!("weibullvariate", "(alpha, beta)", weibullvariate,
        "A Weibull draw of scale `alpha` and shape `beta`.",
        "random.weibullvariate(1, 1.5)"),
    dist!("randbytes", "(n)", randbytes,
        "`n` random bytes: `getrandbits(n * 8)` in little-endian order.",
        "random.randbytes(4)"),
];

const NV_MAGICCONST: f64 = 1.7155277699214135; // 4 * exp(-0.5) / sqrt(2.0)
const SG_MAGICCONST: f64 = 2.504077396776274; // 1.0 + log(4.5)

fn uniform01() -> f64 {
    rng::with(|s| s.python.next_f64())
}

fn num(a: &Args, name: &str, default: Option<f64>) -> Result<f64> {
    match a.given(name) {
        None => Ok(default.unwrap_or(0.0)),
        Some(Value::Int(i)) => Ok(*i as f64),
        Some(Value::Float(f)) => Ok(*f),
        Some(Value::Bool(b)) => Ok(f64::from(u8::from(*b))),
        Some(Value::BigInt(b)) => {
            Ok(num_traits::ToPrimitive::to_f64(&**b).unwrap_or(f64::INFINITY))
        }
        Some(other) => Err(a.err_at(
            name,
            Error::new(
                ExceptionClass::TypeError,
                format!("must be real number, not {}", other.type_name()),
            ),
        )),
    }
}

fn zero_division(a: &Args) -> Error {
    Error::new(ExceptionClass::ZeroDivisionError, "float division by zero").at(a.call)
}

/// `x / y` with Python's ZeroDivisionError.
fn div(x: f64, y: f64, a: &Args) -> Result<f64> {
    if y == 0.0 {
        return Err(zero_division(a));
    }
    Ok(x / y)
}

/// Python's `x % y` for floats (the result takes the divisor's sign).
fn py_mod(x: f64, y: f64) -> f64 {
    let m = x % y;
    if m != 0.0 && (m < 0.0) != (y < 0.0) {
        m + y
    } else {
        m
    }
}

/// Python's `log` of a float (ValueError at and below zero).
fn log(x: f64, a: &Args) -> Result<f64> {
    if x <= 0.0 {
        return Err(Error::new(ExceptionClass::ValueError, "math domain error").at(a.call));
    }
    Ok(x.ln())
}

fn float(x: f64) -> Result<Value> {
    Ok(Value::Float(x))
}

fn triangular(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let mut low = num(a, "low", Some(0.0))?;
    let mut high = num(a, "high", Some(1.0))?;
    let mut u = uniform01();
    let mut c = match a.value("mode") {
        Value::None => 0.5,
        _ => {
            let mode = num(a, "mode", None)?;
            if high - low == 0.0 {
                // CPython returns `low` as given (its ZeroDivisionError path).
                return Ok(a.value("low").clone());
            }
            (mode - low) / (high - low)
        }
    };
    if u > c {
        u = 1.0 - u;
        c = 1.0 - c;
        std::mem::swap(&mut low, &mut high);
    }
    float(low + (high - low) * (u * c).sqrt())
}

fn normal() -> f64 {
    loop {
        let u1 = uniform01();
        let u2 = 1.0 - uniform01();
        let z = NV_MAGICCONST * (u1 - 0.5) / u2;
        if z * z / 4.0 <= -u2.ln() {
            return z;
        }
    }
}

fn normalvariate(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let mu = num(a, "mu", Some(0.0))?;
    let sigma = num(a, "sigma", Some(1.0))?;
    float(mu + normal() * sigma)
}

fn lognormvariate(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let mu = num(a, "mu", None)?;
    let sigma = num(a, "sigma", None)?;
    float((mu + normal() * sigma).exp())
}

fn expovariate(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let lambd = num(a, "lambd", None)?;
    float(div(-(1.0 - uniform01()).ln(), lambd, a)?)
}

fn vonmisesvariate(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let mu = num(a, "mu", None)?;
    let kappa = num(a, "kappa", None)?;
    if kappa <= 1e-6 {
        return float(TAU * uniform01());
    }
    let s = 0.5 / kappa;
    let r = s + (1.0 + s * s).sqrt();
    let z = loop {
        let u1 = uniform01();
        let z = (PI * u1).cos();
        let d = z / (r + z);
        let u2 = uniform01();
        if u2 < 1.0 - d * d || u2 <= (1.0 - d) * d.exp() {
            break z;
        }
    };
    let q = 1.0 / r;
    let f = (q + z) / (1.0 + q * z);
    let u3 = uniform01();
    let theta = if u3 > 0.5 {
        py_mod(mu + f.acos(), TAU)
    } else {
        py_mod(mu - f.acos(), TAU)
    };
    float(theta)
}

fn gamma(alpha: f64, beta: f64, a: &Args) -> Result<f64> {
    if alpha <= 0.0 || beta <= 0.0 {
        return Err(Error::new(
            ExceptionClass::ValueError,
            "gammavariate: alpha and beta must be > 0.0",
        )
        .at(a.call));
    }
    if alpha > 1.0 {
        let ainv = (2.0 * alpha - 1.0).sqrt();
        let bbb = alpha - 4f64.ln();
        let ccc = alpha + ainv;
        loop {
            let u1 = uniform01();
            if !(1e-7 < u1 && u1 < 0.9999999) {
                continue;
            }
            let u2 = 1.0 - uniform01();
            let v = (u1 / (1.0 - u1)).ln() / ainv;
            let x = alpha * v.exp();
            let z = u1 * u1 * u2;
            let r = bbb + ccc * v - x;
            if r + SG_MAGICCONST - 4.5 * z >= 0.0 || r >= log(z, a)? {
                return Ok(x * beta);
            }
        }
    } else if alpha == 1.0 {
        Ok(-(1.0 - uniform01()).ln() * beta)
    } else {
        loop {
            let u = uniform01();
            let b = (E + alpha) / E;
            let p = b * u;
            let x = if p <= 1.0 {
                p.powf(1.0 / alpha)
            } else {
                -log((b - p) / alpha, a)?
            };
            let u1 = uniform01();
            let accept = if p > 1.0 {
                u1 <= x.powf(alpha - 1.0)
            } else {
                u1 <= (-x).exp()
            };
            if accept {
                return Ok(x * beta);
            }
        }
    }
}

fn gammavariate(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let alpha = num(a, "alpha", None)?;
    let beta = num(a, "beta", None)?;
    float(gamma(alpha, beta, a)?)
}

fn betavariate(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let alpha = num(a, "alpha", None)?;
    let beta = num(a, "beta", None)?;
    let y = gamma(alpha, 1.0, a)?;
    if y != 0.0 {
        let other = gamma(beta, 1.0, a)?;
        return float(div(y, y + other, a)?);
    }
    float(0.0)
}

fn paretovariate(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let alpha = num(a, "alpha", None)?;
    let u = 1.0 - uniform01();
    float(u.powf(div(-1.0, alpha, a)?))
}

fn weibullvariate(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let alpha = num(a, "alpha", None)?;
    let beta = num(a, "beta", None)?;
    let u = 1.0 - uniform01();
    float(alpha * (-u.ln()).powf(div(1.0, beta, a)?))
}

fn randbytes(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let n = a.int("n")?;
    if n < 0 {
        return Err(a.err_at(
            "n",
            Error::new(
                ExceptionClass::ValueError,
                "number of bits must be non-negative",
            ),
        ));
    }
    let n = n as usize;
    ragtag_engine::budget::check("random.randbytes", n as u128, 1).map_err(|e| a.err_at("n", e))?;
    // CPython's getrandbits(n * 8): 32-bit words from the lowest, the last keeping its top
    // bits; then the int's little-endian bytes.
    let mut out = Vec::new();
    let mut left = n * 8;
    rng::with(|s| {
        while left > 0 {
            let r = s.python.next_u32();
            let r = if left < 32 { r >> (32 - left) } else { r };
            out.extend_from_slice(&r.to_le_bytes()[..(left.min(32) / 8)]);
            left = left.saturating_sub(32);
        }
    });
    Ok(Value::bytes(out))
}
