//! Ordering and counting: `tf.sort`, `tf.argsort`, `tf.math.top_k`, `tf.math.argmax` /
//! `argmin`, `tf.unique` / `tf.unique_with_counts`, `tf.searchsorted` and
//! `tf.math.bincount` (which also counts a RaggedTensor's values, as TensorFlow's dispatch
//! does).

use super::layout::{dense_arg, index_tensor};
use super::Builtin;
use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::Interp;
use crate::value::Value;
use ragtag_engine::ops::order;
use ragtag_engine::{Array, Buffer, DType, ExceptionClass, Tensor};

/// Ordering builtins.
pub static BUILTINS: &[Builtin] = &[
    Builtin::function("tf.sort", "(values, axis=-1, direction='ASCENDING', name=None)", |_, a| sort(a, false))
        .doc("The values sorted along `axis` (default the last), in `ASCENDING` or `DESCENDING` order; equal values keep their order.")
        .examples(&["tf.sort(tf.constant([[3, 1, 2], [9, 7, 8]]), direction='DESCENDING')"]),
    Builtin::function("tf.argsort", "(values, axis=-1, direction='ASCENDING', stable=False, name=None)", |_, a| sort(a, true))
        .doc("The int32 indices that sort `values` along `axis` (default the last); equal values keep their order.")
        .examples(&["tf.argsort(tf.constant([3.0, 1.0, 2.0]))"]),
    Builtin::function("tf.math.top_k", "(input, k=1, sorted=True, index_type=tf.int32, name=None)", top_k)
        .doc("The `k` largest values along the last axis, largest first, and their indices, as a (values, indices) tuple; among equal values the earlier comes first.")
        .aliases(&["tf.nn.top_k"])
        .examples(&["tf.math.top_k(tf.constant([1, 5, 3, 5]), k=2)"]),
    Builtin::function("tf.math.argmax", "(input, axis=None, output_type=tf.int64, name=None)", |_, a| arg_extreme(a, true))
        .doc("The index of the largest value along `axis` (default 0); the first one when several are equal.")
        .examples(&["tf.math.argmax(tf.constant([[1, 9], [5, 2]]), axis=1)"]),
    Builtin::function("tf.math.argmin", "(input, axis=None, output_type=tf.int64, name=None)", |_, a| arg_extreme(a, false))
        .doc("The index of the smallest value along `axis` (default 0); the first one when several are equal.")
        .examples(&["tf.math.argmin(tf.constant([[1, 9], [5, 2]]), axis=1)"]),
    Builtin::function("tf.unique", "(x, out_idx=tf.int32, name=None)", |_, a| unique(a, false))
        .doc("The distinct values of a vector in order of first appearance, and for each element the index of its value among them, as a (y, idx) tuple.")
        .examples(&["tf.unique(tf.constant([1, 1, 2, 4, 4, 4, 7, 8, 8]))"]),
    Builtin::function("tf.unique_with_counts", "(x, out_idx=tf.int32, name=None)", |_, a| unique(a, true))
        .doc("tf.unique plus how often each distinct value occurs, as a (y, idx, count) tuple.")
        .examples(&["tf.unique_with_counts(tf.constant(['a', 'b', 'a']))"]),
    Builtin::function("tf.searchsorted", "(sorted_sequence, values, side='left', out_type=tf.int32, name=None)", searchsorted)
        .doc("For each value, where it would go in the matching innermost row of `sorted_sequence` to keep it sorted: before equal elements (`side='left'`) or after them (`'right'`).")
        .examples(&["tf.searchsorted([0.0, 1.0, 2.0, 3.0], [1.5, 3.0, -1.0])", "tf.searchsorted([[1, 3], [2, 4]], [[3], [3]], side='right')"]),
    Builtin::function("tf.math.bincount", "(arr, weights=None, minlength=None, maxlength=None, dtype=tf.int32, name=None, axis=None, binary_output=False)", bincount)
        .doc("How often each value 0, 1, … occurs in `arr` (or the sum of its `weights`): max(arr) + 1 bins, at least `minlength` and at most `maxlength`. With axis=-1 each row of a matrix (or ragged row) is counted on its own. `binary_output` records only whether a value occurs.")
        .examples(&["tf.math.bincount(tf.ragged.constant([[1, 1, 3], [], [0]]))", "tf.math.bincount([[1, 2, 2], [0, 0, 1]], axis=-1)"]),
];

