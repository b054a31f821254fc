//! Items of Python containers by position or key: reading `x[i]`, `x[a:b]`, `d[k]`, and
//! changing lists and dicts in place (`l[i] = v`, `l[a:b] = xs`, `d[k] = v`, `del l[i]`).

use std::sync::Arc;

use super::{convert, Interp};
use crate::diagnostic::{Error, Result};
use crate::render::tf_text::repr_of;
use crate::value::{PyList, Value};
use ragtag_engine::tensor::{normalize_index, slice_positions};
use ragtag_engine::{index_error, ExceptionClass};
use ragtag_syntax::ast::{Expr, Index, Span};

/// An evaluated subscript of a Python container: one index or key, or a slice.
pub enum Sub {
    /// `x[v]`, with where `v` was written.
    Key(Value, Span),
    /// `x[a:b:c]`.
    Slice(Option<i64>, Option<i64>, Option<i64>),
}

impl<'s> Interp<'s> {
    /// Evaluates the one index of a Python container's subscript.
    pub(super) fn eval_sub(&mut self, obj: &Value, index: &[Index], span: Span) -> Result<Sub> {
        let [index] = index else {
            let kind = match obj {
                Value::Dict(_) => {
                    // `d[1, 2]` is the key `(1, 2)`.
                    #[allow(clippy::disallowed_methods)] // sized by the source text
                    let mut keys = Vec::with_capacity(index.len());
                    for i in index {
                        match i {
                            Index::Expr(e) => keys.push(self.eval(e)?),
                            Index::Slice { .. } => return Err(unhashable_slice(span)),
                        }
                    }
                    return Ok(Sub::Key(Value::tuple(keys), span));
                }
                other => other.type_name(),
            };
            return Err(Error::new(
                ExceptionClass::TypeError,
                format!("{kind} indices must be integers or slices, not tuple"),
            )
            .at(span)
            .with_hint(
                "a Python list takes one index; convert it with tf.constant(…) to index a tensor",
            ));
        };
        Ok(match index {
            Index::Expr(e) => match self.eval(e)? {
                Value::Slice(s) => {
                    let [a, b, c] = s.parts().map(crate::eval::builtins::python::slices::bound);
                    let at = |r: std::result::Result<Option<i64>, ragtag_engine::Exception>| {
                        r.map_err(|err| Error::from(err).at(e.span))
                    };
                    Sub::Slice(at(a)?, at(b)?, at(c)?)
                }
                // An instance with `__index__` indexes a sequence as its int.
                v @ Value::Instance(_) if !matches!(obj, Value::Dict(_)) => {
                    match self.try_index(&v, e.span)? {
                        Some(i) => Sub::Key(i, e.span),
                        None => Sub::Key(v, e.span),
                    }
                }
                v => Sub::Key(v, e.span),
            },
            Index::Slice {
                start, stop, step, ..
            } => Sub::Slice(
                self.slice_bound(start)?,
                self.slice_bound(stop)?,
                self.slice_bound(step)?,
            ),
        })
    }

    fn slice_bound(&mut self, e: &Option<Expr>) -> Result<Option<i64>> {
        match e {
            None => Ok(None),
            Some(e) => match self.eval(e)? {
                Value::None => Ok(None),
                v @ Value::Instance(_) => {
                    let i = self.index_of(&v, e.span)?;
                    convert::to_int(&i)
                        .map(Some)
                        .map_err(|err| Error::from(err).at(e.span))
                }
                v => convert::to_int(&v).map(Some).map_err(|err| {
                    Error::from(err)
                        .at(e.span)
                        .with_hint("slice bounds must be integers or None")
                }),
            },
        }
    }
}

fn unhashable_slice(span: Span) -> Error {
    Error::new(ExceptionClass::TypeError, "unhashable type: 'slice'").at(span)
}

/// The position an index names in a sequence of `n` items, with Python's errors.
pub(super) fn position(obj: &Value, key: &Value, at: Span, n: usize, what: &str) -> Result<usize> {
    let i = match key {
        Value::Int(_) | Value::Bool(_) | Value::Array(_) => convert::to_int(key).ok(),
        // An instance of a class deriving from int.
        Value::Instance(i) => match i.base() {
            Some(Value::Int(n)) => Some(*n),
            _ => None,
        },
        _ => None,
    }
    .ok_or_else(|| {
        Error::new(
            ExceptionClass::TypeError,
            format!(
                "{} indices must be integers or slices, not {}",
                obj.type_name(),
                key.type_name()
            ),
        )
        .at(at)
    })?;
    normalize_index(i, n).ok_or_else(|| {
        let kind = match obj {
            Value::Str(_) => "string",
            Value::Bytes(_) => "bytes",
            other => other.type_name(),
        };
        Error::from(index_error!("{kind} {what}index out of range"))
            .at(at)
            .with_hint(format!("index {i}, but the length is {n}"))
    })
}

