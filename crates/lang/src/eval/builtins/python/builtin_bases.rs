//! Classes deriving from `dict` and `list` (`class D(dict)`; `tuple`, `str`, `int` and
//! `float` are in `value_bases`, `collections`' dicts in `dict_bases`). An instance of such a class
//! keeps its items in a plain dict or list of its own (its "base value", made with the
//! instance); the class's MRO holds a class standing for the builtin type, whose methods
//! below act on that value (so `super().__setitem__` and `dict.__setitem__(self, …)` reach
//! them), and every other method of the type (`get`, `append`, …) is the builtin one bound
//! to the base value, as CPython's builtin methods do not go through a subclass's
//! overrides. Operators give the base type (`D(a=1) | {}` is a plain dict). `collections`'
//! dicts as bases are in `dict_bases`.

use std::sync::{Arc, OnceLock};

use super::dict_bases::DICT_BASE_METHODS;
use super::functools::class_members;
use super::text::item_of;
use super::value_bases::VALUE_BASE_METHODS;
use crate::diagnostic::{Error, Result};
use crate::eval::args::{Args, CallArg};
use crate::eval::builtins::{Builtin, Kind};
use crate::eval::items::{self, Sub};
use crate::eval::Interp;
use crate::render::tf_text::repr_of;
use crate::value::class::{Class, Instance, BUILTIN_BASES};
use crate::value::{DictKind, PyDict, PyList, Value};
use ragtag_engine::ExceptionClass;
use ragtag_syntax::ast::{BinOp, Span};

macro_rules! m {
    ($name:literal, $sig:literal, $f:expr, $doc:literal, $ex:literal) => {
        Builtin::method($name, $sig, $f).doc($doc).examples(&[$ex])
    };
}

