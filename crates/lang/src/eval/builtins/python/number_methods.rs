//! The methods and attributes of Python's ints, floats and tuples: `bit_length`,
//! `as_integer_ratio`, `is_integer`, `hex`, `float.fromhex`, `real`/`imag`,
//! `numerator`/`denominator`, `tuple.count`/`tuple.index`.

use super::super::Builtin;
use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::operators::{identical, python_eq};
use crate::eval::Interp;
use crate::value::Value;
use ragtag_engine::ExceptionClass;

/// The number and tuple members.
pub static NUMBER_METHODS: &[Builtin] = &[
    Builtin::method("int.bit_length", "(self)", bit_length)
        .doc("The number of bits needed to write the int, without sign or leading zeros.")
        .examples(&["(255).bit_length()"]),
    Builtin::method("int.bit_count", "(self)", bit_count)
        .doc("The number of ones in the int's binary form (of its absolute value).")
        .examples(&["(255).bit_count()"]),
    Builtin::method("int.as_integer_ratio", "(self)", int_ratio)
        .doc("The pair `(self, 1)`.")
        .examples(&["(3).as_integer_ratio()"]),
    Builtin::method("int.conjugate", "(self)", same)
        .doc("The int itself (its complex conjugate).")
        .examples(&["(3).conjugate()"]),
    Builtin::property("int.real", same)
        .doc("The int itself.")
        .examples(&["(5).real"]),
    Builtin::property("int.imag", zero)
        .doc("0.")
        .examples(&["(5).imag"]),
    Builtin::property("int.numerator", same)
        .doc("The int itself.")
        .examples(&["(5).numerator"]),
    Builtin::property("int.denominator", one)
        .doc("1.")
        .examples(&["(5).denominator"]),
    Builtin::method("float.is_integer", "(self)", is_integer)
        .doc("Whether the float has an integral value.")
        .examples(&["(2.0).is_integer()"]),
    Builtin::method("float.as_integer_ratio", "(self)", float_ratio)
        .doc("The pair of ints `(n, d)`, `d` positive and smallest, whose ratio is exactly the float.")
        .examples(&["(0.75).as_integer_ratio()"]),
    Builtin::method("float.hex", "(self)", float_hex)
        .doc("The float in hexadecimal, exactly: `0x1.8000000000000p+1` for 3.0.")
        .examples(&["(3.0).hex()"]),
    Builtin::function("float.fromhex", "(string)", fromhex)
        .doc("The float a hexadecimal string (as `float.hex` writes) stands for.")
        .examples(&["float.fromhex('0x1.8p1')"]),
    Builtin::method("float.conjugate", "(self)", same)
        .doc("The float itself (its complex conjugate).")
        .examples(&["(1.5).conjugate()"]),
    Builtin::property("float.real", same)
        .doc("The float itself.")
        .examples(&["(1.5).real"]),
    Builtin::property("float.imag", zero_float)
        .doc("0.0.")
        .examples(&["(1.5).imag"]),
    Builtin::method("tuple.count", "(self, value)", tuple_count)
        .doc("How many items equal `value`.")
        .examples(&["(1, 2, 1).count(1)"]),
    Builtin::method("tuple.index", "(self, value)", tuple_index)
        .doc("The position of the first item equal to `value`.")
        .examples(&["(1, 2, 3).index(2)"]),
];

fn int_self(a: &Args) -> i64 {
    match a.value("self") {
        Value::Int(i) => *i,
        Value::Bool(b) => *b as i64,
        _ => 0,
    }
}

fn float_self(a: &Args) -> f64 {
    match a.value("self") {
        Value::Float(f) => *f,
        Value::Int(i) => *i as f64,
        _ => 0.0,
    }
}

fn bit_length(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    Ok(Value::Int(
        (64 - int_self(a).unsigned_abs().leading_zeros()) as i64,
    ))
}

fn bit_count(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    if let Value::BigInt(n) = a.value("self") {
        let ones: u64 = n.iter_u64_digits().map(|d| u64::from(d.count_ones())).sum();
        return Ok(Value::Int(ones as i64));
    }
    Ok(Value::Int(int_self(a).unsigned_abs().count_ones() as i64))
}

fn int_ratio(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let n = match a.value("self") {
        v @ Value::BigInt(_) => v.clone(),
        _ => Value::Int(int_self(a)),
    };
    Ok(Value::tuple(vec![n, Value::Int(1)]))
}

/// The value itself, as an int for a bool (`True.real` is 1).
fn same(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    Ok(match a.value("self") {
        Value::Bool(b) => Value::Int(*b as i64),
        other => other.clone(),
    })
}

fn zero(_: &mut Interp<'_>, _: &Args) -> Result<Value> {
    Ok(Value::Int(0))
}

fn one(_: &mut Interp<'_>, _: &Args) -> Result<Value> {
    Ok(Value::Int(1))
}

fn zero_float(_: &mut Interp<'_>, _: &Args) -> Result<Value> {
    Ok(Value::Float(0.0))
}

fn is_integer(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let f = float_self(a);
    Ok(Value::Bool(f.is_finite() && f.fract() == 0.0))
}

