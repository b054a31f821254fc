//! Python's number builtins beyond conversion: `round` (ties to even, `ndigits`),
//! `divmod`, `pow` with a modulus, and `hex`, `oct`, `bin`.

use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::operators::binary;
use crate::eval::Interp;
use crate::value::Value;
use ragtag_engine::ExceptionClass;
use ragtag_syntax::ast::BinOp;

/// Argument `name` as a Python int (bools count), or CPython's TypeError.
fn int_arg(a: &Args, name: &str) -> Result<i64> {
    match a.value(name) {
        Value::Int(i) => Ok(*i),
        Value::Bool(b) => Ok(i64::from(*b)),
        other => Err(Error::not_an_integer(other.type_name()).at(a.span(name))),
    }
}

/// `hex`, `oct` and `bin`: the prefix, then the magnitude's digits in `radix`.
fn in_base(a: &Args, prefix: &str, radix: u32) -> Result<Value> {
    if let Value::BigInt(n) = a.value("x") {
        let (negative, digits) = crate::eval::operators::bigint::digits(n, radix);
        let sign = if negative { "-" } else { "" };
        return Ok(Value::str(format!("{sign}{prefix}{digits}")));
    }
    let i = int_arg(a, "x")?;
    let m = i.unsigned_abs();
    let digits = match radix {
        16 => format!("{m:x}"),
        8 => format!("{m:o}"),
        _ => format!("{m:b}"),
    };
    let sign = if i < 0 { "-" } else { "" };
    Ok(Value::str(format!("{sign}{prefix}{digits}")))
}

pub(super) fn hex(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    in_base(a, "0x", 16)
}

pub(super) fn oct(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    in_base(a, "0o", 8)
}

pub(super) fn bin(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    in_base(a, "0b", 2)
}

pub(super) fn divmod(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let (x, y) = (a.value("a"), a.value("b"));
    let numeric = |v: &Value| {
        matches!(
            v,
            Value::Int(_) | Value::Bool(_) | Value::Float(_) | Value::BigInt(_)
        )
    };
    if !numeric(x) || !numeric(y) {
        return Err(Error::new(
            ExceptionClass::TypeError,
            format!(
                "unsupported operand type(s) for divmod(): '{}' and '{}'",
                x.type_name(),
                y.type_name()
            ),
        )
        .at(a.call));
    }
    let q = binary(BinOp::FloorDiv, x, y).map_err(|e| Error::from(e).at(a.call))?;
    let r = binary(BinOp::Mod, x, y).map_err(|e| Error::from(e).at(a.call))?;
    Ok(Value::tuple(vec![q, r]))
}

pub(super) fn pow(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let (base, exp) = (a.value("base"), a.value("exp"));
    if a.get("mod").is_none() {
        return binary(BinOp::Pow, base, exp).map_err(|e| Error::from(e).at(a.call));
    }
    let ints = [base, exp, a.value("mod")]
        .iter()
        .all(|v| matches!(v, Value::Int(_) | Value::Bool(_) | Value::BigInt(_)));
    if !ints {
        return Err(Error::new(
            ExceptionClass::TypeError,
            "pow() 3rd argument not allowed unless all arguments are integers",
        )
        .at(a.call));
    }
    if [base, exp, a.value("mod")]
        .iter()
        .any(|v| matches!(v, Value::BigInt(_)))
    {
        use crate::eval::operators::bigint::{pow_mod, to_big};
        let big = |name: &str| to_big(a.value(name)).unwrap_or_default();
        return pow_mod(big("base"), big("exp"), big("mod")).map_err(|e| Error::from(e).at(a.call));
    }
    let (b, e, m) = (int_arg(a, "base")?, int_arg(a, "exp")?, int_arg(a, "mod")?);
    if m == 0 {
        return Err(
            Error::new(ExceptionClass::ValueError, "pow() 3rd argument cannot be 0")
                .at(a.span("mod")),
        );
    }
    let m = i128::from(m);
    let mut b = i128::from(b).rem_euclid(m.abs());
    if e < 0 {
        b = inverse(b, m.abs()).ok_or_else(|| {
            Error::new(
                ExceptionClass::ValueError,
                "base is not invertible for the given modulus",
            )
            .at(a.call)
        })?;
    }
    let mut e = e.unsigned_abs();
    let mut acc: i128 = 1 % m.abs();
    while e > 0 {
        if e & 1 == 1 {
            acc = acc * b % m.abs();
        }
        b = b * b % m.abs();
        e >>= 1;
    }
    // The result takes the modulus's sign, as `%` does.
    if m < 0 && acc != 0 {
        acc += m;
    }
    Ok(Value::Int(acc as i64))
}

