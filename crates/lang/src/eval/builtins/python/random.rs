//! Python's `random` module: CPython's Mersenne Twister (the engine's MT19937, seeded as
//! `random.seed(n)` seeds it: `init_by_array` of the 32-bit words of |n|), and the functions
//! on top of it written as CPython 3.11 writes them, so a seeded program draws the same
//! values (`random.seed(0); random.random()` is 0.8444218515250481).

use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::builtins::Builtin;
use crate::eval::{rng, Interp};
use crate::value::{PyList, Value};
use ragtag_engine::random::mt19937::Mt19937;
use ragtag_engine::ExceptionClass;

/// The `random` module.
pub static RANDOM: &[Builtin] = &[
    Builtin::function("random.seed", "(a=None)", seed)
        .doc("Restarts the generator from an int (CPython's seeding of |a|), or from fresh entropy with None.")
        .examples(&["import random\nrandom.seed(0)\nrandom.random()"]),
    Builtin::function("random.random", "()", random)
        .doc("A float in [0, 1) with 53 random bits.")
        .examples(&["import random\nrandom.seed(1)\nrandom.random()"]),
    Builtin::function("random.getrandbits", "(k)", getrandbits)
        .doc("An int of `k` random bits (k ≤ 64 here).")
        .examples(&["import random\nrandom.seed(2)\nrandom.getrandbits(8)"]),
    Builtin::function("random.randrange", "(start, stop=None, step=1)", randrange)
        .doc("A random item of `range(start, stop, step)` (`range(start)` with one argument).")
        .examples(&["import random\nrandom.seed(3)\nrandom.randrange(0, 100, 5)"]),
    Builtin::function("random.randint", "(a, b)", randint)
        .doc("A random int N with a ≤ N ≤ b.")
        .examples(&["import random\nrandom.seed(4)\nrandom.randint(1, 6)"]),
    Builtin::function("random.choice", "(seq)", choice)
        .doc("A random item of a non-empty sequence.")
        .examples(&["import random\nrandom.seed(5)\nrandom.choice(['a', 'b', 'c'])"]),
    Builtin::function(
        "random.choices",
        "(population, weights=None, *, cum_weights=None, k=1)",
        choices,
    )
    .doc("`k` items drawn with replacement, optionally weighted (relative or cumulative weights).")
    .examples(&["import random\nrandom.seed(6)\nrandom.choices('abc', weights=[5, 1, 1], k=4)"]),
    Builtin::function("random.shuffle", "(x)", shuffle)
        .doc("Shuffles a list in place (Fisher–Yates, as CPython).")
        .examples(&["import random\nrandom.seed(7)\nxs = [1, 2, 3, 4]\nrandom.shuffle(xs)\nxs"]),
    Builtin::function("random.sample", "(population, k)", sample)
        .doc("`k` distinct items of a sequence, in selection order.")
        .examples(&["import random\nrandom.seed(8)\nrandom.sample(range(10), 3)"]),
    Builtin::function("random.uniform", "(a, b)", uniform)
        .doc("A float between `a` and `b`: `a + (b - a) * random()`.")
        .examples(&["import random\nrandom.seed(9)\nrandom.uniform(1, 2)"]),
    Builtin::function("random.gauss", "(mu=0.0, sigma=1.0)", gauss)
        .doc("A normal deviate (CPython's Box–Muller, keeping the second value for the next call).")
        .examples(&["import random\nrandom.seed(10)\nrandom.gauss(0, 1)"]),
];

fn with<R>(f: impl FnOnce(&mut Mt19937, &mut Option<f64>) -> R) -> R {
    rng::with(|s| f(&mut s.python, &mut s.python_gauss))
}

fn type_error(msg: impl Into<String>) -> Error {
    Error::new(ExceptionClass::TypeError, msg)
}

fn value_error(msg: impl Into<String>) -> Error {
    Error::new(ExceptionClass::ValueError, msg)
}

/// CPython's `_randbelow(n)` (0 when n is 0).
fn below(mt: &mut Mt19937, n: u64) -> u64 {
    if n == 0 {
        return 0;
    }
    mt.py_randbelow(n)
}

fn seed(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let key = match a.value("a") {
        Value::None => None,
        Value::Int(i) => Some(Mt19937::key_of(i.unsigned_abs() as u128)),
        Value::Bool(b) => Some(Mt19937::key_of(*b as u128)),
        Value::BigInt(b) => {
            let (_, digits) = b.to_u32_digits();
            Some(if digits.is_empty() { vec![0] } else { digits })
        }
        other => {
            return Err(a.err_at(
                "a",
                type_error(format!(
                    "ragtag seeds Python's random from an int or None, not {}",
                    other.type_name()
                )),
            ))
        }
    };
    let key = key.unwrap_or_else(|| {
        let e = ragtag_engine::random::os_entropy();
        vec![e as u32, (e >> 32) as u32]
    });
    with(|mt, g| {
        *mt = Mt19937::from_key(&key);
        *g = None;
    });
    Ok(Value::None)
}

