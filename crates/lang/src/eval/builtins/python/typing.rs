//! `typing` as CPython 3.11 has it at run time: the special forms (`Any`, `Optional`,
//! `Union`, `ClassVar`, `Final`, `Literal`), the aliases of builtin and abstract types
//! (`List`, `Dict`, `Callable`, `Iterable`, …) and what subscripting them makes
//! (`typing.Optional[int]`, shown as CPython shows it, equal by origin and arguments),
//! `TypeVar`, `Generic` and `Protocol`, `cast` and `TYPE_CHECKING` (`NamedTuple`,
//! `TypedDict` and `get_type_hints` are in `typing_classes`).

use std::sync::{Arc, Mutex, OnceLock};

use super::super::{registry, Builtin};
use super::identity::arg_repr;
use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::Interp;
use crate::render::tf_text::repr_of;
use crate::value::class::{attr_get, attr_set, builtin_type, Class, Instance};
use crate::value::Value;
use ragtag_engine::ExceptionClass;

/// The module's functions and the methods of its objects.
pub static TYPING: &[Builtin] = &[
    Builtin::function(
        "typing.TypeVar",
        "(name, *constraints, bound=None, covariant=False, contravariant=False)",
        type_var,
    )
    .doc("A type variable for generic functions and classes: `T = TypeVar('T')`, shown as `~T`.")
    .examples(&["from typing import TypeVar\nT = TypeVar('T')\nT"]),
    Builtin::function("typing.cast", "(typ, val)", cast)
        .doc("Returns `val` unchanged: it only tells a type checker its type.")
        .examples(&["from typing import cast, List\ncast(List[int], [1, 2])"]),
    Builtin::method("typing._SpecialForm.__getitem__", "(self, parameters)", getitem)
        .doc("`Optional[int]`, `List[int]`, `Callable[[int], str]`: the subscripted type.")
        .examples(&["from typing import Optional, Union, List\nOptional[int], Union[int, str], List[int]"]),
    Builtin::method("typing._GenericAlias.__eq__", "(self, other)", eq)
        .doc("Subscripted types are equal when their origins and arguments are (a Union's in any order).")
        .examples(&["from typing import Union\nUnion[int, str] == Union[str, int]", "list[int] == list[int]"]),
    Builtin::method("typing._GenericAlias.__call__", "(self, *args, **kwargs)", call)
        .doc("Calls the origin: `list[int]([1, 2])` is `[1, 2]`; `typing.List[int]()` is a TypeError, as in CPython.")
        .examples(&["list[int]([1, 2])"]),
    Builtin::method("typing.Generic.__class_getitem__", "(cls, parameters)", class_getitem)
        .doc("`Generic[T]` (type variables only), and `Box[int]` for a class derived from it.")
        .examples(&["from typing import Generic, TypeVar\nT = TypeVar('T')\nclass Box(Generic[T]):\n    pass\nBox[int]"]),
];

/// The classes of `typing`'s subscripted types.
const ALIASES: &[&str] = &[
    "_GenericAlias",
    "_UnionGenericAlias",
    "_CallableGenericAlias",
    "_LiteralGenericAlias",
];

/// A class of the module, made once, with the methods its objects have.
fn class(name: &str) -> Arc<Class> {
    let Value::Class(c) = builtin_type(name, "typing") else {
        unreachable!("builtin_type makes a class")
    };
    if attr_get(&c.attrs, "__typing__").is_none() {
        let method = |m: &str| registry().get(m).map(Value::Builtin);
        let methods: &[(&str, &str)] = match name {
            "Generic" | "Protocol" => &[("__class_getitem__", "typing.Generic.__class_getitem__")],
            n if ALIASES.contains(&n) => &[
                ("__eq__", "typing._GenericAlias.__eq__"),
                ("__call__", "typing._GenericAlias.__call__"),
            ],
            "TypeVar" => &[],
            _ => &[("__getitem__", "typing._SpecialForm.__getitem__")],
        };
        for (k, path) in methods {
            if let Some(m) = method(path) {
                attr_set(&c.attrs, k, m);
            }
        }
        attr_set(&c.attrs, "__typing__", Value::Bool(true));
    }
    c
}

/// What `list[int]` and `typing.List[int]` share: equality and calls.
pub(super) fn prepare_generic_alias(c: &Arc<Class>) {
    if attr_get(&c.attrs, "__eq__").is_none() {
        for (k, path) in [
            ("__eq__", "typing._GenericAlias.__eq__"),
            ("__call__", "typing._GenericAlias.__call__"),
        ] {
            if let Some(m) = registry().get(path) {
                attr_set(&c.attrs, k, Value::Builtin(m));
            }
        }
    }
}

