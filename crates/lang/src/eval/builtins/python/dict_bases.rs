//! Classes deriving from `collections`' dicts (`class C(Counter)`, `class D(defaultdict)`,
//! `class O(OrderedDict)`), built as those deriving from `dict` are (see `builtin_bases`):
//! the instance's items live in a dict of the base's kind (a Counter's, an OrderedDict's),
//! the class standing for the base sits between the class and `dict`'s in the MRO, and the
//! methods below are the ones that must see the instance (its class's name in the repr, a
//! defaultdict's `default_factory` kept on the instance, `__missing__`). The base's other
//! methods (`most_common`, `move_to_end`, `popitem(last=False)`) act on the items' dict.
//! Also `fromkeys` on a class deriving from dict, which makes an instance of that class.

use super::builtin_bases::{base_of, combine};
use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::builtins::Builtin;
use crate::eval::Interp;
use crate::render::tf_text::repr_of;
use crate::value::class::{attr_get, attr_set};
use crate::value::Value;
use ragtag_engine::ExceptionClass;
use ragtag_syntax::ast::BinOp;

macro_rules! m {
    ($name:literal, $sig:literal, $f:expr, $doc:literal, $ex:literal) => {
        Builtin::method($name, $sig, $f)
            .doc($doc)
            .examples(&[concat!("from collections import *\n", $ex)])
    };
}

/// The methods of the classes standing for Counter, defaultdict and OrderedDict as bases,
/// and `fromkeys` of one standing for dict.
pub static DICT_BASE_METHODS: &[Builtin] = &[
    m!("collections.Counter.__init__", "(self, *args, **kwds)", counter_init, "Counts the items of an iterable (or adds a mapping's counts) and the keywords, through the instance's `update`.", "class C(Counter): pass\nC('abca')"),
    m!("collections.Counter.__missing__", "(self, key)", |_, _| Ok(Value::Int(0)), "0: a missing key counts nothing (and is not added).", "class C(Counter): pass\nC()['x']"),
    m!("collections.Counter.__repr__", "(self)", named_repr, "The Counter's repr under the class's name (`C({'a': 2})`).", "class C(Counter): pass\nrepr(C('aab'))"),
    m!("collections.Counter.__add__", "(self, other)", |it, a| combine(it, a, BinOp::Add, false), "A new plain Counter adding the counts (keeping the positive ones).", "class C(Counter): pass\nC('ab') + C('b')"),
    m!("collections.Counter.__sub__", "(self, other)", |it, a| combine(it, a, BinOp::Sub, false), "A new plain Counter subtracting the counts (keeping the positive ones).", "class C(Counter): pass\nC('aab') - C('a')"),
    m!("collections.Counter.__and__", "(self, other)", |it, a| combine(it, a, BinOp::BitAnd, false), "A new plain Counter of the smaller counts.", "class C(Counter): pass\nC('aab') & C('ab')"),
    m!("collections.Counter.__delitem__", "(self, key)", counter_delitem, "`del c[key]`, nothing when the key is missing (unlike a dict).", "class C(Counter): pass\nc = C('ab')\ndel c['a'], c['z']\nc"),
    m!("collections.Counter.copy", "(self)", |it, a| copy(it, a, false), "A new instance of the class with the same counts.", "class C(Counter): pass\nC('ab').copy()"),
    m!("collections.OrderedDict.copy", "(self)", |it, a| copy(it, a, false), "A new instance of the class with the same pairs in order.", "class O(OrderedDict): pass\nO(a=1).copy()"),
    m!("collections.defaultdict.copy", "(self)", |it, a| copy(it, a, true), "A new instance of the class: `type(self)(self.default_factory, self)`.", "class D(defaultdict): pass\nD(list, a=[1]).copy()"),
    m!("collections.defaultdict.__init__", "(self, *args, **kwargs)", dd_init, "Keeps the first argument (a callable or None) as `default_factory`, then adds the pairs of a mapping or iterable of pairs and the keywords.", "class D(defaultdict): pass\nD(list, a=[1])"),
    m!("collections.defaultdict.__missing__", "(self, key)", dd_missing, "`self[key] = default_factory()`, returned; KeyError when the factory is None.", "class D(defaultdict): pass\nd = D(list)\nd['a'].append(1)\nd"),
    m!("collections.defaultdict.__repr__", "(self)", named_repr, "`D(factory, {...})` under the class's name.", "class D(defaultdict): pass\nrepr(D(int, a=1))"),
    m!("collections.OrderedDict.__repr__", "(self)", named_repr, "The OrderedDict's repr under the class's name (`O([('a', 1)])`).", "class O(OrderedDict): pass\nrepr(O(a=1))"),
    Builtin::function("dict.__subclass_fromkeys__", "(cls, keys, value=None)", fromkeys)
        .doc("`C.fromkeys(keys, value)` for a class deriving from dict: a new `C()` with each key set to `value` through its `__setitem__`.")
        .examples(&["class D(dict): pass\ntype(D.fromkeys('ab', 0)).__name__"]),
];

fn me(a: &Args) -> Value {
    base_of(a.value("self"))
}

fn class_name(a: &Args) -> String {
    match a.value("self") {
        Value::Instance(i) => i.class.name.to_string(),
        other => other.type_name().to_string(),
    }
}