/// An `axis` argument (absent: `default`) of a dense tensor, InvalidArgumentError out of range.
fn axis_of(a: &Args, t: &Tensor, default: i64) -> Result<usize> {
    let axis = a.opt_int("axis")?.unwrap_or(default);
    ragtag_engine::ops::positive_axis(axis, t.rank(), ExceptionClass::InvalidArgumentError, "axis")
        .map_err(|e| a.err_at("axis", e))
}

/// An integer dtype argument among `allowed` (an InvalidArgumentError otherwise, as
/// TensorFlow's attribute check).
fn index_dtype(a: &Args, name: &str, default: DType, allowed: &[DType]) -> Result<DType> {
    let d = a.dtype(name)?.unwrap_or(default);
    if allowed.contains(&d) {
        return Ok(d);
    }
    let names: Vec<&str> = allowed.iter().map(|d| d.name()).collect();
    Err(Error::new(
        ExceptionClass::InvalidArgumentError,
        format!(
            "Value for attr '{name}' of {d} is not in the list of allowed values: {}",
            names.join(", ")
        ),
    )
    .at(a.span(name)))
}

fn sort(a: &Args, indices: bool) -> Result<Value> {
    let t = dense_arg(a, "values", None)?;
    let descending = match a.value("direction") {
        Value::None => false,
        Value::Str(s) if s.as_str() == "ASCENDING" => false,
        Value::Str(s) if s.as_str() == "DESCENDING" => true,
        other => {
            return Err(Error::new(
                ExceptionClass::ValueError,
                format!(
                    "Argument `direction` should be one of ASCENDING, DESCENDING. Received: direction={}",
                    crate::render::tf_text::str_of(other)
                ),
            )
            .at(a.span("direction")))
        }
    };
    let axis = axis_of(a, &t, -1)?;
    if !indices {
        return order::sort_values(a.builtin().name, &t, axis, descending)
            .map(Value::tensor)
            .map_err(|e| a.err_at("values", e));
    }
    let (_, idx) = order::sort_positions(a.builtin().name, &t, axis, descending)
        .map_err(|e| a.err_at("values", e))?;
    Ok(Value::tensor(index_tensor(
        t.shape().to_vec(),
        idx,
        DType::Int32,
    )))
}

fn top_k(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let t = dense_arg(a, "input", None)?;
    let k = a.opt_int("k")?.unwrap_or(1);
    let d = index_dtype(
        a,
        "index_type",
        DType::Int32,
        &[DType::Int16, DType::Int32, DType::Int64],
    )?;
    let (values, idx) = order::top_k(&t, k).map_err(|e| a.err_at("input", e))?;
    let idx = index_tensor(values.shape().to_vec(), idx, d);
    Ok(Value::tuple(vec![
        Value::tensor(values),
        Value::tensor(idx),
    ]))
}

fn arg_extreme(a: &Args, max: bool) -> Result<Value> {
    let t = dense_arg(a, "input", None)?;
    let d = index_dtype(
        a,
        "output_type",
        DType::Int64,
        &[DType::Int16, DType::UInt16, DType::Int32, DType::Int64],
    )?;
    let axis = a.opt_int("axis")?.unwrap_or(0);
    let rank = t.rank() as i64;
    if axis < -rank || axis >= rank {
        return Err(Error::new(
            ExceptionClass::InvalidArgumentError,
            format!(
                "Expected dimension in the range [{}, {rank}), but got {axis}",
                -rank
            ),
        )
        .at(a.span("axis")));
    }
    let k = if axis < 0 { axis + rank } else { axis } as usize;
    let idx = order::arg_extreme(&t, k, max).map_err(|e| a.err_at("input", e))?;
    let mut shape = t.shape().to_vec();
    shape.remove(k);
    Ok(Value::tensor(index_tensor(shape, idx, d)))
}

