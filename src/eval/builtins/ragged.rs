//! Ragged tensors: `tf.ragged.constant`, the `tf.RaggedTensor.from_*` factories, and the
//! accessors of every row-partition encoding.

use std::sync::Arc;

use super::Builtin;
use crate::diagnostic::{Error, Result};
use crate::engine::literal;
use crate::engine::partition::{index_scalar, index_tensor};
use crate::engine::{budget, Array, DType, ErrorClass, Ragged, RowPartition, Scalar, Tensor};
use crate::eval::args::Args;
use crate::eval::convert;
use crate::eval::Interp;
use crate::value::Value;

/// Ragged factories, properties and methods.
pub static BUILTINS: &[Builtin] = &[
    Builtin::function("tf.ragged.constant", "(pylist, dtype=None, ragged_rank=None, inner_shape=None, name=None, row_splits_dtype=tf.int64)", constant)
        .doc("A ragged tensor from a nested list whose rows may differ in length. Every scalar must have the same type and the same nesting depth; ragged_rank defaults to the depth minus one (minus len(inner_shape)); row_splits_dtype (int64 or int32) is the dtype of the row partitions.")
        .examples(&[
            "tf.ragged.constant([[3, 1, 4, 1], [], [5, 9, 2], [6], []])",
            "tf.ragged.constant([[[1, 2], [3]], [[4, 5]]])",
            "tf.ragged.constant([[[1, 2], [3, 4]], [[5, 6]]], ragged_rank=1)",
            "tf.ragged.constant([[1, 2], [3]], row_splits_dtype=tf.int32).row_splits",
        ]),
    Builtin::function("tf.RaggedTensor.from_row_splits", "(values, row_splits, validate=True)", from_row_splits)
        .doc("Rows `values[row_splits[i]:row_splits[i+1]]`: row_splits starts at 0, never decreases, and ends at len(values). This is ragtag's (and TensorFlow's) canonical encoding.")
        .examples(&["tf.RaggedTensor.from_row_splits(values=[3, 1, 4, 1, 5, 9, 2], row_splits=[0, 4, 4, 6, 7])"]),
    Builtin::function("tf.RaggedTensor.from_row_lengths", "(values, row_lengths, validate=True)", from_row_lengths)
        .doc("Consecutive rows of the given lengths, which must add up to len(values).")
        .examples(&["tf.RaggedTensor.from_row_lengths(values=[3, 1, 4, 1, 5, 9, 2], row_lengths=[4, 0, 2, 1])"]),
    Builtin::function("tf.RaggedTensor.from_value_rowids", "(values, value_rowids, nrows=None, validate=True)", from_value_rowids)
        .doc("Each value goes to the row named by value_rowids (sorted ascending); nrows adds trailing empty rows.")
        .examples(&["tf.RaggedTensor.from_value_rowids(values=[3, 1, 4, 1, 5, 9, 2], value_rowids=[0, 0, 0, 0, 2, 2, 3])"]),
    Builtin::function("tf.RaggedTensor.from_row_starts", "(values, row_starts, validate=True)", from_row_starts)
        .doc("Row i starts at row_starts[i] and ends where the next row starts (the last at len(values)).")
        .examples(&["tf.RaggedTensor.from_row_starts(values=[3, 1, 4, 1, 5, 9, 2, 6], row_starts=[0, 4, 4, 7, 8])"]),
    Builtin::function("tf.RaggedTensor.from_row_limits", "(values, row_limits, validate=True)", from_row_limits)
        .doc("Row i ends at row_limits[i] and starts where the previous row ended (the first at 0).")
        .examples(&["tf.RaggedTensor.from_row_limits(values=[3, 1, 4, 1, 5, 9, 2, 6], row_limits=[4, 4, 7, 8, 8])"]),
    Builtin::function("tf.RaggedTensor.from_uniform_row_length", "(values, uniform_row_length, nrows=None, validate=True)", from_uniform_row_length)
        .doc("Rows of one fixed length: a uniform dimension that still counts in ragged_rank.")
        .examples(&["tf.RaggedTensor.from_uniform_row_length(values=[1, 2, 3, 4, 5, 6], uniform_row_length=2)"]),
    Builtin::function("tf.RaggedTensor.from_nested_row_splits", "(flat_values, nested_row_splits, validate=True)", from_nested_row_splits)
        .doc("Several ragged dimensions at once: one row_splits per dimension, outermost first.")
        .examples(&["tf.RaggedTensor.from_nested_row_splits(flat_values=[10, 11, 12, 13], nested_row_splits=([0, 1, 3], [0, 2, 2, 4]))"]),
    Builtin::function("tf.RaggedTensor.from_nested_row_lengths", "(flat_values, nested_row_lengths, validate=True)", from_nested_row_lengths)
        .doc("Several ragged dimensions at once: one row_lengths per dimension, outermost first.")
        .examples(&["tf.RaggedTensor.from_nested_row_lengths(flat_values=[10, 11, 12, 13], nested_row_lengths=([1, 2], [2, 0, 2]))"]),
    Builtin::function("tf.RaggedTensor.from_nested_value_rowids", "(flat_values, nested_value_rowids, nested_nrows=None, validate=True)", from_nested_value_rowids)
        .doc("Several ragged dimensions at once: one value_rowids per dimension, outermost first.")
        .examples(&["tf.RaggedTensor.from_nested_value_rowids(flat_values=[10, 11, 12, 13], nested_value_rowids=([0, 1, 1], [0, 0, 2, 2]))"]),
    Builtin::function("tf.RaggedTensor.from_tensor", "(tensor, lengths=None, padding=None, ragged_rank=1, name=None, row_splits_dtype=tf.int64)", from_tensor)
        .doc("A ragged tensor from a dense one: each row keeps its first `lengths[i]` values, or drops trailing `padding` values (not both).")
        .examples(&["tf.RaggedTensor.from_tensor([[1, 3, -1, -1], [2, -1, -1, -1], [4, 5, 8, 9]], padding=-1)"]),
    Builtin::function("tf.ragged.cross", "(inputs, name=None)", ragged_cross)
        .doc("Feature crosses row by row: each row of the result holds every combination of one value from the same row of each input, joined with '_X_' (the first input varies slowest). Inputs are 2-D ragged, dense or sparse tensors of strings or integers with the same number of rows.")
        .examples(&["tf.ragged.cross([tf.ragged.constant([['a'], ['b', 'c']]), tf.ragged.constant([['d'], ['e']])])"]),
    Builtin::function("tf.ragged.cross_hashed", "(inputs, num_buckets=0, hash_key=None, name=None)", ragged_cross_hashed)
        .doc("Like tf.ragged.cross, but each combination becomes an int64: the FarmHash fingerprints of its features (integers are their own hash) folded into `hash_key`, modulo `num_buckets` (the largest int64 when 0), as TensorFlow computes them.")
        .examples(&["tf.ragged.cross_hashed([tf.ragged.constant([['a'], ['b', 'c']]), tf.ragged.constant([['d'], ['e']])], num_buckets=100)"]),
    Builtin::property("tf.RaggedTensor.values", values)
        .doc("The values one level down, concatenated: a ragged tensor for ragged_rank > 1, else a dense tensor.")
        .examples(&["tf.ragged.constant([[3, 1, 4], [], [5, 9]]).values"]),
    Builtin::property("tf.RaggedTensor.flat_values", flat_values)
        .doc("The innermost values of every ragged dimension, as one dense tensor.")
        .examples(&["tf.ragged.constant([[[1, 2], [3]], [], [[4]]]).flat_values"]),
    Builtin::property("tf.RaggedTensor.row_splits", row_splits)
        .doc("Where each row starts and ends in `values` (nrows + 1 offsets, int64 unless the tensor was built with int32 splits).")
        .examples(&["tf.ragged.constant([[3, 1, 4], [], [5, 9]]).row_splits"]),
    Builtin::property("tf.RaggedTensor.nested_row_splits", nested_row_splits)
        .doc("The row_splits of every ragged dimension, outermost first (a tuple).")
        .examples(&["tf.ragged.constant([[[1, 2], [3]], [], [[4]]]).nested_row_splits"]),
    Builtin::property("tf.RaggedTensor.ragged_rank", ragged_rank)
        .doc("How many dimensions are partitioned (the number of row partitions).")
        .examples(&["tf.ragged.constant([[[1, 2], [3]], [], [[4]]]).ragged_rank"]),
    Builtin::property("tf.RaggedTensor.shape", shape)
        .doc("The static shape: ragged dimensions are None.")
        .examples(&["tf.ragged.constant([[3, 1, 4], [], [5, 9]]).shape"]),
    Builtin::property("tf.RaggedTensor.dtype", dtype)
        .doc("The element type.")
        .examples(&["tf.ragged.constant([[3, 1, 4], [], [5, 9]]).dtype"]),
    Builtin::property("tf.RaggedTensor.ndim", ndim)
        .doc("The rank.")
        .examples(&["tf.ragged.constant([[[1, 2], [3]], [], [[4]]]).ndim"]),
    Builtin::property("tf.RaggedTensor.uniform_row_length", uniform_row_length)
        .doc("The row length of a uniform outer partition, or None when rows differ.")
        .examples(&["tf.RaggedTensor.from_uniform_row_length([1, 2, 3, 4], 2).uniform_row_length"]),
    Builtin::method("tf.RaggedTensor.row_lengths", "(self, axis=1)", row_lengths)
        .doc("The length of each row (of dimension `axis`); axis=0 gives the number of rows.")
        .examples(&["tf.ragged.constant([[3, 1, 4, 1], [], [5, 9, 2], [6], []]).row_lengths()"]),
    Builtin::method("tf.RaggedTensor.nested_row_lengths", "(self)", nested_row_lengths)
        .doc("The row lengths of every ragged dimension, outermost first (a tuple).")
        .examples(&["tf.ragged.constant([[[1, 2], [3]], [], [[4]]]).nested_row_lengths()"]),
    Builtin::method("tf.RaggedTensor.row_starts", "(self)", row_starts)
        .doc("Where each row starts in `values`.")
        .examples(&["tf.ragged.constant([[3, 1], [], [5]]).row_starts()"]),
    Builtin::method("tf.RaggedTensor.row_limits", "(self)", row_limits)
        .doc("Where each row ends in `values`.")
        .examples(&["tf.ragged.constant([[3, 1], [], [5]]).row_limits()"]),
    Builtin::method("tf.RaggedTensor.value_rowids", "(self)", value_rowids)
        .doc("The row of each value.")
        .examples(&["tf.ragged.constant([[3, 1], [], [5]]).value_rowids()"]),
    Builtin::method("tf.RaggedTensor.nested_value_rowids", "(self)", nested_value_rowids)
        .doc("The value_rowids of every ragged dimension, outermost first (a tuple).")
        .examples(&["tf.ragged.constant([[[1, 2], [3]], [], [[4]]]).nested_value_rowids()"]),
    Builtin::method("tf.RaggedTensor.nrows", "(self, out_type=None)", nrows)
        .doc("The number of rows, as a scalar tensor of `out_type` (the row splits dtype by default).")
        .examples(&["tf.ragged.constant([[3, 1], [], [5]]).nrows()"]),
    Builtin::method("tf.RaggedTensor.bounding_shape", "(self, axis=None, out_type=None)", bounding_shape)
        .doc("The smallest dense shape that holds every row, as `out_type` (the row splits dtype by default); `axis` (an int or a list) picks some of its sizes.")
        .examples(&["tf.ragged.constant([['Hi'], ['How', 'are', 'you']]).bounding_shape()"]),
    Builtin::method("tf.RaggedTensor.to_list", "(self)", to_list)
        .doc("The values as nested Python lists.")
        .examples(&["tf.ragged.constant([[1, 2], [3]]).to_list()"]),
    Builtin::method("tf.RaggedTensor.to_tensor", "(self, default_value=None, shape=None)", to_tensor)
        .doc("Pads every row with `default_value` (zero, '' or False by default) into a dense tensor; `shape` may truncate or widen.")
        .examples(&["tf.ragged.constant([['Hi'], ['Welcome', 'to', 'the', 'fair']]).to_tensor(default_value='')"]),
    Builtin::method("tf.RaggedTensor.with_row_splits_dtype", "(self, dtype)", with_row_splits_dtype)
        .doc("The same tensor with its row partitions as int32 or int64.")
        .examples(&["tf.ragged.constant([[1, 2], [3]]).with_row_splits_dtype(tf.int32).row_splits"]),
    Builtin::method("tf.RaggedTensor.with_values", "(self, new_values)", with_values)
        .doc("The same outer partition over new values (same number of rows).")
        .examples(&["rt = tf.ragged.constant([[3, 1], [5]]); rt.with_values(rt.values * 10)"]),
    Builtin::method("tf.RaggedTensor.with_flat_values", "(self, new_values)", with_flat_values)
        .doc("The same partitions over new flat values (same number of values).")
        .examples(&["rt = tf.ragged.constant([[[1, 2], [3]], [], [[4]]]); rt.with_flat_values(tf.cast(rt.flat_values, tf.float32))"]),
    Builtin::method("tf.RaggedTensor.merge_dims", "(self, outer_axis, inner_axis)", merge_dims)
        .doc("Merges dimensions outer_axis..=inner_axis into one (e.g. (0, 1) flattens the rows).")
        .examples(&["tf.ragged.constant([[[1, 2], [3]], [[4]]]).merge_dims(0, 1)"]),
];

