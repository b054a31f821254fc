//! Python's `math` module beyond the first few functions (`numbers.rs` has sqrt, exp, log,
//! floor, ceil and isnan): each takes Python numbers and gives a Python float, int or bool
//! with CPython's ValueError (`math domain error`) and OverflowError (`math range error`),
//! rather than falling through to `tf.math`'s float32 tensors.

use num_bigint::BigInt;
use num_traits::{FromPrimitive, Signed};

use super::Builtin;
use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::convert;
use crate::eval::operators::bigint::{norm, to_big};
use crate::eval::Interp;
use crate::value::Value;
use ragtag_engine::ExceptionClass;

/// A float function of one number.
macro_rules! unary {
    ($name:literal, $f:expr, $doc:literal, $ex:literal) => {
        Builtin::function(concat!("math.", $name), "(x, /)", |_, a| float1(a, $f))
            .doc($doc)
            .examples(&[$ex])
    };
}

/// The rest of `math`.
pub static MATH: &[Builtin] = &[
    unary!(
        "acos",
        f64::acos,
        "The arc cosine of x, in radians.",
        "math.acos(0.5)"
    ),
    unary!(
        "asin",
        f64::asin,
        "The arc sine of x, in radians.",
        "math.asin(0.5)"
    ),
    unary!(
        "atan",
        f64::atan,
        "The arc tangent of x, in radians.",
        "math.atan(1)"
    ),
    unary!(
        "acosh",
        f64::acosh,
        "The inverse hyperbolic cosine of x.",
        "math.acosh(2)"
    ),
    unary!(
        "asinh",
        f64::asinh,
        "The inverse hyperbolic sine of x.",
        "math.asinh(1)"
    ),
    unary!(
        "atanh",
        atanh,
        "The inverse hyperbolic tangent of x.",
        "math.atanh(0.5)"
    ),
    unary!("cos", f64::cos, "The cosine of x radians.", "math.cos(0.5)"),
    unary!("sin", f64::sin, "The sine of x radians.", "math.sin(0.5)"),
    unary!(
        "tan",
        f64::tan,
        "The tangent of x radians.",
        "math.tan(0.5)"
    ),
    unary!(
        "cosh",
        f64::cosh,
        "The hyperbolic cosine of x.",
        "math.cosh(1)"
    ),
    unary!(
        "sinh",
        f64::sinh,
        "The hyperbolic sine of x.",
        "math.sinh(1)"
    ),
    unary!(
        "tanh",
        f64::tanh,
        "The hyperbolic tangent of x.",
        "math.tanh(1)"
    ),
    unary!(
        "exp2",
        f64::exp2,
        "2 raised to the power x.",
        "math.exp2(10)"
    ),
    unary!(
        "expm1",
        f64::exp_m1,
        "e**x - 1, exact for small x.",
        "math.expm1(1e-10)"
    ),
    Builtin::function("math.log2", "(x, /)", |_, a| match super::numbers::big_log(
        a.value("x"),
        log2,
    ) {
        Some(y) => Ok(Value::Float(y)),
        None => float1(a, log2),
    })
    .doc("The base-2 logarithm of x (of an int of any size).")
    .examples(&["math.log2(1024)"]),
    Builtin::function(
        "math.log10",
        "(x, /)",
        |_, a| match super::numbers::big_log(a.value("x"), log10) {
            Some(y) => Ok(Value::Float(y)),
            None => float1(a, log10),
        },
    )
    .doc("The base-10 logarithm of x (of an int of any size).")
    .examples(&["math.log10(1000)"]),
    unary!(
        "log1p",
        log1p,
        "The natural logarithm of 1 + x, exact for small x.",
        "math.log1p(1e-10)"
    ),
    unary!(
        "fabs",
        f64::abs,
        "The absolute value of x, as a float.",
        "math.fabs(-2)"
    ),
    unary!(
        "degrees",
        f64::to_degrees,
        "x radians in degrees.",
        "math.degrees(math.pi)"
    ),
    unary!(
        "radians",
        f64::to_radians,
        "x degrees in radians.",
        "math.radians(180)"
    ),
    unary!("erf", libm::erf, "The error function at x.", "math.erf(1)"),
    unary!(
        "erfc",
        libm::erfc,
        "The complementary error function at x.",
        "math.erfc(1)"
    ),
    unary!(
        "ulp",
        ulp,
        "The value of the least significant bit of x.",
        "math.ulp(1.0)"
    ),
    Builtin::function("math.trunc", "(x, /)", |_, a| to_int(a, f64::trunc))
        .doc("x with its fraction dropped, as an int.")
        .examples(&["math.trunc(-2.7)"]),
    Builtin::function("math.isfinite", "(x, /)", |_, a| {
        Ok(Value::Bool(num(a, "x")?.is_finite()))
    })
    .doc("Whether x is neither an infinity nor a NaN.")
    .examples(&["math.isfinite(1e308 * 10)"]),
    Builtin::function("math.isinf", "(x, /)", |_, a| {
        Ok(Value::Bool(num(a, "x")?.is_infinite()))
    })
    .doc("Whether x is a positive or negative infinity.")
    .examples(&["math.isinf(float('-inf'))"]),
    Builtin::function("math.atan2", "(y, x, /)", |_, a| {
        float2(a, "y", "x", f64::atan2)
    })
    .doc("The arc tangent of y / x, in radians, in the quadrant of the point (x, y).")
    .examples(&["math.atan2(1, -1)"]),
    Builtin::function("math.copysign", "(x, y, /)", |_, a| {
        float2(a, "x", "y", f64::copysign)
    })
    .doc("x with the sign of y.")
    .examples(&["math.copysign(2, -0.0)"]),
    Builtin::function("math.fmod", "(x, y, /)", |_, a| float2(a, "x", "y", fmod))
        .doc("The C library's fmod: x - n*y with the sign of x (Python's `%` takes y's sign).")
        .examples(&["math.fmod(-7, 3)"]),
    Builtin::function("math.remainder", "(x, y, /)", |_, a| {
        float2(a, "x", "y", remainder)
    })
    .doc("The IEEE 754 remainder: x - n*y for the integer n nearest x / y.")
    .examples(&["math.remainder(7, 4)"]),
    Builtin::function("math.pow", "(x, y, /)", |_, a| float2(a, "x", "y", pow))
        .doc("x raised to the power y, as a float.")
        .examples(&["math.pow(2, 0.5)"]),
    Builtin::function("math.nextafter", "(x, y, /)", |_, a| {
        float2(a, "x", "y", libm::nextafter)
    })
    .doc("The next float after x towards y.")
    .examples(&["math.nextafter(1.0, 2.0)"]),
    Builtin::function("math.ldexp", "(x, i, /)", ldexp)
        .doc("x * 2**i.")
        .examples(&["math.ldexp(0.75, 3)"]),
    Builtin::function("math.frexp", "(x, /)", frexp)
        .doc("The mantissa m and exponent e of x, with x == m * 2**e and 0.5 <= abs(m) < 1.")
        .examples(&["math.frexp(12.0)"]),
    Builtin::function("math.modf", "(x, /)", |_, a| {
        let x = num(a, "x")?;
        let whole = if x.is_infinite() { x } else { x.trunc() };
        let frac = if x.is_infinite() {
            0.0f64.copysign(x)
        } else {
            x - whole
        };
        Ok(Value::tuple(vec![Value::Float(frac), Value::Float(whole)]))
    })
    .doc("The fractional and integer parts of x, both floats with x's sign.")
    .examples(&["math.modf(-3.25)"]),
    Builtin::function(
        "math.isclose",
        "(a, b, *, rel_tol=1e-09, abs_tol=0.0)",
        isclose,
    )
    .doc("Whether a and b are within rel_tol of the larger of them, or within abs_tol.")
    .examples(&["math.isclose(0.1 + 0.2, 0.3)"]),
    Builtin::function("math.hypot", "(*coordinates)", hypot)
        .doc("The Euclidean length of the vector of coordinates.")
        .examples(&["math.hypot(3, 4)"]),
    Builtin::function("math.dist", "(p, q, /)", dist)
        .doc("The Euclidean distance between points p and q (sequences of the same length).")
        .examples(&["math.dist((0, 0), (3, 4))"]),
    Builtin::function("math.fsum", "(seq, /)", fsum)
        .doc("The exactly rounded sum of the numbers (no error builds up, unlike sum).")
        .examples(&["math.fsum([0.1] * 10)"]),
    Builtin::function("math.prod", "(iterable, /, *, start=1)", prod)
        .doc("The product of the items, starting from start (ints stay exact).")
        .examples(&["math.prod([1, 2, 3, 4])"]),
];

