//! Numbers to and from text: `tf.strings.to_number` and `tf.strings.as_string` (C `printf`
//! formatting, as TensorFlow's AsString kernel uses).

use std::fmt::Write as _;

use super::{map_values, same_shape, str_col};
use crate::buffer::Buffer;
use crate::dtype::DType;
use crate::error::Result;
use crate::ragged::Array;
use crate::strings::{StrWriter, StringBuf};
use crate::{budget, interrupt, size};
use crate::{invalid_arg, type_error};

/// `tf.strings.to_number`: parses every string as a number of `out_type` (float32, float64,
/// int32 or int64). Surrounding whitespace is allowed; anything else that is not a number
/// (or an integer out of range) is an InvalidArgumentError naming the string.
pub fn to_number(a: &Array, out_type: DType) -> Result<Array> {
    if !out_type.is_numeric() {
        return Err(type_error!(
            "out_type must be float32, float64, int32 or int64, not {out_type}"
        ));
    }
    map_values(a, |t| {
        let col = str_col(t, "tf.strings.to_number")?;
        let bad = |i: usize, s: &[u8]| {
            invalid_arg!(
                "tf.strings.to_number could not convert b'{}' (flat index {i}) to {out_type}",
                s.escape_ascii()
            )
        };
        let data = crate::dispatch!(numbers dtype out_type, T => {
            let mut v: Vec<T> = budget::vec("tf.strings.to_number", col.len())?;
            for (i, s) in col.iter().enumerate() {
                let text = std::str::from_utf8(s.trim_ascii()).map_err(|_| bad(i, s))?;
                v.push(parse_number::<T>(text, out_type.is_int()).ok_or_else(|| bad(i, s))?);
            }
            Buffer::from(v)
        }, _ => unreachable!("out_type checked above"));
        Ok(same_shape(t, data))
    })
}

/// Rust's parser, minus what TensorFlow's parsers reject: its integer parser takes an
/// optional `-` but no `+`.
fn parse_number<T: std::str::FromStr>(text: &str, int: bool) -> Option<T> {
    if text.is_empty() || (int && text.starts_with('+')) {
        return None;
    }
    text.parse().ok()
}

/// The options of `tf.strings.as_string`.
#[derive(Debug, Clone, Default)]
pub struct AsStringSpec {
    /// Digits after the point (`%.Nf`/`%.Ne`) or significant digits (`%.Ng`); `None` is C's
    /// default of 6.
    pub precision: Option<usize>,
    /// `%e` formatting.
    pub scientific: bool,
    /// `%g` formatting (the shorter of `%f` and `%e`, trailing zeros removed).
    pub shortest: bool,
    /// Minimum width, padded as `fill` says.
    pub width: Option<usize>,
    /// `''`, `' '`, `'0'`, `'-'` (left-align) or `'+'` (always show the sign).
    pub fill: String,
}

/// `tf.strings.as_string`: every element formatted as text. Integers print as `%d`, floats
/// as `%f` (or `%e`/`%g`), bools as `true`/`false`; strings pass through.
pub fn as_string(a: &Array, spec: &AsStringSpec) -> Result<Array> {
    if spec.fill.chars().count() > 1 {
        return Err(invalid_arg!(
            "fill must be at most one character, not '{}'",
            spec.fill
        ));
    }
    if !matches!(spec.fill.as_str(), "" | " " | "0" | "-" | "+") {
        return Err(invalid_arg!(
            "fill must be '', ' ', '0', '-' or '+' (a printf flag), not '{}'",
            spec.fill
        ));
    }
    if spec.scientific && spec.shortest {
        return Err(invalid_arg!("scientific and shortest cannot both be True"));
    }
    let dtype = a.dtype();
    if !dtype.is_float() && (spec.scientific || spec.shortest || spec.precision.is_some()) {
        return Err(invalid_arg!(
            "precision, scientific and shortest apply only to float tensors, not {dtype}"
        ));
    }
    // The longest element: the width, or sign, up to 309 integer digits, the point, the
    // decimals and an exponent; the whole result is checked against the budget up front,
    // so the padding below cannot run away.
    let longest = spec
        .width
        .unwrap_or(0)
        .max(spec.precision.unwrap_or(6).saturating_add(320));
    map_values(a, |t| {
        let n = t.size();
        let bytes = size::mul(n, longest)?;
        budget::check_bytes("tf.strings.as_string", bytes as u128)?;
        let mut out = StringBuf::try_with_capacity("tf.strings.as_string", n, n.saturating_mul(8))?;
        // Formatting is slow next to a copy (tens of nanoseconds a number): the interrupt
        // flag is looked at every CHUNK elements.
        let tick = |i: usize| {
            if i.is_multiple_of(interrupt::CHUNK) {
                interrupt::check()
            } else {
                Ok(())
            }
        };
        crate::dispatch!(elements t.data(), T: v => {
            let mut scratch = String::new();
            for (i, &x) in v.iter().enumerate() {
                tick(i)?;
                if T::DTYPE == DType::Bool {
                    out.push(if x.to_i64() != 0 { b"true" } else { b"false" });
                } else if T::DTYPE.is_float() {
                    out.push_with(|w| format_float(w, x.to_f64(), spec, &mut scratch));
                } else {
                    out.push_with(|w| format_int(w, x.to_i64(), spec));
                }
            }
        }, Buffer::Str(_) => {
            let col = str_col(t, "tf.strings.as_string")?;
            for s in col.iter() {
                out.push_with(|w| pad(w, b"", s, spec, false));
            }
        });
        Ok(same_shape(t, Buffer::Str(out)))
    })
}

