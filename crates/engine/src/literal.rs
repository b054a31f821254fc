//! Python literals to tensors, with TensorFlow's typing rules (`tf.constant`,
//! `tf.ragged.constant`, `np.array`).

use super::budget;
use super::buffer::{Buffer, Scalar};
use super::dtype::DType;
use super::element::Element;
use super::error::Result;
use super::partition::RowPartition;
use super::ragged::{Array, Ragged};
use super::strings::StringBuf;
use super::tensor::Tensor;
use crate::size::dense_shape_str;
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
        return Err(crate::EngineError::MixedTypes.into());
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

/// A float as Python's `repr` writes it (`0.5`, `1.0`, `1e+300`, `1e-05`, `nan`, `-inf`):
/// Rust's shortest round-trip digits, with Python's exponent and special values.
pub fn py_float(v: f64) -> String {
    if v.is_nan() {
        return "nan".to_string();
    }
    if v.is_infinite() {
        return if v > 0.0 { "inf" } else { "-inf" }.to_string();
    }
    let s = format!("{v:?}");
    match s.split_once('e') {
        Some((mantissa, exp)) => {
            let (sign, digits) = match exp.strip_prefix('-') {
                Some(d) => ('-', d),
                None => ('+', exp),
            };
            format!("{mantissa}e{sign}{digits:0>2}")
        }
        None => s,
    }
}

/// Converts one leaf to `dtype`, as `tf.constant(…, dtype=…)` would.
pub fn leaf_to_scalar(leaf: &Leaf, dtype: DType) -> Result<Scalar> {
    let bad = |what: &str| {
        crate::Exception::from(crate::EngineError::CannotConvert {
            what: what.to_string(),
            dtype,
        })
    };
    Ok(match leaf {
        Leaf::Bool(b) if dtype == DType::Bool => Scalar::Bool(*b),
        // An int past the dtype's range wraps, as TensorFlow's conversion does
        // (tf.constant(300, tf.uint8) is 44).
        Leaf::Int(v) if dtype.is_numeric() => crate::dispatch!(numbers dtype dtype, T => {
            T::from_i64(*v).scalar()
        }, _ => unreachable!("a numeric dtype")),
        Leaf::Float(v) if dtype.is_float() => crate::dispatch!(floats dtype dtype, T => {
            T::from_f64(*v).scalar()
        }, _ => unreachable!("a float dtype")),
        Leaf::Str(s) if dtype == DType::String => Scalar::Str(s.clone()),
        Leaf::Typed(s) => super::ops::cast::cast_scalar(s, dtype)?,
        Leaf::Bool(b) => return Err(bad(if *b { "True" } else { "False" })),
        Leaf::Str(s) => return Err(bad(&format!("'{}'", String::from_utf8_lossy(s)))),
        Leaf::Int(v) => return Err(bad(&v.to_string())),
        Leaf::Float(v) => return Err(bad(&py_float(*v))),
    })
}

/// Collects leaves in row-major order.
fn leaves<'a>(n: &'a Nested, out: &mut Vec<&'a Leaf>) {
    match n {
        Nested::Leaf(l) => out.push(l),
        Nested::List(items) => items.iter().for_each(|i| leaves(i, out)),
    }
}

/// Builds a buffer of `dtype` from leaves.
pub fn leaves_to_buffer(leaves: &[&Leaf], dtype: DType) -> Result<Buffer> {
    /// The leaves converted one by one into a vector of `T`, which becomes the buffer.
    fn elements<T: Element>(leaves: &[&Leaf]) -> Result<Buffer> {
        let mut v = budget::vec::<T>("a tensor literal", leaves.len())?;
        for (i, l) in leaves.iter().enumerate() {
            if i.is_multiple_of(crate::interrupt::CHUNK) {
                crate::interrupt::check()?;
            }
            let s = leaf_to_scalar(l, T::DTYPE)?;
            v.push(T::from_scalar(&s).expect("leaf_to_scalar gives the dtype asked for"));
        }
        Ok(Buffer::from(v))
    }
    crate::dispatch!(elements dtype dtype, T => elements::<T>(leaves), DType::String => {
        let mut s = StringBuf::try_with_capacity("a tensor literal", leaves.len(), 0)?;
        for (i, l) in leaves.iter().enumerate() {
            if i.is_multiple_of(crate::interrupt::CHUNK) {
                crate::interrupt::check()?;
            }
            match leaf_to_scalar(l, dtype)? {
                Scalar::Str(b) => s.push(&b),
                _ => unreachable!("leaf_to_scalar gives the dtype asked for"),
            }
        }
        Ok(Buffer::Str(s))
    })
}

/// A nested literal as a tensor, as a bare list display types it: dense (`tf.constant`)
/// when rectangular, ragged (`tf.ragged.constant`) otherwise.
pub fn nested_to_array(n: &Nested, hint: Option<DType>) -> Result<Array> {
    if rect_shape(n).is_some() {
        constant(n, hint, Flavor::TensorFlow).map(Array::Dense)
    } else {
        ragged_constant(n, hint, None, None)
    }
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
    let shape =
        rect_shape(n).ok_or_else(|| crate::Exception::from(crate::EngineError::NonRectangular))?;
    let dtype = dtype.unwrap_or(inferred);
    Tensor::new(shape, leaves_to_buffer(&ls, dtype)?)
}

