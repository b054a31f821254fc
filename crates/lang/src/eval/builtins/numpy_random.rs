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
use ragtag_engine::random::pcg64::Pcg64;
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
    Builtin::function("np.random.default_rng", "(seed=None)", default_rng)
        .doc("A NumPy Generator (PCG64 seeded through SeedSequence): its random, integers, normal, uniform, choice, permutation and shuffle give NumPy's numbers for the same seed.")
        .examples(&["rng = np.random.default_rng(42)\nrng.random(3)"]),
    Builtin::method("np.random.Generator.random", "(self, size=None)", g_random)
        .doc("Uniform floats in [0, 1).")
        .examples(&["np.random.default_rng(1).random(2)"]),
    Builtin::method("np.random.Generator.integers", "(self, low, high=None, size=None, dtype=None, endpoint=False)", g_integers)
        .doc("Integers in [low, high) (Lemire's method, as NumPy).")
        .examples(&["np.random.default_rng(1).integers(0, 10, size=4)"]),
    Builtin::method("np.random.Generator.normal", "(self, loc=0.0, scale=1.0, size=None)", g_normal)
        .doc("Normal floats (NumPy's ziggurat).")
        .examples(&["np.random.default_rng(1).normal(size=3)"]),
    Builtin::method("np.random.Generator.standard_normal", "(self, size=None)", g_standard_normal)
        .doc("Standard normal floats.")
        .examples(&["np.random.default_rng(1).standard_normal(2)"]),
    Builtin::method("np.random.Generator.uniform", "(self, low=0.0, high=1.0, size=None)", g_uniform)
        .doc("Uniform floats in [low, high).")
        .examples(&["np.random.default_rng(1).uniform(-1, 1, size=3)"]),
    Builtin::method("np.random.Generator.choice", "(self, a, size=None, replace=True, p=None, shuffle=True)", g_choice)
        .doc("Random samples from `a` (an int n means np.arange(n)).")
        .examples(&["np.random.default_rng(1).choice(10, 3, replace=False)"]),
    Builtin::method("np.random.Generator.permutation", "(self, x)", g_permutation)
        .doc("A shuffled copy of `x` along its first axis, or of np.arange(x) for an int.")
        .examples(&["np.random.default_rng(1).permutation(5)"]),
    Builtin::method("np.random.Generator.shuffle", "(self, x)", g_shuffle)
        .doc("Shuffles a Python list in place and returns None.")
        .examples(&["xs = [1, 2, 3]\nnp.random.default_rng(1).shuffle(xs)\nxs"]),
];

/// The Opaque text naming Generator `id` (what NumPy's repr looks like).
const GENERATOR: &str = "Generator(PCG64) at 0x";

/// Whether a value is an np.random.Generator.
pub fn is_generator(v: &Value) -> bool {
    matches!(v, Value::Opaque(o) if o.starts_with(GENERATOR))
}

fn err(class: ExceptionClass, msg: impl Into<String>, a: &Args, at: &str) -> Error {
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
                return Err(err(ExceptionClass::ValueError, "Seed must be between 0 and 2**32 - 1", a, "seed"));
            }
            Mt19937::from_u32(*i as u32)
        }
        Some(_) => {
            let words = a.ints("seed")?;
            if words.is_empty() {
                return Err(err(ExceptionClass::ValueError, "Seed must be non-empty", a, "seed"));
            }
            if words.iter().any(|w| !(0..=u32::MAX as i64).contains(w)) {
                return Err(err(ExceptionClass::ValueError, "Seed must be between 0 and 2**32 - 1", a, "seed"));
            }
            Mt19937::from_key(&words.iter().map(|&w| w as u32).collect::<Vec<_>>())
        }
    };
    rng::with(|s| s.numpy = mt);
    Ok(Value::None)
}

