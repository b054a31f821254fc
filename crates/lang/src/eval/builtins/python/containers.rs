//! The methods of Python's lists and dicts, which change them in place as Python's do
//! (`l.append(x)`, `l.sort(key=len)`, `d.setdefault(k, [])`, `d.update(other)`), and
//! Python's stable sort, shared with `sorted`.

use super::super::Builtin;
use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::subscript::iterate;
use crate::eval::Interp;
use crate::render::tf_text::repr_of;
use crate::value::{PyDict, PyList, Value};
use ragtag_engine::{index_error, ExceptionClass};
use ragtag_syntax::ast::Span;
use std::sync::Arc;

/// The list and dict methods.
pub static CONTAINERS: &[Builtin] = &[
    Builtin::method("list.append", "(self, object)", append)
        .doc("Adds an item at the end, in place.")
        .examples(&["l = [1, 2]\nl.append(3)\nl"]),
    Builtin::method("list.extend", "(self, iterable)", extend)
        .doc("Adds the items of an iterable at the end, in place.")
        .examples(&["l = [1]\nl.extend(range(2))\nl"]),
    Builtin::method("list.insert", "(self, index, object)", insert)
        .doc("Inserts an item before `index` (clamped to the list), in place.")
        .examples(&["l = [1, 3]\nl.insert(1, 2)\nl"]),
    Builtin::method("list.pop", "(self, index=-1)", pop)
        .doc("Removes and returns the item at `index` (the last by default).")
        .examples(&["l = [1, 2]\nl.pop()"]),
    Builtin::method("list.remove", "(self, value)", remove)
        .doc("Removes the first item equal to `value`; ValueError when there is none.")
        .examples(&["l = [1, 2, 1]\nl.remove(1)\nl"]),
    Builtin::method("list.index", "(self, value, start=0, stop=None)", index)
        .doc("The position of the first item equal to `value` in `start:stop`.")
        .examples(&["[1, 2, 3].index(2)"]),
    Builtin::method("list.count", "(self, value)", count)
        .doc("How many items equal `value`.")
        .examples(&["[1, 2, 1].count(1)"]),
    Builtin::method("list.sort", "(self, *, key=None, reverse=False)", sort)
        .doc("Sorts the items in place, stably, by `key(item)` when given.")
        .examples(&["l = ['bb', 'a', 'ccc']\nl.sort(key=len)\nl"]),
    Builtin::method("list.reverse", "(self)", reverse)
        .doc("Reverses the items in place.")
        .examples(&["l = [1, 2, 3]\nl.reverse()\nl"]),
    Builtin::method("list.copy", "(self)", list_copy)
        .doc("A new list with the same items (a shallow copy).")
        .examples(&["[1, 2].copy()"]),
    Builtin::method("list.clear", "(self)", list_clear)
        .doc("Removes every item.")
        .examples(&["l = [1]\nl.clear()\nl"]),
    Builtin::method("dict.get", "(self, key, default=None, /)", get)
        .doc("The value under `key`, or `default` when there is none.")
        .examples(&["{'a': 1}.get('b', 0)"]),
    Builtin::method("dict.pop", "(self, key, *default)", dict_pop)
        .doc("Removes `key` and returns its value (or `default`; KeyError without one).")
        .examples(&["d = {'a': 1}\nd.pop('a')"]),
    Builtin::method("dict.popitem", "(self)", popitem)
        .doc("Removes and returns the last `(key, value)` pair.")
        .examples(&["d = {'a': 1, 'b': 2}\nd.popitem()"]),
    Builtin::method("dict.setdefault", "(self, key, default=None)", setdefault)
        .doc("The value under `key`, first setting it to `default` when absent.")
        .examples(&["d = {}\nd.setdefault('a', []).append(1)\nd"]),
    Builtin::method("dict.update", "(self, *other, **kwargs)", update)
        .doc("Sets the pairs of a dict (or of `(key, value)` pairs, or keyword arguments).")
        .examples(&["d = {'a': 1}\nd.update({'b': 2}, c=3)\nd"]),
    Builtin::method("dict.copy", "(self)", dict_copy)
        .doc("A new dict with the same pairs (a shallow copy).")
        .examples(&["{'a': 1}.copy()"]),
    Builtin::method("dict.clear", "(self)", dict_clear)
        .doc("Removes every pair.")
        .examples(&["d = {'a': 1}\nd.clear()\nd"]),
    Builtin::function("dict.fromkeys", "(iterable, value=None)", fromkeys)
        .doc("A dict with the items as keys, each with `value`.")
        .examples(&["dict.fromkeys(['a', 'b'], 0)"]),
];

fn this_list(a: &Args) -> Result<&Arc<PyList>> {
    match a.value("self") {
        Value::List(l) => Ok(l),
        other => Err(type_error(a, "list", other)),
    }
}

fn this_dict(a: &Args) -> Result<&Arc<PyDict>> {
    match a.value("self") {
        Value::Dict(d) => Ok(d),
        other => Err(type_error(a, "dict", other)),
    }
}

