//! `typing`'s class makers: `NamedTuple` and `TypedDict`, as functions and as the base of a
//! `class` statement (whose annotations are the fields), `get_type_hints`, and what a
//! `class` statement and `dataclasses` ask of typing's objects (`ClassVar`, `Generic[T]`
//! among the bases).

use super::super::Builtin;
use super::typing::{is_alias, none_type, type_error};
use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::Interp;
use crate::render::tf_text::repr_of;
use crate::value::class::{attr_get, attr_set, Class};
use crate::value::{PyDict, Value};
use ragtag_engine::ExceptionClass;

/// `get_type_hints`, `NamedTuple` and `TypedDict`.
pub static TYPING_CLASSES: &[Builtin] = &[
    Builtin::function(
        "typing.get_type_hints",
        "(obj, globalns=None, localns=None, include_extras=False)",
        get_type_hints,
    )
    .doc(
        "The annotations of a function, or of a class and its bases (bases first), as a \
         dict; `None` becomes `NoneType`.",
    )
    .examples(&["from typing import get_type_hints, Optional\ndef f(a: int, b: Optional[str] = None) -> bool:\n    return True\nget_type_hints(f)"]),
    Builtin::function("typing.NamedTuple", "(typename, fields=None, /, **kwargs)", named_tuple)
        .doc(
            "A named tuple class with typed fields: `NamedTuple('P', [('x', int), ('y', int)])`, \
             or as the base of a class whose annotations are the fields (an assignment is \
             the field's default).",
        )
        .examples(&["from typing import NamedTuple\nclass P(NamedTuple):\n    x: int\n    y: int = 0\nP(1)"]),
    Builtin::function(
        "typing.TypedDict",
        "(typename, fields=None, /, *, total=True, **kwargs)",
        typed_dict,
    )
    .doc(
        "A class whose calls make plain dicts, with the keys its annotations name: \
         `TypedDict('Movie', {'name': str})`, or as the base of a class.",
    )
    .examples(&["from typing import TypedDict\nclass Movie(TypedDict):\n    name: str\n    year: int\nMovie(name='Alien', year=1979)"]),
];

/// A dict's items with `None` values as `NoneType`.
fn hints_into(out: &PyDict, d: &Value) -> Result<()> {
    if let Value::Dict(d) = d {
        for (k, v) in d.items() {
            out.insert(k, none_type(v)).map_err(Error::from)?;
        }
    }
    Ok(())
}

fn get_type_hints(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let obj = a.value("obj");
    let out = PyDict::new(Vec::new()).map_err(|e| Error::from(e).at(a.call))?;
    match obj {
        Value::Class(c) => {
            for base in c.mro().iter().rev() {
                if let Value::Class(b) = base {
                    if let Some(d) = attr_get(&b.attrs, "__annotations__") {
                        hints_into(&out, &d).map_err(|e| e.at(a.call))?;
                    }
                }
            }
        }
        Value::Closure(_) | Value::Bound(_) => {
            let d = it.attribute(obj.clone(), "__annotations__", a.call)?;
            hints_into(&out, &d).map_err(|e| e.at(a.call))?;
        }
        other => {
            return Err(type_error(
                format!(
                    "{} is not a module, class, method, or function.",
                    repr_of(other)
                ),
                a,
            ))
        }
    }
    Ok(Value::Dict(out))
}

/// The field names and types of `NamedTuple`'s and `TypedDict`'s functional forms: a list
/// of pairs or a dict, then keyword arguments.
fn fields_of(a: &Args) -> Result<Vec<(String, Value)>> {
    let mut out = Vec::new();
    let pairs: Vec<Value> = match a.value("fields") {
        Value::None => Vec::new(),
        Value::Dict(d) => d
            .items()
            .into_iter()
            .map(|(k, v)| Value::tuple(vec![k, v]))
            .collect(),
        v => crate::eval::subscript::iterate(v).map_err(|e| a.err_at("fields", e))?,
    };
    for p in pairs {
        match crate::eval::subscript::iterate(&p).ok().as_deref() {
            Some([Value::Str(k), t]) => out.push((k.to_string(), t.clone())),
            _ => {
                return Err(type_error(
                    "fields must be (name, type) pairs with str names",
                    a,
                ))
            }
        }
    }
    for (k, v, _) in a.kwargs() {
        out.push((k.clone(), v.clone()));
    }
    Ok(out)
}