/// A `size`/shape argument: None means one Python scalar.
fn dims_of(a: &Args, v: Option<&Value>, at: &str) -> Result<Option<(Vec<usize>, usize)>> {
    let Some(v) = v else { return Ok(None) };
    let dims = match v {
        Value::Int(n) => vec![*n],
        other => convert::to_ints(other).map_err(|e| a.err_at(at, e))?,
    };
    if dims.iter().any(|&d| d < 0) {
        return Err(err(ExceptionClass::ValueError, "negative dimensions are not allowed", a, at));
    }
    let shape = size::dims("dimensions", &dims).map_err(|e| a.err_at(at, e))?;
    let n = size::numel(&shape).map_err(|e| a.err_at(at, e))?;
    budget::check(a.builtin().name, n as u128, 8).map_err(|e| a.err_at(at, e))?;
    Ok(Some((shape, n)))
}

fn floats_out(shape: Option<(Vec<usize>, usize)>, mut draw: impl FnMut() -> f64) -> Result<Value> {
    match shape {
        None => Ok(Value::Float(draw())),
        Some((shape, n)) => {
            let mut v: Vec<f64> = budget::vec("np.random", n).map_err(Error::from)?;
            v.extend((0..n).map(|_| draw()));
            Ok(nd(Tensor::new(shape, Buffer::from(v)).map_err(Error::from)?))
        }
    }
}