/// `tf.ragged.constant(pylist, dtype=, ragged_rank=, inner_shape=)` with int64 row splits.
///
/// Returns a dense tensor when the ragged rank comes out as 0, as TensorFlow does.
pub fn ragged_constant(
    n: &Nested,
    dtype: Option<DType>,
    ragged_rank: Option<usize>,
    inner_shape: Option<&[usize]>,
) -> Result<Array> {
    ragged_constant_with(
        n,
        dtype,
        ragged_rank.map(|r| r as i64),
        inner_shape,
        DType::Int64,
    )
}

/// `(scalar depth, deepest list nesting)`: the scalar depth is None when there are no
/// scalars; scalars at two depths are an error.
fn scalar_and_max_depth(n: &Nested) -> Result<(Option<usize>, usize)> {
    match n {
        Nested::Leaf(_) => Ok((Some(0), 0)),
        Nested::List(items) => {
            let mut scalar: Option<usize> = None;
            let mut max = 1;
            for child in items {
                let (d, m) = scalar_and_max_depth(child)?;
                if let Some(d) = d {
                    if scalar.is_some_and(|s| s != d + 1) {
                        return Err(value_error!(
                            "all scalar values must have the same nesting depth"
                        )
                        .with_hint("a ragged tensor may vary in row length, but not in depth: wrap lone scalars in a list"));
                    }
                    scalar = Some(d + 1);
                }
                max = max.max(m + 1);
            }
            Ok((scalar, max))
        }
    }
}

/// The shape of the inner values below `ragged_rank` list levels, read from the first
/// element of each level and checked against every other element.
fn default_inner_shape(n: &Nested, ragged_rank: usize) -> Result<Vec<usize>> {
    let mut level: Vec<&Nested> = match n {
        Nested::List(items) => items.iter().collect(),
        leaf => vec![leaf],
    };
    for dim in 0..ragged_rank {
        let mut next = Vec::new();
        for item in &level {
            match item {
                Nested::List(items) => next.extend(items.iter()),
                Nested::Leaf(_) => {
                    return Err(value_error!(
                        "pylist has scalar values depth {}, but ragged_rank={ragged_rank} requires scalar value depth greater than {ragged_rank}",
                        dim + 1
                    ))
                }
            }
        }
        level = next;
    }
    fn first_shape(n: &Nested) -> Vec<usize> {
        match n {
            Nested::Leaf(_) => vec![],
            Nested::List(items) => match items.first() {
                None => vec![0],
                Some(f) => {
                    let mut s = vec![items.len()];
                    s.extend(first_shape(f));
                    s
                }
            },
        }
    }
    fn check(n: &Nested, shape: &[usize]) -> Result<()> {
        let bad = || value_error!("inner values have inconsistent shape");
        match n {
            Nested::Leaf(_) if shape.is_empty() => Ok(()),
            Nested::List(items) if !shape.is_empty() => {
                if items.len() != shape[0] {
                    return Err(bad());
                }
                items.iter().try_for_each(|i| check(i, &shape[1..]))
            }
            _ => Err(bad()),
        }
    }
    let mut inner = vec![level.len()];
    if let Some(f) = level.first() {
        inner.extend(first_shape(f));
    }
    for item in &level {
        check(item, &inner[1..])?;
    }
    inner.remove(0);
    Ok(inner)
}

/// `tf.constant(pylist, dtype, shape)`: with a shape, the literal's elements are laid out
/// in it (same count) or a single element fills it.
fn constant_shaped(n: &Nested, dtype: Option<DType>, shape: Option<&[usize]>) -> Result<Tensor> {
    match (shape, n) {
        (None, _) => constant(n, dtype, Flavor::TensorFlow),
        (Some(shape), Nested::List(items)) => {
            let items: Vec<&Nested> = items.iter().collect();
            items_shaped(&items, dtype, shape)
        }
        (Some(shape), leaf) => items_shaped(&[leaf], dtype, shape),
    }
}

/// The list `items` (each a rectangular literal of one shape) as a tensor of `shape`.
fn items_shaped(items: &[&Nested], dtype: Option<DType>, shape: &[usize]) -> Result<Tensor> {
    let mut inner: Option<Vec<usize>> = None;
    let mut ls = Vec::new();
    for item in items {
        let s = rect_shape(item).ok_or_else(|| {
            value_error!("Can't convert non-rectangular Python sequence to Tensor.")
        })?;
        match &inner {
            None => inner = Some(s),
            Some(prev) if *prev == s => {}
            Some(_) => {
                return Err(value_error!(
                    "Can't convert non-rectangular Python sequence to Tensor."
                ))
            }
        }
        leaves(item, &mut ls);
    }
    let dtype = match dtype {
        Some(d) => d,
        None => infer_dtype(&ls, Flavor::TensorFlow)?,
    };
    let want = super::size::numel(shape)?;
    let have = ls.len();
    if have == want {
        return Tensor::new(shape.to_vec(), leaves_to_buffer(&ls, dtype)?);
    }
    if have == 1 {
        let s = leaf_to_scalar(ls[0], dtype)?;
        return Tensor::filled("tf.ragged.constant", shape.to_vec(), &s);
    }
    Err(type_error!(
        "the literal has {have} elements, but the shape {} needs {want}",
        dense_shape_str(shape)
    ))
}

