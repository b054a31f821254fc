//! `set()` and `frozenset()`, and the methods of sets (which change them in place) and
//! frozensets, each following CPython's setobject.c step for step so that the items come
//! out in CPython's order.

use std::sync::Arc;

use super::super::Builtin;
use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::subscript::iterate;
use crate::eval::Interp;
use crate::render::tf_text::repr_of;
use crate::value::{PySet, Value};
use ragtag_engine::{Exception, ExceptionClass};
use ragtag_syntax::ast::Span;

/// The methods both kinds have: registered under `set.` and under `frozenset.`.
macro_rules! shared {
    ($kind:literal, $example:literal) => {
        [
            Builtin::method(concat!($kind, ".copy"), "(self)", copy)
                .doc("A new set of the same kind with the same items (a shallow copy).")
                .examples(&[concat!($example, ".copy()")]),
            Builtin::method(concat!($kind, ".union"), "(self, *others)", union)
                .doc("A new set of the items in this set or any of the others (`|`).")
                .examples(&[concat!($example, ".union([3], (4,))")]),
            Builtin::method(
                concat!($kind, ".intersection"),
                "(self, *others)",
                intersection,
            )
            .doc("A new set of the items in this set and every other (`&`).")
            .examples(&[concat!($example, ".intersection([2, 3])")]),
            Builtin::method(concat!($kind, ".difference"), "(self, *others)", difference)
                .doc("A new set of the items in this set and in none of the others (`-`).")
                .examples(&[concat!($example, ".difference([2])")]),
            Builtin::method(
                concat!($kind, ".symmetric_difference"),
                "(self, other)",
                symmetric_difference,
            )
            .doc("A new set of the items in exactly one of the two (`^`).")
            .examples(&[concat!($example, ".symmetric_difference([2, 3])")]),
            Builtin::method(concat!($kind, ".issubset"), "(self, other)", issubset)
                .doc("Whether every item is in `other` (`<=`).")
                .examples(&[concat!($example, ".issubset(range(5))")]),
            Builtin::method(concat!($kind, ".issuperset"), "(self, other)", issuperset)
                .doc("Whether every item of `other` is in this set (`>=`).")
                .examples(&[concat!($example, ".issuperset([1])")]),
            Builtin::method(concat!($kind, ".isdisjoint"), "(self, other)", isdisjoint)
                .doc("Whether no item is in `other`.")
                .examples(&[concat!($example, ".isdisjoint([3, 4])")]),
        ]
    };
}

/// The methods sets share with frozensets.
pub static SET_SHARED: &[Builtin] = &shared!("set", "{1, 2}");

/// `set`, `frozenset` and the methods only sets have.
pub static SETS: &[Builtin] = &[
    Builtin::function("set", "(iterable=None)", set)
        .doc("A new set of the items of an iterable (`set()` is empty).")
        .examples(&["set([3, 1, 3])", "set()"]),
    Builtin::function("frozenset", "(iterable=None)", frozenset)
        .doc("A new frozenset (an immutable, hashable set) of the items of an iterable.")
        .examples(&["frozenset([1, 2, 2])"]),
    Builtin::method("set.add", "(self, elem)", add)
        .doc("Adds an item, in place (nothing happens when an equal one is there).")
        .examples(&["s = {1}\ns.add(2)\ns"]),
    Builtin::method("set.discard", "(self, elem)", discard)
        .doc("Removes an item if it is there, in place.")
        .examples(&["s = {1, 2}\ns.discard(3)\ns"]),
    Builtin::method("set.remove", "(self, elem)", remove)
        .doc("Removes an item, in place; KeyError when it is not there.")
        .examples(&["s = {1, 2}\ns.remove(1)\ns"]),
    Builtin::method("set.pop", "(self)", pop)
        .doc("Removes and returns an arbitrary item; KeyError when the set is empty.")
        .examples(&["s = {5}\ns.pop()"]),
    Builtin::method("set.clear", "(self)", clear)
        .doc("Removes every item.")
        .examples(&["s = {1}\ns.clear()\ns"]),
    Builtin::method("set.update", "(self, *others)", update)
        .doc("Adds the items of every iterable given, in place (`|=`).")
        .examples(&["s = {1}\ns.update([2], {3})\ns"]),
    Builtin::method(
        "set.intersection_update",
        "(self, *others)",
        intersection_update,
    )
    .doc("Keeps only the items also in every other, in place (`&=`).")
    .examples(&["s = {1, 2, 3}\ns.intersection_update([2, 3, 4])\ns"]),
    Builtin::method(
        "set.difference_update",
        "(self, *others)",
        difference_update,
    )
    .doc("Removes the items of every other, in place (`-=`).")
    .examples(&["s = {1, 2, 3}\ns.difference_update([2])\ns"]),
    Builtin::method(
        "set.symmetric_difference_update",
        "(self, other)",
        symmetric_difference_update,
    )
    .doc("Keeps the items in exactly one of the two, in place (`^=`).")
    .examples(&["s = {1, 2}\ns.symmetric_difference_update([2, 3])\ns"]),
];

