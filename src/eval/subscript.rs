//! List displays, iteration and subscripts (`x[i]`, `x[a:b]`, `rt[:, -2:]`).

use std::sync::Arc;

use super::convert;
use super::Interp;
use crate::diagnostic::{Error, Result};
use crate::engine::literal::{rect_shape, Leaf, Nested};
use crate::engine::ops::index::{self, Key};
use crate::engine::tensor::{normalize_index, slice_positions};
use crate::engine::{Array, EngineError, ErrorClass};
use crate::syntax::ast::{Expr, ExprKind, Index, Span, UnaryOp};
use crate::value::Value;
use crate::{index_error, type_error};

/// The nested literal of a list display made only of literals (`[[1, 2], [3]]`,
/// `[-1.5, 'a']`), or `None` when it holds anything else.
pub fn literal_nested(e: &Expr) -> Option<Nested> {
    match &e.kind {
        ExprKind::List(items) | ExprKind::Tuple(items) => Some(Nested::List(
            items.iter().map(literal_nested).collect::<Option<_>>()?,
        )),
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

/// A list display of evaluated values: packed into one dense tensor the way `tf.constant`
/// packs when it holds tensors that stack (scalars, or dense tensors of one shape),
/// otherwise kept as a Python list.
pub fn pack_list(vals: Vec<Value>) -> Value {
    let any_tensor = vals
        .iter()
        .any(|v| matches!(v, Value::Array(a) if matches!(**a, Array::Dense(_))));
    let all_packable = vals.iter().all(|v| match v {
        Value::Array(a) => matches!(**a, Array::Dense(_)),
        Value::Int(_) | Value::Float(_) | Value::Bool(_) | Value::Str(_) | Value::Literal(_) => {
            true
        }
        _ => false,
    });
    if any_tensor && all_packable {
        // Dense tensors of one shape and dtype stack directly, without a nested literal of
        // every element (which takes tens of bytes an element). When the stack does not fit
        // the memory budget, the display stays a list of tensors.
        let dense: Option<Vec<&crate::engine::Tensor>> = vals
            .iter()
            .map(|v| match v {
                Value::Array(a) => match &**a {
                    Array::Dense(t) => Some(t),
                    Array::Ragged(_) => None,
                },
                _ => None,
            })
            .collect();
        if let Some(ts) = dense {
            let first = ts[0];
            if ts
                .iter()
                .all(|t| t.shape() == first.shape() && t.dtype() == first.dtype())
            {
                return match crate::engine::ops::concat::stack_dense(&ts, 0) {
                    Ok(t) => Value::tensor(t),
                    Err(_) => Value::list(vals),
                };
            }
        }
        let items: Option<Vec<Nested>> = vals.iter().map(|v| convert::to_nested(v).ok()).collect();
        if let Some(items) = items {
            let n = Nested::List(items);
            if rect_shape(&n).is_some() {
                if let Ok(a) = convert::nested_to_array(&n, None) {
                    return Value::from_array(a);
                }
            }
        }
    }
    Value::list(vals)
}

/// The items of an iterable value: list items, tensor rows, string characters.
pub fn iterate(v: &Value) -> Result<Vec<Value>, EngineError> {
    Ok(match v {
        Value::List(items) | Value::Tuple(items) => items.to_vec(),
        Value::Literal(n) => match &**n {
            // A display that makes no tensor (`[('a', 1)]`) is still a Python list.
            Nested::List(items) => match convert::to_array(v, None) {
                Ok(a) => rows(&a)?,
                Err(_) => items.iter().map(crate::value::nested_to_value).collect(),
            },
            Nested::Leaf(_) => return Err(type_error!("a scalar is not iterable")),
        },
        Value::Array(a) => rows(a)?,
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

fn rows(a: &Array) -> Result<Vec<Value>, EngineError> {
    if a.rank() == 0 {
        return Err(type_error!("iterating over a 0-d tensor is not allowed"));
    }
    // Each row becomes its own tensor: a copy of its elements plus a few words of tensor
    // and value, counted against the memory budget before any is built.
    let per_row = std::mem::size_of::<Value>() + 4 * std::mem::size_of::<usize>();
    crate::engine::budget::check_bytes(
        "iterating over a tensor",
        a.nrows() as u128 * per_row as u128 + a.flat_values().data().byte_size() as u128,
    )?;
    let mut out = crate::engine::budget::vec("iterating over a tensor", a.nrows())?;
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
        Value::List(_) | Value::Tuple(_) | Value::Str(_) | Value::Shape(_) | Value::Dict(_) => {
            python_subscript(interp, obj, index, span)
        }
        Value::Array(_) | Value::Literal(_) | Value::Lod(_) => {
            let a = convert::to_array(obj, None).map_err(|e| Error::from(e).at(span))?;
            let keys = keys(interp, index)?;
            index::getitem(&a, &keys)
                .map(Value::from_array)
                .map_err(|e| Error::from(e).at(span))
        }
        other => Err(Error::new(
            ErrorClass::TypeError,
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
            ErrorClass::TypeError,
            format!(
                "{} indices must be a single integer or slice",
                obj.type_name()
            ),
        )
        .at(span));
    }
    if let Value::Dict(items) = obj {
        let Index::Expr(e) = &index[0] else {
            return Err(Error::new(ErrorClass::TypeError, "unhashable type: 'slice'").at(span));
        };
        let k = interp.eval(e)?;
        return items
            .iter()
            .find(|(key, _)| super::operators::python_eq(key, &k))
            .map(|(_, v)| v.clone())
            .ok_or_else(|| {
                Error::new(ErrorClass::KeyError, crate::render::tf_text::repr_of(&k)).at(e.span)
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
            _ => Value::list(vals),
        }
    };
    match &index[0] {
        Index::Expr(e) => {
            let v = interp.eval(e)?;
            let i = convert::to_int(&v).map_err(|err| Error::from(err).at(e.span))?;
            let k = normalize_index(i, n).ok_or_else(|| {
                Error::from(index_error!(
                    "{} index {i} out of range (length {n})",
                    obj.type_name()
                ))
                .at(e.span)
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
