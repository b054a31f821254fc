//! `collections`' dicts: Counter, defaultdict and OrderedDict. Each is a native dict with a
//! kind (`DictKind`), so it is a dict everywhere a dict is read (`isinstance(c, dict)`,
//! every dict method, `json.dumps`, `dict(c)`, `**c`), with its own methods here, its
//! missing keys in `eval::collection_items` and its operators in `operators::collections`.

use std::collections::VecDeque;
use std::sync::Arc;

use super::super::Builtin;
use super::containers::pairs_of;
use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::operators::binary;
use crate::eval::subscript::iterate;
use crate::eval::Interp;
use crate::render::tf_text::collections::most_common as by_count;
use crate::value::iter::{iter_value, IterState};
use crate::value::{DictKind, PyDict, Value};
use ragtag_engine::ExceptionClass;
use ragtag_syntax::ast::BinOp;

/// Counter, defaultdict and OrderedDict, and their own methods.
pub static COLLECTIONS: &[Builtin] = &[
    Builtin::function("collections.Counter", "(*args, **kwargs)", counter)
        .doc(
            "A dict counting hashable items: `Counter('abca')` counts each letter, a missing \
             key counts 0; `+ - & |` combine counts, keeping the positive ones.",
        )
        .examples(&["import collections\ncollections.Counter('abracadabra').most_common(2)"]),
    Builtin::method(
        "collections.Counter.most_common",
        "(self, n=None)",
        most_common,
    )
    .doc("The `(item, count)` pairs, most common first (ties in insertion order), the first `n`.")
    .examples(&["from collections import Counter\nCounter('aabbbc').most_common(1)"]),
    Builtin::method("collections.Counter.elements", "(self)", elements)
        .doc("An iterator repeating each item as many times as its count (counts below 1: none).")
        .examples(&["from collections import Counter\nsorted(Counter(a=2, b=1).elements())"]),
    Builtin::method("collections.Counter.total", "(self)", total)
        .doc("The sum of the counts.")
        .examples(&["from collections import Counter\nCounter('hello').total()"]),
    Builtin::method(
        "collections.Counter.update",
        "(self, *args, **kwargs)",
        update,
    )
    .doc("Adds counts: of the items of an iterable, or the counts of a mapping.")
    .examples(&["from collections import Counter\nc = Counter('ab')\nc.update('aa')\nc"]),
    Builtin::method(
        "collections.Counter.subtract",
        "(self, *args, **kwargs)",
        subtract,
    )
    .doc("Subtracts counts (which may go to zero or below).")
    .examples(&["from collections import Counter\nc = Counter(a=1)\nc.subtract('aab')\nc"]),
    Builtin::function(
        "collections.defaultdict",
        "(default_factory=None, *args, **kwargs)",
        defaultdict,
    )
    .doc(
        "A dict whose missing key `d[k]` is first set to `default_factory()` \
             (`defaultdict(list)`: a new list).",
    )
    .examples(&["from collections import defaultdict\nd = defaultdict(list)\nd['a'].append(1)\nd"]),
    Builtin::property("collections.defaultdict.default_factory", default_factory)
        .doc("What a missing key's value is made by (None: a missing key is a KeyError).")
        .examples(&["from collections import defaultdict\ndefaultdict(int).default_factory"]),
    Builtin::function("collections.OrderedDict", "(*args, **kwargs)", ordered)
        .doc("A dict that remembers insertion order in `==` and can move keys to either end.")
        .examples(&["from collections import OrderedDict\nOrderedDict(a=1, b=2)"]),
    Builtin::method(
        "collections.OrderedDict.move_to_end",
        "(self, key, last=True)",
        move_to_end,
    )
    .doc("Moves `key` to the end (or, with `last=False`, to the front); KeyError when absent.")
    .examples(&[
        "from collections import OrderedDict\nd = OrderedDict(a=1, b=2)\nd.move_to_end('a')\nd",
    ]),
    Builtin::method(
        "collections.OrderedDict.popitem",
        "(self, last=True)",
        popitem,
    )
    .doc("Removes and returns the last pair (or, with `last=False`, the first).")
    .examples(&["from collections import OrderedDict\nOrderedDict(a=1, b=2).popitem(last=False)"]),
    Builtin::function("collections.OrderedDict.fromkeys", "(iterable, value=None)", |it, a| kind_fromkeys(it, a, DictKind::Ordered))
        .doc("A new OrderedDict with each item of `iterable` as a key, all set to `value`.")
        .examples(&["from collections import OrderedDict\nOrderedDict.fromkeys('ab', 0)"]),
    Builtin::function("collections.defaultdict.fromkeys", "(iterable, value=None)", |it, a| kind_fromkeys(it, a, DictKind::Default(Value::None)))
        .doc("A new defaultdict (its `default_factory` None) with each item of `iterable` as a key, all set to `value`.")
        .examples(&["from collections import defaultdict\ndefaultdict.fromkeys('ab', 0)"]),
];

