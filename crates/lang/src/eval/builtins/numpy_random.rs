//! `np.random`: the legacy global `RandomState` (MT19937, NumPy's seeding, the polar
//! Gaussian with its cached value) and `np.random.default_rng` Generators (SeedSequence →
//! PCG64), drawing NumPy's own numbers.

use std::sync::Arc;

use super::numpy::nd;
use super::Builtin;
use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::rng;
use crate::eval::Interp;
use crate::value::{convert, Value};
use ragtag_engine::random::mt19937::Mt19937;
use ragtag_engine::{budget, size, Array, Buffer, DType, ExceptionClass, Tensor};

/// NumPy's random functions and Generator methods.
pub static BUILTINS: &[Builtin] = &[
    Builtin::function("np.random.seed", "(seed=None)", seed)
        .doc("Seeds NumPy's global RandomState (MT19937) as NumPy does, so np.random.rand, randn, randint, permutation and choice give NumPy's numbers.")
        .examples(&["np.random.seed(0)\nnp.random.rand(3)"]),
    Builtin::function("np.random.rand", "(*shape)", rand)
        .doc("Uniform floats in [0, 1) of the given shape from the global RandomState (a float with no shape).")
        .examples(&["np.random.seed(1)\nnp.random.rand(2, 2)"]),
    Builtin::function("np.random.randn", "(*shape)", randn)
        .doc("Standard normal floats from the global RandomState (NumPy's legacy polar method).")
        .examples(&["np.random.seed(1)\nnp.random.randn(3)"]),
    Builtin::function("np.random.randint", "(low, high=None, size=None, dtype=None)", randint)
        .doc("Integers in [low, high) (or [0, low) with one bound) from the global RandomState.")
        .examples(&["np.random.seed(2)\nnp.random.randint(0, 10, size=5)"]),
    Builtin::function("np.random.permutation", "(x)", permutation)
        .doc("A shuffled copy of `x` along its first axis, or of np.arange(x) for an int.")
        .examples(&["np.random.seed(3)\nnp.random.permutation(6)"]),
    Builtin::function("np.random.shuffle", "(x)", shuffle)
        .doc("Shuffles a Python list in place (NumPy's order for the global RandomState) and returns None.")
        .examples(&["np.random.seed(3)\nxs = [1, 2, 3, 4]\nnp.random.shuffle(xs)\nxs"]),
    Builtin::function("np.random.choice", "(a, size=None, replace=True, p=None)", choice)
        .doc("Random samples from `a` (an int n means np.arange(n)), with or without replacement, optionally with probabilities `p`.")
        .examples(&["np.random.seed(4)\nnp.random.choice(5, 3)"]),
];

/// The Opaque text naming Generator `id` (what NumPy's repr looks like).
pub(super) const GENERATOR: &str = "Generator(PCG64) at 0x";

/// Whether a value is an np.random.Generator.
pub fn is_generator(v: &Value) -> bool {
    matches!(v, Value::Opaque(o) if o.starts_with(GENERATOR))
}

pub(super) fn err(class: ExceptionClass, msg: impl Into<String>, a: &Args, at: &str) -> Error {
    Error::new(class, msg.into()).at(a.span(at))
}

fn seed(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let mt = match a.get("seed") {
        None => rng::with(|s| {
            let words: Vec<u32> = (0..4).map(|_| s.entropy_u64() as u32).collect();
            Mt19937::from_key(&words)
        }),
        Some(Value::Int(i)) => {
            if !(0..=u32::MAX as i64).contains(i) {
                return Err(err(
                    ExceptionClass::ValueError,
                    "Seed must be between 0 and 2**32 - 1",
                    a,
                    "seed",
                ));
            }
            Mt19937::from_u32(*i as u32)
        }
        Some(_) => {
            let words = a.ints("seed")?;
            if words.is_empty() {
                return Err(err(
                    ExceptionClass::ValueError,
                    "Seed must be non-empty",
                    a,
                    "seed",
                ));
            }
            if words.iter().any(|w| !(0..=u32::MAX as i64).contains(w)) {
                return Err(err(
                    ExceptionClass::ValueError,
                    "Seed must be between 0 and 2**32 - 1",
                    a,
                    "seed",
                ));
            }
            Mt19937::from_key(&words.iter().map(|&w| w as u32).collect::<Vec<_>>())
        }
    };
    rng::with(|s| s.numpy = mt);
    Ok(Value::None)
}

