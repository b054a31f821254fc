//! `collections.ChainMap`: several mappings searched in order as one; writes and deletions
//! go to the first. A class a program can subclass, as CPython's is.

use std::sync::{Arc, OnceLock};

use super::functools::{class_members, registered};
use super::text::item_of;
use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::builtins::Builtin;
use crate::eval::items::Sub;
use crate::eval::Interp;
use crate::render::tf_text::repr_of;
use crate::value::class::{attr_get, attr_set, Class, Instance};
use crate::value::iter::{iter_value, IterState};
use crate::value::view::{DictView, ViewKind};
use crate::value::{PyDict, PyList, Value};
use ragtag_engine::ExceptionClass;
use ragtag_syntax::ast::Span;

const P: &str = "collections.ChainMap.";

macro_rules! m {
    ($name:literal, $sig:literal, $f:expr, $doc:literal, $ex:literal) => {
        Builtin::method(concat!("collections.ChainMap.", $name), $sig, $f)
            .doc($doc)
            .examples(&[concat!("from collections import ChainMap\n", $ex)])
    };
}

/// The methods of `collections.ChainMap`.
pub static CHAINMAP: &[Builtin] = &[
    m!(
        "__init__",
        "(self, *maps)",
        init,
        "Keeps the mappings (one empty dict when none) as `.maps`.",
        "ChainMap({'a': 1}, {'a': 2, 'b': 3}).maps"
    ),
    m!(
        "__getitem__",
        "(self, key)",
        getitem,
        "The value in the first mapping that has `key`; KeyError when none has.",
        "ChainMap({'a': 1}, {'a': 2, 'b': 3})['b']"
    ),
    m!(
        "__setitem__",
        "(self, key, value)",
        setitem,
        "Sets `key` in the first mapping.",
        "c = ChainMap({}, {'a': 1})\nc['a'] = 5\nc.maps"
    ),
    m!(
        "__delitem__",
        "(self, key)",
        delitem,
        "Deletes `key` from the first mapping (KeyError when it is not there).",
        "c = ChainMap({'a': 1}, {'a': 2})\ndel c['a']\nc['a']"
    ),
    m!(
        "__len__",
        "(self)",
        len,
        "The number of distinct keys.",
        "len(ChainMap({'a': 1}, {'a': 2, 'b': 3}))"
    ),
    m!(
        "__iter__",
        "(self)",
        iter,
        "The distinct keys, the last mapping's first.",
        "list(ChainMap({'a': 1}, {'b': 2}))"
    ),
    m!(
        "__contains__",
        "(self, key)",
        contains,
        "Whether some mapping has `key`.",
        "'b' in ChainMap({'a': 1}, {'b': 2})"
    ),
    m!(
        "__bool__",
        "(self)",
        bool_,
        "Whether some mapping is non-empty.",
        "bool(ChainMap({}, {}))"
    ),
    m!(
        "__repr__",
        "(self)",
        repr,
        "`ChainMap({...}, {...})`.",
        "repr(ChainMap({'a': 1}, {'b': 2}))"
    ),
    m!(
        "__eq__",
        "(self, other)",
        eq,
        "Equal to a mapping of the same keys and values.",
        "ChainMap({'a': 1}, {'b': 2}) == {'a': 1, 'b': 2}"
    ),
    m!(
        "get",
        "(self, key, default=None)",
        get,
        "`self[key]` when some mapping has `key`, else `default`.",
        "ChainMap({'a': 1}).get('z', 0)"
    ),
    m!(
        "keys",
        "(self)",
        keys,
        "The distinct keys.",
        "ChainMap({'a': 1}, {'b': 2}).keys()"
    ),
    m!(
        "values",
        "(self)",
        values,
        "The value of each distinct key.",
        "ChainMap({'a': 1}, {'a': 0, 'b': 2}).values()"
    ),
    m!(
        "items",
        "(self)",
        items,
        "The `(key, value)` pairs of the distinct keys.",
        "ChainMap({'a': 1}, {'b': 2}).items()"
    ),
    m!(
        "new_child",
        "(self, m=None, **kwargs)",
        new_child,
        "A ChainMap of `m` (a new dict by default, with `kwargs`) followed by these mappings.",
        "ChainMap({'a': 1}).new_child({'a': 2})['a']"
    ),
    m!(
        "parents.fget",
        "(self)",
        parents,
        "A ChainMap of all the mappings but the first.",
        "ChainMap({'a': 1}, {'b': 2}).parents"
    ),
    m!(
        "copy",
        "(self)",
        copy,
        "A ChainMap of a copy of the first mapping and the others.",
        "ChainMap({'a': 1}).copy()"
    ),
    m!(
        "update",
        "(self, other=None, /, **kwargs)",
        update,
        "Sets each key of `other` (a mapping or pairs) and each keyword in the first mapping.",
        "c = ChainMap({}, {'a': 1})\nc.update(b=2)\nc.maps"
    ),
    m!(
        "pop",
        "(self, key, *default)",
        pop,
        "Removes `key` from the first mapping and returns its value (or `default`).",
        "ChainMap({'a': 1}).pop('a')"
    ),
    m!(
        "clear",
        "(self)",
        clear,
        "Empties the first mapping.",
        "c = ChainMap({'a': 1}, {'b': 2})\nc.clear()\nc"
    ),
];

