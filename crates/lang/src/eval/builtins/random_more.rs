//! `tf.random.gamma`, `tf.random.poisson` and `tf.nn.dropout` with TensorFlow's numbers for
//! a set seed: the kernels' Philox streams (see `ragtag_engine::random::gamma_poisson`) and
//! dropout's uniform mask.

use std::sync::Arc;

use super::random::{floats, shape_of};
use super::Builtin;
use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::rng;
use crate::eval::Interp;
use crate::value::{convert, Value};
use ragtag_engine::ops::broadcast;
use ragtag_engine::ops::cast::cast_buffer;
use ragtag_engine::ops::kernels::BinaryOp;
use ragtag_engine::random::gamma_poisson::{self, RESERVED_PER_OUTPUT};
use ragtag_engine::random::philox::Dist;
use ragtag_engine::{budget, Array, Buffer, DType, ExceptionClass, Tensor};

/// The added random builtins.
pub static BUILTINS: &[Builtin] = &[
    Builtin::function("tf.random.gamma", "(shape, alpha, beta=None, dtype=tf.float32, seed=None, name=None)", gamma)
        .doc("Gamma-distributed samples of shape `shape + broadcast(alpha, beta).shape`: alpha is the shape (concentration) and beta the inverse scale (rate). TensorFlow's numbers under the same seeds (Marsaglia-Tsang rejection over Philox, 256 blocks per output); results are at least the dtype's smallest normal number.")
        .examples(&["tf.random.gamma([3], 2.0, seed=1)", "tf.random.gamma([2], [0.5, 1.5], beta=2.0, seed=7)"]),
    Builtin::function("tf.random.poisson", "(shape, lam, dtype=tf.float32, seed=None, name=None)", poisson)
        .doc("Poisson-distributed samples of shape `shape + lam.shape` in `dtype` (float or int): Knuth's method for rates under 10, Hormann's transformed rejection above, TensorFlow's numbers under the same seeds.")
        .examples(&["tf.random.poisson([4], 3.0, seed=1)", "tf.random.poisson([2], [1.0, 20.0], dtype=tf.int32, seed=2)"]),
    Builtin::function("tf.nn.dropout", "(x, rate, noise_shape=None, seed=None, name=None)", dropout)
        .doc("Zeroes each element with probability `rate` and scales the rest by 1 / (1 - rate). The mask is TensorFlow's: a uniform tensor of `noise_shape` (x's shape by default; None entries take x's dimension) compared with rate, so a set seed gives TensorFlow's zeros. Ragged input drops from its flat values.")
        .examples(&["tf.nn.dropout(tf.ones([2, 5]), 0.5, seed=1)", "tf.nn.dropout(tf.ones([3, 4]), 0.25, noise_shape=[3, 1], seed=2)"]),
    Builtin::function("tf.math.sobol_sample", "(dim, num_results, skip=0, dtype=tf.float32, name=None)", sobol_sample)
        .doc("num_results points of the dim-dimensional Sobol sequence (Joe-Kuo direction numbers, Gray-code order, from the second point), after skipping `skip` points: a [num_results, dim] float32 (or float64) tensor, TensorFlow's numbers. ragtag's table covers the first 64 dimensions.")
        .examples(&["tf.math.sobol_sample(2, 4)", "tf.math.sobol_sample(3, 2, skip=5, dtype=tf.float64)"]),
];

fn sobol_sample(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let dtype = a.dtype("dtype")?.unwrap_or(DType::Float32);
    if !matches!(dtype, DType::Float32 | DType::Float64) {
        return Err(err(
            ExceptionClass::InvalidArgumentError,
            a,
            "dtype",
            format!(
                "Value for attr 'dtype' of {} is not in the list of allowed values: float, double",
                dtype.name()
            ),
        ));
    }
    let skip = a.opt_int("skip")?.unwrap_or(0);
    ragtag_engine::ops::sobol::sobol_sample(
        a.int("dim")?,
        a.int("num_results")?,
        skip,
        dtype == DType::Float64,
    )
    .map(Value::tensor)
    .map_err(|e| Error::from(e).at(a.call))
}

