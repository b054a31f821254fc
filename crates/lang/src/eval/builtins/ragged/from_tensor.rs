//! `tf.RaggedTensor.from_tensor`: a ragged tensor from a dense one, trimmed by `lengths`
//! (one vector, or one per ragged dimension) or by trailing `padding`.

use super::splits_dtype_arg;
use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::builtins::common::list_str;
use crate::eval::convert;
use crate::eval::Interp;
use crate::value::Value;
use ragtag_engine::{budget, Array, DType, ExceptionClass, Ragged, RowPartition, Tensor};

pub(super) fn from_tensor(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let x = a.array("tensor", None)?;
    let Array::Dense(t) = &*x else {
        return Err(Error::new(
            ExceptionClass::TypeError,
            "from_tensor needs a dense tensor",
        )
        .at(a.span("tensor")));
    };
    if t.rank() < 2 {
        return Err(Error::new(
            ExceptionClass::ValueError,
            "from_tensor needs a tensor of rank 2 or more",
        )
        .at(a.span("tensor")));
    }
    if a.get("lengths").is_some() && a.get("padding").is_some() {
        return Err(Error::new(
            ExceptionClass::ValueError,
            "Specify argument `lengths` or `padding`, but not both.",
        )
        .at(a.call));
    }
    let splits_dtype = splits_dtype_arg(a, "row_splits_dtype")?;
    let rr = a.opt_int("ragged_rank")?.unwrap_or(1);
    if rr <= 0 {
        return Err(Error::new(
            ExceptionClass::ValueError,
            format!("ragged_rank must be greater than 0; got {rr}"),
        )
        .at(a.span("ragged_rank")));
    }
    let rr = rr as usize;
    if let Some(nested) = nested_lengths(a)? {
        if rr != 1 && rr != nested.len() {
            return Err(Error::new(
                ExceptionClass::ValueError,
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
            ExceptionClass::ValueError,
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
                ExceptionClass::ValueError,
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
                ExceptionClass::ValueError,
                format!(
                    "padding must have shape {} (the tensor's shape after dimension {rr}), not {}",
                    list_str(&t.shape()[rr + 1..]),
                    list_str(pad.shape().iter().map(|d| d.map_or(-1, |d| d as i64)))
                ),
            )
            .at(a.span("padding")));
        }
        if pad.dtype() != t.dtype() {
            return Err(Error::new(
                ExceptionClass::TypeError,
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
        Some(Value::Tuple(v)) => v.to_vec(),
        Some(Value::List(l)) => l.items(),
        Some(v @ Value::Array(arr)) if arr.rank() == 2 => {
            crate::eval::subscript::iterate(v).map_err(|e| a.err_at("lengths", e))?
        }
        _ => return Ok(None),
    };
    let nested = |v: &Value| {
        matches!(v, Value::List(_) | Value::Tuple(_))
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
            ExceptionClass::ValueError,
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
                ExceptionClass::ValueError,
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
