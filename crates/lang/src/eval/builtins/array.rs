//! Array operations on dense and ragged tensors: concat, stack, tile, reverse, gather,
//! embedding lookup, masks, `where`, expand_dims and squeeze.

use super::common::{axis_arg, opt_ints};
use std::sync::Arc;

use super::Builtin;
use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::convert;
use crate::eval::operators::as_items;
use crate::eval::subscript::iterate;
use crate::eval::Interp;
use crate::value::Value;
use ragtag_engine::ops::embedding::{self, Partition};
use ragtag_engine::ops::{concat, gather, mask, reshape, tile};
use ragtag_engine::{Array, DType, Exception, ExceptionClass};

/// Array builtins.
pub static BUILTINS: &[Builtin] = &[
    Builtin::function("tf.concat", "(values, axis)", tf_concat)
        .doc("Joins a list of tensors along `axis`. Every other dimension must match. If any input is ragged the result is ragged (dense inputs are converted): along axis 0 the rows follow each other; along axis 1 row `i` of the result is row `i` of every input joined end to end.")
        .examples(&[
            "tf.concat([tf.ragged.constant([[3, 1, 4, 1], [], [5, 9, 2]]), [[5, 3]]], axis=0)",
            "tf.concat([tf.ragged.constant([['John'], ['a', 'big', 'dog']]), tf.ragged.constant([['fell', 'asleep'], ['barked']])], axis=1)",
            "tf.concat([tf.constant([[1, 2]]), tf.constant([[3, 4]])], axis=-1)",
        ]),
    Builtin::function("tf.stack", "(values, axis=0)", tf_stack)
        .doc("Stacks tensors of one shape along a new dimension `axis`. With a ragged input it behaves as `tf.ragged.stack`.")
        .examples(&["tf.stack([tf.constant([1, 2]), tf.constant([3, 4])], axis=1)"]),
    Builtin::function("tf.ragged.stack", "(values, axis=0)", ragged_stack)
        .doc("Stacks tensors along a new dimension `axis`, letting their shapes differ: vectors of different lengths become the rows of a ragged tensor.")
        .examples(&[
            "tf.ragged.stack([tf.constant([1, 2, 3]), tf.constant([4])])",
            "tf.ragged.stack([tf.ragged.constant([[1, 2], [3]]), tf.ragged.constant([[4], [5, 6]])], axis=1)",
        ]),
    Builtin::function("tf.tile", "(input, multiples)", tf_tile)
        .doc("Repeats the tensor `multiples[d]` times along each dimension `d`. Along a ragged dimension each row repeats its own values, so a row of length n becomes a row of length n * multiples[d].")
        .examples(&["tf.tile(tf.ragged.constant([[3, 1, 4], [], [5]]), [1, 2])", "tf.tile(tf.constant([[1, 2]]), [2, 2])"]),
    Builtin::function("tf.reverse", "(tensor, axis)", tf_reverse)
        .doc("Reverses the dimensions listed in `axis`. Along a ragged dimension each row is reversed within itself.")
        .examples(&["tf.reverse(tf.ragged.constant([[1, 2], [3], [4, 5, 6]]), [1])", "tf.reverse(tf.constant([[1, 2], [3, 4]]), [0])"]),
    Builtin::function("tf.gather", "(params, indices, validate_indices=None, axis=None, batch_dims=0)", tf_gather)
        .doc("Slices of `params` along `axis` (default `batch_dims`) at `indices`; the result has shape params.shape[:axis] + indices.shape[batch_dims:] + params.shape[axis+1:]. Ragged params give whole rows; ragged indices keep their rows. Out-of-range indices are an error.")
        .examples(&[
            "tf.gather(tf.constant(['a', 'b', 'c', 'd']), tf.ragged.constant([[3, 1], [], [0]]))",
            "tf.gather(tf.ragged.constant([[1, 2, 3], [4], [5, 6]]), [2, 0])",
            "tf.gather(tf.constant([[1, 2, 3], [4, 5, 6]]), [2, 0], axis=1)",
        ]),
    Builtin::function("tf.gather_nd", "(params, indices, batch_dims=0, name=None)", tf_gather_nd)
        .doc("Gathers with index tuples: the last dimension of `indices` holds k indices into the first k dimensions of `params`, and each tuple picks what lies below them. The result has shape indices.shape[:-1] + params.shape[k:]; ragged params and indices keep their ragged dimensions. Out-of-range indices are an error.")
        .examples(&[
            "tf.gather_nd(tf.ragged.constant([[1, 2], [3], [4, 5, 6]]), [[2], [0]])",
            "tf.gather_nd(tf.ragged.constant([[1, 2], [3], [4, 5, 6]]), [[2, 1], [0, 0]])",
            "tf.gather_nd(tf.constant([[1, 2], [3, 4]]), [[1, 0], [0, 1]])",
        ]),
    Builtin::function("tf.nn.embedding_lookup", "(params, ids, max_norm=None)", embedding_lookup)
        .doc("The rows of the embedding table `params` at `ids` (a list of tables is read as shards split into contiguous id ranges). Ragged ids give a ragged result whose embedding dimensions are uniform inner dimensions. With `max_norm`, embeddings with a larger L2 norm are scaled down to it.")
        .examples(&["tf.nn.embedding_lookup(tf.reshape(tf.range(8.0), [4, 2]), tf.ragged.constant([[3, 1], [0]]))"]),
    Builtin::function("tf.boolean_mask", "(tensor, mask, axis=None)", boolean_mask)
        .doc("The slices of a dense tensor where `mask` is true. The mask covers dimensions axis..axis+rank(mask) and those dimensions are flattened into one. For ragged tensors use tf.ragged.boolean_mask.")
        .examples(&["tf.boolean_mask(tf.constant([[1, 2], [3, 4], [5, 6]]), [True, False, True])"]),
    Builtin::function("tf.ragged.boolean_mask", "(data, mask)", ragged_boolean_mask)
        .doc("Keeps the elements of `data` where `mask` is true without flattening the mask's dimensions: each innermost mask row keeps only its true positions, so the result has data's rank and ragged rows. A 1-D mask selects whole rows.")
        .examples(&[
            "tf.ragged.boolean_mask(tf.ragged.constant([[1, 2, 3], [4], [5, 6]]), tf.ragged.constant([[False, False, True], [False], [True, True]]))",
            "tf.ragged.boolean_mask([[1, 2, 3], [4, 5, 6]], [[True, False, True], [False, False, True]])",
        ]),
    Builtin::function("tf.where", "(condition, x=None, y=None)", tf_where)
        .doc("With only `condition`: the coordinates of its true elements as an int64 matrix (one row per element, one column per dimension; ragged conditions count positions within rows). With `x` and `y`: `x` where the condition holds and `y` elsewhere, after broadcasting the three together.")
        .examples(&[
            "tf.where(tf.ragged.constant([[True, False], [True]]))",
            "tf.where(tf.ragged.constant([[True, False], [False, True, True]]), tf.ragged.constant([['A', 'B'], ['C', 'D', 'E']]), tf.ragged.constant([['a', 'b'], ['c', 'd', 'e']]))",
        ]),
    Builtin::function("tf.compat.v1.where", "(condition, x=None, y=None, name=None)", where_v1)
        .doc("TensorFlow 1's where: with only `condition`, the coordinates of its true elements; with `x` and `y` (no broadcasting), either a per-element choice (the condition has x's shape, and ragged inputs share their row partitions) or, for a vector condition, a choice of whole rows of x or y.")
        .examples(&[
            "tf.compat.v1.where([True, False], tf.ragged.constant([['A', 'B'], ['C']]), tf.ragged.constant([['a'], ['c', 'd']]))",
        ]),
    Builtin::function("tf.expand_dims", "(input, axis)", expand_dims)
        .doc("Inserts a dimension of size 1 at `axis` (-1 appends one). On a ragged tensor, a new dimension outside the flat values is a uniform dimension.")
        .examples(&["tf.expand_dims(tf.ragged.constant([[1, 2], [3]]), axis=1)", "tf.expand_dims(tf.constant([1, 2]), -1)"]),
    Builtin::function("tf.squeeze", "(input, axis=None)", squeeze)
        .doc("Removes dimensions of size 1: all of them, or those listed in `axis` (each must have size 1). A ragged tensor needs `axis`, and a ragged dimension can be removed only when every row has length 1.")
        .examples(&["tf.squeeze(tf.constant([[1], [2], [3]]))", "tf.squeeze(tf.ragged.constant([[[1]], [[2], [3]]]), axis=[2])"]),
];

