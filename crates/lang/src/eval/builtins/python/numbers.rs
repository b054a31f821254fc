//! Python's number conversions (`int`, `float`, `bool`) and the `math` module functions
//! guide code calls on plain numbers.

use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::convert;
use crate::eval::Interp;
use crate::value::Value;
use ragtag_engine::ExceptionClass;

pub(super) fn float(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    if a.given("x").is_none() {
        return Ok(Value::Float(0.0));
    }
    let v = a.value("x");
    Ok(Value::Float(match v {
        Value::Str(s) => parse_float(s).ok_or_else(|| {
            Error::new(ExceptionClass::ValueError, float_error(s)).at(a.span("x"))
        })?,
        _ => convert::to_f64(v).map_err(|e| a.err_at("x", e))?,
    }))
}

/// Python's `float(s)` of a string: surrounding whitespace, a sign, `inf`, `infinity` and
/// `nan` in any case, and `_` between digits; None where CPython raises ValueError.
pub(super) fn parse_float(s: &str) -> Option<f64> {
    let t = s.trim();
    let (sign, body) = match t.as_bytes().first() {
        Some(b'-') => (-1.0, &t[1..]),
        Some(b'+') => (1.0, &t[1..]),
        _ => (1.0, t),
    };
    if body.starts_with(['+', '-']) {
        return None;
    }
    match body.to_ascii_lowercase().as_str() {
        "nan" => return Some(f64::NAN),
        "inf" | "infinity" => return Some(sign * f64::INFINITY),
        _ => {}
    }
    let bytes = body.as_bytes();
    let digit = |i: usize| bytes.get(i).is_some_and(u8::is_ascii_digit);
    let mut clean = String::new();
    for (i, c) in body.char_indices() {
        match c {
            '_' if i > 0 && digit(i - 1) && digit(i + 1) => {}
            '0'..='9' | '.' | 'e' | 'E' | '+' | '-' => clean.push(c),
            _ => return None,
        }
    }
    if clean.is_empty() || clean.contains("inf") {
        return None;
    }
    clean.parse::<f64>().ok().map(|x| sign * x)
}

/// CPython's ValueError message for a string `float` cannot read.
pub(super) fn float_error(s: &str) -> String {
    format!(
        "could not convert string to float: {}",
        crate::render::tf_text::py_str(s)
    )
}

pub(super) fn bool_(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    Ok(Value::Bool(it.truth(a.value("x"), a.span("x"))?))
}

pub(super) fn num_arg(a: &Args) -> Result<f64> {
    convert::to_f64(a.value("x")).map_err(|e| a.err_at("x", e))
}

pub(super) fn math1(a: &Args, f: fn(f64) -> f64) -> Result<Value> {
    let x = num_arg(a)?;
    let y = f(x);
    if y.is_nan() && !x.is_nan() {
        return Err(Error::new(ExceptionClass::ValueError, "math domain error").at(a.span("x")));
    }
    if y.is_infinite() && x.is_finite() {
        return Err(Error::new(ExceptionClass::OverflowError, "math range error").at(a.span("x")));
    }
    Ok(Value::Float(y))
}

pub(super) fn math_int(a: &Args, f: fn(f64) -> f64) -> Result<Value> {
    match a.value("x") {
        v @ (Value::Int(_) | Value::BigInt(_)) => return Ok(v.clone()),
        Value::Bool(b) => return Ok(Value::Int(i64::from(*b))),
        _ => {}
    }
    let y = f(num_arg(a)?);
    // Exact past 64 bits: `math.floor(1e20)` is 100000000000000000000.
    super::pymath::integral(y).map_err(|e| e.at(a.span("x")))
}

/// `f(x)` for an int too large for a float, as CPython's logarithms take it: with
/// `x = m * 2**e` (`m` in [0.5, 1)), `f(m) + f(2) * e`. None for any other `x`.
pub(super) fn big_log(x: &Value, f: fn(f64) -> f64) -> Option<f64> {
    use num_traits::{Signed, ToPrimitive};
    let Value::BigInt(n) = x else { return None };
    if !n.is_positive() || n.to_f64().is_some_and(f64::is_finite) {
        return None;
    }
    let bits = n.bits();
    let top: num_bigint::BigInt = &**n >> (bits - 64);
    let m = top.to_f64()? / 2f64.powi(64);
    Some(f(m) + f(2.0) * bits as f64)
}

pub(super) fn math_log(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    if let Some(ln) = big_log(a.value("x"), f64::ln) {
        return match a.get("base") {
            None => Ok(Value::Float(ln)),
            Some(b) => {
                let b = convert::to_f64(b).map_err(|e| a.err_at("base", e))?;
                Ok(Value::Float(ln / b.ln()))
            }
        };
    }
    let x = num_arg(a)?;
    if x <= 0.0 {
        return Err(Error::new(ExceptionClass::ValueError, "math domain error").at(a.span("x")));
    }
    match a.get("base") {
        None => Ok(Value::Float(x.ln())),
        Some(b) => {
            let b = convert::to_f64(b).map_err(|e| a.err_at("base", e))?;
            if b <= 0.0 {
                return Err(
                    Error::new(ExceptionClass::ValueError, "math domain error").at(a.span("base"))
                );
            }
            // CPython divides the two logarithms: a base of 1 divides by zero.
            if b.ln() == 0.0 {
                return Err(Error::new(
                    ExceptionClass::ZeroDivisionError,
                    "float division by zero",
                )
                .at(a.span("base")));
            }
            Ok(Value::Float(x.ln() / b.ln()))
        }
    }
}