fn type_error(a: &Args, want: &str, got: &Value) -> Error {
    Error::new(
        ExceptionClass::TypeError,
        format!(
            "descriptor '{}' for '{want}' objects doesn't apply to a '{}' object",
            a.builtin().name.rsplit('.').next().unwrap_or(""),
            got.type_name()
        ),
    )
    .at(a.span("self"))
}

fn append(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let item = a.value("object").clone();
    this_list(a)?.with_mut(|items| items.push(item));
    Ok(Value::None)
}

fn extend(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let l = this_list(a)?;
    // The items are read first: `l.extend(l)` doubles the list.
    let more = iterate(a.value("iterable")).map_err(|e| a.err_at("iterable", e))?;
    ragtag_engine::budget::check(
        "list.extend",
        l.len().saturating_add(more.len()) as u128,
        std::mem::size_of::<Value>(),
    )
    .map_err(|e| a.err_at("iterable", e))?;
    l.with_mut(|items| items.extend(more));
    Ok(Value::None)
}

fn insert(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let l = this_list(a)?;
    let i = a.int("index")?;
    let item = a.value("object").clone();
    l.with_mut(|items| {
        let n = items.len() as i64;
        let at = if i < 0 { (n + i).max(0) } else { i.min(n) };
        items.insert(at as usize, item);
    });
    Ok(Value::None)
}

fn pop(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let l = this_list(a)?;
    let i = a.opt_int("index")?.unwrap_or(-1);
    let n = l.len();
    if n == 0 {
        return Err(Error::from(index_error!("pop from empty list")).at(a.span("self")));
    }
    let at = ragtag_engine::tensor::normalize_index(i, n).ok_or_else(|| {
        Error::from(index_error!("pop index out of range"))
            .at(a.span("index"))
            .with_hint(format!("index {i}, but the length is {n}"))
    })?;
    Ok(l.with_mut(|items| items.remove(at)))
}

/// The position of the first item equal to `v` (Python's `is` or `==`).
fn find(it: &mut Interp<'_>, items: &[Value], v: &Value, a: &Args) -> Result<Option<usize>> {
    it.position_eq(items, v, a.call)
}

fn remove(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let l = this_list(a)?;
    let v = a.value("value");
    match find(it, &l.items(), v, a)? {
        Some(p) => {
            l.with_mut(|items| {
                if p < items.len() {
                    items.remove(p);
                }
            });
            Ok(Value::None)
        }
        None => Err(
            Error::new(ExceptionClass::ValueError, "list.remove(x): x not in list")
                .at(a.span("value")),
        ),
    }
}

fn index(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let items = this_list(a)?.items();
    let n = items.len() as i64;
    let bound = |i: i64| (if i < 0 { (n + i).max(0) } else { i.min(n) }) as usize;
    let start = bound(a.opt_int("start")?.unwrap_or(0));
    let stop = bound(a.opt_int("stop")?.unwrap_or(n));
    let v = a.value("value");
    let hit = match items.get(start..stop.max(start)) {
        Some(part) => find(it, part, v, a)?,
        None => None,
    };
    match hit {
        Some(p) => Ok(Value::Int((start + p) as i64)),
        None => Err(Error::new(
            ExceptionClass::ValueError,
            format!("{} is not in list", repr_of(v)),
        )
        .at(a.span("value"))),
    }
}

fn count(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let v = a.value("value");
    let n = it.count_eq(&this_list(a)?.items(), v, a.call)?;
    Ok(Value::Int(n as i64))
}

fn sort(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let l = this_list(a)?;
    let reverse = a.flag("reverse", false)?;
    let sorted = sort_values(it, l.items(), a.get("key"), reverse, a.span("self"))?;
    l.set_items(sorted);
    Ok(Value::None)
}

/// Python's sort: stable, comparing with `<` only, by `key(item)` when a key is given;
/// `reverse` keeps equal items in their order, as Python's does.
pub fn sort_values(
    it: &mut Interp<'_>,
    items: Vec<Value>,
    key: Option<&Value>,
    reverse: bool,
    span: Span,
) -> Result<Vec<Value>> {
    let keys = match key {
        Some(f) => {
            let mut keys = Vec::new();
            for x in &items {
                keys.push(it.call_values(f, vec![x.clone()], span)?);
            }
            keys
        }
        None => items.clone(),
    };
    let mut order: Vec<usize> = (0..items.len()).collect();
    if reverse {
        order.reverse();
    }
    let mut lt = |i: usize, j: usize| -> Result<bool> { it.less_than(&keys[i], &keys[j], span) };
    let order = merge_sort(order, &mut lt)?;
    let mut out: Vec<Value> = order.into_iter().map(|i| items[i].clone()).collect();
    if reverse {
        out.reverse();
    }
    Ok(out)
}