fn err(class: ExceptionClass, a: &Args, name: &str, msg: String) -> Error {
    Error::new(class, msg).at(a.span(name))
}

/// The float dtypes gamma accepts.
fn gamma_dtype(a: &Args) -> Result<DType> {
    let d = a.dtype("dtype")?.unwrap_or(DType::Float32);
    match d {
        DType::Float16 | DType::Float32 | DType::Float64 => Ok(d),
        _ => Err(err(
            ExceptionClass::TypeError,
            a,
            "dtype",
            format!("Value for attr 'T' of {} is not in the list of allowed values: half, float, double", d.name()),
        )),
    }
}

/// A parameter tensor converted to `dtype`, as a dense tensor and its values in f64.
fn param_values(a: &Args, name: &str, dtype: DType) -> Result<(Tensor, Vec<f64>)> {
    let arr = a.array(name, Some(dtype))?;
    let Array::Dense(t) = &*arr else {
        return Err(err(
            ExceptionClass::TypeError,
            a,
            name,
            format!("{name} must be a dense tensor"),
        ));
    };
    let t = if t.dtype() == dtype {
        t.clone()
    } else if t.dtype().is_float() || t.dtype().is_int() {
        Tensor::from_parts(
            t.shape().to_vec(),
            cast_buffer(t.data(), dtype).map_err(|e| a.err_at(name, e))?,
        )
    } else {
        return Err(err(
            ExceptionClass::TypeError,
            a,
            name,
            format!(
                "Cannot convert {name} of dtype {} to {}",
                t.dtype(),
                dtype.name()
            ),
        ));
    };
    let vals = cast_buffer(t.data(), DType::Float64)
        .map_err(|e| a.err_at(name, e))?
        .to_f64_vec()
        .unwrap_or_default();
    Ok((t, vals))
}

/// The output buffer in `dtype` from f64 draws.
fn to_dtype(a: &Args, v: Vec<f64>, dtype: DType) -> Result<Buffer> {
    cast_buffer(&Buffer::from(v), dtype).map_err(|e| a.err_at("dtype", e))
}

fn gamma(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let dtype = gamma_dtype(a)?;
    let (shape, n) = shape_of(a, dtype.item_bytes())?;
    let (alpha_t, _) = param_values(a, "alpha", dtype)?;
    let beta = match a.get("beta") {
        None | Some(Value::None) => None,
        Some(_) => Some(param_values(a, "beta", dtype)?.0),
    };
    // alpha is broadcast against beta before sampling.
    let alpha_t = match &beta {
        None => alpha_t,
        Some(b) => {
            let zeros = Tensor::from_parts(
                b.shape().to_vec(),
                cast_buffer(
                    &Buffer::from(
                        budget::filled("tf.random.gamma", 0.0f64, b.size()).map_err(Error::from)?,
                    ),
                    dtype,
                )
                .map_err(Error::from)?,
            );
            match broadcast::binary(BinaryOp::Add, &Array::Dense(alpha_t), &Array::Dense(zeros))
                .map_err(|e| a.err_at("beta", e))?
            {
                Array::Dense(t) => t,
                Array::Ragged(_) => {
                    return Err(err(
                        ExceptionClass::TypeError,
                        a,
                        "alpha",
                        "alpha must be a dense tensor".into(),
                    ))
                }
            }
        }
    };
    let alphas = cast_buffer(alpha_t.data(), DType::Float64)
        .map_err(Error::from)?
        .to_f64_vec()
        .unwrap_or_default();
    let total = n.saturating_mul(alphas.len());
    budget::check("tf.random.gamma", total as u128, 8).map_err(|e| a.err_at("shape", e))?;
    let seeds = {
        let seed = a.opt_int("seed")?;
        rng::with(|s| s.get_seed(seed))
    };
    let gen = rng::with(|s| {
        s.reserve(
            "RandomGamma",
            dtype.name(),
            seeds,
            RESERVED_PER_OUTPUT * total as u64,
        )
    });
    let mut out =
        budget::filled("tf.random.gamma", 0.0f64, total).map_err(|e| a.err_at("shape", e))?;
    gamma_poisson::gamma(gen, &alphas, n, &mut out);
    let mut full = shape.clone();
    full.extend_from_slice(alpha_t.shape());
    let mut samples = Array::Dense(Tensor::from_parts(full, to_dtype(a, out, dtype)?));
    if let Some(b) = beta {
        samples = broadcast::binary(BinaryOp::Div, &samples, &Array::Dense(b))
            .map_err(|e| a.err_at("beta", e))?;
    }
    let tiny = match dtype {
        DType::Float16 => 6.103_515_6e-5,
        DType::Float32 => f32::MIN_POSITIVE as f64,
        _ => f64::MIN_POSITIVE,
    };
    let tiny = Tensor::from_parts(Vec::new(), to_dtype(a, vec![tiny], dtype)?);
    let r = broadcast::binary(BinaryOp::Maximum, &Array::Dense(tiny), &samples)
        .map_err(|e| a.err_at("alpha", e))?;
    Ok(Value::from_array(r))
}

