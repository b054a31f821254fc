//! Ops on sparse tensors: concat, reorder, retain, fill_empty_rows, add, reductions, slice,
//! reshape, transpose and map_values — TensorFlow 2 names plus the TF1 spellings.

use super::common::{list_str, opt_ints, reduction_axes};
use std::sync::Arc;

use super::sparse::{bool_tensor, default_arg, dense_arg, not_sparse, sparse_arg, sparse_value};
use super::Builtin;
use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::convert;
use crate::eval::subscript::iterate;
use crate::eval::Interp;
use crate::value::Value;
use ragtag_engine::sparse::{SparseOut, SparseReduce};
use ragtag_engine::{Array, DType, ExceptionClass, Sparse};

/// Sparse ops.
pub static BUILTINS: &[Builtin] = &[
    Builtin::function("tf.sparse.concat", "(axis, sp_inputs, expand_nonconcat_dims=False)", concat)
        .doc("Sparse tensors side by side along `axis`, as if their dense forms were concatenated: indices shift by the sizes before them, the dense shapes add up along `axis`, and the result is sorted row-major. The other dimensions must agree unless expand_nonconcat_dims=True. Unlike ragged concat along axis 1, rows do not close up: a short row keeps its implicit zeros.")
        .examples(&[concat!("a = tf.SparseTensor(indices=[[0, 1], [0, 3], [2, 0]], values=[1, 2, 3], dense_shape=[3, 5]); ", "tf.sparse.concat(1, [a, a])")]),
    Builtin::function("tf.sparse_concat", "(axis=None, sp_inputs=None, name=None, expand_nonconcat_dim=False, concat_dim=None, expand_nonconcat_dims=None)", concat_v1)
        .doc("TensorFlow 1's tf.sparse.concat: the axis is the first argument, also called `concat_dim`, and `expand_nonconcat_dims` is also spelled `expand_nonconcat_dim`.")
        .aliases(&["tf.compat.v1.sparse_concat"])
        .examples(&[concat!("a = tf.SparseTensor(indices=[[0, 1], [0, 3], [2, 0]], values=[1, 2, 3], dense_shape=[3, 5]); ", "tf.sparse_concat(0, [a, a])")]),
    Builtin::function("tf.sparse.reorder", "(sp_input)", reorder)
        .doc("The same entries sorted into row-major order (the canonical order most sparse ops need); the dense shape is unchanged.")
        .aliases(&["tf.sparse_reorder", "tf.compat.v1.sparse_reorder"])
        .examples(&["tf.sparse.reorder(tf.SparseTensor(indices=[[2, 1], [0, 3], [2, 0]], values=[1, 2, 3], dense_shape=[3, 5]))"]),
    Builtin::function("tf.sparse.retain", "(sp_input, to_retain)", retain)
        .doc("Only the entries whose flag in `to_retain` (one bool per stored value) is True, in their order; the dense shape is unchanged.")
        .aliases(&["tf.sparse_retain", "tf.compat.v1.sparse_retain"])
        .examples(&[concat!("a = tf.SparseTensor(indices=[[0, 1], [0, 3], [2, 0]], values=[1, 2, 3], dense_shape=[3, 5]); ", "tf.sparse.retain(a, [True, False, True])")]),
    Builtin::function("tf.sparse.fill_empty_rows", "(sp_input, default_value)", fill_empty_rows)
        .doc("Puts `default_value` at [row, 0] of every row that stores nothing. Returns a tuple: the filled tensor (grouped by row) and a bool vector marking which rows were empty.")
        .aliases(&["tf.sparse_fill_empty_rows", "tf.compat.v1.sparse_fill_empty_rows"])
        .examples(&[concat!("a = tf.SparseTensor(indices=[[0, 1], [0, 3], [2, 0]], values=[1, 2, 3], dense_shape=[3, 5]); ", "tf.sparse.fill_empty_rows(a, 10)")]),
    Builtin::function("tf.sparse.add", "(a, b, threshold=0)", add)
        .doc("The sum of two sparse tensors of one shape (a sparse tensor: values at the same index add up, and sums smaller in magnitude than `threshold` are dropped), or of a sparse and a dense tensor (a dense tensor).")
        .aliases(&["tf.sparse_add"])
        .examples(&[concat!("a = tf.SparseTensor(indices=[[0, 1], [0, 3], [2, 0]], values=[1, 2, 3], dense_shape=[3, 5]); ", "tf.sparse.add(a, a)")]),
    Builtin::function("tf.compat.v1.sparse_add", "(a, b, threshold=None, thresh=None)", add_v1)
        .doc("TensorFlow 1's tf.sparse.add, whose threshold is also spelled `thresh`.")
        .examples(&[concat!("a = tf.SparseTensor(indices=[[0, 1], [1, 0]], values=[1.0, 2.0], dense_shape=[2, 2]); ", "tf.compat.v1.sparse_add(a, a, thresh=3.0)")]),
    Builtin::function("tf.sparse.reduce_sum", "(sp_input, axis=None, keepdims=None, output_is_sparse=False)", reduce_sum)
        .doc("The sum of the stored values over `axis` (all axes when None), as a dense tensor (a sparse one with output_is_sparse=True). Divide by dense_shape, not by the number of values, to get the mean of the dense form.")
        .aliases(&["tf.sparse_reduce_sum", "tf.compat.v1.sparse_reduce_sum"])
        .examples(&[concat!("a = tf.SparseTensor(indices=[[0, 1], [0, 3], [2, 0]], values=[1, 2, 3], dense_shape=[3, 5]); ", "tf.sparse.reduce_sum(a, axis=1)")]),
    Builtin::function("tf.sparse.reduce_max", "(sp_input, axis=None, keepdims=None, output_is_sparse=False)", reduce_max)
        .doc("The largest stored value over `axis` (all axes when None). Implicit zeros take no part, so a row of negative values keeps its negative maximum; a row that stores nothing gives 0.")
        .aliases(&["tf.sparse_reduce_max", "tf.compat.v1.sparse_reduce_max"])
        .examples(&[concat!("a = tf.SparseTensor(indices=[[0, 1], [0, 3], [2, 0]], values=[1, 2, 3], dense_shape=[3, 5]); ", "tf.sparse.reduce_max(a, axis=1)")]),
    Builtin::function("tf.sparse.slice", "(sp_input, start, size)", slice)
        .doc("The block `start <= index < start + size` (one entry per dimension), indices shifted to start at zero; the block is clipped to the dense shape.")
        .aliases(&["tf.sparse_slice", "tf.compat.v1.sparse_slice"])
        .examples(&[concat!("a = tf.SparseTensor(indices=[[0, 1], [0, 3], [2, 0]], values=[1, 2, 3], dense_shape=[3, 5]); ", "tf.sparse.slice(a, [0, 1], [3, 3])")]),
    Builtin::function("tf.sparse.reshape", "(sp_input, shape)", reshape)
        .doc("The same elements, in row-major order, under a new dense shape; one dimension may be -1 (inferred).")
        .aliases(&["tf.sparse_reshape", "tf.compat.v1.sparse_reshape"])
        .examples(&[concat!("a = tf.SparseTensor(indices=[[0, 1], [0, 3], [2, 0]], values=[1, 2, 3], dense_shape=[3, 5]); ", "tf.sparse.reshape(a, [5, -1])")]),
    Builtin::function("tf.sparse.transpose", "(sp_input, perm=None)", transpose)
        .doc("Dimension j of the result is dimension perm[j] of the input (reversed when perm is None); the result is sorted row-major.")
        .aliases(&["tf.sparse_transpose", "tf.compat.v1.sparse_transpose"])
        .examples(&[concat!("a = tf.SparseTensor(indices=[[0, 1], [0, 3], [2, 0]], values=[1, 2, 3], dense_shape=[3, 5]); ", "tf.sparse.transpose(a)")]),
    Builtin::function("tf.sparse.map_values", "(op, *inputs)", map_values)
        .doc("Applies `op` to the values of the sparse inputs (other inputs are passed as they are) and keeps their indices: implicit zeros stay implicit. Every sparse input must have the same indices and dense shape.")
        .examples(&[concat!("a = tf.SparseTensor(indices=[[0, 1], [0, 3], [2, 0]], values=[1, 2, 3], dense_shape=[3, 5]); ", "tf.sparse.map_values(tf.math.square, a)")]),
];

