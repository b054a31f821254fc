//! Python literals to tensors, with TensorFlow's typing rules (`tf.constant`,
//! `tf.ragged.constant`, `np.array`).

use super::budget;
use super::buffer::{Buffer, Scalar};
use super::dtype::DType;
use super::error::Result;
use super::partition::RowPartition;
use super::ragged::{Array, Ragged};
use super::strings::StringBuf;
use super::tensor::Tensor;
use crate::{type_error, value_error};

/// A nested Python list of scalars, as typed by the user.
#[derive(Debug, Clone, PartialEq)]
pub enum Nested {
    /// A leaf value.
    Leaf(Leaf),
    /// A list (or tuple) of nested values.
    List(Vec<Nested>),
}

/// A scalar inside a Python literal.
#[derive(Debug, Clone, PartialEq)]
pub enum Leaf {
    /// `True` / `False`.
    Bool(bool),
    /// A Python int.
    Int(i64),
    /// A Python float.
    Float(f64),
    /// A Python str.
    Str(Vec<u8>),
    /// An element of an existing tensor, which keeps its dtype.
    Typed(Scalar),
}

/// Which defaults to use for untyped Python numbers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flavor {
    /// TensorFlow: ints → int32, floats → float32.
    TensorFlow,
    /// NumPy: ints → int64, floats → float64.
    NumPy,
}

const MIXED_TYPES: &str = "Can't convert Python sequence with mixed types to Tensor.";

impl Leaf {
    /// Which broad kind of value this is, for the mixed-types check.
    fn kind(&self) -> u8 {
        match self {
            Leaf::Bool(_) | Leaf::Typed(Scalar::Bool(_)) => 0,
            Leaf::Int(_) | Leaf::Float(_) => 1,
            Leaf::Typed(s) if s.dtype().is_numeric() => 1,
            _ => 2,
        }
    }
}

/// Infers the dtype TensorFlow (or NumPy) gives to these leaves.
pub fn infer_dtype(leaves: &[&Leaf], flavor: Flavor) -> Result<DType> {
    let Some(first) = leaves.first() else {
        return Ok(match flavor {
            Flavor::TensorFlow => DType::Float32,
            Flavor::NumPy => DType::Float64,
        });
    };
    let kind = first.kind();
    if leaves.iter().any(|l| l.kind() != kind) {
        return Err(value_error!("{MIXED_TYPES}")
            .with_hint("every element of a tensor has one dtype: use all strings or all numbers"));
    }
    match kind {
        0 => Ok(DType::Bool),
        2 => Ok(DType::String),
        _ => {
            let mut any_float = false;
            let mut big_int = false;
            let mut typed: Option<DType> = None;
            for l in leaves {
                match l {
                    Leaf::Float(_) => any_float = true,
                    Leaf::Int(v) => big_int |= i32::try_from(*v).is_err(),
                    Leaf::Typed(s) => {
                        let d = s.dtype();
                        typed = Some(typed.map_or(d, |t: DType| t.max(d)));
                    }
                    _ => {}
                }
            }
            if let Some(t) = typed {
                return Ok(if any_float && t.is_int() {
                    DType::Float32
                } else {
                    t
                });
            }
            Ok(match (flavor, any_float, big_int) {
                (Flavor::TensorFlow, true, _) => DType::Float32,
                (Flavor::TensorFlow, false, false) => DType::Int32,
                (Flavor::TensorFlow, false, true) => DType::Int64,
                (Flavor::NumPy, true, _) => DType::Float64,
                (Flavor::NumPy, false, _) => DType::Int64,
            })
        }
    }
}