fn constant(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let n = convert::to_nested(a.value("pylist")).map_err(|e| a.err_at("pylist", e))?;
    let dtype = a.dtype("dtype")?;
    let rr = a.opt_int("ragged_rank")?;
    let splits_dtype = splits_dtype_arg(a, "row_splits_dtype")?;
    let inner: Option<Vec<usize>> = match a.get("inner_shape") {
        None => None,
        Some(_) => Some(
            a.ints("inner_shape")?
                .into_iter()
                .map(|d| {
                    usize::try_from(d).map_err(|_| {
                        Error::new(
                            ErrorClass::ValueError,
                            format!("inner_shape sizes must be non-negative, not {d}"),
                        )
                        .at(a.span("inner_shape"))
                    })
                })
                .collect::<Result<_>>()?,
        ),
    };
    literal::ragged_constant_with(&n, dtype, rr, inner.as_deref(), splits_dtype)
        .map(Value::from_array)
        .map_err(|e| a.err_at("pylist", e))
}

/// `row_splits_dtype=` (int64 by default; only int32 and int64 are allowed).
fn splits_dtype_arg(a: &Args, name: &str) -> Result<DType> {
    match a.dtype(name)? {
        None => Ok(DType::Int64),
        Some(d @ (DType::Int32 | DType::Int64)) => Ok(d),
        Some(d) => Err(Error::new(
            ErrorClass::ValueError,
            format!("{name} must be tf.int32 or tf.int64, not tf.{d}"),
        )
        .at(a.span(name))),
    }
}