/// The frozenset methods (those that do not change the set).
pub static FROZENSET_METHODS: &[Builtin] = &shared!("frozenset", "frozenset({1, 2})");

fn this(a: &Args) -> Result<&Arc<PySet>> {
    match a.value("self") {
        Value::Set(s) => Ok(s),
        other => Err(Error::new(
            ExceptionClass::TypeError,
            format!(
                "descriptor '{}' for 'set' objects doesn't apply to a '{}' object",
                a.builtin().name.rsplit('.').next().unwrap_or(""),
                other.type_name()
            ),
        )
        .at(a.span("self"))),
    }
}

fn at(span: Span) -> impl Fn(Exception) -> Error {
    move |e| Error::from(e).at(span)
}

/// A set or frozenset argument as a set; any other iterable as a new set of its items.
fn as_set(v: &Value, span: Span) -> Result<Arc<PySet>> {
    match v {
        Value::Set(s) => Ok(s.clone()),
        other => {
            let items = iterate(other).map_err(at(span))?;
            PySet::from_items(items, false).map_err(at(span))
        }
    }
}

fn make(a: &Args, frozen: bool) -> Result<Value> {
    let out = PySet::empty(frozen);
    match a.get("iterable") {
        None | Some(Value::None) => {}
        // frozenset(f) is f itself.
        Some(Value::Set(s)) if frozen && s.is_frozen() => return Ok(Value::Set(s.clone())),
        Some(v) => {
            let span = a.span("iterable");
            out.update(v, || iterate(v)).map_err(at(span))?;
        }
    }
    Ok(Value::Set(out))
}

fn set(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    make(a, false)
}

fn frozenset(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    make(a, true)
}

fn add(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    this(a)?
        .add(a.value("elem").clone())
        .map_err(at(a.span("elem")))?;
    Ok(Value::None)
}

fn discard(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    this(a)?
        .discard(a.value("elem"))
        .map_err(at(a.span("elem")))?;
    Ok(Value::None)
}

fn remove(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let elem = a.value("elem");
    match this(a)?.discard(elem).map_err(at(a.span("elem")))? {
        Some(_) => Ok(Value::None),
        None => Err(Error::new(ExceptionClass::KeyError, repr_of(elem)).at(a.span("elem"))),
    }
}

fn pop(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    this(a)?
        .pop()
        .ok_or_else(|| Error::new(ExceptionClass::KeyError, "'pop from an empty set'").at(a.call))
}

fn clear(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    this(a)?.clear();
    Ok(Value::None)
}

fn copy(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let s = this(a)?;
    if s.is_frozen() {
        return Ok(Value::Set(s.clone()));
    }
    Ok(Value::Set(s.copy_as(false).map_err(at(a.call))?))
}

fn update(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let s = this(a)?;
    for (v, span) in a.rest() {
        s.update(v, || iterate(v)).map_err(at(*span))?;
    }
    Ok(Value::None)
}

fn union(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let s = this(a)?;
    let out = s.copy_as(s.is_frozen()).map_err(at(a.call))?;
    for (v, span) in a.rest() {
        out.update(v, || iterate(v)).map_err(at(*span))?;
    }
    Ok(Value::Set(out))
}