/// The class `collections.ChainMap`.
pub fn chainmap_class() -> Value {
    static CLASS: OnceLock<Arc<Class>> = OnceLock::new();
    let c = CLASS.get_or_init(|| {
        let mut attrs = class_members(CHAINMAP, P);
        let fget = Value::Builtin(registered("collections.ChainMap.parents.fget"));
        attrs.push((
            "parents".into(),
            crate::eval::classes_wrapper(
                "property",
                vec![("fget".into(), fget), ("fset".into(), Value::None)],
            ),
        ));
        // Written in Python in CPython's `collections`: the evaluator gives `__repr__`,
        // `__iter__` and attribute setting to such classes.
        Class::python("ChainMap", "collections", Vec::new(), attrs)
    });
    Value::Class(c.clone())
}

fn this(a: &Args) -> Result<Arc<Instance>> {
    match a.value("self") {
        Value::Instance(i) => Ok(i.clone()),
        other => Err(Error::new(
            ExceptionClass::TypeError,
            format!("a ChainMap is needed, not {}", other.type_name()),
        )
        .at(a.call)),
    }
}

fn maps(a: &Args) -> Result<Vec<Value>> {
    Ok(match attr_get(&this(a)?.attrs, "maps") {
        Some(Value::List(l)) => l.items(),
        _ => Vec::new(),
    })
}

fn first(a: &Args) -> Result<Value> {
    maps(a)?
        .into_iter()
        .next()
        .ok_or_else(|| Error::new(ExceptionClass::IndexError, "list index out of range").at(a.call))
}

fn is_key_error(e: &Error) -> bool {
    e.to_exception().class == ExceptionClass::KeyError
}

/// `key in m` for a dict or a mapping instance.
pub(super) fn has(it: &mut Interp<'_>, m: &Value, key: &Value, span: Span) -> Result<bool> {
    match m {
        Value::Dict(d) => d.contains(key).map_err(|e| Error::from(e).at(span)),
        Value::Instance(_) => match it.dunder(m, "__contains__", vec![key.clone()], span)? {
            Some(v) => it.truth(&v, span),
            None => Ok(it
                .iterate_value(m, span)?
                .iter()
                .any(|k| crate::eval::operators::python_eq(k, key))),
        },
        other => Ok(it
            .iterate_value(other, span)?
            .iter()
            .any(|k| crate::eval::operators::python_eq(k, key))),
    }
}

/// `m[key] = v` for a dict or a mapping instance.
pub(super) fn set_in(
    it: &mut Interp<'_>,
    m: &Value,
    key: Value,
    v: Value,
    span: Span,
) -> Result<()> {
    if let Value::Instance(_) = m {
        return match it.dunder(m, "__setitem__", vec![key, v], span)? {
            Some(_) => Ok(()),
            None => Err(Error::new(
                ExceptionClass::TypeError,
                format!(
                    "'{}' object does not support item assignment",
                    m.type_name()
                ),
            )
            .at(span)),
        };
    }
    crate::eval::items::set_item(m, Sub::Key(key, span), v, span)
}

