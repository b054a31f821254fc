//! Sparse tensors: `tf.SparseTensor` and its parts, conversions to and from dense and
//! ragged tensors (`tf.sparse.to_dense`, `tf.sparse_to_dense`, `rt.to_sparse()`, …).
//! The ops that rearrange or combine entries live in `sparse_ops.rs`.

use super::common::list_str;
use std::sync::Arc;

use super::Builtin;
use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::convert;
use crate::eval::Interp;
use crate::value::Value;
use ragtag_engine::{sparse, Array, Buffer, DType, ExceptionClass, Scalar, Sparse, Tensor};

/// The SparseTensor class, its properties and the dense/ragged conversions.
pub static BUILTINS: &[Builtin] = &[
    Builtin::function("tf.SparseTensor", "(indices, values, dense_shape=None, shape=None)", sparse_tensor)
        .doc("A sparse tensor: `values[i]` sits at position `indices[i]` of a tensor of `dense_shape`; every other element is an implicit zero ('' for strings). Only the sizes are checked here; ops such as tf.sparse.to_dense check that indices are in bounds and in row-major order. `shape=` is TensorFlow 1's spelling of `dense_shape`.")
        .aliases(&["tf.sparse.SparseTensor", "tf.SparseTensorValue", "tf.compat.v1.SparseTensorValue"])
        .examples(&[
            "tf.SparseTensor(indices=[[0, 1], [0, 3], [2, 0]], values=[1, 2, 3], dense_shape=[3, 5])",
            "tf.SparseTensor(indices=[[0, 0], [1, 2]], values=[1, 2], shape=[3, 4])",
        ]),
    Builtin::property("tf.SparseTensor.indices", indices)
        .doc("The position of every stored value: an int64 matrix [number of values, rank].")
        .examples(&["tf.SparseTensor(indices=[[0, 1], [2, 0]], values=[1, 2], dense_shape=[3, 4]).indices"]),
    Builtin::property("tf.SparseTensor.values", values)
        .doc("The stored values, as a vector.")
        .examples(&["tf.SparseTensor(indices=[[0, 1], [2, 0]], values=[1, 2], dense_shape=[3, 4]).values"]),
    Builtin::property("tf.SparseTensor.dense_shape", dense_shape)
        .doc("The shape of the dense tensor this represents, as an int64 vector.")
        .examples(&["tf.SparseTensor(indices=[[0, 1], [2, 0]], values=[1, 2], dense_shape=[3, 4]).dense_shape"]),
    Builtin::property("tf.SparseTensor.dtype", dtype)
        .doc("The dtype of the values.")
        .examples(&["tf.SparseTensor(indices=[[0, 1], [2, 0]], values=[1, 2], dense_shape=[3, 4]).dtype"]),
    Builtin::property("tf.SparseTensor.shape", shape)
        .doc("The dense shape as a TensorShape.")
        .examples(&["tf.SparseTensor(indices=[[0, 1], [2, 0]], values=[1, 2], dense_shape=[3, 4]).shape"]),
    Builtin::method("tf.SparseTensor.get_shape", "(self)", shape)
        .doc("The dense shape as a TensorShape (same as `.shape`).")
        .examples(&["tf.SparseTensor(indices=[[1]], values=[5], dense_shape=[3]).get_shape()"]),
    Builtin::method("tf.SparseTensor.set_shape", "(self, shape)", set_shape)
        .doc("Checks that the dense shape agrees with `shape` (a list or TensorShape; None entries match any size) and returns None; a disagreement is a ValueError. A SparseTensor's dense shape is always fully known here, so nothing is refined.")
        .examples(&["st = tf.SparseTensor(indices=[[1, 0]], values=[5], dense_shape=[3, 2]); st.set_shape([None, 2]); st.shape"]),
    Builtin::method("tf.SparseTensor.with_values", "(self, new_values)", with_values)
        .doc("The same indices and dense shape with new values (one per index).")
        .examples(&["tf.SparseTensor(indices=[[0], [2]], values=[1, 2], dense_shape=[3]).with_values([10, 20])"]),
    Builtin::function("tf.sparse.to_dense", "(sp_input, default_value=None, validate_indices=True)", to_dense)
        .doc("The dense tensor: each value at its index, `default_value` (zero by default) everywhere else. Indices must lie inside dense_shape; with validate_indices they must also be in row-major order and distinct (tf.sparse.reorder sorts them).")
        .aliases(&["tf.sparse_tensor_to_dense", "tf.compat.v1.sparse_tensor_to_dense"])
        .examples(&[
            "tf.sparse.to_dense(tf.SparseTensor(indices=[[0, 1], [0, 3], [2, 0]], values=[1, 2, 3], dense_shape=[3, 5]), default_value=11)",
        ]),
    Builtin::function("tf.sparse_to_dense", "(sparse_indices, output_shape, sparse_values, default_value=0, validate_indices=True)", sparse_to_dense)
        .doc("TensorFlow 1's dense tensor from parts: `sparse_indices` is a scalar (one position of a vector), a vector (positions of a vector) or an [n, rank] matrix; `sparse_values` is one value for all of them or one each; everything else is `default_value`.")
        .aliases(&["tf.compat.v1.sparse_to_dense"])
        .examples(&[
            "tf.sparse_to_dense(sparse_indices=[[1, 2], [2, 1]], output_shape=[3, 3], sparse_values=[2, 3], default_value=1)",
            "tf.sparse_to_dense(sparse_indices=1, output_shape=[3], sparse_values=7)",
        ]),
    Builtin::function("tf.sparse.from_dense", "(tensor)", from_dense)
        .doc("The sparse form of a dense tensor: its non-zero elements (non-empty strings, True) become the stored values.")
        .examples(&["tf.sparse.from_dense([[1, 0], [0, 2]])"]),
    Builtin::function("tf.sparse.to_indicator", "(sp_input, vocab_size)", to_indicator)
        .doc("A bool tensor that marks the ids a sparse tensor holds: the last dimension becomes `vocab_size`, and `output[i…, id]` is True for every stored id at `[i…, k]`.")
        .aliases(&["tf.sparse_to_indicator", "tf.compat.v1.sparse_to_indicator"])
        .examples(&["tf.sparse.to_indicator(tf.SparseTensor(indices=[[0, 1], [0, 3], [2, 0]], values=[1, 2, 3], dense_shape=[3, 5]), 10)"]),
    Builtin::method("tf.RaggedTensor.to_sparse", "(self)", ragged_to_sparse)
        .doc("The sparse form of a ragged tensor: every value (zeros included) is stored at its [row, position, …] index, and dense_shape is the bounding shape.")
        .examples(&["tf.ragged.constant([['Hi'], ['Welcome', 'to', 'the', 'fair'], ['Have', 'fun']]).to_sparse()"]),
    Builtin::function("tf.RaggedTensor.from_sparse", "(st_input)", ragged_from_sparse)
        .doc("The ragged tensor of a rank-2 sparse tensor whose rows are left-packed (right-ragged): each row's values sit at columns 0, 1, 2, … with no holes, in row-major order. Empty rows are fine; a hole is an InvalidArgumentError.")
        .examples(&["tf.RaggedTensor.from_sparse(tf.SparseTensor(indices=[[0, 0], [2, 0], [2, 1]], values=['a', 'b', 'c'], dense_shape=[3, 3]))"]),
];

