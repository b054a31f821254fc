//! `np.random.default_rng` and the methods of its Generators (SeedSequence → PCG64), drawing
//! NumPy's own numbers.

use super::numpy::nd;
use super::numpy_random::{
    bounds, choice_setup, dims_of, err, floats_out, ints_out, pool, shuffle_list, GENERATOR,
};
use super::Builtin;
use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::rng;
use crate::eval::Interp;
use crate::value::{convert, Value};
use ragtag_engine::random::mt19937::Mt19937;
use ragtag_engine::random::pcg64::Pcg64;
use ragtag_engine::{Buffer, ExceptionClass, Tensor};

/// `np.random.default_rng` and the Generator methods.
pub static BUILTINS: &[Builtin] = &[
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

fn default_rng(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let words = match a.get("seed") {
        None => rng::with(|s| (0..4).map(|_| s.entropy_u64() as u32).collect()),
        Some(v) => {
            let seeds = match v {
                Value::Int(i) => vec![*i],
                other => convert::to_ints(other).map_err(|e| a.err_at("seed", e))?,
            };
            if seeds.iter().any(|&s| s < 0) {
                return Err(err(
                    ExceptionClass::ValueError,
                    "expected non-negative integer",
                    a,
                    "seed",
                ));
            }
            // Each int contributes its 32-bit words, lowest first.
            seeds
                .iter()
                .flat_map(|&s| Mt19937::key_of(s as u128))
                .collect::<Vec<u32>>()
        }
    };
    let id = rng::with(|s| {
        s.generators.push(Pcg64::from_entropy_words(&words));
        s.generators.len()
    });
    Ok(Value::Opaque(crate::value::ThinStr::from(format!(
        "{GENERATOR}{id:X}"
    ))))
}

/// Runs `f` on the Generator a method was called on.
fn with_gen<R>(a: &Args, f: impl FnOnce(&mut Pcg64) -> R) -> Result<R> {
    let Value::Opaque(o) = a.value("self") else {
        return Err(err(ExceptionClass::TypeError, "not a Generator", a, "self"));
    };
    let id = usize::from_str_radix(o.trim_start_matches(GENERATOR), 16).unwrap_or(0);
    rng::with(|s| s.generators.get_mut(id.wrapping_sub(1)).map(f)).ok_or_else(|| {
        err(
            ExceptionClass::ValueError,
            "this Generator belongs to another session",
            a,
            "self",
        )
    })
}

fn g_random(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let shape = dims_of(a, a.get("size"), "size")?;
    with_gen(a, |g| floats_out(shape, || g.next_f64()))?
}

fn g_integers(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let (low, range) = bounds(a, a.flag("endpoint", false)?)?;
    let shape = dims_of(a, a.get("size"), "size")?;
    let v = with_gen(a, |g| {
        ints_out(shape, || low.wrapping_add(g.bounded(range) as i64))
    })??;
    // Generator.integers gives a NumPy int64 scalar (a 0-d array here), not a Python int.
    match v {
        Value::Int(i) => Ok(nd(
            Tensor::new(vec![], Buffer::from(vec![i])).map_err(Error::from)?
        )),
        v => Ok(v),
    }
}

fn fparam(a: &Args, name: &str, default: f64) -> Result<f64> {
    a.get(name).map_or(Ok(default), |v| {
        convert::to_f64(v).map_err(|e| a.err_at(name, e))
    })
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
                None => (0..want)
                    .map(|_| g.bounded(n as u64 - 1) as usize)
                    .collect(),
            });
        }
        if want > n {
            return Err(err(
                ExceptionClass::ValueError,
                "Cannot take a larger sample than population when replace is False",
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
        let mut set = ragtag_engine::budget::filled("choice", u64::MAX, mask as usize + 1)?;
        let mut idx = ragtag_engine::budget::filled("choice", 0usize, want)?;
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