/// `del m[key]` for a dict or a mapping instance.
fn del_in(it: &mut Interp<'_>, m: &Value, key: Value, span: Span) -> Result<()> {
    if let Value::Instance(_) = m {
        return it.dunder(m, "__delitem__", vec![key], span).map(|_| ());
    }
    crate::eval::items::del_item(m, Sub::Key(key, span), span)
}

/// The distinct keys, the last mapping's first (as CPython's `__iter__`).
fn all_keys(it: &mut Interp<'_>, a: &Args) -> Result<Vec<Value>> {
    let seen = PyDict::new(Vec::new()).map_err(Error::from)?;
    for m in maps(a)?.iter().rev() {
        for k in it.iterate_value(m, a.call)? {
            seen.insert(k, Value::None)
                .map_err(|e| Error::from(e).at(a.call))?;
        }
    }
    Ok(seen.keys())
}

fn init(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let i = this(a)?;
    let mut ms: Vec<Value> = a.rest().iter().map(|(v, _)| v.clone()).collect();
    if ms.is_empty() {
        ms.push(Value::Dict(PyDict::new(Vec::new())?));
    }
    attr_set(&i.attrs, "maps", Value::List(PyList::new(ms, false)));
    Ok(Value::None)
}

fn lookup(it: &mut Interp<'_>, a: &Args, key: &Value) -> Result<Option<Value>> {
    for m in maps(a)? {
        match item_of(it, &m, key.clone(), a.call) {
            Ok(v) => return Ok(Some(v)),
            Err(e) if is_key_error(&e) => {}
            Err(e) => return Err(e),
        }
    }
    Ok(None)
}

fn getitem(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let key = a.value("key");
    if let Some(v) = lookup(it, a, key)? {
        return Ok(v);
    }
    let me = a.value("self");
    if let Some(v) = it.dunder(me, "__missing__", vec![key.clone()], a.call)? {
        return Ok(v);
    }
    Err(Error::new(ExceptionClass::KeyError, repr_of(key)).at(a.call))
}

fn setitem(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let m = first(a)?;
    set_in(
        it,
        &m,
        a.value("key").clone(),
        a.value("value").clone(),
        a.call,
    )?;
    Ok(Value::None)
}

fn not_in_first(key: &Value, a: &Args) -> Error {
    Error::new(
        ExceptionClass::KeyError,
        repr_of(&Value::str(format!(
            "Key not found in the first mapping: {}",
            repr_of(key)
        ))),
    )
    .at(a.call)
}

fn delitem(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let m = first(a)?;
    let key = a.value("key");
    match del_in(it, &m, key.clone(), a.call) {
        Err(e) if is_key_error(&e) => Err(not_in_first(key, a)),
        r => r.map(|_| Value::None),
    }
}

fn len(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    Ok(Value::Int(all_keys(it, a)?.len() as i64))
}

fn iter(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    Ok(iter_value(
        "dict_keyiterator",
        IterState::Seq(all_keys(it, a)?.into()),
    ))
}

fn contains(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    for m in maps(a)? {
        if has(it, &m, a.value("key"), a.call)? {
            return Ok(Value::Bool(true));
        }
    }
    Ok(Value::Bool(false))
}

fn bool_(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    for m in maps(a)? {
        if it.truth(&m, a.call)? {
            return Ok(Value::Bool(true));
        }
    }
    Ok(Value::Bool(false))
}

fn repr(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let i = this(a)?;
    let mut parts = Vec::new();
    for m in maps(a)? {
        it.prepare_shown(&m, a.call)?;
        parts.push(repr_of(&m));
    }
    Ok(Value::str(format!(
        "{}({})",
        i.class.name,
        parts.join(", ")
    )))
}

