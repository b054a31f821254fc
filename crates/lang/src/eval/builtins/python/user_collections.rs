//! `collections.UserDict`, `UserList` and `UserString`: classes a program subclasses, each
//! keeping its contents in `.data`. A UserDict's `__init__` and `update` set items through
//! `self[key] = value`, so a subclass's `__setitem__` sees them; the other methods of a
//! UserList and UserString are the list's and str's own, reached through `.data`.

use std::sync::{Arc, OnceLock};

use super::chainmap::{has, set_in};
use super::functools::class_members;
use super::text::item_of;
use crate::diagnostic::{Error, Result};
use crate::eval::args::{Args, CallArg};
use crate::eval::builtins::Builtin;
use crate::eval::items::Sub;
use crate::eval::Interp;
use crate::render::tf_text::{repr_of, str_of};
use crate::value::class::{attr_get, attr_set, Class, Instance};
use crate::value::view::{DictView, ViewKind};
use crate::value::{PyDict, PyList, Value};
use ragtag_engine::ExceptionClass;
use ragtag_syntax::ast::{BinOp, Span};

macro_rules! ud {
    ($name:literal, $sig:literal, $f:expr, $doc:literal, $ex:literal) => {
        Builtin::method(concat!("collections.UserDict.", $name), $sig, $f)
            .doc($doc)
            .examples(&[concat!("from collections import UserDict\n", $ex)])
    };
}

macro_rules! fwd {
    ($class:literal, $name:literal, $sig:literal, $f:expr, $doc:literal, $ex:literal) => {
        Builtin::method(concat!("collections.", $class, ".", $name), $sig, $f)
            .doc($doc)
            .examples(&[concat!("from collections import ", $class, "\n", $ex)])
    };
}

