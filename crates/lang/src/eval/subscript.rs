//! List displays, iteration and subscripts (`x[i]`, `x[a:b]`, `rt[:, -2:]`).

use std::sync::Arc;

use super::convert;
use super::Interp;
use crate::diagnostic::{Error, Result};
use crate::value::Value;
use ragtag_engine::literal::{Leaf, Nested};
use ragtag_engine::ops::index::{self, Key};
use ragtag_engine::tensor::{normalize_index, slice_positions};
use ragtag_engine::{index_error, type_error};
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
        Value::List(items) | Value::Tuple(items) => items.to_vec(),
        // A list display's items stay Python values (nested displays stay lists).
        Value::Literal(n) => match n.tree() {
            Nested::List(items) => items.iter().map(crate::value::literal_item).collect(),
            Nested::Leaf(_) => return Err(type_error!("a scalar is not iterable")),
        },
        Value::Array(a) => rows(a)?,
        Value::NdArray(n) => match &**n {
            crate::value::NdArray::Dense(t) => rows(&Array::Dense(t.clone()))?
                .into_iter()
                .map(|r| match r.as_dense() {
                    Some(t) => nd(t.clone()),
                    None => r,
                })
                .collect(),
            crate::value::NdArray::Object(items, _) => items.clone(),
        },
        Value::Str(s) => s.chars().map(|c| Value::str(c.to_string())).collect(),
        Value::Dict(items) => items.iter().map(|(k, _)| k.clone()).collect(),
        Value::Shape(s) => s
            .iter()
            .map(|d| d.map_or(Value::None, |d| Value::Int(d as i64)))
            .collect(),
        other => {
            return Err(type_error!(
                "'{}' object is not iterable",
                other.type_name()
            ));
        }
    })
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
        | Value::Literal(_)
        | Value::Tuple(_)
        | Value::Str(_)
        | Value::Shape(_)
        | Value::Dict(_) => python_subscript(interp, obj, index, span),
        Value::NdArray(n) => match &**n {
            crate::value::NdArray::Dense(t) => {
                let keys = keys(interp, index)?;
                match index::getitem(&Array::Dense(t.clone()), &keys) {
                    Ok(Array::Dense(t)) => Ok(nd(t)),
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
                match python_subscript(interp, &list, &index[..1.min(index.len())], span)? {
                    Value::List(items) => Ok(Value::NdArray(Arc::new(
                        crate::value::NdArray::Object(items.to_vec(), *ndim),
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

fn python_subscript(
    interp: &mut Interp<'_>,
    obj: &Value,
    index: &[Index],
    span: Span,
) -> Result<Value> {
    if index.len() != 1 {
        return Err(Error::new(
            ExceptionClass::TypeError,
            format!(
                "{} indices must be integers or slices, not tuple",
                obj.type_name()
            ),
        )
        .at(span)
        .with_hint(
            "a Python list takes one index; convert it with tf.constant(…) to index a tensor",
        ));
    }
    if let Value::Dict(items) = obj {
        let Index::Expr(e) = &index[0] else {
            return Err(Error::new(ExceptionClass::TypeError, "unhashable type: 'slice'").at(span));
        };
        let k = interp.eval(e)?;
        return items
            .iter()
            .find(|(key, _)| super::operators::python_eq(key, &k))
            .map(|(_, v)| v.clone())
            .ok_or_else(|| {
                Error::new(
                    ragtag_engine::exceptions::ExceptionClass::KeyError,
                    crate::render::tf_text::repr_of(&k),
                )
                .at(e.span)
            });
    }
    let items: Vec<Value> = iterate(obj).map_err(|e| Error::from(e).at(span))?;
    let n = items.len();
    let rebuild = |vals: Vec<Value>| -> Value {
        match obj {
            Value::Tuple(_) => Value::tuple(vals),
            Value::Str(_) => Value::str(
                vals.iter()
                    .map(|v| match v {
                        Value::Str(s) => s.to_string(),
                        _ => String::new(),
                    })
                    .collect::<String>(),
            ),
            Value::Shape(_) => Value::Shape(Arc::new(
                vals.iter()
                    .map(|v| match v {
                        Value::Int(i) => Some(*i as usize),
                        _ => None,
                    })
                    .collect(),
            )),
            Value::Literal(_) => crate::value::relist(vals, true),
            _ => Value::list(vals),
        }
    };
    match &index[0] {
        Index::Expr(e) => {
            let v = interp.eval(e)?;
            let i = match &v {
                Value::Int(_) | Value::Bool(_) => convert::to_int(&v).ok(),
                Value::Array(_) => convert::to_int(&v).ok(),
                _ => None,
            }
            .ok_or_else(|| {
                Error::new(
                    ExceptionClass::TypeError,
                    format!(
                        "{} indices must be integers or slices, not {}",
                        obj.type_name(),
                        v.type_name()
                    ),
                )
                .at(e.span)
            })?;
            let k = normalize_index(i, n).ok_or_else(|| {
                let kind = match obj {
                    Value::Str(_) => "string",
                    other => other.type_name(),
                };
                Error::from(index_error!("{kind} index out of range"))
                    .at(e.span)
                    .with_hint(format!("index {i}, but the length is {n}"))
            })?;
            Ok(items[k].clone())
        }
        Index::Slice {
            start, stop, step, ..
        } => {
            let (a, b, c) = (
                opt_int(interp, start)?,
                opt_int(interp, stop)?,
                opt_int(interp, step)?,
            );
            let pos = slice_positions(a, b, c, n).map_err(|e| Error::from(e).at(span))?;
            Ok(rebuild(pos.into_iter().map(|p| items[p].clone()).collect()))
        }
    }
}

/// `del obj[index]` on a list or dict: the value without that item (values are immutable,
/// so the caller rebinds the name).
pub fn delete_item(
    interp: &mut Interp<'_>,
    obj: &Value,
    index: &[Index],
    span: Span,
) -> Result<Value> {
    let kind = match obj {
        Value::List(_) | Value::Literal(_) => "list",
        Value::Dict(_) => "dict",
        other => {
            return Err(Error::new(
                ExceptionClass::TypeError,
                format!(
                    "'{}' object doesn't support item deletion",
                    other.type_name()
                ),
            )
            .at(span))
        }
    };
    if index.len() != 1 {
        return Err(Error::new(
            ExceptionClass::TypeError,
            format!("{kind} indices must be integers or slices, not tuple"),
        )
        .at(span));
    }
    if let Value::Dict(items) = obj {
        let Index::Expr(e) = &index[0] else {
            return Err(Error::new(ExceptionClass::TypeError, "unhashable type: 'slice'").at(span));
        };
        let k = interp.eval(e)?;
        let Some(pos) = items
            .iter()
            .position(|(key, _)| super::operators::python_eq(key, &k))
        else {
            return Err(Error::new(
                ragtag_engine::exceptions::ExceptionClass::KeyError,
                crate::render::tf_text::repr_of(&k),
            )
            .at(e.span));
        };
        let mut out = items.to_vec();
        out.remove(pos);
        return Ok(Value::Dict(Arc::new(out)));
    }
    let mut items = iterate(obj).map_err(|e| Error::from(e).at(span))?;
    let n = items.len();
    match &index[0] {
        Index::Expr(e) => {
            let v = interp.eval(e)?;
            let i = match &v {
                Value::Int(_) | Value::Bool(_) | Value::Array(_) => convert::to_int(&v).ok(),
                _ => None,
            }
            .ok_or_else(|| {
                Error::new(
                    ExceptionClass::TypeError,
                    format!(
                        "list indices must be integers or slices, not {}",
                        v.type_name()
                    ),
                )
                .at(e.span)
            })?;
            let k = normalize_index(i, n).ok_or_else(|| {
                Error::from(index_error!("list assignment index out of range")).at(e.span)
            })?;
            items.remove(k);
        }
        Index::Slice {
            start, stop, step, ..
        } => {
            let (a, b, c) = (
                opt_int(interp, start)?,
                opt_int(interp, stop)?,
                opt_int(interp, step)?,
            );
            let pos = slice_positions(a, b, c, n).map_err(|e| Error::from(e).at(span))?;
            let mut drop = ragtag_engine::budget::vec::<bool>("del", n)
                .map_err(|e| Error::from(e).at(span))?;
            drop.extend((0..n).map(|_| false));
            for p in pos {
                drop[p] = true;
            }
            let mut k = 0;
            items.retain(|_| {
                k += 1;
                !drop[k - 1]
            });
        }
    }
    Ok(crate::value::relist(
        items,
        matches!(obj, Value::Literal(_)),
    ))
}
