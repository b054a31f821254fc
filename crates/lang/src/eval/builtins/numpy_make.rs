//! NumPy's array makers beyond `np.array`: `np.full`, `full_like`, `zeros_like`,
//! `ones_like`, `empty`, `eye`, `identity`, `linspace` — NumPy's default dtypes (float64,
//! or the fill value's own: int64 for a Python int, bool for a bool).

use super::numpy_args::{arg_tensor, cast, nd};
use super::Builtin;
use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::convert;
use crate::eval::Interp;
use crate::value::Value;
use ragtag_engine::{Buffer, DType, ExceptionClass, Scalar, Tensor};

/// The array makers.
pub static BUILTINS: &[Builtin] = &[
    Builtin::function("np.full", "(shape, fill_value, dtype=None)", full)
        .doc("An array of `shape` holding `fill_value` everywhere (of the fill value's dtype unless `dtype` says otherwise).")
        .examples(&["np.full((2, 2), 7)", "np.full(3, 0.5, dtype=np.float32)"]),
    Builtin::function("np.full_like", "(a, fill_value, dtype=None)", |_, a| like(a, None))
        .doc("An array of `a`'s shape and dtype holding `fill_value` everywhere.")
        .examples(&["np.full_like(np.array([1, 2, 3]), 9)"]),
    Builtin::function("np.zeros_like", "(a, dtype=None)", |_, a| like(a, Some(0)))
        .doc("An array of zeros of `a`'s shape and dtype.")
        .examples(&["np.zeros_like(np.array([[1.5, 2.0]]))"]),
    Builtin::function("np.ones_like", "(a, dtype=None)", |_, a| like(a, Some(1)))
        .doc("An array of ones of `a`'s shape and dtype.")
        .examples(&["np.ones_like(np.array([1, 2]))"]),
    Builtin::function("np.empty", "(shape, dtype=None)", empty)
        .doc("An array of `shape` (float64 unless `dtype` says otherwise); ragtag fills it with zeros.")
        .examples(&["np.empty((2, 3)).shape"]),
    Builtin::function("np.eye", "(N, M=None, k=0, dtype=None)", eye)
        .doc("A 2-D array with ones on the `k`-th diagonal and zeros elsewhere (float64 by default).")
        .examples(&["np.eye(3)", "np.eye(2, 3, k=1, dtype=np.int32)"]),
    Builtin::function("np.identity", "(n, dtype=None)", identity)
        .doc("The n-by-n identity matrix (float64 by default).")
        .examples(&["np.identity(2)"]),
    Builtin::function("np.linspace", "(start, stop, num=50, endpoint=True, dtype=None)", linspace)
        .doc("`num` evenly spaced values from `start` to `stop` (included unless `endpoint=False`), float64 by default.")
        .examples(&["np.linspace(0, 1, 5)", "np.linspace(2.0, 3.0, num=4, endpoint=False)"]),
];

/// The `shape` argument: an int or a sequence of non-negative ints.
fn dims(a: &Args, name: &str) -> Result<Vec<usize>> {
    let raw = match a.value(name) {
        Value::Int(n) => vec![*n],
        v => convert::to_ints(v).map_err(|e| a.err_at(name, e))?,
    };
    raw.into_iter()
        .map(|d| {
            usize::try_from(d).map_err(|_| {
                Error::new(
                    ExceptionClass::ValueError,
                    "negative dimensions are not allowed",
                )
                .at(a.span(name))
            })
        })
        .collect()
}

/// A tensor of `shape` holding `value` everywhere.
fn filled(a: &Args, shape: Vec<usize>, value: &Scalar) -> Result<Value> {
    Tensor::filled(a.builtin().name, shape, value)
        .map(nd)
        .map_err(|e| Error::from(e).at(a.call))
}

/// The fill value as a 0-d tensor (NumPy's dtype for a Python scalar).
fn fill_value(a: &Args) -> Result<Tensor> {
    let t = arg_tensor(a, "fill_value")?;
    if t.rank() != 0 {
        return Err(Error::new(
            ExceptionClass::ValueError,
            "ragtag's fill value must be a single number",
        )
        .at(a.span("fill_value")));
    }
    Ok(t)
}