fn ints_out(shape: Option<(Vec<usize>, usize)>, mut draw: impl FnMut() -> i64) -> Result<Value> {
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
fn bounds(a: &Args, endpoint: bool) -> Result<(i64, u64)> {
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
    rng::with(|s| ints_out(shape, || low.wrapping_add(s.numpy.np_interval(range) as i64)))
}

/// The population of a choice/permutation: a dense tensor with NumPy's dtypes.
fn population(a: &Args, name: &str) -> Result<Tensor> {
    let x = a.array(name, None)?;
    let Array::Dense(t) = &*x else {
        return Err(err(ExceptionClass::ValueError, "a must be a dense array", a, name));
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
enum Pool {
    Range(usize),
    Rows(Tensor),
}

fn pool(a: &Args, name: &str) -> Result<Pool> {
    match a.value(name) {
        Value::Int(n) if *n >= 0 => Ok(Pool::Range(*n as usize)),
        Value::Int(_) => Err(err(ExceptionClass::ValueError, "a must be a positive integer unless no samples are taken", a, name)),
        _ => {
            let t = population(a, name)?;
            if t.shape().is_empty() {
                return Err(err(ExceptionClass::ValueError, "a must be 1-dimensional or an integer", a, name));
            }
            Ok(Pool::Rows(t))
        }
    }
}

impl Pool {
    fn len(&self) -> usize {
        match self {
            Pool::Range(n) => *n,
            Pool::Rows(t) => t.shape()[0],
        }
    }
    fn pick(&self, idx: &[usize], shape: Option<Vec<usize>>) -> Result<Value> {
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
                    None => Ok(nd(Tensor::new(t.shape()[1..].to_vec(), g.data().clone()).map_err(Error::from)?)),
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

fn shuffle_list(a: &Args, mut interval: impl FnMut(u64) -> u64) -> Result<Value> {
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
fn cdf(a: &Args, n: usize) -> Result<Option<Vec<f64>>> {
    let Some(p) = a.get("p") else { return Ok(None) };
    let x = convert::to_array(p, Some(DType::Float64)).map_err(|e| a.err_at("p", e))?;
    let Array::Dense(t) = &*x else {
        return Err(err(ExceptionClass::ValueError, "p must be 1-dimensional", a, "p"));
    };
    let v = t.data().to_f64_vec().unwrap_or_default();
    if t.shape().len() != 1 {
        return Err(err(ExceptionClass::ValueError, "p must be 1-dimensional", a, "p"));
    }
    if v.len() != n {
        return Err(err(ExceptionClass::ValueError, "a and p must have same size", a, "p"));
    }
    if v.iter().any(|&x| x < 0.0) {
        return Err(err(ExceptionClass::ValueError, "probabilities are not non-negative", a, "p"));
    }
    if (v.iter().sum::<f64>() - 1.0).abs() > f64::EPSILON.sqrt() {
        return Err(err(ExceptionClass::ValueError, "probabilities do not sum to 1", a, "p"));
    }
    let mut acc = 0.0;
    let mut c: Vec<f64> = v.iter().map(|x| {
        acc += x;
        acc
    }).collect();
    let last = *c.last().unwrap_or(&1.0);
    c.iter_mut().for_each(|x| *x /= last);
    Ok(Some(c))
}

/// Shared checks of choice: the pool, the output shape and count.
fn choice_setup(a: &Args) -> Result<(Pool, Option<(Vec<usize>, usize)>, Option<Vec<f64>>)> {
    let p = pool(a, "a")?;
    let shape = dims_of(a, a.get("size"), "size")?;
    let want = shape.as_ref().map_or(1, |s| s.1);
    if p.len() == 0 && want > 0 {
        return Err(err(ExceptionClass::ValueError, "a cannot be empty unless no samples are taken", a, "a"));
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
                None => (0..want).map(|_| s.numpy.np_interval(p.len() as u64 - 1) as usize).collect(),
            })
        } else {
            if want > p.len() {
                return Err(err(ExceptionClass::ValueError, "Cannot take a larger sample than population when 'replace=False'", a, "size"));
            }
            if c.is_some() {
                return Err(err(ExceptionClass::UnimplementedError, "ragtag's choice has no p= without replacement", a, "p"));
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

fn default_rng(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let words = match a.get("seed") {
        None => rng::with(|s| (0..4).map(|_| s.entropy_u64() as u32).collect()),
        Some(v) => {
            let seeds = match v {
                Value::Int(i) => vec![*i],
                other => convert::to_ints(other).map_err(|e| a.err_at("seed", e))?,
            };
            if seeds.iter().any(|&s| s < 0) {
                return Err(err(ExceptionClass::ValueError, "expected non-negative integer", a, "seed"));
            }
            // Each int contributes its 32-bit words, lowest first.
            seeds.iter().flat_map(|&s| Mt19937::key_of(s as u128)).collect::<Vec<u32>>()
        }
    };
    let id = rng::with(|s| {
        s.generators.push(Pcg64::from_entropy_words(&words));
        s.generators.len()
    });
    Ok(Value::Opaque(Arc::from(format!("{GENERATOR}{id:X}"))))
}

/// Runs `f` on the Generator a method was called on.
fn with_gen<R>(a: &Args, f: impl FnOnce(&mut Pcg64) -> R) -> Result<R> {
    let Value::Opaque(o) = a.value("self") else {
        return Err(err(ExceptionClass::TypeError, "not a Generator", a, "self"));
    };
    let id = usize::from_str_radix(o.trim_start_matches(GENERATOR), 16).unwrap_or(0);
    rng::with(|s| s.generators.get_mut(id.wrapping_sub(1)).map(f))
        .ok_or_else(|| err(ExceptionClass::ValueError, "this Generator belongs to another session", a, "self"))
}

fn g_random(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let shape = dims_of(a, a.get("size"), "size")?;
    with_gen(a, |g| floats_out(shape, || g.next_f64()))?
}

fn g_integers(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let (low, range) = bounds(a, a.flag("endpoint", false)?)?;
    let shape = dims_of(a, a.get("size"), "size")?;
    let v = with_gen(a, |g| ints_out(shape, || low.wrapping_add(g.bounded(range) as i64)))??;
    // Generator.integers gives a NumPy int64 scalar (a 0-d array here), not a Python int.
    match v {
        Value::Int(i) => Ok(nd(Tensor::new(vec![], Buffer::from(vec![i])).map_err(Error::from)?)),
        v => Ok(v),
    }
}

fn fparam(a: &Args, name: &str, default: f64) -> Result<f64> {
    a.get(name).map_or(Ok(default), |v| convert::to_f64(v).map_err(|e| a.err_at(name, e)))
}

fn g_normal(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let (loc, scale) = (fparam(a, "loc", 0.0)?, fparam(a, "scale", 1.0)?);
    if scale < 0.0 {
        return Err(err(ExceptionClass::ValueError, "scale < 0", a, "scale"));
    }
    let shape = dims_of(a, a.get("size"), "size")?;
    with_gen(a, |g| floats_out(shape, || loc + scale * g.normal()))?
}

fn g_standard_normal(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let shape = dims_of(a, a.get("size"), "size")?;
    with_gen(a, |g| floats_out(shape, || g.normal()))?
}

fn g_uniform(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let (lo, hi) = (fparam(a, "low", 0.0)?, fparam(a, "high", 1.0)?);
    let shape = dims_of(a, a.get("size"), "size")?;
    with_gen(a, |g| floats_out(shape, || lo + (hi - lo) * g.next_f64()))?
}

fn g_permutation(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let p = pool(a, "x")?;
    let mut idx: Vec<usize> = (0..p.len()).collect();
    with_gen(a, |g| {
        for i in (1..idx.len()).rev() {
            let j = g.interval(i as u64) as usize;
            idx.swap(i, j);
        }
    })?;
    p.pick(&idx, Some(vec![idx.len()]))
}

fn g_shuffle(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    with_gen(a, |g| shuffle_list(a, |i| g.interval(i)))?
}

fn g_choice(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let (p, shape, c) = choice_setup(a)?;
    let want = shape.as_ref().map_or(1, |s| s.1);
    let replace = a.flag("replace", true)?;
    let do_shuffle = a.flag("shuffle", true)?;
    let n = p.len();
    let idx = with_gen(a, |g| -> Result<Vec<usize>> {
        if replace {
            return Ok(match &c {
                Some(c) => (0..want)
                    .map(|_| {
                        let u = g.next_f64();
                        c.partition_point(|&x| x <= u)
                    })
                    .collect(),
                None => (0..want).map(|_| g.bounded(n as u64 - 1) as usize).collect(),
            });
        }
        if want > n {
            return Err(err(ExceptionClass::ValueError, "Cannot take a larger sample than population when replace is False", a, "size"));
        }
        if c.is_some() {
            return Err(err(ExceptionClass::UnimplementedError, "ragtag's choice has no p= without replacement", a, "p"));
        }
        let cutoff = if do_shuffle { 50 } else { 20 };
        if n > 10_000 && want > n / cutoff {
            // Tail shuffle: the last `want` places of a partial Fisher-Yates.
            let mut idx: Vec<usize> = (0..n).collect();
            for i in (n.saturating_sub(want).max(1)..n).rev() {
                let j = g.bounded(i as u64) as usize;
                idx.swap(i, j);
            }
            return Ok(idx[n - want..].to_vec());
        }
        // Floyd's algorithm with NumPy's open-addressing set.
        let set_size = (1.2 * want as f64) as u64;
        let mut mask = set_size;
        for shift in [1, 2, 4, 8, 16, 32] {
            mask |= mask >> shift;
        }
        let mut set = vec![u64::MAX; mask as usize + 1];
        let mut idx = vec![0usize; want];
        for j in (n - want)..n {
            let val = g.bounded(j as u64);
            let mut loc = (val & mask) as usize;
            while set[loc] != u64::MAX && set[loc] != val {
                loc = (loc + 1) & mask as usize;
            }
            if set[loc] == u64::MAX {
                set[loc] = val;
                idx[j + want - n] = val as usize;
            } else {
                let mut loc = j & mask as usize;
                while set[loc] != u64::MAX {
                    loc = (loc + 1) & mask as usize;
                }
                set[loc] = j as u64;
                idx[j + want - n] = j;
            }
        }
        if do_shuffle {
            for i in (1..want).rev() {
                let j = g.bounded(i as u64) as usize;
                idx.swap(i, j);
            }
        }
        Ok(idx)
    })??;
    p.pick(&idx, shape.map(|s| s.0))
}