/// Converts one leaf to `dtype`, as `tf.constant(…, dtype=…)` would.
pub fn leaf_to_scalar(leaf: &Leaf, dtype: DType) -> Result<Scalar> {
    let bad = |what: &str| type_error!("Cannot convert {what} to a tensor of dtype {dtype}");
    Ok(match (leaf, dtype) {
        (Leaf::Bool(b), DType::Bool) => Scalar::Bool(*b),
        (Leaf::Int(v), DType::Int32) => {
            Scalar::I32(i32::try_from(*v).map_err(|_| value_error!("{v} does not fit in int32"))?)
        }
        (Leaf::Int(v), DType::Int64) => Scalar::I64(*v),
        (Leaf::Int(v), DType::Float32) => Scalar::F32(*v as f32),
        (Leaf::Int(v), DType::Float64) => Scalar::F64(*v as f64),
        (Leaf::Float(v), DType::Float32) => Scalar::F32(*v as f32),
        (Leaf::Float(v), DType::Float64) => Scalar::F64(*v),
        (Leaf::Float(v), _) if dtype.is_int() => return Err(bad(&format!("{v:?}"))),
        (Leaf::Str(s), DType::String) => Scalar::Str(s.clone()),
        (Leaf::Typed(s), _) => super::ops::cast::cast_scalar(s, dtype)?,
        (Leaf::Bool(b), _) => return Err(bad(if *b { "True" } else { "False" })),
        (Leaf::Str(s), _) => return Err(bad(&format!("'{}'", String::from_utf8_lossy(s)))),
        (Leaf::Int(v), _) => return Err(bad(&v.to_string())),
        (Leaf::Float(v), _) => return Err(bad(&format!("{v:?}"))),
    })
}

/// Collects leaves in row-major order.
fn leaves<'a>(n: &'a Nested, out: &mut Vec<&'a Leaf>) {
    match n {
        Nested::Leaf(l) => out.push(l),
        Nested::List(items) => items.iter().for_each(|i| leaves(i, out)),
    }
}

/// The depths at which leaves occur, and the deepest list nesting.
fn depths(n: &Nested, depth: usize, leaf_depths: &mut Vec<usize>, max_list: &mut usize) {
    match n {
        Nested::Leaf(_) => {
            if !leaf_depths.contains(&depth) {
                leaf_depths.push(depth);
            }
        }
        Nested::List(items) => {
            *max_list = (*max_list).max(depth + 1);
            items
                .iter()
                .for_each(|i| depths(i, depth + 1, leaf_depths, max_list));
        }
    }
}

/// Builds a buffer of `dtype` from leaves.
pub fn leaves_to_buffer(leaves: &[&Leaf], dtype: DType) -> Result<Buffer> {
    if dtype == DType::String {
        let mut s = StringBuf::try_with_capacity("a tensor literal", leaves.len(), 0)?;
        for l in leaves {
            match leaf_to_scalar(l, dtype)? {
                Scalar::Str(b) => s.push(&b),
                _ => unreachable!(),
            }
        }
        return Ok(Buffer::Str(s));
    }
    let mut buf = Buffer::with_capacity("a tensor literal", dtype, leaves.len(), 0)?;
    for l in leaves {
        buf.push(&leaf_to_scalar(l, dtype)?);
    }
    Ok(buf)
}

/// The rectangular shape of a nested list, or `None` when it is not rectangular.
pub fn rect_shape(n: &Nested) -> Option<Vec<usize>> {
    match n {
        Nested::Leaf(_) => Some(vec![]),
        Nested::List(items) => {
            let mut inner: Option<Vec<usize>> = None;
            for i in items {
                let s = rect_shape(i)?;
                match &inner {
                    None => inner = Some(s),
                    Some(prev) if *prev == s => {}
                    Some(_) => return None,
                }
            }
            let mut shape = vec![items.len()];
            shape.extend(inner.unwrap_or_default());
            Some(shape)
        }
    }
}

/// `tf.constant(value, dtype=)` / `np.array(value)`: a dense tensor from a rectangular literal.
pub fn constant(n: &Nested, dtype: Option<DType>, flavor: Flavor) -> Result<Tensor> {
    let mut ls = Vec::new();
    leaves(n, &mut ls);
    let inferred = infer_dtype(&ls, flavor)?;
    let shape = rect_shape(n).ok_or_else(|| {
        value_error!("Can't convert non-rectangular Python sequence to Tensor.")
            .with_hint("rows of different lengths make a ragged tensor: use tf.ragged.constant")
    })?;
    let dtype = dtype.unwrap_or(inferred);
    Tensor::new(shape, leaves_to_buffer(&ls, dtype)?)
}

