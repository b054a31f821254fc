//! Python's ints past 64 bits: `Value::Int` is the fast path, and an operation on ints
//! whose result leaves int64 (or that meets a `Value::BigInt`) is done here on
//! `num_bigint::BigInt`, the result demoted back to `Value::Int` when it fits. Floor
//! division and modulo floor as Python's do; true division rounds correctly to a float.

use std::sync::Arc;

use num_bigint::{BigInt, Sign};
use num_integer::Integer;
use num_traits::{Signed, ToPrimitive, Zero};

use crate::value::Value;
use ragtag_engine::{budget, type_error, value_error, Exception, ExceptionClass};
use ragtag_syntax::ast::BinOp;

/// The most bits an int may have. num-bigint multiplies without FFT, so one product of two
/// ints near this size takes about a second; past it (`10**10**9` has 3.3 billion bits)
/// an operation would run for hours unable to notice Ctrl-C, so it fails at once instead.
pub const MAX_BITS: u64 = 1 << 26;

/// An int (or bool) as a big int.
pub fn to_big(v: &Value) -> Option<BigInt> {
    match v {
        Value::Int(i) => Some(BigInt::from(*i)),
        Value::Bool(b) => Some(BigInt::from(*b as i64)),
        Value::BigInt(n) => Some((**n).clone()),
        _ => None,
    }
}

/// A big int as a value: `Int` when it fits 64 bits.
pub fn norm(n: BigInt) -> Value {
    match n.to_i64() {
        Some(i) => Value::Int(i),
        None => Value::BigInt(Arc::new(n)),
    }
}

/// `float(n)`: an OverflowError past float's range.
pub fn to_f64(n: &BigInt) -> Result<f64, Exception> {
    match n.to_f64() {
        Some(f) if f.is_finite() => Ok(f),
        _ => Err(Exception::new(
            ExceptionClass::OverflowError,
            "int too large to convert to float",
        )),
    }
}

/// Fails before making an int of `bits` bits that is past [`MAX_BITS`] or the memory budget.
fn check_bits(bits: u64) -> Result<(), Exception> {
    budget::check_bytes("int", (bits / 8) as u128)?;
    if bits > MAX_BITS {
        return Err(Exception::new(
            ExceptionClass::ResourceExhaustedError,
            format!(
                "an int of {bits} bits is too large (ragtag's ints hold at most {MAX_BITS} bits)"
            ),
        ));
    }
    Ok(())
}

/// `a op b` where one operand is a big int (or an int op overflowed): None when the other
/// operand is not a number.
pub fn binary(op: BinOp, a: &Value, b: &Value) -> Option<Result<Value, Exception>> {
    match (a, b) {
        (Value::Float(x), n) | (n, Value::Float(x)) => {
            let f = to_big(n)?;
            if matches!(
                op,
                BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge
            ) {
                let o = cmp_float(&f, *x);
                let o = if matches!(a, Value::Float(_)) {
                    o.map(|o| o.reverse())
                } else {
                    o
                };
                return Some(Ok(Value::Bool(compare(op, o))));
            }
            let f = match to_f64(&f) {
                Ok(f) => Value::Float(f),
                Err(e) => return Some(Err(e)),
            };
            let (p, q) = if matches!(a, Value::Float(_)) {
                (a.clone(), f)
            } else {
                (f, b.clone())
            };
            Some(super::python::python_binary(op, &p, &q))
        }
        _ => {
            let (x, y) = (to_big(a)?, to_big(b)?);
            Some(int_op(op, x, y))
        }
    }
}

/// A big int against a float, exactly (as Python compares them); None against NaN.
pub(super) fn cmp_float(n: &BigInt, f: f64) -> Option<std::cmp::Ordering> {
    if f.is_nan() {
        return None;
    }
    if f.is_infinite() {
        return Some(if f > 0.0 {
            std::cmp::Ordering::Less
        } else {
            std::cmp::Ordering::Greater
        });
    }
    let whole: BigInt = num_traits::FromPrimitive::from_f64(f.trunc())?;
    Some(n.cmp(&whole).then(if f.fract() > 0.0 {
        std::cmp::Ordering::Less
    } else if f.fract() < 0.0 {
        std::cmp::Ordering::Greater
    } else {
        std::cmp::Ordering::Equal
    }))
}

