//! `tf.random.*` with TensorFlow's numbers: the global and op seeds of `tf.random.set_seed`,
//! the eager kernels' Philox streams, and `tf.Variable`.

use super::Builtin;
use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::rng;
use crate::eval::Interp;
use crate::value::convert;
use crate::value::Value;
use ragtag_engine::random::philox::{self, Dist, Philox, Width};
use ragtag_engine::{budget, size, Buffer, DType, ExceptionClass, Tensor};

/// Random tensors and variables.
pub static BUILTINS: &[Builtin] = &[
    Builtin::function("tf.random.set_seed", "(seed)", set_seed)
        .doc("Sets the global random seed. Afterwards every random op draws TensorFlow's own numbers: an op without `seed=` takes the next op seed of the sequence the global seed starts, and repeated calls of one op with one seed continue its stream. Without any seed a session draws fresh numbers (transcripts run by `ragtag test` repeat theirs).")
        .examples(&["tf.random.set_seed(42)\ntf.random.uniform([3])"]),
    Builtin::function("tf.random.uniform", "(shape, minval=0, maxval=None, dtype=tf.float32, seed=None, name=None)", uniform)
        .doc("A tensor of uniform random numbers in [minval, maxval) (maxval defaults to 1 for floats and is required for integers), TensorFlow's numbers under the same seeds.")
        .examples(&["tf.random.uniform([2, 3], seed=1)", "tf.random.uniform([4], maxval=10, dtype=tf.int32, seed=3)"]),
    Builtin::function("tf.random.normal", "(shape, mean=0.0, stddev=1.0, dtype=tf.float32, seed=None, name=None)", normal)
        .doc("A tensor of normally distributed random numbers (Box-Muller over Philox, as TensorFlow draws them).")
        .examples(&["tf.random.normal([3], seed=2)"]),
    Builtin::function("tf.random.truncated_normal", "(shape, mean=0.0, stddev=1.0, dtype=tf.float32, seed=None, name=None)", truncated_normal)
        .doc("Like tf.random.normal, but values two or more standard deviations from the mean are drawn again.")
        .examples(&["tf.random.truncated_normal([2, 2], stddev=0.5, seed=4)"]),
    Builtin::function("tf.Variable", "(initial_value, trainable=True, name=None, dtype=None)", variable)
        .doc("ragtag has no training, so a variable is just its initial value as a tensor; this lets model code that builds embedding tables run unchanged.")
        .examples(&["tf.Variable([1.0, 2.0])"]),
];

fn set_seed(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let seed = a.opt_int("seed")?;
    rng::with(|s| s.set_global_seed(seed));
    Ok(Value::None)
}

/// The shape argument, with its element count checked against the memory budget.
pub(super) fn shape_of(a: &Args, item_bytes: usize) -> Result<(Vec<usize>, usize)> {
    let what = a.builtin().name;
    let shape = size::dims("dimensions", &a.ints("shape")?).map_err(|e| a.err_at("shape", e))?;
    let n = size::numel(&shape).map_err(|e| a.err_at("shape", e))?;
    budget::check(what, n as u128, 8 + item_bytes).map_err(|e| a.err_at("shape", e))?;
    Ok((shape, n))
}

/// The float dtypes the random ops accept.
pub(super) fn float_dtype(a: &Args) -> Result<DType> {
    let d = a.dtype("dtype")?.unwrap_or(DType::Float32);
    match d {
        DType::Float16 | DType::BFloat16 | DType::Float32 | DType::Float64 => Ok(d),
        _ => Err(Error::new(
            ExceptionClass::TypeError,
            format!("Value for attr 'dtype' of {} is not in the list of allowed values: half, bfloat16, float, double", d.name()),
        )
        .at(a.span("dtype"))),
    }
}

/// A scalar argument as a float, rounded to the dtype's precision.
fn param(a: &Args, name: &str, default: f64) -> Result<f64> {
    match a.get(name) {
        None => Ok(default),
        Some(v) => convert::to_f64(v).map_err(|e| a.err_at(name, e)),
    }
}

/// Draws `n` values of `dist` from `gen` in `dtype`, then `x * scale + shift` with the
/// dtype's rounding after each operation (TensorFlow applies them as separate ops).
pub(super) fn floats(
    gen: Philox,
    dist: Dist,
    dtype: DType,
    shape: Vec<usize>,
    n: usize,
    scale: Option<f64>,
    shift: Option<f64>,
) -> Result<Tensor> {
    let width = if dtype == DType::Float64 {
        Width::F64
    } else {
        Width::F32
    };
    let mut raw: Vec<f64> = budget::vec("random", n).map_err(Error::from)?;
    match (dtype, dist) {
        // Half-precision uniforms take 10 (7) low bits of each word, not 23.
        (DType::Float16 | DType::BFloat16, Dist::Uniform) => {
            let bits = if dtype == DType::Float16 { 10 } else { 7 };
            let mut g = gen;
            while raw.len() < n {
                for w in g.next_block() {
                    if raw.len() < n {
                        raw.push((w & ((1 << bits) - 1)) as f64 / (1u32 << bits) as f64);
                    }
                }
            }
        }
        _ => philox::fill(gen, dist, width, n, |v| raw.push(v)),
    }
    let buf = match dtype {
        DType::Float64 => {
            let v: Vec<f64> = raw
                .into_iter()
                .map(|x| {
                    let x = scale.map_or(x, |s| x * s);
                    shift.map_or(x, |s| x + s)
                })
                .collect();
            Buffer::from(v)
        }
        _ => {
            let round = |x: f32| -> f32 {
                match dtype {
                    DType::Float16 => ragtag_engine::f16::from_f32(x).to_f32(),
                    DType::BFloat16 => ragtag_engine::bf16::from_f32(x).to_f32(),
                    _ => x,
                }
            };
            let (sc, sh) = (
                scale.map(|s| round(s as f32)),
                shift.map(|s| round(s as f32)),
            );
            let v: Vec<f32> = raw
                .into_iter()
                .map(|x| {
                    let x = round(x as f32);
                    let x = sc.map_or(x, |s| round(x * s));
                    sh.map_or(x, |s| round(x + s))
                })
                .collect();
            let t = Buffer::from(v);
            ragtag_engine::ops::cast::cast_buffer(&t, dtype).map_err(Error::from)?
        }
    };
    Tensor::new(shape, buf).map_err(Error::from)
}

