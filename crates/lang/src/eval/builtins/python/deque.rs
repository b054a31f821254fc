//! `collections.deque`: appends and pops at both ends in constant time, `maxlen`,
//! `rotate`, and CPython's messages for an empty or full deque.

use std::sync::Arc;

use super::super::Builtin;
use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::operators::{identical, python_eq};
use crate::eval::subscript::iterate;
use crate::eval::Interp;
use crate::render::tf_text::repr_of;
use crate::value::deque::PyDeque;
use crate::value::Value;
use ragtag_engine::ExceptionClass;

/// The deque type and its methods.
pub static DEQUE: &[Builtin] = &[
    Builtin::function("collections.deque", "(iterable=(), maxlen=None)", deque)
        .doc(
            "A double-ended queue: `append`/`appendleft` and `pop`/`popleft` in constant time; \
             with `maxlen`, adding past it drops items from the other end.",
        )
        .examples(&[
            "from collections import deque\nd = deque([1, 2, 3], maxlen=3)\nd.append(4)\nd",
        ]),
    Builtin::method("collections.deque.append", "(self, x)", append)
        .doc("Adds `x` at the right end.")
        .examples(&["from collections import deque\nd = deque()\nd.append(1)\nd"]),
    Builtin::method("collections.deque.appendleft", "(self, x)", appendleft)
        .doc("Adds `x` at the left end.")
        .examples(&["from collections import deque\nd = deque([2])\nd.appendleft(1)\nd"]),
    Builtin::method("collections.deque.pop", "(self)", pop)
        .doc("Removes and returns the rightmost item; IndexError when empty.")
        .examples(&["from collections import deque\ndeque([1, 2]).pop()"]),
    Builtin::method("collections.deque.popleft", "(self)", popleft)
        .doc("Removes and returns the leftmost item; IndexError when empty.")
        .examples(&["from collections import deque\ndeque([1, 2]).popleft()"]),
    Builtin::method("collections.deque.extend", "(self, iterable)", extend)
        .doc("Appends each item at the right end.")
        .examples(&["from collections import deque\nd = deque([1])\nd.extend([2, 3])\nd"]),
    Builtin::method(
        "collections.deque.extendleft",
        "(self, iterable)",
        extendleft,
    )
    .doc("Appends each item at the left end (so they end up reversed).")
    .examples(&["from collections import deque\nd = deque([1])\nd.extendleft([2, 3])\nd"]),
    Builtin::method("collections.deque.rotate", "(self, n=1)", rotate)
        .doc("Rotates `n` steps to the right (negative `n`: to the left).")
        .examples(&["from collections import deque\nd = deque(range(5))\nd.rotate(2)\nd"]),
    Builtin::method("collections.deque.clear", "(self)", clear)
        .doc("Removes every item.")
        .examples(&["from collections import deque\nd = deque([1])\nd.clear()\nd"]),
    Builtin::method("collections.deque.count", "(self, x)", count)
        .doc("How many items equal `x`.")
        .examples(&["from collections import deque\ndeque([1, 2, 1]).count(1)"]),
    Builtin::method("collections.deque.remove", "(self, value)", remove)
        .doc("Removes the first item equal to `value`; ValueError when there is none.")
        .examples(&["from collections import deque\nd = deque([1, 2, 1])\nd.remove(1)\nd"]),
    Builtin::method(
        "collections.deque.index",
        "(self, x, start=0, stop=None)",
        index,
    )
    .doc("The position of the first item equal to `x` in `start:stop`.")
    .examples(&["from collections import deque\ndeque('abc').index('c')"]),
    Builtin::method("collections.deque.insert", "(self, i, x)", insert)
        .doc("Inserts `x` before position `i`; IndexError when a bounded deque is full.")
        .examples(&["from collections import deque\nd = deque([1, 3])\nd.insert(1, 2)\nd"]),
    Builtin::method("collections.deque.reverse", "(self)", reverse)
        .doc("Reverses the items in place.")
        .examples(&["from collections import deque\nd = deque([1, 2, 3])\nd.reverse()\nd"]),
    Builtin::method("collections.deque.copy", "(self)", copy)
        .doc("A new deque with the same items and maxlen.")
        .examples(&["from collections import deque\ndeque([1], maxlen=2).copy()"]),
    Builtin::property("collections.deque.maxlen", maxlen)
        .doc("The most items the deque keeps (None: unbounded).")
        .examples(&["from collections import deque\ndeque(maxlen=3).maxlen"]),
];

