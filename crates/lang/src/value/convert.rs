//! Conversions between language values and engine types, as TensorFlow's
//! `convert_to_tensor` does them.

use std::sync::Arc;

pub use crate::value::fast_literal::regular_ragged;
use crate::value::{scalar_to_value, Value};
use ragtag_engine::literal::{self, Flavor, Leaf, Nested};
use ragtag_engine::{type_error, value_error};
use ragtag_engine::{Array, Buffer, DType, Exception, ExceptionClass, Scalar, Tensor};

/// A Python-level value as a nested literal (tensors expand into typed leaves). Every
/// element of a tensor becomes a leaf of tens of bytes, so the size is checked against the
/// memory budget first.
pub fn to_nested(v: &Value) -> Result<Nested, Exception> {
    ragtag_engine::guard::check_stack()?;
    let (leaves, bytes) = nested_cost(v, 0)?;
    ragtag_engine::budget::check(
        "converting to a nested list",
        leaves,
        std::mem::size_of::<Nested>(),
    )?;
    ragtag_engine::budget::check_bytes("converting to a nested list", bytes)?;
    to_nested_unchecked(v, 0)
}

/// The most dimensions a tensor may have (TensorFlow's limit).
pub const MAX_RANK: usize = 254;

/// The leaves (and string bytes) a value expands into as a nested literal.
fn nested_cost(v: &Value, depth: usize) -> Result<(u128, u128), Exception> {
    if depth > MAX_RANK {
        return Err(value_error!(
            "a tensor has at most {MAX_RANK} dimensions, but this value nests lists deeper"
        ));
    }
    ragtag_engine::guard::check_stack()?;
    Ok(match v {
        // The literal of a display is already built.
        Value::List(l) if l.cached_literal().is_some() => (1, 0),
        Value::List(_) | Value::Tuple(_) => {
            let items = match v {
                Value::List(l) => l.items(),
                Value::Tuple(t) => t.to_vec(),
                _ => Vec::new(),
            };
            let (mut n, mut b) = (1u128, 0u128);
            for item in items.iter() {
                let (n2, b2) = nested_cost(item, depth + 1)?;
                n = n.saturating_add(n2);
                b = b.saturating_add(b2);
            }
            (n, b)
        }
        Value::NdArray(n) => match &**n {
            crate::value::NdArray::Dense(t) => (
                (t.size() as u128).saturating_mul(2),
                t.data().str_bytes() as u128,
            ),
            crate::value::NdArray::Object(items, _) => {
                let (mut n, mut b) = (1u128, 0u128);
                for item in items.iter() {
                    let (n2, b2) = nested_cost(item, depth + 1)?;
                    n = n.saturating_add(n2);
                    b = b.saturating_add(b2);
                }
                (n, b)
            }
        },
        Value::Array(a) => {
            let fv = a.flat_values();
            // A leaf per element, plus a list per row of every dimension but the last.
            (
                (fv.size() as u128).saturating_mul(2),
                fv.data().str_bytes() as u128,
            )
        }
        Value::Str(s) => (1, s.len() as u128),
        Value::Range(r) => ((r.len() as u128).saturating_add(1), 0),
        _ => (1, 0),
    })
}

fn to_nested_unchecked(v: &Value, depth: usize) -> Result<Nested, Exception> {
    if depth > MAX_RANK {
        return Err(value_error!(
            "a tensor has at most {MAX_RANK} dimensions, but this value nests lists deeper"
        ));
    }
    ragtag_engine::guard::check_stack()?;
    Ok(match v {
        Value::Bool(b) => Nested::Leaf(Leaf::Bool(*b)),
        Value::Int(i) => Nested::Leaf(Leaf::Int(*i)),
        Value::Float(f) => Nested::Leaf(Leaf::Float(*f)),
        Value::Str(s) => Nested::Leaf(Leaf::Str(s.as_bytes().to_vec())),
        Value::Bytes(b) => Nested::Leaf(Leaf::Str(b.data.clone())),
        Value::List(l) => match l.cached_literal() {
            Some(lit) => lit.tree().clone(),
            None => Nested::List(
                l.items()
                    .iter()
                    .map(|item| to_nested_unchecked(item, depth + 1))
                    .collect::<Result<_, _>>()?,
            ),
        },
        Value::Tuple(items) => Nested::List(
            items
                .iter()
                .map(|item| to_nested_unchecked(item, depth + 1))
                .collect::<Result<_, _>>()?,
        ),
        Value::Array(a) => array_to_nested(a),
        Value::Range(r) => Nested::List(
            (0..r.len())
                .map(|k| Nested::Leaf(Leaf::Int(r.at(k))))
                .collect(),
        ),
        Value::NdArray(n) => match &**n {
            crate::value::NdArray::Dense(t) => tensor_to_nested(t),
            crate::value::NdArray::Object(items, _) => Nested::List(
                items
                    .iter()
                    .map(|item| to_nested_unchecked(item, depth + 1))
                    .collect::<Result<_, _>>()?,
            ),
        },
        Value::BigInt(n) => {
            return Err(value_error!(
                "Can't convert Python int {n} to a tensor: it is out of range for int64"
            ))
        }
        other => {
            return Err(type_error!(
                "a {} cannot be converted to a tensor",
                other.type_name()
            ))
        }
    })
}

