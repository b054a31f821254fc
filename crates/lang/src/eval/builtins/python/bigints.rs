//! Python's int builtins on ints of any size: `int(text, base)` as CPython reads it (signs,
//! base prefixes, underscores between digits, the 4300-digit limit), `int(float)` exactly,
//! `hash`, and `int.bit_length`.

use num_bigint::BigInt;
use num_traits::{FromPrimitive, Signed};

use super::super::Builtin;
use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::operators::bigint::{norm, to_big};
use crate::eval::Interp;
use crate::render::tf_text::py_str;
use crate::value::Value;
use ragtag_engine::{value_error, Exception, ExceptionClass};

/// `hash` and the int methods that read ints of any size.
pub static BIGINTS: &[Builtin] = &[
    Builtin::function("hash", "(obj)", hash)
        .doc("Python's hash of a hashable value: equal values hash equal (ints hash to themselves below 2**61 - 1).")
        .examples(&["hash(2**61)", "hash((1, 2)) == hash((1, 2))"]),
    Builtin::method("int.bit_length", "(self)", bit_length)
        .doc("The bits needed to write the int's absolute value in binary.")
        .examples(&["(255).bit_length()", "(2**100).bit_length()"]),
];

/// CPython 3.11's `sys.int_info.default_max_str_digits`.
const MAX_STR_DIGITS: usize = 4300;

fn hash(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    it.hash_value(a.value("obj"), a.span("obj")).map(Value::Int)
}

fn bit_length(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let n = to_big(a.value("self")).ok_or_else(|| {
        Error::new(
            ExceptionClass::TypeError,
            format!(
                "descriptor 'bit_length' for 'int' objects doesn't apply to a '{}' object",
                a.value("self").type_name()
            ),
        )
        .at(a.span("self"))
    })?;
    Ok(Value::Int(n.bits() as i64))
}

/// `int(x, base)`: a str read in `base` (0 reads the prefix), a float truncated exactly,
/// an int as itself.
pub(super) fn int(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    // `int()` is 0 (what `defaultdict(int)` makes for a missing key).
    if a.given("x").is_none() && a.given("base").is_none() {
        return Ok(Value::Int(0));
    }
    let v = a.value("x");
    let base = match a.get("base") {
        None => None,
        Some(b) => Some(crate::value::convert::to_int(b).map_err(|e| a.err_at("base", e))?),
    };
    if let Some(b) = base {
        if !(b == 0 || (2..=36).contains(&b)) {
            return Err(Error::new(
                ExceptionClass::ValueError,
                "int() base must be >= 2 and <= 36, or 0",
            )
            .at(a.span("base")));
        }
    }
    match v {
        Value::Str(s) => parse(s, base.unwrap_or(10) as u32).map_err(|e| a.err_at("x", e)),
        _ if base.is_some() => Err(Error::new(
            ExceptionClass::TypeError,
            "int() can't convert non-string with explicit base",
        )
        .at(a.span("x"))),
        Value::Int(_) | Value::BigInt(_) => Ok(v.clone()),
        Value::Bool(b) => Ok(Value::Int(*b as i64)),
        Value::Float(f) => float_to_int(*f).map_err(|e| a.err_at("x", e)),
        _ => {
            let f = crate::value::convert::to_f64(v).map_err(|e| a.err_at("x", e))?;
            float_to_int(f).map_err(|e| a.err_at("x", e))
        }
    }
}

/// Python's `int(float)`: the float's integral part, exactly.
pub(super) fn float_to_int(f: f64) -> std::result::Result<Value, Exception> {
    if f.is_nan() {
        return Err(value_error!("cannot convert float NaN to integer"));
    }
    if f.is_infinite() {
        return Err(Exception::new(
            ExceptionClass::OverflowError,
            "cannot convert float infinity to integer",
        ));
    }
    Ok(BigInt::from_f64(f.trunc()).map_or(Value::Int(0), norm))
}

/// Reads an int from text as `int(text, base)` does.
pub fn parse(text: &str, base: u32) -> std::result::Result<Value, Exception> {
    let bad = || {
        value_error!(
            "invalid literal for int() with base {base}: {}",
            py_str(text)
        )
    };
    let t = text.trim();
    let (negative, t) = match t.as_bytes().first() {
        Some(b'-') => (true, &t[1..]),
        Some(b'+') => (false, &t[1..]),
        _ => (false, t),
    };
    let lower = t.to_ascii_lowercase();
    let prefix = match lower.get(..2) {
        Some("0x") => Some(16),
        Some("0o") => Some(8),
        Some("0b") => Some(2),
        _ => None,
    };
    let (radix, body, prefixed) = match (base, prefix) {
        (0, Some(r)) => (r, &lower[2..], true),
        (b, Some(r)) if b == r => (r, &lower[2..], true),
        (0, None) => {
            // Base 0 reads decimal without leading zeros (`0`, `00` and `0_0` are fine).
            if lower.starts_with('0') && lower.chars().any(|c| c != '0' && c != '_') {
                return Err(bad());
            }
            (10, lower.as_str(), false)
        }
        (b, _) => (b, lower.as_str(), false),
    };
    // Underscores only single, between digits (or right after a prefix).
    let body = match body.strip_prefix('_') {
        Some(rest) if prefixed => rest,
        _ => body,
    };
    if body.is_empty() || body.starts_with('_') || body.ends_with('_') || body.contains("__") {
        return Err(bad());
    }
    let digits: String = body.chars().filter(|&c| c != '_').collect();
    if !digits.chars().all(|c| c.is_digit(radix)) {
        return Err(bad());
    }
    if !radix.is_power_of_two() && digits.len() > MAX_STR_DIGITS {
        return Err(value_error!(
            "Exceeds the limit ({MAX_STR_DIGITS} digits) for integer string conversion: value has {} digits; use sys.set_int_max_str_digits() to increase the limit",
            digits.len()
        ));
    }
    let n = BigInt::parse_bytes(digits.as_bytes(), radix).ok_or_else(bad)?;
    Ok(norm(if negative { -n } else { n }))
}

/// `abs(n)` of an int.
pub(super) fn abs_int(v: &Value) -> Option<Value> {
    match v {
        Value::Int(i) => Some(
            i.checked_abs()
                .map_or_else(|| norm(BigInt::from(*i).abs()), Value::Int),
        ),
        Value::BigInt(n) => Some(norm(n.abs())),
        _ => None,
    }
}