fn num(a: &Args, name: &str) -> Result<f64> {
    convert::to_f64(a.value(name)).map_err(|e| a.err_at(name, e))
}

fn domain(a: &Args, name: &str) -> Error {
    Error::new(ExceptionClass::ValueError, "math domain error").at(a.span(name))
}

fn range(a: &Args, name: &str) -> Error {
    Error::new(ExceptionClass::OverflowError, "math range error").at(a.span(name))
}

/// CPython's checks on a float result: NaN from a number is a domain error, an infinity
/// from a finite number a range error.
fn checked(a: &Args, name: &str, finite_in: bool, nan_in: bool, y: f64) -> Result<Value> {
    if y.is_nan() && !nan_in {
        return Err(domain(a, name));
    }
    if y.is_infinite() && finite_in {
        return Err(range(a, name));
    }
    Ok(Value::Float(y))
}

fn float1(a: &Args, f: fn(f64) -> f64) -> Result<Value> {
    let x = num(a, "x")?;
    checked(a, "x", x.is_finite(), x.is_nan(), f(x))
}

fn float2(a: &Args, x: &str, y: &str, f: fn(f64, f64) -> f64) -> Result<Value> {
    let (u, v) = (num(a, x)?, num(a, y)?);
    checked(
        a,
        x,
        u.is_finite() && v.is_finite(),
        u.is_nan() || v.is_nan(),
        f(u, v),
    )
}

