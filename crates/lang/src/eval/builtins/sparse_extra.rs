//! More sparse ops: softmax, element-wise maximum and minimum, reset_shape, expand_dims and
//! split.

use super::common::opt_ints;
use super::sparse::{sparse_arg, sparse_value};
use super::Builtin;
use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::Interp;
use crate::value::Value;
use ragtag_engine::sparse::Extreme;
use ragtag_engine::ExceptionClass;

/// The extra sparse ops.
pub static BUILTINS: &[Builtin] = &[
    Builtin::function("tf.sparse.softmax", "(sp_input, name=None)", softmax)
        .doc("The softmax of the stored values of each innermost row (entries that share every coordinate but the last), as a sparse tensor with the same indices. Implicit zeros take no part: they are not exp(0) = 1 terms. Needs float values, rank 2 or more, and indices in row-major order (tf.sparse.reorder).")
        .aliases(&["tf.sparse_softmax", "tf.compat.v1.sparse_softmax"])
        .examples(&[concat!("st = tf.SparseTensor(indices=[[0, 0], [0, 3], [1, 2], [2, 1], [2, 4]], values=[1.0, 2.0, 3.0, 4.0, 5.0], dense_shape=[3, 5]); ", "tf.sparse.softmax(st)")]),
    Builtin::function("tf.sparse.maximum", "(sp_a, sp_b, name=None)", maximum)
        .doc("The element-wise maximum of two sparse tensors of one shape and dtype: positions stored in both keep the larger value, positions stored in one compare with an implicit 0. Both should be in row-major order; so is the result.")
        .aliases(&["tf.sparse_maximum", "tf.compat.v1.sparse_maximum"])
        .examples(&[concat!("a = tf.SparseTensor(indices=[[0, 0], [0, 2]], values=[1, -5], dense_shape=[2, 3]); ", "b = tf.SparseTensor(indices=[[0, 2], [1, 1]], values=[-2, 4], dense_shape=[2, 3]); ", "tf.sparse.maximum(a, b)")]),
    Builtin::function("tf.sparse.minimum", "(sp_a, sp_b, name=None)", minimum)
        .doc("The element-wise minimum of two sparse tensors of one shape and dtype: positions stored in both keep the smaller value, positions stored in one compare with an implicit 0.")
        .aliases(&["tf.sparse_minimum", "tf.compat.v1.sparse_minimum"])
        .examples(&[concat!("a = tf.SparseTensor(indices=[[0, 0], [0, 2]], values=[1, -5], dense_shape=[2, 3]); ", "b = tf.SparseTensor(indices=[[0, 2], [1, 1]], values=[-2, 4], dense_shape=[2, 3]); ", "tf.sparse.minimum(a, b)")]),
    Builtin::function("tf.sparse.reset_shape", "(sp_input, new_shape=None)", reset_shape)
        .doc("The same entries under a new dense shape: `new_shape` must have the same rank and no smaller dimension (a ValueError otherwise). Without it, the tightest shape holding every entry (one past the largest index in each dimension).")
        .aliases(&["tf.sparse_reset_shape", "tf.compat.v1.sparse_reset_shape"])
        .examples(&[
            concat!("st = tf.SparseTensor(indices=[[0, 0, 0], [1, 3, 1]], values=[1, 2], dense_shape=[2, 5, 6]); ", "tf.sparse.reset_shape(st)"),
            concat!("st = tf.SparseTensor(indices=[[0, 0, 0], [1, 3, 1]], values=[1, 2], dense_shape=[2, 5, 6]); ", "tf.sparse.reset_shape(st, [3, 6, 7])"),
        ]),
    Builtin::function("tf.sparse.expand_dims", "(sp_input, axis=None, name=None)", expand_dims)
        .doc("Inserts a dimension of size 1 at `axis` (in [-rank - 1, rank]; the last position when None): every index gets a 0 coordinate there.")
        .aliases(&["tf.sparse_expand_dims", "tf.compat.v1.sparse_expand_dims"])
        .examples(&[concat!("st = tf.SparseTensor(indices=[[0, 1], [2, 2]], values=[1, 2], dense_shape=[3, 4]); ", "tf.sparse.expand_dims(st, 0)")]),
    Builtin::function("tf.sparse.split", "(sp_input=None, num_split=None, axis=None, name=None)", split)
        .doc("A list of `num_split` sparse tensors cut from `sp_input` along `axis`, indices shifted to start at zero. When the dimension does not divide evenly the first pieces are one larger; num_split must be between 1 and the dimension's size.")
        .examples(&[concat!("st = tf.SparseTensor(indices=[[0, 0], [1, 1], [3, 2]], values=[1, 2, 3], dense_shape=[4, 3]); ", "tf.sparse.split(sp_input=st, num_split=2, axis=0)")]),
];

fn softmax(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let s = sparse_arg(a, "sp_input")?;
    s.softmax()
        .map(sparse_value)
        .map_err(|e| a.err_at("sp_input", e))
}

fn extreme(a: &Args, op: Extreme) -> Result<Value> {
    let x = sparse_arg(a, "sp_a")?;
    let y = sparse_arg(a, "sp_b")?;
    x.extreme(&y, op)
        .map(sparse_value)
        .map_err(|e| Error::from(e).at(a.call))
}

fn maximum(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    extreme(a, Extreme::Max)
}

fn minimum(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    extreme(a, Extreme::Min)
}

fn reset_shape(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let s = sparse_arg(a, "sp_input")?;
    let shape = opt_ints(a, "new_shape")?;
    s.reset_shape(shape.as_deref())
        .map(sparse_value)
        .map_err(|e| a.err_at("new_shape", e))
}

fn expand_dims(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let s = sparse_arg(a, "sp_input")?;
    let axis = match a.get("axis") {
        None | Some(Value::None) => -1,
        Some(_) => a.int("axis")?,
    };
    s.expand_dims(axis)
        .map(sparse_value)
        .map_err(|e| a.err_at("axis", e))
}

fn split(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    for name in ["sp_input", "num_split", "axis"] {
        if matches!(a.get(name), None | Some(Value::None)) {
            return Err(Error::new(
                ExceptionClass::ValueError,
                format!("tf.sparse.split needs {name}"),
            )
            .at(a.call)
            .with_hint("tf.sparse.split(sp_input=st, num_split=2, axis=0)"));
        }
    }
    let s = sparse_arg(a, "sp_input")?;
    let n = a.int("num_split")?;
    if matches!(a.value("axis"), Value::List(_) | Value::Tuple(_)) {
        return Err(Error::new(
            ExceptionClass::InvalidArgumentError,
            "axis should be a scalar",
        )
        .at(a.span("axis")));
    }
    let axis = a.int("axis")?;
    let parts = s.split(n, axis).map_err(|e| a.err_at("num_split", e))?;
    Ok(Value::list(parts.into_iter().map(sparse_value).collect()))
}