/// The methods of UserDict, UserList and UserString.
pub static USER_COLLECTIONS: &[Builtin] = &[
    ud!("__init__", "(self, dict=None, /, **kwargs)", ud_init, "`.data` is a new dict, filled from `dict` and the keywords through `self[key] = value`.", "UserDict({'a': 1}, b=2).data"),
    ud!("__getitem__", "(self, key)", ud_getitem, "`data[key]`; a missing key calls the class's `__missing__` when it has one, else KeyError.", "UserDict(a=1)['a']"),
    ud!("__setitem__", "(self, key, item)", ud_setitem, "`data[key] = item`.", "d = UserDict()\nd['a'] = 1\nd"),
    ud!("__delitem__", "(self, key)", ud_delitem, "`del data[key]`.", "d = UserDict(a=1)\ndel d['a']\nd"),
    ud!("__len__", "(self)", data_len, "The number of keys.", "len(UserDict(a=1))"),
    ud!("__iter__", "(self)", data_iter, "The keys.", "list(UserDict(a=1, b=2))"),
    ud!("__contains__", "(self, key)", data_contains, "Whether `data` has `key`.", "'a' in UserDict(a=1)"),
    ud!("__repr__", "(self)", data_repr, "The repr of `data`.", "repr(UserDict(a=1))"),
    ud!("__eq__", "(self, other)", data_eq, "`data == other` (another UserDict's data).", "UserDict(a=1) == {'a': 1}"),
    ud!("get", "(self, key, default=None)", ud_get, "`self[key]` when the key is there, else `default`.", "UserDict(a=1).get('b', 0)"),
    ud!("keys", "(self)", |it, a| ud_view(it, a, ViewKind::Keys), "The keys of `data`.", "UserDict(a=1).keys()"),
    ud!("values", "(self)", |it, a| ud_view(it, a, ViewKind::Values), "The values of `data`.", "UserDict(a=1).values()"),
    ud!("items", "(self)", |it, a| ud_view(it, a, ViewKind::Items), "The pairs of `data`.", "UserDict(a=1).items()"),
    ud!("update", "(self, other=None, /, **kwargs)", ud_update, "Sets each pair of `other` and each keyword through `self[key] = value`.", "d = UserDict()\nd.update({'a': 1}, b=2)\nd"),
    ud!("pop", "(self, key, *default)", ud_pop, "Removes `key` and returns its value (or `default`; KeyError without).", "UserDict(a=1).pop('a')"),
    ud!("setdefault", "(self, key, default=None)", ud_setdefault, "`self[key]`, first set to `default` when missing.", "d = UserDict()\nd.setdefault('a', []).append(1)\nd"),
    ud!("clear", "(self)", ud_clear, "Removes every key.", "d = UserDict(a=1)\nd.clear()\nd"),
    ud!("copy", "(self)", ud_copy, "A new instance of the class with a copy of `data`.", "UserDict(a=1).copy()"),
    fwd!("UserList", "__init__", "(self, initlist=None)", ul_init, "`.data` is a new list of the items of `initlist`.", "UserList((1, 2)).data"),
    fwd!("UserString", "__init__", "(self, seq)", us_init, "`.data` is `str(seq)`.", "UserString(12).data"),
    fwd!("UserList", "__getattr__", "(self, name)", data_attr, "The list's own methods (append, sort, …), acting on `data`.", "l = UserList([2, 1])\nl.sort()\nl"),
    fwd!("UserString", "__getattr__", "(self, name)", data_attr, "The str's own methods, applied to `data`.", "UserString('ab').upper()"),
    fwd!("UserList", "__len__", "(self)", data_len, "`len(data)`.", "len(UserList([1, 2]))"),
    fwd!("UserString", "__len__", "(self)", data_len, "`len(data)`.", "len(UserString('ab'))"),
    fwd!("UserList", "__iter__", "(self)", data_iter, "The items of `data`.", "list(UserList([1, 2]))"),
    fwd!("UserString", "__iter__", "(self)", data_iter, "The characters of `data`.", "list(UserString('ab'))"),
    fwd!("UserList", "__contains__", "(self, key)", data_contains, "`item in data`.", "2 in UserList([1, 2])"),
    fwd!("UserString", "__contains__", "(self, key)", data_contains, "`item in data`.", "'b' in UserString('ab')"),
    fwd!("UserList", "__repr__", "(self)", data_repr, "The repr of `data`.", "repr(UserList([1]))"),
    fwd!("UserString", "__repr__", "(self)", data_repr, "The repr of `data`.", "repr(UserString('a'))"),
    fwd!("UserString", "__str__", "(self)", us_str, "`data`.", "str(UserString('a'))"),
    fwd!("UserList", "__getitem__", "(self, i)", seq_getitem, "An item of `data`; a slice is a new instance of the class.", "UserList([1, 2, 3])[1:]"),
    fwd!("UserString", "__getitem__", "(self, i)", seq_getitem, "A new instance of the class holding `data[i]`.", "UserString('abc')[1:]"),
    fwd!("UserList", "__setitem__", "(self, i, item)", ul_setitem, "`data[i] = item`.", "l = UserList([1, 2])\nl[0] = 5\nl"),
    fwd!("UserList", "__delitem__", "(self, i)", ul_delitem, "`del data[i]`.", "l = UserList([1, 2])\ndel l[0]\nl"),
    fwd!("UserList", "__eq__", "(self, other)", data_eq, "`data == other` (another instance's data).", "UserList([1]) == [1]"),
    fwd!("UserString", "__eq__", "(self, other)", data_eq, "`data == other` (another instance's data).", "UserString('a') == 'a'"),
    fwd!("UserList", "__lt__", "(self, other)", |it, a| compare(it, a, BinOp::Lt), "`data < other`.", "UserList([1]) < [2]"),
    fwd!("UserString", "__lt__", "(self, other)", |it, a| compare(it, a, BinOp::Lt), "`data < other`.", "UserString('a') < 'b'"),
    fwd!("UserList", "__le__", "(self, other)", |it, a| compare(it, a, BinOp::Le), "`data <= other`.", "UserList([1]) <= [1]"),
    fwd!("UserString", "__le__", "(self, other)", |it, a| compare(it, a, BinOp::Le), "`data <= other`.", "UserString('a') <= 'a'"),
    fwd!("UserList", "__gt__", "(self, other)", |it, a| compare(it, a, BinOp::Gt), "`data > other`.", "UserList([3]) > [2]"),
    fwd!("UserString", "__gt__", "(self, other)", |it, a| compare(it, a, BinOp::Gt), "`data > other`.", "UserString('b') > 'a'"),
    fwd!("UserList", "__ge__", "(self, other)", |it, a| compare(it, a, BinOp::Ge), "`data >= other`.", "UserList([2]) >= [2]"),
    fwd!("UserString", "__ge__", "(self, other)", |it, a| compare(it, a, BinOp::Ge), "`data >= other`.", "UserString('b') >= 'b'"),
    fwd!("UserList", "__add__", "(self, other)", |it, a| combine(it, a, BinOp::Add, false), "A new instance holding `data + other`.", "UserList([1]) + [2]"),
    fwd!("UserString", "__add__", "(self, other)", |it, a| combine(it, a, BinOp::Add, false), "A new instance holding `data + other`.", "UserString('a') + 'b'"),
    fwd!("UserList", "__radd__", "(self, other)", |it, a| combine(it, a, BinOp::Add, true), "A new instance holding `other + data`.", "[0] + UserList([1])"),
    fwd!("UserString", "__radd__", "(self, other)", |it, a| combine(it, a, BinOp::Add, true), "A new instance holding `other + data`.", "'x' + UserString('a')"),
    fwd!("UserList", "__mul__", "(self, other)", |it, a| combine(it, a, BinOp::Mul, false), "A new instance holding `data * n`.", "UserList([1]) * 3"),
    fwd!("UserString", "__mul__", "(self, other)", |it, a| combine(it, a, BinOp::Mul, false), "A new instance holding `data * n`.", "UserString('ab') * 2"),
];