fn sparse_list(a: &Args, name: &str) -> Result<Vec<Arc<Sparse>>> {
    let items = iterate(a.value(name)).map_err(|e| {
        Error::from(e)
            .at(a.span(name))
            .with_hint("pass a list of SparseTensors, e.g. [st1, st2]")
    })?;
    items
        .iter()
        .enumerate()
        .map(|(i, v)| match v {
            Value::Sparse(s) => Ok(s.clone()),
            other => {
                let mut e = not_sparse(other).at(a.span(name));
                e.message = format!("{name}[{i}]: {}", e.message);
                Err(e)
            }
        })
        .collect()
}

fn do_concat(a: &Args, axis_arg: &str, expand: bool) -> Result<Value> {
    let axis = a.int(axis_arg)?;
    let inputs = sparse_list(a, "sp_inputs")?;
    let refs: Vec<&Sparse> = inputs.iter().map(|s| &**s).collect();
    Sparse::concat(axis, &refs, expand)
        .map(sparse_value)
        .map_err(|e| a.err_at("sp_inputs", e))
}

fn concat(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let expand = a.flag("expand_nonconcat_dims", false)?;
    do_concat(a, "axis", expand)
}

fn concat_v1(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let given = |n: &str| !matches!(a.get(n), None | Some(Value::None));
    let axis_arg = match (given("axis"), given("concat_dim")) {
        (true, true) => {
            return Err(Error::new(
                ExceptionClass::ValueError,
                "give axis or concat_dim (its old name), not both",
            )
            .at(a.span("concat_dim")))
        }
        (true, false) => "axis",
        (false, true) => "concat_dim",
        (false, false) => {
            return Err(Error::new(
                ExceptionClass::TypeError,
                "tf.sparse_concat needs an axis (concat_dim)",
            )
            .at(a.call))
        }
    };
    if a.get("sp_inputs").is_none() {
        return Err(Error::new(
            ExceptionClass::TypeError,
            "tf.sparse_concat needs sp_inputs, a list of SparseTensors",
        )
        .at(a.call));
    }
    let expand =
        a.flag("expand_nonconcat_dim", false)? || a.flag("expand_nonconcat_dims", false)?;
    do_concat(a, axis_arg, expand)
}

