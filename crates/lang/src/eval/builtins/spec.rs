//! Type specs: `tf.RaggedTensorSpec` and `tf.TensorSpec`, the descriptions of a tensor's
//! dtype, shape and (for ragged tensors) ragged rank that `tf.map_fn(…, fn_output_signature=)`
//! takes.

use std::sync::Arc;

use super::Builtin;
use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::Interp;
use crate::value::{TypeSpec, Value};
use ragtag_engine::{Array, DType, ExceptionClass};

/// The spec builtins.
pub static BUILTINS: &[Builtin] = &[
    Builtin::function(
        "tf.RaggedTensorSpec",
        "(shape=None, dtype=tf.float32, ragged_rank=None, row_splits_dtype=tf.int64, flat_values_spec=None)",
        ragged_spec,
    )
    .doc("Describes a RaggedTensor: its shape (None for the ragged dimensions), dtype, ragged rank (by default the rank minus one) and row-splits dtype. `tf.map_fn` takes one as fn_output_signature to stack ragged results.")
    .examples(&[
        "tf.RaggedTensorSpec(shape=[2, None], dtype=tf.int32)",
        "tf.map_fn(lambda x: tf.range(x), tf.constant([1, 3, 0]), fn_output_signature=tf.RaggedTensorSpec(shape=[None], dtype=tf.int32))",
    ]),
    Builtin::function("tf.RaggedTensorSpec.from_value", "(value)", spec_from_value)
        .doc("The spec of a RaggedTensor: its shape, dtype, ragged rank and row-splits dtype.")
        .examples(&["tf.RaggedTensorSpec.from_value(tf.ragged.constant([[1, 2], [3]]))"]),
    Builtin::property("tf.RaggedTensorSpec.shape", |_, a| Ok(shape_value(&*spec(a)?)))
        .doc("The shape the spec describes (None for unknown sizes).")
    .examples(&["tf.RaggedTensorSpec(shape=[2, None], dtype=tf.int32).shape"]),
    Builtin::property("tf.RaggedTensorSpec.dtype", |_, a| Ok(Value::DType(spec(a)?.dtype)))
        .doc("The dtype of the values.")
        .examples(&["tf.RaggedTensorSpec(shape=[2, None], dtype=tf.int32).dtype"]),
    Builtin::property("tf.RaggedTensorSpec.ragged_rank", |_, a| {
        Ok(Value::Int(spec(a)?.ragged_rank as i64))
    })
    .doc("How many of the dimensions are ragged partitions.")
    .examples(&["tf.RaggedTensorSpec(shape=[2, None, None]).ragged_rank"]),
    Builtin::property("tf.RaggedTensorSpec.row_splits_dtype", |_, a| {
        Ok(Value::DType(spec(a)?.row_splits_dtype))
    })
    .doc("The dtype of the row partitions (int64 or int32).")
    .examples(&["tf.RaggedTensorSpec(shape=[2, None], row_splits_dtype=tf.int32).row_splits_dtype"]),
    Builtin::function("tf.TensorSpec", "(shape, dtype=tf.float32, name=None)", tensor_spec)
        .doc("Describes a dense tensor: its shape (None for unknown sizes) and dtype. `tf.map_fn` takes one as fn_output_signature.")
        .examples(&["tf.TensorSpec([2, None], tf.int32)"]),
    Builtin::property("tf.TensorSpec.shape", |_, a| Ok(shape_value(&*spec(a)?)))
        .doc("The shape the spec describes (None for unknown sizes).")
        .examples(&["tf.TensorSpec([2, None], tf.int32).shape"]),
    Builtin::property("tf.TensorSpec.dtype", |_, a| Ok(Value::DType(spec(a)?.dtype)))
        .doc("The dtype.")
        .examples(&["tf.TensorSpec([2, None], tf.int32).dtype"]),
];

/// The receiver of a spec property.
fn spec(a: &Args) -> Result<Arc<TypeSpec>> {
    match a.get("self") {
        Some(Value::Spec(s)) => Ok(s.clone()),
        _ => Err(Error::new(
            ExceptionClass::TypeError,
            "expected a type spec",
        )),
    }
}

fn shape_value(s: &TypeSpec) -> Value {
    match &s.shape {
        Some(dims) => Value::Shape(Arc::new(dims.clone())),
        None => Value::None,
    }
}

