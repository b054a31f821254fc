//! Ragged tensors: `tf.ragged.constant`, the `tf.RaggedTensor.from_*` factories, and the
//! accessors of every row-partition encoding.

use std::sync::Arc;

use super::Builtin;
use crate::diagnostic::{Error, Result};
use crate::engine::literal;
use crate::engine::{budget, Array, ErrorClass, Ragged, RowPartition, Scalar, Tensor};
use crate::eval::args::Args;
use crate::eval::convert::{self, i64_tensor};
use crate::eval::Interp;
use crate::value::Value;

/// Ragged factories, properties and methods.
pub static BUILTINS: &[Builtin] = &[
    Builtin::function("tf.ragged.constant", "(pylist, dtype=None, ragged_rank=None, inner_shape=None)", constant)
        .doc("A ragged tensor from a nested list whose rows may differ in length. Every scalar must have the same type and the same nesting depth; ragged_rank defaults to the depth minus one.")
        .examples(&[
            "tf.ragged.constant([[3, 1, 4, 1], [], [5, 9, 2], [6], []])",
            "tf.ragged.constant([[[1, 2], [3]], [[4, 5]]])",
            "tf.ragged.constant([[[1, 2], [3, 4]], [[5, 6]]], ragged_rank=1)",
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
    Builtin::function("tf.RaggedTensor.from_tensor", "(tensor, lengths=None, padding=None, ragged_rank=1)", from_tensor)
        .doc("A ragged tensor from a dense one: each row keeps its first `lengths[i]` values, or drops trailing `padding` values.")
        .examples(&["tf.RaggedTensor.from_tensor([[1, 3, -1, -1], [2, -1, -1, -1], [4, 5, 8, 9]], padding=-1)"]),
    Builtin::property("tf.RaggedTensor.values", values)
        .doc("The values one level down, concatenated: a ragged tensor for ragged_rank > 1, else a dense tensor.")
        .examples(&["tf.ragged.constant([[3, 1, 4], [], [5, 9]]).values"]),
    Builtin::property("tf.RaggedTensor.flat_values", flat_values)
        .doc("The innermost values of every ragged dimension, as one dense tensor.")
        .examples(&["tf.ragged.constant([[[1, 2], [3]], [], [[4]]]).flat_values"]),
    Builtin::property("tf.RaggedTensor.row_splits", row_splits)
        .doc("Where each row starts and ends in `values` (nrows + 1 int64 offsets).")
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
        .doc("The length of each row (of dimension `axis`).")
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
    Builtin::method("tf.RaggedTensor.nrows", "(self)", nrows)
        .doc("The number of rows, as a scalar int64 tensor.")
        .examples(&["tf.ragged.constant([[3, 1], [], [5]]).nrows()"]),
    Builtin::method("tf.RaggedTensor.bounding_shape", "(self, axis=None)", bounding_shape)
        .doc("The smallest dense shape that holds every row (int64).")
        .examples(&["tf.ragged.constant([['Hi'], ['How', 'are', 'you']]).bounding_shape()"]),
    Builtin::method("tf.RaggedTensor.to_list", "(self)", to_list)
        .doc("The values as nested Python lists.")
        .examples(&["tf.ragged.constant([[1, 2], [3]]).to_list()"]),
    Builtin::method("tf.RaggedTensor.to_tensor", "(self, default_value=None, shape=None)", to_tensor)
        .doc("Pads every row with `default_value` (zero, '' or False by default) into a dense tensor; `shape` may truncate or widen.")
        .examples(&["tf.ragged.constant([['Hi'], ['Welcome', 'to', 'the', 'fair']]).to_tensor(default_value='')"]),
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
    let rr = a.opt_int("ragged_rank")?.map(|r| r.max(0) as usize);
    let inner: Option<Vec<usize>> = match a.get("inner_shape") {
        None => None,
        Some(_) => Some(
            a.ints("inner_shape")?
                .into_iter()
                .map(|d| d.max(0) as usize)
                .collect(),
        ),
    };
    literal::ragged_constant(&n, dtype, rr, inner.as_deref())
        .map(Value::from_array)
        .map_err(|e| a.err_at("pylist", e))
}

fn values_arg(a: &Args, name: &str) -> Result<Array> {
    Ok((*a.array(name, None)?).clone())
}

fn rank_check(a: &Args, name: &str, v: &Array) -> Result<()> {
    if v.rank() == 0 {
        return Err(Error::new(
            ErrorClass::ValueError,
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
    let part = part.map_err(|e| a.err_at(part_arg, e))?;
    Ragged::from_partition(part, values)
        .map(Value::ragged)
        .map_err(|e| a.err_at(part_arg, e))
}

fn from_row_splits(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let values = values_arg(a, "values")?;
    rank_check(a, "values", &values)?;
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
    rank_check(a, "values", &values)?;
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
    let nrows = a.opt_int("nrows")?;
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
    let len = a.int("uniform_row_length")?;
    let nrows = a.opt_int("nrows")?;
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

fn from_nested(
    a: &Args,
    name: &str,
    make: impl Fn(&[i64], usize, usize) -> crate::engine::Result<RowPartition>,
) -> Result<Value> {
    let mut values = values_arg(a, "flat_values")?;
    rank_check(a, "flat_values", &values)?;
    let lists = nested_lists(a, name)?;
    for (k, l) in lists.iter().enumerate().rev() {
        let part = make(l, values.nrows(), k).map_err(|e| a.err_at(name, e))?;
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
    let rr = a.opt_int("ragged_rank")?.unwrap_or(1).max(1) as usize;
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
        let pad = pad.flat_values().data().clone();
        if pad.is_empty() {
            return Err(Error::new(
                ErrorClass::ValueError,
                "padding must hold a value (a scalar, or one value per inner element), not be empty",
            )
            .at(a.span("padding")));
        }
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
    Ok(Value::ragged(result))
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
    Ok(i64_tensor(ragged_self(a)?.outer().row_splits().to_vec()))
}

fn each_partition(a: &Args, f: impl Fn(&RowPartition) -> Vec<i64>) -> Result<Value> {
    let r = ragged_self(a)?;
    Ok(Value::tuple(
        r.partitions().iter().map(|p| i64_tensor(f(p))).collect(),
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
    if axis < 1 || axis > r.ragged_rank() as i64 {
        return Err(Error::new(
            ErrorClass::ValueError,
            format!(
                "axis must be between 1 and ragged_rank ({}), got {axis}",
                r.ragged_rank()
            ),
        )
        .at(a.span("axis")));
    }
    if axis == 1 {
        return Ok(i64_tensor(r.row_lengths().to_vec()));
    }
    // Lengths of dimension `axis`, shaped like the dimensions above it.
    let part = &r.partitions()[axis as usize - 1];
    let lengths = Tensor::from_i64(part.row_lengths().to_vec());
    let mut arr = Array::Dense(lengths);
    for p in r.partitions()[..axis as usize - 1].iter().rev() {
        arr =
            Array::Ragged(Ragged::from_partition(p.clone(), arr).map_err(|e| a.err_at("axis", e))?);
    }
    Ok(Value::from_array(arr))
}

fn row_starts(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    Ok(i64_tensor(ragged_self(a)?.outer().row_starts().to_vec()))
}

fn row_limits(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    Ok(i64_tensor(ragged_self(a)?.outer().row_limits().to_vec()))
}

fn value_rowids(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    Ok(i64_tensor(ragged_self(a)?.outer().value_rowids().to_vec()))
}

fn nrows(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    Ok(Value::tensor(Tensor::scalar(Scalar::I64(
        me(a)?.nrows() as i64
    ))))
}

fn bounding_shape(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let r = ragged_self(a)?;
    let shape: Vec<i64> = r.bounding_shape().into_iter().map(|d| d as i64).collect();
    match a.opt_int("axis")? {
        None => Ok(i64_tensor(shape)),
        Some(ax) => {
            let k = crate::engine::tensor::normalize_index(ax, shape.len()).ok_or_else(|| {
                Error::new(ErrorClass::ValueError, format!("axis {ax} is out of range"))
                    .at(a.span("axis"))
            })?;
            Ok(Value::tensor(Tensor::scalar(Scalar::I64(shape[k]))))
        }
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
    let default = match a.get("default_value") {
        None => Scalar::default_of(r.dtype()),
        Some(v) => {
            convert::to_scalar(v, Some(r.dtype())).map_err(|e| a.err_at("default_value", e))?
        }
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
    r.to_tensor(&default, shape.as_deref())
        .map(Value::tensor)
        .map_err(|e| Error::from(e).at(a.call))
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