/// A `size`/shape argument: None means one Python scalar.
pub(super) fn dims_of(
    a: &Args,
    v: Option<&Value>,
    at: &str,
) -> Result<Option<(Vec<usize>, usize)>> {
    let Some(v) = v else { return Ok(None) };
    let dims = match v {
        Value::Int(n) => vec![*n],
        other => convert::to_ints(other).map_err(|e| a.err_at(at, e))?,
    };
    if dims.iter().any(|&d| d < 0) {
        return Err(err(
            ExceptionClass::ValueError,
            "negative dimensions are not allowed",
            a,
            at,
        ));
    }
    let shape = size::dims("dimensions", &dims).map_err(|e| a.err_at(at, e))?;
    let n = size::numel(&shape).map_err(|e| a.err_at(at, e))?;
    budget::check(a.builtin().name, n as u128, 8).map_err(|e| a.err_at(at, e))?;
    Ok(Some((shape, n)))
}

pub(super) fn floats_out(
    shape: Option<(Vec<usize>, usize)>,
    mut draw: impl FnMut() -> f64,
) -> Result<Value> {
    match shape {
        None => Ok(Value::Float(draw())),
        Some((shape, n)) => {
            let mut v: Vec<f64> = budget::vec("np.random", n).map_err(Error::from)?;
            v.extend((0..n).map(|_| draw()));
            Ok(nd(Tensor::new(shape, Buffer::from(v)).map_err(Error::from)?))
        }
    }
}

pub(super) fn ints_out(
    shape: Option<(Vec<usize>, usize)>,
    mut draw: impl FnMut() -> i64,
) -> Result<Value> {
    match shape {
        None => Ok(Value::Int(draw())),
        Some((shape, n)) => {
            let mut v: Vec<i64> = budget::vec("np.random", n).map_err(Error::from)?;
            v.extend((0..n).map(|_| draw()));
            Ok(nd(Tensor::new(shape, Buffer::from(v)).map_err(Error::from)?))
        }
    }
}

/// The `*shape` arguments of rand/randn.
fn star_shape(a: &Args) -> Result<Option<(Vec<usize>, usize)>> {
    if a.rest().is_empty() {
        return Ok(None);
    }
    let dims: Vec<Value> = a.rest().iter().map(|(v, _)| v.clone()).collect();
    dims_of(a, Some(&Value::Tuple(Arc::new(dims))), "shape")
}

fn rand(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let shape = star_shape(a)?;
    rng::with(|s| floats_out(shape, || s.numpy.next_f64()))
}

fn randn(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let shape = star_shape(a)?;
    rng::with(|s| floats_out(shape, || s.numpy.np_gauss()))
}

/// `(low, high)` of randint/integers, with one bound meaning [0, low).
pub(super) fn bounds(a: &Args, endpoint: bool) -> Result<(i64, u64)> {
    let low = a.int("low")?;
    let (low, high) = match a.opt_int("high")? {
        None => (0, low),
        Some(h) => (low, h),
    };
    let top = if endpoint { high } else { high.wrapping_sub(1) };
    if (endpoint && low > high) || (!endpoint && low >= high) {
        return Err(err(ExceptionClass::ValueError, "low >= high", a, "low"));
    }
    Ok((low, (top as i128 - low as i128) as u64))
}

fn randint(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let (low, range) = bounds(a, false)?;
    let shape = dims_of(a, a.get("size"), "size")?;
    rng::with(|s| {
        ints_out(shape, || {
            low.wrapping_add(s.numpy.np_interval(range) as i64)
        })
    })
}

