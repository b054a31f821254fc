//! Objects as objects: `id()` (one number per object, equal exactly when `is` holds),
//! `globals()` and `locals()` (the names bound, as a dict), `dir()` (the names an object
//! or scope has), and subscripted builtin types
//! (`list[int]`, `dict[str, int]`: CPython's `types.GenericAlias`).

use std::hash::{Hash, Hasher};
use std::sync::Arc;

use super::Builtin;
use crate::diagnostic::Result;
use crate::eval::args::Args;
use crate::eval::Interp;
use crate::render::tf_text::repr_of;
use crate::value::class::{attr_items, attr_set, builtin_type, Instance};
use crate::value::{PyDict, Value};

/// `id`, `globals`, `locals` and `dir`.
pub static IDENTITY: &[Builtin] = &[
    Builtin::function("id", "(obj, /)", id)
        .doc("A number for the object, the same for as long as it lives and different from any other live object's: `id(a) == id(b)` exactly when `a is b`.")
        .examples(&["a = [1]\nb = a\nid(a) == id(b), id(a) == id([1])"]),
    Builtin::function("globals", "()", globals)
        .doc("The module's names and their values, as a dict (`globals()['x'] = 1` binds `x`).")
        .examples(&["x = 1\nglobals()['x']"]),
    Builtin::function("locals", "()", locals)
        .doc("The names bound in the current function (the module's at top level), as a dict.")
        .examples(&["def f(a):\n    b = a * 2\n    return locals()\nf(3)"]),
    Builtin::function("dir", "(object=None, /)", dir)
        .doc("The names `object` has, sorted: a module's functions, classes and constants; an instance's attributes and its class's; a value's methods. With no argument, the names bound in the current scope. (CPython also lists the special methods every object inherits, such as `__eq__`; ragtag lists those a class defines.)")
        .examples(&["import math\n[n for n in dir(math) if n.startswith('sq')]", "dir([])[:3]"]),
];

fn dir(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let mut names: std::collections::BTreeSet<String> = std::collections::BTreeSet::new();
    match a.given("object") {
        None => names.extend(it.local_names().into_iter().map(|(k, _)| k)),
        Some(Value::Module(m)) => names.extend(super::super::module_names(m)),
        Some(Value::Instance(i)) => {
            names.extend(attr_items(&i.attrs).into_iter().map(|(k, _)| k));
            names.extend(class_names(&i.class));
        }
        Some(Value::Class(c)) => names.extend(class_names(c)),
        Some(v) => {
            if let Some(class) = super::super::class_of(v) {
                let registry = super::super::registry();
                let prefix = format!("{class}.");
                names.extend(
                    registry
                        .all
                        .iter()
                        .filter(|b| b.kind != super::super::Kind::Function)
                        .filter_map(|b| b.name.strip_prefix(prefix.as_str()))
                        .filter(|n| !n.contains('.'))
                        .map(String::from),
                );
            }
        }
    }
    Ok(Value::list(names.into_iter().map(Value::str).collect()))
}

/// The attributes of `class` and of the classes it inherits from.
fn class_names(class: &Arc<crate::value::class::Class>) -> Vec<String> {
    class
        .mro()
        .iter()
        .filter_map(|c| match c {
            Value::Class(c) => Some(attr_items(&c.attrs)),
            _ => None,
        })
        .flatten()
        .map(|(k, _)| k)
        .collect()
}

/// The numbers of ints within ±2^60 (`INT_IDS + i`, one for each): above every address a
/// 64-bit process has (user space ends below 2^48), so that an int's number meets no
/// object's and no other int's.
const INT_IDS: i64 = 1 << 62;
/// Where the numbers of the other values that have no address of their own (None, bools,
/// strs, floats, larger ints) start: after the ints' numbers.
const VALUE_IDS: i64 = INT_IDS + (1 << 60) + 64;

fn value_id(v: &impl Hash) -> i64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    v.hash(&mut h);
    VALUE_IDS + (h.finish() % (i64::MAX - VALUE_IDS) as u64) as i64
}

fn address<T: ?Sized>(p: &Arc<T>) -> i64 {
    Arc::as_ptr(p) as *const u8 as i64
}