/// The dtype a row-partitioning argument gives the result: int32 when it is an int32
/// tensor, else int64 (Python lists become int64, as TensorFlow converts them).
fn index_dtype_of(a: &Args, name: &str) -> DType {
    match a.get(name) {
        Some(Value::Array(arr)) if arr.dtype() == DType::Int32 => DType::Int32,
        _ => DType::Int64,
    }
}

/// `out_type=` of the shape accessors: the row splits dtype unless given.
fn out_type_arg(a: &Args, r: &Ragged) -> Result<DType> {
    match a.dtype("out_type")? {
        None => Ok(r.row_splits_dtype()),
        Some(d @ (DType::Int32 | DType::Int64)) => Ok(d),
        Some(d) => Err(Error::new(
            ErrorClass::TypeError,
            format!("out_type must be tf.int32 or tf.int64, not tf.{d}"),
        )
        .at(a.span("out_type"))),
    }
}

/// A row-partitioning argument must be a vector (ValueError, found statically).
fn vector_check(a: &Args, name: &str) -> Result<()> {
    let arr = a.array(name, Some(DType::Int64))?;
    if arr.rank() != 1 {
        return Err(Error::new(
            ErrorClass::ValueError,
            format!(
                "{name} must be a vector (rank 1), but has rank {}",
                arr.rank()
            ),
        )
        .at(a.span(name)));
    }
    Ok(())
}

/// An argument that must be a scalar int (ValueError otherwise, as TensorFlow's static
/// shape check gives).
fn scalar_int(a: &Args, name: &str) -> Result<Option<i64>> {
    if let Some(v @ (Value::List(_) | Value::Tuple(_) | Value::Literal(_) | Value::Array(_))) =
        a.get(name)
    {
        let arr = convert::to_array(v, Some(DType::Int64)).map_err(|e| a.err_at(name, e))?;
        if arr.rank() != 0 {
            return Err(Error::new(
                ErrorClass::ValueError,
                format!("{name} must be a scalar, but has rank {}", arr.rank()),
            )
            .at(a.span(name)));
        }
    }
    a.opt_int(name)
}