/// A dense or ragged tensor as nested lists of typed leaves.
pub fn array_to_nested(a: &Array) -> Nested {
    match a {
        Array::Dense(t) => tensor_to_nested(t),
        Array::Ragged(r) => {
            let values = array_to_nested(&r.values());
            let Nested::List(items) = values else {
                unreachable!("values have rank >= 1")
            };
            let mut it = items.into_iter();
            Nested::List(
                r.row_lengths()
                    .iter()
                    .map(|&n| Nested::List(it.by_ref().take(n as usize).collect()))
                    .collect(),
            )
        }
    }
}

fn tensor_to_nested(t: &Tensor) -> Nested {
    fn rec(t: &Tensor, shape: &[usize], offset: usize) -> Nested {
        match shape.split_first() {
            None => Nested::Leaf(Leaf::Typed(t.data().get(offset))),
            Some((&n, rest)) => {
                let stride: usize = rest.iter().product();
                Nested::List((0..n).map(|i| rec(t, rest, offset + i * stride)).collect())
            }
        }
    }
    rec(t, t.shape(), 0)
}

/// Converts a value to a dense or ragged tensor; Python scalars and lists take `hint`'s
/// dtype when given (so `x + 3` keeps `x`'s dtype).
pub fn to_array(v: &Value, hint: Option<DType>) -> Result<Arc<Array>, Exception> {
    match v {
        Value::Array(a) => Ok(a.clone()),
        Value::NdArray(n) if matches!(**n, crate::value::NdArray::Dense(_)) => {
            let crate::value::NdArray::Dense(t) = &**n else {
                unreachable!("matched above")
            };
            Ok(Arc::new(Array::Dense(t.clone())))
        }
        Value::Lod(l) => Ok(Arc::new(Array::Dense(l.data().clone()))),
        Value::Sparse(_) => Err(type_error!(
            "this operation needs a dense or ragged tensor, not a SparseTensor"
        )
        .with_hint("convert it first with tf.sparse.to_dense(st)")),
        Value::None => Err(type_error!("None cannot be converted to a tensor")),
        Value::List(l)
            if l.cached_literal()
                .is_some_and(|lit| lit.columns().is_some()) =>
        {
            let lit = l.cached_literal().expect("matched above");
            let c = lit.columns().expect("matched above");
            match c.to_array(hint, Flavor::TensorFlow) {
                Some(a) => a.map(Arc::new),
                None => {
                    let hint = hint.filter(|d| compatible_hint(&lit, *d));
                    Ok(Arc::new(literal::nested_to_array(&lit, hint)?))
                }
            }
        }
        Value::Float(f) if hint.is_some_and(|d| d.is_int()) => Err(type_error!(
            "Cannot convert {} to a tensor of dtype {}",
            ragtag_engine::literal::py_float(*f),
            hint.unwrap()
        )
        .with_hint("TensorFlow does not mix int and float tensors: cast one side with tf.cast")),
        Value::List(_) | Value::Tuple(_) if stackable(v) => {
            let items = super::subscript_items(v);
            let ts: Vec<&Tensor> = items.iter().filter_map(|i| i.as_dense()).collect();
            ragtag_engine::ops::concat::stack_dense(&ts, 0).map(|t| Arc::new(Array::Dense(t)))
        }
        _ => {
            let n = to_nested(v)?;
            let hint = hint.filter(|d| compatible_hint(&n, *d));
            Ok(Arc::new(literal::nested_to_array(&n, hint)?))
        }
    }
}

/// Dense tensors of one shape and dtype: they stack directly, without a nested literal
/// of every element (which takes tens of bytes an element).
fn stackable(v: &Value) -> bool {
    let items = match v {
        Value::List(l) if l.cached_literal().is_none() => l.items(),
        Value::Tuple(t) => t.to_vec(),
        _ => return false,
    };
    let Some(first) = items.first().and_then(|v| v.as_dense()) else {
        return false;
    };
    items.iter().all(|v| {
        v.as_dense()
            .is_some_and(|t| t.shape() == first.shape() && t.dtype() == first.dtype())
    })
}

