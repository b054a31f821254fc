//! `json.dump(obj, fp, …)` and `json.load(fp)`: `json.dumps` written with the file's
//! `write`, and `json.loads` of what its `read` returns (any object with those methods).

use super::super::{registry, Builtin};
use crate::diagnostic::{Error, Result};
use crate::eval::args::{Args, CallArg};
use crate::eval::Interp;
use crate::value::Value;
use ragtag_engine::ExceptionClass;

/// `json.dump` and `json.load`.
pub static JSON_FILES: &[Builtin] = &[
    Builtin::function(
        "json.dump",
        "(obj, fp, *, skipkeys=False, ensure_ascii=True, indent=None, separators=None, default=None, sort_keys=False)",
        dump,
    )
    .doc("Writes the JSON text of `obj` to the file `fp` (what `json.dumps` gives, same options).")
    .examples(&["import json\nwith open('d.json', 'w') as f:\n    json.dump({'a': [1, 2]}, f, indent=2)\nopen('d.json').read()"]),
    Builtin::function("json.load", "(fp)", load)
        .doc("The Python value of the JSON text read from the file `fp`.")
        .examples(&["import json\nwith open('d.json', 'w') as f:\n    json.dump({'a': 1}, f)\nwith open('d.json') as f:\n    v = json.load(f)\nv"]),
];

fn builtin(path: &str) -> Result<Value> {
    registry()
        .get(path)
        .map(Value::Builtin)
        .ok_or_else(|| Error::new(ExceptionClass::NameError, format!("no builtin {path}")))
}

fn arg(value: Value, name: Option<&str>, a: &Args) -> CallArg {
    CallArg {
        name: name.map(str::to_string),
        value,
        span: a.call,
    }
}

fn dump(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let mut args = vec![arg(a.value("obj").clone(), None, a)];
    for name in [
        "skipkeys",
        "ensure_ascii",
        "indent",
        "separators",
        "default",
        "sort_keys",
    ] {
        if let Some(v) = a.given(name) {
            args.push(arg(v.clone(), Some(name), a));
        }
    }
    let text = it.call(&builtin("json.dumps")?, args, a.call)?;
    let write = it.get_attr(a.value("fp").clone(), "write", a.span("fp"), a.span("fp"))?;
    it.call(&write, vec![arg(text, None, a)], a.call)?;
    Ok(Value::None)
}

fn load(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let read = it.get_attr(a.value("fp").clone(), "read", a.span("fp"), a.span("fp"))?;
    let text = it.call(&read, Vec::new(), a.call)?;
    it.call(&builtin("json.loads")?, vec![arg(text, None, a)], a.call)
}
