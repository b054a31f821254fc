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
        Value::Str(s) => match s.trim().to_ascii_lowercase().as_str() {
            "nan" => f64::NAN,
            "inf" | "infinity" => f64::INFINITY,
            "-inf" | "-infinity" => f64::NEG_INFINITY,
            t => t.parse::<f64>().map_err(|_| {
                Error::new(
                    ExceptionClass::ValueError,
                    format!("could not convert string to float: '{s}'"),
                )
                .at(a.span("x"))
            })?,
        },
        _ => convert::to_f64(v).map_err(|e| a.err_at("x", e))?,
    }))
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
    if let Value::Int(i) = a.value("x") {
        return Ok(Value::Int(*i));
    }
    let y = f(num_arg(a)?);
    // Exact past 64 bits: `math.floor(1e20)` is 100000000000000000000.
    super::pymath::integral(y).map_err(|e| e.at(a.span("x")))
}

pub(super) fn math_log(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let x = num_arg(a)?;
    if x <= 0.0 {
        return Err(Error::new(ExceptionClass::ValueError, "math domain error").at(a.span("x")));
    }
    match a.get("base") {
        None => Ok(Value::Float(x.ln())),
        Some(b) => {
            let b = convert::to_f64(b).map_err(|e| a.err_at("base", e))?;
            Ok(Value::Float(x.ln() / b.ln()))
        }
    }
}