fn unique(a: &Args, counts: bool) -> Result<Value> {
    let t = dense_arg(a, "x", None)?;
    let d = index_dtype(a, "out_idx", DType::Int32, &[DType::Int32, DType::Int64])?;
    let (y, idx, cnt) = order::unique(&t).map_err(|e| a.err_at("x", e))?;
    let n = idx.len();
    let mut out = vec![
        Value::tensor(Tensor::vector(y)),
        Value::tensor(index_tensor(vec![n], idx, d)),
    ];
    if counts {
        out.push(Value::tensor(index_tensor(vec![cnt.len()], cnt, d)));
    }
    Ok(Value::tuple(out))
}

fn searchsorted(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let s = dense_arg(a, "sorted_sequence", None)?;
    let v = dense_arg(a, "values", Some(s.dtype()))?;
    let right = match a.value("side") {
        Value::None => false,
        Value::Str(x) if x.as_str() == "left" => false,
        Value::Str(x) if x.as_str() == "right" => true,
        other => {
            return Err(Error::new(
                ExceptionClass::ValueError,
                format!(
                    "Argument `side` must be either 'right' or 'left'. Received: `side` = {}.",
                    crate::render::tf_text::str_of(other)
                ),
            )
            .at(a.span("side")))
        }
    };
    let d = index_dtype(a, "out_type", DType::Int32, &[DType::Int32, DType::Int64])?;
    let idx = order::searchsorted(&s, &v, right).map_err(|e| a.err_at("values", e))?;
    Ok(Value::tensor(index_tensor(v.shape().to_vec(), idx, d)))
}

fn bincount(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let arr = a.array("arr", Some(DType::Int32))?;
    let axis = a.opt_int("axis")?;
    let binary = a.flag("binary_output", false)?;
    // The rows counted on their own: one row of everything, or each row for axis=-1.
    let (values, rows): (Tensor, Vec<(usize, usize)>) = match (&*arr, axis) {
        (Array::Dense(t), None | Some(0)) => (t.clone(), vec![(0, t.size())]),
        (Array::Ragged(r), None | Some(0)) => {
            let fv = r.flat_values().clone();
            let n = fv.size();
            (fv, vec![(0, n)])
        }
        (Array::Dense(t), Some(-1)) if t.rank() == 2 => {
            let w = t.shape()[1];
            (
                t.clone(),
                (0..t.shape()[0]).map(|i| (i * w, (i + 1) * w)).collect(),
            )
        }
        (Array::Ragged(r), Some(-1)) if r.rank() == 2 && r.flat_values().rank() == 1 => {
            let splits = r.outer().row_splits();
            (
                r.flat_values().clone(),
                splits
                    .windows(2)
                    .map(|w| (w[0] as usize, w[1] as usize))
                    .collect(),
            )
        }
        _ => {
            return Err(Error::new(
                ExceptionClass::ValueError,
                "Unsupported axis value: axis must be None, 0 or -1 (and -1 needs a matrix)",
            )
            .at(a.span("axis")))
        }
    };
    if rows.len() == 1 && !binary && a.get("weights").is_none() {
        if let Some(counted) = bincount_ints(a, &values)? {
            return Ok(counted);
        }
    }
    // Float values count as the ints they truncate to, as TensorFlow casts them.
    let Some(v) = values
        .to_i64_vec()
        .or_else(|| {
            values
                .data()
                .to_f64_vec()
                .map(|f| f.iter().map(|&x| x as i64).collect())
        })
        .filter(|_| values.dtype().is_numeric())
    else {
        return Err(Error::new(
            ExceptionClass::InvalidArgumentError,
            format!("arr must hold integers, not {}", values.dtype()),
        )
        .at(a.span("arr")));
    };
    if v.iter().any(|&x| x < 0) {
        return Err(Error::new(
            ExceptionClass::InvalidArgumentError,
            "Input arr must be non-negative!",
        )
        .at(a.span("arr")));
    }
    let mut size = v.iter().max().map_or(0, |&m| m + 1);
    if let Some(m) = a.opt_int("minlength")? {
        size = size.max(m);
    }
    if let Some(m) = a.opt_int("maxlength")? {
        size = size.min(m.max(0));
    }
    let size = size.max(0) as usize;
    let weights = match a.get("weights") {
        Some(_) => {
            let w = a.array("weights", None)?;
            let w = w.flat_values().clone();
            if w.size() != v.len() {
                return Err(Error::new(
                    ExceptionClass::InvalidArgumentError,
                    format!(
                        "Input indices and weights must have the same size: {} vs {}",
                        v.len(),
                        w.size()
                    ),
                )
                .at(a.span("weights")));
            }
            Some(w)
        }
        None => None,
    };
    let out_dtype = match &weights {
        Some(w) if !binary => w.dtype(),
        _ => a.dtype("dtype")?.unwrap_or(DType::Int32),
    };
    let nrows = rows.len();
    let shape = if axis == Some(-1) {
        vec![nrows, size]
    } else {
        vec![size]
    };
    ragtag_engine::budget::check_shape("tf.math.bincount", &shape, 8)
        .map_err(|e| a.err_at("arr", e))?;
    let wv = weights.as_ref().and_then(|w| w.data().to_f64_vec());
    let mut acc: Vec<f64> = (0..nrows * size).map(|_| 0.0).collect();
    for (r, &(s, e)) in rows.iter().enumerate() {
        ragtag_engine::interrupt::check().map_err(|e| Error::from(e).at(a.call))?;
        for (i, &x) in v.iter().enumerate().take(e).skip(s) {
            let x = x as usize;
            if x < size {
                let slot = &mut acc[r * size + x];
                *slot = if binary {
                    1.0
                } else {
                    *slot + wv.as_ref().map_or(1.0, |w| w[i])
                };
            }
        }
    }
    let data = Buffer::from_f64s(acc, out_dtype);
    Ok(Value::tensor(Tensor::from_parts(shape, data)))
}