/// The origin of `typing.List` and the others, and how many arguments each takes (-1: any).
fn alias_origin(name: &str) -> Option<(Value, i64)> {
    let b = |n: &str| registry().get(n).map(Value::Builtin);
    let abc = |n: &str| Some(builtin_type(n, "collections.abc"));
    let (origin, n) = match name {
        "List" => (b("list"), 1),
        "Dict" => (b("dict"), 2),
        "Set" => (b("set"), 1),
        "FrozenSet" => (b("frozenset"), 1),
        "Tuple" => (b("tuple"), -1),
        "Type" => (b("type"), 1),
        "DefaultDict" => (b("collections.defaultdict"), 2),
        "Deque" => (b("collections.deque"), 1),
        "Callable" => (abc("Callable"), -1),
        "Iterable" => (abc("Iterable"), 1),
        "Iterator" => (abc("Iterator"), 1),
        "Sequence" => (abc("Sequence"), 1),
        "Mapping" => (abc("Mapping"), 2),
        _ => return None,
    };
    Some((origin?, n))
}

/// The module's names that are not functions: each the same object every time.
pub fn constant(path: &str) -> Option<Value> {
    static MADE: OnceLock<Mutex<Vec<(String, Value)>>> = OnceLock::new();
    let name = path.strip_prefix("typing.")?;
    let mut made = MADE
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    if let Some((_, v)) = made.iter().find(|(n, _)| n == name) {
        return Some(v.clone());
    }
    let form = |cls: &str| {
        let i = Instance::new(class(cls));
        attr_set(&i.attrs, "_name", Value::str(name));
        let shown = format!("typing.{name}");
        i.set_shown(shown.clone(), shown);
        i
    };
    let v = match name {
        "TYPE_CHECKING" => Value::Bool(false),
        "Generic" | "Protocol" => Value::Class(class(name)),
        "Any" => Value::Instance(form("_AnyMeta")),
        "Optional" | "Union" | "ClassVar" | "Final" | "Literal" => {
            Value::Instance(form("_SpecialForm"))
        }
        _ => {
            let (origin, n) = alias_origin(name)?;
            let cls = match name {
                "Callable" => "_CallableType",
                "Tuple" => "_TupleType",
                _ => "_SpecialGenericAlias",
            };
            let i = form(cls);
            attr_set(&i.attrs, "__origin__", origin);
            attr_set(&i.attrs, "_nparams", Value::Int(n));
            Value::Instance(i)
        }
    };
    made.push((name.to_string(), v.clone()));
    Some(v)
}

pub(super) fn type_error(msg: impl Into<String>, a: &Args) -> Error {
    Error::new(ExceptionClass::TypeError, msg.into()).at(a.call)
}

/// The instance behind `self`, and its `_name` (`Optional`, `List`, …).
fn this<'a>(a: &'a Args, arg: &str) -> Option<(&'a Arc<Instance>, String)> {
    let Value::Instance(i) = a.value(arg) else {
        return None;
    };
    let name = match attr_get(&i.attrs, "_name") {
        Some(Value::Str(s)) => s.to_string(),
        _ => String::new(),
    };
    Some((i, name))
}

/// `None` in a type's arguments stands for `NoneType`.
pub(super) fn none_type(v: Value) -> Value {
    match v {
        Value::None => builtin_type("NoneType", "builtins"),
        v => v,
    }
}

/// A subscripted type of class `cls` with this origin and these arguments, shown as `shown`.
fn alias(cls: &str, origin: Value, args: Vec<Value>, shown: String) -> Value {
    let i = Instance::new(class(cls));
    attr_set(&i.attrs, "__origin__", origin);
    attr_set(&i.attrs, "__args__", Value::tuple(args));
    i.set_shown(shown.clone(), shown);
    Value::Instance(i)
}

fn joined(args: &[Value]) -> String {
    args.iter().map(arg_repr).collect::<Vec<_>>().join(", ")
}

fn is_union(v: &Value) -> bool {
    matches!(v, Value::Instance(i) if i.class.name == "_UnionGenericAlias" && i.class.module == "typing")
}

/// `Union[args]`: nested unions flattened, repeats dropped, one type left is that type.
pub(super) fn union(args: Vec<Value>) -> Value {
    let mut flat: Vec<Value> = Vec::new();
    for v in args.into_iter().map(none_type) {
        let parts = match &v {
            Value::Instance(i) if is_union(&v) => match attr_get(&i.attrs, "__args__") {
                Some(Value::Tuple(t)) => t.to_vec(),
                _ => vec![v.clone()],
            },
            _ => vec![v],
        };
        for p in parts {
            if !flat.iter().any(|x| key(x) == key(&p)) {
                flat.push(p);
            }
        }
    }
    if flat.len() == 1 {
        return flat.remove(0);
    }
    let none = builtin_type("NoneType", "builtins");
    let shown = match flat.iter().position(|x| key(x) == key(&none)) {
        Some(at) if flat.len() == 2 => format!("typing.Optional[{}]", arg_repr(&flat[1 - at])),
        _ => format!("typing.Union[{}]", joined(&flat)),
    };
    let origin = constant("typing.Union").unwrap_or(Value::None);
    alias("_UnionGenericAlias", origin, flat, shown)
}