/// The inputs of a cross: each one's flat values and row splits (2-D ragged, dense or
/// sparse tensors).
fn cross_inputs(a: &Args) -> Result<Vec<(crate::engine::Buffer, Vec<i64>)>> {
    let items = match a.value("inputs") {
        Value::List(v) | Value::Tuple(v) => v.to_vec(),
        other => crate::eval::subscript::iterate(other).map_err(|e| a.err_at("inputs", e))?,
    };
    let err = |e| a.err_at("inputs", e);
    let rank_error = |k: usize, r: usize| {
        Error::new(
            ErrorClass::ValueError,
            format!("inputs[{k}] must have rank 2, not {r}"),
        )
        .at(a.span("inputs"))
    };
    let mut inputs = Vec::new();
    for (k, v) in items.iter().enumerate() {
        let input = match v {
            Value::Sparse(s) => {
                let shape = s.dense_shape();
                if shape.len() != 2 {
                    return Err(rank_error(k, shape.len()));
                }
                let nrows = shape[0].max(0) as usize;
                let mut lengths = budget::filled("tf.ragged.cross", 0i64, nrows).map_err(err)?;
                for i in 0..s.nnz() {
                    let row = s.index(i)[0];
                    if let Some(l) = usize::try_from(row).ok().and_then(|r| lengths.get_mut(r)) {
                        *l += 1;
                    }
                }
                let part = RowPartition::from_row_lengths(&lengths, None).map_err(err)?;
                (s.values().data().clone(), part.row_splits().to_vec())
            }
            other => {
                let arr = convert::to_array(other, None).map_err(err)?;
                match &*arr {
                    Array::Ragged(r) if r.rank() == 2 => (
                        r.flat_values().data().clone(),
                        r.outer().row_splits().to_vec(),
                    ),
                    Array::Dense(t) if t.rank() == 2 => {
                        let (n, m) = (t.shape()[0], t.shape()[1]);
                        (t.data().clone(), (0..=n).map(|i| (i * m) as i64).collect())
                    }
                    other => return Err(rank_error(k, other.rank())),
                }
            }
        };
        inputs.push(input);
    }
    Ok(inputs)
}

fn ragged_cross(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    use crate::engine::ops::cross::{cross, cross_strings, CrossInput};
    let err = |e| a.err_at("inputs", e);
    let inputs = cross_inputs(a)?
        .into_iter()
        .map(|(b, splits)| {
            Ok(CrossInput {
                values: cross_strings(&b).map_err(err)?,
                splits,
            })
        })
        .collect::<Result<Vec<_>>>()?;
    cross(&inputs).map(Value::ragged).map_err(err)
}

fn ragged_cross_hashed(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    use crate::engine::ops::cross::{cross_hashed, feature_hashes};
    let err = |e| a.err_at("inputs", e);
    let inputs = cross_inputs(a)?
        .into_iter()
        .map(|(b, splits)| Ok((feature_hashes(&b).map_err(err)?, splits)))
        .collect::<Result<Vec<_>>>()?;
    let buckets = a.opt_int("num_buckets")?.unwrap_or(0);
    if buckets < 0 {
        return Err(Error::new(
            ErrorClass::InvalidArgumentError,
            format!("num_buckets must be non-negative, not {buckets}"),
        )
        .at(a.span("num_buckets")));
    }
    let key = a.opt_int("hash_key")?.unwrap_or(0x00DE_CAFC_AFFE) as u64;
    cross_hashed(&inputs, buckets as u64, key)
        .map(Value::ragged)
        .map_err(err)
}

fn values_arg(a: &Args, name: &str) -> Result<Array> {
    Ok((*a.array(name, None)?).clone())
}

fn rank_check(a: &Args, name: &str, v: &Array) -> Result<()> {
    rank_check_as(a, name, v, ErrorClass::InvalidArgumentError)
}

/// Scalar values are refused: TensorFlow finds this statically (ValueError) for some
/// factories and in the kernel (InvalidArgumentError) for others.
fn rank_check_as(a: &Args, name: &str, v: &Array, class: ErrorClass) -> Result<()> {
    if v.rank() == 0 {
        return Err(Error::new(
            class,
            format!("{name} must have rank at least 1, but it is a scalar"),
        )
        .at(a.span(name)));
    }
    Ok(())
}

fn build(
    a: &Args,
    values: Array,
    part: crate::engine::Result<RowPartition>,
    part_arg: &str,
) -> Result<Value> {
    let part = part
        .map_err(|e| a.err_at(part_arg, e))?
        .with_splits_dtype(index_dtype_of(a, part_arg));
    Ragged::from_partition(part, values)
        .map(Value::ragged)
        .map_err(|e| a.err_at(part_arg, e))
}

fn from_row_splits(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let values = values_arg(a, "values")?;
    rank_check(a, "values", &values)?;
    vector_check(a, "row_splits")?;
    let splits = a.ints("row_splits")?;
    let n = values.nrows();
    build(
        a,
        values,
        RowPartition::from_row_splits(splits, Some(n)),
        "row_splits",
    )
}

fn from_row_lengths(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let values = values_arg(a, "values")?;
    rank_check(a, "values", &values)?;
    vector_check(a, "row_lengths")?;
    let lengths = a.ints("row_lengths")?;
    let n = values.nrows();
    build(
        a,
        values,
        RowPartition::from_row_lengths(&lengths, Some(n)),
        "row_lengths",
    )
}

fn from_value_rowids(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let values = values_arg(a, "values")?;
    rank_check_as(a, "values", &values, ErrorClass::ValueError)?;
    vector_check(a, "value_rowids")?;
    let ids = a.ints("value_rowids")?;
    if ids.len() != values.nrows() {
        return Err(Error::new(
            ErrorClass::ValueError,
            format!(
                "value_rowids has {} entries, but there are {} values",
                ids.len(),
                values.nrows()
            ),
        )
        .at(a.span("value_rowids")));
    }
    let nrows = scalar_int(a, "nrows")?;
    build(
        a,
        values,
        RowPartition::from_value_rowids(&ids, nrows),
        "value_rowids",
    )
}

fn from_row_starts(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let values = values_arg(a, "values")?;
    rank_check(a, "values", &values)?;
    vector_check(a, "row_starts")?;
    let starts = a.ints("row_starts")?;
    let n = values.nrows();
    build(
        a,
        values,
        RowPartition::from_row_starts(&starts, n),
        "row_starts",
    )
}

fn from_row_limits(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let values = values_arg(a, "values")?;
    rank_check(a, "values", &values)?;
    vector_check(a, "row_limits")?;
    let limits = a.ints("row_limits")?;
    let n = values.nrows();
    build(
        a,
        values,
        RowPartition::from_row_limits(&limits, n),
        "row_limits",
    )
}

fn from_uniform_row_length(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let values = values_arg(a, "values")?;
    rank_check(a, "values", &values)?;
    let len = match scalar_int(a, "uniform_row_length")? {
        Some(l) => l,
        None => a.int("uniform_row_length")?,
    };
    let nrows = scalar_int(a, "nrows")?;
    let n = values.nrows();
    build(
        a,
        values,
        RowPartition::from_uniform_row_length(len, n, nrows),
        "uniform_row_length",
    )
}

