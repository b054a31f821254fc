//! The `slice` builtin and the attributes of slice objects (`s.start`, `s.indices(n)`).

use std::sync::Arc;

use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::builtins::Builtin;
use crate::eval::convert;
use crate::eval::Interp;
use crate::value::range::slice_indices;
use crate::value::slice::PySlice;
use crate::value::Value;
use ragtag_engine::ExceptionClass;

/// `slice(…)`, `slice.start`, `.stop`, `.step` and `.indices`.
pub static SLICES: &[Builtin] = &[
    Builtin::function("slice", "(*args)", slice)
        .doc(
            "Python's slice object: `slice(stop)` or `slice(start, stop, step=None)`, what \
             `x[a:b:c]` passes to a class's `__getitem__`.",
        )
        .examples(&["slice(1, 3)", "[0, 1, 2, 3, 4][slice(1, None, 2)]"]),
    Builtin::property("slice.start", |_, a| Ok(this(a).start.clone()))
        .doc("The start of the slice (None when not given).")
        .examples(&["slice(1, 5).start"]),
    Builtin::property("slice.stop", |_, a| Ok(this(a).stop.clone()))
        .doc("The stop of the slice.")
        .examples(&["slice(1, 5).stop"]),
    Builtin::property("slice.step", |_, a| Ok(this(a).step.clone()))
        .doc("The step of the slice (None when not given).")
        .examples(&["slice(1, 5, 2).step"]),
    Builtin::method("slice.indices", "(self, len)", indices)
        .doc(
            "The `(start, stop, step)` the slice takes in a sequence of `len` items: bounds \
             clipped and negatives counted from the end.",
        )
        .examples(&[
            "slice(None, None, -1).indices(5)",
            "slice(-3, 100).indices(10)",
        ]),
];

fn this(a: &Args) -> PySlice {
    match a.value("self") {
        Value::Slice(s) => (**s).clone(),
        _ => PySlice {
            start: Value::None,
            stop: Value::None,
            step: Value::None,
        },
    }
}

fn slice(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let args: Vec<Value> = a.rest().iter().map(|(v, _)| v.clone()).collect();
    let s = match args.as_slice() {
        [stop] => PySlice {
            start: Value::None,
            stop: stop.clone(),
            step: Value::None,
        },
        [start, stop] => PySlice {
            start: start.clone(),
            stop: stop.clone(),
            step: Value::None,
        },
        [start, stop, step] => PySlice {
            start: start.clone(),
            stop: stop.clone(),
            step: step.clone(),
        },
        [] => {
            return Err(Error::new(
                ExceptionClass::TypeError,
                "slice expected at least 1 argument, got 0",
            )
            .at(a.call))
        }
        more => {
            return Err(Error::new(
                ExceptionClass::TypeError,
                format!("slice expected at most 3 arguments, got {}", more.len()),
            )
            .at(a.call))
        }
    };
    Ok(Value::Slice(Arc::new(s)))
}

/// A bound of a slice as an int (`None` stays `None`), CPython's TypeError otherwise.
pub fn bound(v: &Value) -> std::result::Result<Option<i64>, ragtag_engine::Exception> {
    match v {
        Value::None => Ok(None),
        v => convert::to_int(v).map(Some).map_err(|_| {
            ragtag_engine::Exception::new(
                ExceptionClass::TypeError,
                "slice indices must be integers or None or have an __index__ method",
            )
        }),
    }
}

fn indices(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let s = this(a);
    let n = a.int("len")?;
    if n < 0 {
        return Err(
            Error::new(ExceptionClass::ValueError, "length should not be negative")
                .at(a.span("len")),
        );
    }
    let [start, stop, step] = s.parts().map(bound);
    let (start, stop, step) = (
        start.map_err(|e| a.err_at("self", e))?,
        stop.map_err(|e| a.err_at("self", e))?,
        step.map_err(|e| a.err_at("self", e))?,
    );
    let (p, q, r) =
        slice_indices(start, stop, step, i128::from(n)).map_err(|e| a.err_at("self", e))?;
    Ok(Value::tuple(vec![
        Value::Int(p as i64),
        Value::Int(q as i64),
        Value::Int(r as i64),
    ]))
}
