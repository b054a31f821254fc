//! `json.JSONEncoder` and `json.JSONDecoder`: classes holding `json.dumps`'s and
//! `json.loads`'s options, subclassable (an encoder subclass's `default` is called for the
//! values JSON has no form for), and `json.dumps(obj, cls=…)`.

use std::sync::{Arc, OnceLock};

use super::functools::{class_members, registered};
use crate::diagnostic::{Error, Result};
use crate::eval::args::{Args, CallArg};
use crate::eval::builtins::Builtin;
use crate::eval::Interp;
use crate::value::class::{attr_get, attr_set, Class};
use crate::value::{PyDict, PyList, Value};
use ragtag_engine::ExceptionClass;
use ragtag_syntax::ast::Span;

/// The options an encoder keeps, as `json.dumps` names them.
const ENCODER_OPTIONS: [&str; 5] = [
    "skipkeys",
    "ensure_ascii",
    "indent",
    "separators",
    "sort_keys",
];

/// The methods of JSONEncoder and JSONDecoder.
pub static JSON_CLASSES: &[Builtin] = &[
    Builtin::method(
        "json.JSONEncoder.__init__",
        "(self, *, skipkeys=False, ensure_ascii=True, check_circular=True, allow_nan=True, sort_keys=False, indent=None, separators=None, default=None)",
        encoder_init,
    )
    .doc("Keeps the options `encode` passes to `json.dumps`.")
    .examples(&["import json\njson.JSONEncoder(indent=2).indent"]),
    Builtin::method("json.JSONEncoder.encode", "(self, o)", encode)
        .doc("The JSON text of `o` with this encoder's options; values JSON has no form for go through `self.default`.")
        .examples(&["import json\njson.JSONEncoder(sort_keys=True).encode({'b': 1, 'a': [1, 2]})"]),
    Builtin::method("json.JSONEncoder.default", "(self, o)", default)
        .doc("CPython's TypeError for a value JSON has no form for; a subclass overrides it to return one that has.")
        .examples(&["import json\nclass E(json.JSONEncoder):\n    def default(self, o):\n        return sorted(o)\nE().encode({'s': {3, 1}})"]),
    Builtin::method(
        "json.JSONDecoder.__init__",
        "(self, *, object_hook=None, parse_float=None, parse_int=None, parse_constant=None, strict=True, object_pairs_hook=None)",
        decoder_init,
    )
    .doc("Keeps `object_hook`, called with each decoded object (innermost first).")
    .examples(&["import json\njson.JSONDecoder().decode('[1, 2]')"]),
    Builtin::method("json.JSONDecoder.decode", "(self, s)", decode)
        .doc("The Python value of the JSON text `s`, each object passed through `object_hook` when there is one.")
        .examples(&["import json\njson.JSONDecoder(object_hook=lambda d: sorted(d)).decode('{\"b\": 1, \"a\": 2}')"]),
];

fn class(name: &str) -> Value {
    static CLASSES: OnceLock<Vec<Arc<Class>>> = OnceLock::new();
    let all = CLASSES.get_or_init(|| {
        ["JSONEncoder", "JSONDecoder"]
            .iter()
            .map(|n| {
                let attrs = class_members(JSON_CLASSES, &format!("json.{n}."));
                // Written in Python in CPython (`json.encoder`, `json.decoder`): the
                // evaluator makes instances of such classes and lets their attributes be set.
                let module = if *n == "JSONEncoder" {
                    "json.encoder"
                } else {
                    "json.decoder"
                };
                Class::python(n, module, Vec::new(), attrs)
            })
            .collect()
    });
    all.iter()
        .find(|c| c.name == name)
        .map_or(Value::None, |c| Value::Class(c.clone()))
}

/// `json.JSONEncoder` and `json.JSONDecoder`.
pub fn constant(path: &str) -> Option<Value> {
    match path {
        "json.JSONEncoder" => Some(class("JSONEncoder")),
        "json.JSONDecoder" => Some(class("JSONDecoder")),
        _ => None,
    }
}