fn float_ratio(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let f = float_self(a);
    if f.is_nan() {
        return Err(Error::new(
            ExceptionClass::ValueError,
            "cannot convert NaN to integer ratio",
        )
        .at(a.span("self")));
    }
    if f.is_infinite() {
        return Err(Error::new(
            ExceptionClass::OverflowError,
            "cannot convert Infinity to integer ratio",
        )
        .at(a.span("self")));
    }
    // f = mantissa · 2^exp with an integral 53-bit mantissa.
    let bits = f.to_bits();
    let biased = ((bits >> 52) & 0x7ff) as i64;
    let frac = bits & ((1 << 52) - 1);
    let (mut m, mut e) = if biased == 0 {
        (frac, -1074)
    } else {
        (frac | (1 << 52), biased - 1075)
    };
    if m == 0 {
        return Ok(Value::tuple(vec![Value::Int(0), Value::Int(1)]));
    }
    let tz = m.trailing_zeros() as i64;
    m >>= tz;
    e += tz;
    let sign = if f < 0.0 { -1 } else { 1 };
    let too_big = || {
        Error::new(
            ExceptionClass::OverflowError,
            "the ratio's int does not fit in 64 bits",
        )
        .at(a.span("self"))
        .with_hint("ragtag's Python ints are int64")
    };
    let (n, d) = if e >= 0 {
        let n = (m as i64)
            .checked_mul(
                1i64.checked_shl(e as u32)
                    .filter(|_| e < 63)
                    .ok_or_else(too_big)?,
            )
            .ok_or_else(too_big)?;
        (n, 1)
    } else if -e < 63 {
        (m as i64, 1i64 << -e)
    } else {
        return Err(too_big());
    };
    Ok(Value::tuple(vec![Value::Int(sign * n), Value::Int(d)]))
}

/// Python's `float.hex`.
pub fn hex_of(f: f64) -> String {
    if f.is_nan() {
        return "nan".into();
    }
    if f.is_infinite() {
        return if f > 0.0 { "inf" } else { "-inf" }.into();
    }
    let sign = if f.is_sign_negative() { "-" } else { "" };
    let bits = f.to_bits();
    let biased = ((bits >> 52) & 0x7ff) as i64;
    let frac = bits & ((1 << 52) - 1);
    if biased == 0 && frac == 0 {
        return format!("{sign}0x0.0p+0");
    }
    if biased == 0 {
        return format!("{sign}0x0.{frac:013x}p-1022");
    }
    format!("{sign}0x1.{frac:013x}p{:+}", biased - 1023)
}

fn float_hex(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    Ok(Value::str(hex_of(float_self(a))))
}

/// Python's `float.fromhex`: `[sign] ['0x'] digits ['.' digits] ['p' [sign] digits]`, or
/// `inf`/`infinity`/`nan`.
fn parse_hex_float(text: &str) -> Option<f64> {
    let t = text.trim();
    let (neg, t) = match t.as_bytes().first() {
        Some(b'-') => (true, &t[1..]),
        Some(b'+') => (false, &t[1..]),
        _ => (false, t),
    };
    let lower = t.to_ascii_lowercase();
    let special = match lower.as_str() {
        "inf" | "infinity" => Some(f64::INFINITY),
        "nan" => Some(f64::NAN),
        _ => None,
    };
    if let Some(v) = special {
        return Some(if neg { -v } else { v });
    }
    let body = lower.strip_prefix("0x").unwrap_or(&lower);
    let (mant, exp) = match body.split_once('p') {
        Some((m, e)) => (m, e.parse::<i64>().ok()?),
        None => (body, 0),
    };
    let (int_part, frac_part) = mant.split_once('.').unwrap_or((mant, ""));
    if int_part.is_empty() && frac_part.is_empty() {
        return None;
    }
    // The digits as one integer with a binary exponent; digits past 60 bits fold into a
    // sticky bit so the one rounding to f64 stays correct.
    let (mut m, mut e, mut sticky) = (0u64, exp, false);
    for (i, c) in int_part.chars().chain(frac_part.chars()).enumerate() {
        let d = c.to_digit(16)? as u64;
        if i >= int_part.len() {
            e = e.checked_sub(4)?;
        }
        if m >> 56 == 0 {
            m = m * 16 + d;
        } else {
            sticky |= d != 0;
            e = e.checked_add(4)?;
        }
    }
    if sticky {
        m |= 1;
    }
    // 2^e in two halves, so neither power overflows before the product rounds.
    let e = e.clamp(-1200, 1200) as i32;
    let v = (m as f64) * 2f64.powi(e / 2) * 2f64.powi(e - e / 2);
    Some(if neg { -v } else { v })
}

fn fromhex(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let s = match a.value("string") {
        Value::Str(s) => s.clone(),
        other => {
            return Err(Error::new(
                ExceptionClass::TypeError,
                format!("fromhex() argument must be str, not {}", other.type_name()),
            )
            .at(a.span("string")))
        }
    };
    match parse_hex_float(&s) {
        Some(f) if f.is_infinite() && !s.to_ascii_lowercase().contains("inf") => Err(Error::new(
            ExceptionClass::OverflowError,
            "hexadecimal value too large to represent as a float",
        )
        .at(a.span("string"))),
        Some(f) => Ok(Value::Float(f)),
        None => Err(Error::new(
            ExceptionClass::ValueError,
            "invalid hexadecimal floating-point string",
        )
        .at(a.span("string"))),
    }
}

fn tuple_items(a: &Args) -> Vec<Value> {
    crate::value::subscript_items(a.value("self"))
}

fn tuple_count(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let v = a.value("value");
    let n = tuple_items(a)
        .iter()
        .filter(|x| identical(x, v) || python_eq(x, v))
        .count();
    Ok(Value::Int(n as i64))
}

fn tuple_index(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let v = a.value("value");
    match tuple_items(a)
        .iter()
        .position(|x| identical(x, v) || python_eq(x, v))
    {
        Some(p) => Ok(Value::Int(p as i64)),
        None => Err(
            Error::new(ExceptionClass::ValueError, "tuple.index(x): x not in tuple")
                .at(a.span("value")),
        ),
    }
}