/// Attaches the span of `axis_arg` when the message is about the axis, else of `arg`.
fn err_at(a: &Args, e: Exception, arg: &str, axis_arg: &str) -> Error {
    let about_axis = e.message.starts_with("axis") || e.message.starts_with("batch_dims");
    a.err_at(if about_axis { axis_arg } else { arg }, e)
}

/// The tensors of a list argument (a list display, a tuple, or the rows of a tensor —
/// a list of equal-shape tensors is packed into one, so its rows are the items). Python
/// literals take the dtype of the first tensor, as TensorFlow converts them.
pub fn tensor_list(a: &Args, name: &str) -> Result<Vec<Array>> {
    let v = a.value(name);
    let items = match v {
        Value::List(_) | Value::Tuple(_) => as_items(v).map_err(|e| a.err_at(name, e))?,
        Value::Array(_) => iterate(v).map_err(|e| a.err_at(name, e))?,
        other => {
            return Err(Error::new(
                ExceptionClass::TypeError,
                format!(
                    "{name} must be a list of tensors, not a {}",
                    other.type_name()
                ),
            )
            .at(a.span(name)))
        }
    };
    let hint = items.iter().find_map(|v| match v {
        Value::Array(t) => Some(t.dtype()),
        _ => None,
    });
    items
        .iter()
        .enumerate()
        .map(|(i, v)| {
            convert::to_array(v, hint)
                .map(|t| (*t).clone())
                .map_err(|e| {
                    a.err_at(
                        name,
                        Exception {
                            message: format!("{name}[{i}]: {}", e.message),
                            ..e
                        },
                    )
                })
        })
        .collect()
}

