//! Python's iterator builtins: `iter`, `next`, the lazy `map`, `filter`, `zip`,
//! `enumerate` and `reversed`, the short-circuiting `any` and `all`, `sum` over any
//! iterable, and a generator's `send`, `throw` and `close`.

use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::builtins::Builtin;
use crate::eval::iterators::to_iter;
use crate::eval::Interp;
use crate::value::iter::{iter_value, IterState};
use crate::value::Value;
use ragtag_engine::ExceptionClass;

/// Iterator builtins and generator methods.
pub static ITERATORS: &[Builtin] = &[
    Builtin::function("iter", "(object, sentinel=None)", iter)
        .doc(
            "An iterator over the items of `object` (itself, for an iterator); with a \
             `sentinel`, calls `object()` until it returns the sentinel.",
        )
        .examples(&["it = iter([1, 2])\nnext(it)"]),
    Builtin::function("next", "(iterator, default=None)", next)
        .doc(
            "The iterator's next item; `default` when it has none left, else StopIteration.",
        )
        .examples(&["next(iter([1, 2]))", "next(iter([]), 'done')"]),
    Builtin::method("generator.send", "(self, value)", send)
        .doc("Resumes the generator with `value` as the result of its `yield`; its next value.")
        .examples(&["def g():\n    x = yield 1\n    yield x * 10\nit = g()\nnext(it)\nit.send(4)"]),
    Builtin::method("generator.throw", "(self, exc)", throw)
        .doc("Raises `exc` inside the generator where it stopped; its next value if it goes on.")
        .examples(&["def g():\n    try:\n        yield 1\n    except ValueError:\n        yield 'caught'\nit = g()\nnext(it)\nit.throw(ValueError)"]),
    Builtin::method("generator.close", "(self)", close)
        .doc("Stops the generator (raising GeneratorExit inside it, so `finally` blocks run).")
        .examples(&["def g():\n    yield 1\nit = g()\nit.close()"]),
];

pub(super) fn iter(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let v = a.value("object");
    if let Some(sentinel) = a.given("sentinel") {
        return Ok(iter_value(
            "callable_iterator",
            IterState::Call {
                func: v.clone(),
                sentinel: sentinel.clone(),
            },
        ));
    }
    it.iter_of(v, a.span("object"))
}

/// StopIteration, as `next()` raises it.
fn stop() -> Error {
    Error::new(ExceptionClass::StopIteration, "")
}

pub(super) fn next(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let wrapped = crate::eval::user_iter::wrap(a.value("iterator"));
    let v = wrapped.as_ref().unwrap_or(a.value("iterator"));
    if !matches!(v, Value::Iter(_)) {
        return Err(Error::new(
            ExceptionClass::TypeError,
            format!("'{}' object is not an iterator", v.type_name()),
        )
        .at(a.span("iterator")));
    }
    // A generator's return value is the `value` of the StopIteration that ends it.
    if matches!(v, Value::Iter(i) if i.is_generator()) && a.given("default").is_none() {
        return yielded(it.send_to(v, crate::eval::generator::Resume::Next, a.call)?);
    }
    match it.next_of(v, a.call)? {
        Some(x) => Ok(x),
        None => match a.given("default") {
            Some(d) => Ok(d.clone()),
            None => Err(stop()),
        },
    }
}

fn yielded(out: crate::eval::generator::Out) -> Result<Value> {
    match out {
        crate::eval::generator::Out::Yield(v) => Ok(v),
        crate::eval::generator::Out::Done(v) => Err(match v {
            Value::None => stop(),
            v => Error::from(super::exception_args::make(
                ExceptionClass::StopIteration,
                crate::render::tf_text::str_of(&v),
                vec![v],
            )),
        }),
    }
}

fn send(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let g = a.value("self").clone();
    let v = a.value("value").clone();
    let out = it.send_to(&g, crate::eval::generator::Resume::Send(v), a.call)?;
    yielded(out)
}

/// The error `g.throw(exc)` raises inside the generator.
fn thrown(v: &Value) -> Result<Error> {
    Ok(match v {
        Value::ErrorClass(k) => Error::new(*k, ""),
        Value::Exception(x) => Error::from((**x).clone()),
        other => {
            return Err(Error::new(
                ExceptionClass::TypeError,
                format!(
                    "exceptions must be classes or instances deriving from BaseException, not {}",
                    other.type_name()
                ),
            ))
        }
    })
}

fn throw(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let g = a.value("self").clone();
    let e = thrown(a.value("exc")).map_err(|e| e.at(a.span("exc")))?;
    let out = it.send_to(
        &g,
        crate::eval::generator::Resume::Throw(e.at(a.call)),
        a.call,
    )?;
    yielded(out)
}

fn close(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let g = a.value("self").clone();
    let exit = Error::new(ExceptionClass::GeneratorExit, "").at(a.call);
    match it.send_to(&g, crate::eval::generator::Resume::Throw(exit), a.call) {
        Ok(crate::eval::generator::Out::Yield(_)) => Err(Error::new(
            ExceptionClass::RuntimeError,
            "generator ignored GeneratorExit",
        )),
        Ok(_) => Ok(Value::None),
        Err(e)
            if matches!(
                e.class,
                ExceptionClass::GeneratorExit | ExceptionClass::StopIteration
            ) =>
        {
            Ok(Value::None)
        }
        Err(e) => Err(e),
    }
}