fn id(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    // Objects ragtag shares by reference have their address; ints and strs, which `is`
    // compares by value, a number made from the value.
    let n = match a.value("obj") {
        Value::None => VALUE_IDS - 16,
        Value::Bool(b) => VALUE_IDS - 32 - 16 * (*b as i64),
        Value::Int(i) if i.unsigned_abs() < 1 << 60 => INT_IDS + i,
        Value::Int(i) => value_id(&("int", i)),
        Value::BigInt(i) => value_id(&("int", i.to_string())),
        Value::Str(s) => value_id(&("str", s.as_str())),
        Value::Float(f) => value_id(&("float", f.to_bits())),
        Value::Array(x) => address(x),
        Value::List(x) => address(x),
        Value::Dict(x) => address(x),
        Value::Set(x) => address(x),
        Value::Tuple(x) => address(x),
        Value::Closure(x) => address(x),
        Value::Class(x) => address(x),
        Value::Instance(x) => address(x),
        Value::Iter(x) => address(x),
        Value::Bytes(x) => address(x),
        Value::ByteArray(x) => address(x),
        Value::Range(x) => address(x),
        Value::View(x) => address(x),
        Value::Deque(x) => address(x),
        Value::Builtin(b) => *b as *const Builtin as i64,
        Value::Module(m) => value_id(&("module", m.as_ref())),
        Value::ErrorClass(k) => value_id(&("exception class", k.name())),
        other => value_id(&("value", repr_of(other))),
    };
    Ok(Value::Int(n))
}

/// A dict of names, sorted (ragtag keeps names in a hash table, not in binding order).
fn names_dict(names: Vec<(String, Value)>, a: &Args) -> Result<Value> {
    let mut names = names;
    names.sort_by(|x, y| x.0.cmp(&y.0));
    let d = PyDict::new(Vec::new()).map_err(|e| crate::diagnostic::Error::from(e).at(a.call))?;
    for (k, v) in names {
        d.insert(Value::str(k), v)
            .map_err(|e| crate::diagnostic::Error::from(e).at(a.call))?;
    }
    Ok(Value::Dict(d))
}

fn globals(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let names = it.global_names();
    names_dict(names, a)
}

fn locals(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let names = it.local_names();
    names_dict(names, a)
}

/// The builtin types that a subscript makes a generic alias of, and how CPython names them.
fn generic_origin(name: &str) -> Option<&'static str> {
    Some(match name {
        "list" => "list",
        "dict" => "dict",
        "tuple" => "tuple",
        "set" => "set",
        "frozenset" => "frozenset",
        "type" => "type",
        "collections.deque" => "collections.deque",
        "collections.defaultdict" => "collections.defaultdict",
        "collections.OrderedDict" => "collections.OrderedDict",
        "collections.Counter" => "collections.Counter",
        _ => return None,
    })
}

/// How a type shows inside `list[…]`: a class by its name (qualified outside builtins and
/// `__main__`), anything else as its repr.
pub(super) fn arg_repr(v: &Value) -> String {
    match v {
        Value::Builtin(b) => match generic_origin(b.name) {
            Some(n) => n.to_string(),
            None if crate::value::class::type_repr(b.name).is_some() => b.name.to_string(),
            None => repr_of(v),
        },
        Value::Class(c) if c.module == "builtins" => c.name.to_string(),
        Value::Class(c) => format!("{}.{}", c.module, c.name),
        Value::ErrorClass(k) => k.name().to_string(),
        Value::Opaque(o) if &**o == "Ellipsis" => "...".into(),
        _ => repr_of(v),
    }
}

/// `list[int]`: a `types.GenericAlias` with `__origin__` and `__args__`, shown as written;
/// None when `ty` is not a builtin type that takes parameters.
pub fn generic_alias(ty: &Value, index: Value) -> Option<Value> {
    let Value::Builtin(b) = ty else { return None };
    let origin = generic_origin(b.name)?;
    let args: Vec<Value> = match index {
        Value::Tuple(t) => t.to_vec(),
        v => vec![v],
    };
    let Value::Class(c) = builtin_type("GenericAlias", "types") else {
        return None;
    };
    super::typing::prepare_generic_alias(&c);
    let i = Instance::new(c);
    let shown = format!(
        "{origin}[{}]",
        args.iter().map(arg_repr).collect::<Vec<_>>().join(", ")
    );
    attr_set(&i.attrs, "__origin__", ty.clone());
    attr_set(&i.attrs, "__args__", Value::tuple(args));
    i.set_shown(shown.clone(), shown);
    Some(Value::Instance(i))
}

impl Interp<'_> {
    /// The module's names and values.
    pub fn global_names(&self) -> Vec<(String, Value)> {
        self.globals
            .iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect()
    }

    /// The current function's names and values (the module's at top level).
    pub fn local_names(&self) -> Vec<(String, Value)> {
        if let Some(vars) = self.own_vars() {
            return vars
                .iter()
                .map(|(k, v)| (k.to_string(), v.clone()))
                .collect();
        }
        match self.frames.last() {
            Some(f) => f
                .vars()
                .iter()
                .map(|(k, v)| (k.to_string(), v.clone()))
                .collect(),
            None => self.global_names(),
        }
    }

    /// `globals()[name] = v`: binds a global name.
    pub fn bind_global(&mut self, name: &str, v: Value) {
        self.globals.insert(name.to_string(), v);
    }
}
