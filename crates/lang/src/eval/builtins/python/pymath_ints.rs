//! `math`'s integer functions: `gcd`, `lcm`, `factorial`, `comb`, `perm` and `isqrt`, exact
//! for ints of any size, each bounded by the memory budget before it computes.

use num_bigint::BigInt;
use num_traits::{One, Signed, ToPrimitive, Zero};

use super::Builtin;
use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::operators::bigint::{norm, to_big};
use crate::eval::Interp;
use crate::value::Value;
use ragtag_engine::ExceptionClass;

/// `math`'s functions of ints.
pub static MATH_INTS: &[Builtin] = &[
    Builtin::function("math.gcd", "(*integers)", |_, a| gcd_lcm(a, false))
        .doc("The greatest common divisor of the integers (0 with none).")
        .examples(&["math.gcd(12, 18, 27)"]),
    Builtin::function("math.lcm", "(*integers)", |_, a| gcd_lcm(a, true))
        .doc("The least common multiple of the integers (1 with none).")
        .examples(&["math.lcm(4, 6)"]),
    Builtin::function("math.factorial", "(n, /)", factorial)
        .doc("n!, exactly.")
        .examples(&["math.factorial(20)"]),
    Builtin::function("math.comb", "(n, k, /)", |_, a| comb_perm(a, true))
        .doc("The number of ways to choose k of n items without order.")
        .examples(&["math.comb(10, 3)"]),
    Builtin::function("math.perm", "(n, k=None, /)", |_, a| comb_perm(a, false))
        .doc("The number of ways to choose k of n items in order (k defaults to n).")
        .examples(&["math.perm(5, 2)"]),
    Builtin::function("math.isqrt", "(n, /)", isqrt)
        .doc("The integer square root of n: the largest int whose square is at most n.")
        .examples(&["math.isqrt(10**20 + 1)"]),
];

fn int_arg(v: &Value, span: ragtag_syntax::ast::Span) -> Result<BigInt> {
    to_big(v).ok_or_else(|| Error::not_an_integer(v.type_name()).at(span))
}

fn gcd_big(mut x: BigInt, mut y: BigInt) -> BigInt {
    while !y.is_zero() {
        let r = &x % &y;
        x = y;
        y = r;
    }
    x.abs()
}

fn gcd_lcm(a: &Args, lcm: bool) -> Result<Value> {
    let mut acc = if lcm { BigInt::one() } else { BigInt::zero() };
    for (v, s) in a.rest() {
        let n = int_arg(v, *s)?;
        acc = if lcm {
            if acc.is_zero() || n.is_zero() {
                BigInt::zero()
            } else {
                let g = gcd_big(acc.clone(), n.clone());
                (&acc / g * n).abs()
            }
        } else {
            gcd_big(acc, n)
        };
    }
    Ok(norm(acc))
}

/// Bounds an exact result's size before computing it (the memory budget: a factorial of
/// a huge n would run for hours and fill memory).
fn bounded(a: &Args, what: &str, bits: f64) -> Result<()> {
    ragtag_engine::budget::check_bytes(what, (bits / 8.0).max(0.0) as u128)
        .map_err(|e| Error::from(e).at(a.call))
}

fn non_negative(a: &Args, name: &str, what: &str) -> Result<BigInt> {
    let n = int_arg(a.value(name), a.span(name))?;
    if n.is_negative() {
        return Err(Error::new(
            ExceptionClass::ValueError,
            format!("{what} must be a non-negative integer"),
        )
        .at(a.span(name)));
    }
    Ok(n)
}

fn factorial(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    if matches!(a.value("n"), Value::Float(_)) {
        return Err(Error::new(
            ExceptionClass::TypeError,
            "'float' object cannot be interpreted as an integer",
        )
        .at(a.span("n")));
    }
    let n = int_arg(a.value("n"), a.span("n"))?;
    if n.is_negative() {
        return Err(Error::new(
            ExceptionClass::ValueError,
            "factorial() not defined for negative values",
        )
        .at(a.span("n")));
    }
    let n = n.to_u64().unwrap_or(u64::MAX);
    // log2(n!) is below n·log2(n).
    bounded(a, "math.factorial", n as f64 * (n.max(2) as f64).log2())?;
    let mut acc = BigInt::one();
    for k in 2..=n {
        acc *= k;
        if k % 4096 == 0 {
            ragtag_engine::interrupt::check().map_err(|e| Error::from(e).at(a.call))?;
        }
    }
    Ok(norm(acc))
}

fn comb_perm(a: &Args, comb: bool) -> Result<Value> {
    let n = non_negative(a, "n", "n")?;
    let k = match a.get("k") {
        None => n.clone(),
        Some(_) => non_negative(a, "k", "k")?,
    };
    if k > n {
        return Ok(Value::Int(0));
    }
    // Choose the smaller side for comb: C(n, k) = C(n, n - k).
    let k = if comb { k.clone().min(&n - &k) } else { k };
    let steps = k.to_u64().unwrap_or(u64::MAX);
    let nbits = n.bits() as f64;
    bounded(
        a,
        if comb { "math.comb" } else { "math.perm" },
        steps as f64 * nbits.max(1.0),
    )?;
    let mut acc = BigInt::one();
    for i in 0..steps {
        acc *= &n - BigInt::from(i);
        if comb {
            acc /= BigInt::from(i + 1);
        }
        if i % 4096 == 4095 {
            ragtag_engine::interrupt::check().map_err(|e| Error::from(e).at(a.call))?;
        }
    }
    Ok(norm(acc))
}

fn isqrt(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let n = int_arg(a.value("n"), a.span("n"))?;
    if n.is_negative() {
        return Err(Error::new(
            ExceptionClass::ValueError,
            "isqrt() argument must be nonnegative",
        )
        .at(a.span("n")));
    }
    Ok(norm(n.sqrt()))
}