fn reorder(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    Ok(sparse_value(sparse_arg(a, "sp_input")?.reorder()))
}

fn retain(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let s = sparse_arg(a, "sp_input")?;
    let flags = dense_arg(a, "to_retain", Some(DType::Bool))?;
    let keep: Vec<bool> = match (flags.rank(), flags.data().to_i64_vec()) {
        (1, Some(v)) if flags.dtype() == DType::Bool || flags.dtype().is_int() => {
            v.into_iter().map(|x| x != 0).collect()
        }
        _ => {
            return Err(Error::new(
                ExceptionClass::ValueError,
                format!(
                    "to_retain must be a vector of bools, not a {} tensor of shape {}",
                    flags.dtype(),
                    list_str(flags.shape())
                ),
            )
            .at(a.span("to_retain")))
        }
    };
    s.retain(&keep)
        .map(sparse_value)
        .map_err(|e| a.err_at("to_retain", e))
}

fn fill_empty_rows(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let s = sparse_arg(a, "sp_input")?;
    let default = default_arg(a, "default_value", s.dtype())?;
    let (filled, empty) = s.fill_empty_rows(&default)?;
    Ok(Value::tuple(vec![sparse_value(filled), bool_tensor(empty)]))
}

fn add(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    add_with(a, "threshold")
}

fn add_v1(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let given = |n: &str| !matches!(a.get(n), None | Some(Value::None));
    if given("threshold") && given("thresh") {
        return Err(Error::new(
            ExceptionClass::ValueError,
            "give threshold or thresh (its old name), not both",
        )
        .at(a.span("thresh")));
    }
    add_with(
        a,
        if given("thresh") {
            "thresh"
        } else {
            "threshold"
        },
    )
}

