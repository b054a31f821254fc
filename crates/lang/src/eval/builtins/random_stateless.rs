//! `tf.random.stateless_*` (Philox keyed by the seed pair, as stateless_random_ops.cc
//! scrambles it), `tf.random.categorical` and `tf.random.shuffle`.

use super::random::{float_dtype, floats, shape_of};
use super::Builtin;
use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::rng;
use crate::eval::Interp;
use crate::value::{convert, Value};
use ragtag_engine::random::philox::{self, Dist, Philox};
use ragtag_engine::{budget, Array, Buffer, DType, ExceptionClass, Tensor};

/// Stateless random ops, categorical sampling and shuffling.
pub static BUILTINS: &[Builtin] = &[
    Builtin::function("tf.random.stateless_uniform", "(shape, seed, minval=0, maxval=None, dtype=tf.float32, name=None, alg='auto_select')", stateless_uniform)
        .doc("Uniform random numbers determined by `seed` (a pair of ints) alone: the same seed gives the same tensor, TensorFlow's.")
        .examples(&["tf.random.stateless_uniform([3], seed=[1, 2])", "tf.random.stateless_uniform([4], seed=[7, 0], minval=0, maxval=100, dtype=tf.int32)"]),
    Builtin::function("tf.random.stateless_normal", "(shape, seed, mean=0.0, stddev=1.0, dtype=tf.float32, name=None, alg='auto_select')", stateless_normal)
        .doc("Normally distributed random numbers determined by `seed` alone.")
        .examples(&["tf.random.stateless_normal([2, 2], seed=[1, 2])"]),
    Builtin::function("tf.random.stateless_truncated_normal", "(shape, seed, mean=0.0, stddev=1.0, dtype=tf.float32, name=None, alg='auto_select')", stateless_truncated_normal)
        .doc("Truncated normal random numbers (redrawn at two standard deviations or more) determined by `seed` alone.")
        .examples(&["tf.random.stateless_truncated_normal([4], seed=[3, 4])"]),
    Builtin::function("tf.random.stateless_categorical", "(logits, num_samples, seed, dtype=tf.int64, name=None)", stateless_categorical)
        .doc("For each row of `logits` (unnormalised log-probabilities), `num_samples` class indices, determined by `seed` alone.")
        .examples(&["tf.random.stateless_categorical([[0.0, 1.0, 2.0]], 5, seed=[1, 2])"]),
    Builtin::function("tf.random.categorical", "(logits, num_samples, dtype=None, seed=None, name=None)", categorical)
        .doc("For each row of `logits`, `num_samples` class indices drawn with probabilities softmax(row) (TensorFlow's numbers under its seeds).")
        .examples(&["tf.random.categorical(tf.math.log([[0.5, 0.5]]), 5, seed=1)"]),
    Builtin::function("tf.random.shuffle", "(value, seed=None, name=None)", shuffle)
        .doc("`value` with its first dimension randomly permuted (TensorFlow's order under its seeds).")
        .examples(&["tf.random.shuffle([1, 2, 3, 4, 5], seed=2)"]),
];

/// The Philox generator a stateless op keys from its `seed` argument.
fn stateless_gen(a: &Args) -> Result<Philox> {
    let seed = a.ints("seed")?;
    if seed.len() != 2 {
        return Err(Error::new(
            ExceptionClass::InvalidArgumentError,
            format!("seed must have shape [2], not [{}]", seed.len()),
        )
        .at(a.span("seed")));
    }
    Ok(Philox::stateless(seed[0] as u64, seed[1] as u64))
}

fn param(a: &Args, name: &str, default: f64) -> Result<f64> {
    a.get(name).map_or(Ok(default), |v| {
        convert::to_f64(v).map_err(|e| a.err_at(name, e))
    })
}