/// The row splits dtype shared by the ragged inputs (int64 when there are none); mixing
/// int32 and int64 splits is a ValueError, as in TensorFlow.
fn splits_dtype_of(a: &Args, parts: &[&Array], arg: &str) -> Result<DType> {
    let mut found: Option<DType> = None;
    for p in parts {
        if let Array::Ragged(r) = p {
            let d = r.row_splits_dtype();
            match found {
                Some(f) if f != d => {
                    return Err(Error::new(
                        ExceptionClass::ValueError,
                        "Input RaggedTensors have mismatched row_splits dtypes",
                    )
                    .at(a.span(arg))
                    .with_hint("use RaggedTensor.with_row_splits_dtype() to convert them"))
                }
                _ => found = Some(d),
            }
        }
    }
    Ok(found.unwrap_or(DType::Int64))
}

/// The result of an op on ragged inputs keeps their row splits dtype.
fn with_splits_dtype(out: Array, dtype: DType) -> Value {
    match out {
        Array::Ragged(r) if dtype != DType::Int64 => Value::ragged(r.with_row_splits_dtype(dtype)),
        out => Value::from_array(out),
    }
}

fn tf_concat(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    // A lone ragged tensor (not in a list) is concatenated with nothing: it comes back.
    if let Value::Array(x) = a.value("values") {
        if matches!(&**x, Array::Ragged(_)) {
            a.int("axis")?;
            return Ok(Value::Array(x.clone()));
        }
    }
    let parts = tensor_list(a, "values")?;
    let axis = a.int("axis")?;
    if parts.is_empty() {
        return Err(Error::new(
            ExceptionClass::InvalidArgumentError,
            "tf.concat needs at least one tensor, got an empty list",
        )
        .at(a.span("values")));
    }
    let dtype = splits_dtype_of(a, &parts.iter().collect::<Vec<_>>(), "values")?;
    concat::concat(&parts, axis)
        .map(|out| with_splits_dtype(out, dtype))
        .map_err(|e| err_at(a, e, "values", "axis"))
}

fn tf_stack(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let parts = tensor_list(a, "values")?;
    let axis = a.opt_int("axis")?.unwrap_or(0);
    let dtype = splits_dtype_of(a, &parts.iter().collect::<Vec<_>>(), "values")?;
    concat::stack(&parts, axis)
        .map(|out| with_splits_dtype(out, dtype))
        .map_err(|e| err_at(a, e, "values", "axis"))
}