fn poisson(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let dtype = a.dtype("dtype")?.unwrap_or(DType::Float32);
    if !matches!(
        dtype,
        DType::Float16 | DType::Float32 | DType::Float64 | DType::Int32 | DType::Int64
    ) {
        return Err(err(
            ExceptionClass::InvalidArgumentError,
            a,
            "dtype",
            format!("Value for attr 'dtype' of {} is not in the list of allowed values: half, float, double, int32, int64", dtype.name()),
        ));
    }
    let (shape, n) = shape_of(a, dtype.item_bytes())?;
    let lam = a.array("lam", None)?;
    let lam_dtype = match lam.dtype() {
        d if d.is_float() => d,
        d if d.is_int() => d,
        d => {
            return Err(err(ExceptionClass::TypeError, a, "lam", format!("Value for attr 'R' of {} is not in the list of allowed values: half, float, double, int32, int64", d.name())))
        }
    };
    let (lam_t, rates) = param_values(a, "lam", lam_dtype)?;
    let total = n.saturating_mul(rates.len());
    budget::check("tf.random.poisson", total as u128, 8).map_err(|e| a.err_at("shape", e))?;
    let seeds = {
        let seed = a.opt_int("seed")?;
        rng::with(|s| s.get_seed(seed))
    };
    let gen = rng::with(|s| {
        s.reserve(
            "RandomPoissonV2",
            &format!("{}-{}", lam_dtype.name(), dtype.name()),
            seeds,
            RESERVED_PER_OUTPUT * total as u64,
        )
    });
    let highest = match dtype {
        DType::Int32 => i32::MAX as f64,
        DType::Int64 => i64::MAX as f64,
        DType::Float16 => 65504.0,
        DType::Float32 => f32::MAX as f64,
        _ => f64::MAX,
    };
    let mut out =
        budget::filled("tf.random.poisson", 0.0f64, total).map_err(|e| a.err_at("shape", e))?;
    gamma_poisson::poisson(gen, &rates, n, highest, libm::lgamma, &mut out);
    let mut full = shape;
    full.extend_from_slice(lam_t.shape());
    Ok(Value::tensor(Tensor::from_parts(
        full,
        to_dtype(a, out, dtype)?,
    )))
}

