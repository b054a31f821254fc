//! `tf.random.*` (seeded, so results are reproducible) and `tf.Variable`.

use super::Builtin;
use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::convert;
use crate::eval::Interp;
use crate::value::Value;
use ragtag_engine::interrupt;
use ragtag_engine::ops::cast::cast_buffer;
use ragtag_engine::random::{Pcg, DEFAULT_SEED};
use ragtag_engine::{budget, size, Buffer, DType, ExceptionClass, Tensor};

/// Random tensors and variables.
pub static BUILTINS: &[Builtin] = &[
    Builtin::function("tf.random.uniform", "(shape, minval=0, maxval=None, dtype=None, seed=None)", uniform)
        .doc("A tensor of uniform random numbers in [minval, maxval) (maxval defaults to 1 for floats). ragtag seeds every draw, so the same call gives the same tensor; pass `seed` for another one.")
        .examples(&["tf.random.uniform([2, 3], seed=1)"]),
    Builtin::function("tf.random.normal", "(shape, mean=0.0, stddev=1.0, dtype=None, seed=None)", normal)
        .doc("A tensor of normally distributed random numbers (reproducible; see tf.random.uniform).")
        .examples(&["tf.random.normal([3], seed=2)"]),
    Builtin::function("tf.random.truncated_normal", "(shape, mean=0.0, stddev=1.0, dtype=None, seed=None)", truncated_normal)
        .doc("Like tf.random.normal, but values more than two standard deviations from the mean are drawn again.")
        .examples(&["tf.random.truncated_normal([2, 2], stddev=0.5)"]),
    Builtin::function("tf.Variable", "(initial_value, trainable=True, name=None, dtype=None)", variable)
        .doc("ragtag has no training, so a variable is just its initial value as a tensor; this lets model code that builds embedding tables run unchanged.")
        .examples(&["tf.Variable([1.0, 2.0])"]),
];

/// The shape, dtype and generator of a `tf.random.*` call, and a buffer with room for the
/// draws: the element count is checked (overflow, memory budget) before anything is drawn.
fn setup(a: &Args) -> Result<(Vec<usize>, DType, Pcg, Vec<f64>)> {
    let what = a.builtin().name;
    let shape = size::dims("dimensions", &a.ints("shape")?).map_err(|e| a.err_at("shape", e))?;
    let dtype = a.dtype("dtype")?.unwrap_or(DType::Float32);
    let seed = a.opt_int("seed")?.map_or(DEFAULT_SEED, |s| s as u64);
    // Draws are made in float64, then cast: both buffers live at once.
    let n = size::numel(&shape).map_err(|e| a.err_at("shape", e))?;
    budget::check(what, n as u128, 8 + dtype.item_bytes()).map_err(|e| a.err_at("shape", e))?;
    let values = budget::vec(what, n).map_err(|e| a.err_at("shape", e))?;
    Ok((shape, dtype, Pcg::new(seed), values))
}

fn build(a: &Args, shape: Vec<usize>, dtype: DType, values: Vec<f64>) -> Result<Value> {
    let buf = cast_buffer(&Buffer::F64(values.into()), dtype).map_err(|e| a.err_at("dtype", e))?;
    Ok(Value::tensor(
        Tensor::new(shape, buf).map_err(|e| a.err_at("shape", e))?,
    ))
}

fn num(a: &Args, name: &str, default: f64) -> Result<f64> {
    a.get(name).map_or(Ok(default), |v| {
        convert::to_f64(v).map_err(|e| a.err_at(name, e))
    })
}

fn uniform(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let (shape, dtype, mut rng, mut values) = setup(a)?;
    let lo = num(a, "minval", 0.0)?;
    let hi = match a.get("maxval") {
        Some(_) => num(a, "maxval", 1.0)?,
        None if dtype.is_int() => {
            return Err(Error::new(
                ExceptionClass::ValueError,
                "maxval is required for integer dtypes",
            )
            .at(a.call))
        }
        None => 1.0,
    };
    let n: usize = shape.iter().product(); // checked in setup
    interrupt::for_chunks(n, |chunk| {
        values.extend(chunk.map(|_| {
            let x = lo + (hi - lo) * rng.uniform();
            if dtype.is_int() {
                x.floor()
            } else {
                x
            }
        }))
    })?;
    build(a, shape, dtype, values)
}

fn normal_like(a: &Args, truncated: bool) -> Result<Value> {
    let (shape, dtype, mut rng, mut values) = setup(a)?;
    let mean = num(a, "mean", 0.0)?;
    let sd = num(a, "stddev", 1.0)?;
    let n: usize = shape.iter().product(); // checked in setup
    interrupt::for_chunks(n, |chunk| {
        values.extend(chunk.map(|_| {
            mean + sd
                * if truncated {
                    rng.truncated_normal()
                } else {
                    rng.normal()
                }
        }))
    })?;
    build(a, shape, dtype, values)
}

fn normal(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    normal_like(a, false)
}

fn truncated_normal(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    normal_like(a, true)
}

fn variable(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let d = a.dtype("dtype")?;
    let x = a.array("initial_value", d)?;
    match d {
        Some(d) if d != x.dtype() => super::cast_array(&x, d)
            .map(Value::from_array)
            .map_err(|e| a.err_at("initial_value", e)),
        _ => Ok(Value::Array(x)),
    }
}