fn add_with(a: &Args, threshold_arg: &str) -> Result<Value> {
    let threshold = match a.get(threshold_arg) {
        None | Some(Value::None) => 0.0,
        Some(v) => convert::to_f64(v).map_err(|e| a.err_at(threshold_arg, e))?,
    };
    match (a.value("a"), a.value("b")) {
        (Value::Sparse(x), Value::Sparse(y)) => Ok(sparse_value(x.add(y, threshold)?)),
        (Value::Sparse(s), _) => Ok(Value::tensor(s.add_dense(&dense_arg(
            a,
            "b",
            Some(s.dtype()),
        )?)?)),
        (_, Value::Sparse(s)) => Ok(Value::tensor(s.add_dense(&dense_arg(
            a,
            "a",
            Some(s.dtype()),
        )?)?)),
        _ => Err(Error::new(
            ExceptionClass::TypeError,
            "tf.sparse.add needs at least one SparseTensor",
        )
        .at(a.call)
        .with_hint("add two dense tensors with tf.add(a, b) or a + b")),
    }
}

fn reduce(a: &Args, op: SparseReduce) -> Result<Value> {
    let s = sparse_arg(a, "sp_input")?;
    let (axes, keepdims) = reduction_axes(a)?;
    let sparse_out = a.flag("output_is_sparse", false)?;
    Ok(
        match s
            .reduce(axes.as_deref(), op, keepdims, sparse_out)
            .map_err(|e| a.err_at("axis", e))?
        {
            SparseOut::Dense(t) => Value::tensor(t),
            SparseOut::Sparse(s) => sparse_value(s),
        },
    )
}

fn reduce_sum(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    reduce(a, SparseReduce::Sum)
}

fn reduce_max(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    reduce(a, SparseReduce::Max)
}

fn slice(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let s = sparse_arg(a, "sp_input")?;
    let (start, size) = (a.ints("start")?, a.ints("size")?);
    Ok(sparse_value(s.slice(&start, &size)?))
}

fn reshape(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let s = sparse_arg(a, "sp_input")?;
    let shape = a.ints("shape")?;
    s.reshape(&shape)
        .map(sparse_value)
        .map_err(|e| a.err_at("shape", e))
}

fn transpose(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let s = sparse_arg(a, "sp_input")?;
    let perm = opt_ints(a, "perm")?;
    s.transpose(perm.as_deref())
        .map(sparse_value)
        .map_err(|e| a.err_at("perm", e))
}

fn map_values(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let mut first: Option<Arc<Sparse>> = None;
    let mut args = Vec::new();
    for (v, span) in a.rest() {
        match v {
            Value::Sparse(s) => {
                match &first {
                    Some(f) if f.indices() != s.indices() || f.dense_shape() != s.dense_shape() => {
                        return Err(Error::new(
                            ExceptionClass::InvalidArgumentError,
                            "every SparseTensor passed to map_values must have the same indices and dense_shape",
                        )
                        .at(*span)
                        .with_hint("align them first, e.g. with tf.sparse.add or tf.sparse.retain"))
                    }
                    Some(_) => {}
                    None => first = Some(s.clone()),
                }
                args.push(Value::tensor(s.values().clone()));
            }
            other => args.push(other.clone()),
        }
    }
    let Some(first) = first else {
        return Err(Error::new(
            ExceptionClass::ValueError,
            "map_values needs at least one SparseTensor among its inputs",
        )
        .at(a.call));
    };
    let out = it.call_values(a.value("op"), args, a.call)?;
    let values = match convert::to_array(&out, Some(first.dtype())).map(|x| (*x).clone()) {
        Ok(Array::Dense(t)) => t,
        _ => {
            return Err(Error::new(
                ExceptionClass::ValueError,
                format!(
                    "op must return a vector of {} values (one per stored value), got a {}",
                    first.nnz(),
                    out.type_name()
                ),
            )
            .at(a.span("op")))
        }
    };
    first
        .with_values(values)
        .map(sparse_value)
        .map_err(|e| Error::from(e).at(a.span("op")))
}