fn nested_lists(a: &Args, name: &str) -> Result<Vec<Vec<i64>>> {
    let items = crate::eval::subscript::iterate(a.value(name)).map_err(|e| a.err_at(name, e))?;
    items
        .iter()
        .map(|v| convert::to_ints(v).map_err(|e| a.err_at(name, e)))
        .collect()
}

/// int32 when the nested partitioning tensors are int32 tensors.
fn nested_index_dtype(a: &Args, name: &str) -> DType {
    let items = match a.get(name) {
        Some(Value::List(v)) | Some(Value::Tuple(v)) => v.clone(),
        // Same-length tensors in a list display are stacked into one tensor.
        Some(Value::Array(arr)) if arr.dtype() == DType::Int32 => return DType::Int32,
        // A list of tensors written inline keeps each element's dtype.
        Some(Value::Literal(n)) => {
            let typed32 = |n: &literal::Nested| match n {
                literal::Nested::List(xs) => {
                    !xs.is_empty()
                        && xs.iter().all(|x| {
                            matches!(
                                x,
                                literal::Nested::Leaf(literal::Leaf::Typed(Scalar::I32(_)))
                            )
                        })
                }
                _ => false,
            };
            return match &**n {
                literal::Nested::List(xs) if !xs.is_empty() && xs.iter().all(typed32) => {
                    DType::Int32
                }
                _ => DType::Int64,
            };
        }
        _ => return DType::Int64,
    };
    let int32 = |v: &Value| matches!(v, Value::Array(arr) if arr.dtype() == DType::Int32);
    if !items.is_empty() && items.iter().all(int32) {
        DType::Int32
    } else {
        DType::Int64
    }
}

fn from_nested(
    a: &Args,
    name: &str,
    make: impl Fn(&[i64], usize, usize) -> crate::engine::Result<RowPartition>,
) -> Result<Value> {
    let mut values = values_arg(a, "flat_values")?;
    rank_check(a, "flat_values", &values)?;
    let lists = nested_lists(a, name)?;
    let dtype = nested_index_dtype(a, name);
    for (k, l) in lists.iter().enumerate().rev() {
        let part = make(l, values.nrows(), k)
            .map_err(|e| a.err_at(name, e))?
            .with_splits_dtype(dtype);
        values =
            Array::Ragged(Ragged::from_partition(part, values).map_err(|e| a.err_at(name, e))?);
    }
    Ok(Value::from_array(values))
}

fn from_nested_row_splits(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    from_nested(a, "nested_row_splits", |l, n, _| {
        RowPartition::from_row_splits(l.to_vec(), Some(n))
    })
}

fn from_nested_row_lengths(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    from_nested(a, "nested_row_lengths", |l, n, _| {
        RowPartition::from_row_lengths(l, Some(n))
    })
}

fn from_nested_value_rowids(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let nrows = match a.get("nested_nrows") {
        None => None,
        Some(_) => Some(a.ints("nested_nrows")?),
    };
    from_nested(a, "nested_value_rowids", |l, n, k| {
        if l.len() != n {
            return Err(crate::value_error!(
                "value_rowids {k} has {} entries, but there are {n} values",
                l.len()
            ));
        }
        RowPartition::from_value_rowids(l, nrows.as_ref().and_then(|v| v.get(k).copied()))
    })
}

