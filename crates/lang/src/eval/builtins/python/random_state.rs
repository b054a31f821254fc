//! `random.getstate` and `random.setstate`: the Mersenne Twister's 624 words and position
//! plus gauss's kept value, in CPython's form `(3, (w0, …, w623, pos), gauss_next)`, so a
//! state saved and restored replays the same draws.

use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::builtins::Builtin;
use crate::eval::{rng, Interp};
use crate::value::Value;
use ragtag_engine::random::mt19937::Mt19937;
use ragtag_engine::ExceptionClass;

/// `random.getstate` and `random.setstate`.
pub static RANDOM_STATE: &[Builtin] = &[
    Builtin::function("random.getstate", "()", getstate)
        .doc("The generator's state as CPython gives it: (3, a tuple of 625 ints, gauss's kept value or None).")
        .examples(&["import random\ns = random.getstate()\na = random.random()\nrandom.setstate(s)\na == random.random()"]),
    Builtin::function("random.setstate", "(state, /)", setstate)
        .doc("Restores a state getstate returned: the draws that followed it come again.")
        .examples(&["import random\nrandom.seed(1)\ns = random.getstate()\nx = random.randint(1, 100)\nrandom.setstate(s)\nx == random.randint(1, 100)"]),
];

fn getstate(_: &mut Interp<'_>, _: &Args) -> Result<Value> {
    rng::with(|s| {
        let (words, pos) = s.python.words();
        let mut items: Vec<Value> = words.iter().map(|w| Value::Int(i64::from(*w))).collect();
        items.push(Value::Int(pos as i64));
        let gauss = s.python_gauss.map_or(Value::None, Value::Float);
        Ok(Value::tuple(vec![
            Value::Int(3),
            Value::tuple(items),
            gauss,
        ]))
    })
}

fn setstate(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let err = |class, m: &str| Error::new(class, m.to_string()).at(a.span("state"));
    let t = match a.value("state") {
        Value::Tuple(t) => t.to_vec(),
        Value::List(l) => l.items(),
        _ => {
            return Err(err(
                ExceptionClass::TypeError,
                "state vector must be a tuple",
            ))
        }
    };
    let [version, words, gauss] = t.as_slice() else {
        return Err(err(
            ExceptionClass::ValueError,
            &format!("not enough values to unpack (expected 3, got {})", t.len()),
        ));
    };
    // Version 2 (Python 2's) holds the same words.
    if !matches!(version, Value::Int(2 | 3)) {
        let shown = crate::render::tf_text::repr_of(version);
        return Err(err(
            ExceptionClass::ValueError,
            &format!("state with version {shown} passed to Random.setstate() of version 3"),
        ));
    }
    let Value::Tuple(w) = words else {
        return Err(err(
            ExceptionClass::TypeError,
            "state vector must be a tuple",
        ));
    };
    if w.len() != 625 {
        return Err(err(
            ExceptionClass::ValueError,
            "state vector is the wrong size",
        ));
    }
    let mut state = [0u32; 624];
    for (slot, v) in state.iter_mut().zip(w.iter()) {
        *slot = match v {
            Value::Int(i) => u32::try_from(*i).map_err(|_| {
                err(
                    ExceptionClass::OverflowError,
                    "Python int too large to convert to C unsigned long",
                )
            })?,
            other => {
                return Err(err(
                    ExceptionClass::TypeError,
                    &format!(
                        "'{}' object cannot be interpreted as an integer",
                        other.type_name()
                    ),
                ))
            }
        };
    }
    let pos = match &w[624] {
        Value::Int(i) if (0..=624).contains(i) => *i as usize,
        _ => return Err(err(ExceptionClass::ValueError, "invalid state")),
    };
    let gauss = match gauss {
        Value::None => None,
        Value::Float(f) => Some(*f),
        Value::Int(i) => Some(*i as f64),
        _ => return Err(err(ExceptionClass::TypeError, "must be real number")),
    };
    rng::with(|s| {
        s.python = Mt19937::from_words(state, pos);
        s.python_gauss = gauss;
    });
    Ok(Value::None)
}