fn kind_fromkeys(it: &mut Interp<'_>, a: &Args, kind: DictKind) -> Result<Value> {
    let d = PyDict::of_kind(kind);
    let value = a.get("value").cloned().unwrap_or(Value::None);
    for k in it.iterate_value(a.value("iterable"), a.call)? {
        d.insert(k, value.clone())
            .map_err(|e| Error::from(e).at(a.call))?;
    }
    Ok(Value::Dict(d))
}

/// The class path whose members a dict of this kind has (`collections.Counter`).
pub fn class_path(d: &PyDict) -> &'static str {
    match d.kind() {
        DictKind::Plain => "dict",
        DictKind::Counter => "collections.Counter",
        DictKind::Default(_) => "collections.defaultdict",
        DictKind::Ordered => "collections.OrderedDict",
    }
}

fn this(a: &Args) -> Result<&Arc<PyDict>> {
    match a.value("self") {
        Value::Dict(d) => Ok(d),
        other => Err(Error::new(
            ExceptionClass::TypeError,
            format!("descriptor requires a dict, not '{}'", other.type_name()),
        )
        .at(a.span("self"))),
    }
}

fn at_most_one(a: &Args, what: &str) -> Result<()> {
    if a.rest().len() > 1 {
        return Err(Error::new(
            ExceptionClass::TypeError,
            format!("{what} expected at most 1 argument, got {}", a.rest().len()),
        )
        .at(a.rest()[1].1));
    }
    Ok(())
}

/// Adds (or, with `sign` Sub, subtracts) the counts of the positional argument and keywords.
fn add_counts(d: &PyDict, a: &Args, op: BinOp) -> Result<()> {
    let bump = |k: Value, n: Value| -> Result<()> {
        let cur = d.get(&k).map_err(Error::from)?.unwrap_or(Value::Int(0));
        d.insert(k, binary(op, &cur, &n).map_err(Error::from)?)
            .map_err(Error::from)
    };
    if let Some((other, at)) = a.rest().first() {
        match other {
            Value::Dict(m) => {
                // Adding to an empty Counter from a mapping copies it, as CPython does.
                if op == BinOp::Add && d.is_empty() {
                    for (k, n) in m.items() {
                        d.insert(k, n).map_err(|e| Error::from(e).at(*at))?;
                    }
                } else {
                    for (k, n) in m.items() {
                        bump(k, n).map_err(|e| e.at(*at))?;
                    }
                }
            }
            Value::None => {}
            v => {
                for k in iterate(v).map_err(|e| Error::from(e).at(*at))? {
                    bump(k, Value::Int(1)).map_err(|e| e.at(*at))?;
                }
            }
        }
    }
    for (k, n, at) in a.kwargs() {
        bump(Value::str(k), n.clone()).map_err(|e| e.at(*at))?;
    }
    Ok(())
}

fn counter(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    at_most_one(a, "Counter")?;
    let d = PyDict::of_kind(DictKind::Counter);
    add_counts(&d, a, BinOp::Add)?;
    Ok(Value::Dict(d))
}

