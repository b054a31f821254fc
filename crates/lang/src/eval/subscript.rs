//! List displays, iteration and subscripts (`x[i]`, `x[a:b]`, `rt[:, -2:]`).

use std::sync::Arc;

use super::convert;
use super::Interp;
use crate::diagnostic::{Error, Result};
use crate::value::Value;
use ragtag_engine::literal::{Leaf, Nested};
use ragtag_engine::ops::index::{self, Key};

use ragtag_engine::type_error;
use ragtag_engine::{Array, Exception, ExceptionClass};
use ragtag_syntax::ast::{Expr, ExprKind, Index, Span, UnaryOp};

/// The nested literal of a list display made only of literals (`[[1, 2], [3]]`,
/// `[-1.5, 'a']`), or `None` when it holds anything else.
pub fn literal_nested(e: &Expr) -> Option<Nested> {
    match &e.kind {
        // A tuple inside stays a Python tuple, so the display is an ordinary list.
        ExprKind::List(items) => Some(Nested::List(
            items.iter().map(literal_nested).collect::<Option<_>>()?,
        )),
        ExprKind::Data(n) => Some(n.tree().clone()),
        ExprKind::Int(i) => Some(Nested::Leaf(Leaf::Int(*i))),
        ExprKind::Float(f) => Some(Nested::Leaf(Leaf::Float(*f))),
        ExprKind::Str(s) => Some(Nested::Leaf(Leaf::Str(s.as_bytes().to_vec()))),
        ExprKind::Bool(b) => Some(Nested::Leaf(Leaf::Bool(*b))),
        ExprKind::Unary(UnaryOp::Neg, x) => match &x.kind {
            ExprKind::Int(i) => Some(Nested::Leaf(Leaf::Int(-*i))),
            ExprKind::Float(f) => Some(Nested::Leaf(Leaf::Float(-*f))),
            _ => None,
        },
        _ => None,
    }
}

/// The items of an iterable value: list items, tensor rows, string characters.
pub fn iterate(v: &Value) -> Result<Vec<Value>, Exception> {
    Ok(match v {
        Value::List(l) => l.items(),
        Value::Tuple(items) => items.to_vec(),
        Value::Array(a) => rows(a)?,
        Value::NdArray(n) => match &**n {
            crate::value::NdArray::Dense(t) => rows(&Array::Dense(t.clone()))?
                .into_iter()
                .map(|r| match r.as_dense() {
                    Some(t) => nd_item(t.clone()),
                    None => r,
                })
                .collect(),
            crate::value::NdArray::Object(items, _) => items.clone(),
        },
        Value::Str(s) => s.chars().map(|c| Value::str(c.to_string())).collect(),
        Value::Dict(d) => d.keys(),
        Value::Set(s) => s.items(),
        Value::Deque(d) => d.items(),
        Value::View(v) => v.items(),
        Value::Bytes(_) | Value::ByteArray(_) => {
            let data = v.as_bytes().unwrap_or_default();
            let mut out = ragtag_engine::budget::vec("iterating over bytes", data.len())?;
            out.extend(data.iter().map(|&c| Value::Int(i64::from(c))));
            out
        }
        Value::Shape(s) => s
            .iter()
            .map(|d| d.map_or(Value::None, |d| Value::Int(d as i64)))
            .collect(),
        Value::Range(r) => {
            let n = usize::try_from(r.len()).unwrap_or(usize::MAX);
            let mut out = ragtag_engine::budget::vec("iterating over a range", n)?;
            out.extend((0..n as i128).map(|k| Value::Int(r.at(k))));
            out
        }
        other => {
            return Err(type_error!(
                "'{}' object is not iterable",
                other.type_name()
            ));
        }
    })
}

/// An item of a NumPy array: a string element is a Python bytes (the items of the object
/// array TensorFlow's `.numpy()` gives), anything else an array.
fn nd_item(t: ragtag_engine::Tensor) -> Value {
    if t.rank() == 0 && t.dtype() == ragtag_engine::DType::String {
        return crate::value::scalar_to_value(t.data().get(0));
    }
    nd(t)
}

/// A dense NumPy array value.
pub fn nd(t: ragtag_engine::Tensor) -> Value {
    Value::NdArray(Arc::new(crate::value::NdArray::Dense(t)))
}

fn rows(a: &Array) -> Result<Vec<Value>, Exception> {
    if a.rank() == 0 {
        return Err(type_error!("iterating over a 0-d tensor is not allowed"));
    }
    // Each row becomes its own tensor: a copy of its elements plus a few words of tensor
    // and value, counted against the memory budget before any is built.
    let per_row = std::mem::size_of::<Value>() + 4 * std::mem::size_of::<usize>();
    ragtag_engine::budget::check_bytes(
        "iterating over a tensor",
        a.nrows() as u128 * per_row as u128 + a.flat_values().data().byte_size() as u128,
    )?;
    let mut out = ragtag_engine::budget::vec("iterating over a tensor", a.nrows())?;
    for i in 0..a.nrows() {
        out.push(a.row(i as i64).map(Value::from_array)?);
    }
    Ok(out)
}

