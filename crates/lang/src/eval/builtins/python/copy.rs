//! Python's `copy` module: `copy.copy` (a new container holding the same items) and
//! `copy.deepcopy` (items copied too, each object once: shared and cyclic references are
//! kept, through a memo keyed by the object's address). Immutable values (numbers,
//! strings, tensors, functions, classes) are returned as they are; a tuple is copied only
//! when something inside it is.

use std::sync::Arc;

use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::builtins::Builtin;
use crate::eval::Interp;
use crate::value::class::{attr_items, attr_set, Instance};
use crate::value::deque::PyDeque;
use crate::value::{PyDict, PyList, PySet, Value};
use ragtag_engine::ExceptionClass;
use ragtag_syntax::ast::Span;

/// `copy.copy` and `copy.deepcopy`.
pub static COPY: &[Builtin] = &[
    Builtin::function("copy.copy", "(x)", copy)
        .doc("A shallow copy: a new list, dict, set or instance holding the same items (an instance's `__copy__` decides for it).")
        .examples(&["import copy\na = [[1], [2]]\nb = copy.copy(a)\nb[0] is a[0], b is a"]),
    Builtin::function("copy.deepcopy", "(x, memo=None)", deepcopy)
        .doc("A deep copy: the items copied too, each object once, so shared and cyclic references stay shared (an instance's `__deepcopy__(memo)` decides for it).")
        .examples(&["import copy\na = [[1], [2]]\nb = copy.deepcopy(a)\nb == a, b[0] is a[0]"]),
];

fn copy(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    shallow(it, a.value("x"), a.call)
}

/// `copy.copy(v)`.
pub fn shallow(it: &mut Interp<'_>, v: &Value, span: Span) -> Result<Value> {
    Ok(match v {
        Value::List(l) => Value::List(PyList::new(l.items(), false)),
        Value::Dict(d) => Value::Dict(d.copy()),
        Value::Set(s) if !s.is_frozen() => {
            Value::Set(s.copy_as(false).map_err(|e| Error::from(e).at(span))?)
        }
        Value::ByteArray(_) | Value::Deque(_) => rebuild(v, v_items(v), span)?,
        Value::Instance(i) if i.class.is_python() => {
            if let Some(f) = i.class.lookup("__copy__") {
                return it.call_method(v, &f, Vec::new(), span);
            }
            let new = Instance::new(i.class.clone());
            if let Some(base) = i.base() {
                new.set_base(shallow(it, base, span)?);
            }
            for (k, x) in attr_items(&i.attrs) {
                attr_set(&new.attrs, &k, x);
            }
            Value::Instance(new)
        }
        other => other.clone(),
    })
}

fn v_items(v: &Value) -> Vec<Value> {
    match v {
        Value::Deque(d) => d.items(),
        _ => Vec::new(),
    }
}

/// A bytearray or deque of the same kind holding `items`.
fn rebuild(v: &Value, items: Vec<Value>, _span: Span) -> Result<Value> {
    Ok(match v {
        Value::Deque(d) => Value::Deque(Arc::new(PyDeque::new(items, d.maxlen))),
        Value::ByteArray(b) => Value::ByteArray(crate::value::PyByteArray::new(b.bytes())),
        other => other.clone(),
    })
}

fn deepcopy(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let memo = match a.given("memo") {
        Some(Value::Dict(d)) => d.clone(),
        Some(Value::None) | None => {
            PyDict::new(Vec::new()).map_err(|e| Error::from(e).at(a.call))?
        }
        Some(other) => {
            return Err(Error::new(
                ExceptionClass::TypeError,
                format!("memo must be a dict, not {}", other.type_name()),
            )
            .at(a.span("memo")))
        }
    };
    deep(it, a.value("x"), &memo, a.call)
}

/// The memo's key for a shared object: its address (`None` for what is never copied).
fn address(v: &Value) -> Option<i64> {
    Some(match v {
        Value::List(l) => Arc::as_ptr(l) as i64,
        Value::Dict(d) => Arc::as_ptr(d) as i64,
        Value::Set(s) => Arc::as_ptr(s) as i64,
        Value::Tuple(t) => Arc::as_ptr(t) as i64,
        Value::Instance(i) => Arc::as_ptr(i) as i64,
        Value::Deque(d) => Arc::as_ptr(d) as i64,
        Value::ByteArray(b) => Arc::as_ptr(b) as i64,
        _ => return None,
    })
}