fn ints(
    gen: Philox,
    dtype: DType,
    shape: Vec<usize>,
    n: usize,
    range: Option<(i64, i64)>,
) -> Result<Tensor> {
    let wide = dtype == DType::Int64;
    let mut v: Vec<i64> = budget::vec("random", n).map_err(Error::from)?;
    match range {
        Some((lo, hi)) => philox::fill_int(gen, wide, lo, hi, n, |x| v.push(x)),
        None => {
            let mut g = gen;
            while v.len() < n {
                let s = g.next_block();
                if wide {
                    for i in 0..2 {
                        v.push((s[2 * i] as u64 | (s[2 * i + 1] as u64) << 32) as i64);
                    }
                } else {
                    v.extend(s.iter().map(|&w| w as i32 as i64));
                }
            }
            v.truncate(n);
        }
    }
    let buf =
        ragtag_engine::ops::cast::cast_buffer(&Buffer::from(v), dtype).map_err(Error::from)?;
    Tensor::new(shape, buf).map_err(Error::from)
}

fn stateless_uniform(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let dtype = a.dtype("dtype")?.unwrap_or(DType::Float32);
    let (shape, n) = shape_of(a, dtype.item_bytes())?;
    if dtype.is_int() {
        if !matches!(
            dtype,
            DType::Int32 | DType::Int64 | DType::UInt32 | DType::UInt64
        ) {
            return Err(Error::new(
                ExceptionClass::TypeError,
                format!(
                    "Value for attr 'dtype' of {} is not in the list of allowed values",
                    dtype.name()
                ),
            )
            .at(a.span("dtype")));
        }
        let given = |k: &str| a.get(k).is_some();
        // An explicit minval with no maxval is an error; neither means the full range.
        let minval_given = a.given("minval").is_some_and(|v| !matches!(v, Value::None));
        if !given("maxval") && minval_given && !matches!(a.value("minval"), Value::Int(0)) {
            return Err(Error::new(
                ExceptionClass::ValueError,
                "For integer `dtype` argument tf.int32, argument `minval` and `maxval` must be both None or not None. Got `minval`=0 and `maxval`=None.",
            )
            .at(a.call));
        }
        let gen = stateless_gen(a)?;
        let range = match a.get("maxval") {
            None => None,
            Some(hi) => {
                let hi = convert::to_int(hi).map_err(|e| a.err_at("maxval", e))?;
                let lo = a.opt_int("minval")?.unwrap_or(0);
                if lo >= hi {
                    return Err(Error::new(
                        ExceptionClass::InvalidArgumentError,
                        format!("Need minval < maxval: {lo} >= {hi}"),
                    )
                    .at(a.call));
                }
                Some((lo, hi))
            }
        };
        return Ok(Value::tensor(ints(gen, dtype, shape, n, range)?));
    }
    let dtype = float_dtype(a)?;
    let gen = stateless_gen(a)?;
    let (lo, hi) = (param(a, "minval", 0.0)?, param(a, "maxval", 1.0)?);
    let range = if dtype == DType::Float64 {
        hi - lo
    } else {
        (hi as f32 - lo as f32) as f64
    };
    Ok(Value::tensor(floats(
        gen,
        Dist::Uniform,
        dtype,
        shape,
        n,
        Some(range),
        Some(lo),
    )?))
}

