//! The functions of `dataclasses` that read dataclasses: `fields`, `asdict`, `astuple`,
//! `replace` and `is_dataclass`, as CPython 3.11 has them.

use std::sync::Arc;

use super::super::{registry, Builtin};
use super::dataclass_methods::fields_of;
use super::dataclasses::{err, fa, flag};
use crate::diagnostic::{Error, Result};
use crate::eval::args::{Args, CallArg};
use crate::eval::Interp;
use crate::value::class::{attr_get, Instance};
use crate::value::{PyDict, Value};
use ragtag_engine::ExceptionClass;

/// `fields`, `asdict`, `astuple`, `replace` and `is_dataclass`.
pub static DATACLASS_FUNCTIONS: &[Builtin] = &[
    Builtin::function("dataclasses.fields", "(class_or_instance)", fields)
        .doc("The fields of a dataclass or of an instance of one, a tuple of Field objects (`.name`, `.type`, `.default`, …) in definition order.")
        .examples(&["from dataclasses import dataclass, fields\n@dataclass\nclass P:\n    x: int\n    y: str\n[f.name for f in fields(P)]"]),
    Builtin::function("dataclasses.asdict", "(obj, *, dict_factory=dict)", asdict)
        .doc("A dataclass instance as a dict of its fields, recursing into dataclasses, lists, tuples and dicts (other values are deep-copied).")
        .examples(&["from dataclasses import dataclass, asdict\n@dataclass\nclass P:\n    x: int\n    y: list\nasdict(P(1, [2]))"]),
    Builtin::function("dataclasses.astuple", "(obj, *, tuple_factory=tuple)", astuple)
        .doc("A dataclass instance as a tuple of its fields, recursing as asdict does.")
        .examples(&["from dataclasses import dataclass, astuple\n@dataclass\nclass P:\n    x: int\n    y: int\nastuple(P(1, 2))"]),
    Builtin::function("dataclasses.replace", "(obj, /, **changes)", replace)
        .doc("A new instance of the dataclass with the fields in `changes` replaced (made through its `__init__`).")
        .examples(&["from dataclasses import dataclass, replace\n@dataclass(frozen=True)\nclass P:\n    x: int\n    y: int\nreplace(P(1, 2), y=5)"]),
    Builtin::function("dataclasses.is_dataclass", "(obj)", is_dataclass)
        .doc("Whether `obj` is a dataclass or an instance of one.")
        .examples(&["from dataclasses import dataclass, is_dataclass\n@dataclass\nclass P:\n    x: int\nis_dataclass(P), is_dataclass(P(1)), is_dataclass(1)"]),
];

fn fields(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let list = fields_of(a.value("class_or_instance")).ok_or_else(|| {
        Error::new(
            ExceptionClass::TypeError,
            "must be called with a dataclass type or instance",
        )
        .at(a.span("class_or_instance"))
    })?;
    Ok(Value::tuple(
        list.into_iter().map(Value::Instance).collect(),
    ))
}

fn is_dataclass(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    Ok(Value::Bool(fields_of(a.value("obj")).is_some()))
}

/// The fields of a dataclass instance (not a class), or CPython's TypeError.
fn instance_fields(a: &Args, what: &str) -> Result<(Arc<Instance>, Vec<Arc<Instance>>)> {
    if let Value::Instance(i) = a.value("obj") {
        if let Some(list) = fields_of(a.value("obj")) {
            return Ok((i.clone(), list));
        }
    }
    Err(Error::new(
        ExceptionClass::TypeError,
        format!("{what}() should be called on dataclass instances"),
    )
    .at(a.span("obj")))
}

/// `asdict`'s and `astuple`'s copy of a value: dataclass instances become dicts (or
/// tuples), lists, tuples and dicts are rebuilt around copies of their items, and anything
/// else is deep-copied.
fn inner(
    it: &mut Interp<'_>,
    v: &Value,
    as_dict: bool,
    factory: &Value,
    a: &Args,
) -> Result<Value> {
    if let (Value::Instance(i), Some(list)) = (v, fields_of(v)) {
        let mut items = Vec::new();
        for f in list {
            let name = fa(&f, "name");
            let Value::Str(n) = &name else { continue };
            let x = attr_get(&i.attrs, n).unwrap_or(Value::None);
            let x = inner(it, &x, as_dict, factory, a)?;
            items.push(if as_dict {
                Value::tuple(vec![name.clone(), x])
            } else {
                x
            });
        }
        return it.call_values(factory, vec![Value::list(items)], a.call);
    }
    Ok(match v {
        Value::List(l) => {
            let mut out = Vec::new();
            for x in l.items() {
                out.push(inner(it, &x, as_dict, factory, a)?);
            }
            Value::list(out)
        }
        Value::Tuple(t) => {
            let mut out = Vec::new();
            for x in t.iter() {
                out.push(inner(it, x, as_dict, factory, a)?);
            }
            Value::tuple(out)
        }
        Value::Dict(d) => {
            let out = PyDict::new(Vec::new()).map_err(Error::from)?;
            for (k, x) in d.items() {
                let k = inner(it, &k, as_dict, factory, a)?;
                let x = inner(it, &x, as_dict, factory, a)?;
                out.insert(k, x).map_err(|e| Error::from(e).at(a.call))?;
            }
            Value::Dict(out)
        }
        v => {
            let memo = PyDict::new(Vec::new()).map_err(Error::from)?;
            super::copy::deep(it, v, &memo, a.call)?
        }
    })
}

fn builtin_value(name: &str) -> Value {
    registry()
        .get(name)
        .map(Value::Builtin)
        .unwrap_or(Value::None)
}

fn asdict(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    instance_fields(a, "asdict")?;
    let factory = a
        .get("dict_factory")
        .cloned()
        .unwrap_or_else(|| builtin_value("dict"));
    inner(it, a.value("obj"), true, &factory, a)
}

fn astuple(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    instance_fields(a, "astuple")?;
    let factory = a
        .get("tuple_factory")
        .cloned()
        .unwrap_or_else(|| builtin_value("tuple"));
    inner(it, a.value("obj"), false, &factory, a)
}

fn replace(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let (i, list) = instance_fields(a, "replace")?;
    let mut args: Vec<CallArg> = Vec::new();
    for f in &list {
        let Value::Str(n) = fa(f, "name") else {
            continue;
        };
        let change = a.kwargs().iter().find(|(k, _, _)| *k == *n);
        if !flag(f, "init") {
            if change.is_some() {
                return Err(err(
                    ExceptionClass::ValueError,
                    format!("field {n} is declared with init=False, it cannot be specified with replace()"),
                    a,
                ));
            }
            continue;
        }
        let value = match change {
            Some((_, v, _)) => v.clone(),
            None => attr_get(&i.attrs, &n).ok_or_else(|| {
                err(
                    ExceptionClass::AttributeError,
                    format!("'{}' object has no attribute '{n}'", i.class.name),
                    a,
                )
            })?,
        };
        args.push(CallArg {
            name: Some(n.to_string()),
            value,
            span: a.call,
        });
    }
    // Names that are not fields go to `__init__`, which refuses them as CPython's does.
    for (k, v, s) in a.kwargs() {
        if !args.iter().any(|c| c.name.as_deref() == Some(k.as_str())) {
            args.push(CallArg {
                name: Some(k.clone()),
                value: v.clone(),
                span: *s,
            });
        }
    }
    it.call(&Value::Class(i.class.clone()), args, a.call)
}
