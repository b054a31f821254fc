//! Builtins that call a function value: `tf.ragged.map_flat_values` (once, on the flat
//! values) and `tf.map_fn` (once per row).

use super::Builtin;
use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::convert;
use crate::eval::Interp;
use crate::value::Value;
use ragtag_engine::ops::concat;
use ragtag_engine::{
    budget, Array, DType, Exception, ExceptionClass, Ragged, RowPartition, Tensor,
};
use ragtag_engine::{invalid_arg, value_error};

/// Higher-order builtins.
pub static BUILTINS: &[Builtin] = &[
    Builtin::function("tf.ragged.map_flat_values", "(op, *args)", map_flat_values)
        .doc("Calls `op` once with every ragged argument replaced by its flat values, and gives the result the ragged arguments' row partitions. All ragged arguments must have the same row partitions, and `op` must return one row per flat value (an elementwise function, or a lookup such as tf.nn.embedding_lookup).")
        .examples(&[
            "tf.ragged.map_flat_values(lambda x: x * 2 + 1, tf.ragged.constant([[3, 1, 4], [], [5]]))",
            "tf.ragged.map_flat_values(tf.nn.embedding_lookup, tf.reshape(tf.range(8.0), [4, 2]), tf.ragged.constant([[3, 1], [0]]))",
        ]),
    Builtin::function(
        "tf.map_fn",
        "(fn, elems, dtype=None, parallel_iterations=None, back_prop=True, swap_memory=False, infer_shape=True, fn_output_signature=None)",
        map_fn,
    )
    .doc("Calls `fn` on each row of `elems` (or on tuples of rows when `elems` is a tuple of tensors) and stacks the results. By default each result must look like a row of `elems`: for a ragged `elems` the results may differ in length and are stacked into a ragged tensor. With `fn_output_signature` (or `dtype`) set to a dtype the results are stacked into a dense tensor of that dtype, e.g. one number per row.")
    .examples(&[
        "tf.map_fn(tf.math.square, tf.ragged.constant([[3, 1, 4], [], [5, 9]]))",
        "tf.map_fn(tf.reduce_sum, tf.ragged.constant([[3, 1, 4], [], [5, 9]]), fn_output_signature=tf.int32)",
        "tf.map_fn(lambda x: x * 2, tf.constant([1, 2, 3]))",
    ]),
];

/// Replaces every ragged tensor in `v` (also inside lists and tuples) by its flat values,
/// recording the first one's partitions and checking the others against them.
fn replace_ragged(
    v: &Value,
    parts: &mut Option<Vec<RowPartition>>,
) -> std::result::Result<Value, Exception> {
    Ok(match v {
        Value::Array(a) => match &**a {
            Array::Ragged(r) => {
                match parts {
                    None => *parts = Some(r.partitions().to_vec()),
                    Some(p) => {
                        if p.len() != r.ragged_rank() {
                            return Err(value_error!(
                                "the ragged arguments have different ragged ranks ({} and {})",
                                p.len(),
                                r.ragged_rank()
                            ));
                        }
                        if p.iter()
                            .zip(r.partitions())
                            .any(|(x, y)| x.row_splits() != y.row_splits())
                        {
                            return Err(invalid_arg!("the ragged arguments have different row partitions")
                                .with_hint("map_flat_values pairs up flat values, so every ragged argument needs the same row lengths"));
                        }
                    }
                }
                Value::tensor(r.flat_values().clone())
            }
            Array::Dense(_) => v.clone(),
        },
        Value::List(l) => crate::value::relist(
            l.items()
                .iter()
                .map(|x| replace_ragged(x, parts))
                .collect::<std::result::Result<_, _>>()?,
            l.is_display(),
        ),
        Value::Tuple(items) => Value::tuple(
            items
                .iter()
                .map(|x| replace_ragged(x, parts))
                .collect::<std::result::Result<_, _>>()?,
        ),
        _ => v.clone(),
    })
}

fn map_flat_values(interp: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let op = a.value("op").clone();
    let mut parts = None;
    let mut args = Vec::new();
    for (v, span) in a.rest() {
        args.push(replace_ragged(v, &mut parts).map_err(|e| Error::from(e).at(*span))?);
    }
    let out = interp.call_values(&op, args, a.call)?;
    let Some(parts) = parts else {
        return Ok(out);
    };
    let nvals = parts.last().map_or(0, |p| p.nvals());
    let arr = convert::to_array(&out, None).map_err(|e| a.err_at("op", e))?;
    if arr.rank() == 0 || arr.nrows() != nvals {
        let got = if arr.rank() == 0 {
            "a scalar".to_string()
        } else {
            format!("{} rows", arr.nrows())
        };
        return Err(Error::new(
            ExceptionClass::ValueError,
            format!("op returned {got}, but the ragged input has {nvals} flat values: it must return one row per value"),
        )
        .at(a.span("op"))
        .with_hint("map_flat_values needs an elementwise op; to reduce each row use tf.map_fn or a reduction with axis"));
    }
    let mut result = (*arr).clone();
    for p in parts.into_iter().rev() {
        result = Array::Ragged(
            Ragged::from_partition(p, result).map_err(|e| Error::from(e).at(a.call))?,
        );
    }
    Ok(Value::from_array(result))
}

