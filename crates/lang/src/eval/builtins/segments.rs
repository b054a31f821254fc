//! Ranges and segments: `tf.ragged.range`, conversions between row splits and segment
//! ids, and segment sums.

use super::Builtin;
use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::convert;
use crate::eval::Interp;
use crate::value::Value;
use ragtag_engine::ops::segment::SegOp;
use ragtag_engine::ops::{range, segment};
use ragtag_engine::{Array, Buffer, DType, ExceptionClass, Tensor};

/// Range and segment builtins.
pub static BUILTINS: &[Builtin] = &[
    Builtin::function("tf.ragged.range", "(starts, limits=None, deltas=1, dtype=None, name=None, row_splits_dtype=tf.int64)", ragged_range)
        .doc("A ragged tensor whose row i counts from starts[i] up to (not including) limits[i] in steps of deltas[i]; with one argument, rows count from 0 up to it. Each argument may be a scalar shared by every row or a vector. The dtype is the widest of the arguments' (int32 for Python ints); `row_splits_dtype` (int64 or int32) is the row partition's.")
        .examples(&["tf.ragged.range([7, 0, 2, 3])", "tf.ragged.range([0, 5], [3, 8], 2)"]),
    Builtin::function("tf.ragged.row_splits_to_segment_ids", "(splits, out_type=None)", splits_to_ids)
        .doc("The row of each value for the given row_splits (the value_rowids encoding): value j belongs to row i when splits[i] <= j < splits[i+1]. int64 unless `out_type` or the splits' dtype says otherwise.")
        .examples(&["tf.ragged.row_splits_to_segment_ids([0, 3, 3, 5, 6, 9])"]),
    Builtin::function("tf.ragged.segment_ids_to_row_splits", "(segment_ids, num_segments=None, out_type=None)", ids_to_splits)
        .doc("The row_splits whose row i is as long as the number of ids equal to i; `num_segments` (default max id + 1) fixes the number of rows.")
        .examples(&["tf.ragged.segment_ids_to_row_splits([0, 0, 0, 2, 2, 3, 4, 4, 4])"]),
    Builtin::function("tf.math.segment_sum", "(data, segment_ids)", |_, a| sorted(a, SegOp::Sum))
        .doc("Adds up the rows of dense `data` that share a segment id; ids must be sorted and non-negative, and the result has max(id) + 1 rows (0 where an id is missing). For ragged data use unsorted_segment_sum.")
        .examples(&["tf.math.segment_sum(tf.constant([[1, 2], [3, 4], [5, 6]]), [0, 0, 1])"]),
    Builtin::function("tf.math.segment_prod", "(data, segment_ids)", |_, a| sorted(a, SegOp::Prod))
        .doc("The product of the rows of dense `data` that share a (sorted) segment id; 1 where an id is missing.")
        .examples(&["tf.math.segment_prod(tf.constant([[1, 2], [3, 4], [5, 6]]), [0, 0, 1])"]),
    Builtin::function("tf.math.segment_min", "(data, segment_ids)", |_, a| sorted(a, SegOp::Min))
        .doc("The minimum of the rows of dense `data` that share a (sorted) segment id; 0 where an id is missing.")
        .examples(&["tf.math.segment_min(tf.constant([[1, 2], [3, 4], [5, 6]]), [0, 0, 2])"]),
    Builtin::function("tf.math.segment_max", "(data, segment_ids)", |_, a| sorted(a, SegOp::Max))
        .doc("The maximum of the rows of dense `data` that share a (sorted) segment id; 0 where an id is missing.")
        .examples(&["tf.math.segment_max(tf.constant([[1, 2], [3, 4], [5, 6]]), [0, 0, 2])"]),
    Builtin::function("tf.math.segment_mean", "(data, segment_ids)", |_, a| sorted(a, SegOp::Mean))
        .doc("The mean of the rows of dense `data` that share a (sorted) segment id (integer means truncate); 0 where an id is missing.")
        .examples(&["tf.math.segment_mean(tf.constant([[1.0, 2.0], [3.0, 5.0], [5.0, 6.0]]), [0, 0, 1])"]),
    Builtin::function("tf.math.unsorted_segment_sum", "(data, segment_ids, num_segments)", |_, a| unsorted(a, SegOp::Sum))
        .doc("Adds up the rows of `data` that share a segment id, ids in any order: the result has `num_segments` rows and rows with a negative id are dropped (dense data; ragged data does not allow them). Ragged data adds up position by position; ragged ids must have the data's row lengths.")
        .examples(&["tf.math.unsorted_segment_sum(tf.constant([1, 2, 3, 4]), [1, 0, 1, -1], 3)", "tf.math.unsorted_segment_sum(tf.ragged.constant([[1, 2], [3], [4, 5, 6]]), [0, 1, 0], 2)"]),
    Builtin::function("tf.math.unsorted_segment_prod", "(data, segment_ids, num_segments)", |_, a| unsorted(a, SegOp::Prod))
        .doc("The product of the rows of `data` that share a segment id, ids in any order; 1 for an empty segment.")
        .examples(&["tf.math.unsorted_segment_prod(tf.ragged.constant([[1, 2], [3], [4, 5, 6]]), [0, 1, 0], 2)"]),
    Builtin::function("tf.math.unsorted_segment_min", "(data, segment_ids, num_segments)", |_, a| unsorted(a, SegOp::Min))
        .doc("The minimum of the rows of `data` that share a segment id, ids in any order; an empty segment gives the dtype's largest value.")
        .examples(&["tf.math.unsorted_segment_min(tf.constant([3.0, 1.0, 2.0]), [0, 0, 2], 3)"]),
    Builtin::function("tf.math.unsorted_segment_max", "(data, segment_ids, num_segments)", |_, a| unsorted(a, SegOp::Max))
        .doc("The maximum of the rows of `data` that share a segment id, ids in any order; an empty segment gives the dtype's lowest value.")
        .examples(&["tf.math.unsorted_segment_max(tf.constant([3, 1, 2]), [0, 0, 2], 3)"]),
    Builtin::function("tf.math.unsorted_segment_mean", "(data, segment_ids, num_segments)", |_, a| unsorted(a, SegOp::Mean))
        .doc("The mean of the rows of `data` that share a segment id, ids in any order; 0 for an empty segment. Integer data gives float64.")
        .examples(&["tf.math.unsorted_segment_mean(tf.ragged.constant([[1, 2], [3], [4, 5, 6]]), [0, 1, 0], 2)"]),
    Builtin::function("tf.math.unsorted_segment_sqrt_n", "(data, segment_ids, num_segments)", |_, a| unsorted(a, SegOp::SqrtN))
        .doc("The sum of the rows of `data` that share a segment id divided by the square root of their number (floats only); 0 for an empty segment.")
        .examples(&["tf.math.unsorted_segment_sqrt_n(tf.constant([1.0, 2.0, 3.0, 4.0]), [0, 1, 0, 0], 2)"]),
];