fn update(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    at_most_one(a, "update")?;
    add_counts(this(a)?, a, BinOp::Add)?;
    Ok(Value::None)
}

fn subtract(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    at_most_one(a, "subtract")?;
    add_counts(this(a)?, a, BinOp::Sub)?;
    Ok(Value::None)
}

fn most_common(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let mut pairs = by_count(this(a)?);
    if let Some(n) = a.opt_int("n")? {
        pairs.truncate(usize::try_from(n).unwrap_or(0));
    }
    Ok(Value::list(
        pairs
            .into_iter()
            .map(|(k, v)| Value::tuple(vec![k, v]))
            .collect(),
    ))
}

fn elements(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let mut out = VecDeque::new();
    for (k, n) in this(a)?.items() {
        let n = match n {
            Value::Int(n) => n,
            Value::Bool(b) => i64::from(b),
            other => return Err(Error::not_an_integer(other.type_name()).at(a.call)),
        };
        ragtag_engine::budget::check(
            "Counter.elements",
            (out.len() as u128).saturating_add(n.max(0) as u128),
            std::mem::size_of::<Value>(),
        )
        .map_err(|e| Error::from(e).at(a.call))?;
        for _ in 0..n.max(0) {
            out.push_back(k.clone());
        }
    }
    Ok(iter_value("itertools.chain", IterState::Seq(out)))
}

fn total(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let mut sum = Value::Int(0);
    for v in this(a)?.values() {
        sum = binary(BinOp::Add, &sum, &v).map_err(|e| Error::from(e).at(a.call))?;
    }
    Ok(sum)
}

fn defaultdict(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let f = a.value("default_factory").clone();
    check_factory(&f, a.span("default_factory"))?;
    let d = PyDict::of_kind(DictKind::Default(f));
    fill(&d, a)?;
    Ok(Value::Dict(d))
}

/// CPython's TypeError for a `default_factory` that is neither callable nor None.
pub(super) fn check_factory(f: &Value, span: ragtag_syntax::ast::Span) -> Result<()> {
    let callable = matches!(
        f,
        Value::None
            | Value::Builtin(_)
            | Value::Closure(_)
            | Value::Class(_)
            | Value::Bound(_)
            | Value::Method(..)
            | Value::ErrorClass(_)
    );
    if callable {
        return Ok(());
    }
    Err(Error::new(
        ExceptionClass::TypeError,
        "first argument must be callable or None",
    )
    .at(span))
}

/// Sets the pairs of the positional argument and the keywords, as `dict(…)` does.
fn fill(d: &PyDict, a: &Args) -> Result<()> {
    at_most_one(a, "dict")?;
    if let Some((other, at)) = a.rest().first() {
        for (k, v) in pairs_of(other).map_err(|e| e.at(*at))? {
            d.insert(k, v).map_err(|e| Error::from(e).at(*at))?;
        }
    }
    for (k, v, _) in a.kwargs() {
        d.insert(Value::str(k), v.clone()).map_err(Error::from)?;
    }
    Ok(())
}

fn default_factory(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    Ok(match this(a)?.kind() {
        DictKind::Default(f) => f.clone(),
        _ => Value::None,
    })
}

fn ordered(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let d = PyDict::of_kind(DictKind::Ordered);
    fill(&d, a)?;
    Ok(Value::Dict(d))
}

fn move_to_end(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let d = this(a)?;
    let k = a.value("key");
    let last = a.flag("last", true)?;
    if !d.move_to_end(k, last).map_err(|e| a.err_at("key", e))? {
        return Err(
            Error::new(ExceptionClass::KeyError, crate::render::tf_text::repr_of(k))
                .at(a.span("key")),
        );
    }
    Ok(Value::None)
}

fn popitem(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let d = this(a)?;
    let pair = if a.flag("last", true)? {
        d.pop_last()
    } else {
        d.pop_first()
    };
    match pair {
        Some((k, v)) => Ok(Value::tuple(vec![k, v])),
        None => Err(Error::new(ExceptionClass::KeyError, "'dictionary is empty'").at(a.call)),
    }
}