/// `obj[sub]` for a list, tuple, str, TensorShape or dict.
pub fn get_item(obj: &Value, sub: &Sub, span: Span) -> Result<Value> {
    match (obj, sub) {
        (Value::Deque(d), sub) => super::collection_items::deque_get(d, sub, span),
        (Value::Dict(d), Sub::Key(k, at)) => d
            .get(k)
            .map_err(|e| Error::from(e).at(*at))?
            .ok_or_else(|| Error::new(ExceptionClass::KeyError, repr_of(k)).at(*at)),
        (Value::Dict(_), Sub::Slice(..)) => Err(unhashable_slice(span)),
        (Value::List(l), Sub::Key(k, at)) => {
            let p = position(obj, k, *at, l.len(), "")?;
            l.get(p)
                .ok_or_else(|| Error::from(index_error!("list index out of range")).at(*at))
        }
        (_, Sub::Key(k, at)) => {
            let items = super::subscript::iterate(obj).map_err(|e| Error::from(e).at(span))?;
            let p = position(obj, k, *at, items.len(), "")?;
            Ok(items[p].clone())
        }
        (_, Sub::Slice(a, b, c)) => {
            let items = super::subscript::iterate(obj).map_err(|e| Error::from(e).at(span))?;
            let pos =
                slice_positions(*a, *b, *c, items.len()).map_err(|e| Error::from(e).at(span))?;
            let vals: Vec<Value> = pos.into_iter().map(|p| items[p].clone()).collect();
            Ok(rebuild(obj, vals))
        }
    }
}

/// `r[i]` or `r[a:b:c]` of a range (a slice is a range again).
pub fn range_item(r: &crate::value::range::PyRange, sub: &Sub, span: Span) -> Result<Value> {
    let res = match sub {
        Sub::Key(k, at) => {
            let i = match k {
                Value::Int(i) => *i,
                Value::Bool(b) => *b as i64,
                other => {
                    return Err(Error::new(
                        ExceptionClass::TypeError,
                        format!(
                            "range indices must be integers or slices, not {}",
                            other.type_name()
                        ),
                    )
                    .at(*at))
                }
            };
            r.item(i)
                .map(Value::Int)
                .map_err(|e| Error::from(e).at(*at))
        }
        Sub::Slice(a, b, c) => r
            .slice(*a, *b, *c)
            .map(|r| Value::Range(Arc::new(r)))
            .map_err(|e| Error::from(e).at(span)),
    };
    res
}

/// A slice's items as a value of the sliced kind.
fn rebuild(obj: &Value, vals: Vec<Value>) -> Value {
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
        Value::List(l) => Value::List(PyList::new(vals, l.is_display())),
        Value::Bytes(_) | Value::ByteArray(_) => {
            let data = vals
                .iter()
                .map(|v| match v {
                    Value::Int(i) => *i as u8,
                    _ => 0,
                })
                .collect();
            match obj {
                Value::ByteArray(_) => Value::bytearray(data),
                _ => Value::bytes(data),
            }
        }
        _ => Value::list(vals),
    }
}

/// `obj[sub] = v`.
pub fn set_item(obj: &Value, sub: Sub, v: Value, span: Span) -> Result<()> {
    match (obj, sub) {
        (Value::Deque(d), sub) => super::collection_items::deque_set(d, sub, v, span),
        (Value::Dict(d), Sub::Key(k, at)) => d.insert(k, v).map_err(|e| Error::from(e).at(at)),
        (Value::Dict(_), Sub::Slice(..)) => Err(unhashable_slice(span)),
        (Value::List(l), Sub::Key(k, at)) => {
            let p = position(obj, &k, at, l.len(), "assignment ")?;
            l.with_mut(|items| {
                if let Some(slot) = items.get_mut(p) {
                    *slot = v;
                }
            });
            Ok(())
        }
        (Value::List(l), Sub::Slice(a, b, c)) => {
            let new = super::subscript::iterate(&v).map_err(|_| {
                Error::new(
                    ExceptionClass::TypeError,
                    if c.is_some_and(|c| c != 1) {
                        "must assign iterable to extended slice"
                    } else {
                        "can only assign an iterable"
                    },
                )
                .at(span)
            })?;
            assign_slice(l, (a, b, c), new, span)
        }
        (Value::ByteArray(arr), sub) => super::bytes_items::set_item(obj, arr, sub, v, span),
        (other, _) => Err(Error::new(
            ExceptionClass::TypeError,
            format!(
                "'{}' object does not support item assignment",
                class_name(other)
            ),
        )
        .at(span)
        .with_hint(match other {
            Value::Array(_) => {
                "tensors are immutable: build a new one (tf.tensor_scatter_nd_update, tf.where)"
            }
            Value::Tuple(_) | Value::Str(_) => "tuples and strings are immutable: build a new one",
            _ => "only lists and dicts can change in place",
        })),
    }
}

