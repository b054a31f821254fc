//! NumPy's counting functions, `np.bincount` and `np.histogram`, and `np.dtype`: NumPy's
//! results (int64 counts, float64 edges and weighted sums) and errors.

use super::numpy_args::{arg_tensor, cast, nd};
use super::Builtin;
use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::convert;
use crate::eval::Interp;
use crate::value::Value;
use ragtag_engine::{budget, Buffer, DType, ExceptionClass, Tensor};

/// The counting functions and `np.dtype`.
pub static BUILTINS: &[Builtin] = &[
    Builtin::function("np.bincount", "(x, weights=None, minlength=0)", bincount)
        .doc("How often each value 0, 1, …, max(x) occurs in the non-negative int vector `x` (int64), or the sum of `weights` per value (float64); at least `minlength` bins.")
        .examples(&["np.bincount(np.array([0, 1, 1, 3, 2, 1, 7]))", "np.bincount(np.array([0, 1, 1, 2]), weights=np.array([0.5, 1.0, 0.25, 2.0]))"]),
    Builtin::function("np.histogram", "(a, bins=10, range=None)", histogram)
        .doc("The counts of the values in each bin and the bin edges: `bins` equal bins over `range` (the data's span by default) or the listed edges; the last bin includes its right edge.")
        .examples(&["np.histogram(np.array([1, 2, 1]), bins=[0, 1, 2, 3])", "np.histogram(np.arange(4), bins=np.arange(5))"]),
    Builtin::function("np.dtype", "(dtype)", np_dtype)
        .doc("The dtype named by a string ('int32', 'float64', 'bool') or given as a type.")
        .examples(&["np.dtype('int32') == np.int32"]),
];

fn bincount(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let x = arg_tensor(a, "x")?;
    if x.rank() != 1 {
        return Err(Error::new(
            ExceptionClass::ValueError,
            "object too deep for desired array",
        )
        .at(a.span("x")));
    }
    if !(x.dtype().is_int() || x.dtype() == DType::Bool) && x.size() > 0 {
        return Err(Error::new(
            ExceptionClass::TypeError,
            format!("Cannot cast array data from dtype('{}') to dtype('int64') according to the rule 'safe'", x.dtype().name()),
        )
        .at(a.span("x")));
    }
    let v = cast(&x, DType::Int64)?
        .data()
        .to_i64_vec()
        .unwrap_or_default();
    if v.iter().any(|&k| k < 0) {
        return Err(Error::new(
            ExceptionClass::ValueError,
            "'list' argument must have no negative elements",
        )
        .at(a.span("x")));
    }
    let minlength = a.opt_int("minlength")?.unwrap_or(0);
    if minlength < 0 {
        return Err(Error::new(
            ExceptionClass::ValueError,
            "'minlength' must not be negative",
        )
        .at(a.span("minlength")));
    }
    let n = v.iter().map(|&k| k + 1).max().unwrap_or(0).max(minlength) as usize;
    ragtag_engine::budget::check("np.bincount", n as u128, 8)
        .map_err(|e| Error::from(e).at(a.call))?;
    match a.get("weights") {
        None => {
            let mut counts =
                budget::filled("np.bincount", 0i64, n).map_err(|e| Error::from(e).at(a.call))?;
            for &k in &v {
                counts[k as usize] += 1;
            }
            Ok(nd(Tensor::from_i64(counts)))
        }
        Some(_) => {
            let w = cast(&arg_tensor(a, "weights")?, DType::Float64)?;
            if w.shape() != x.shape() {
                return Err(Error::new(
                    ExceptionClass::ValueError,
                    "The weights and list don't have the same length.",
                )
                .at(a.span("weights")));
            }
            let w = w.data().to_f64_vec().unwrap_or_default();
            let mut sums =
                budget::filled("np.bincount", 0f64, n).map_err(|e| Error::from(e).at(a.call))?;
            for (&k, &wt) in v.iter().zip(&w) {
                sums[k as usize] += wt;
            }
            Ok(nd(Tensor::vector(Buffer::from(sums))))
        }
    }
}