/// Each argument of `*iterables` as an iterator, with CPython's TypeError naming the
/// builtin for one that is not iterable.
fn iters_of(a: &Args, what: &str) -> Result<Vec<Value>> {
    a.rest()
        .iter()
        .enumerate()
        .map(|(i, (v, s))| {
            to_iter(v).map_err(|_| {
                Error::new(
                    ExceptionClass::TypeError,
                    format!("{what} argument #{} must support iteration", i + 1),
                )
                .at(*s)
            })
        })
        .collect()
}

/// One argument as an iterator, with the "not iterable" TypeError at it.
/// [`iter_arg`], where an instance of a user class iterates through its `__iter__` or
/// `__getitem__` (read whole, as ragtag has no `__next__` protocol yet).
pub(crate) fn iter_arg_in(it: &mut Interp<'_>, a: &Args, name: &str) -> Result<Value> {
    match a.value(name) {
        v @ Value::Instance(_) => it.iter_of(v, a.span(name)),
        _ => iter_arg(a, name),
    }
}

pub(crate) fn iter_arg(a: &Args, name: &str) -> Result<Value> {
    let v = a.value(name);
    to_iter(v).map_err(|_| {
        Error::new(
            ExceptionClass::TypeError,
            format!("'{}' object is not iterable", v.type_name()),
        )
        .at(a.span(name))
    })
}

pub(super) fn map(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    if a.rest().is_empty() {
        return Err(Error::new(
            ExceptionClass::TypeError,
            "map() must have at least two arguments.",
        )
        .at(a.call));
    }
    let iters = a
        .rest()
        .iter()
        .map(|(v, s)| to_iter(v).map_err(|e| Error::from(e).at(*s)))
        .collect::<Result<_>>()?;
    Ok(iter_value(
        "map",
        IterState::Map {
            func: a.value("function").clone(),
            iters,
            star: false,
        },
    ))
}

pub(super) fn filter(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    Ok(iter_value(
        "filter",
        IterState::Filter {
            func: a.value("function").clone(),
            iter: iter_arg_in(it, a, "iterable")?,
            invert: false,
        },
    ))
}

pub(super) fn zip(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    Ok(iter_value(
        "zip",
        IterState::Zip {
            iters: iters_of(a, "zip()")?,
            strict: a.flag("strict", false)?,
        },
    ))
}

pub(super) fn enumerate(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    Ok(iter_value(
        "enumerate",
        IterState::Enumerate {
            iter: iter_arg_in(it, a, "iterable")?,
            n: a.opt_int("start")?.unwrap_or(0),
        },
    ))
}

pub(super) fn reversed(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let v = a.value("sequence");
    if let Value::Instance(i) = v {
        if let Some(r) = it.dunder(v, "__reversed__", Vec::new(), a.call)? {
            return Ok(r);
        }
        if let Some(base) = i.base() {
            let v = base.clone();
            return reversed_items(&v, a);
        }
    }
    reversed_items(v, a)
}

fn reversed_items(v: &Value, a: &Args) -> Result<Value> {
    if let Value::Range(r) = v {
        // Counting down from the last item, as CPython's reversed range does.
        let n = r.len();
        if let (true, Some(step)) = (n > 0, r.step.checked_neg()) {
            let stop = i128::from(r.start) - i128::from(r.step);
            let stop = stop.clamp(i128::from(i64::MIN), i128::from(i64::MAX)) as i64;
            let next = r.at(n - 1);
            return Ok(iter_value(
                "range_iterator",
                IterState::Range { next, stop, step },
            ));
        }
    }
    let kind = match v {
        Value::List(_) => "list_reverseiterator",
        Value::Dict(_) => "dict_reversekeyiterator",
        Value::View(x) => match x.kind {
            crate::value::view::ViewKind::Keys => "dict_reversekeyiterator",
            crate::value::view::ViewKind::Values => "dict_reversevalueiterator",
            crate::value::view::ViewKind::Items => "dict_reverseitemiterator",
        },
        Value::Tuple(_) | Value::Str(_) | Value::Array(_) | Value::NdArray(_) => "reversed",
        Value::Range(_) => "range_iterator",
        other => {
            return Err(Error::new(
                ExceptionClass::TypeError,
                format!("'{}' object is not reversible", other.type_name()),
            )
            .at(a.span("sequence")))
        }
    };
    let mut items = crate::eval::subscript::iterate(v).map_err(|e| a.err_at("sequence", e))?;
    items.reverse();
    Ok(iter_value(kind, IterState::Seq(items.into())))
}

fn any_all(it: &mut Interp<'_>, a: &Args, want: bool) -> Result<Value> {
    let items = iter_arg_in(it, a, "iterable")?;
    while let Some(item) = it.next_of(&items, a.call)? {
        if item.truthy().map_err(|e| a.err_at("iterable", e))? == want {
            return Ok(Value::Bool(want));
        }
    }
    Ok(Value::Bool(!want))
}

pub(super) fn any(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    any_all(it, a, true)
}

pub(super) fn all(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    any_all(it, a, false)
}

pub(super) fn sum(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let mut acc = a.get("start").cloned().unwrap_or(Value::Int(0));
    if let Value::Str(_) = acc {
        return Err(Error::new(
            ExceptionClass::TypeError,
            "sum() can't sum strings [use ''.join(seq) instead]",
        )
        .at(a.span("start")));
    }
    let items = iter_arg_in(it, a, "iterable")?;
    while let Some(v) = it.next_of(&items, a.call)? {
        if matches!(acc, Value::Instance(_)) || matches!(v, Value::Instance(_)) {
            acc = it.add_values(&acc, &v, a.span("iterable"))?;
            continue;
        }
        acc = crate::eval::operators::binary(ragtag_syntax::ast::BinOp::Add, &acc, &v)
            .map_err(|e| a.err_at("iterable", e))?;
    }
    Ok(acc)
}