/// What makes two types equal: the repr of what they show, a Union's arguments in any order.
fn key(v: &Value) -> String {
    match v {
        Value::Instance(i) if is_union(v) => match attr_get(&i.attrs, "__args__") {
            Some(Value::Tuple(t)) => {
                let mut parts: Vec<String> = t.iter().map(key).collect();
                parts.sort();
                format!("Union[{}]", parts.join(", "))
            }
            _ => arg_repr(v),
        },
        _ => arg_repr(v),
    }
}

fn params(v: &Value) -> Vec<Value> {
    match v {
        Value::Tuple(t) => t.to_vec(),
        v => vec![v.clone()],
    }
}

fn getitem(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let Some((i, name)) = this(a, "self") else {
        return Err(type_error("a typing form expected", a));
    };
    let given = a.value("parameters");
    let args = params(given);
    let single = |what: &str| -> Result<Value> {
        match args.as_slice() {
            [one] => Ok(none_type(one.clone())),
            _ => Err(type_error(
                format!(
                    "typing.{name} {what}. Got {}.",
                    repr_of(&Value::tuple(args.iter().cloned().map(none_type).collect()))
                ),
                a,
            )),
        }
    };
    Ok(match name.as_str() {
        "Any" => return Err(type_error("type 'Any' is not subscriptable", a)),
        "Optional" => {
            let t = single("requires a single type")?;
            union(vec![t, Value::None])
        }
        "Union" if args.is_empty() => {
            return Err(type_error("Cannot take a Union of no types.", a))
        }
        "Union" => union(args),
        "ClassVar" | "Final" => {
            let t = single("accepts only single type")?;
            let shown = format!("typing.{name}[{}]", arg_repr(&t));
            alias("_GenericAlias", a.value("self").clone(), vec![t], shown)
        }
        "Literal" => {
            let shown = format!("typing.Literal[{}]", joined(&args));
            alias("_LiteralGenericAlias", a.value("self").clone(), args, shown)
        }
        "Callable" => callable(i, args, a)?,
        _ => {
            let Some((origin, n)) = alias_origin(&name) else {
                return Err(type_error(format!("typing.{name} is not subscriptable"), a));
            };
            // `Tuple[()]` has no arguments and shows `()`.
            let empty = matches!(given, Value::Tuple(t) if t.is_empty());
            let count = args.len() as i64;
            if n >= 0 && count != n {
                let which = if count > n { "many" } else { "few" };
                return Err(type_error(
                    format!(
                        "Too {which} arguments for typing.{name}; actual {count}, expected {n}"
                    ),
                    a,
                ));
            }
            let args: Vec<Value> = args.into_iter().map(none_type).collect();
            let inner = if empty {
                "()".to_string()
            } else {
                joined(&args)
            };
            let v = alias(
                "_GenericAlias",
                origin,
                args,
                format!("typing.{name}[{inner}]"),
            );
            if let Value::Instance(v) = &v {
                attr_set(&v.attrs, "_name", Value::str(&name));
            }
            v
        }
    })
}

/// `Callable[[int, str], bool]` and `Callable[..., int]`.
fn callable(i: &Instance, args: Vec<Value>, a: &Args) -> Result<Value> {
    let origin = attr_get(&i.attrs, "__origin__").unwrap_or(Value::None);
    let [params, result] = args.as_slice() else {
        return Err(type_error(
            "Callable must be used as Callable[[arg, ...], result].",
            a,
        ));
    };
    let result = none_type(result.clone());
    let (mut all, inner) = match params {
        Value::List(l) => {
            let items: Vec<Value> = l.items().into_iter().map(none_type).collect();
            let inner = format!("[{}]", joined(&items));
            (items, inner)
        }
        Value::Opaque(o) if &**o == "Ellipsis" => (vec![params.clone()], "...".to_string()),
        _ => return Err(type_error("Callable[args, result]: args must be a list", a)),
    };
    let shown = format!("typing.Callable[{inner}, {}]", arg_repr(&result));
    all.push(result);
    let v = alias("_CallableGenericAlias", origin, all, shown);
    if let Value::Instance(v) = &v {
        attr_set(&v.attrs, "_name", Value::str("Callable"));
    }
    Ok(v)
}

/// Whether `v` is a subscripted type (`list[int]`, `typing.List[int]`).
pub fn is_alias(v: &Value) -> bool {
    matches!(v, Value::Instance(i)
        if (i.class.module == "typing" && ALIASES.contains(&i.class.name))
            || (i.class.module == "types" && i.class.name == "GenericAlias"))
}

