//! NumPy's reductions and scans — `np.sum`, `mean`, `std`, `var`, `max`, `min`, `prod`,
//! `all`, `any`, `argmax`, `argmin`, `cumsum`, `cumprod`, `count_nonzero` — as functions
//! and as `np.ndarray` methods, with NumPy's dtypes (sums of ints are int64, means float64)
//! and its `AxisError`. The work is the engine's reduce, scan and arg kernels.

use super::numpy_args::{arg_tensor, axes, cast, mean_dtype, nd, one_axis, sum_dtype};
use super::{Builtin, Kind};
use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::Interp;
use crate::value::Value;
use ragtag_engine::ops::broadcast;
use ragtag_engine::ops::kernels::{self, BinaryOp, UnaryOp};
use ragtag_engine::ops::reduce::{reduce, ReduceOp};
use ragtag_engine::ops::scan::{scan, Scan};
use ragtag_engine::{Array, DType, ExceptionClass, Scalar, Tensor};

macro_rules! reductions {
    ($($np:literal, $method:literal, $sig:literal, $msig:literal, $how:expr, $doc:literal, $ex:literal, $mex:literal;)*) => {
        /// NumPy's reductions, as functions and as array methods.
        pub static BUILTINS: &[Builtin] = &[
            $(
                Builtin::function($np, $sig, |_, a| run(a, $how))
                    .doc($doc)
                    .examples(&[$ex]),
                Builtin::method($method, $msig, |_, a| run(a, $how))
                    .doc($doc)
                    .examples(&[$mex]),
            )*
        ];
    };
}

/// Which reduction or scan.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[allow(non_camel_case_types)]
enum How {
    sum,
    prod,
    mean,
    max,
    min,
    all,
    any,
    var,
    std,
    argmax,
    argmin,
    cumsum,
    cumprod,
}

reductions! {
    "np.sum", "np.ndarray.sum", "(a, axis=None, dtype=None, keepdims=False)", "(self, axis=None, dtype=None, keepdims=False)", How::sum,
        "The sum of the elements over `axis` (all of them by default); bools and ints sum as int64.", "np.sum(np.array([[1, 2], [3, 4]]), axis=0)", "np.array([[1, 2], [3, 4]]).sum()";
    "np.prod", "np.ndarray.prod", "(a, axis=None, dtype=None, keepdims=False)", "(self, axis=None, dtype=None, keepdims=False)", How::prod,
        "The product of the elements over `axis`; bools and ints multiply as int64.", "np.prod([[1, 2], [3, 4]], axis=1)", "np.array([[1, 2], [3, 4]]).prod()";
    "np.mean", "np.ndarray.mean", "(a, axis=None, dtype=None, keepdims=False)", "(self, axis=None, dtype=None, keepdims=False)", How::mean,
        "The arithmetic mean over `axis`: float64 for ints, the array's own dtype for floats.", "np.mean(np.array([1, 2, 4]))", "np.array([[1, 2], [3, 4]]).mean()";
    "np.max", "np.ndarray.max", "(a, axis=None, keepdims=False)", "(self, axis=None, keepdims=False)", How::max,
        "The largest element over `axis`; an empty array has none (ValueError).", "np.max(np.array([[1, 5], [3, 4]]), axis=1)", "np.array([[1, 2], [3, 4]]).max()";
    "np.min", "np.ndarray.min", "(a, axis=None, keepdims=False)", "(self, axis=None, keepdims=False)", How::min,
        "The smallest element over `axis`; an empty array has none (ValueError).", "np.min(np.array([[1, 5], [3, 4]]), axis=0)", "np.array([[1, 2], [3, 4]]).min()";
    "np.all", "np.ndarray.all", "(a, axis=None, keepdims=False)", "(self, axis=None, keepdims=False)", How::all,
        "Whether every element over `axis` is true (nonzero).", "np.all(np.array([[1, 0], [2, 3]]), axis=1)", "np.array([[1, 2], [3, 4]]).all()";
    "np.any", "np.ndarray.any", "(a, axis=None, keepdims=False)", "(self, axis=None, keepdims=False)", How::any,
        "Whether any element over `axis` is true (nonzero).", "np.any(np.array([0, 0, 3]))", "np.array([[1, 2], [3, 4]]).any()";
    "np.var", "np.ndarray.var", "(a, axis=None, dtype=None, ddof=0, keepdims=False)", "(self, axis=None, dtype=None, ddof=0, keepdims=False)", How::var,
        "The variance over `axis`: the mean squared deviation, divided by N - ddof.", "np.var(np.array([1, 2, 3, 4]))", "np.array([[1, 2], [3, 4]]).var()";
    "np.std", "np.ndarray.std", "(a, axis=None, dtype=None, ddof=0, keepdims=False)", "(self, axis=None, dtype=None, ddof=0, keepdims=False)", How::std,
        "The standard deviation over `axis`: the square root of the variance (N - ddof).", "np.std(np.array([[1, 2], [3, 4]]), axis=0)", "np.array([[1, 2], [3, 4]]).std()";
    "np.argmax", "np.ndarray.argmax", "(a, axis=None, keepdims=False)", "(self, axis=None, keepdims=False)", How::argmax,
        "The index of the first largest element: in the flattened array, or along `axis`.", "np.argmax(np.array([[1, 5], [7, 2]]), axis=1)", "np.array([[1, 2], [3, 4]]).argmax()";
    "np.argmin", "np.ndarray.argmin", "(a, axis=None, keepdims=False)", "(self, axis=None, keepdims=False)", How::argmin,
        "The index of the first smallest element: in the flattened array, or along `axis`.", "np.argmin(np.array([3, 1, 2]))", "np.array([[1, 2], [3, 4]]).argmin()";
    "np.cumsum", "np.ndarray.cumsum", "(a, axis=None, dtype=None)", "(self, axis=None, dtype=None)", How::cumsum,
        "The running sum along `axis` (of the flattened array by default); ints sum as int64.", "np.cumsum(np.array([[1, 2], [3, 4]]), axis=1)", "np.array([[1, 2], [3, 4]]).cumsum()";
    "np.cumprod", "np.ndarray.cumprod", "(a, axis=None, dtype=None)", "(self, axis=None, dtype=None)", How::cumprod,
        "The running product along `axis` (of the flattened array by default).", "np.cumprod(np.array([1, 2, 3, 4]))", "np.array([[1, 2], [3, 4]]).cumprod()";
}