/// atanh has poles at ±1 (domain errors in CPython, not range errors).
fn atanh(x: f64) -> f64 {
    if x.abs() >= 1.0 {
        f64::NAN
    } else {
        x.atanh()
    }
}

/// Logarithms are undefined at 0 (where IEEE gives -inf): CPython's domain error.
fn log2(x: f64) -> f64 {
    if x <= 0.0 {
        f64::NAN
    } else {
        x.log2()
    }
}

fn log10(x: f64) -> f64 {
    if x <= 0.0 {
        f64::NAN
    } else {
        x.log10()
    }
}

fn log1p(x: f64) -> f64 {
    if x <= -1.0 {
        f64::NAN
    } else {
        x.ln_1p()
    }
}

fn ulp(x: f64) -> f64 {
    if x.is_nan() || x.is_infinite() {
        return x.abs();
    }
    let x = x.abs();
    if x == f64::MAX {
        return x - libm::nextafter(x, 0.0);
    }
    libm::nextafter(x, f64::INFINITY) - x
}

fn fmod(x: f64, y: f64) -> f64 {
    if x.is_infinite() || y == 0.0 {
        f64::NAN
    } else {
        x % y
    }
}

fn remainder(x: f64, y: f64) -> f64 {
    if x.is_infinite() || y == 0.0 {
        f64::NAN
    } else {
        libm::remainder(x, y)
    }
}

fn pow(x: f64, y: f64) -> f64 {
    // A negative base to a fractional power, or zero to a negative one: domain errors.
    if (x < 0.0 && x.is_finite() && y.is_finite() && y != y.trunc()) || (x == 0.0 && y < 0.0) {
        f64::NAN
    } else {
        x.powf(y)
    }
}

fn to_int(a: &Args, f: fn(f64) -> f64) -> Result<Value> {
    if let Some(n) = to_big(a.value("x")) {
        return Ok(norm(n));
    }
    integral(f(num(a, "x")?)).map_err(|e| e.at(a.span("x")))
}

/// An integral float as a Python int, exactly (past 64 bits too); CPython's
/// OverflowError for an infinity and ValueError for NaN.
pub(super) fn integral(y: f64) -> Result<Value> {
    if y.is_nan() {
        return Err(Error::new(
            ExceptionClass::ValueError,
            "cannot convert float NaN to integer",
        ));
    }
    if y.is_infinite() {
        return Err(Error::new(
            ExceptionClass::OverflowError,
            "cannot convert float infinity to integer",
        ));
    }
    if y.abs() < 9.2e18 {
        return Ok(Value::Int(y as i64));
    }
    Ok(BigInt::from_f64(y).map_or(Value::Int(0), norm))
}

fn ldexp(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let x = num(a, "x")?;
    let i = match a.value("i") {
        Value::Int(i) => *i,
        Value::Bool(b) => *b as i64,
        Value::BigInt(n) => {
            if n.is_negative() {
                i64::MIN
            } else {
                i64::MAX
            }
        }
        other => {
            return Err(Error::new(
                ExceptionClass::TypeError,
                format!(
                    "Expected an int as second argument to ldexp, not {}",
                    other.type_name()
                ),
            )
            .at(a.span("i")))
        }
    };
    let y = libm::ldexp(x, i.clamp(i32::MIN as i64, i32::MAX as i64) as i32);
    checked(a, "x", x.is_finite(), x.is_nan(), y)
}

fn frexp(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let x = num(a, "x")?;
    let (m, e) = if x == 0.0 || !x.is_finite() {
        (x, 0)
    } else {
        libm::frexp(x)
    };
    Ok(Value::tuple(vec![Value::Float(m), Value::Int(e as i64)]))
}