/// A shape argument: None (unknown rank), a TensorShape, or a list or tuple of sizes and
/// Nones.
fn partial_shape(a: &Args, name: &str) -> Result<Option<Vec<Option<usize>>>> {
    let bad = |what: &str| {
        Error::new(
            ExceptionClass::TypeError,
            format!("{name} must be a list of sizes and None, not {what}"),
        )
        .at(a.span(name))
    };
    let items = match a.get(name) {
        None | Some(Value::None) => return Ok(None),
        Some(Value::Shape(dims)) => return Ok(Some(dims.to_vec())),
        Some(v @ (Value::List(_) | Value::Tuple(_))) => Arc::new(crate::value::subscript_items(v)),
        Some(Value::Array(_)) => {
            let ints = a.ints(name)?;
            Arc::new(ints.into_iter().map(Value::Int).collect())
        }
        Some(other) => return Err(bad(other.type_name())),
    };
    let mut dims = Vec::new();
    for item in items.iter() {
        dims.push(match item {
            Value::None => None,
            Value::Int(n) if *n >= 0 => Some(*n as usize),
            Value::Int(n) => {
                return Err(Error::new(
                    ExceptionClass::ValueError,
                    format!("a dimension size must be non-negative or None, not {n}"),
                )
                .at(a.span(name)))
            }
            other => return Err(bad(&format!("a list holding a {}", other.type_name()))),
        });
    }
    Ok(Some(dims))
}

fn ragged_spec(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let shape = partial_shape(a, "shape")?;
    let dtype = a.dtype("dtype")?.unwrap_or(DType::Float32);
    let row_splits_dtype = a.dtype("row_splits_dtype")?.unwrap_or(DType::Int64);
    if !matches!(row_splits_dtype, DType::Int32 | DType::Int64) {
        return Err(Error::new(
            ExceptionClass::ValueError,
            format!("row_splits_dtype must be int32 or int64, not {row_splits_dtype}"),
        )
        .at(a.span("row_splits_dtype")));
    }
    let rank = shape.as_ref().map(Vec::len);
    let ragged_rank =
        match (a.opt_int("ragged_rank")?, rank) {
            (Some(r), Some(rank)) if r >= 0 && (r as usize) < rank.max(1) => r as usize,
            (Some(r), None) if r >= 0 => r as usize,
            (Some(r), Some(rank)) => {
                return Err(Error::new(
                    ExceptionClass::ValueError,
                    format!("ragged_rank ({r}) must be at least 0 and less than the rank ({rank})"),
                )
                .at(a.span("ragged_rank")))
            }
            (Some(r), None) => {
                return Err(Error::new(
                    ExceptionClass::ValueError,
                    format!("ragged_rank ({r}) must be at least 0"),
                )
                .at(a.span("ragged_rank")))
            }
            (None, Some(rank)) => rank.saturating_sub(1),
            (None, None) => return Err(Error::new(
                ExceptionClass::ValueError,
                "give ragged_rank, or a shape of known rank (its rank minus one is the default)",
            )),
        };
    Ok(Value::Spec(Arc::new(TypeSpec {
        ragged: true,
        shape,
        dtype,
        ragged_rank,
        row_splits_dtype,
    })))
}

fn spec_from_value(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let v = a.array("value", None)?;
    let Array::Ragged(r) = &*v else {
        return Err(Error::new(
            ExceptionClass::TypeError,
            "tf.RaggedTensorSpec.from_value takes a RaggedTensor",
        )
        .at(a.span("value")));
    };
    Ok(Value::Spec(Arc::new(TypeSpec {
        ragged: true,
        shape: Some(r.shape()),
        dtype: r.dtype(),
        ragged_rank: r.ragged_rank(),
        row_splits_dtype: r.outer().splits_dtype(),
    })))
}

fn tensor_spec(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let shape = partial_shape(a, "shape")?;
    let dtype = a.dtype("dtype")?.unwrap_or(DType::Float32);
    Ok(Value::Spec(Arc::new(TypeSpec {
        ragged: false,
        shape,
        dtype,
        ragged_rank: 0,
        row_splits_dtype: DType::Int64,
    })))
}