/// The methods of the classes standing for `dict` and `list` as bases.
pub static BUILTIN_BASE_METHODS: &[Builtin] = &[
    m!("dict.__init__", "(self, *args, **kwargs)", dict_init, "Adds the pairs of a mapping or iterable of pairs and the keywords (not through a subclass's `__setitem__`).", "class D(dict): pass\nD({'a': 1}, b=2)"),
    m!("dict.__getitem__", "(self, key)", dict_getitem, "`d[key]`; a missing key calls the class's `__missing__` when it has one, else KeyError.", "class D(dict):\n    def __missing__(self, k): return 0\nD()['x']"),
    m!("dict.__setitem__", "(self, key, value, /)", setitem, "`d[key] = value`.", "d = {}\ndict.__setitem__(d, 'a', 1)\nd"),
    m!("dict.__delitem__", "(self, key, /)", delitem, "`del d[key]`.", "d = {'a': 1}\ndict.__delitem__(d, 'a')\nd"),
    m!("dict.__len__", "(self)", len, "The number of keys.", "class D(dict): pass\nlen(D(a=1))"),
    m!("dict.__iter__", "(self)", iter, "An iterator over the keys.", "class D(dict): pass\nlist(D(a=1, b=2))"),
    m!("dict.__contains__", "(self, key)", contains, "Whether `key` is a key.", "class D(dict): pass\n'a' in D(a=1)"),
    m!("dict.__repr__", "(self)", repr, "The dict's repr (`{'a': 1}`).", "class D(dict): pass\nrepr(D(a=1))"),
    m!("dict.__eq__", "(self, other)", |it, a| compare(it, a, BinOp::Eq), "`==` between the dicts' pairs.", "class D(dict): pass\nD(a=1) == {'a': 1}"),
    m!("dict.__or__", "(self, other)", |it, a| combine(it, a, BinOp::BitOr, false), "A new plain dict: the pairs, then `other`'s.", "class D(dict): pass\nD(a=1) | {'b': 2}"),
    m!("dict.__ror__", "(self, other)", |it, a| combine(it, a, BinOp::BitOr, true), "A new plain dict: `other`'s pairs, then these.", "class D(dict): pass\n{'b': 2} | D(a=1)"),
    m!("dict.__ior__", "(self, other)", dict_ior, "Adds `other`'s pairs in place; the instance itself.", "class D(dict): pass\nd = D(a=1)\nd |= {'b': 2}\nd"),
    m!("list.__init__", "(self, iterable=())", list_init, "The items of `iterable`, replacing any there were.", "class L(list): pass\nL('ab')"),
    m!("list.__getitem__", "(self, key, /)", list_getitem, "An item; a slice is a new plain list.", "class L(list): pass\nL([1, 2, 3])[1:]"),
    m!("list.__setitem__", "(self, key, value, /)", setitem, "`l[index] = value` (a slice takes an iterable).", "l = [1, 2]\nlist.__setitem__(l, 0, 5)\nl"),
    m!("list.__delitem__", "(self, key, /)", delitem, "`del l[index]`.", "l = [1, 2]\nlist.__delitem__(l, 0)\nl"),
    m!("list.__len__", "(self)", len, "The number of items.", "class L(list): pass\nlen(L([1, 2]))"),
    m!("list.__iter__", "(self)", iter, "An iterator over the items.", "class L(list): pass\nlist(iter(L([1, 2])))"),
    m!("list.__contains__", "(self, key, /)", contains, "Whether an item equals `value`.", "class L(list): pass\n2 in L([1, 2])"),
    m!("list.__repr__", "(self)", repr, "The list's repr (`[1, 2]`).", "class L(list): pass\nrepr(L([1]))"),
    m!("list.__eq__", "(self, other)", |it, a| compare(it, a, BinOp::Eq), "`==` item by item.", "class L(list): pass\nL([1]) == [1]"),
    m!("list.__lt__", "(self, other)", |it, a| compare(it, a, BinOp::Lt), "`<` item by item.", "class L(list): pass\nL([1]) < [2]"),
    m!("list.__le__", "(self, other)", |it, a| compare(it, a, BinOp::Le), "`<=` item by item.", "class L(list): pass\nL([1]) <= [1]"),
    m!("list.__gt__", "(self, other)", |it, a| compare(it, a, BinOp::Gt), "`>` item by item.", "class L(list): pass\nL([3]) > [2]"),
    m!("list.__ge__", "(self, other)", |it, a| compare(it, a, BinOp::Ge), "`>=` item by item.", "class L(list): pass\nL([2]) >= [2]"),
    m!("list.__add__", "(self, other)", |it, a| combine(it, a, BinOp::Add, false), "A new plain list: the items, then `other`'s.", "class L(list): pass\nL([1]) + [2]"),
    m!("list.__radd__", "(self, other)", |it, a| combine(it, a, BinOp::Add, true), "A new plain list: `other`'s items, then these.", "class L(list): pass\n[0] + L([1])"),
    m!("list.__mul__", "(self, other)", |it, a| combine(it, a, BinOp::Mul, false), "A new plain list of the items repeated.", "class L(list): pass\nL([1]) * 3"),
    m!("list.__rmul__", "(self, other)", |it, a| combine(it, a, BinOp::Mul, true), "A new plain list of the items repeated.", "class L(list): pass\n3 * L([1])"),
    m!("list.__iadd__", "(self, other)", list_iadd, "Extends the list in place by `other`'s items; the instance itself.", "class L(list): pass\nl = L([1])\nl += (2, 3)\nl"),
    m!("list.__imul__", "(self, other)", list_imul, "Repeats the items in place; the instance itself.", "class L(list): pass\nl = L([1])\nl *= 2\nl"),
];