fn compare(op: BinOp, o: Option<std::cmp::Ordering>) -> bool {
    match (op, o) {
        (BinOp::Ne, None) => true,
        (_, None) => false,
        (BinOp::Eq, Some(o)) => o.is_eq(),
        (BinOp::Ne, Some(o)) => o.is_ne(),
        (BinOp::Lt, Some(o)) => o.is_lt(),
        (BinOp::Le, Some(o)) => o.is_le(),
        (BinOp::Gt, Some(o)) => o.is_gt(),
        (_, Some(o)) => o.is_ge(),
    }
}

fn zero_div(msg: &str) -> Exception {
    Exception::new(ExceptionClass::ZeroDivisionError, msg)
}

/// `x op y` on ints of any size.
pub fn int_op(op: BinOp, x: BigInt, y: BigInt) -> Result<Value, Exception> {
    Ok(match op {
        BinOp::Add => {
            check_bits(x.bits().max(y.bits()) + 1)?;
            norm(x + y)
        }
        BinOp::Sub => {
            check_bits(x.bits().max(y.bits()) + 1)?;
            norm(x - y)
        }
        BinOp::Mul => {
            check_bits(x.bits() + y.bits())?;
            norm(x * y)
        }
        BinOp::Div => Value::Float(true_div(&x, &y)?),
        BinOp::FloorDiv => {
            if y.is_zero() {
                return Err(zero_div("integer division or modulo by zero"));
            }
            norm(x.div_floor(&y))
        }
        BinOp::Mod => {
            if y.is_zero() {
                return Err(zero_div("integer modulo by zero"));
            }
            norm(x.mod_floor(&y))
        }
        BinOp::Pow => return pow(x, y),
        BinOp::LShift | BinOp::RShift if y.is_negative() => {
            return Err(value_error!("negative shift count"))
        }
        BinOp::LShift => {
            if x.is_zero() {
                return Ok(Value::Int(0));
            }
            let by = y.to_u64().unwrap_or(u64::MAX);
            check_bits(x.bits().saturating_add(by))?;
            norm(x << by as usize)
        }
        BinOp::RShift => match y.to_u64() {
            // num-bigint's `>>` of a negative int rounds down, as Python's does.
            Some(by) if by < x.bits() + 1 => norm(x >> by as usize),
            _ => Value::Int(if x.is_negative() { -1 } else { 0 }),
        },
        BinOp::BitAnd => norm(x & y),
        BinOp::BitOr => norm(x | y),
        BinOp::BitXor => norm(x ^ y),
        BinOp::Eq => Value::Bool(x == y),
        BinOp::Ne => Value::Bool(x != y),
        BinOp::Lt => Value::Bool(x < y),
        BinOp::Le => Value::Bool(x <= y),
        BinOp::Gt => Value::Bool(x > y),
        BinOp::Ge => Value::Bool(x >= y),
        _ => {
            return Err(type_error!(
                "unsupported operand type(s) for {op}: 'int' and 'int'"
            ))
        }
    })
}

/// `x ** y`: a float for a negative exponent, else the exact power (its size checked first).
fn pow(x: BigInt, y: BigInt) -> Result<Value, Exception> {
    if y.is_negative() {
        if x.is_zero() {
            return Err(zero_div("0 cannot be raised to a negative power"));
        }
        let (b, e) = (to_f64(&x)?, y.to_f64().unwrap_or(f64::NEG_INFINITY));
        return Ok(Value::Float(b.powf(e)));
    }
    // 0, 1 and -1 stay small for any exponent.
    if x.is_zero() || x.magnitude() == &1u32.into() {
        let odd = y.is_odd();
        return Ok(Value::Int(match x.to_i64() {
            Some(-1) if !odd => 1,
            Some(v) if y.is_zero() => v.pow(0),
            Some(v) => v,
            None => 0,
        }));
    }
    let e = y.to_u64().unwrap_or(u64::MAX);
    check_bits((x.bits() - 1).saturating_mul(e).saturating_add(1))?;
    let e = u32::try_from(e).map_err(|_| value_error!("exponent too large"))?;
    Ok(norm(num_traits::Pow::pow(x, e)))
}

