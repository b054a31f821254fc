//! Ragged tensors: `tf.ragged.constant`, the `tf.RaggedTensor.from_*` factories, and the
//! accessors of every row-partition encoding. The table is here with the argument readers
//! the families share; the implementations are in modules by concern.

mod accessors;
mod conversions;
mod cross;
mod factories;
mod from_tensor;

use std::sync::Arc;

use self::accessors::{
    bounding_shape, flat_values, nested_row_lengths, nested_row_splits, nested_value_rowids, nrows,
    ragged_rank, row_lengths, row_limits, row_splits, row_starts, uniform_row_length, value_rowids,
    values,
};
use self::conversions::{
    merge_dims, to_list, to_tensor, with_flat_values, with_row_splits_dtype, with_values,
};
pub(crate) use self::cross::{ragged_cross, ragged_cross_hashed};
use self::factories::{
    constant, from_nested_row_lengths, from_nested_row_splits, from_nested_value_rowids,
    from_row_lengths, from_row_limits, from_row_splits, from_row_starts, from_uniform_row_length,
    from_value_rowids,
};
use self::from_tensor::from_tensor;
use super::common::{dtype_prop, ndim_prop, shape_prop};
use super::Builtin;
use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::value::Value;
use ragtag_engine::{Array, DType, ExceptionClass, Ragged};

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
    Builtin::property("tf.RaggedTensor.shape", shape_prop)
        .doc("The static shape: ragged dimensions are None.")
        .examples(&["tf.ragged.constant([[3, 1, 4], [], [5, 9]]).shape"]),
    Builtin::property("tf.RaggedTensor.dtype", dtype_prop)
        .doc("The element type.")
        .examples(&["tf.ragged.constant([[3, 1, 4], [], [5, 9]]).dtype"]),
    Builtin::property("tf.RaggedTensor.ndim", ndim_prop)
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

/// `row_splits_dtype=` (int64 by default; only int32 and int64 are allowed).
fn splits_dtype_arg(a: &Args, name: &str) -> Result<DType> {
    match a.dtype(name)? {
        None => Ok(DType::Int64),
        Some(d @ (DType::Int32 | DType::Int64)) => Ok(d),
        Some(d) => Err(Error::new(
            ExceptionClass::ValueError,
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
            ExceptionClass::TypeError,
            format!("out_type must be tf.int32 or tf.int64, not tf.{d}"),
        )
        .at(a.span("out_type"))),
    }
}

fn me(a: &Args) -> Result<Arc<Array>> {
    a.array("self", None)
}

fn ragged_self(a: &Args) -> Result<Ragged> {
    match &*me(a)? {
        Array::Ragged(r) => Ok(r.clone()),
        Array::Dense(_) => {
            Err(Error::new(ExceptionClass::TypeError, "expected a ragged tensor").at(a.call))
        }
    }
}