/// `tf.ragged.constant(pylist, dtype=, ragged_rank=, inner_shape=)`.
///
/// Returns a dense tensor when the ragged rank comes out as 0, as TensorFlow does.
pub fn ragged_constant(
    n: &Nested,
    dtype: Option<DType>,
    ragged_rank: Option<usize>,
    inner_shape: Option<&[usize]>,
) -> Result<Array> {
    let mut leaf_depths = Vec::new();
    let mut max_list = 0;
    depths(n, 0, &mut leaf_depths, &mut max_list);
    if leaf_depths.len() > 1 {
        return Err(value_error!("all scalar values must have the same nesting depth")
            .with_hint("a ragged tensor may vary in row length, but not in depth: wrap lone scalars in a list"));
    }
    let scalar_depth = leaf_depths.first().copied();
    let rank = scalar_depth.unwrap_or(max_list + inner_shape.map_or(0, |s| s.len()));
    let inner_len = inner_shape.map_or(0, |s| s.len());
    let ragged_rank = match ragged_rank {
        Some(r) => {
            if rank > 0 && r >= rank {
                return Err(value_error!(
                    "ragged_rank must be less than the rank of the value ({rank}), not {r}"
                ));
            }
            r
        }
        None => rank.saturating_sub(1 + inner_len),
    };
    let mut ls = Vec::new();
    leaves(n, &mut ls);
    let dtype = match dtype {
        Some(d) => d,
        None => infer_dtype(&ls, Flavor::TensorFlow)?,
    };
    if ragged_rank == 0 {
        return constant(n, Some(dtype), Flavor::TensorFlow).map(Array::Dense);
    }
    // Peel `ragged_rank` levels of lists into row partitions.
    let Nested::List(rows) = n else {
        return Err(value_error!("tf.ragged.constant needs a list"));
    };
    let mut level: Vec<&Nested> = rows.iter().collect();
    let mut partitions = Vec::new();
    for _ in 0..ragged_rank {
        let mut lengths = budget::vec("tf.ragged.constant", level.len())?;
        let mut next = Vec::new();
        for item in &level {
            match item {
                Nested::List(items) => {
                    lengths.push(items.len() as i64);
                    next.extend(items.iter());
                }
                Nested::Leaf(_) => {
                    return Err(value_error!(
                        "all scalar values must have the same nesting depth"
                    ))
                }
            }
        }
        partitions.push(RowPartition::from_row_lengths(&lengths, None)?);
        level = next;
    }
    // What remains are the inner values: each a rectangular block of one shape.
    let expected_inner: Option<Vec<usize>> = inner_shape.map(|s| s.to_vec());
    let mut inner: Option<Vec<usize>> = expected_inner.clone();
    // The usual case, checked in one pass: the innermost lists hold scalars, so there are
    // no inner dimensions.
    let scalars_only = inner.as_ref().is_none_or(|s| s.is_empty())
        && level.iter().all(|n| matches!(n, Nested::Leaf(_)));
    if scalars_only {
        inner = Some(Vec::new());
    }
    for item in level.iter().filter(|_| !scalars_only) {
        let s = rect_shape(item).ok_or_else(|| {
            value_error!("inner values must be rectangular below ragged_rank {ragged_rank}")
        })?;
        match &inner {
            None => inner = Some(s),
            Some(prev) if *prev == s => {}
            Some(prev) => {
                return Err(value_error!(
                    "inner values have different shapes ({prev:?} and {s:?}): lower ragged_rank is not possible"
                ))
            }
        }
    }
    let inner = match inner {
        Some(inner) => inner,
        None => budget::filled(
            "tf.ragged.constant",
            0,
            rank.saturating_sub(ragged_rank + 1),
        )?,
    };
    let mut flat_shape = vec![level.len()];
    flat_shape.extend(inner);
    let flat = Tensor::new(flat_shape, leaves_to_buffer(&ls, dtype)?)?;
    Ragged::new(partitions, flat).map(Array::Ragged)
}