fn from_tensor(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let x = a.array("tensor", None)?;
    let Array::Dense(t) = &*x else {
        return Err(
            Error::new(ErrorClass::TypeError, "from_tensor needs a dense tensor")
                .at(a.span("tensor")),
        );
    };
    if t.rank() < 2 {
        return Err(Error::new(
            ErrorClass::ValueError,
            "from_tensor needs a tensor of rank 2 or more",
        )
        .at(a.span("tensor")));
    }
    if a.get("lengths").is_some() && a.get("padding").is_some() {
        return Err(Error::new(
            ErrorClass::ValueError,
            "Specify argument `lengths` or `padding`, but not both.",
        )
        .at(a.call));
    }
    let splits_dtype = splits_dtype_arg(a, "row_splits_dtype")?;
    let rr = a.opt_int("ragged_rank")?.unwrap_or(1);
    if rr <= 0 {
        return Err(Error::new(
            ErrorClass::ValueError,
            format!("ragged_rank must be greater than 0; got {rr}"),
        )
        .at(a.span("ragged_rank")));
    }
    let rr = rr as usize;
    if let Some(nested) = nested_lengths(a)? {
        if rr != 1 && rr != nested.len() {
            return Err(Error::new(
                ErrorClass::ValueError,
                format!(
                    "ragged_rank={rr} does not match the {} nested lengths",
                    nested.len()
                ),
            )
            .at(a.span("lengths")));
        }
        return from_tensor_nested_lengths(a, t, &nested, splits_dtype);
    }
    if rr >= t.rank() {
        return Err(Error::new(
            ErrorClass::ValueError,
            format!(
                "ragged_rank must be less than the tensor's rank ({})",
                t.rank()
            ),
        )
        .at(a.span("ragged_rank")));
    }
    // Uniform partitions for the outer `rr` dimensions, then trim the innermost of them.
    let shape = t.shape();
    let flat_rows: usize = shape[..=rr].iter().product();
    let mut flat_shape = vec![flat_rows];
    flat_shape.extend_from_slice(&shape[rr + 1..]);
    let flat = t.reshaped(flat_shape).map_err(|e| a.err_at("tensor", e))?;
    let row_len = shape[rr];
    let inner = flat.row_size();
    // Rows of the innermost ragged dimension (computed from the shape, so that a
    // dimension of size 0 still leaves its rows).
    let nrows_inner: usize = shape[..rr].iter().product();
    let lengths: Vec<i64> = if let Some(l) = a.get("lengths") {
        let _ = l;
        let ls = a.ints("lengths")?;
        if ls.len() != nrows_inner {
            return Err(Error::new(
                ErrorClass::ValueError,
                format!("lengths must have {nrows_inner} entries"),
            )
            .at(a.span("lengths")));
        }
        ls.into_iter().map(|l| l.clamp(0, row_len as i64)).collect()
    } else if let Some(p) = a.get("padding") {
        let pad = convert::to_array(p, Some(t.dtype())).map_err(|e| a.err_at("padding", e))?;
        // padding is one element of the values: its shape is tensor.shape[ragged_rank + 1:].
        if pad.shape()
            != t.shape()[rr + 1..]
                .iter()
                .map(|&d| Some(d))
                .collect::<Vec<_>>()
        {
            return Err(Error::new(
                ErrorClass::ValueError,
                format!(
                    "padding must have shape {:?} (the tensor's shape after dimension {rr}), not {:?}",
                    &t.shape()[rr + 1..],
                    pad.shape()
                        .iter()
                        .map(|d| d.map_or(-1, |d| d as i64))
                        .collect::<Vec<_>>()
                ),
            )
            .at(a.span("padding")));
        }
        if pad.dtype() != t.dtype() {
            return Err(Error::new(
                ErrorClass::TypeError,
                format!(
                    "padding must have the tensor's dtype ({}), not {}",
                    t.dtype(),
                    pad.dtype()
                ),
            )
            .at(a.span("padding")));
        }
        // One value per inner element (none when the inner elements are empty: then every
        // row is all padding).
        let pad = pad.flat_values().data().clone();
        let data = flat.data();
        (0..nrows_inner)
            .map(|r| {
                let mut len = row_len;
                while len > 0 {
                    let start = (r * row_len + len - 1) * inner;
                    let all_pad =
                        (0..inner).all(|k| data.get(start + k) == pad.get(k % pad.len().max(1)));
                    if !all_pad {
                        break;
                    }
                    len -= 1;
                }
                len as i64
            })
            .collect()
    } else {
        budget::filled("tf.RaggedTensor.from_tensor", row_len as i64, nrows_inner)
            .map_err(|e| a.err_at("tensor", e))?
    };
    let mut picks = Vec::new();
    for (r, &l) in lengths.iter().enumerate() {
        picks.extend(r * row_len..r * row_len + l as usize);
    }
    let values = Array::Dense(flat.gather_rows(&picks));
    // Without lengths or padding every row keeps its full length: TensorFlow marks the
    // dimension uniform, so the static shape shows its size.
    let uniform =
        (a.get("lengths").is_none() && a.get("padding").is_none()).then_some(row_len as i64);
    let mut result = Ragged::from_partition(
        RowPartition::from_row_lengths(&lengths, None)
            .map_err(|e| a.err_at("tensor", e))?
            .with_uniform(uniform),
        values,
    )
    .map_err(|e| a.err_at("tensor", e))?;
    for d in (0..rr - 1).rev() {
        let p = RowPartition::from_uniform_row_length(
            shape[d + 1] as i64,
            result.nrows(),
            Some(shape[..=d].iter().product::<usize>() as i64),
        )
        .map_err(|e| a.err_at("tensor", e))?;
        result =
            Ragged::from_partition(p, Array::Ragged(result)).map_err(|e| a.err_at("tensor", e))?;
    }
    Ok(Value::ragged(result.with_row_splits_dtype(splits_dtype)))
}

/// `lengths` given as one vector per ragged dimension (a tuple or list of vectors).
fn nested_lengths(a: &Args) -> Result<Option<Vec<Vec<i64>>>> {
    let items = match a.get("lengths") {
        Some(Value::Tuple(v)) | Some(Value::List(v)) => v.to_vec(),
        // A list display of lists (ragged when they differ in length).
        Some(v @ Value::Literal(n)) if matches!(&**n, literal::Nested::List(xs) if xs.iter().all(|x| matches!(x, literal::Nested::List(_)))) => {
            crate::eval::subscript::iterate(v).map_err(|e| a.err_at("lengths", e))?
        }
        Some(v @ Value::Array(arr)) if arr.rank() == 2 => {
            crate::eval::subscript::iterate(v).map_err(|e| a.err_at("lengths", e))?
        }
        _ => return Ok(None),
    };
    let nested = |v: &Value| {
        matches!(v, Value::List(_) | Value::Tuple(_) | Value::Literal(_))
            || matches!(v, Value::Array(arr) if arr.rank() == 1)
    };
    if items.is_empty() || !nested(&items[0]) {
        return Ok(None);
    }
    items
        .iter()
        .map(|v| convert::to_ints(v).map_err(|e| a.err_at("lengths", e)))
        .collect::<Result<Vec<_>>>()
        .map(Some)
}

/// from_tensor with one lengths vector per ragged dimension: `lengths[j]` keeps the first
/// `lengths[j][i]` elements of the i-th row that survived the dimensions above.
fn from_tensor_nested_lengths(
    a: &Args,
    t: &Tensor,
    nested: &[Vec<i64>],
    splits_dtype: DType,
) -> Result<Value> {
    let rr = nested.len();
    if rr >= t.rank() {
        return Err(Error::new(
            ErrorClass::ValueError,
            format!(
                "{rr} nested lengths need a tensor of rank at least {}, not {}",
                rr + 1,
                t.rank()
            ),
        )
        .at(a.span("lengths")));
    }
    let shape = t.shape();
    let err = |e| a.err_at("lengths", e);
    // The flat index (over the dimensions so far) of every row still kept.
    let mut rows: Vec<usize> = (0..shape[0]).collect();
    let mut partitions = Vec::new();
    for (j, lengths) in nested.iter().enumerate() {
        if lengths.len() != rows.len() {
            return Err(Error::new(
                ErrorClass::ValueError,
                format!(
                    "lengths[{j}] has {} entries, but there are {} rows at that level",
                    lengths.len(),
                    rows.len()
                ),
            )
            .at(a.span("lengths")));
        }
        let d = shape[j + 1];
        let mut kept_lengths =
            budget::vec("tf.RaggedTensor.from_tensor", rows.len()).map_err(err)?;
        let mut next = Vec::new();
        for (&r, &l) in rows.iter().zip(lengths) {
            let keep = l.clamp(0, d as i64) as usize;
            kept_lengths.push(keep as i64);
            next.extend((0..keep).map(|c| r * d + c));
        }
        partitions.push(
            RowPartition::from_row_lengths(&kept_lengths, None)
                .map_err(err)?
                .with_splits_dtype(splits_dtype),
        );
        rows = next;
    }
    let mut flat_shape = vec![shape[..=rr].iter().product::<usize>()];
    flat_shape.extend_from_slice(&shape[rr + 1..]);
    let flat = t.reshaped(flat_shape).map_err(err)?;
    let values = flat.gather_rows(&rows);
    Ragged::new(partitions, values)
        .map(Value::ragged)
        .map_err(err)
}