/// `tf.math.bincount` of integer values without weights, in one pass on every core (None
/// for other values): the answers and errors of the general path.
fn bincount_ints(a: &Args, values: &Tensor) -> Result<Option<Value>> {
    use ragtag_engine::ops::segment_fast;
    if !values.dtype().is_int() {
        return Ok(None);
    }
    // Small non-negative values are counted in the pass that finds the largest.
    let once = segment_fast::bincount_small(values.data()).map_err(|e| a.err_at("arr", e))?;
    let range = match &once {
        Some(counts) => Some((0, counts.len() as i64 - 1)).filter(|_| !counts.is_empty()),
        None => segment_fast::int_range(values.data()),
    };
    if range.is_some_and(|(lo, _)| lo < 0) {
        return Err(Error::new(
            ExceptionClass::InvalidArgumentError,
            "Input arr must be non-negative!",
        )
        .at(a.span("arr")));
    }
    let mut size = range.map_or(0, |(_, hi)| hi.saturating_add(1));
    if let Some(m) = a.opt_int("minlength")? {
        size = size.max(m);
    }
    if let Some(m) = a.opt_int("maxlength")? {
        size = size.min(m.max(0));
    }
    let size = size.max(0) as usize;
    let out_dtype = a.dtype("dtype")?.unwrap_or(DType::Int32);
    ragtag_engine::budget::check_shape("tf.math.bincount", &[size], 8)
        .map_err(|e| a.err_at("arr", e))?;
    let counts = match once {
        Some(mut counts) => {
            // Cut to maxlength, or zeros up to minlength (checked against the budget above).
            counts.truncate(size);
            let more = size - counts.len();
            counts.extend(std::iter::repeat_n(0, more));
            counts
        }
        None => segment_fast::bincount_ints(values.data(), size)
            .map_err(|e| a.err_at("arr", e))?
            .unwrap_or_default(),
    };
    let data = Buffer::from_i64s(counts, out_dtype);
    Ok(Some(Value::tensor(Tensor::from_parts(vec![size], data))))
}