/// Whether a literal may take dtype `d` (ints may become floats; strings stay strings).
fn compatible_hint(n: &Nested, d: DType) -> bool {
    fn first_leaf(n: &Nested) -> Option<&Leaf> {
        match n {
            Nested::Leaf(l) => Some(l),
            Nested::List(items) => items.iter().find_map(first_leaf),
        }
    }
    match first_leaf(n) {
        None => true,
        Some(Leaf::Str(_)) => d == DType::String,
        Some(Leaf::Bool(_)) => d == DType::Bool,
        Some(Leaf::Int(_)) | Some(Leaf::Float(_)) => d.is_numeric(),
        Some(Leaf::Typed(_)) => false,
    }
}

/// A value as one scalar element of `dtype` (for `default_value=` and fills).
pub fn to_scalar(v: &Value, dtype: Option<DType>) -> Result<Scalar, Exception> {
    let a = to_array(v, dtype)?;
    let t = match &*a {
        Array::Dense(t) if t.size() == 1 => t.clone(),
        _ => {
            return Err(value_error!(
                "expected a single value, got shape {}",
                ragtag_engine::ops::shape_str(&a.shape())
            ))
        }
    };
    let s = t.data().get(0);
    match dtype {
        Some(d) if d != s.dtype() => ragtag_engine::ops::cast::cast_scalar(&s, d),
        _ => Ok(s),
    }
}

/// The one element of a rank-0 tensor (or NumPy array) whose dtype `fits`; None for a value
/// that is no tensor; an error naming `want` for any other tensor.
fn tensor_item(
    v: &Value,
    want: &str,
    fits: fn(DType) -> bool,
) -> Result<Option<Scalar>, Exception> {
    let a = match v {
        Value::NdArray(_) => to_array(v, None)?,
        Value::Array(a) => a.clone(),
        _ => return Ok(None),
    };
    match &*a {
        Array::Dense(t) if t.rank() == 0 && fits(t.dtype()) => Ok(Some(t.data().get(0))),
        _ => Err(wrong_tensor(want, &a)),
    }
}

/// TypeError: a tensor where `want` was expected, named by its dtype and shape.
fn wrong_tensor(want: &str, a: &Array) -> Exception {
    type_error!(
        "expected {want}, got a {} tensor of shape {}",
        a.dtype(),
        ragtag_engine::ops::shape_str(&a.shape())
    )
}

/// A value as a Python int (ints, bools, integer scalar tensors).
pub fn to_int(v: &Value) -> Result<i64, Exception> {
    match v {
        Value::Int(i) => Ok(*i),
        Value::Bool(b) => Ok(*b as i64),
        Value::BigInt(_) => Err(Exception::new(
            ExceptionClass::OverflowError,
            "Python int too large to convert to C long",
        )),
        other => match tensor_item(other, "an int", DType::is_int)? {
            Some(s) => Ok(s.as_i64().expect("an int dtype")),
            None => Err(type_error!("expected an int, got a {}", other.type_name())),
        },
    }
}

/// A value as a float.
pub fn to_f64(v: &Value) -> Result<f64, Exception> {
    match v {
        Value::Float(f) => Ok(*f),
        Value::BigInt(n) => num_traits::ToPrimitive::to_f64(&**n)
            .filter(|f| f.is_finite())
            .ok_or_else(|| {
                Exception::new(
                    ExceptionClass::OverflowError,
                    "int too large to convert to float",
                )
            }),
        other => match tensor_item(other, "a number", DType::is_numeric)? {
            Some(s) => Ok(s.as_f64().expect("a numeric dtype")),
            None => to_int(other).map(|i| i as f64),
        },
    }
}

/// A value as a list of ints (a Python list, tuple, integer vector or shape).
pub fn to_ints(v: &Value) -> Result<Vec<i64>, Exception> {
    match v {
        Value::Shape(s) => s
            .iter()
            .map(|d| {
                d.map(|d| d as i64)
                    .ok_or_else(|| value_error!("the shape has an unknown (None) dimension"))
            })
            .collect(),
        // A list display of numbers converts as a tensor (a nested one is a rank error).
        Value::List(l) if l.literal().is_none() => l.items().iter().map(to_int).collect(),
        Value::Tuple(items) => items.iter().map(to_int).collect(),
        Value::Range(r) => Ok((0..r.len()).map(|k| r.at(k)).collect()),
        Value::Int(_) | Value::Bool(_) => Ok(vec![to_int(v)?]),
        _ => {
            let a = to_array(v, Some(DType::Int64))?;
            match &*a {
                Array::Dense(t) if t.dtype().is_int() && t.rank() <= 1 => {
                    Ok(t.to_i64_vec().expect("int"))
                }
                Array::Dense(t) if t.dtype().is_int() => Err(value_error!(
                    "expected a vector of ints, got shape {}",
                    ragtag_engine::ops::dense_shape_str(t.shape())
                )),
                _ => Err(wrong_tensor("a list of ints", &a)),
            }
        }
    }
}