fn keep(a: &Args, names: &[&str]) -> Result<Value> {
    let Value::Instance(i) = a.value("self") else {
        return Err(Error::new(ExceptionClass::TypeError, "an instance is needed").at(a.call));
    };
    for n in names {
        attr_set(&i.attrs, n, a.value(n).clone());
    }
    Ok(Value::None)
}

fn encoder_init(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    keep(a, &ENCODER_OPTIONS)?;
    if let (Value::Instance(i), Some(f)) = (a.value("self"), a.get("default")) {
        attr_set(&i.attrs, "default", f.clone());
    }
    Ok(Value::None)
}

fn arg(name: &str, value: Value, span: Span) -> CallArg {
    CallArg {
        name: Some(name.to_string()),
        value,
        span,
    }
}

fn encode(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let me = a.value("self");
    let Value::Instance(i) = me else {
        return Err(Error::new(ExceptionClass::TypeError, "an encoder is needed").at(a.call));
    };
    let mut args = vec![CallArg {
        name: None,
        value: a.value("o").clone(),
        span: a.span("o"),
    }];
    for n in ENCODER_OPTIONS {
        if let Some(v) = attr_get(&i.attrs, n) {
            args.push(arg(n, v, a.call));
        }
    }
    let default = it.get_attr(me.clone(), "default", a.call, a.call)?;
    args.push(arg("default", default, a.call));
    it.call(&Value::Builtin(registered("json.dumps")), args, a.call)
}

fn default(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let name = match a.value("o") {
        Value::Instance(i) => i.class.name.to_string(),
        other => other.type_name().to_string(),
    };
    Err(Error::new(
        ExceptionClass::TypeError,
        format!("Object of type {name} is not JSON serializable"),
    )
    .at(a.call))
}

fn decoder_init(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    keep(a, &["object_hook"])
}

/// Passes each dict in `v` through `hook`, innermost first.
fn hooked(it: &mut Interp<'_>, v: Value, hook: &Value, span: Span) -> Result<Value> {
    match v {
        Value::List(l) => {
            let mut items = Vec::new();
            for x in l.items() {
                items.push(hooked(it, x, hook, span)?);
            }
            Ok(Value::List(PyList::new(items, false)))
        }
        Value::Dict(d) => {
            let mut pairs = Vec::new();
            for (k, x) in d.items() {
                pairs.push((k, hooked(it, x, hook, span)?));
            }
            let d = Value::Dict(PyDict::new(pairs)?);
            it.call_values(hook, vec![d], span)
        }
        other => Ok(other),
    }
}

fn decode(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let Value::Instance(i) = a.value("self") else {
        return Err(Error::new(ExceptionClass::TypeError, "a decoder is needed").at(a.call));
    };
    let s = CallArg {
        name: None,
        value: a.value("s").clone(),
        span: a.span("s"),
    };
    let v = it.call(&Value::Builtin(registered("json.loads")), vec![s], a.call)?;
    match attr_get(&i.attrs, "object_hook") {
        Some(Value::None) | None => Ok(v),
        Some(hook) => hooked(it, v, &hook, a.call),
    }
}

/// `json.dumps(obj, cls=C, **options)`: `C(**options).encode(obj)`.
pub(super) fn dumps_with(it: &mut Interp<'_>, cls: &Value, a: &Args) -> Result<Value> {
    let mut args = Vec::new();
    for n in ENCODER_OPTIONS.iter().chain(&["default"]) {
        if let Some(v) = a.given(n) {
            if !matches!(v, Value::None) || *n == "indent" {
                args.push(arg(n, v.clone(), a.call));
            }
        }
    }
    let encoder = it.call(cls, args, a.call)?;
    let f = it.get_attr(encoder, "encode", a.call, a.call)?;
    it.call_values(&f, vec![a.value("obj").clone()], a.call)
}
