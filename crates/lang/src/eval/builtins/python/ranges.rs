//! The attributes and methods of `range` objects (`r.start`, `r.index(x)`).

use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::builtins::Builtin;
use crate::eval::Interp;
use crate::render::tf_text::repr_of;
use crate::value::range::PyRange;
use crate::value::Value;
use ragtag_engine::ExceptionClass;

/// `range.start`, `.stop`, `.step`, `.index` and `.count`.
pub static RANGES: &[Builtin] = &[
    Builtin::property("range.start", |_, a| Ok(Value::Int(this(a).start)))
        .doc("The first value of the range (0 when only `stop` was given).")
        .examples(&["range(2, 9, 3).start"]),
    Builtin::property("range.stop", |_, a| Ok(Value::Int(this(a).stop)))
        .doc("The bound of the range, never reached.")
        .examples(&["range(2, 9, 3).stop"]),
    Builtin::property("range.step", |_, a| Ok(Value::Int(this(a).step)))
        .doc("The difference between neighbouring values (1 unless given).")
        .examples(&["range(2, 9, 3).step"]),
    Builtin::method("range.index", "(self, value)", index)
        .doc("The position of `value` in the range (computed, not searched); a ValueError if absent.")
        .examples(&["range(0, 10**12, 5).index(25)"]),
    Builtin::method("range.count", "(self, value)", count)
        .doc("How many times `value` occurs: 0 or 1 for an int.")
        .examples(&["range(5).count(3)"]),
];

fn this(a: &Args) -> PyRange {
    match a.value("self") {
        Value::Range(r) => **r,
        _ => PyRange::new(0, 0, 1),
    }
}

/// The int a value stands for in a range (`None`: not an int, so never an item).
fn as_int(v: &Value) -> Option<i128> {
    match v {
        Value::Int(i) => Some(i128::from(*i)),
        Value::Bool(b) => Some(i128::from(*b)),
        _ => None,
    }
}

fn index(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let r = this(a);
    let v = a.value("value");
    let found = match as_int(v) {
        Some(i) => r.index_of(i),
        None if matches!(v, Value::Float(_)) => {
            let items = crate::eval::subscript::iterate(a.value("self"))
                .map_err(|e| a.err_at("self", e))?;
            items
                .iter()
                .position(|x| crate::eval::operators::python_eq(x, v))
                .map(|p| p as i128)
        }
        None => None,
    };
    match found {
        Some(p) => Ok(Value::Int(p as i64)),
        None => Err(Error::new(
            ExceptionClass::ValueError,
            format!("{} is not in range", repr_of(v)),
        )
        .at(a.span("value"))),
    }
}

fn count(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let r = this(a);
    let v = a.value("value");
    Ok(Value::Int(match as_int(v) {
        Some(i) => i64::from(r.contains_int(i)),
        None if matches!(v, Value::Float(_)) => crate::eval::subscript::iterate(a.value("self"))
            .map_err(|e| a.err_at("self", e))?
            .iter()
            .filter(|x| crate::eval::operators::python_eq(x, v))
            .count() as i64,
        None => 0,
    }))
}