/// The population of a choice/permutation: a dense tensor with NumPy's dtypes.
fn population(a: &Args, name: &str) -> Result<Tensor> {
    let x = a.array(name, None)?;
    let Array::Dense(t) = &*x else {
        return Err(err(
            ExceptionClass::ValueError,
            "a must be a dense array",
            a,
            name,
        ));
    };
    // A Python list of ints/floats is int64/float64 in NumPy.
    let t = match (a.value(name), t.dtype()) {
        (Value::List(_) | Value::Tuple(_), DType::Int32) => cast(t, DType::Int64)?,
        (Value::List(_) | Value::Tuple(_), DType::Float32) => cast(t, DType::Float64)?,
        _ => t.clone(),
    };
    Ok(t)
}

fn cast(t: &Tensor, d: DType) -> Result<Tensor> {
    let b = ragtag_engine::ops::cast::cast_buffer(t.data(), d).map_err(Error::from)?;
    Tensor::new(t.shape().to_vec(), b).map_err(Error::from)
}

/// Either `arange(n)` for an int argument or the rows of an array.
pub(super) enum Pool {
    Range(usize),
    Rows(Tensor),
}

pub(super) fn pool(a: &Args, name: &str) -> Result<Pool> {
    match a.value(name) {
        Value::Int(n) if *n >= 0 => Ok(Pool::Range(*n as usize)),
        Value::Int(_) => Err(err(
            ExceptionClass::ValueError,
            "a must be a positive integer unless no samples are taken",
            a,
            name,
        )),
        _ => {
            let t = population(a, name)?;
            if t.shape().is_empty() {
                return Err(err(
                    ExceptionClass::ValueError,
                    "a must be 1-dimensional or an integer",
                    a,
                    name,
                ));
            }
            Ok(Pool::Rows(t))
        }
    }
}

impl Pool {
    pub(super) fn len(&self) -> usize {
        match self {
            Pool::Range(n) => *n,
            Pool::Rows(t) => t.shape()[0],
        }
    }
    pub(super) fn pick(&self, idx: &[usize], shape: Option<Vec<usize>>) -> Result<Value> {
        match self {
            Pool::Range(_) => {
                let v: Vec<i64> = idx.iter().map(|&i| i as i64).collect();
                match shape {
                    None => Ok(Value::Int(v[0])),
                    Some(s) => Ok(nd(Tensor::new(s, Buffer::from(v)).map_err(Error::from)?)),
                }
            }
            Pool::Rows(t) => {
                let g = t.gather_rows(idx);
                match shape {
                    None => Ok(nd(Tensor::new(t.shape()[1..].to_vec(), g.data().clone())
                        .map_err(Error::from)?)),
                    Some(mut s) => {
                        s.extend_from_slice(&t.shape()[1..]);
                        Ok(nd(Tensor::new(s, g.data().clone()).map_err(Error::from)?))
                    }
                }
            }
        }
    }
}

fn permutation(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let p = pool(a, "x")?;
    let mut idx: Vec<usize> = (0..p.len()).collect();
    rng::with(|s| {
        for i in (1..idx.len()).rev() {
            let j = s.numpy.np_interval(i as u64) as usize;
            idx.swap(i, j);
        }
    });
    p.pick(&idx, Some(vec![idx.len()]))
}

pub(super) fn shuffle_list(a: &Args, mut interval: impl FnMut(u64) -> u64) -> Result<Value> {
    let Value::List(l) = a.value("x") else {
        return Err(err(
            ExceptionClass::TypeError,
            "ragtag shuffles Python lists in place; NumPy arrays are values here, so use permutation(x) for a shuffled copy",
            a,
            "x",
        ));
    };
    let mut items = l.items();
    for i in (1..items.len()).rev() {
        let j = interval(i as u64) as usize;
        items.swap(i, j);
    }
    l.set_items(items);
    Ok(Value::None)
}