/// The class standing for the builtin type `name` (`dict`, `list`, `collections.Counter`,
/// …) as a base class; `collections`' dicts derive from the one standing for `dict`.
pub fn base_class(name: &str) -> Option<Value> {
    static CLASSES: OnceLock<Vec<Arc<Class>>> = OnceLock::new();
    let all = CLASSES.get_or_init(|| {
        let mut made: Vec<Arc<Class>> = Vec::new();
        for n in BUILTIN_BASES {
            let prefix = format!("{n}.");
            let mut attrs = class_members(BUILTIN_BASE_METHODS, &prefix);
            attrs.extend(class_members(DICT_BASE_METHODS, &prefix));
            for table in VALUE_BASE_METHODS {
                attrs.extend(class_members(table, &prefix));
            }
            // Instances of the mutable types are unhashable; the others hash as their
            // base value (see `Key::of`).
            if matches!(layout(n), "dict" | "list") {
                attrs.push(("__hash__".into(), Value::None));
            }
            if *n == "dict" {
                let f = crate::eval::builtins::registry()
                    .get("dict.__subclass_fromkeys__")
                    .map_or(Value::None, Value::Builtin);
                let f = crate::eval::classes::wrapper("classmethod", vec![("__func__".into(), f)]);
                attrs.push(("fromkeys".into(), f));
            }
            let bases = match layout(n) {
                "dict" if *n != "dict" => made
                    .iter()
                    .filter(|c| c.name == "dict")
                    .map(|c| Value::Class(c.clone()))
                    .collect(),
                _ => Vec::new(),
            };
            made.push(Class::new(n, "builtins", bases, attrs));
        }
        made
    });
    all.iter()
        .find(|c| c.name == name)
        .map(|c| Value::Class(c.clone()))
}

/// The builtin type whose instances' layout a base `name` has: `dict` for `collections`'
/// dicts, else the name itself.
pub fn layout(name: &str) -> &str {
    if name.starts_with("collections.") {
        "dict"
    } else {
        name
    }
}

/// Gives a new instance of a class deriving from a builtin type its empty base value.
pub fn init_base(i: &Instance) {
    let dict = |kind| i.set_base(Value::Dict(PyDict::of_kind(kind)));
    match i.class.builtin_base() {
        Some("dict") => dict(DictKind::Plain),
        Some("collections.Counter") => dict(DictKind::Counter),
        Some("collections.OrderedDict") => dict(DictKind::Ordered),
        Some("collections.defaultdict") => dict(DictKind::Default(Value::None)),
        Some("list") => i.set_base(Value::List(PyList::new(Vec::new(), false))),
        _ => {}
    }
}

/// The value holding an instance's items (its base value), else the value itself.
pub fn base_of(v: &Value) -> Value {
    match v {
        Value::Instance(i) => i.base().cloned().unwrap_or_else(|| v.clone()),
        _ => v.clone(),
    }
}

/// `obj.name` for an instance of a class deriving from a builtin type, when the class has
/// no such attribute: the builtin type's own method, bound to the base value.
pub fn base_attr(it: &mut Interp<'_>, o: &Value, name: &str, span: Span) -> Option<Value> {
    let Value::Instance(i) = o else {
        return None;
    };
    let base = i.base()?.clone();
    it.get_attr(base, name, span, span).ok()
}

/// A method of `dict` or `list` called with an instance of a subclass as its receiver
/// (`dict.get(self, k)`): the receiver becomes the instance's base value.
pub fn unwrap_receiver(b: &Builtin, args: &mut [CallArg]) {
    let Some(first) = args.first_mut() else {
        return;
    };
    if b.kind != Kind::Method {
        return;
    }
    if let Value::Instance(i) = &first.value {
        if let Some(base) = i.base() {
            let ty = b.name.split('.').next().unwrap_or("");
            if !b.name.contains(".__") && base.type_name() == ty {
                first.value = base.clone();
            }
        }
    }
}

/// The builtins of `collections` reading a mapping's pairs (its counts for a Counter).
const MAPPING_READERS: &[&str] = &[
    "collections.Counter",
    "collections.Counter.update",
    "collections.Counter.subtract",
    "collections.OrderedDict",
    "collections.defaultdict",
];

/// An instance of a class deriving from dict or list passed where a builtin reads an
/// iterable: its dict for `dict(d)` and `update(d)` (which read the pairs, as CPython's do
/// for a subclass), else the list of its items through its `__iter__`.
pub fn iterable_arg(
    it: &mut Interp<'_>,
    b: &Builtin,
    v: &Value,
    span: Span,
) -> Result<Option<Value>> {
    let Value::Instance(i) = v else {
        return Ok(None);
    };
    match i.base() {
        // An object of the user's whose `__iter__` gives an iterator: that iterator (a
        // mapping, with `keys`, is left to the builtin, which reads it as one).
        None if i.class.lookup("__iter__").is_some() && i.class.lookup("keys").is_none() => {
            let iter = it.iter_of(v, span)?;
            return Ok(Some(crate::eval::user_iter::wrap(&iter).unwrap_or(iter)));
        }
        None => return Ok(None),
        Some(d @ Value::Dict(_))
            if b.name.starts_with("dict") || MAPPING_READERS.contains(&b.name) =>
        {
            return Ok(Some(d.clone()))
        }
        Some(_) => {}
    }
    match it.instance_iter(v, span)? {
        Some(items) => Ok(Some(Value::list(it.collect(&items, span)?))),
        None => Ok(None),
    }
}