/// `tf.ragged.constant(pylist, dtype=, ragged_rank=, inner_shape=, row_splits_dtype=)`,
/// following TensorFlow's rules for the defaults of ragged_rank and inner_shape.
///
/// Returns a dense tensor when the ragged rank comes out as 0, as TensorFlow does.
pub fn ragged_constant_with(
    n: &Nested,
    dtype: Option<DType>,
    ragged_rank: Option<i64>,
    inner_shape: Option<&[usize]>,
    splits_dtype: DType,
) -> Result<Array> {
    let Nested::List(_) = n else {
        // A scalar.
        if let Some(r) = ragged_rank.filter(|&r| r != 0) {
            return Err(value_error!(
                "Invalid pylist: a scalar is incompatible with ragged_rank={r}"
            ));
        }
        if let Some(s) = inner_shape.filter(|s| !s.is_empty()) {
            return Err(value_error!(
                "Invalid pylist: a scalar is incompatible with dim(inner_shape)={}",
                s.len()
            ));
        }
        return constant(n, dtype, Flavor::TensorFlow).map(Array::Dense);
    };
    if let Some(r) = ragged_rank.filter(|&r| r < 0) {
        return Err(value_error!("Invalid ragged_rank={r}: must be nonnegative"));
    }
    let (scalar_depth, max_depth) = scalar_and_max_depth(n)?;
    if let Some(sd) = scalar_depth {
        if max_depth > sd {
            return Err(value_error!(
                "Invalid pylist: empty list nesting is greater than scalar value nesting"
            ));
        }
        if let Some(r) = ragged_rank.filter(|&r| max_depth < r as usize) {
            return Err(value_error!(
                "Invalid pylist: its depth {max_depth} is smaller than ragged_rank={r}"
            ));
        }
    }
    if let (Some(s), Some(r)) = (inner_shape, ragged_rank) {
        let expected = r as usize + s.len() + 1;
        let bad = match scalar_depth {
            Some(sd) => expected != sd,
            None => expected < max_depth,
        };
        if bad {
            return Err(value_error!(
                "Invalid pylist: incompatible with ragged_rank={r} and dim(inner_shape)={}",
                s.len()
            ));
        }
    }
    let dense = ragged_rank == Some(0)
        || (ragged_rank.is_none()
            && (max_depth < 2 || inner_shape.is_some_and(|s| max_depth < s.len() + 2)));
    if dense {
        return constant_shaped(n, dtype, inner_shape).map(Array::Dense);
    }
    let inner: Vec<usize> = match (inner_shape, ragged_rank) {
        (Some(s), _) => s.to_vec(),
        (None, None) => Vec::new(),
        (None, Some(r)) => default_inner_shape(n, r as usize)?,
    };
    let ragged_rank = match ragged_rank {
        Some(r) => r as usize,
        None => match scalar_depth {
            None => max_depth.saturating_sub(1).max(1),
            Some(sd) => sd.saturating_sub(1 + inner.len()).max(1),
        },
    };
    // Peel `ragged_rank` levels of lists into row partitions.
    let Nested::List(rows) = n else {
        unreachable!("checked above")
    };
    let mut level: Vec<&Nested> = rows.iter().collect();
    let mut partitions = Vec::new();
    for depth in 0..ragged_rank {
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
                        "pylist has scalar values depth {}, but ragged_rank={ragged_rank} requires scalar value depth greater than {ragged_rank}",
                        depth + 1
                    ))
                }
            }
        }
        partitions
            .push(RowPartition::from_row_lengths(&lengths, None)?.with_splits_dtype(splits_dtype));
        level = next;
    }
    // What remains are the inner values, laid out as one dense tensor.
    let mut flat_shape = vec![level.len()];
    flat_shape.extend(inner);
    let flat = items_shaped(&level, dtype, &flat_shape)?;
    Ragged::new(partitions, flat).map(Array::Ragged)
}

#[cfg(test)]
mod tests {
    use super::py_float;

    #[test]
    fn floats_print_as_python_does() {
        for (v, want) in [
            (0.5, "0.5"),
            (1.0, "1.0"),
            (1e300, "1e+300"),
            (1e-5, "1e-05"),
            (-2.5e-100, "-2.5e-100"),
            (1e16, "1e+16"),
            (1234.5, "1234.5"),
            (f64::NAN, "nan"),
            (f64::NEG_INFINITY, "-inf"),
        ] {
            assert_eq!(py_float(v), want);
        }
    }
}