fn ragged_stack(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let parts = tensor_list(a, "values")?;
    let axis = a.opt_int("axis")?.unwrap_or(0);
    let dtype = splits_dtype_of(a, &parts.iter().collect::<Vec<_>>(), "values")?;
    concat::ragged_stack(&parts, axis)
        .map(|out| with_splits_dtype(out, dtype))
        .map_err(|e| err_at(a, e, "values", "axis"))
}

fn tf_tile(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let x = a.array("input", None)?;
    let m = a.ints("multiples")?;
    // TensorFlow's ragged tile reads one multiple per dimension by position: too few is
    // an IndexError there (dense inputs fail in the kernel, InvalidArgumentError).
    if matches!(&*x, Array::Ragged(_)) && m.len() < x.rank() {
        return Err(Error::new(
            ExceptionClass::IndexError,
            format!(
                "multiples has {} entries, but the input has rank {}: tf.tile needs one multiple per dimension",
                m.len(),
                x.rank()
            ),
        )
        .at(a.span("multiples")));
    }
    let dtype = splits_dtype_of(a, &[&*x], "input")?;
    tile::tile(&x, &m)
        .map(|out| with_splits_dtype(out, dtype))
        .map_err(|e| a.err_at("multiples", e))
}

fn tf_reverse(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let x = a.array("tensor", None)?;
    let axes = a.ints("axis")?;
    let dtype = splits_dtype_of(a, &[&*x], "tensor")?;
    reshape::reverse(&x, &axes)
        .map(|out| with_splits_dtype(out, dtype))
        .map_err(|e| a.err_at("axis", e))
}

/// Indices converted as TensorFlow converts them: a list of ints is int32, and an empty list is
/// float32, which the op then refuses (as TensorFlow does).
fn index_array(a: &Args, name: &str) -> Result<Arc<Array>> {
    a.array(name, None)
}

fn tf_gather(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let params = a.array("params", None)?;
    let indices = index_array(a, "indices")?;
    let axis = a.opt_int("axis")?;
    let bd = a.opt_int("batch_dims")?.unwrap_or(0);
    let dtype = splits_dtype_of(a, &[&*params, &*indices], "params")?;
    // TensorFlow makes the dimensions of dense indices (past the first) ragged when it
    // gathers rows of a ragged tensor, so their static sizes are unknown.
    let indices_dims = match (&*params, &*indices, axis.unwrap_or(bd), bd) {
        (Array::Ragged(_), Array::Dense(t), 0, 0) if t.rank() >= 2 => t.rank() - 1,
        _ => 0,
    };
    gather::gather(&params, &indices, axis, bd)
        .map(|out| match out {
            Array::Ragged(r) if indices_dims > 0 => Array::Ragged(r.without_uniform(indices_dims)),
            out => out,
        })
        .map(|out| with_splits_dtype(out, dtype))
        .map_err(|e| {
            let axis_arg = if e.message.starts_with("batch_dims") {
                "batch_dims"
            } else {
                "axis"
            };
            err_at(a, e, "indices", axis_arg)
        })
}

fn tf_gather_nd(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let params = a.array("params", None)?;
    let indices = index_array(a, "indices")?;
    let bd = a.opt_int("batch_dims")?.unwrap_or(0);
    let dtype = splits_dtype_of(a, &[&*params, &*indices], "params")?;
    gather::gather_nd(&params, &indices, bd)
        .map(|out| with_splits_dtype(out, dtype))
        .map_err(|e| {
            let arg = if e.message.starts_with("batch_dims") {
                "batch_dims"
            } else {
                "indices"
            };
            a.err_at(arg, e)
        })
}