fn this(a: &Args) -> Result<&Arc<PyDeque>> {
    match a.value("self") {
        Value::Deque(d) => Ok(d),
        other => Err(Error::new(
            ExceptionClass::TypeError,
            format!(
                "descriptor '{}' for 'collections.deque' objects doesn't apply to a '{}' object",
                a.builtin().short_name(),
                other.type_name()
            ),
        )
        .at(a.span("self"))),
    }
}

fn deque(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let maxlen = match a.value("maxlen") {
        Value::None => None,
        Value::Int(n) if *n >= 0 => Some(*n as usize),
        Value::Int(_) => {
            return Err(
                Error::new(ExceptionClass::ValueError, "maxlen must be non-negative")
                    .at(a.span("maxlen")),
            )
        }
        other => return Err(Error::not_an_integer(other.type_name()).at(a.span("maxlen"))),
    };
    let items = match a.value("iterable") {
        Value::None => Vec::new(),
        v => iterate(v).map_err(|e| a.err_at("iterable", e))?,
    };
    Ok(Value::Deque(Arc::new(PyDeque::new(items, maxlen))))
}

fn append(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    this(a)?.push(a.value("x").clone(), false);
    Ok(Value::None)
}

fn appendleft(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    this(a)?.push(a.value("x").clone(), true);
    Ok(Value::None)
}

fn empty(a: &Args) -> Error {
    Error::new(ExceptionClass::IndexError, "pop from an empty deque").at(a.call)
}

fn pop(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    this(a)?.pop(false).ok_or_else(|| empty(a))
}

fn popleft(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    this(a)?.pop(true).ok_or_else(|| empty(a))
}

fn extend(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let d = this(a)?;
    let items = iterate(a.value("iterable")).map_err(|e| a.err_at("iterable", e))?;
    d.extend(items, false);
    Ok(Value::None)
}

fn extendleft(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let d = this(a)?;
    let items = iterate(a.value("iterable")).map_err(|e| a.err_at("iterable", e))?;
    d.extend(items, true);
    Ok(Value::None)
}

fn rotate(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    this(a)?.rotate(a.opt_int("n")?.unwrap_or(1));
    Ok(Value::None)
}

fn clear(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    this(a)?.with_mut(|q| q.clear());
    Ok(Value::None)
}

fn same(x: &Value, y: &Value) -> bool {
    identical(x, y) || python_eq(x, y)
}

fn count(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let x = a.value("x");
    let n = this(a)?.items().iter().filter(|v| same(v, x)).count();
    Ok(Value::Int(n as i64))
}

fn remove(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let d = this(a)?;
    let x = a.value("value");
    let found = d.with_mut(|q| match q.iter().position(|v| same(v, x)) {
        Some(p) => {
            q.remove(p);
            true
        }
        None => false,
    });
    if !found {
        return Err(Error::new(
            ExceptionClass::ValueError,
            format!("{} is not in deque", repr_of(x)),
        )
        .at(a.span("value")));
    }
    Ok(Value::None)
}

fn index(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let items = this(a)?.items();
    let n = items.len() as i64;
    let clamp = |i: i64| if i < 0 { (i + n).max(0) } else { i.min(n) } as usize;
    let start = clamp(a.opt_int("start")?.unwrap_or(0));
    let stop = clamp(a.opt_int("stop")?.unwrap_or(n));
    let x = a.value("x");
    (start..stop.max(start))
        .find(|&i| same(&items[i], x))
        .map(|i| Value::Int(i as i64))
        .ok_or_else(|| {
            Error::new(
                ExceptionClass::ValueError,
                format!("{} is not in deque", repr_of(x)),
            )
            .at(a.span("x"))
        })
}

fn insert(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let d = this(a)?;
    if d.maxlen.is_some_and(|m| d.len() >= m) {
        return Err(Error::new(
            ExceptionClass::IndexError,
            "deque already at its maximum size",
        )
        .at(a.call));
    }
    let n = d.len() as i64;
    let i = a.int("i")?;
    let p = if i < 0 { (i + n).max(0) } else { i.min(n) } as usize;
    let x = a.value("x").clone();
    d.with_mut(|q| q.insert(p, x));
    Ok(Value::None)
}

fn reverse(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    this(a)?.with_mut(|q| q.make_contiguous().reverse());
    Ok(Value::None)
}

fn copy(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let d = this(a)?;
    Ok(Value::Deque(Arc::new(PyDeque::new(d.items(), d.maxlen))))
}

fn maxlen(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    Ok(this(a)?
        .maxlen
        .map_or(Value::None, |m| Value::Int(m as i64)))
}