fn me(a: &Args) -> Result<Arc<Array>> {
    a.array("self", None)
}

fn ragged_self(a: &Args) -> Result<Ragged> {
    match &*me(a)? {
        Array::Ragged(r) => Ok(r.clone()),
        Array::Dense(_) => {
            Err(Error::new(ErrorClass::TypeError, "expected a ragged tensor").at(a.call))
        }
    }
}

fn values(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    Ok(Value::from_array(ragged_self(a)?.values()))
}

fn flat_values(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    Ok(Value::tensor(ragged_self(a)?.flat_values().clone()))
}

fn row_splits(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let r = ragged_self(a)?;
    Ok(Value::tensor(
        r.outer().index_tensor(r.outer().row_splits().to_vec()),
    ))
}

fn each_partition(a: &Args, f: impl Fn(&RowPartition) -> Vec<i64>) -> Result<Value> {
    let r = ragged_self(a)?;
    Ok(Value::tuple(
        r.partitions()
            .iter()
            .map(|p| Value::tensor(p.index_tensor(f(p))))
            .collect(),
    ))
}

fn nested_row_splits(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    each_partition(a, |p| p.row_splits().to_vec())
}

fn nested_row_lengths(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    each_partition(a, |p| p.row_lengths().to_vec())
}

fn nested_value_rowids(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    each_partition(a, |p| p.value_rowids().to_vec())
}

fn ragged_rank(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    Ok(Value::Int(ragged_self(a)?.ragged_rank() as i64))
}

fn shape(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    Ok(Value::Shape(Arc::new(me(a)?.shape())))
}

fn dtype(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    Ok(Value::DType(me(a)?.dtype()))
}

fn ndim(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    Ok(Value::Int(me(a)?.rank() as i64))
}

fn uniform_row_length(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    Ok(match ragged_self(a)?.outer().uniform_row_length() {
        Some(u) => Value::tensor(Tensor::scalar(Scalar::I64(u))),
        None => Value::None,
    })
}

fn row_lengths(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let r = ragged_self(a)?;
    let axis = a.opt_int("axis")?.unwrap_or(1);
    let rank = r.rank() as i64;
    let axis = if axis < 0 { axis + rank } else { axis };
    let dtype = r.row_splits_dtype();
    if axis == 0 {
        return Ok(Value::tensor(index_scalar(r.nrows() as i64, dtype)));
    }
    if axis < 1 || axis >= rank {
        return Err(Error::new(
            ErrorClass::ValueError,
            format!(
                "axis must be between 0 and the rank minus one ({}), got {axis}",
                rank - 1
            ),
        )
        .at(a.span("axis")));
    }
    if axis > r.ragged_rank() as i64 {
        // A uniform inner dimension: every row has its size, shaped like the dimensions
        // above it.
        let flat = r.flat_values();
        let k = axis as usize - r.ragged_rank();
        let size = flat.shape()[k] as i64;
        let mut lengths = Tensor::filled(
            "row_lengths",
            flat.shape()[..k].to_vec(),
            &Scalar::I64(size),
        )
        .map_err(|e| a.err_at("axis", e))?;
        if dtype == DType::Int32 {
            lengths = Tensor::filled(
                "row_lengths",
                flat.shape()[..k].to_vec(),
                &Scalar::I32(size as i32),
            )
            .map_err(|e| a.err_at("axis", e))?;
        }
        return r
            .with_flat_values(lengths)
            .map(Value::ragged)
            .map_err(|e| a.err_at("axis", e));
    }
    if axis == 1 {
        return Ok(Value::tensor(index_tensor(r.row_lengths().to_vec(), dtype)));
    }
    // Lengths of dimension `axis`, shaped like the dimensions above it.
    let part = &r.partitions()[axis as usize - 1];
    let lengths = index_tensor(part.row_lengths().to_vec(), dtype);
    let mut arr = Array::Dense(lengths);
    for p in r.partitions()[..axis as usize - 1].iter().rev() {
        arr =
            Array::Ragged(Ragged::from_partition(p.clone(), arr).map_err(|e| a.err_at("axis", e))?);
    }
    Ok(Value::from_array(arr))
}

fn outer_vector(a: &Args, f: impl Fn(&RowPartition) -> Vec<i64>) -> Result<Value> {
    let r = ragged_self(a)?;
    Ok(Value::tensor(r.outer().index_tensor(f(r.outer()))))
}

fn row_starts(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    outer_vector(a, |p| p.row_starts().to_vec())
}

fn row_limits(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    outer_vector(a, |p| p.row_limits().to_vec())
}

fn value_rowids(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    outer_vector(a, |p| p.value_rowids().to_vec())
}

fn nrows(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let r = ragged_self(a)?;
    let dtype = out_type_arg(a, &r)?;
    Ok(Value::tensor(index_scalar(r.nrows() as i64, dtype)))
}

