//! `int | None`: the `|` of two types, CPython's `types.UnionType` (shown `int | None`,
//! with `__args__`, equal in any order), or `typing.Union[…]` when either side is one of
//! `typing`'s forms. `isinstance` and `issubclass` check against each of its types.

use std::sync::Arc;

use super::super::{registry, Builtin};
use super::identity::arg_repr;
use super::typing;
use crate::diagnostic::Result;
use crate::eval::args::Args;
use crate::eval::Interp;
use crate::value::class::{attr_get, attr_set, builtin_type, Class, Instance};
use crate::value::Value;

/// The methods of a union.
pub static UNION_TYPE: &[Builtin] = &[
    Builtin::method("types.UnionType.__eq__", "(self, other)", eq)
        .doc("Two unions are equal when they hold the same types, in any order.")
        .examples(&[
            "int | str == str | int",
            "import typing\n(int | None) == typing.Optional[int]",
        ]),
    Builtin::method("types.UnionType.__hash__", "(self)", hash)
        .doc("Equal unions hash alike, so a union can be a dict key.")
        .examples(&["hash(int | str) == hash(str | int)"]),
];

/// The class of `int | str`, with its methods.
fn class() -> Arc<Class> {
    let Value::Class(c) = builtin_type("UnionType", "types") else {
        unreachable!("builtin_type makes a class")
    };
    if attr_get(&c.attrs, "__eq__").is_none() {
        for (k, path) in [
            ("__eq__", "types.UnionType.__eq__"),
            ("__hash__", "types.UnionType.__hash__"),
        ] {
            if let Some(m) = registry().get(path) {
                attr_set(&c.attrs, k, Value::Builtin(m));
            }
        }
    }
    c
}

/// Whether `v` is a `types.UnionType`.
pub fn is_union_type(v: &Value) -> bool {
    matches!(v, Value::Instance(i) if i.class.name == "UnionType" && i.class.module == "types")
}

/// The types of a union (`int | str` or `typing.Union[int, str]`), None for anything else.
pub fn union_args(v: &Value) -> Option<Vec<Value>> {
    let Value::Instance(i) = v else { return None };
    let union = (i.class.name == "UnionType" && i.class.module == "types")
        || (i.class.name == "_UnionGenericAlias" && i.class.module == "typing");
    if !union {
        return None;
    }
    match attr_get(&i.attrs, "__args__") {
        Some(Value::Tuple(t)) => Some(t.to_vec()),
        _ => None,
    }
}

/// Whether `v` may stand on either side of a type union: a class, None, a subscripted
/// type or a union.
fn is_type(v: &Value) -> bool {
    match v {
        Value::Class(_) | Value::ErrorClass(_) | Value::None => true,
        Value::Builtin(b) => crate::value::class::type_repr(b.name).is_some(),
        Value::NpType(t) => t.scalar,
        Value::Module(m) => m.as_ref() == "tf.RaggedTensor",
        Value::Instance(_) => is_union_type(v) || typing::is_alias(v) || from_typing(v),
        _ => false,
    }
}

/// One of `typing`'s objects (`typing.List[int]`, `typing.Any`, `Optional[int]`).
fn from_typing(v: &Value) -> bool {
    matches!(v, Value::Instance(i) if i.class.module == "typing")
}

/// `a | b` when both are types: a `typing.Union` if either comes from `typing`, else a
/// `types.UnionType` (a type repeated is kept once; one type left is that type). None
/// when either side is not a type, for the operator's own error.
pub fn type_union(a: &Value, b: &Value) -> Option<Value> {
    if !is_type(a) || !is_type(b) || (matches!(a, Value::None) && matches!(b, Value::None)) {
        return None;
    }
    if from_typing(a) || from_typing(b) {
        return Some(typing::union(vec![a.clone(), b.clone()]));
    }
    let mut flat: Vec<Value> = Vec::new();
    for v in [a, b] {
        let parts = match union_args(v) {
            Some(args) => args,
            None => vec![typing::none_type(v.clone())],
        };
        for p in parts {
            if !flat.iter().any(|x| arg_repr(x) == arg_repr(&p)) {
                flat.push(p);
            }
        }
    }
    if flat.len() == 1 {
        return flat.pop();
    }
    let shown = flat.iter().map(shown_arg).collect::<Vec<_>>().join(" | ");
    let i = Instance::new(class());
    attr_set(&i.attrs, "__args__", Value::tuple(flat));
    attr_set(&i.attrs, "__parameters__", Value::tuple(Vec::new()));
    i.set_shown(shown.clone(), shown);
    Some(Value::Instance(i))
}

/// CPython's TypeError for `|` between a class and a value that is not a type
/// (`int | 3`): the class's type is `type`. None when neither side is a class.
pub fn union_error(a: &Value, b: &Value) -> Option<ragtag_engine::Exception> {
    let class = |v: &Value| match v {
        Value::Class(_) | Value::ErrorClass(_) => true,
        Value::Builtin(b) => crate::value::class::type_repr(b.name).is_some(),
        _ => false,
    };
    if !class(a) && !class(b) {
        return None;
    }
    let name = |v: &Value| if class(v) { "type" } else { v.type_name() };
    Some(ragtag_engine::Exception::new(
        ragtag_engine::ExceptionClass::TypeError,
        format!(
            "unsupported operand type(s) for |: '{}' and '{}'",
            name(a),
            name(b)
        ),
    ))
}

/// A member as `int | None` shows it: `NoneType` is `None`.
fn shown_arg(v: &Value) -> String {
    match v {
        Value::Class(c) if c.name == "NoneType" && c.module == "builtins" => "None".into(),
        v => arg_repr(v),
    }
}

/// The members' reprs, sorted: what makes two unions equal.
fn key(v: &Value) -> Option<Vec<String>> {
    let mut parts: Vec<String> = union_args(v)?.iter().map(arg_repr).collect();
    parts.sort();
    Some(parts)
}

fn eq(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let (x, y) = (key(a.value("self")), key(a.value("other")));
    Ok(Value::Bool(x.is_some() && x == y))
}

fn hash(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    key(a.value("self")).hash(&mut h);
    Ok(Value::Int(h.finish() as i64 >> 2))
}