/// The class `collections.<name>` (UserDict, UserList or UserString).
pub fn user_class(name: &str) -> Option<Value> {
    static CLASSES: OnceLock<Vec<Arc<Class>>> = OnceLock::new();
    let all = CLASSES.get_or_init(|| {
        ["UserDict", "UserList", "UserString"]
            .iter()
            .map(|n| {
                let attrs = class_members(USER_COLLECTIONS, &format!("collections.{n}."));
                // A class written in Python in CPython's `collections`: the evaluator gives
                // `__repr__`, `__iter__` and attribute setting to such classes.
                Class::python(n, "collections", Vec::new(), attrs)
            })
            .collect()
    });
    all.iter()
        .find(|c| c.name == name)
        .map(|c| Value::Class(c.clone()))
}

fn this(a: &Args) -> Result<Arc<Instance>> {
    match a.value("self") {
        Value::Instance(i) => Ok(i.clone()),
        other => Err(Error::new(
            ExceptionClass::TypeError,
            format!("descriptor needs an instance, not {}", other.type_name()),
        )
        .at(a.call)),
    }
}

fn data(a: &Args) -> Result<Value> {
    Ok(attr_get(&this(a)?.attrs, "data").unwrap_or(Value::None))
}

/// A UserDict's, UserList's or UserString's `data`, else the value itself.
fn plain(v: &Value) -> Value {
    match v {
        Value::Instance(i)
            if ["UserDict", "UserList", "UserString"]
                .iter()
                .filter_map(|n| user_class(n))
                .any(|c| i.class.is_subclass_of(&c)) =>
        {
            attr_get(&i.attrs, "data").unwrap_or_else(|| v.clone())
        }
        _ => v.clone(),
    }
}

/// A new instance of the receiver's class holding `value` (made through its `__init__`).
fn remake(it: &mut Interp<'_>, a: &Args, value: Value) -> Result<Value> {
    let cls = Value::Class(this(a)?.class.clone());
    it.call(
        &cls,
        vec![CallArg {
            name: None,
            value,
            span: a.call,
        }],
        a.call,
    )
}

/// The `(key, value)` pairs of a mapping (its `keys()` and items) or of an iterable of
/// pairs, as `dict.update` reads them.
pub(super) fn pairs(it: &mut Interp<'_>, other: &Value, span: Span) -> Result<Vec<(Value, Value)>> {
    let other = plain(other);
    if let Value::Dict(d) = &other {
        return Ok(d.items());
    }
    if let Value::Instance(_) = &other {
        if let Ok(keys) = it.get_attr(other.clone(), "keys", span, span) {
            let keys = it.call_values(&keys, Vec::new(), span)?;
            let mut out = Vec::new();
            for k in it.iterate_value(&keys, span)? {
                let v = item_of(it, &other, k.clone(), span)?;
                out.push((k, v));
            }
            return Ok(out);
        }
    }
    let mut out = Vec::new();
    for (n, p) in it.iterate_value(&other, span)?.into_iter().enumerate() {
        let items = it.iterate_value(&p, span)?;
        if items.len() != 2 {
            return Err(Error::new(
                ExceptionClass::ValueError,
                format!(
                    "dictionary update sequence element #{n} has length {}; 2 is required",
                    items.len()
                ),
            )
            .at(span));
        }
        let mut items = items.into_iter();
        let (k, v) = (
            items.next().unwrap_or(Value::None),
            items.next().unwrap_or(Value::None),
        );
        out.push((k, v));
    }
    Ok(out)
}