/// The instance's `default_factory`: its own attribute, None when not set.
fn factory(a: &Args) -> Value {
    match a.value("self") {
        Value::Instance(i) => attr_get(&i.attrs, "default_factory").unwrap_or(Value::None),
        _ => Value::None,
    }
}

fn counter_init(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    if a.rest().len() > 1 {
        return Err(Error::new(
            ExceptionClass::TypeError,
            format!("expected at most 1 argument, got {}", a.rest().len()),
        )
        .at(a.call));
    }
    let update = it.attribute(a.value("self").clone(), "update", a.call)?;
    let mut args = a.forwarded();
    for arg in args.iter_mut().filter(|arg| arg.name.is_none()) {
        arg.value = base_of(&arg.value);
    }
    it.call(&update, args, a.call)?;
    Ok(Value::None)
}

fn dd_init(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let rest = a.rest();
    let f = rest.first().map_or(Value::None, |(v, _)| v.clone());
    super::collections::check_factory(&f, a.call)?;
    if let Value::Instance(i) = a.value("self") {
        attr_set(&i.attrs, "default_factory", f);
    }
    if rest.len() > 2 {
        return Err(Error::new(
            ExceptionClass::TypeError,
            format!("dict expected at most 1 argument, got {}", rest.len() - 1),
        )
        .at(a.call));
    }
    let Value::Dict(d) = me(a) else {
        return Ok(Value::None);
    };
    if let Some((other, span)) = rest.get(1) {
        for (k, v) in super::user_collections::pairs(it, &base_of(other), *span)? {
            d.insert(k, v).map_err(|e| Error::from(e).at(*span))?;
        }
    }
    for (k, v, _) in a.kwargs() {
        d.insert(Value::str(k), v.clone()).map_err(Error::from)?;
    }
    Ok(Value::None)
}

fn dd_missing(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let key = a.value("key");
    let f = factory(a);
    if matches!(f, Value::None) {
        return Err(Error::new(ExceptionClass::KeyError, repr_of(key)).at(a.call));
    }
    let v = it.call_values(&f, Vec::new(), a.call)?;
    let self_ = a.value("self");
    if it
        .dunder(self_, "__setitem__", vec![key.clone(), v.clone()], a.call)?
        .is_none()
    {
        if let Value::Dict(d) = me(a) {
            d.insert(key.clone(), v.clone()).map_err(Error::from)?;
        }
    }
    Ok(v)
}

fn named_repr(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let d = me(a);
    let name = class_name(a);
    let shown = match super::builtin_bases::repr(it, a)? {
        Value::Str(s) => s.to_string(),
        other => repr_of(&other),
    };
    // Met again inside itself.
    if shown == "{...}" {
        return Ok(Value::str("..."));
    }
    if let Value::Dict(dict) = &d {
        if let crate::value::DictKind::Default(_) = dict.kind() {
            let f = factory(a);
            it.prepare_shown(&f, a.call)?;
            let inner = Value::dict(dict.items()).map_err(Error::from)?;
            return Ok(Value::str(format!(
                "{name}({}, {})",
                repr_of(&f),
                repr_of(&inner)
            )));
        }
    }
    // `Counter({...})`, `OrderedDict([...])`: the kind's name becomes the class's.
    let rest = shown.find('(').map_or(shown.as_str(), |p| &shown[p..]);
    Ok(Value::str(format!("{name}{rest}")))
}

fn fromkeys(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let cls = a.value("cls");
    if matches!(cls, Value::Class(c) if c.builtin_base() == Some("collections.Counter")) {
        return Err(Error::new(
            ExceptionClass::NotImplementedError,
            "Counter.fromkeys() is undefined.  Use Counter(iterable) instead.",
        )
        .at(a.call)
        .with_hint("a Counter counts an iterable's items: `Counter(keys)` counts each key once"));
    }
    let keys = it.iterate_value(a.value("keys"), a.call)?;
    let value = a.get("value").cloned().unwrap_or(Value::None);
    let made = it.call_values(cls, Vec::new(), a.call)?;
    for k in keys {
        let done = it.dunder(&made, "__setitem__", vec![k.clone(), value.clone()], a.call)?;
        if done.is_none() {
            if let Value::Dict(d) = base_of(&made) {
                d.insert(k, value.clone()).map_err(Error::from)?;
            }
        }
    }
    Ok(made)
}

fn counter_delitem(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let key = a.value("key");
    it.prime_key(key, a.call)?;
    if let Value::Dict(d) = me(a) {
        d.remove(key).map_err(|e| Error::from(e).at(a.call))?;
    }
    Ok(Value::None)
}

/// `type(self)(self)`, with the `default_factory` first for a defaultdict.
fn copy(it: &mut Interp<'_>, a: &Args, factory_first: bool) -> Result<Value> {
    let this = a.value("self");
    let cls = match this {
        Value::Instance(i) => Value::Class(i.class.clone()),
        // A plain Counter, OrderedDict or defaultdict (this method is theirs too).
        Value::Dict(d) => return Ok(Value::Dict(d.copy())),
        other => return Ok(other.clone()),
    };
    let mut args = Vec::new();
    if factory_first {
        args.push(factory(a));
    }
    args.push(this.clone());
    it.call_values(&cls, args, a.call)
}