/// The inverse of `b` modulo `m` (`m` > 0), when `b` and `m` are coprime.
fn inverse(b: i128, m: i128) -> Option<i128> {
    let (mut r0, mut r1, mut s0, mut s1) = (b, m, 1i128, 0i128);
    while r1 != 0 {
        let q = r0 / r1;
        (r0, r1) = (r1, r0 - q * r1);
        (s0, s1) = (s1, s0 - q * s1);
    }
    (r0 == 1).then(|| s0.rem_euclid(m))
}

pub(super) fn round(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let x = a.value("number");
    let nd = match a.get("ndigits") {
        None => None,
        Some(Value::Int(n)) => Some(*n),
        Some(Value::Bool(b)) => Some(i64::from(*b)),
        Some(other) => return Err(Error::not_an_integer(other.type_name()).at(a.span("ndigits"))),
    };
    match x {
        // An int past 64 bits rounds to itself, or to a multiple of a power of ten.
        Value::BigInt(_) if nd.is_none_or(|n| n >= 0) => Ok(x.clone()),
        Value::BigInt(n) => Ok(round_big(n, nd.unwrap_or(0).unsigned_abs())),
        Value::Int(_) | Value::Bool(_) => {
            let i = int_arg(a, "number")?;
            match nd {
                Some(n) if n < 0 => Ok(Value::Int(round_int(i, n.unsigned_abs()))),
                _ => Ok(Value::Int(i)),
            }
        }
        Value::Float(f) => match nd {
            None => {
                if f.is_nan() {
                    return Err(Error::new(
                        ExceptionClass::ValueError,
                        "cannot convert float NaN to integer",
                    )
                    .at(a.span("number")));
                }
                // Exact past 64 bits: `round(1e20)` is 100000000000000000000.
                super::pymath::integral(f.round_ties_even()).map_err(|e| e.at(a.span("number")))
            }
            Some(n) => Ok(Value::Float(round_float(*f, n))),
        },
        other => Err(Error::new(
            ExceptionClass::TypeError,
            format!("type {} doesn't define __round__ method", other.type_name()),
        )
        .at(a.span("number"))),
    }
}

/// A big int rounded to a multiple of 10^`places`, ties to even.
fn round_big(n: &num_bigint::BigInt, places: u64) -> Value {
    use num_integer::Integer;
    let Ok(places) = u32::try_from(places) else {
        return Value::Int(0);
    };
    let p = num_bigint::BigInt::from(10).pow(places);
    let (q, r) = n.div_mod_floor(&p);
    let twice: num_bigint::BigInt = &r * 2;
    let up = twice > p || (twice == p && q.is_odd());
    let q = if up { q + 1 } else { q };
    crate::eval::operators::bigint::norm(q * p)
}

/// An int rounded to a multiple of 10^`places`, ties to even.
fn round_int(i: i64, places: u64) -> i64 {
    let Some(p) = u32::try_from(places)
        .ok()
        .and_then(|p| 10i128.checked_pow(p))
    else {
        return 0;
    };
    let i = i128::from(i);
    let (q, r) = (i.div_euclid(p), i.rem_euclid(p));
    let q = match (2 * r).cmp(&p) {
        std::cmp::Ordering::Less => q,
        std::cmp::Ordering::Greater => q + 1,
        std::cmp::Ordering::Equal => q + (q & 1),
    };
    i64::try_from(q * p).unwrap_or(i64::MAX)
}

/// A float rounded to `n` decimal places, as CPython does: from the exact decimal value of
/// the float (Rust's formatting is exact, ties to even), so `round(2.675, 2)` is 2.67.
fn round_float(f: f64, n: i64) -> f64 {
    if !f.is_finite() || f == 0.0 {
        return f;
    }
    if n >= 0 {
        // Past 17 significant digits (and 308 places) nothing changes.
        if n > 330 {
            return f;
        }
        return format!("{f:.*}", n as usize).parse().unwrap_or(f);
    }
    let p = 10f64.powi(n.unsigned_abs().min(400) as i32);
    if !p.is_finite() {
        return 0.0 * f;
    }
    let y = (f / p).round_ties_even() * p;
    if y.is_finite() {
        y
    } else {
        f
    }
}