/// `obj[index…]`.
pub fn subscript(
    interp: &mut Interp<'_>,
    obj: &Value,
    index: &[Index],
    span: Span,
) -> Result<Value> {
    match obj {
        Value::List(_)
        | Value::Tuple(_)
        | Value::Str(_)
        | Value::Shape(_)
        | Value::Dict(_)
        | Value::Bytes(_)
        | Value::ByteArray(_)
        | Value::Deque(_) => {
            let sub = interp.eval_sub(obj, index, span)?;
            if let Some(v) = interp.dict_missing(obj, &sub, span)? {
                return Ok(v);
            }
            super::items::get_item(obj, &sub, span)
        }
        Value::NdArray(n) => match &**n {
            crate::value::NdArray::Dense(t) => {
                let keys = keys(interp, index)?;
                match index::getitem(&Array::Dense(t.clone()), &keys) {
                    Ok(Array::Dense(t)) => Ok(nd_item(t)),
                    Ok(Array::Ragged(_)) => Err(Error::new(
                        ExceptionClass::TypeError,
                        "a NumPy array has no ragged dimensions",
                    )
                    .at(span)),
                    // NumPy raises IndexError where TensorFlow's slicing op is invalid.
                    Err(mut e) => {
                        if e.class == ExceptionClass::InvalidArgumentError {
                            e.class = ExceptionClass::IndexError;
                        }
                        Err(Error::from(e).at(span))
                    }
                }
            }
            crate::value::NdArray::Object(items, ndim) => {
                let list = Value::list(items.clone());
                let sub = interp.eval_sub(&list, &index[..1.min(index.len())], span)?;
                match super::items::get_item(&list, &sub, span)? {
                    Value::List(items) => Ok(Value::NdArray(Arc::new(
                        crate::value::NdArray::Object(items.items(), *ndim),
                    ))),
                    other if index.len() > 1 => subscript(interp, &other, &index[1..], span),
                    other => Ok(other),
                }
            }
        },
        Value::Array(_) | Value::Lod(_) => {
            let a = convert::to_array(obj, None).map_err(|e| Error::from(e).at(span))?;
            let keys = keys(interp, index)?;
            index::getitem(&a, &keys)
                .map(Value::from_array)
                .map_err(|e| Error::from(e).at(span))
        }
        Value::Instance(_) => interp.instance_getitem(obj, index, span),
        // `Box[int]`: the class's `__class_getitem__` (a class method without the decorator).
        Value::Class(c) if c.lookup("__class_getitem__").is_some() => {
            let f = match c.lookup("__class_getitem__") {
                Some(Value::Instance(w)) if super::classes::is_wrapper(&w, "classmethod") => {
                    crate::value::class::attr_get(&w.attrs, "__func__").unwrap_or(Value::None)
                }
                Some(f) => f,
                None => Value::None,
            };
            let key = interp.index_key(index, span)?;
            interp.call_values(&f, vec![obj.clone(), key], span)
        }
        // `list[int]`, `dict[str, int]`: a generic alias of a builtin type.
        Value::Builtin(_) if index.iter().all(|i| matches!(i, Index::Expr(_))) => {
            let mut args = Vec::new();
            for i in index {
                if let Index::Expr(e) = i {
                    args.push(interp.eval(e)?);
                }
            }
            let arg = match args.len() {
                1 => args.remove(0),
                _ => Value::tuple(args),
            };
            crate::eval::builtins::python::identity::generic_alias(obj, arg).ok_or_else(|| {
                Error::new(
                    ExceptionClass::TypeError,
                    format!("'{}' object is not subscriptable", obj.type_name()),
                )
                .at(span)
            })
        }
        Value::Range(r) => {
            let sub = interp.eval_sub(obj, index, span)?;
            super::items::range_item(r, &sub, span)
        }
        other => Err(Error::new(
            ExceptionClass::TypeError,
            format!("'{}' object is not subscriptable", other.type_name()),
        )
        .at(span)),
    }
}

fn opt_int(interp: &mut Interp<'_>, e: &Option<Expr>) -> Result<Option<i64>> {
    match e {
        None => Ok(None),
        Some(e) => match interp.eval(e)? {
            Value::None => Ok(None),
            v => convert::to_int(&v).map(Some).map_err(|err| {
                Error::from(err)
                    .at(e.span)
                    .with_hint("slice bounds must be integers or None")
            }),
        },
    }
}

fn keys(interp: &mut Interp<'_>, index: &[Index]) -> Result<Vec<Key>> {
    let mut keys = Vec::new();
    for i in index {
        keys.push(match i {
            Index::Slice {
                start, stop, step, ..
            } => Key::Slice(
                opt_int(interp, start)?,
                opt_int(interp, stop)?,
                opt_int(interp, step)?,
            ),
            Index::Expr(e) => match &e.kind {
                ExprKind::Ellipsis => Key::Ellipsis,
                _ => match interp.eval(e)? {
                    Value::None => Key::NewAxis,
                    // A slice object (what a class's `__getitem__` was given) slices.
                    Value::Slice(s) => {
                        let [a, b, c] = s.parts().map(super::builtins::python::slices::bound);
                        let at = |r: Result<Option<i64>, Exception>| {
                            r.map_err(|err| Error::from(err).at(e.span))
                        };
                        Key::Slice(at(a)?, at(b)?, at(c)?)
                    }
                    Value::Opaque(o) if &*o == "Ellipsis" => Key::Ellipsis,
                    v => Key::Index(convert::to_int(&v).map_err(|err| {
                        Error::from(err).at(e.span).with_hint(
                            "index with integers, slices (a:b:c), ... or tf.newaxis; \
                             use tf.gather to pick several positions",
                        )
                    })?),
                },
            },
        });
    }
    Ok(keys)
}