fn fill(it: &mut Interp<'_>, a: &Args, other: Option<&Value>) -> Result<()> {
    let me = a.value("self").clone();
    if let Some(other) = other {
        for (k, v) in pairs(it, other, a.call)? {
            set_in(it, &me, k, v, a.call)?;
        }
    }
    for (k, v, _) in a.kwargs() {
        set_in(it, &me, Value::str(k), v.clone(), a.call)?;
    }
    Ok(())
}

fn ud_init(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let i = this(a)?;
    attr_set(&i.attrs, "data", Value::Dict(PyDict::new(Vec::new())?));
    fill(it, a, a.get("dict"))?;
    Ok(Value::None)
}

fn ud_update(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    fill(it, a, a.get("other"))?;
    Ok(Value::None)
}

fn ud_getitem(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let d = data(a)?;
    let key = a.value("key");
    if has(it, &d, key, a.call)? {
        return item_of(it, &d, key.clone(), a.call);
    }
    if let Some(v) = it.dunder(a.value("self"), "__missing__", vec![key.clone()], a.call)? {
        return Ok(v);
    }
    Err(Error::new(ExceptionClass::KeyError, repr_of(key)).at(a.call))
}

fn ud_setitem(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    set_in(
        it,
        &data(a)?,
        a.value("key").clone(),
        a.value("item").clone(),
        a.call,
    )?;
    Ok(Value::None)
}

fn ud_delitem(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    crate::eval::items::del_item(&data(a)?, Sub::Key(a.value("key").clone(), a.call), a.call)?;
    Ok(Value::None)
}

fn ud_get(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let me = a.value("self").clone();
    if has(it, &data(a)?, a.value("key"), a.call)? {
        return item_of(it, &me, a.value("key").clone(), a.call);
    }
    Ok(a.value("default").clone())
}

fn ud_view(_: &mut Interp<'_>, a: &Args, kind: ViewKind) -> Result<Value> {
    match data(a)? {
        Value::Dict(dict) => Ok(Value::View(Arc::new(DictView { dict, kind }))),
        other => Err(Error::new(
            ExceptionClass::TypeError,
            format!("UserDict data must be a dict, not {}", other.type_name()),
        )
        .at(a.call)),
    }
}

fn ud_pop(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let me = a.value("self").clone();
    let key = a.value("key");
    if has(it, &data(a)?, key, a.call)? {
        let v = item_of(it, &me, key.clone(), a.call)?;
        it.dunder(&me, "__delitem__", vec![key.clone()], a.call)?;
        return Ok(v);
    }
    match a.rest().first() {
        Some((d, _)) => Ok(d.clone()),
        None => Err(Error::new(ExceptionClass::KeyError, repr_of(key)).at(a.call)),
    }
}

fn ud_setdefault(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let me = a.value("self").clone();
    let key = a.value("key");
    if !has(it, &data(a)?, key, a.call)? {
        set_in(it, &me, key.clone(), a.value("default").clone(), a.call)?;
    }
    item_of(it, &me, key.clone(), a.call)
}

fn ud_clear(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    attr_set(
        &this(a)?.attrs,
        "data",
        Value::Dict(PyDict::new(Vec::new())?),
    );
    Ok(Value::None)
}

fn ud_copy(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let new = remake(it, a, Value::Dict(PyDict::new(Vec::new())?))?;
    if let (Value::Instance(n), Value::Dict(d)) = (&new, data(a)?) {
        attr_set(&n.attrs, "data", Value::Dict(PyDict::new(d.items())?));
    }
    Ok(new)
}