/// `np.count_nonzero` (not an array method in NumPy).
pub static COUNT: &[Builtin] = &[Builtin::function(
    "np.count_nonzero",
    "(a, axis=None, keepdims=False)",
    count_nonzero,
)
.doc("How many elements are nonzero: an int64 count over the whole array, or counts along `axis`.")
.examples(&["np.count_nonzero(np.array([[0, 1, 7], [3, 0, 0]]), axis=1)"])];

/// The array argument: `self` for a method, `a` for a function.
fn subject(a: &Args) -> &'static str {
    if a.builtin().kind == Kind::Method {
        "self"
    } else {
        "a"
    }
}

fn run(a: &Args, how: How) -> Result<Value> {
    let x = subject(a);
    let t = arg_tensor(a, x)?;
    match how {
        How::argmax | How::argmin => return arg(a, &t, how == How::argmax),
        How::cumsum | How::cumprod => return cumulative(a, &t, how == How::cumprod),
        _ => {}
    }
    let ax = axes(a, t.rank())?;
    let keepdims = a.flag("keepdims", false)?;
    let wants = |d: DType| -> Result<DType> {
        Ok(match builtin_has(a, "dtype") {
            true => a.dtype("dtype")?.unwrap_or(d),
            false => d,
        })
    };
    let (t, op) = match how {
        How::sum => (cast(&t, wants(sum_dtype(t.dtype()))?)?, ReduceOp::Sum),
        How::prod => (cast(&t, wants(sum_dtype(t.dtype()))?)?, ReduceOp::Prod),
        How::mean => (cast(&t, wants(mean_dtype(t.dtype()))?)?, ReduceOp::Mean),
        How::all | How::any => (
            cast(&t, DType::Bool)?,
            if how == How::all {
                ReduceOp::All
            } else {
                ReduceOp::Any
            },
        ),
        How::max | How::min => {
            let reduced = ax.as_ref().map_or(t.size(), |v| {
                v.iter().map(|&k| t.shape()[k]).product::<usize>()
            });
            let empty_lane = reduced == 0 || (t.size() == 0 && ax.is_none());
            if empty_lane {
                let name = if how == How::max {
                    "maximum"
                } else {
                    "minimum"
                };
                return Err(Error::new(
                    ExceptionClass::ValueError,
                    format!("zero-size array to reduction operation {name} which has no identity"),
                )
                .at(a.call));
            }
            let op = if how == How::max {
                ReduceOp::Max
            } else {
                ReduceOp::Min
            };
            if t.dtype() == DType::Bool {
                let out = engine_reduce(&cast(&t, DType::UInt8)?, ax.as_deref(), op, keepdims)?;
                return Ok(nd(cast(&out, DType::Bool)?));
            }
            (t, op)
        }
        How::var | How::std => {
            let d = wants(mean_dtype(t.dtype()))?;
            let ddof = a.opt_int("ddof")?.unwrap_or(0);
            let v = variance(&cast(&t, d)?, ax.as_deref(), ddof, keepdims)?;
            if how == How::std {
                let data = kernels::unary(UnaryOp::Sqrt, v.data())?;
                return Ok(nd(Tensor::from_parts(v.shape().to_vec(), data)));
            }
            return Ok(nd(v));
        }
        _ => unreachable!("handled above"),
    };
    let out = engine_reduce(&t, ax.as_deref(), op, keepdims).map_err(|e| e.at(a.call))?;
    Ok(nd(out))
}