/// Wraps a sparse tensor.
pub(super) fn sparse_value(s: Sparse) -> Value {
    Value::Sparse(Arc::new(s))
}

/// Argument `name` as a sparse tensor (a TypeError otherwise, as TensorFlow raises).
pub(super) fn sparse_arg(a: &Args, name: &str) -> Result<Arc<Sparse>> {
    match a.value(name) {
        Value::Sparse(s) => Ok(s.clone()),
        other => Err(not_sparse(other).at(a.span(name))),
    }
}

/// The error for a value that should have been a SparseTensor.
pub(super) fn not_sparse(v: &Value) -> Error {
    Error::new(
        ExceptionClass::TypeError,
        format!("expected a SparseTensor, got a {}", v.type_name()),
    )
    .with_hint(match v {
        Value::Array(a) if matches!(**a, Array::Ragged(_)) => "convert a ragged tensor with rt.to_sparse()",
        _ => "make one with tf.sparse.from_dense(x), rt.to_sparse() or tf.SparseTensor(indices, values, dense_shape)",
    })
}

/// Argument `name` as a dense tensor.
pub(super) fn dense_arg(a: &Args, name: &str, hint: Option<DType>) -> Result<Tensor> {
    match &*a.array(name, hint)? {
        Array::Dense(t) => Ok(t.clone()),
        Array::Ragged(_) => Err(Error::new(
            ExceptionClass::TypeError,
            format!("{name} must be a dense tensor, not a ragged one"),
        )
        .at(a.span(name))
        .with_hint("pad it with rt.to_tensor(), or convert it with rt.to_sparse()")),
    }
}

