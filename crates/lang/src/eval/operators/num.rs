//! Python's numbers as the operators see them: an int or a float, compared exactly with
//! each other (as CPython compares an int with a float), and float powers with CPython's
//! errors.

use num_bigint::BigInt;

use crate::value::Value;
use ragtag_engine::{Exception, ExceptionClass};

#[derive(Clone, Copy)]
pub(super) enum Num {
    I(i64),
    F(f64),
}

pub(super) fn num(v: &Value) -> Option<Num> {
    match v {
        Value::Bool(b) => Some(Num::I(*b as i64)),
        Value::Int(i) => Some(Num::I(*i)),
        Value::Float(f) => Some(Num::F(*f)),
        _ => None,
    }
}

impl PartialEq for Num {
    fn eq(&self, other: &Self) -> bool {
        match (*self, *other) {
            (Num::I(a), Num::I(b)) => a == b,
            (a, b) => a.cmp_exact(b) == Some(std::cmp::Ordering::Equal),
        }
    }
}

impl Num {
    pub(super) fn f(self) -> f64 {
        match self {
            Num::I(i) => i as f64,
            Num::F(f) => f,
        }
    }

    /// The order of two numbers by their exact values, as CPython compares an int with a
    /// float (`2**53 + 1 > 2.0**53`); None against NaN.
    pub(super) fn cmp_exact(self, other: Num) -> Option<std::cmp::Ordering> {
        /// Ints up to 2**53 are exact as floats.
        const EXACT: u64 = 1 << 53;
        match (self, other) {
            (Num::I(a), Num::I(b)) => Some(a.cmp(&b)),
            (Num::F(a), Num::F(b)) => a.partial_cmp(&b),
            (Num::I(i), Num::F(f)) if i.unsigned_abs() <= EXACT => (i as f64).partial_cmp(&f),
            (Num::F(f), Num::I(i)) if i.unsigned_abs() <= EXACT => f.partial_cmp(&(i as f64)),
            (Num::I(i), Num::F(f)) => super::bigint::cmp_float(&BigInt::from(i), f),
            (Num::F(f), Num::I(i)) => {
                super::bigint::cmp_float(&BigInt::from(i), f).map(|o| o.reverse())
            }
        }
    }
}

/// `p ** q` on floats, with CPython's errors: zero to a negative power divides by zero, and
/// a finite result too large for a float overflows.
pub(super) fn float_pow(p: f64, q: f64) -> Result<Value, Exception> {
    if p == 0.0 && q < 0.0 && q.is_finite() {
        return Err(zero_div("0.0 cannot be raised to a negative power"));
    }
    let r = p.powf(q);
    if r.is_infinite() && p.is_finite() && q.is_finite() {
        return Err(Exception::new(
            ExceptionClass::OverflowError,
            "(34, 'Numerical result out of range')",
        ));
    }
    Ok(Value::Float(r))
}

pub(super) fn zero_div(msg: &str) -> Exception {
    Exception::new(ExceptionClass::ZeroDivisionError, msg)
}