/// TensorFlow's `_infer_matching_dtype` order for ragged.range.
const RANGE_ORDER: [DType; 4] = [DType::Int32, DType::Int64, DType::Float32, DType::Float64];

fn ragged_range(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let dtype = a.dtype("dtype")?;
    let (starts, limits) = match a.get("limits") {
        None => (
            ("starts", Value::Int(0)),
            ("starts", a.value("starts").clone()),
        ),
        Some(l) => (("starts", a.value("starts").clone()), ("limits", l.clone())),
    };
    let deltas = ("deltas", a.get("deltas").cloned().unwrap_or(Value::Int(1)));
    let mut ts = Vec::new();
    for (name, v) in [starts, limits, deltas] {
        let arr = convert::to_array(&v, dtype).map_err(|e| a.err_at(name, e))?;
        let Array::Dense(t) = &*arr else {
            return Err(Error::new(
                ExceptionClass::TypeError,
                format!("{name} must be a dense scalar or vector, not a RaggedTensor"),
            )
            .at(a.span(name)));
        };
        if let Some(d) = dtype.filter(|&d| d != t.dtype()) {
            return Err(Error::new(
                ExceptionClass::ValueError,
                format!(
                    "{name} has dtype {}, but dtype={d} was requested",
                    t.dtype()
                ),
            )
            .at(a.span(name))
            .with_hint("cast it first with tf.cast"));
        }
        if !RANGE_ORDER.contains(&t.dtype()) {
            return Err(Error::new(
                ExceptionClass::TypeError,
                format!("{name} must be numeric, not {}", t.dtype()),
            )
            .at(a.span(name)));
        }
        ts.push(t.clone());
    }
    let widest = ts
        .iter()
        .map(|t| t.dtype())
        .max_by_key(|d| RANGE_ORDER.iter().position(|x| x == d))
        .expect("three");
    let cast = |t: &Tensor| -> Result<Tensor> {
        let data = ragtag_engine::ops::cast::cast_buffer(t.data(), widest)
            .map_err(|e| Error::from(e).at(a.call))?;
        Tensor::new(t.shape().to_vec(), data).map_err(|e| Error::from(e).at(a.call))
    };
    let (s, l, d) = (cast(&ts[0])?, cast(&ts[1])?, cast(&ts[2])?);
    let splits_dtype = a.dtype("row_splits_dtype")?.unwrap_or(DType::Int64);
    if !matches!(splits_dtype, DType::Int32 | DType::Int64) {
        return Err(Error::new(
            ExceptionClass::ValueError,
            format!("row_splits_dtype must be int32 or int64, not {splits_dtype}"),
        )
        .at(a.span("row_splits_dtype")));
    }
    range::ragged_range(&s, &l, &d)
        .map(|r| Value::ragged(r.with_row_splits_dtype(splits_dtype)))
        .map_err(|e| Error::from(e).at(a.call))
}