/// A stable merge sort that stops at the first failing comparison (a comparison that
/// panics or loops is impossible, whatever `<` answers).
fn merge_sort(
    v: Vec<usize>,
    lt: &mut dyn FnMut(usize, usize) -> Result<bool>,
) -> Result<Vec<usize>> {
    if v.len() <= 1 {
        return Ok(v);
    }
    let mut right = v;
    let left = right.drain(..right.len() / 2).collect::<Vec<_>>();
    let left = merge_sort(left, lt)?;
    let right = merge_sort(right, lt)?;
    #[allow(clippy::disallowed_methods)] // as many indices as are already allocated
    let mut out = Vec::with_capacity(left.len() + right.len());
    let (mut i, mut j) = (0, 0);
    while i < left.len() && j < right.len() {
        // Take from the right only when strictly smaller: equal items keep their order.
        if lt(right[j], left[i])? {
            out.push(right[j]);
            j += 1;
        } else {
            out.push(left[i]);
            i += 1;
        }
    }
    out.extend_from_slice(&left[i..]);
    out.extend_from_slice(&right[j..]);
    Ok(out)
}

fn reverse(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    this_list(a)?.with_mut(|items| items.reverse());
    Ok(Value::None)
}

fn list_copy(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let l = this_list(a)?;
    Ok(Value::List(PyList::new(l.items(), l.is_display())))
}

fn list_clear(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    this_list(a)?.set_items(Vec::new());
    Ok(Value::None)
}

fn get(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let d = this_dict(a)?;
    Ok(d.get(a.value("key"))
        .map_err(|e| a.err_at("key", e))?
        .unwrap_or_else(|| a.value("default").clone()))
}

fn dict_pop(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let d = this_dict(a)?;
    let k = a.value("key");
    if a.rest().len() > 1 {
        return Err(Error::new(
            ExceptionClass::TypeError,
            format!(
                "pop expected at most 2 arguments, got {}",
                a.rest().len() + 1
            ),
        )
        .at(a.rest()[1].1));
    }
    match d.remove(k).map_err(|e| a.err_at("key", e))? {
        Some(v) => Ok(v),
        None => match a.rest().first() {
            Some((default, _)) => Ok(default.clone()),
            None => Err(Error::new(ExceptionClass::KeyError, repr_of(k)).at(a.span("key"))),
        },
    }
}

fn popitem(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    match this_dict(a)?.pop_last() {
        Some((k, v)) => Ok(Value::tuple(vec![k, v])),
        None => Err(
            Error::new(ExceptionClass::KeyError, "'popitem(): dictionary is empty'")
                .at(a.span("self")),
        ),
    }
}

fn setdefault(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let d = this_dict(a)?;
    let k = a.value("key");
    if let Some(v) = d.get(k).map_err(|e| a.err_at("key", e))? {
        return Ok(v);
    }
    let v = a.value("default").clone();
    d.insert(k.clone(), v.clone())
        .map_err(|e| a.err_at("key", e))?;
    Ok(v)
}

fn update(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let d = this_dict(a)?;
    if a.rest().len() > 1 {
        return Err(Error::new(
            ExceptionClass::TypeError,
            format!("update expected at most 1 argument, got {}", a.rest().len()),
        )
        .at(a.rest()[1].1));
    }
    if let Some((other, at)) = a.rest().first() {
        for (k, v) in pairs_of(other).map_err(|e| e.at(*at))? {
            d.insert(k, v).map_err(|e| Error::from(e).at(*at))?;
        }
    }
    for (k, v, _) in a.kwargs() {
        d.insert(Value::str(k), v.clone()).map_err(Error::from)?;
    }
    Ok(Value::None)
}

/// The pairs of a dict, or of an iterable of `(key, value)` pairs (Python's `dict(x)`).
pub fn pairs_of(v: &Value) -> Result<Vec<(Value, Value)>> {
    if let Value::Dict(d) = v {
        return Ok(d.items());
    }
    let items = iterate(v).map_err(Error::from)?;
    let mut out = Vec::new();
    for (i, item) in items.into_iter().enumerate() {
        let kv = iterate(&item).map_err(|_| {
            Error::new(
                ExceptionClass::TypeError,
                format!("cannot convert dictionary update sequence element #{i} to a sequence"),
            )
        })?;
        let [k, v] = <[Value; 2]>::try_from(kv).map_err(|kv| {
            Error::new(
                ExceptionClass::ValueError,
                format!(
                    "dictionary update sequence element #{i} has length {}; 2 is required",
                    kv.len()
                ),
            )
        })?;
        out.push((k, v));
    }
    Ok(out)
}

fn dict_copy(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    Ok(Value::Dict(this_dict(a)?.copy()))
}

fn dict_clear(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    this_dict(a)?.clear();
    Ok(Value::None)
}

fn fromkeys(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let keys = iterate(a.value("iterable")).map_err(|e| a.err_at("iterable", e))?;
    let v = a.value("value");
    let d = PyDict::new(Vec::new()).map_err(Error::from)?;
    for k in keys {
        d.insert(k, v.clone())
            .map_err(|e| a.err_at("iterable", e))?;
    }
    Ok(Value::Dict(d))
}