fn isclose(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let (x, y) = (num(a, "a")?, num(a, "b")?);
    let rel = a.get("rel_tol").map_or(Ok(1e-9), |_| num(a, "rel_tol"))?;
    let abs = a.get("abs_tol").map_or(Ok(0.0), |_| num(a, "abs_tol"))?;
    if rel < 0.0 || abs < 0.0 {
        return Err(Error::new(
            ExceptionClass::ValueError,
            "tolerances must be non-negative",
        )
        .at(a.call));
    }
    if x == y {
        return Ok(Value::Bool(true));
    }
    if x.is_infinite() || y.is_infinite() {
        return Ok(Value::Bool(false));
    }
    let d = (x - y).abs();
    Ok(Value::Bool(
        d <= (rel * y).abs() || d <= (rel * x).abs() || d <= abs,
    ))
}

fn floats(items: &[(Value, ragtag_syntax::ast::Span)]) -> Result<Vec<f64>> {
    items
        .iter()
        .map(|(v, s)| convert::to_f64(v).map_err(|e| Error::from(e).at(*s)))
        .collect()
}

fn norm2(xs: &[f64]) -> f64 {
    if xs.iter().any(|x| x.is_infinite()) {
        return f64::INFINITY;
    }
    let scale = xs.iter().fold(0.0f64, |m, x| m.max(x.abs()));
    if scale == 0.0 || scale.is_nan() {
        return scale;
    }
    let sum: f64 = xs.iter().map(|x| (x / scale) * (x / scale)).sum();
    scale * sum.sqrt()
}

fn hypot(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let xs = floats(a.rest())?;
    Ok(Value::Float(match xs.as_slice() {
        [x, y] => x.hypot(*y),
        _ => norm2(&xs),
    }))
}

fn dist(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let p = it.collect(a.value("p"), a.span("p"))?;
    let q = it.collect(a.value("q"), a.span("q"))?;
    if p.len() != q.len() {
        return Err(Error::new(
            ExceptionClass::ValueError,
            "both points must have the same number of dimensions",
        )
        .at(a.call));
    }
    let mut d = Vec::new();
    for (x, y) in p.iter().zip(&q) {
        let x = convert::to_f64(x).map_err(|e| a.err_at("p", e))?;
        let y = convert::to_f64(y).map_err(|e| a.err_at("q", e))?;
        d.push(x - y);
    }
    Ok(Value::Float(match d.as_slice() {
        [x, y] => x.hypot(*y),
        _ => norm2(&d),
    }))
}

/// Shewchuk's exact summation, as CPython's fsum: partial sums that never round, added
/// once at the end (with its correction for a tie in the last rounding).
fn fsum(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let items = it.collect(a.value("seq"), a.span("seq"))?;
    let mut partials: Vec<f64> = Vec::new();
    let mut special = 0.0f64;
    let mut inf_sum = 0.0f64;
    for v in &items {
        let mut x = convert::to_f64(v).map_err(|e| a.err_at("seq", e))?;
        if !x.is_finite() {
            if x.is_infinite() {
                inf_sum += x;
            }
            special += x;
            continue;
        }
        let mut kept = 0;
        for i in 0..partials.len() {
            let mut y = partials[i];
            if x.abs() < y.abs() {
                std::mem::swap(&mut x, &mut y);
            }
            let hi = x + y;
            let lo = y - (hi - x);
            if lo != 0.0 {
                partials[kept] = lo;
                kept += 1;
            }
            x = hi;
        }
        partials.truncate(kept);
        if x.is_infinite() {
            return Err(Error::new(
                ExceptionClass::OverflowError,
                "intermediate overflow in fsum",
            )
            .at(a.span("seq")));
        }
        partials.push(x);
    }
    if special != 0.0 || special.is_nan() {
        if inf_sum.is_nan() {
            return Err(
                Error::new(ExceptionClass::ValueError, "-inf + inf in fsum").at(a.span("seq"))
            );
        }
        return Ok(Value::Float(special));
    }
    let mut hi = 0.0f64;
    if let Some(mut n) = partials.len().checked_sub(1) {
        hi = partials[n];
        let mut lo = 0.0;
        while n > 0 {
            let x = hi;
            n -= 1;
            let y = partials[n];
            hi = x + y;
            let yr = hi - x;
            lo = y - yr;
            if lo != 0.0 {
                break;
            }
        }
        if n > 0 && ((lo < 0.0 && partials[n - 1] < 0.0) || (lo > 0.0 && partials[n - 1] > 0.0)) {
            let y = lo * 2.0;
            let x = hi + y;
            if y == x - hi {
                hi = x;
            }
        }
    }
    Ok(Value::Float(hi))
}

fn prod(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let items = it.collect(a.value("iterable"), a.span("iterable"))?;
    let mut acc = a.given("start").cloned().unwrap_or(Value::Int(1));
    for v in items {
        acc = it
            .binary_values(ragtag_syntax::ast::BinOp::Mul, &acc, &v, a.call)?
            .map_err(|e| a.err_at("iterable", e))?;
    }
    Ok(acc)
}
