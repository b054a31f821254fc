//! Operations on tensors: elementwise kernels, broadcasting, indexing, reductions, casts,
//! string ops, and the array operations (concat, stack, tile, gather, masks, ranges, segments).

pub mod broadcast;
pub mod cast;
pub mod concat;
pub mod cross;
pub mod embedding;
pub mod fingerprint;
pub mod gather;
pub mod index;
pub mod kernels;
pub mod mask;
pub mod one_hot;
pub mod range;
pub mod reduce;
pub mod reshape;
pub mod segment;
pub mod shape;
pub mod special;
pub mod strings;
pub mod tile;

use crate::engine::error::{EngineError, ErrorClass, Result};
use crate::engine::ragged::Array;

/// Refuses results of more than the memory budget allows (see [`crate::engine::budget`]),
/// counting eight bytes an element.
pub fn check_size(n: u128, what: &str) -> Result<()> {
    crate::engine::budget::check(what, n, 8)
}

/// Checks that `ids` (indices or segment ids, called `what`) are integers, failing as
/// TensorFlow does with an InvalidArgumentError. An empty Python list converts to float32, as in
/// TensorFlow, so `tf.gather(x, [])` lands here too; the hint says how to pass no indices.
pub fn check_int_ids(ids: &Array, what: &str) -> Result<()> {
    let dtype = ids.dtype();
    if dtype.is_int() {
        return Ok(());
    }
    let err = EngineError::new(
        ErrorClass::InvalidArgumentError,
        format!("{what} must be int32 or int64, not {dtype}"),
    );
    Err(
        if ids.flat_values().size() == 0 && dtype == crate::engine::dtype::DType::Float32 {
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
pub fn positive_axis(axis: i64, rank: usize, class: ErrorClass, name: &str) -> Result<usize> {
    let r = rank as i64;
    let k = if axis < 0 { axis + r } else { axis };
    if k < 0 || k >= r {
        let msg = if rank == 0 {
            format!(
                "{name} {axis} is out of range: the tensor is a scalar (rank 0) and has no axes"
            )
        } else {
            format!(
                "{name} {axis} is out of range for rank {rank} (valid: {} to {})",
                -r,
                r - 1
            )
        };
        return Err(EngineError::new(class, msg));
    }
    Ok(k as usize)
}

/// A shape as TensorFlow prints it in messages: `[2, 3]`, with `None` for ragged dimensions.
pub fn shape_str(shape: &[Option<usize>]) -> String {
    let dims: Vec<String> = shape
        .iter()
        .map(|d| d.map_or("None".to_string(), |d| d.to_string()))
        .collect();
    format!("[{}]", dims.join(", "))
}

/// A dense shape in messages.
pub fn dense_shape_str(shape: &[usize]) -> String {
    let dims: Vec<String> = shape.iter().map(|d| d.to_string()).collect();
    format!("[{}]", dims.join(", "))
}
