//! The ragged factories that take row partitions: `tf.ragged.constant` and the
//! `tf.RaggedTensor.from_row_splits` family (one partition, or nested ones), with the
//! checks TensorFlow makes on their arguments.

use super::{index_dtype_of, splits_dtype_arg};
use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::builtins::common::opt_ints;
use crate::eval::convert;
use crate::eval::Interp;
use crate::value::Value;
use ragtag_engine::literal;
use ragtag_engine::{Array, DType, ExceptionClass, Ragged, RowPartition, Scalar};

pub(super) fn constant(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
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
                            ExceptionClass::ValueError,
                            format!("inner_shape sizes must be non-negative, not {d}"),
                        )
                        .at(a.span("inner_shape"))
                    })
                })
                .collect::<Result<_>>()?,
        ),
    };
    let defaults = (dtype, rr, &inner, splits_dtype) == (None, None, &None, DType::Int64);
    // A large block of numbers read into columns becomes the tensor as it is.
    if let (true, Some(lit)) = (defaults, a.value("pylist").list_literal()) {
        if let Some(c) = lit.columns() {
            return c
                .to_ragged()
                .map(Value::from_array)
                .map_err(|e| a.err_at("pylist", e));
        }
    }
    // A list display is read in place: its literal can be large, and copying it costs more
    // than converting it.
    let lit;
    let owned;
    let n = match a.value("pylist") {
        Value::List(l) if l.cached_literal().is_some() => {
            lit = l.cached_literal().expect("matched above");
            lit.tree()
        }
        v => {
            owned = convert::to_nested(v).map_err(|e| a.err_at("pylist", e))?;
            &owned
        }
    };
    if defaults {
        if let Some(r) = convert::regular_ragged(n) {
            return r.map(Value::from_array).map_err(|e| a.err_at("pylist", e));
        }
    }
    literal::ragged_constant_with(n, dtype, rr, inner.as_deref(), splits_dtype)
        .map(Value::from_array)
        .map_err(|e| a.err_at("pylist", e))
}

/// A row-partitioning argument must be a vector (ValueError, found statically).
fn vector_check(a: &Args, name: &str) -> Result<()> {
    let arr = a.array(name, Some(DType::Int64))?;
    if arr.rank() != 1 {
        return Err(Error::new(
            ExceptionClass::ValueError,
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
    if let Some(v @ (Value::List(_) | Value::Tuple(_) | Value::Array(_))) = a.get(name) {
        let arr = convert::to_array(v, Some(DType::Int64)).map_err(|e| a.err_at(name, e))?;
        if arr.rank() != 0 {
            return Err(Error::new(
                ExceptionClass::ValueError,
                format!("{name} must be a scalar, but has rank {}", arr.rank()),
            )
            .at(a.span(name)));
        }
    }
    a.opt_int(name)
}

fn values_arg(a: &Args, name: &str) -> Result<Array> {
    Ok((*a.array(name, None)?).clone())
}

fn rank_check(a: &Args, name: &str, v: &Array) -> Result<()> {
    rank_check_as(a, name, v, ExceptionClass::InvalidArgumentError)
}

/// Scalar values are refused: TensorFlow finds this statically (ValueError) for some
/// factories and in the kernel (InvalidArgumentError) for others.
fn rank_check_as(a: &Args, name: &str, v: &Array, class: ExceptionClass) -> Result<()> {
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
    part: ragtag_engine::Result<RowPartition>,
    part_arg: &str,
) -> Result<Value> {
    let part = part
        .map_err(|e| a.err_at(part_arg, e))?
        .with_splits_dtype(index_dtype_of(a, part_arg));
    Ragged::from_partition(part, values)
        .map(Value::ragged)
        .map_err(|e| a.err_at(part_arg, e))
}

/// A factory from one row-partitioning vector `name` over `values` (checked to be a
/// tensor of rank at least 1): `make` builds the partition from the vector and the number
/// of values.
fn from_partition_vector(
    a: &Args,
    name: &str,
    make: impl Fn(Vec<i64>, usize) -> ragtag_engine::Result<RowPartition>,
) -> Result<Value> {
    let values = values_arg(a, "values")?;
    rank_check(a, "values", &values)?;
    vector_check(a, name)?;
    let vector = a.ints(name)?;
    let n = values.nrows();
    build(a, values, make(vector, n), name)
}

pub(super) fn from_row_splits(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    from_partition_vector(a, "row_splits", |splits, n| {
        RowPartition::from_row_splits(splits, Some(n))
    })
}

pub(super) fn from_row_lengths(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    from_partition_vector(a, "row_lengths", |lengths, n| {
        RowPartition::from_row_lengths(&lengths, Some(n))
    })
}

pub(super) fn from_value_rowids(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let values = values_arg(a, "values")?;
    rank_check_as(a, "values", &values, ExceptionClass::ValueError)?;
    vector_check(a, "value_rowids")?;
    let ids = a.ints("value_rowids")?;
    if ids.len() != values.nrows() {
        return Err(Error::new(
            ExceptionClass::ValueError,
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

pub(super) fn from_row_starts(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    from_partition_vector(a, "row_starts", |starts, n| {
        RowPartition::from_row_starts(&starts, n)
    })
}

pub(super) fn from_row_limits(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    from_partition_vector(a, "row_limits", |limits, n| {
        RowPartition::from_row_limits(&limits, n)
    })
}

pub(super) fn from_uniform_row_length(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
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
        Some(Value::List(l)) if l.cached_literal().is_none() => l.items(),
        Some(Value::Tuple(v)) => v.to_vec(),
        // Same-length tensors in a list display are stacked into one tensor.
        Some(Value::Array(arr)) if arr.dtype() == DType::Int32 => return DType::Int32,
        // A list of tensors written inline keeps each element's dtype.
        Some(Value::List(l)) => {
            let n = l.cached_literal().expect("matched above");
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
            return match n.tree() {
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
    make: impl Fn(&[i64], usize, usize) -> ragtag_engine::Result<RowPartition>,
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

pub(super) fn from_nested_row_splits(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    from_nested(a, "nested_row_splits", |l, n, _| {
        RowPartition::from_row_splits(l.to_vec(), Some(n))
    })
}

pub(super) fn from_nested_row_lengths(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    from_nested(a, "nested_row_lengths", |l, n, _| {
        RowPartition::from_row_lengths(l, Some(n))
    })
}

pub(super) fn from_nested_value_rowids(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let nrows = opt_ints(a, "nested_nrows")?;
    from_nested(a, "nested_value_rowids", |l, n, k| {
        if l.len() != n {
            return Err(ragtag_engine::value_error!(
                "value_rowids {k} has {} entries, but there are {n} values",
                l.len()
            ));
        }
        RowPartition::from_value_rowids(l, nrows.as_ref().and_then(|v| v.get(k).copied()))
    })
}