/// A value as a dtype (`tf.int32`, `'int32'`, `np.float64`, `str`).
pub fn to_dtype(v: &Value) -> Result<DType, Exception> {
    match v {
        Value::DType(d) => Ok(*d),
        Value::NpType(t) => Ok(t.dtype),
        Value::Str(s) => DType::parse(s).ok_or_else(|| type_error!("unknown dtype '{s}'")),
        Value::Builtin(b) => {
            DType::parse(b.short_name()).ok_or_else(|| type_error!("{} is not a dtype", b.name))
        }
        other => Err(type_error!(
            "expected a dtype such as tf.int32, got a {}",
            other.type_name()
        )),
    }
}

/// A tensor as Python lists of Python scalars (`to_list()`, `numpy().tolist()`).
pub fn array_to_list(a: &Array) -> Value {
    crate::value::tensor_nested_to_value(&array_to_nested(a))
}

/// A rank-1 int64 tensor value.
pub fn i64_tensor(v: Vec<i64>) -> Value {
    Value::tensor(Tensor::from_i64(v))
}

/// A scalar tensor value.
pub fn scalar_tensor(s: Scalar) -> Value {
    Value::tensor(Tensor::scalar(s))
}

/// The error for a value of the wrong kind.
pub fn wrong_kind(what: &str, v: &Value) -> Exception {
    Exception::new(
        ExceptionClass::TypeError,
        format!("expected {what}, got a {}", v.type_name()),
    )
}

/// The single element of a scalar tensor as a Python value, else the value itself.
pub fn unwrap_scalar(v: Value) -> Value {
    if let Some(t) = v.as_dense() {
        if t.rank() == 0 {
            return scalar_to_value(t.data().get(0));
        }
    }
    v
}

/// An int64 vector as a Buffer.
pub fn i64_buffer(v: Vec<i64>) -> Buffer {
    Buffer::I64(v.into())
}

/// A tensor as TensorFlow's `.numpy()` gives it: a dense array; for a RaggedTensor the rows
/// sliced from its values' array, stacked into one array when they all have one shape, else
/// a 1-D object array of the rows (an empty RaggedTensor is a `(0, 0, …)` array).
pub fn array_to_ndarray(a: &Array) -> Result<crate::value::NdArray, Exception> {
    use crate::value::NdArray;
    use ragtag_engine::ops::index::{getitem, Key};
    let r = match a {
        Array::Dense(t) => return Ok(NdArray::Dense(t.clone())),
        Array::Ragged(r) => r,
    };
    let values = array_to_ndarray(&r.values())?;
    let n = r.nrows();
    let splits = r.outer().row_splits();
    let lens: Vec<usize> = splits.windows(2).map(|w| (w[1] - w[0]) as usize).collect();
    let uniform = n > 0 && lens.iter().all(|&l| l == lens[0]);
    match values {
        NdArray::Dense(t) => {
            let inner = &t.shape()[1..];
            if n == 0 {
                let mut shape = vec![0, 0];
                shape.extend_from_slice(inner);
                return Ok(NdArray::Dense(Tensor::from_parts(
                    shape,
                    ragtag_engine::ops::cast::cast_buffer(
                        &Buffer::I64(Vec::new().into()),
                        t.dtype(),
                    )?,
                )));
            }
            if uniform {
                let mut shape = vec![n, lens[0]];
                shape.extend_from_slice(inner);
                return Ok(NdArray::Dense(Tensor::from_parts(shape, t.data().clone())));
            }
            let whole = Array::Dense(t);
            let mut rows = ragtag_engine::budget::vec("ndarray of rows", n)?;
            for w in splits.windows(2) {
                ragtag_engine::interrupt::check()?;
                let row = getitem(&whole, &[Key::Slice(Some(w[0]), Some(w[1]), None)])?;
                if let Array::Dense(t) = row {
                    rows.push(Value::NdArray(Arc::new(NdArray::Dense(t))));
                }
            }
            Ok(NdArray::Object(rows, 1))
        }
        // Rows of an object array: sliced along its first axis; stacked (one more
        // dimension) when they all have one length.
        NdArray::Object(items, ndim) => {
            let mut rows = ragtag_engine::budget::vec("ndarray of rows", n)?;
            for w in splits.windows(2) {
                ragtag_engine::interrupt::check()?;
                let part = items[w[0] as usize..w[1] as usize].to_vec();
                rows.push(Value::NdArray(Arc::new(NdArray::Object(part, ndim))));
            }
            Ok(NdArray::Object(rows, if uniform { ndim + 1 } else { 1 }))
        }
    }
}
