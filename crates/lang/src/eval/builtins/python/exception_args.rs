//! `e.args` of a builtin exception: the arguments it was made with (`KeyError('k').args ==
//! ('k',)`). An exception value holds only its class and message, so the arguments of the
//! exceptions the program makes are remembered by class and message (the last few hundred),
//! which a raised and caught exception keeps; one ragtag raised itself has its message as
//! its one argument (a KeyError's key read back from its repr).

use std::cell::RefCell;
use std::collections::HashMap;

use crate::value::Value;
use ragtag_engine::{Exception, ExceptionClass};

const KEEP: usize = 512;

thread_local! {
    static ARGS: RefCell<HashMap<(String, String), Vec<Value>>> = RefCell::new(HashMap::new());
}

/// Remembers the arguments an exception of `class` with `message` was made with.
pub fn remember(class: ExceptionClass, message: &str, args: Vec<Value>) {
    ARGS.with(|m| {
        let mut m = m.borrow_mut();
        if m.len() >= KEEP {
            m.clear();
        }
        m.insert((class.name().to_string(), message.to_string()), args);
    });
}

/// `e.args`.
pub fn args_of(e: &Exception) -> Value {
    let known = ARGS.with(|m| {
        m.borrow()
            .get(&(e.class.name().to_string(), e.message.clone()))
            .cloned()
    });
    if let Some(args) = known {
        return Value::tuple(args);
    }
    if e.message.is_empty() {
        return Value::tuple(Vec::new());
    }
    if e.class == ExceptionClass::KeyError {
        return Value::tuple(vec![key_of(&e.message)]);
    }
    Value::tuple(vec![Value::str(&e.message)])
}

/// A KeyError's key from its repr, for the simple keys (a str, an int) ragtag raises with.
fn key_of(repr: &str) -> Value {
    let quoted = |q: char| {
        repr.len() >= 2
            && repr.starts_with(q)
            && repr.ends_with(q)
            && !repr[1..repr.len() - 1].contains(['\\', q])
    };
    if quoted('\'') || quoted('"') {
        return Value::str(&repr[1..repr.len() - 1]);
    }
    if let Ok(i) = repr.parse::<i64>() {
        return Value::Int(i);
    }
    Value::str(repr)
}

/// `e.msg`, `e.pos`, `e.lineno`, `e.colno` and `e.doc`-less parts of a `json.JSONDecodeError`
/// (a ValueError whose message is `MSG: line L column C (char P)`); None for other errors.
pub fn json_error_attr(e: &Exception, name: &str) -> Option<Value> {
    if e.class != ExceptionClass::ValueError {
        return None;
    }
    let (msg, rest) = e.message.rsplit_once(": line ")?;
    let (line, rest) = rest.split_once(" column ")?;
    let (col, rest) = rest.split_once(" (char ")?;
    let pos = rest.strip_suffix(')')?;
    let int = |s: &str| s.parse::<i64>().ok().map(Value::Int);
    match name {
        "msg" => Some(Value::str(msg)),
        "lineno" => int(line),
        "colno" => int(col),
        "pos" => int(pos),
        _ => None,
    }
}