fn me(a: &Args) -> Value {
    base_of(a.value("self"))
}

fn at<T>(a: &Args, r: std::result::Result<T, ragtag_engine::Exception>) -> Result<T> {
    r.map_err(|e| Error::from(e).at(a.call))
}

/// A subscript value as the evaluator's `Sub` (a slice object becomes its bounds).
fn sub_of(a: &Args, key: &Value) -> Result<Sub> {
    Ok(match key {
        Value::Slice(s) => {
            let [x, y, z] = s.parts().map(super::slices::bound);
            Sub::Slice(at(a, x)?, at(a, y)?, at(a, z)?)
        }
        k => Sub::Key(k.clone(), a.call),
    })
}

fn dict_init(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let Value::Dict(d) = me(a) else {
        return Err(not_a(a, "dict"));
    };
    let rest = a.rest();
    if rest.len() > 1 {
        return Err(Error::new(
            ExceptionClass::TypeError,
            format!("dict expected at most 1 argument, got {}", rest.len()),
        )
        .at(a.call));
    }
    if let Some((other, _)) = rest.first() {
        for (k, v) in super::user_collections::pairs(it, &base_of(other), a.call)? {
            at(a, d.insert(k, v))?;
        }
    }
    for (k, v, _) in a.kwargs() {
        at(a, d.insert(Value::str(k), v.clone()))?;
    }
    Ok(Value::None)
}

fn not_a(a: &Args, ty: &str) -> Error {
    Error::new(
        ExceptionClass::TypeError,
        format!(
            "descriptor requires a '{ty}' object but received a '{}'",
            a.value("self").type_name()
        ),
    )
    .at(a.call)
}

fn dict_getitem(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let Value::Dict(d) = me(a) else {
        return Err(not_a(a, "dict"));
    };
    let key = a.value("key");
    it.prime_key(key, a.call)?;
    if let Some(v) = at(a, d.get(key))? {
        return Ok(v);
    }
    if let Some(v) = it.dunder(a.value("self"), "__missing__", vec![key.clone()], a.call)? {
        return Ok(v);
    }
    Err(Error::new(ExceptionClass::KeyError, repr_of(key)).at(a.call))
}

fn list_getitem(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    item(it, &me(a), a.value("key"), a)
}

/// `base[key]`: an item, or a plain value of the base's type for a slice.
pub(super) fn item(it: &mut Interp<'_>, base: &Value, key: &Value, a: &Args) -> Result<Value> {
    match sub_of(a, key)? {
        Sub::Key(k, _) => item_of(it, base, k, a.call),
        sub => items::get_item(base, &sub, a.call),
    }
}

fn setitem(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let (key, v) = (a.value("key"), a.value("value"));
    it.prime_key(key, a.call)?;
    let v = match (key, v) {
        // A slice takes the items of any iterable.
        (Value::Slice(_), v) => Value::List(PyList::new(it.iterate_value(v, a.call)?, false)),
        _ => v.clone(),
    };
    items::set_item(&me(a), sub_of(a, key)?, v, a.call)?;
    Ok(Value::None)
}

fn delitem(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let key = a.value("key");
    it.prime_key(key, a.call)?;
    items::del_item(&me(a), sub_of(a, key)?, a.call)?;
    Ok(Value::None)
}

fn len(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    Ok(Value::Int(match me(a) {
        Value::Dict(d) => d.len() as i64,
        Value::List(l) => l.len() as i64,
        _ => return Err(not_a(a, "dict")),
    }))
}

fn iter(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    at(a, crate::eval::iterators::to_iter(&me(a)))
}