/// `pow(x, y, m)`: modular exponentiation (a negative `y` takes the inverse of `x` mod `m`).
pub fn pow_mod(x: BigInt, y: BigInt, m: BigInt) -> Result<Value, Exception> {
    if m.is_zero() {
        return Err(value_error!("pow() 3rd argument cannot be 0"));
    }
    let (base, exp) = if y.is_negative() {
        let inv = mod_inverse(&x, &m)
            .ok_or_else(|| value_error!("base is not invertible for the given modulus"))?;
        (inv, -y)
    } else {
        (x, y)
    };
    let mabs = m.abs();
    let r = base.mod_floor(&mabs).modpow(&exp, &mabs);
    // Python's result has the sign of the modulus.
    Ok(norm(if m.is_negative() && !r.is_zero() {
        r + m
    } else {
        r
    }))
}

fn mod_inverse(x: &BigInt, m: &BigInt) -> Option<BigInt> {
    let m = m.abs();
    let g = x.mod_floor(&m).extended_gcd(&m);
    if g.gcd != BigInt::from(1) {
        return None;
    }
    Some(g.x.mod_floor(&m))
}

/// `x / y` to the nearest float, as Python rounds int true division.
pub fn true_div(x: &BigInt, y: &BigInt) -> Result<f64, Exception> {
    if y.is_zero() {
        return Err(zero_div("division by zero"));
    }
    // Exact in a float: divide the floats.
    const EXACT: u64 = 53;
    if x.bits() <= EXACT && y.bits() <= EXACT {
        return Ok(x.to_f64().unwrap_or(0.0) / y.to_f64().unwrap_or(1.0));
    }
    let negative = x.is_negative() != y.is_negative();
    let (a, b) = (x.abs(), y.abs());
    if a.is_zero() {
        return Ok(if negative { -0.0 } else { 0.0 });
    }
    // Scale so that the quotient has 55 bits, keep a sticky bit for the remainder and let
    // the conversion to float round once.
    let shift = a.bits() as i64 - b.bits() as i64 - 55;
    let (num, den) = if shift >= 0 {
        (a, b << shift as usize)
    } else {
        (a << (-shift) as usize, b)
    };
    let (q, r) = num.div_rem(&den);
    let q = (q << 1usize) | BigInt::from(!r.is_zero() as u8);
    let mantissa = q.to_f64().unwrap_or(0.0);
    let exp = shift - 1;
    if exp > 1100 {
        return Err(Exception::new(
            ExceptionClass::OverflowError,
            "integer division result too large for a float",
        ));
    }
    let v = mantissa * 2f64.powi(exp.clamp(-1100, 1100) as i32);
    if v.is_infinite() {
        return Err(Exception::new(
            ExceptionClass::OverflowError,
            "integer division result too large for a float",
        ));
    }
    Ok(if negative { -v } else { v })
}

/// `-n`, `~n` and `abs(n)` of a big int.
pub fn neg(n: &BigInt) -> Value {
    norm(-n)
}

/// `~n`.
pub fn invert(n: &BigInt) -> Value {
    norm(-n - 1)
}

/// Reads an int literal's text (`0x…`, `0o…`, `0b…` or decimal, no underscores).
pub fn parse_literal(text: &str) -> Option<BigInt> {
    let lower = text.to_ascii_lowercase();
    let (radix, body) = match lower.get(..2) {
        Some("0x") => (16, &lower[2..]),
        Some("0o") => (8, &lower[2..]),
        Some("0b") => (2, &lower[2..]),
        _ => (10, lower.as_str()),
    };
    BigInt::parse_bytes(body.as_bytes(), radix)
}

/// The sign and magnitude digits of a big int in a base (for hex, oct, bin and format).
pub fn digits(n: &BigInt, radix: u32) -> (bool, String) {
    (n.sign() == Sign::Minus, n.magnitude().to_str_radix(radix))
}