fn op_seed(a: &Args) -> Result<Option<i64>> {
    a.opt_int("seed")
}

fn uniform(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let dtype = a.dtype("dtype")?.unwrap_or(DType::Float32);
    let (shape, n) = shape_of(a, dtype.item_bytes())?;
    let seed = op_seed(a)?;
    if dtype.is_int() {
        if !matches!(dtype, DType::Int32 | DType::Int64) {
            return Err(Error::new(
                ExceptionClass::ValueError,
                format!("Argument `dtype` got invalid value {}", dtype.name()),
            )
            .at(a.span("dtype")));
        }
        let Some(hi) = a.get("maxval") else {
            return Err(Error::new(
                ExceptionClass::ValueError,
                format!("Must specify maxval for integer dtype tf.{}", dtype.name()),
            )
            .at(a.call));
        };
        let hi = convert::to_int(hi).map_err(|e| a.err_at("maxval", e))?;
        let lo = a.opt_int("minval")?.unwrap_or(0);
        let seeds = rng::with(|s| s.get_seed(seed));
        if lo >= hi {
            return Err(Error::new(
                ExceptionClass::InvalidArgumentError,
                format!("Need minval < maxval: {lo} >= {hi}"),
            )
            .at(a.call));
        }
        let gen = rng::with(|s| {
            s.reserve(
                "RandomUniformInt",
                dtype.name(),
                seeds,
                philox::reserved_for(n),
            )
        });
        let wide = dtype == DType::Int64;
        let buf = if wide {
            let mut v: Vec<i64> = budget::vec("random", n).map_err(Error::from)?;
            philox::fill_int(gen, true, lo, hi, n, |x| v.push(x));
            Buffer::from(v)
        } else {
            let mut v: Vec<i32> = budget::vec("random", n).map_err(Error::from)?;
            philox::fill_int(gen, false, lo, hi, n, |x| v.push(x as i32));
            Buffer::from(v)
        };
        return Ok(Value::tensor(
            Tensor::new(shape, buf).map_err(|e| a.err_at("shape", e))?,
        ));
    }
    let dtype = float_dtype(a)?;
    // random_ops.py skips the arithmetic for Python ints 0 and 1.
    let int_is = |name: &str, k: i64| match a.get(name) {
        None => name == "minval" && k == 0 || name == "maxval" && k == 1,
        Some(Value::Int(i)) => *i == k,
        _ => false,
    };
    let (lo, hi) = (param(a, "minval", 0.0)?, param(a, "maxval", 1.0)?);
    let seeds = rng::with(|s| s.get_seed(seed));
    let gen = rng::with(|s| {
        s.reserve(
            "RandomUniform",
            dtype.name(),
            seeds,
            philox::reserved_for(n),
        )
    });
    let (scale, shift) = match (int_is("minval", 0), int_is("maxval", 1)) {
        (true, true) => (None, None),
        (true, false) => (Some(hi), None),
        _ => (Some(sub_in(dtype, hi, lo)), Some(lo)),
    };
    Ok(Value::tensor(floats(
        gen,
        Dist::Uniform,
        dtype,
        shape,
        n,
        scale,
        shift,
    )?))
}

/// `maxval - minval` computed in the dtype.
fn sub_in(dtype: DType, hi: f64, lo: f64) -> f64 {
    match dtype {
        DType::Float64 => hi - lo,
        _ => (hi as f32 - lo as f32) as f64,
    }
}

fn normal_like(a: &Args, dist: Dist, op: &'static str) -> Result<Value> {
    let dtype = float_dtype(a)?;
    let (shape, n) = shape_of(a, dtype.item_bytes())?;
    let mean = param(a, "mean", 0.0)?;
    let sd = param(a, "stddev", 1.0)?;
    let seed = op_seed(a)?;
    let seeds = rng::with(|s| s.get_seed(seed));
    let gen = rng::with(|s| s.reserve(op, dtype.name(), seeds, philox::reserved_for(n)));
    Ok(Value::tensor(floats(
        gen,
        dist,
        dtype,
        shape,
        n,
        Some(sd),
        Some(mean),
    )?))
}

fn normal(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    normal_like(a, Dist::Normal, "RandomStandardNormal")
}

fn truncated_normal(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    normal_like(a, Dist::TruncatedNormal, "TruncatedNormal")
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