fn contains(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let key = a.value("key");
    let r = it.binary_values(BinOp::In, key, &me(a), a.call)?;
    let r = at(a, r)?;
    Ok(Value::Bool(it.truth(&r, a.call)?))
}

thread_local! {
    /// The dicts and lists whose repr is being made: one met again inside itself shows as
    /// `{...}` or `[...]`, as CPython's does.
    static SHOWING: std::cell::RefCell<Vec<usize>> = const { std::cell::RefCell::new(Vec::new()) };
}

pub(super) fn repr(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let d = me(a);
    let id = match &d {
        Value::Dict(x) => Arc::as_ptr(x) as usize,
        Value::List(x) => Arc::as_ptr(x) as usize,
        _ => return Err(not_a(a, "dict")),
    };
    if SHOWING.with(|s| s.borrow().contains(&id)) {
        let dots = if matches!(d, Value::Dict(_)) {
            "{...}"
        } else {
            "[...]"
        };
        return Ok(Value::str(dots));
    }
    SHOWING.with(|s| s.borrow_mut().push(id));
    let shown = it.prepare_shown(&d, a.call);
    SHOWING.with(|s| s.borrow_mut().retain(|x| *x != id));
    shown?;
    Ok(Value::str(repr_of(&d)))
}

fn compare(it: &mut Interp<'_>, a: &Args, op: BinOp) -> Result<Value> {
    let (x, y) = (me(a), base_of(a.value("other")));
    let same = matches!(
        (&x, &y),
        (Value::Dict(_), Value::Dict(_)) | (Value::List(_), Value::List(_))
    );
    if !same {
        return Ok(not_implemented());
    }
    let r = it.binary_values(op, &x, &y, a.call)?;
    at(a, r)
}

fn not_implemented() -> Value {
    crate::eval::dunder::not_implemented()
}

pub(super) fn combine(it: &mut Interp<'_>, a: &Args, op: BinOp, reflected: bool) -> Result<Value> {
    let (x, y) = (me(a), base_of(a.value("other")));
    let fits = matches!(
        (&x, &y, op),
        (_, Value::Int(_) | Value::Bool(_), BinOp::Mul)
            | (Value::Dict(_), Value::Dict(_), _)
            | (Value::List(_), Value::List(_), _)
    );
    if !fits {
        if let (Value::List(_), BinOp::Add, false) = (&x, op, reflected) {
            return Err(Error::new(
                ExceptionClass::TypeError,
                format!(
                    "can only concatenate list (not \"{}\") to list",
                    a.value("other").type_name()
                ),
            )
            .at(a.call));
        }
        return Ok(not_implemented());
    }
    let (l, r) = if reflected && op != BinOp::Mul {
        (&y, &x)
    } else {
        (&x, &y)
    };
    let r = it.binary_values(op, l, r, a.call)?;
    at(a, r)
}

fn dict_ior(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let Value::Dict(d) = me(a) else {
        return Err(not_a(a, "dict"));
    };
    for (k, v) in super::user_collections::pairs(it, &base_of(a.value("other")), a.call)? {
        at(a, d.insert(k, v))?;
    }
    Ok(a.value("self").clone())
}

fn list_init(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let Value::List(l) = me(a) else {
        return Err(not_a(a, "list"));
    };
    let items = match a.get("iterable") {
        Some(v) => it.iterate_value(v, a.call)?,
        None => Vec::new(),
    };
    l.set_items(items);
    Ok(Value::None)
}

fn list_iadd(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let Value::List(l) = me(a) else {
        return Err(not_a(a, "list"));
    };
    let more = it.iterate_value(a.value("other"), a.call)?;
    l.with_mut(|items| items.extend(more));
    Ok(a.value("self").clone())
}

fn list_imul(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let Value::List(l) = me(a) else {
        return Err(not_a(a, "list"));
    };
    let r = it.binary_values(
        BinOp::Mul,
        &Value::List(l.clone()),
        a.value("other"),
        a.call,
    )?;
    if let Value::List(r) = at(a, r)? {
        l.set_items(r.items());
    }
    Ok(a.value("self").clone())
}
