//! More of Paddle's sequence ops: reverse, reshape, enumerate, scatter and sequence_mask;
//! `lod_reset` and `lod_append` (Paddle 1.x's wrappers of the `lod_reset` op); and
//! `assign`, which makes a Variable (a LoDTensor without LoD) from NumPy data, as Paddle's
//! examples make pad values, offsets and lengths.

use super::sequence_common::{check_dtype, lod_value, numpy_data, plain, var, INTS, NUMBERS};
use super::Builtin;
use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::convert;
use crate::eval::Interp;
use crate::value::Value;
use ragtag_engine::lod_ops::{self, LodSource};
use ragtag_engine::ops::cast::cast_buffer;
use ragtag_engine::{DType, ExceptionClass, Tensor};

/// A 2-sequence float32 LoDTensor, for the examples.
macro_rules! x5 {
    () => {
        "x = fluid.create_lod_tensor(np.array([[1.], [2.], [3.], [4.], [5.]], dtype='float32'), [[2, 3]], fluid.CPUPlace()); "
    };
}

/// Reverse, reshape, enumerate, scatter, mask, LoD resetting and assign.
pub static BUILTINS: &[Builtin] = &[
    Builtin::function("fluid.layers.sequence_reverse", "(x, name=None)", reverse)
        .doc("The rows of each sequence in reverse order; the LoD is kept. Exactly one level, data of rank 2 or more. Paddle's docstring lists int8, but Paddle 2.6 has no int8 kernel, so int8 is an error as in Paddle.")
        .aliases(&["paddle.static.nn.sequence_reverse"])
        .examples(&[concat!(x5!(), "fluid.layers.sequence_reverse(x)")]),
    Builtin::function("fluid.layers.sequence_reshape", "(input, new_dim)", reshape)
        .doc("Reads the data (rank 2, one level) in rows of `new_dim` values: each sequence keeps its values, so its length becomes length * width / new_dim, which must be whole for every sequence.")
        .aliases(&["paddle.static.nn.sequence_reshape"])
        .examples(&["x = fluid.create_lod_tensor(np.arange(1, 13).reshape(6, 2), [[2, 4]], fluid.CPUPlace()); fluid.layers.sequence_reshape(x, new_dim=4)"]),
    Builtin::function("fluid.layers.sequence_enumerate", "(input, win_size, pad_value=0, name=None)", enumerate)
        .doc("For each id of a 1-level sequence of ids (int32 or int64, shape [N, 1]), the `win_size` ids starting there, padded with `pad_value` past the sequence's end: shape [N, win_size], same LoD. win_size is at least 2.")
        .aliases(&["paddle.static.nn.sequence_enumerate"])
        .examples(&["x = fluid.create_lod_tensor(np.array([[1], [2], [3], [4], [5]]), [[3, 2]], fluid.CPUPlace()); fluid.layers.sequence_enumerate(x, win_size=2)"]),
    Builtin::function("fluid.layers.sequence_scatter", "(input, index, updates, name=None)", scatter)
        .doc("A copy of `input` where, for each sequence i of `index` (int64 ids, one per row), `updates[j]` is added at position index[j] of row i (positions count a row's elements); repeated positions add up. `updates` has one value per id and input's dtype; its own LoD is not read. Paddle checks neither the ids nor the number of sequences (an id past a row's end writes into the next row, or past the data); ragtag raises an IndexError.")
        .aliases(&["paddle.static.nn.sequence_scatter"])
        .examples(&["x = fluid.layers.assign(np.zeros((2, 3), dtype='float32')); index = fluid.create_lod_tensor(np.array([[0], [2], [2]]), [[1, 2]], fluid.CPUPlace()); updates = fluid.create_lod_tensor(np.array([[1.], [2.], [3.]], dtype='float32'), [[1, 2]], fluid.CPUPlace()); fluid.layers.sequence_scatter(x, index, updates)"]),
    Builtin::function("fluid.layers.sequence_mask", "(x, maxlen=None, dtype='int64', name=None)", mask)
        .doc("Paddle's sequence mask: for lengths `x` (a LoDTensor of any shape; its LoD is dropped), out[..., j] = j < x[...] as `dtype` (int64 by default, unlike TensorFlow's bool), with `maxlen` positions (an int or a one-value LoDTensor; None: the largest length).")
        .aliases(&["paddle.static.nn.sequence_mask", "paddle.nn.functional.sequence_mask"])
        .examples(&["x = fluid.layers.assign(np.array([3, 1, 1, 0])); fluid.layers.sequence_mask(x, maxlen=4)"]),
    Builtin::function("fluid.layers.lod_reset", "(x, y=None, target_lod=None)", reset)
        .doc("x's data with a new LoD: y's LoD (all its levels) when y has one; else one level of offsets, from `target_lod` or from y's int32 data. The offsets start at 0, never decrease and end at x's number of rows. (Paddle's docstring gives target_lod as lengths, [4, 2]; its kernel reads offsets, [0, 4, 6].)")
        .examples(&[concat!(x5!(), "fluid.layers.lod_reset(x, target_lod=[0, 1, 5])")]),
    Builtin::function("fluid.layers.lod_append", "(x, level)", append)
        .doc("x's data with one more LoD level at the end: offsets (a list, or a LoDTensor of int32 offsets) ending at x's number of rows. The level above then counts the new level's sequences, so with an existing LoD the new level needs one sequence per row; Paddle appends a level that does not fit anyway, ragtag raises a ValueError. (Paddle's docstring gives the level as lengths; its kernel reads offsets.)")
        .examples(&["x = fluid.layers.assign(np.arange(6, dtype='float32').reshape(6, 1)); fluid.layers.lod_append(x, [0, 2, 6])"]),
    Builtin::function("fluid.layers.assign", "(input, output=None)", assign)
        .doc("A Variable from data, as Paddle's examples make pad values, offsets and lengths: a NumPy array or a list (read as np.array reads it) becomes a LoDTensor without LoD; a LoDTensor is copied with its LoD. As in Paddle, float64 NumPy data becomes float32, and NumPy data must be bool, float32, int32 or int64 (or float64).")
        .aliases(&["paddle.assign"])
        .examples(&["fluid.layers.assign(np.array([[0, 1]]))", "paddle.assign(np.array([0.5]))"]),
];