fn embedding_lookup(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let shards: Vec<ragtag_engine::Tensor> = match a.value("params") {
        v @ (Value::List(_) | Value::Tuple(_)) if !v.is_literal_display() => {
            tensor_list(a, "params")?
                .into_iter()
                .map(|t| match t {
                    Array::Dense(t) => Ok(t),
                    Array::Ragged(_) => Err(Error::new(
                        ExceptionClass::TypeError,
                        "embedding tables must be dense",
                    )
                    .at(a.span("params"))),
                })
                .collect::<Result<_>>()?
        }
        _ => match &*a.array("params", None)? {
            Array::Dense(t) => vec![t.clone()],
            Array::Ragged(_) => {
                return Err(Error::new(
                    ExceptionClass::TypeError,
                    "the embedding table must be a dense tensor, not a RaggedTensor",
                )
                .at(a.span("params")))
            }
        },
    };
    let ids = index_array(a, "ids")?;
    let max_norm = match a.get("max_norm") {
        None => None,
        Some(v) => Some(convert::to_f64(v).map_err(|e| a.err_at("max_norm", e))?),
    };
    embedding::embedding_lookup(&shards, &ids, Partition::Div, max_norm)
        .map(Value::from_array)
        .map_err(|e| a.err_at("ids", e))
}

fn boolean_mask(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let x = a.array("tensor", None)?;
    let m = a.array("mask", Some(DType::Bool))?;
    let (Array::Dense(t), Array::Dense(mt)) = (&*x, &*m) else {
        return Err(Error::new(
            ExceptionClass::ValueError,
            "tf.boolean_mask works on dense tensors; it cannot convert a RaggedTensor",
        )
        .at(a.call)
        .with_hint("use tf.ragged.boolean_mask(data, mask), which keeps the mask's dimensions"));
    };
    let axis = match a.opt_int("axis")? {
        None => 0,
        Some(ax) => axis_arg(a, "axis", ax, t.rank(), ExceptionClass::ValueError)?,
    };
    mask::boolean_mask_dense(t, mt, axis)
        .map(Value::tensor)
        .map_err(|e| a.err_at("mask", e))
}

fn ragged_boolean_mask(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let x = a.array("data", None)?;
    let m = a.array("mask", Some(DType::Bool))?;
    if m.dtype() != DType::Bool {
        // TensorFlow converts a ragged mask to bool (ValueError when it is not) and
        // type-checks a dense one (TypeError).
        let class = if matches!(&*m, Array::Ragged(_)) {
            ExceptionClass::ValueError
        } else {
            ExceptionClass::TypeError
        };
        return Err(
            Error::new(class, format!("mask must be bool, not {}", m.dtype())).at(a.span("mask")),
        );
    }
    mask::ragged_boolean_mask(&x, &m)
        .map(Value::from_array)
        .map_err(|e| a.err_at("mask", e))
}

fn tf_where(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    where_with(a, mask::where_select)
}

fn where_v1(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    where_with(a, mask::where_v1)
}

/// `where(condition)` gives the coordinates of the true elements; `where(condition, x, y)`
/// chooses between `x` and `y` with `select` (TensorFlow 2's broadcasting form or 1's).
fn where_with(
    a: &Args,
    select: fn(&Array, &Array, &Array) -> std::result::Result<Array, Exception>,
) -> Result<Value> {
    let c = a.array("condition", Some(DType::Bool))?;
    match (a.get("x"), a.get("y")) {
        (None, None) => mask::where_coords(&c)
            .map(Value::tensor)
            .map_err(|e| a.err_at("condition", e)),
        (Some(xv), Some(yv)) => {
            let hint = match (xv, yv) {
                (Value::Array(t), _) | (_, Value::Array(t)) => Some(t.dtype()),
                _ => None,
            };
            let x = a.array("x", hint)?;
            let y = a.array("y", Some(x.dtype()))?;
            select(&c, &x, &y)
                .map(Value::from_array)
                .map_err(|e| Error::from(e).at(a.call))
        }
        _ => Err(Error::new(
            ExceptionClass::ValueError,
            "x and y must both be given or both be None",
        )
        .at(a.call)),
    }
}

fn expand_dims(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let x = a.array("input", None)?;
    let axis = a.int("axis")?;
    reshape::expand_dims(&x, axis)
        .map(Value::from_array)
        .map_err(|e| a.err_at("axis", e))
}

fn squeeze(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let x = a.array("input", None)?;
    let axes = opt_ints(a, "axis")?;
    reshape::squeeze(&x, axes.as_deref())
        .map(Value::from_array)
        .map_err(|e| a.err_at("axis", e))
}