/// The class name Python's messages use for a value.
fn class_name(v: &Value) -> &'static str {
    match v {
        Value::Array(a) if matches!(**a, ragtag_engine::Array::Dense(_)) => {
            "tensorflow.python.framework.ops.EagerTensor"
        }
        other => other.type_name(),
    }
}

/// `l[a:b:c] = new`: a plain slice takes any number of items; an extended one exactly as
/// many as it names.
fn assign_slice(
    l: &PyList,
    (a, b, c): (Option<i64>, Option<i64>, Option<i64>),
    new: Vec<Value>,
    span: Span,
) -> Result<()> {
    let n = l.len();
    let step = c.unwrap_or(1);
    if step == 1 {
        let pos = slice_positions(a, b, None, n).map_err(|e| Error::from(e).at(span))?;
        // An empty slice inserts at its start, clamped as Python clamps it.
        let start = match pos.first() {
            Some(&p) => p,
            None => clamp(a, n),
        };
        let end = start + pos.len();
        l.with_mut(|items| {
            items.splice(start..end, new);
        });
        return Ok(());
    }
    let pos = slice_positions(a, b, c, n).map_err(|e| Error::from(e).at(span))?;
    if pos.len() != new.len() {
        return Err(Error::new(
            ExceptionClass::ValueError,
            format!(
                "attempt to assign sequence of size {} to extended slice of size {}",
                new.len(),
                pos.len()
            ),
        )
        .at(span));
    }
    l.with_mut(|items| {
        for (p, v) in pos.into_iter().zip(new) {
            items[p] = v;
        }
    });
    Ok(())
}

/// Where a slice with step 1 starts in `n` items.
fn clamp(a: Option<i64>, n: usize) -> usize {
    match a {
        None => 0,
        Some(i) if i < 0 => (n as i64 + i).max(0) as usize,
        Some(i) => (i as usize).min(n),
    }
}

/// `del obj[sub]`.
pub fn del_item(obj: &Value, sub: Sub, span: Span) -> Result<()> {
    match (obj, sub) {
        (Value::Deque(d), sub) => super::collection_items::deque_del(d, sub, span),
        (Value::Dict(d), Sub::Key(k, at)) => {
            match d.remove(&k).map_err(|e| Error::from(e).at(at))? {
                Some(_) => Ok(()),
                // A Counter ignores deleting a missing key.
                None if matches!(d.kind(), crate::value::DictKind::Counter) => Ok(()),
                None => Err(Error::new(ExceptionClass::KeyError, repr_of(&k)).at(at)),
            }
        }
        (Value::Dict(_), Sub::Slice(..)) => Err(unhashable_slice(span)),
        (Value::List(l), Sub::Key(k, at)) => {
            let p = position(obj, &k, at, l.len(), "assignment ")?;
            l.with_mut(|items| {
                if p < items.len() {
                    items.remove(p);
                }
            });
            Ok(())
        }
        (Value::List(l), Sub::Slice(a, b, c)) => {
            let n = l.len();
            let pos = slice_positions(a, b, c, n).map_err(|e| Error::from(e).at(span))?;
            let mut drop = ragtag_engine::budget::vec::<bool>("del", n)
                .map_err(|e| Error::from(e).at(span))?;
            drop.extend((0..n).map(|_| false));
            for p in pos {
                drop[p] = true;
            }
            l.with_mut(|items| {
                let mut k = 0;
                items.retain(|_| {
                    k += 1;
                    !drop.get(k - 1).copied().unwrap_or(false)
                });
            });
            Ok(())
        }
        (Value::ByteArray(arr), sub) => super::bytes_items::del_item(obj, arr, sub, span),
        (other, _) => Err(Error::new(
            ExceptionClass::TypeError,
            format!(
                "'{}' object doesn't support item deletion",
                class_name(other)
            ),
        )
        .at(span)),
    }
}