fn random(_: &mut Interp<'_>, _: &Args) -> Result<Value> {
    Ok(Value::Float(with(|mt, _| mt.next_f64())))
}

fn getrandbits(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let k = a.int("k")?;
    if k < 0 {
        return Err(a.err_at("k", value_error("number of bits must be non-negative")));
    }
    if k > 63 {
        // CPython's word order: the first 32-bit draw is the lowest word, the last one
        // keeps only its top bits.
        let words = ((k - 1) / 32 + 1) as usize;
        ragtag_engine::budget::check("random.getrandbits", words as u128, 4)
            .map_err(|e| a.err_at("k", e))?;
        let digits: Vec<u32> = with(|mt, _| {
            let mut left = k;
            (0..words)
                .map(|_| {
                    let r = mt.next_u32();
                    let r = if left < 32 { r >> (32 - left) } else { r };
                    left -= 32;
                    r
                })
                .collect()
        });
        return Ok(crate::eval::operators::bigint::norm(
            num_bigint::BigInt::from_slice(num_bigint::Sign::Plus, &digits),
        ));
    }
    if k == 0 {
        return Ok(Value::Int(0));
    }
    Ok(Value::Int(with(|mt, _| mt.getrandbits(k as u32)) as i64))
}

/// An int argument as `randrange` reads it (an integral float is accepted, as 3.11 does
/// with a warning).
fn index(a: &Args, name: &str, pos: usize) -> Result<i64> {
    match a.given(name).unwrap_or(&Value::Int(1)) {
        Value::Int(i) => Ok(*i),
        Value::Bool(b) => Ok(*b as i64),
        Value::Float(f) if f.fract() == 0.0 && f.is_finite() => Ok(*f as i64),
        Value::Float(_) => Err(a.err_at(
            name,
            value_error(format!("non-integer arg {pos} for randrange()")),
        )),
        other => Err(a.err_at(
            name,
            type_error(format!(
                "'{}' object cannot be interpreted as an integer",
                other.type_name()
            )),
        )),
    }
}

fn range_draw(start: i64, stop: Option<i64>, step: i64) -> Result<i64> {
    let Some(stop) = stop else {
        if start > 0 {
            return Ok(with(|mt, _| below(mt, start as u64)) as i64);
        }
        return Err(value_error("empty range for randrange()"));
    };
    let width = stop as i128 - start as i128;
    if step == 1 {
        if width > 0 {
            return Ok((start as i128 + with(|mt, _| below(mt, width as u64)) as i128) as i64);
        }
        return Err(value_error(format!(
            "empty range for randrange() ({start}, {stop}, {width})"
        )));
    }
    let step = step as i128;
    let n = match step {
        0 => return Err(value_error("zero step for randrange()")),
        s if s > 0 => (width + s - 1).div_euclid(s),
        s => (width + s + 1).div_euclid(s),
    };
    if n <= 0 {
        return Err(value_error("empty range for randrange()"));
    }
    let k = with(|mt, _| below(mt, n as u64)) as i128;
    Ok((start as i128 + step * k) as i64)
}

fn randrange(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let start = index(a, "start", 1)?;
    let stop = match a.given("stop").unwrap_or(&Value::None) {
        Value::None => None,
        _ => Some(index(a, "stop", 2)?),
    };
    let step = index(a, "step", 3)?;
    if stop.is_none() && step != 1 {
        return Err(type_error("Missing a non-None stop argument"));
    }
    range_draw(start, stop, step)
        .map(Value::Int)
        .map_err(|e| e.at(a.span("start")))
}

fn randint(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let lo = index(a, "a", 1)?;
    let hi = index(a, "b", 2)?;
    range_draw(lo, Some(hi.saturating_add(1)), 1)
        .map(Value::Int)
        .map_err(|e| e.at(a.span("a")))
}

/// The items of a sequence argument (a list, tuple, str or range's list).
fn sequence(a: &Args, name: &str) -> Result<Vec<Value>> {
    match a.value(name) {
        Value::List(l) => Ok(l.items()),
        Value::Tuple(t) => Ok(t.to_vec()),
        Value::Str(s) => Ok(s.chars().map(|c| Value::str(c.to_string())).collect()),
        Value::Set(_) | Value::Dict(_) => Err(a.err_at(
            name,
            type_error("Population must be a sequence.  For dicts or sets, use sorted(d)."),
        )),
        other => crate::eval::subscript::iterate(other).map_err(|e| a.err_at(name, e)),
    }
}

fn choice(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let items = sequence(a, "seq")?;
    if items.is_empty() {
        return Err(a.err_at(
            "seq",
            Error::new(
                ExceptionClass::IndexError,
                "Cannot choose from an empty sequence",
            ),
        ));
    }
    let i = with(|mt, _| below(mt, items.len() as u64)) as usize;
    Ok(items[i].clone())
}

fn float_of(v: &Value) -> Option<f64> {
    match v {
        Value::Int(i) => Some(*i as f64),
        Value::Bool(b) => Some(*b as i64 as f64),
        Value::Float(f) => Some(*f),
        _ => None,
    }
}