/// Argument `name` as one value of `dtype` (the default when absent).
pub(super) fn default_arg(a: &Args, name: &str, dtype: DType) -> Result<Scalar> {
    match a.get(name) {
        None => Ok(Scalar::default_of(dtype)),
        Some(v) => convert::to_scalar(v, Some(dtype)).map_err(|e| a.err_at(name, e)),
    }
}

fn sparse_tensor(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let shape_name = match (a.get("dense_shape"), a.get("shape")) {
        (Some(_), Some(_)) => {
            return Err(Error::new(
                ExceptionClass::TypeError,
                "give dense_shape or shape (its old name), not both",
            )
            .at(a.span("shape")))
        }
        (Some(_), None) => "dense_shape",
        (None, Some(_)) => "shape",
        (None, None) => {
            return Err(Error::new(
                ExceptionClass::TypeError,
                "tf.SparseTensor needs a dense_shape",
            )
            .at(a.call)
            .with_hint("tf.SparseTensor(indices=[[0, 1]], values=[5], dense_shape=[2, 3])"))
        }
    };
    let dense_shape = a.ints(shape_name)?;
    let values = dense_arg(a, "values", None)?;
    if values.rank() != 1 {
        return Err(Error::new(
            ExceptionClass::ValueError,
            format!(
                "values must be a vector (one value per index), but has shape {}",
                list_str(values.shape())
            ),
        )
        .at(a.span("values")));
    }
    let idx = dense_arg(a, "indices", Some(DType::Int64))?;
    let rank = dense_shape.len();
    let fits = match idx.shape() {
        [n, r] => *n == values.size() && *r == rank,
        // `indices=[]` for a tensor with no values.
        [0] => values.size() == 0,
        _ => false,
    };
    if !fits {
        return Err(Error::new(
            ExceptionClass::ValueError,
            format!(
                "indices must have shape [{}, {rank}] (one row of {rank} coordinates per value for a rank-{rank} dense_shape), but has shape {}",
                values.size(),
                list_str(idx.shape())
            ),
        )
        .at(a.span("indices")));
    }
    let indices = idx
        .to_i64_vec()
        .filter(|_| idx.dtype().is_int())
        .ok_or_else(|| {
            Error::new(
                ExceptionClass::TypeError,
                format!("indices must be integers, not {}", idx.dtype()),
            )
            .at(a.span("indices"))
        })?;
    Sparse::new(indices, values, dense_shape)
        .map(sparse_value)
        .map_err(|e| a.err_at(shape_name, e))
}

fn indices(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    Ok(Value::tensor(sparse_arg(a, "self")?.indices_tensor()))
}

fn values(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    Ok(Value::tensor(sparse_arg(a, "self")?.values().clone()))
}

fn dense_shape(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    Ok(convert::i64_tensor(
        sparse_arg(a, "self")?.dense_shape().to_vec(),
    ))
}

fn dtype(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    Ok(Value::DType(sparse_arg(a, "self")?.dtype()))
}

fn shape(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let s = sparse_arg(a, "self")?;
    Ok(Value::Shape(Arc::new(
        s.shape_usize().into_iter().map(Some).collect(),
    )))
}

fn with_values(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let s = sparse_arg(a, "self")?;
    let v = dense_arg(a, "new_values", Some(s.dtype()))?;
    s.with_values(v)
        .map(sparse_value)
        .map_err(|e| a.err_at("new_values", e))
}

fn to_dense(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let s = sparse_arg(a, "sp_input")?;
    let default = default_arg(a, "default_value", s.dtype())?;
    let validate = a.flag("validate_indices", true)?;
    Ok(Value::tensor(s.to_dense(&default, validate)?))
}