/// What map_fn stacks results into.
#[derive(Debug, Clone, Copy)]
enum Spec {
    /// A dense tensor of this dtype.
    Dense(DType),
    /// A ragged tensor whose rows have this dtype, rank and ragged rank.
    Ragged {
        dtype: DType,
        rank: usize,
        row_ragged_rank: usize,
    },
}

fn default_spec(elems: &Array) -> Spec {
    match elems {
        Array::Dense(t) => Spec::Dense(t.dtype()),
        Array::Ragged(r) => Spec::Ragged {
            dtype: r.dtype(),
            rank: r.rank() - 1,
            row_ragged_rank: r.ragged_rank() - 1,
        },
    }
}

fn signature(a: &Args, elems: &[Array]) -> Result<Vec<Spec>> {
    let sig = a.get("fn_output_signature").or_else(|| a.get("dtype"));
    let one = |v: &Value| -> Result<Spec> {
        if let Value::Spec(spec) = v {
            // A RaggedTensorSpec describes one result: its rank and ragged rank are a row's.
            return match (&spec.shape, spec.ragged) {
                (_, false) => Ok(Spec::Dense(spec.dtype)),
                (Some(dims), true) => Ok(Spec::Ragged {
                    dtype: spec.dtype,
                    rank: dims.len(),
                    row_ragged_rank: spec.ragged_rank,
                }),
                (None, true) => Err(Error::new(
                    ExceptionClass::ValueError,
                    "fn_output_signature needs a RaggedTensorSpec with a shape of known rank",
                )
                .at(a.span("fn_output_signature"))),
            };
        }
        convert::to_dtype(v).map(Spec::Dense).map_err(|_| {
            Error::new(
                ExceptionClass::TypeError,
                format!(
                    "fn_output_signature must be a dtype, a tf.TensorSpec or a tf.RaggedTensorSpec, not a {}",
                    v.type_name()
                ),
            )
            .at(a.span("fn_output_signature"))
        })
    };
    match sig {
        None => Ok(elems.iter().map(default_spec).collect()),
        Some(v @ (Value::Tuple(_) | Value::List(_))) => {
            crate::value::subscript_items(v).iter().map(one).collect()
        }
        Some(v) => Ok(vec![one(v)?]),
    }
}

fn map_fn(interp: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let f = a.value("fn").clone();
    let (elems, structured) = match a.value("elems") {
        v @ (Value::Tuple(_) | Value::List(_)) if !v.is_literal_display() => {
            let arrays = crate::value::subscript_items(v)
                .iter()
                .map(|v| convert::to_array(v, None).map(|x| (*x).clone()))
                .collect::<std::result::Result<Vec<_>, _>>()
                .map_err(|e| a.err_at("elems", e))?;
            (arrays, true)
        }
        _ => (vec![(*a.array("elems", None)?).clone()], false),
    };
    if elems.is_empty() {
        return Err(Error::new(
            ExceptionClass::ValueError,
            "elems must hold at least one tensor",
        )
        .at(a.span("elems")));
    }
    if elems.iter().any(|e| e.rank() == 0) {
        return Err(Error::new(
            ExceptionClass::ValueError,
            "elems must have at least one dimension to map over, not be a scalar",
        )
        .at(a.span("elems")));
    }
    let n = elems.first().map_or(0, |e| e.nrows());
    if let Some(e) = elems.iter().find(|e| e.nrows() != n) {
        return Err(Error::new(
            ExceptionClass::ValueError,
            format!(
                "the tensors in elems have different numbers of rows ({n} and {})",
                e.nrows()
            ),
        )
        .at(a.span("elems")));
    }
    let specs = signature(a, &elems)?;
    let mut results: Vec<Vec<Value>> = Vec::new();
    for _ in &specs {
        results.push(budget::vec("tf.map_fn", n).map_err(|e| Error::from(e).at(a.call))?);
    }
    // Every row's results live until they are stacked: their total counts against the
    // budget, so many small results cannot pile up past it.
    let mut tally = budget::Tally::new("tf.map_fn (the results of all rows)");
    for i in 0..n {
        interp.check_cancel()?;
        let rows = elems
            .iter()
            .map(|e| e.row(i as i64).map(Value::from_array))
            .collect::<std::result::Result<Vec<_>, _>>()
            .map_err(|e| Error::from(e).at(a.call))?;
        let arg = if structured {
            Value::tuple(rows)
        } else {
            rows.into_iter().next().expect("one elems")
        };
        let out = interp.call_values(&f, vec![arg], a.call)?;
        let outs =
            match (&out, specs.len()) {
                (Value::Tuple(items), k) if k > 1 && items.len() == k => items.to_vec(),
                (Value::Tuple(_), _) => return Err(Error::new(
                    ExceptionClass::ValueError,
                    format!(
                        "fn returned {}, but map_fn expected one tensor per row",
                        describe_count(&out)
                    ),
                )
                .at(a.span("fn"))
                .with_hint(
                    "for several results per row, pass a tuple of dtypes as fn_output_signature",
                )),
                (_, 1) => vec![out],
                _ => {
                    return Err(Error::new(
                        ExceptionClass::ValueError,
                        format!(
                            "fn returned {}, but fn_output_signature has {} parts",
                            describe_count(&out),
                            specs.len()
                        ),
                    )
                    .at(a.span("fn")))
                }
            };
        for (slot, v) in results.iter_mut().zip(outs) {
            tally
                .add(value_bytes(&v))
                .map_err(|e| Error::from(e).at(a.call))?;
            slot.push(v);
        }
    }
    let mut stacked = Vec::new();
    for (spec, vals) in specs.iter().zip(results) {
        stacked.push(assemble(*spec, &vals, &elems[0]).map_err(|e| a.err_at("fn", e))?);
    }
    if stacked.len() == 1 {
        Ok(stacked.pop().expect("one result"))
    } else {
        Ok(Value::tuple(stacked))
    }
}