/// The distinct keys and their values, as one dict.
fn merged(it: &mut Interp<'_>, a: &Args) -> Result<Arc<PyDict>> {
    let out = PyDict::new(Vec::new()).map_err(Error::from)?;
    for k in all_keys(it, a)? {
        let v = lookup(it, a, &k)?.unwrap_or(Value::None);
        out.insert(k, v).map_err(|e| Error::from(e).at(a.call))?;
    }
    Ok(out)
}

fn eq(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let mine = Value::Dict(merged(it, a)?);
    let other = a.value("other");
    let theirs = match other {
        Value::Dict(_) => other.clone(),
        Value::Instance(o) if attr_get(&o.attrs, "maps").is_some() => {
            let f = it.get_attr(other.clone(), "items", a.call, a.call)?;
            let pairs = it.call_values(&f, Vec::new(), a.call)?;
            let pairs = it.iterate_value(&pairs, a.call)?;
            let mut kv = Vec::new();
            for p in pairs {
                if let Value::Tuple(t) = p {
                    kv.push((t[0].clone(), t[1].clone()));
                }
            }
            Value::dict(kv).map_err(Error::from)?
        }
        _ => return Ok(crate::eval::dunder_not_implemented()),
    };
    Ok(Value::Bool(crate::eval::operators::python_eq(
        &mine, &theirs,
    )))
}

fn get(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    Ok(lookup(it, a, a.value("key"))?.unwrap_or_else(|| a.value("default").clone()))
}

fn view(it: &mut Interp<'_>, a: &Args, kind: ViewKind) -> Result<Value> {
    Ok(Value::View(Arc::new(DictView {
        dict: merged(it, a)?,
        kind,
    })))
}

fn keys(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    view(it, a, ViewKind::Keys)
}

fn values(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    view(it, a, ViewKind::Values)
}

fn items(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    view(it, a, ViewKind::Items)
}

fn remake(it: &mut Interp<'_>, a: &Args, ms: Vec<Value>) -> Result<Value> {
    let cls = Value::Class(this(a)?.class.clone());
    let args = ms
        .into_iter()
        .map(|value| crate::eval::args::CallArg {
            name: None,
            value,
            span: a.call,
        })
        .collect();
    it.call(&cls, args, a.call)
}

fn new_child(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let m = match a.get("m") {
        Some(m) => m.clone(),
        None => Value::Dict(PyDict::new(Vec::new())?),
    };
    for (k, v, _) in a.kwargs() {
        set_in(it, &m, Value::str(k), v.clone(), a.call)?;
    }
    let mut ms = vec![m];
    ms.extend(maps(a)?);
    remake(it, a, ms)
}

fn parents(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let ms = maps(a)?.into_iter().skip(1).collect();
    remake(it, a, ms)
}

fn copy(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let mut ms = maps(a)?;
    if let Some(m) = ms.first_mut() {
        let f = it.get_attr(m.clone(), "copy", a.call, a.call)?;
        *m = it.call_values(&f, Vec::new(), a.call)?;
    }
    remake(it, a, ms)
}

fn update(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let me = a.value("self").clone();
    if let Some(other) = a.get("other") {
        let pairs = super::user_collections::pairs(it, other, a.call)?;
        for (k, v) in pairs {
            set_in(it, &me, k, v, a.call)?;
        }
    }
    for (k, v, _) in a.kwargs() {
        set_in(it, &me, Value::str(k), v.clone(), a.call)?;
    }
    Ok(Value::None)
}

fn pop(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let m = first(a)?;
    let key = a.value("key");
    if has(it, &m, key, a.call)? {
        let v = item_of(it, &m, key.clone(), a.call)?;
        del_in(it, &m, key.clone(), a.call)?;
        return Ok(v);
    }
    match a.rest().first() {
        Some((d, _)) => Ok(d.clone()),
        None => Err(not_in_first(key, a)),
    }
}

fn clear(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let m = first(a)?;
    let f = it.get_attr(m, "clear", a.call, a.call)?;
    it.call_values(&f, Vec::new(), a.call)?;
    Ok(Value::None)
}