/// The bin edges: `bins` equal bins over the range, or the given edges.
fn edges(a: &Args, values: &[f64]) -> Result<(Vec<f64>, bool)> {
    let count = match a.get("bins") {
        None => Some(10),
        Some(Value::Int(k)) => Some(*k),
        Some(_) => None,
    };
    if let Some(k) = count {
        if k < 1 {
            return Err(Error::new(
                ExceptionClass::ValueError,
                "`bins` must be positive, when an integer",
            )
            .at(a.span("bins")));
        }
        let (mut lo, mut hi) = match a.get("range") {
            Some(r) => {
                let pair = crate::eval::subscript::iterate(r).map_err(|e| a.err_at("range", e))?;
                let [lo, hi] = pair.as_slice() else {
                    return Err(Error::new(
                        ExceptionClass::ValueError,
                        "range must be a (min, max) pair",
                    )
                    .at(a.span("range")));
                };
                let f = |v: &Value| convert::to_f64(v).map_err(|e| a.err_at("range", e));
                (f(lo)?, f(hi)?)
            }
            None if values.is_empty() => (0.0, 1.0),
            None => values
                .iter()
                .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), &x| {
                    (l.min(x), h.max(x))
                }),
        };
        if lo > hi {
            return Err(Error::new(
                ExceptionClass::ValueError,
                "max must be larger than min in range parameter.",
            )
            .at(a.span("range")));
        }
        if !(lo.is_finite() && hi.is_finite()) {
            return Err(Error::new(
                ExceptionClass::ValueError,
                format!("autodetected range of [{lo}, {hi}] is not finite"),
            )
            .at(a.call));
        }
        if lo == hi {
            lo -= 0.5;
            hi += 0.5;
        }
        let k = k as usize;
        // As np.linspace(lo, hi, k + 1) computes them.
        let step = (hi - lo) / k as f64;
        let mut e: Vec<f64> = (0..=k).map(|i| i as f64 * step + lo).collect();
        e[k] = hi;
        return Ok((e, true));
    }
    let t = cast(&arg_tensor(a, "bins")?, DType::Float64)?;
    let e = t.data().to_f64_vec().unwrap_or_default();
    if t.rank() != 1 || e.windows(2).any(|w| w[1] < w[0]) {
        return Err(Error::new(
            ExceptionClass::ValueError,
            "`bins` must increase monotonically, when an array",
        )
        .at(a.span("bins")));
    }
    Ok((e, false))
}

fn histogram(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let x = arg_tensor(a, "a")?;
    let values = x.data().to_f64_vec().ok_or_else(|| {
        Error::new(ExceptionClass::TypeError, "np.histogram needs numbers").at(a.span("a"))
    })?;
    let (e, uniform) = edges(a, &values)?;
    let bins = e.len().saturating_sub(1);
    let mut counts =
        budget::filled("np.histogram", 0i64, bins).map_err(|e| Error::from(e).at(a.call))?;
    let (lo, hi) = (e[0], e[bins]);
    for &v in &values {
        if !(v >= lo && v <= hi) || bins == 0 {
            continue;
        }
        // The last bin includes its right edge.
        let mut i = if uniform {
            (((v - lo) / (hi - lo)) * bins as f64) as usize
        } else {
            e.partition_point(|&b| b <= v).saturating_sub(1)
        };
        i = i.min(bins - 1);
        // NumPy's correction of the computed bin against the edges themselves.
        if uniform {
            if v < e[i] && i > 0 {
                i -= 1;
            } else if i + 1 < bins && v >= e[i + 1] {
                i += 1;
            }
        }
        counts[i] += 1;
    }
    let edges_out = Tensor::vector(Buffer::from(e));
    // Given edges keep their dtype; computed ones are float64.
    let edges_out = if uniform {
        edges_out
    } else {
        let given = arg_tensor(a, "bins")?;
        cast(&edges_out, given.dtype())?
    };
    Ok(Value::tuple(vec![
        nd(Tensor::from_i64(counts)),
        nd(edges_out),
    ]))
}

fn np_dtype(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let v = a.value("dtype");
    let d = match v {
        Value::Str(s) => DType::parse(s.as_str()).or_else(|| match s.as_str() {
            "float" | "f8" | "d" => Some(DType::Float64),
            "int" | "i8" => Some(DType::Int64),
            "i4" => Some(DType::Int32),
            "f4" => Some(DType::Float32),
            _ => None,
        }),
        other => convert::to_dtype(other).ok(),
    };
    d.map(|d| Value::NpType(crate::value::np_type::NpType::dtype(d)))
        .ok_or_else(|| {
            Error::new(
                ExceptionClass::TypeError,
                match v {
                    Value::Str(s) => format!("data type '{s}' not understood"),
                    other => format!("data type {} not understood", other.type_name()),
                },
            )
            .at(a.span("dtype"))
        })
}