fn eq(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let (x, y) = (a.value("self"), a.value("other"));
    // `Optional[int] == int | None`: a union against either kind of union.
    if is_union(x) && super::union_type::is_union_type(y) {
        let sorted = |v: &Value| {
            let mut k: Vec<String> = super::union_type::union_args(v)
                .unwrap_or_default()
                .iter()
                .map(arg_repr)
                .collect();
            k.sort();
            k
        };
        return Ok(Value::Bool(sorted(x) == sorted(y)));
    }
    let same_kind = match (x, y) {
        (Value::Instance(p), Value::Instance(q)) => p.class.module == q.class.module,
        _ => false,
    };
    Ok(Value::Bool(same_kind && is_alias(y) && key(x) == key(y)))
}

fn call(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let Value::Instance(i) = a.value("self") else {
        return Err(type_error("a subscripted type expected", a));
    };
    if let Some(Value::Str(name)) = attr_get(&i.attrs, "_name") {
        let origin = attr_get(&i.attrs, "__origin__").unwrap_or(Value::None);
        let short = arg_repr(&origin);
        let short = short.rsplit('.').next().unwrap_or(&short).to_string();
        return Err(type_error(
            format!("Type {name} cannot be instantiated; use {short}() instead"),
            a,
        ));
    }
    match attr_get(&i.attrs, "__origin__") {
        Some(o @ (Value::Builtin(_) | Value::Class(_))) => it.call(&o, a.forwarded(), a.call),
        Some(o) => Err(type_error(
            format!("Cannot instantiate {}", arg_repr(&o)),
            a,
        )),
        None => Err(type_error("a subscripted type expected", a)),
    }
}

fn class_getitem(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let Value::Class(c) = a.value("cls") else {
        return Err(type_error("a class expected", a));
    };
    let args = params(a.value("parameters"));
    if c.module == "typing" {
        if !args.iter().all(is_type_var) {
            return Err(type_error(
                format!(
                    "Parameters to {}[...] must all be type variables or parameter specification variables.",
                    c.name
                ),
                a,
            ));
        }
        let shown = format!("typing.{}[{}]", c.name, joined(&args));
        return Ok(alias("_GenericAlias", Value::Class(c.clone()), args, shown));
    }
    let args: Vec<Value> = args.into_iter().map(none_type).collect();
    let shown = format!("{}[{}]", arg_repr(&Value::Class(c.clone())), joined(&args));
    Ok(alias("_GenericAlias", Value::Class(c.clone()), args, shown))
}

fn is_type_var(v: &Value) -> bool {
    matches!(v, Value::Instance(i) if i.class.name == "TypeVar" && i.class.module == "typing")
}

fn type_var(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let Value::Str(name) = a.value("name") else {
        return Err(type_error("TypeVar name must be a string", a));
    };
    let constraints: Vec<Value> = a.rest().iter().map(|(v, _)| none_type(v.clone())).collect();
    if constraints.len() == 1 {
        return Err(type_error("A single constraint is not allowed", a));
    }
    let bound = a.value("bound").clone();
    if !constraints.is_empty() && !matches!(bound, Value::None) {
        return Err(type_error(
            "Constraints cannot be combined with bound=...",
            a,
        ));
    }
    let co = a.flag("covariant", false)?;
    let contra = a.flag("contravariant", false)?;
    if co && contra {
        return Err(Error::new(
            ExceptionClass::ValueError,
            "Bivariant types are not supported.",
        )
        .at(a.call));
    }
    let i = Instance::new(class("TypeVar"));
    attr_set(&i.attrs, "__name__", Value::str(name.as_str()));
    attr_set(&i.attrs, "__bound__", bound);
    attr_set(&i.attrs, "__constraints__", Value::tuple(constraints));
    attr_set(&i.attrs, "__covariant__", Value::Bool(co));
    attr_set(&i.attrs, "__contravariant__", Value::Bool(contra));
    let sign = if co {
        '+'
    } else if contra {
        '-'
    } else {
        '~'
    };
    let shown = format!("{sign}{name}");
    i.set_shown(shown.clone(), shown);
    Ok(Value::Instance(i))
}

fn cast(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    Ok(a.value("val").clone())
}

/// `typing.List` in `isinstance`: the type it stands for (`list`); any other value as it is.
pub fn plain_origin(v: Value) -> Value {
    match &v {
        Value::Instance(i)
            if i.class.module == "typing"
                && matches!(i.class.name, "_SpecialGenericAlias" | "_TupleType") =>
        {
            attr_get(&i.attrs, "__origin__").unwrap_or(v)
        }
        _ => v,
    }
}