fn typename(a: &Args) -> Result<String> {
    match a.value("typename") {
        Value::Str(s) => Ok(s.to_string()),
        other => Err(type_error(
            format!("type name must be a str, not {}", other.type_name()),
            a,
        )),
    }
}

fn annotations(fields: &[(String, Value)]) -> Result<Value> {
    Ok(Value::Dict(PyDict::from_str_keys(
        fields
            .iter()
            .map(|(k, v)| (k.clone(), none_type(v.clone()))),
    )))
}

fn named_tuple(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let name = typename(a)?;
    let fields = fields_of(a)?;
    let names: Vec<String> = fields.iter().map(|(k, _)| k.clone()).collect();
    let cls = super::namedtuple::make_class(&name, &names, Vec::new()).map_err(|e| e.at(a.call))?;
    if let Value::Class(c) = &cls {
        attr_set(&c.attrs, "__annotations__", annotations(&fields)?);
    }
    Ok(cls)
}

fn typed_dict(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let name = typename(a)?;
    let fields = fields_of(a)?;
    let total = a.flag("total", true)?;
    let attrs = vec![
        ("__annotations__".to_string(), annotations(&fields)?),
        ("__total__".to_string(), Value::Bool(total)),
    ];
    Ok(typed_dict_class(&name, attrs))
}

fn typed_dict_class(name: &str, mut attrs: Vec<(String, Value)>) -> Value {
    attrs.push(("__typeddict__".into(), Value::Bool(true)));
    Value::Class(Class::new(name, "__main__", Vec::new(), attrs))
}

/// A `class` statement's base that the class statement handles itself:
/// `typing.NamedTuple` or `typing.TypedDict`.
pub fn special_base(v: &Value) -> Option<&'static str> {
    match v {
        Value::Builtin(b) if b.name == "typing.NamedTuple" || b.name == "typing.TypedDict" => {
            Some(b.name)
        }
        _ => None,
    }
}

/// The class a subscripted type stands for among a class's bases (`Generic[T]` is
/// `Generic`, `Box[int]` is `Box`): CPython's `__mro_entries__`.
pub fn mro_entry(v: &Value) -> Option<Value> {
    if !is_alias(v) {
        return None;
    }
    let Value::Instance(i) = v else { return None };
    attr_get(&i.attrs, "__origin__")
}

/// `class P(NamedTuple): …` and `class M(TypedDict): …`: the class made from the body's
/// annotations (the fields) and its other names.
pub fn special_class(kind: &str, name: &str, attrs: Vec<(String, Value)>) -> Result<Value> {
    let anns = attrs
        .iter()
        .find(|(k, _)| k == "__annotations__")
        .map(|(_, v)| v.clone());
    let fields: Vec<String> = match &anns {
        Some(Value::Dict(d)) => d
            .items()
            .into_iter()
            .filter_map(|(k, _)| match k {
                Value::Str(s) => Some(s.to_string()),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    };
    if kind == "typing.TypedDict" {
        let mut attrs = attrs;
        if anns.is_none() {
            attrs.push(("__annotations__".into(), Value::dict(Vec::new())?));
        }
        attrs.push(("__total__".into(), Value::Bool(true)));
        return Ok(typed_dict_class(name, attrs));
    }
    let mut defaults = Vec::new();
    let mut first_default: Option<&str> = None;
    for f in &fields {
        match attrs.iter().find(|(k, _)| k == f) {
            Some((_, v)) => {
                first_default.get_or_insert(f);
                defaults.push(v.clone());
            }
            None => {
                if let Some(d) = first_default {
                    return Err(Error::new(
                        ExceptionClass::TypeError,
                        format!("Non-default namedtuple field {f} cannot follow default field {d}"),
                    ));
                }
            }
        }
    }
    let cls = super::namedtuple::make_class(name, &fields, defaults)?;
    if let Value::Class(c) = &cls {
        for (k, v) in attrs {
            if !fields.contains(&k) {
                attr_set(&c.attrs, &k, v);
            }
        }
    }
    Ok(cls)
}

/// `ClassVar` or `ClassVar[…]`: an annotation that makes a class variable, not a field.
pub fn is_class_var(v: &Value) -> bool {
    let form = |v: &Value| {
        matches!(v, Value::Instance(i) if i.class.module == "typing"
            && matches!(attr_get(&i.attrs, "_name"), Some(Value::Str(s)) if s.as_str() == "ClassVar"))
    };
    match v {
        Value::Instance(i) if is_alias(v) => {
            attr_get(&i.attrs, "__origin__").is_some_and(|o| form(&o))
        }
        v => form(v),
    }
}