/// The bytes a value holds (a tensor's buffers; a few words for anything else).
fn value_bytes(v: &Value) -> u128 {
    let word = std::mem::size_of::<Value>() as u128;
    match v {
        Value::Array(a) => word + a.flat_values().data().byte_size() as u128,
        Value::List(_) | Value::Tuple(_) => {
            word + crate::value::subscript_items(v)
                .iter()
                .map(value_bytes)
                .sum::<u128>()
        }
        Value::Str(s) => word + s.len() as u128,
        _ => word,
    }
}

fn describe_count(v: &Value) -> String {
    match v {
        Value::Tuple(items) => format!("a tuple of {}", items.len()),
        _ => "one value".to_string(),
    }
}

fn dtype_mismatch(i: usize, got: DType, want: DType) -> Exception {
    invalid_arg!("fn returned a {got} tensor for row {i}, but map_fn expected {want}").with_hint(
        format!("pass fn_output_signature=tf.{got} when fn changes the dtype"),
    )
}

/// Stacks the per-row results of map_fn as `spec` says.
fn assemble(spec: Spec, vals: &[Value], elems: &Array) -> std::result::Result<Value, Exception> {
    match spec {
        Spec::Dense(dtype) => {
            let mut ts = Vec::new();
            for (i, v) in vals.iter().enumerate() {
                let arr = convert::to_array(v, Some(dtype))?;
                let Array::Dense(t) = &*arr else {
                    return Err(value_error!(
                        "fn returned a RaggedTensor for row {i}, but map_fn was asked for a dense result"
                    ));
                };
                if t.dtype() != dtype {
                    return Err(dtype_mismatch(i, t.dtype(), dtype));
                }
                ts.push(t.clone());
            }
            if ts.is_empty() {
                return Ok(Value::tensor(Tensor::new(
                    vec![0],
                    ragtag_engine::Buffer::empty(dtype),
                )?));
            }
            let refs: Vec<&Tensor> = ts.iter().collect();
            // TensorFlow's TensorArray refuses a result whose shape differs from the first
            // one's with a ValueError.
            concat::stack_dense(&refs, 0).map(Value::tensor).map_err(|e| {
                value_error!("fn's results cannot be stacked: {}", e.message)
                    .with_hint("results of different lengths need a ragged result: leave fn_output_signature out for ragged elems")
            })
        }
        Spec::Ragged {
            dtype,
            rank,
            row_ragged_rank,
        } => {
            if vals.is_empty() {
                return Ok(Value::from_array(elems.clone()));
            }
            let mut rows = Vec::new();
            for (i, v) in vals.iter().enumerate() {
                let arr = (*convert::to_array(v, Some(dtype))?).clone();
                if arr.rank() != rank {
                    return Err(value_error!(
                        "fn returned a value of rank {} for row {i}, but the rows of elems have rank {rank}",
                        arr.rank()
                    )
                    .with_hint("to get one value per row, pass fn_output_signature with the result dtype, e.g. tf.int32"));
                }
                if arr.dtype() != dtype {
                    // A ragged signature checks compatibility itself, with a ValueError.
                    let e = dtype_mismatch(i, arr.dtype(), dtype);
                    return Err(Exception {
                        class: ExceptionClass::ValueError,
                        ..e
                    });
                }
                let arr = match arr {
                    Array::Dense(t) if row_ragged_rank > 0 => Array::Ragged(Ragged::from_tensor_uniform(&t, row_ragged_rank)?),
                    Array::Ragged(r) if r.ragged_rank() > row_ragged_rank => {
                        return Err(value_error!(
                            "fn returned a tensor of ragged rank {} for row {i}, but the rows of elems have ragged rank {row_ragged_rank}",
                            r.ragged_rank()
                        ))
                    }
                    Array::Ragged(r) => Array::Ragged(r.with_ragged_rank(row_ragged_rank)?),
                    dense => dense,
                };
                rows.push(arr);
            }
            let lengths: Vec<i64> = rows.iter().map(|r| r.nrows() as i64).collect();
            let values = concat::concat(&rows, 0)?;
            let p = RowPartition::from_row_lengths(&lengths, None)?;
            Ok(Value::ragged(Ragged::from_partition(p, values)?))
        }
    }
}