/// An integer vector argument and the dtype it came with (int64 for Python lists).
fn int_vector(a: &Args, name: &str, dtype_class: ExceptionClass) -> Result<(Vec<i64>, DType)> {
    let arr = a.array(name, Some(DType::Int64))?;
    match &*arr {
        Array::Dense(t) if t.dtype().is_int() && t.rank() == 1 => {
            Ok((t.to_i64_vec().expect("ints"), t.dtype()))
        }
        _ => {
            // TensorFlow checks the dtype first (its class differs between the two ops), then
            // the shape (ValueError).
            let class = if arr.dtype().is_int() {
                ExceptionClass::ValueError
            } else {
                dtype_class
            };
            Err(Error::new(
                class,
                format!(
                    "{name} must be a vector of integers, not a {} tensor of shape {}",
                    arr.dtype(),
                    ragtag_engine::ops::shape_str(&arr.shape())
                ),
            )
            .at(a.span(name)))
        }
    }
}

fn int_out(v: Vec<i64>, dtype: DType) -> Value {
    if dtype == DType::Int32 {
        Value::tensor(Tensor::vector(Buffer::I32(
            v.into_iter().map(|x| x as i32).collect(),
        )))
    } else {
        convert::i64_tensor(v)
    }
}

fn out_type(a: &Args, default: DType) -> Result<DType> {
    match a.dtype("out_type")? {
        None => Ok(default),
        Some(d) if d.is_int() => Ok(d),
        Some(d) => Err(Error::new(
            ExceptionClass::TypeError,
            format!("out_type must be int32 or int64, not {d}"),
        )
        .at(a.span("out_type"))),
    }
}

fn splits_to_ids(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let (splits, d) = int_vector(a, "splits", ExceptionClass::ValueError)?;
    let ids = segment::row_splits_to_segment_ids(&splits).map_err(|e| a.err_at("splits", e))?;
    Ok(int_out(ids, out_type(a, d)?))
}

fn ids_to_splits(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let (ids, d) = int_vector(a, "segment_ids", ExceptionClass::TypeError)?;
    let n = match a.get("num_segments") {
        Some(Value::List(_) | Value::Tuple(_)) => {
            return Err(Error::new(
                ExceptionClass::ValueError,
                "num_segments must be a scalar integer, not a list",
            )
            .at(a.span("num_segments")))
        }
        Some(Value::Array(t)) if t.rank() != 0 => {
            return Err(Error::new(
                ExceptionClass::ValueError,
                "num_segments must be a scalar integer",
            )
            .at(a.span("num_segments")))
        }
        _ => a.opt_int("num_segments")?,
    };
    let splits =
        segment::segment_ids_to_row_splits(&ids, n).map_err(|e| a.err_at("segment_ids", e))?;
    Ok(int_out(splits, out_type(a, d)?))
}

fn sorted(a: &Args, op: SegOp) -> Result<Value> {
    let data = a.array("data", None)?;
    let Array::Dense(data) = &*data else {
        return Err(Error::new(
            ExceptionClass::ValueError,
            format!(
                "tf.math.segment_{} takes dense data, not a RaggedTensor",
                op.name()
            ),
        )
        .at(a.span("data"))
        .with_hint(format!(
            "tf.math.unsorted_segment_{}(data, segment_ids, num_segments) takes ragged data",
            op.name()
        )));
    };
    let ids = a.array("segment_ids", None)?;
    let Array::Dense(ids) = &*ids else {
        return Err(Error::new(
            ExceptionClass::TypeError,
            "segment_ids must be a dense vector",
        )
        .at(a.span("segment_ids")));
    };
    segment::segment_op(data, ids, op)
        .map(Value::from_array)
        .map_err(|e| a.err_at("segment_ids", e))
}

fn unsorted(a: &Args, op: SegOp) -> Result<Value> {
    let data = a.array("data", None)?;
    let ids = a.array("segment_ids", None)?;
    let n = a.int("num_segments")?;
    segment::unsorted_segment_op(&data, &ids, n, op)
        .map(Value::from_array)
        .map_err(|e| a.err_at("segment_ids", e))
}