fn remember(memo: &PyDict, id: i64, v: &Value, span: Span) -> Result<()> {
    memo.insert(Value::Int(id), v.clone())
        .map_err(|e| Error::from(e).at(span))
}

/// `copy.deepcopy(v, memo)`.
pub fn deep(it: &mut Interp<'_>, v: &Value, memo: &Arc<PyDict>, span: Span) -> Result<Value> {
    let Some(id) = address(v) else {
        return Ok(v.clone());
    };
    if let Some(done) = memo
        .get(&Value::Int(id))
        .map_err(|e| Error::from(e).at(span))?
    {
        return Ok(done);
    }
    if ragtag_engine::guard::too_deep() {
        return Err(Error::new(
            ExceptionClass::RecursionError,
            "maximum recursion depth exceeded while calling a Python object",
        )
        .at(span));
    }
    let out = match v {
        Value::List(l) => {
            let new = PyList::new(Vec::new(), false);
            let out = Value::List(new.clone());
            remember(memo, id, &out, span)?;
            let mut items = Vec::new();
            for x in l.items() {
                items.push(deep(it, &x, memo, span)?);
            }
            new.set_items(items);
            out
        }
        Value::Dict(d) => {
            let new = PyDict::of_kind(d.kind().clone());
            let out = Value::Dict(new.clone());
            remember(memo, id, &out, span)?;
            for (k, x) in d.items() {
                let k = deep(it, &k, memo, span)?;
                let x = deep(it, &x, memo, span)?;
                new.insert(k, x).map_err(|e| Error::from(e).at(span))?;
            }
            out
        }
        Value::Set(s) => {
            let mut items = Vec::new();
            for x in s.items() {
                items.push(deep(it, &x, memo, span)?);
            }
            let out = Value::Set(
                PySet::from_items(items, s.is_frozen()).map_err(|e| Error::from(e).at(span))?,
            );
            remember(memo, id, &out, span)?;
            out
        }
        Value::Tuple(t) => {
            let mut items = Vec::new();
            for x in t.iter() {
                items.push(deep(it, x, memo, span)?);
            }
            // A tuple reached again through its own items is the copy made meanwhile.
            if let Some(done) = memo
                .get(&Value::Int(id))
                .map_err(|e| Error::from(e).at(span))?
            {
                return Ok(done);
            }
            let same = items.iter().zip(t.iter()).all(|(a, b)| same_object(a, b));
            let out = if same { v.clone() } else { Value::tuple(items) };
            remember(memo, id, &out, span)?;
            out
        }
        Value::Deque(d) => {
            let mut items = Vec::new();
            for x in d.items() {
                items.push(deep(it, &x, memo, span)?);
            }
            let out = rebuild(v, items, span)?;
            remember(memo, id, &out, span)?;
            out
        }
        Value::ByteArray(_) => {
            let out = rebuild(v, Vec::new(), span)?;
            remember(memo, id, &out, span)?;
            out
        }
        Value::Instance(i) if i.class.is_python() => {
            if let Some(f) = i.class.lookup("__deepcopy__") {
                let memo_arg = crate::eval::classes::arg(Value::Dict(memo.clone()), span);
                let out = it.call_method(v, &f, vec![memo_arg], span)?;
                remember(memo, id, &out, span)?;
                return Ok(out);
            }
            let new = Instance::new(i.class.clone());
            let out = Value::Instance(new.clone());
            remember(memo, id, &out, span)?;
            if let Some(base) = i.base() {
                new.set_base(deep(it, base, memo, span)?);
            }
            for (k, x) in attr_items(&i.attrs) {
                let x = deep(it, &x, memo, span)?;
                attr_set(&new.attrs, &k, x);
            }
            out
        }
        other => other.clone(),
    };
    Ok(out)
}

/// Whether the deep copy `a` of `b` is `b` itself (a value without an address is never
/// copied).
fn same_object(a: &Value, b: &Value) -> bool {
    match (address(a), address(b)) {
        (Some(x), Some(y)) => x == y,
        (None, None) => true,
        _ => false,
    }
}