fn floats(a: &Args, name: &str) -> Result<Vec<f64>> {
    sequence(a, name)?
        .iter()
        .map(|v| {
            float_of(v).ok_or_else(|| {
                a.err_at(
                    name,
                    type_error(format!("weights must be numbers, not {}", v.type_name())),
                )
            })
        })
        .collect()
}

fn choices(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let pop = sequence(a, "population")?;
    let k = a.opt_int("k")?.unwrap_or(1).max(0) as usize;
    let n = pop.len();
    let cum = match (a.get("weights"), a.get("cum_weights")) {
        (None, None) => {
            let nf = n as f64;
            let out = with(|mt, _| {
                (0..k)
                    .map(|_| (mt.next_f64() * nf).floor() as usize)
                    .collect::<Vec<_>>()
            });
            let mut picked = Vec::new();
            for i in out {
                let item = pop.get(i).cloned().ok_or_else(|| {
                    Error::new(ExceptionClass::IndexError, "list index out of range")
                })?;
                picked.push(item);
            }
            return Ok(Value::List(PyList::new(picked, false)));
        }
        (Some(_), Some(_)) => {
            return Err(type_error(
                "Cannot specify both weights and cumulative weights",
            ))
        }
        (Some(_), None) => {
            let mut total = 0.0;
            floats(a, "weights")?
                .into_iter()
                .map(|w| {
                    total += w;
                    total
                })
                .collect::<Vec<_>>()
        }
        (None, Some(_)) => floats(a, "cum_weights")?,
    };
    if cum.len() != n {
        return Err(value_error(
            "The number of weights does not match the population",
        ));
    }
    let total = cum.last().copied().unwrap_or(0.0);
    if total <= 0.0 {
        return Err(value_error("Total of weights must be greater than zero"));
    }
    if !total.is_finite() {
        return Err(value_error("Total of weights must be finite"));
    }
    let hi = n - 1;
    let draws = with(|mt, _| (0..k).map(|_| mt.next_f64() * total).collect::<Vec<_>>());
    let picked = draws
        .into_iter()
        .map(|x| {
            // bisect_right(cum, x, 0, hi)
            let i = cum[..hi].partition_point(|c| *c <= x);
            pop[i].clone()
        })
        .collect();
    Ok(Value::List(PyList::new(picked, false)))
}

fn shuffle(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let Value::List(l) = a.value("x") else {
        return Err(a.err_at(
            "x",
            type_error(format!(
                "'{}' object does not support item assignment",
                a.value("x").type_name()
            )),
        ));
    };
    let mut items = l.items();
    with(|mt, _| {
        for i in (1..items.len()).rev() {
            let j = below(mt, i as u64 + 1) as usize;
            items.swap(i, j);
        }
    });
    l.set_items(items);
    Ok(Value::None)
}

fn sample(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let pop = sequence(a, "population")?;
    let n = pop.len();
    let k = a.int("k")?;
    if k < 0 || k as usize > n {
        return Err(a.err_at(
            "k",
            value_error("Sample larger than population or is negative"),
        ));
    }
    let k = k as usize;
    let mut setsize = 21usize;
    if k > 5 {
        // 4 ** ceil(log(k * 3, 4))
        let e = ((k * 3) as f64).ln() / 4f64.ln();
        setsize += 4usize.pow(e.ceil() as u32);
    }
    let picked = with(|mt, _| {
        let mut out = Vec::new();
        if n <= setsize {
            let mut pool = pop.clone();
            for i in 0..k {
                let j = below(mt, (n - i) as u64) as usize;
                out.push(pool[j].clone());
                pool[j] = pool[n - i - 1].clone();
            }
        } else {
            let mut selected = std::collections::HashSet::new();
            for _ in 0..k {
                let mut j = below(mt, n as u64) as usize;
                while selected.contains(&j) {
                    j = below(mt, n as u64) as usize;
                }
                selected.insert(j);
                out.push(pop[j].clone());
            }
        }
        out
    });
    Ok(Value::List(PyList::new(picked, false)))
}

fn number(a: &Args, name: &str, default: f64) -> Result<f64> {
    let Some(v) = a.given(name) else {
        return Ok(default);
    };
    float_of(v).ok_or_else(|| {
        a.err_at(
            name,
            type_error(format!(
                "must be real number, not {}",
                a.value(name).type_name()
            )),
        )
    })
}

fn uniform(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let lo = number(a, "a", 0.0)?;
    let hi = number(a, "b", 0.0)?;
    Ok(Value::Float(lo + (hi - lo) * with(|mt, _| mt.next_f64())))
}

fn gauss(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let mu = number(a, "mu", 0.0)?;
    let sigma = number(a, "sigma", 1.0)?;
    let z = with(|mt, next| match next.take() {
        Some(z) => z,
        None => {
            let x2pi = mt.next_f64() * std::f64::consts::TAU;
            let g2rad = (-2.0 * (1.0 - mt.next_f64()).ln()).sqrt();
            *next = Some(x2pi.sin() * g2rad);
            x2pi.cos() * g2rad
        }
    });
    Ok(Value::Float(mu + z * sigma))
}