fn ul_init(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let i = this(a)?;
    let items = match a.get("initlist") {
        Some(v) => it.iterate_value(&plain(v), a.call)?,
        None => Vec::new(),
    };
    attr_set(&i.attrs, "data", Value::List(PyList::new(items, false)));
    Ok(Value::None)
}

fn us_init(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let i = this(a)?;
    let seq = plain(a.value("seq"));
    it.prepare_shown(&seq, a.call)?;
    attr_set(&i.attrs, "data", Value::str(str_of(&seq)));
    Ok(Value::None)
}

fn data_attr(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let name = str_of(a.value("name"));
    let i = this(a)?;
    let Some(d) = attr_get(&i.attrs, "data") else {
        return Err(Error::new(
            ExceptionClass::AttributeError,
            format!("'{}' object has no attribute '{name}'", i.class.name),
        )
        .at(a.call));
    };
    it.get_attr(d, &name, a.call, a.call).map_err(|_| {
        Error::new(
            ExceptionClass::AttributeError,
            format!("'{}' object has no attribute '{name}'", i.class.name),
        )
        .at(a.call)
    })
}

fn data_len(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let d = data(a)?;
    let n = match &d {
        Value::Dict(x) => x.len() as i64,
        Value::List(x) => x.len() as i64,
        Value::Str(s) => s.chars().count() as i64,
        other => it.len_of(other, a.call)?,
    };
    Ok(Value::Int(n))
}

fn data_iter(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    crate::eval::iterators::to_iter(&data(a)?).map_err(|e| Error::from(e).at(a.call))
}

fn data_contains(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let key = a.value("key").clone();
    let d = data(a)?;
    let r = it
        .binary_values(BinOp::In, &plain(&key), &d, a.call)?
        .map_err(|e| Error::from(e).at(a.call))?;
    Ok(Value::Bool(it.truth(&r, a.call)?))
}

fn data_repr(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let d = data(a)?;
    it.prepare_shown(&d, a.call)?;
    Ok(Value::str(repr_of(&d)))
}

fn us_str(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    data(a)
}

fn data_eq(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    compare(it, a, BinOp::Eq)
}

fn compare(it: &mut Interp<'_>, a: &Args, op: BinOp) -> Result<Value> {
    let d = data(a)?;
    it.binary_values(op, &d, &plain(a.value("other")), a.call)?
        .map_err(|e| Error::from(e).at(a.call))
}

fn combine(it: &mut Interp<'_>, a: &Args, op: BinOp, reflected: bool) -> Result<Value> {
    let (d, o) = (data(a)?, plain(a.value("other")));
    let (x, y) = if reflected { (&o, &d) } else { (&d, &o) };
    let r = it
        .binary_values(op, x, y, a.call)?
        .map_err(|e| Error::from(e).at(a.call))?;
    remake(it, a, r)
}

fn seq_getitem(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let d = data(a)?;
    let key = a.value("i");
    let is_str = matches!(d, Value::Str(_));
    let r = match key {
        Value::Slice(s) => {
            let [x, y, z] = s.parts().map(super::slices::bound);
            let at = |r: std::result::Result<Option<i64>, ragtag_engine::Exception>| {
                r.map_err(|e| a.err_at("i", e))
            };
            let sub = Sub::Slice(at(x)?, at(y)?, at(z)?);
            let r = crate::eval::items::get_item(&d, &sub, a.call)?;
            return remake(it, a, r);
        }
        k => item_of(it, &d, k.clone(), a.call)?,
    };
    if is_str {
        return remake(it, a, r);
    }
    Ok(r)
}

fn ul_setitem(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let sub = match a.value("i") {
        Value::Slice(_) => {
            return Err(Error::new(
                ExceptionClass::TypeError,
                "ragtag's UserList does not assign to slices",
            )
            .at(a.call))
        }
        k => Sub::Key(k.clone(), a.call),
    };
    crate::eval::items::set_item(&data(a)?, sub, a.value("item").clone(), a.call)?;
    Ok(Value::None)
}

fn ul_delitem(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    crate::eval::items::del_item(&data(a)?, Sub::Key(a.value("i").clone(), a.call), a.call)?;
    Ok(Value::None)
}