fn full(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let shape = dims(a, "shape")?;
    let v = fill_value(a)?;
    let d = a.dtype("dtype")?.unwrap_or(v.dtype());
    let s = cast(&v, d)
        .map_err(|e| e.at(a.span("dtype")))?
        .data()
        .get(0);
    filled(a, shape, &s)
}

fn like(a: &Args, fixed: Option<i64>) -> Result<Value> {
    let t = arg_tensor(a, "a")?;
    let d = a.dtype("dtype")?.unwrap_or(t.dtype());
    let v = match fixed {
        Some(n) => Tensor::scalar(Scalar::I64(n)),
        None => fill_value(a)?,
    };
    let s = cast(&v, d).map_err(|e| e.at(a.call))?.data().get(0);
    filled(a, t.shape().to_vec(), &s)
}

fn empty(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let shape = dims(a, "shape")?;
    let d = a.dtype("dtype")?.unwrap_or(DType::Float64);
    filled(a, shape, &ragtag_engine::Scalar::default_of(d))
}

/// A `rows` × `cols` matrix of `d` with ones on diagonal `k`.
fn diagonal(a: &Args, rows: usize, cols: usize, k: i64, d: DType) -> Result<Value> {
    ragtag_engine::budget::check(a.builtin().name, (rows as u128) * (cols as u128), 8)
        .map_err(|e| Error::from(e).at(a.call))?;
    let mut v = ragtag_engine::budget::filled(a.builtin().name, 0i64, rows * cols)
        .map_err(|e| Error::from(e).at(a.call))?;
    for r in 0..rows {
        let c = r as i64 + k;
        if c >= 0 && (c as usize) < cols {
            v[r * cols + c as usize] = 1;
        }
    }
    let t = Tensor::from_parts(vec![rows, cols], Buffer::from(v));
    cast(&t, d).map(nd).map_err(|e| e.at(a.span("dtype")))
}

fn size_arg(a: &Args, name: &str) -> Result<usize> {
    let n = a.int(name)?;
    usize::try_from(n).map_err(|_| {
        Error::new(
            ExceptionClass::ValueError,
            "negative dimensions are not allowed",
        )
        .at(a.span(name))
    })
}

fn eye(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let n = size_arg(a, "N")?;
    let m = match a.get("M") {
        Some(_) => size_arg(a, "M")?,
        None => n,
    };
    let k = a.opt_int("k")?.unwrap_or(0);
    let d = a.dtype("dtype")?.unwrap_or(DType::Float64);
    diagonal(a, n, m, k, d)
}

fn identity(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let n = size_arg(a, "n")?;
    let d = a.dtype("dtype")?.unwrap_or(DType::Float64);
    diagonal(a, n, n, 0, d)
}

fn linspace(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let num = a.opt_int("num")?.unwrap_or(50);
    if num < 0 {
        return Err(Error::new(
            ExceptionClass::ValueError,
            format!("Number of samples, {num}, must be non-negative."),
        )
        .at(a.span("num")));
    }
    let num = num as usize;
    let f = |n: &str| convert::to_f64(a.value(n)).map_err(|e| a.err_at(n, e));
    let (start, stop) = (f("start")?, f("stop")?);
    let endpoint = a.flag("endpoint", true)?;
    ragtag_engine::budget::check("np.linspace", num as u128, 8)
        .map_err(|e| Error::from(e).at(a.call))?;
    // As NumPy computes it: i * step + start, the last value set to `stop` exactly.
    let div = if endpoint { num.saturating_sub(1) } else { num };
    let delta = stop - start;
    let step = delta / div as f64;
    let mut v: Vec<f64> = (0..num)
        .map(|i| {
            if div == 0 {
                start
            } else if step == 0.0 {
                i as f64 / div as f64 * delta + start
            } else {
                i as f64 * step + start
            }
        })
        .collect();
    if endpoint && num > 1 {
        v[num - 1] = stop;
    }
    let t = Tensor::vector(Buffer::from(v));
    match a.dtype("dtype")? {
        // NumPy floors the values for an integer dtype.
        Some(d) if d.is_int() => {
            let data = ragtag_engine::ops::kernels::unary(
                ragtag_engine::ops::kernels::UnaryOp::Floor,
                t.data(),
            )?;
            cast(&Tensor::from_parts(t.shape().to_vec(), data), d).map(nd)
        }
        Some(d) => cast(&t, d).map(nd),
        None => Ok(nd(t)),
    }
}