fn sparse_to_dense(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let idx = dense_arg(a, "sparse_indices", None)?;
    // TensorFlow's kernel checks these shapes, so a bad one is an InvalidArgumentError.
    let as_invalid = |mut e: Error| {
        if e.class == ExceptionClass::ValueError {
            e.class = ExceptionClass::InvalidArgumentError;
        }
        e
    };
    let shape = a.ints("output_shape").map_err(as_invalid)?;
    if let Some(v) = a.get("default_value") {
        if matches!(convert::to_array(v, None).as_deref(), Ok(Array::Dense(t)) if t.rank() != 0) {
            return Err(Error::new(
                ExceptionClass::InvalidArgumentError,
                "default_value should be a scalar",
            )
            .at(a.span("default_value")));
        }
    }
    let values = dense_arg(a, "sparse_values", None)?;
    // A non-scalar default is an InvalidArgumentError here, as TensorFlow's kernel says.
    let default = default_arg(a, "default_value", values.dtype()).map_err(as_invalid)?;
    let validate = a.flag("validate_indices", true)?;
    Ok(Value::tensor(sparse::sparse_to_dense(
        &idx, &shape, &values, &default, validate,
    )?))
}

fn from_dense(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    Ok(sparse_value(Sparse::from_dense(&dense_arg(
        a, "tensor", None,
    )?)))
}

fn to_indicator(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let s = sparse_arg(a, "sp_input")?;
    let vocab = a.int("vocab_size")?;
    Ok(Value::tensor(s.to_indicator(vocab)?))
}

fn ragged_to_sparse(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    match &*a.array("self", None)? {
        Array::Ragged(r) => Ok(sparse_value(Sparse::from_ragged(r))),
        Array::Dense(_) => Err(Error::new(ExceptionClass::TypeError, "to_sparse() is a RaggedTensor method, and this is a dense tensor")
            .at(a.span("self"))
            .with_hint("tf.sparse.from_dense(x) keeps a dense tensor's non-zero elements; to_sparse(x) converts any tensor")),
    }
}

fn ragged_from_sparse(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let s = sparse_arg(a, "st_input")?;
    if s.rank() != 2 {
        return Err(Error::new(
            ExceptionClass::ValueError,
            format!("rank(st_input) must be 2, but it is {}", s.rank()),
        )
        .at(a.span("st_input"))
        .with_hint("to_ragged(st) also converts right-ragged sparse tensors of higher rank"));
    }
    Ok(Value::ragged(s.to_ragged()?))
}

/// A bool vector value.
pub(super) fn bool_tensor(v: Vec<bool>) -> Value {
    Value::tensor(Tensor::vector(Buffer::Bool(v.into())))
}

/// `shape` as sizes, None for unknown ones (`None` for an unknown rank).
fn shape_spec(v: &Value) -> Option<Option<Vec<Option<i64>>>> {
    match v {
        Value::None => Some(None),
        Value::Shape(d) => Some(Some(d.iter().map(|x| x.map(|n| n as i64)).collect())),
        _ => {
            let items = crate::eval::subscript::iterate(v).ok()?;
            items
                .iter()
                .map(|x| match x {
                    Value::None => Some(None),
                    other => convert::to_int(other).ok().map(Some),
                })
                .collect::<Option<Vec<_>>>()
                .map(Some)
        }
    }
}

fn set_shape(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let s = sparse_arg(a, "self")?;
    let spec = shape_spec(a.value("shape")).ok_or_else(|| {
        Error::new(
            ExceptionClass::TypeError,
            format!(
                "shape must be a list of sizes or a TensorShape, not {}",
                a.value("shape").type_name()
            ),
        )
        .at(a.span("shape"))
    })?;
    let Some(dims) = spec else {
        return Ok(Value::None);
    };
    let have = s.dense_shape();
    let fits = dims.len() == have.len()
        && dims
            .iter()
            .zip(have)
            .all(|(d, &h)| d.is_none_or(|d| d == h));
    if !fits {
        let text: Vec<String> = dims
            .iter()
            .map(|d| d.map_or("None".to_string(), |d| d.to_string()))
            .collect();
        return Err(Error::new(
            ExceptionClass::ValueError,
            format!(
                "shape [{}] is not compatible with the dense shape {}",
                text.join(", "),
                list_str(have)
            ),
        )
        .at(a.span("shape")));
    }
    Ok(Value::None)
}