fn reverse(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let op = "sequence_reverse";
    let x = var(a, "x", op)?;
    check_dtype(
        a,
        "x",
        x.data(),
        &[
            DType::Float32,
            DType::Float64,
            DType::Int8,
            DType::Int32,
            DType::Int64,
        ],
        op,
    )?;
    if x.data().dtype() == DType::Int8 {
        // Python's NotImplementedError is a RuntimeError; ragtag has no class of its own.
        return Err(Error::new(
            ExceptionClass::RuntimeError,
            "Paddle 2.6 registers no int8 kernel for sequence_reverse (NotImplementedError in Paddle), though its docstring lists int8",
        )
        .at(a.span("x"))
        .with_hint("cast the data to int32 first"));
    }
    let out = lod_ops::sequence_reverse(&x).map_err(|e| a.err_at("x", e))?;
    Ok(lod_value(out))
}

fn reshape(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let op = "sequence_reshape";
    let x = var(a, "input", op)?;
    check_dtype(a, "input", x.data(), NUMBERS, op)?;
    let new_dim = a.int("new_dim")?;
    let out = lod_ops::sequence_reshape(&x, new_dim).map_err(|e| a.err_at("input", e))?;
    Ok(lod_value(out))
}

fn enumerate(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let op = "sequence_enumerate";
    let x = var(a, "input", op)?;
    check_dtype(a, "input", x.data(), INTS, op)?;
    let win = a.int("win_size")?;
    let pad = a.opt_int("pad_value")?.unwrap_or(0);
    let out = lod_ops::sequence_enumerate(&x, win, pad).map_err(|e| a.err_at("input", e))?;
    Ok(lod_value(out))
}