fn stateless_normal_like(a: &Args, dist: Dist) -> Result<Value> {
    let dtype = float_dtype(a)?;
    let (shape, n) = shape_of(a, dtype.item_bytes())?;
    let gen = stateless_gen(a)?;
    let (mean, sd) = (param(a, "mean", 0.0)?, param(a, "stddev", 1.0)?);
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

fn stateless_normal(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    stateless_normal_like(a, Dist::Normal)
}

fn stateless_truncated_normal(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    stateless_normal_like(a, Dist::TruncatedNormal)
}

/// The logits as a row-major matrix of float64, with its row and class counts.
fn logits(a: &Args) -> Result<(Vec<f64>, usize, usize, DType)> {
    let x = a.array("logits", Some(DType::Float32))?;
    let Array::Dense(t) = &*x else {
        return Err(
            Error::new(ExceptionClass::TypeError, "logits must be a dense tensor")
                .at(a.span("logits")),
        );
    };
    if t.shape().len() != 2 {
        return Err(Error::new(
            ExceptionClass::InvalidArgumentError,
            format!("logits should be a matrix, got shape {:?}", t.shape()),
        )
        .at(a.span("logits")));
    }
    let (rows, classes) = (t.shape()[0], t.shape()[1]);
    if classes == 0 {
        return Err(Error::new(
            ExceptionClass::InvalidArgumentError,
            "num_classes should be positive, got: 0",
        )
        .at(a.span("logits")));
    }
    let v = t.data().to_f64_vec().ok_or_else(|| {
        Error::new(
            ExceptionClass::TypeError,
            format!("logits must be floating point, not {}", t.dtype().name()),
        )
        .at(a.span("logits"))
    })?;
    Ok((v, rows, classes, t.dtype()))
}

fn sample(a: &Args, gen: impl FnOnce(usize, usize) -> Philox, default: DType) -> Result<Value> {
    let (v, rows, classes, _) = logits(a)?;
    let samples = a.int("num_samples")?;
    if samples < 0 {
        return Err(Error::new(
            ExceptionClass::InvalidArgumentError,
            format!("num_samples should be nonnegative, got: {samples}"),
        )
        .at(a.span("num_samples")));
    }
    let samples = samples as usize;
    let dtype = a.dtype("dtype")?.unwrap_or(default);
    if !matches!(dtype, DType::Int32 | DType::Int64) {
        return Err(Error::new(
            ExceptionClass::TypeError,
            format!("Value for attr 'output_dtype' of {} is not in the list of allowed values: int32, int64", dtype.name()),
        )
        .at(a.span("dtype")));
    }
    let n = rows
        .checked_mul(samples)
        .ok_or_else(|| Error::new(ExceptionClass::ResourceExhaustedError, "too many samples"))?;
    budget::check(a.builtin().name, n as u128, 16).map_err(|e| a.err_at("num_samples", e))?;
    let g = gen(rows, samples);
    let mut out: Vec<i64> = budget::vec("categorical", n).map_err(Error::from)?;
    philox::multinomial(g, &v, rows, classes, samples, |x| out.push(x));
    let buf =
        ragtag_engine::ops::cast::cast_buffer(&Buffer::from(out), dtype).map_err(Error::from)?;
    Ok(Value::tensor(
        Tensor::new(vec![rows, samples], buf).map_err(Error::from)?,
    ))
}

fn stateless_categorical(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let gen = stateless_gen(a)?;
    sample(a, |_, _| gen, DType::Int64)
}

fn categorical(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let seed = a.opt_int("seed")?;
    let (_, _, _, dt) = logits(a)?;
    let seeds = rng::with(|s| s.get_seed(seed));
    sample(
        a,
        |rows, samples| {
            // The CPU kernel reserves two words per sample, in groups of four samples.
            let per_row = samples.div_ceil(4) as u64 * 4 * 2;
            rng::with(|s| {
                s.reserve(
                    "Multinomial",
                    dt.name(),
                    seeds,
                    (rows as u64 * per_row).wrapping_mul(256),
                )
            })
        },
        DType::Int64,
    )
}

fn shuffle(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let x = a.array("value", None)?;
    let Array::Dense(t) = &*x else {
        return Err(Error::new(
            ExceptionClass::TypeError,
            "tf.random.shuffle takes a dense tensor",
        )
        .at(a.span("value")));
    };
    let seed = a.opt_int("seed")?;
    let seeds = rng::with(|s| s.get_seed(seed));
    // A scalar, or one row, or nothing: nothing to shuffle (and nothing drawn).
    let n = t.shape().first().copied().unwrap_or(1);
    if t.shape().iter().product::<usize>() <= 1 || n <= 1 {
        return Ok(Value::tensor(t.clone()));
    }
    // ReserveSamples32(n - 1): a quarter as many 128-bit samples, rounded up.
    let gen = rng::with(|s| {
        s.reserve(
            "RandomShuffle",
            t.dtype().name(),
            seeds,
            (n as u64 - 1).div_ceil(4),
        )
    });
    let order = philox::shuffle_order(gen, n);
    Ok(Value::tensor(t.gather_rows(&order)))
}
