//! Operations on tensors: elementwise kernels, broadcasting, indexing, reductions, casts,
//! string ops, and the array operations (concat, stack, tile, gather, masks, ranges, segments).

mod accumulate;
pub mod broadcast;
pub mod cast;
pub mod concat;
pub mod cross;
pub mod einsum;
mod einsum_matmul;
pub mod embedding;
pub mod fingerprint;
pub mod gather;
pub mod index;
pub mod kernels;
pub mod layout;
pub mod mask;
pub mod matmul;
pub mod one_hot;
pub mod order;
mod order_fast;
mod pad_fast;
pub mod range;
pub mod reduce;
pub mod reshape;
pub mod scan;
mod search_fast;
pub mod segment;
pub mod segment_fast;
pub mod sequence_mask;
pub mod shape;
pub mod sobol;
mod sort_count;
pub mod sparse_matmul;
pub mod special;
pub mod strings;
pub mod tile;

/// The shape formatters of messages, kept here for the callers that name them through `ops`.
pub use crate::size::{dense_shape_str, shape_str};

use crate::error::Result;

use crate::exceptions::{Exception, ExceptionClass};
use crate::ragged::Array;

/// Refuses results of more than the memory budget allows (see [`crate::budget`]),
/// counting eight bytes an element.
pub fn check_size(n: u128, what: &str) -> Result<()> {
    crate::budget::check(what, n, 8)
}

/// Checks that `ids` (indices or segment ids, called `what`) are integers, failing as
/// TensorFlow does with an InvalidArgumentError. An empty Python list converts to float32, as in
/// TensorFlow, so `tf.gather(x, [])` lands here too; the hint says how to pass no indices.
pub fn check_int_ids(ids: &Array, what: &str) -> Result<()> {
    let dtype = ids.dtype();
    if dtype.is_int() {
        return Ok(());
    }
    let err = Exception::new(
        ExceptionClass::InvalidArgumentError,
        format!("{what} must be int32 or int64, not {dtype}"),
    );
    Err(
        if ids.flat_values().size() == 0 && dtype == crate::dtype::DType::Float32 {
            err.with_hint(format!(
            "an empty list `[]` is a float32 tensor, as in TensorFlow: pass tf.constant([], tf.int32) for no {what}"
        ))
        } else {
            err
        },
    )
}

/// Resolves a Python-style axis (negative counts from the end) against `rank`, or fails with
/// an error of `class` naming the valid range. `name` is what the message calls the axis.
pub fn positive_axis(axis: i64, rank: usize, class: ExceptionClass, name: &str) -> Result<usize> {
    if rank == 0 {
        return Err(Exception::new(
            class,
            format!(
                "{name} {axis} is out of range: the tensor is a scalar (rank 0) and has no axes"
            ),
        ));
    }
    resolve_axis(axis, rank, rank, class, name)
}

/// Resolves where a new axis goes in a tensor of `rank` (`tf.expand_dims`, `tf.stack`): one
/// of `rank + 1` places, negative counting from the end, or an error of `class`.
pub fn insertion_axis(axis: i64, rank: usize, class: ExceptionClass, name: &str) -> Result<usize> {
    resolve_axis(axis, rank, rank + 1, class, name)
}

/// Resolves every axis of `axes` against `rank` (see [`positive_axis`]): the distinct axes,
/// in increasing order.
pub fn positive_axes(axes: &[i64], rank: usize, class: ExceptionClass) -> Result<Vec<usize>> {
    let mut norm: Vec<usize> = crate::budget::vec("the axes", axes.len())?;
    for &ax in axes {
        let k = positive_axis(ax, rank, class, "axis")?;
        if !norm.contains(&k) {
            norm.push(k);
        }
    }
    norm.sort_unstable();
    Ok(norm)
}

/// `axis` as one of `n` positions of a tensor of `rank`, counting from the end when negative.
fn resolve_axis(
    axis: i64,
    rank: usize,
    n: usize,
    class: ExceptionClass,
    name: &str,
) -> Result<usize> {
    match crate::size::index(axis, n) {
        Some(k) => Ok(k),
        None => {
            let n = n as i64;
            Err(Exception::new(
                class,
                format!(
                    "{name} {axis} is out of range for a tensor of rank {rank} (valid: {} to {})",
                    -n,
                    n - 1
                ),
            ))
        }
    }
}
