//! The methods of `object` and `type` that user classes reach through `super()` or by
//! name: `object.__setattr__`, `object.__format__`, `object.__init_subclass__`, `C.mro()`.

use std::sync::Arc;

use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::builtins::Builtin;
use crate::eval::Interp;
use crate::render::tf_text::str_of;
use crate::value::{Key, Value};
use ragtag_engine::ExceptionClass;

/// `object`'s special methods and `type.mro`.
pub static PROTOCOLS: &[Builtin] = &[
    Builtin::method("type.mro", "(self)", mro)
        .doc("The class's method resolution order as a list (CPython's C3 linearization).")
        .examples(&["class A: pass\nclass B(A): pass\nB.mro()"]),
    Builtin::method("object.__setattr__", "(self, name, value)", setattr)
        .doc("Sets an attribute without the class's own `__setattr__`: what a `__setattr__` calls to store.")
        .examples(&["class A:\n    def __setattr__(self, k, v):\n        object.__setattr__(self, k, v * 2)\na = A()\na.x = 2\na.x"]),
    Builtin::method("object.__delattr__", "(self, name)", delattr)
        .doc("Removes an attribute without the class's own `__delattr__`.")
        .examples(&["class A: pass\na = A()\na.x = 1\nobject.__delattr__(a, 'x')\nhasattr(a, 'x')"]),
    Builtin::method("object.__format__", "(self, format_spec)", format)
        .doc("`str(self)` for an empty spec; any other spec is a TypeError, as CPython's.")
        .examples(&["class A: pass\nobject.__format__(A(), '') != ''"]),
    Builtin::method("object.__init_subclass__", "(self)", init_subclass)
        .doc("What a new subclass's bases do with it when none defines `__init_subclass__`: nothing (and it takes no keywords).")
        .examples(&["class Base:\n    seen = []\n    def __init_subclass__(cls):\n        super().__init_subclass__()\n        Base.seen.append(cls.__name__)\nclass A(Base): pass\nBase.seen"]),
    Builtin::method("object.__hash__", "(self)", hash)
        .doc("The identity hash every object has unless its class says otherwise.")
        .examples(&["class A: pass\na = A()\nobject.__hash__(a) == object.__hash__(a)"]),
];

fn name(a: &Args) -> Result<String> {
    match a.value("name") {
        Value::Str(s) => Ok(s.to_string()),
        other => Err(Error::new(
            ExceptionClass::TypeError,
            format!("attribute name must be string, not '{}'", other.type_name()),
        )
        .at(a.span("name"))),
    }
}

fn init_subclass(_: &mut Interp<'_>, _: &Args) -> Result<Value> {
    Ok(Value::None)
}

fn mro(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    match a.value("self") {
        Value::Class(c) => Ok(Value::list(crate::eval::protocols::full_mro(c))),
        Value::ErrorClass(k) => Ok(Value::list(crate::eval::protocols::error_class_mro(*k))),
        other => Ok(Value::list(vec![other.clone()])),
    }
}

fn setattr(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let n = name(a)?;
    if !it.set_attr_raw(a.value("self"), &n, a.value("value").clone(), a.call)? {
        return Err(unsettable(a));
    }
    Ok(Value::None)
}

fn delattr(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let n = name(a)?;
    if !it.del_attr_raw(a.value("self"), &n, a.call)? {
        return Err(unsettable(a));
    }
    Ok(Value::None)
}

fn unsettable(a: &Args) -> Error {
    Error::new(
        ExceptionClass::TypeError,
        format!(
            "can't apply this __setattr__ to {} object",
            a.value("self").type_name()
        ),
    )
    .at(a.call)
}

fn format(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let v = a.value("self");
    match a.value("format_spec") {
        Value::Str(s) if s.is_empty() => {
            it.prepare_shown(v, a.span("self"))?;
            Ok(Value::str(str_of(v)))
        }
        _ => Err(Error::new(
            ExceptionClass::TypeError,
            format!(
                "unsupported format string passed to {}.__format__",
                v.type_name()
            ),
        )
        .at(a.call)),
    }
}

fn hash(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let key = match a.value("self") {
        Value::Instance(i) => Key::Named("object", format!("{:p}", Arc::as_ptr(i))),
        other => Key::of(other).map_err(|e| a.err_at("self", e))?,
    };
    Ok(Value::Int(key.py_hash()))
}