/// Whether the builtin being called takes parameter `name`.
fn builtin_has(a: &Args, name: &str) -> bool {
    a.builtin().params().iter().any(|p| p.name == name)
}

/// The engine's reduction of a dense tensor over `axes` (None: all of them).
fn engine_reduce(
    t: &Tensor,
    axes: Option<&[usize]>,
    op: ReduceOp,
    keepdims: bool,
) -> Result<Tensor> {
    let axes: Option<Vec<i64>> = axes.map(|v| v.iter().map(|&k| k as i64).collect());
    match reduce(&Array::Dense(t.clone()), axes.as_deref(), op, keepdims)? {
        Array::Dense(t) => Ok(t),
        Array::Ragged(_) => unreachable!("a dense reduction is dense"),
    }
}

/// NumPy's variance: the mean of the squared deviations from the mean, summed and divided
/// by N - ddof (as NumPy computes it, so the last digits agree).
fn variance(t: &Tensor, axes: Option<&[usize]>, ddof: i64, keepdims: bool) -> Result<Tensor> {
    let n = axes.map_or(t.size(), |v| v.iter().map(|&k| t.shape()[k]).product());
    let mean = engine_reduce(t, axes, ReduceOp::Mean, true)?;
    let x = Array::Dense(t.clone());
    let dev = broadcast::binary(BinaryOp::Sub, &x, &Array::Dense(mean))?;
    let sq = broadcast::binary(BinaryOp::Mul, &dev, &dev)?;
    let Array::Dense(sq) = sq else {
        unreachable!("dense in, dense out")
    };
    let total = engine_reduce(&sq, axes, ReduceOp::Sum, keepdims)?;
    let div = (n as i64 - ddof).max(0) as f64;
    let s = ragtag_engine::ops::cast::cast_scalar(&Scalar::F64(div), t.dtype())?;
    match broadcast::binary(
        BinaryOp::Div,
        &Array::Dense(total),
        &Array::Dense(Tensor::scalar(s)),
    )? {
        Array::Dense(t) => Ok(t),
        Array::Ragged(_) => unreachable!("dense in, dense out"),
    }
}

/// `argmax` / `argmin`: over the flattened array, or along one axis.
fn arg(a: &Args, t: &Tensor, max: bool) -> Result<Value> {
    let keepdims = a.flag("keepdims", false)?;
    let axis = one_axis(a, t.rank())?;
    if t.size() == 0 {
        let name = if max { "argmax" } else { "argmin" };
        return Err(Error::new(
            ExceptionClass::ValueError,
            format!("attempt to get {name} of an empty sequence"),
        )
        .at(a.call));
    }
    let (flat, k) = match axis {
        None => (t.reshaped(vec![t.size()])?, 0),
        Some(k) => (t.clone(), k),
    };
    let idx = ragtag_engine::ops::order::arg_extreme(&flat, k, max)
        .map_err(|e| Error::from(e).at(a.call))?;
    #[allow(clippy::disallowed_methods)] // one entry per dimension
    let mut shape: Vec<usize> = match axis {
        None if keepdims => vec![1; t.rank()],
        None => Vec::new(),
        Some(k) => {
            let mut s = t.shape().to_vec();
            if keepdims {
                s[k] = 1;
            } else {
                s.remove(k);
            }
            s
        }
    };
    if shape.iter().product::<usize>() != idx.len() {
        shape = vec![idx.len()];
    }
    Ok(nd(Tensor::from_parts(
        shape,
        ragtag_engine::Buffer::from(idx),
    )))
}

/// `cumsum` / `cumprod`: along one axis, or along the flattened array.
fn cumulative(a: &Args, t: &Tensor, prod: bool) -> Result<Value> {
    let axis = one_axis(a, t.rank())?;
    let d = a.dtype("dtype")?.unwrap_or(sum_dtype(t.dtype()));
    let t = cast(t, d)?;
    let (t, k) = match axis {
        None => (t.reshaped(vec![t.size()])?, 0),
        Some(k) => (t, k),
    };
    let how = Scan {
        prod,
        exclusive: false,
        reverse: false,
    };
    scan(&t, k, how)
        .map(nd)
        .map_err(|e| Error::from(e).at(a.call))
}

fn count_nonzero(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let t = arg_tensor(a, "a")?;
    let ax = axes(a, t.rank())?;
    let keepdims = a.flag("keepdims", false)?;
    let ones = cast(&cast(&t, DType::Bool)?, DType::Int64)?;
    let out = engine_reduce(&ones, ax.as_deref(), ReduceOp::Sum, keepdims)?;
    Ok(nd(out))
}