fn scatter(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let op = "sequence_scatter";
    let x = var(a, "input", op)?;
    check_dtype(a, "input", x.data(), NUMBERS, op)?;
    let index = var(a, "index", op)?;
    check_dtype(a, "index", index.data(), INTS, op)?;
    let updates = var(a, "updates", op)?;
    check_dtype(a, "updates", updates.data(), NUMBERS, op)?;
    if index.data().dtype() != DType::Int64 {
        return Err(Error::new(
            ExceptionClass::ValueError,
            "index is int32, but Paddle's sequence_scatter kernel reads int64 ids",
        )
        .at(a.span("index"))
        .with_hint("make the ids int64 (NumPy's default for Python ints)"));
    }
    let out =
        lod_ops::sequence_scatter(x.data(), &index, &updates).map_err(|e| a.err_at("index", e))?;
    plain(out)
}

fn mask(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let op = "sequence_mask";
    let x = var(a, "x", op)?;
    let maxlen = match a.get("maxlen") {
        None => None,
        Some(Value::Lod(m)) => {
            let v = m
                .data()
                .to_i64_vec()
                .filter(|v| v.len() == 1)
                .ok_or_else(|| {
                    Error::new(
                        ExceptionClass::ValueError,
                        "maxlen as a tensor must hold one integer",
                    )
                    .at(a.span("maxlen"))
                })?;
            Some(v[0])
        }
        Some(v) => Some(convert::to_int(v).map_err(|e| a.err_at("maxlen", e))?),
    };
    let dtype = a.dtype("dtype")?.unwrap_or(DType::Int64);
    let out = lod_ops::sequence_mask(x.data(), maxlen, dtype).map_err(|e| a.err_at("x", e))?;
    plain(out)
}

fn reset(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let op = "lod_reset";
    let x = var(a, "x", op)?;
    let out = if a.get("y").is_some() {
        let y = var(a, "y", op)?;
        lod_ops::lod_reset(&x, LodSource::Tensor(&y)).map_err(|e| a.err_at("y", e))?
    } else if a.get("target_lod").is_some() {
        let target = a.ints("target_lod")?;
        lod_ops::lod_reset(&x, LodSource::Offsets(&target))
            .map_err(|e| a.err_at("target_lod", e))?
    } else {
        return Err(Error::new(
            ExceptionClass::ValueError,
            "lod_reset needs y or target_lod: the new LoD comes from one of them",
        )
        .with_hint("lod_reset(x, target_lod=[0, 2, 5]) sets one level of offsets"));
    };
    Ok(lod_value(out))
}

fn append(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let op = "lod_append";
    let x = var(a, "x", op)?;
    let out = match a.value("level") {
        Value::Lod(y) => lod_ops::lod_append(&x, LodSource::Tensor(y)),
        Value::List(_) | Value::Tuple(_) | Value::Array(_) | Value::NdArray(_) => {
            let level = a.ints("level")?;
            lod_ops::lod_append(&x, LodSource::Offsets(&level))
        }
        other => {
            return Err(Error::new(
                ExceptionClass::ValueError,
                format!(
                    "level must be a list or tuple of offsets, or a LoDTensor, not {}",
                    other.type_name()
                ),
            )
            .at(a.span("level")))
        }
    };
    Ok(lod_value(out.map_err(|e| a.err_at("level", e))?))
}

fn assign(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    if let Value::Lod(l) = a.value("input") {
        return Ok(Value::Lod(l.clone()));
    }
    let t = numpy_data(a.value("input")).map_err(|e| e.at(a.span("input")))?;
    let t = match t.dtype() {
        DType::Bool | DType::Float32 | DType::Int32 | DType::Int64 => t,
        // Paddle stores NumPy data in a protobuf attribute that has no float64.
        DType::Float64 => {
            Tensor::from_parts(t.shape().to_vec(), cast_buffer(t.data(), DType::Float32)?)
        }
        other => {
            return Err(Error::new(
                ExceptionClass::TypeError,
                format!(
                    "assign takes NumPy data of dtype bool, float32, int32 or int64, not {}",
                    other.name()
                ),
            )
            .at(a.span("input")))
        }
    };
    if t.rank() == 0 {
        return plain(t.reshaped(vec![1])?);
    }
    plain(t)
}