fn dropout(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let x = a.array("x", None)?;
    let dtype = x.dtype();
    if !dtype.is_float() {
        return Err(err(
            ExceptionClass::ValueError,
            a,
            "x",
            format!("`x.dtype` must be a floating point tensor as `x` will be scaled. Received: x_dtype=<dtype: '{}'>", dtype.name()),
        ));
    }
    let rate = convert::to_f64(a.value("rate")).map_err(|e| a.err_at("rate", e))?;
    if !(0.0..1.0).contains(&rate) {
        return Err(err(
            ExceptionClass::ValueError,
            a,
            "rate",
            format!(
                "`rate` must be a scalar tensor or a float in the range [0, 1). Received: rate={}",
                crate::render::tf_text::repr_of(a.value("rate"))
            ),
        ));
    }
    if rate == 0.0 {
        // TensorFlow still takes an op seed from the global sequence.
        let seed = a.opt_int("seed")?;
        rng::with(|s| s.get_seed(seed));
        return Ok(Value::Array(x));
    }
    // Ragged tensors drop from their flat values.
    let (flat, ragged) = match &*x {
        Array::Dense(t) => (t.clone(), None),
        Array::Ragged(r) => (r.flat_values().clone(), Some(r.clone())),
    };
    let noise: Vec<usize> = match a.get("noise_shape") {
        None | Some(Value::None) => flat.shape().to_vec(),
        Some(v) => {
            let items: Vec<Value> = match v {
                Value::List(l) => l.items(),
                Value::Tuple(t) => t.to_vec(),
                _ => convert::to_ints(v)
                    .map_err(|e| a.err_at("noise_shape", e))?
                    .into_iter()
                    .map(Value::Int)
                    .collect(),
            };
            if items.len() != flat.rank() {
                return Err(err(
                    ExceptionClass::InvalidArgumentError,
                    a,
                    "noise_shape",
                    format!(
                        "Incompatible shapes: {:?} vs. {:?}",
                        flat.shape(),
                        items.len()
                    ),
                ));
            }
            let mut dims = Vec::new();
            for (i, it) in items.iter().enumerate() {
                dims.push(match it {
                    Value::None => flat.shape()[i],
                    v => {
                        usize::try_from(convert::to_int(v).map_err(|e| a.err_at("noise_shape", e))?)
                            .map_err(|_| {
                                err(
                                    ExceptionClass::InvalidArgumentError,
                                    a,
                                    "noise_shape",
                                    "Dimension -1 must be >= 0".into(),
                                )
                            })?
                    }
                });
            }
            dims
        }
    };
    let n: usize = noise.iter().product();
    budget::check("tf.nn.dropout", n as u128, 8).map_err(|e| a.err_at("noise_shape", e))?;
    let keep = 1.0 - rate;
    let scale = 1.0 / keep;
    let scalar = |v: f64| -> Result<Array> {
        Ok(Array::Dense(Tensor::from_parts(
            Vec::new(),
            cast_buffer(&Buffer::from(vec![v]), dtype).map_err(Error::from)?,
        )))
    };
    let ret = broadcast::binary(BinaryOp::Mul, &Array::Dense(flat.clone()), &scalar(scale)?)
        .map_err(|e| a.err_at("x", e))?;
    let seeds = {
        let seed = a.opt_int("seed")?;
        rng::with(|s| s.get_seed(seed))
    };
    let gen = rng::with(|s| {
        s.reserve(
            "RandomUniform",
            dtype.name(),
            seeds,
            ragtag_engine::random::philox::reserved_for(n),
        )
    });
    let random = floats(gen, Dist::Uniform, dtype, noise, n, None, None)?;
    let mask = broadcast::binary(BinaryOp::Ge, &Array::Dense(random), &scalar(rate)?)
        .map_err(|e| a.err_at("noise_shape", e))?;
    let zero = scalar(0.0)?;
    let out = ragtag_engine::ops::mask::where_select(&mask, &ret, &zero)
        .map_err(|e| a.err_at("noise_shape", e))?;
    match (ragged, out) {
        (Some(r), Array::Dense(t)) => Ok(Value::from_array(Array::Ragged(
            r.with_flat_values(t).map_err(|e| a.err_at("x", e))?,
        ))),
        (_, out) => Ok(Value::Array(Arc::new(out))),
    }
}