fn shuffle(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    rng::with(|s| shuffle_list(a, |i| s.numpy.np_interval(i)))
}

/// The probabilities `p` as a normalised CDF, checked as NumPy checks them.
pub(super) fn cdf(a: &Args, n: usize) -> Result<Option<Vec<f64>>> {
    let Some(p) = a.get("p") else { return Ok(None) };
    let x = convert::to_array(p, Some(DType::Float64)).map_err(|e| a.err_at("p", e))?;
    let Array::Dense(t) = &*x else {
        return Err(err(
            ExceptionClass::ValueError,
            "p must be 1-dimensional",
            a,
            "p",
        ));
    };
    let v = t.data().to_f64_vec().unwrap_or_default();
    if t.shape().len() != 1 {
        return Err(err(
            ExceptionClass::ValueError,
            "p must be 1-dimensional",
            a,
            "p",
        ));
    }
    if v.len() != n {
        return Err(err(
            ExceptionClass::ValueError,
            "a and p must have same size",
            a,
            "p",
        ));
    }
    if v.iter().any(|&x| x < 0.0) {
        return Err(err(
            ExceptionClass::ValueError,
            "probabilities are not non-negative",
            a,
            "p",
        ));
    }
    if (v.iter().sum::<f64>() - 1.0).abs() > f64::EPSILON.sqrt() {
        return Err(err(
            ExceptionClass::ValueError,
            "probabilities do not sum to 1",
            a,
            "p",
        ));
    }
    let mut acc = 0.0;
    let mut c: Vec<f64> = v
        .iter()
        .map(|x| {
            acc += x;
            acc
        })
        .collect();
    let last = *c.last().unwrap_or(&1.0);
    c.iter_mut().for_each(|x| *x /= last);
    Ok(Some(c))
}

/// Shared checks of choice: the pool, the output shape and count.
/// A choice's pool, output shape and count, and normalised CDF.
pub(super) type ChoiceSetup = (Pool, Option<(Vec<usize>, usize)>, Option<Vec<f64>>);

pub(super) fn choice_setup(a: &Args) -> Result<ChoiceSetup> {
    let p = pool(a, "a")?;
    let shape = dims_of(a, a.get("size"), "size")?;
    let want = shape.as_ref().map_or(1, |s| s.1);
    if p.len() == 0 && want > 0 {
        return Err(err(
            ExceptionClass::ValueError,
            "a cannot be empty unless no samples are taken",
            a,
            "a",
        ));
    }
    let c = cdf(a, p.len())?;
    Ok((p, shape, c))
}

fn choice(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let (p, shape, c) = choice_setup(a)?;
    let want = shape.as_ref().map_or(1, |s| s.1);
    let replace = a.flag("replace", true)?;
    let idx: Vec<usize> = rng::with(|s| -> Result<Vec<usize>> {
        if replace {
            Ok(match &c {
                Some(c) => (0..want)
                    .map(|_| {
                        let u = s.numpy.next_f64();
                        c.partition_point(|&x| x <= u)
                    })
                    .collect(),
                None => (0..want)
                    .map(|_| s.numpy.np_interval(p.len() as u64 - 1) as usize)
                    .collect(),
            })
        } else {
            if want > p.len() {
                return Err(err(
                    ExceptionClass::ValueError,
                    "Cannot take a larger sample than population when 'replace=False'",
                    a,
                    "size",
                ));
            }
            if c.is_some() {
                return Err(err(
                    ExceptionClass::UnimplementedError,
                    "ragtag's choice has no p= without replacement",
                    a,
                    "p",
                ));
            }
            let mut idx: Vec<usize> = (0..p.len()).collect();
            for i in (1..idx.len()).rev() {
                let j = s.numpy.np_interval(i as u64) as usize;
                idx.swap(i, j);
            }
            idx.truncate(want);
            Ok(idx)
        }
    })?;
    p.pick(&idx, shape.map(|s| s.0))
}