/// Writes `sign` then `body`, padded to the width: spaces on the left, spaces on the right
/// (`-`), or zeros between sign and digits (`0`, numbers only).
fn pad(w: &mut StrWriter<'_>, sign: &[u8], body: &[u8], spec: &AsStringSpec, zero_ok: bool) {
    let len = sign.len() + body.len();
    let fill = spec.width.unwrap_or(0).saturating_sub(len);
    match spec.fill.as_str() {
        "-" => {
            w.bytes(sign);
            w.bytes(body);
            w.repeat(b' ', fill);
        }
        "0" if zero_ok => {
            w.bytes(sign);
            w.repeat(b'0', fill);
            w.bytes(body);
        }
        _ => {
            w.repeat(b' ', fill);
            w.bytes(sign);
            w.bytes(body);
        }
    }
}

/// The sign printf shows for a number.
fn sign_of(negative: bool, spec: &AsStringSpec) -> &'static [u8] {
    match (negative, spec.fill.as_str()) {
        (true, _) => b"-",
        (false, "+") => b"+",
        (false, " ") => b" ",
        _ => b"",
    }
}

fn format_int(w: &mut StrWriter<'_>, x: i64, spec: &AsStringSpec) {
    let mut digits = [0u8; 20];
    let mut k = digits.len();
    let mut m = x.unsigned_abs();
    loop {
        k -= 1;
        digits[k] = b'0' + (m % 10) as u8;
        m /= 10;
        if m == 0 {
            break;
        }
    }
    pad(w, sign_of(x < 0, spec), &digits[k..], spec, true);
}

/// Formats `x` as C's `%f`, `%e` or `%g` with the spec's precision, width and flags;
/// `scratch` is reused across elements for the digits before padding.
fn format_float(w: &mut StrWriter<'_>, x: f64, spec: &AsStringSpec, scratch: &mut String) {
    let sign = sign_of(x.is_sign_negative() && !x.is_nan(), spec);
    if !x.is_finite() {
        let body: &[u8] = if x.is_nan() { b"nan" } else { b"inf" };
        pad(w, sign, body, spec, false);
        return;
    }
    scratch.clear();
    let x = x.abs();
    let p = spec.precision.unwrap_or(6);
    if spec.scientific {
        write_exp(scratch, x, p);
    } else if spec.shortest {
        write_general(scratch, x, p);
    } else {
        write_fixed(scratch, x, p);
    }
    pad(w, sign, scratch.as_bytes(), spec, true);
}

/// Appends C's exponent suffix: `e`, a sign, and at least two digits.
fn push_exp(out: &mut String, e: i32) {
    let _ = write!(
        out,
        "e{}{:02}",
        if e < 0 { '-' } else { '+' },
        e.unsigned_abs()
    );
}

/// Appends Rust's `{:.p$e}` of `x` and splits off its exponent: returns where the `e` was
/// (the mantissa ends there) and the exponent.
/// A precision past [`EXACT_DIGITS`] only appends zeros: Rust's formatter refuses
/// precisions above 65535, so the digits are written up to that point and zero-padded.
fn rust_exp(out: &mut String, x: f64, p: usize) -> (usize, i32) {
    let start = out.len();
    let q = p.min(EXACT_DIGITS);
    let _ = write!(out, "{x:.q$e}");
    let epos = out[start..].find('e').map_or(out.len(), |k| start + k);
    let e = out[epos..].trim_start_matches('e').parse().unwrap_or(0);
    out.truncate(epos);
    out.extend(std::iter::repeat_n('0', p - q));
    (out.len(), e)
}

/// More decimals than any f64 has: its exact decimal expansion ends within 1074 digits
/// after the point (and within 767 significant digits), so further digits are all zero.
const EXACT_DIGITS: usize = 1100;

/// C's `%.pf` (Python's `{:.pf}`) for any precision (see `rust_exp` for precisions past
/// `EXACT_DIGITS`); the caller checks `p` against the memory budget.
pub fn write_fixed(out: &mut String, x: f64, p: usize) {
    let q = p.min(EXACT_DIGITS);
    let _ = write!(out, "{x:.q$}");
    out.extend(std::iter::repeat_n('0', p - q));
}

/// C's `%.pe`: one digit, `p` decimals, and an exponent of at least two digits.
fn write_exp(out: &mut String, x: f64, p: usize) {
    let (_, e) = rust_exp(out, x, p);
    push_exp(out, e);
}

/// C's `%.pg`: `%e` when the exponent is below -4 or at least the precision, else `%f`,
/// with trailing zeros (and a bare point) removed.
fn write_general(out: &mut String, x: f64, p: usize) {
    let p = p.max(1);
    let start = out.len();
    let (_, e) = rust_exp(out, x, p - 1);
    if e < -4 || e as i64 >= p as i64 {
        trim_fraction(out, start);
        push_exp(out, e);
    } else {
        out.truncate(start);
        let decimals = (p as i64 - 1 - e as i64).max(0) as usize;
        write_fixed(out, x, decimals);
        trim_fraction(out, start);
    }
}

/// Removes trailing zeros after a decimal point, and the point itself when bare.
fn trim_fraction(out: &mut String, start: usize) {
    if out[start..].contains('.') {
        let trimmed = out.trim_end_matches('0').trim_end_matches('.').len();
        out.truncate(trimmed.max(start));
    }
}