fn bounding_shape(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let r = ragged_self(a)?;
    let dtype = out_type_arg(a, &r)?;
    let shape: Vec<i64> = r.bounding_shape().into_iter().map(|d| d as i64).collect();
    // TensorFlow gathers from the bounding shape, so a negative axis is refused too.
    let pick = |ax: i64| -> Result<i64> {
        usize::try_from(ax)
            .ok()
            .and_then(|k| shape.get(k).copied())
            .ok_or_else(|| {
                Error::new(
                    ErrorClass::InvalidArgumentError,
                    format!(
                        "axis {ax} is out of range: bounding_shape has {} entries (0 to {})",
                        shape.len(),
                        shape.len() - 1
                    ),
                )
                .at(a.span("axis"))
            })
    };
    match a.get("axis") {
        None => Ok(Value::tensor(index_tensor(shape.clone(), dtype))),
        // A list of axes gives one size per axis, in the order asked.
        Some(Value::List(_) | Value::Tuple(_) | Value::Literal(_)) => {
            let axes = a.ints("axis")?;
            let sizes = axes.into_iter().map(pick).collect::<Result<Vec<_>>>()?;
            Ok(Value::tensor(index_tensor(sizes, dtype)))
        }
        Some(Value::Array(arr)) if arr.rank() == 1 => {
            let axes = a.ints("axis")?;
            let sizes = axes.into_iter().map(pick).collect::<Result<Vec<_>>>()?;
            Ok(Value::tensor(index_tensor(sizes, dtype)))
        }
        Some(_) => Ok(Value::tensor(index_scalar(pick(a.int("axis")?)?, dtype))),
    }
}

fn to_list(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    Ok(convert::array_to_list(&*me(a)?))
}

fn to_tensor(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let x = me(a)?;
    let r = match &*x {
        Array::Dense(_) => return Ok(Value::Array(x)),
        Array::Ragged(r) => r,
    };
    let default_arr = match a.get("default_value") {
        None => None,
        Some(_) => Some(a.array("default_value", Some(r.dtype()))?),
    };
    let default = match &default_arr {
        Some(d) if d.rank() > 0 => None,
        Some(_) => Some(
            convert::to_scalar(a.value("default_value"), Some(r.dtype()))
                .map_err(|e| a.err_at("default_value", e))?,
        ),
        None => Some(Scalar::default_of(r.dtype())),
    };
    let shape: Option<Vec<Option<usize>>> = match a.get("shape") {
        None => None,
        Some(v) => Some(
            crate::eval::subscript::iterate(v)
                .map_err(|e| a.err_at("shape", e))?
                .iter()
                // -1 (or None) keeps the natural size of that dimension, as TensorFlow's
                // RaggedTensorToTensor kernel does; anything below -1 is an error.
                .map(|d| match d {
                    Value::None => Ok(None),
                    d => match convert::to_int(d)? {
                        -1 => Ok(None),
                        i => usize::try_from(i).map(Some).map_err(|_| {
                            crate::invalid_arg!(
                                "shape dimensions must be -1 (the natural size) or non-negative, not {i}"
                            )
                        }),
                    },
                })
                .collect::<Result<_, _>>()
                .map_err(|e| a.err_at("shape", e))?,
        ),
    };
    let Some(default) = default else {
        // A default with inner dimensions fills whole padded elements: pad a mask of the
        // real elements alongside, then choose between the values and the broadcast default.
        let d = default_arr.expect("given");
        let inner = &r.flat_values().shape()[1..];
        let dshape: Vec<usize> = match &*d {
            Array::Dense(t) => t.shape().to_vec(),
            Array::Ragged(_) => {
                return Err(
                    Error::new(ErrorClass::TypeError, "default_value must be dense")
                        .at(a.span("default_value")),
                )
            }
        };
        let fits = dshape.len() <= inner.len()
            && dshape
                .iter()
                .rev()
                .zip(inner.iter().rev())
                .all(|(&x, &y)| x == 1 || x == y);
        if !fits {
            return Err(Error::new(
                ErrorClass::InvalidArgumentError,
                format!(
                    "default_value has shape {dshape:?}, which does not broadcast to the inner shape {inner:?}"
                ),
            )
            .at(a.span("default_value")));
        }
        let at = |e| Error::from(e).at(a.call);
        let zero = Scalar::default_of(r.dtype());
        let values = r.to_tensor(&zero, shape.as_deref()).map_err(at)?;
        let ones = Tensor::filled(
            "to_tensor",
            r.flat_values().shape().to_vec(),
            &Scalar::Bool(true),
        )
        .map_err(at)?;
        let mask = r
            .with_flat_values(ones)
            .map_err(at)?
            .to_tensor(&Scalar::Bool(false), shape.as_deref())
            .map_err(at)?;
        return crate::engine::ops::mask::where_select(
            &Array::Dense(mask),
            &Array::Dense(values),
            &d,
        )
        .map(Value::from_array)
        .map_err(at);
    };
    r.to_tensor(&default, shape.as_deref())
        .map(Value::tensor)
        .map_err(|e| Error::from(e).at(a.call))
}

fn with_row_splits_dtype(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let r = ragged_self(a)?;
    let d = splits_dtype_arg(a, "dtype")?;
    Ok(Value::ragged(r.with_row_splits_dtype(d)))
}

fn with_values(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let r = ragged_self(a)?;
    let v = a.array("new_values", None)?;
    r.with_values((*v).clone())
        .map(Value::ragged)
        .map_err(|e| a.err_at("new_values", e))
}

fn with_flat_values(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let r = ragged_self(a)?;
    let v = a.array("new_values", None)?;
    let Array::Dense(t) = &*v else {
        return Err(
            Error::new(ErrorClass::TypeError, "new flat values must be dense")
                .at(a.span("new_values")),
        );
    };
    r.with_flat_values(t.clone())
        .map(Value::ragged)
        .map_err(|e| a.err_at("new_values", e))
}

fn merge_dims(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let r = ragged_self(a)?;
    let rank = r.rank() as i64;
    let norm = |x: i64| if x < 0 { x + rank } else { x };
    let (o, i) = (norm(a.int("outer_axis")?), norm(a.int("inner_axis")?));
    if !(0 <= o && o <= i && i < rank) {
        return Err(Error::new(
            ErrorClass::ValueError,
            "need 0 <= outer_axis <= inner_axis < rank",
        )
        .at(a.call));
    }
    let merged = crate::engine::ops::shape::merge_dims(&Array::Ragged(r), o as usize, i as usize)
        .map_err(|e| Error::from(e).at(a.call))?;
    Ok(Value::from_array(merged))
}