/// CPython's `set_intersection`: with a set, the smaller is walked; with another iterable,
/// its items in order.
fn intersect(s: &Arc<PySet>, other: &Value, span: Span) -> Result<Arc<PySet>> {
    match other {
        Value::Set(o) => s.intersection(o).map_err(at(span)),
        v => {
            let out = PySet::empty(s.is_frozen());
            for item in iterate(v).map_err(at(span))? {
                if s.contains(&item).map_err(at(span))? {
                    out.add(item).map_err(at(span))?;
                }
            }
            Ok(out)
        }
    }
}

fn intersection(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let s = this(a)?;
    let mut out = s.copy_as(s.is_frozen()).map_err(at(a.call))?;
    if let Some(((first, span), rest)) = a.rest().split_first() {
        out = intersect(s, first, *span)?;
        for (v, span) in rest {
            out = intersect(&out, v, *span)?;
        }
    }
    Ok(Value::Set(out))
}

fn intersection_update(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let s = this(a)?;
    let mut out = s.clone();
    for (v, span) in a.rest() {
        out = intersect(&out, v, *span)?;
    }
    if !Arc::ptr_eq(&out, s) {
        s.take_table(&out);
    }
    Ok(Value::None)
}

/// CPython's `set_difference_update_internal`.
fn subtract(s: &PySet, other: &Value, span: Span) -> Result<()> {
    match other {
        Value::Set(o) => s.difference_update(o).map_err(at(span)),
        v => {
            for item in iterate(v).map_err(at(span))? {
                s.discard(&item).map_err(at(span))?;
            }
            Ok(())
        }
    }
}

fn difference(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let s = this(a)?;
    let Some(((first, span), rest)) = a.rest().split_first() else {
        return Ok(Value::Set(s.copy_as(s.is_frozen()).map_err(at(a.call))?));
    };
    let out = match first {
        Value::Set(o) => s.difference(o).map_err(at(*span))?,
        Value::Dict(_) => s.difference(&as_set(first, *span)?).map_err(at(*span))?,
        v => {
            let out = s.copy_as(s.is_frozen()).map_err(at(*span))?;
            subtract(&out, v, *span)?;
            out
        }
    };
    for (v, span) in rest {
        subtract(&out, v, *span)?;
    }
    Ok(Value::Set(out))
}

fn difference_update(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let s = this(a)?;
    for (v, span) in a.rest() {
        subtract(s, v, *span)?;
    }
    Ok(Value::None)
}

fn symmetric_difference(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let s = this(a)?;
    let span = a.span("other");
    let other = a.value("other");
    let out = match other {
        Value::Set(o) => o.copy_as(s.is_frozen()).map_err(at(span))?,
        v => {
            let items = iterate(v).map_err(at(span))?;
            PySet::from_items(items, s.is_frozen()).map_err(at(span))?
        }
    };
    out.symmetric_difference_update(s).map_err(at(span))?;
    Ok(Value::Set(out))
}

fn symmetric_difference_update(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let s = this(a)?;
    let span = a.span("other");
    let other = as_set(a.value("other"), span)?;
    s.symmetric_difference_update(&other).map_err(at(span))?;
    Ok(Value::None)
}

fn issubset(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let other = as_set(a.value("other"), a.span("other"))?;
    Ok(Value::Bool(this(a)?.is_subset(&other)))
}

fn issuperset(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let s = this(a)?;
    let span = a.span("other");
    let items = match a.value("other") {
        Value::Set(o) => return Ok(Value::Bool(o.is_subset(s))),
        v => iterate(v).map_err(at(span))?,
    };
    for item in items {
        if !s.contains(&item).map_err(at(span))? {
            return Ok(Value::Bool(false));
        }
    }
    Ok(Value::Bool(true))
}

fn isdisjoint(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let s = this(a)?;
    let span = a.span("other");
    for item in iterate(a.value("other")).map_err(at(span))? {
        if s.contains(&item).map_err(at(span))? {
            return Ok(Value::Bool(false));
        }
    }
    Ok(Value::Bool(true))
}
