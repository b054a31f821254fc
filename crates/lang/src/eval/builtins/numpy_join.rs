//! NumPy's joining, cutting and repeating: `np.hstack`, `vstack`, `split`, `array_split`,
//! `tile`, `repeat`, `take`, `diff`, `pad`, `searchsorted`, `dot` — NumPy's results and
//! errors, on the engine's concat, split, tile, pad, gather and search kernels.

use super::numpy_args::{arg_tensor, cast, nd, norm_axis, tensor_of};
use super::Builtin;
use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::convert;
use crate::eval::operators::numpy_kernel;
use crate::eval::Interp;
use crate::value::Value;
use ragtag_engine::ops::kernels::BinaryOp;
use ragtag_engine::ops::layout;
use ragtag_engine::{budget, Buffer, DType, ExceptionClass, Tensor};

/// The joining, cutting and repeating functions.
pub static BUILTINS: &[Builtin] = &[
    Builtin::function("np.hstack", "(tup)", |_, a| join(a, false))
        .doc("The arrays joined column-wise: along axis 1, or axis 0 for 1-D arrays.")
        .examples(&["np.hstack([np.array([1, 2]), np.array([3])])"]),
    Builtin::function("np.vstack", "(tup)", |_, a| join(a, true))
        .doc("The arrays joined row-wise (1-D arrays become rows).")
        .examples(&["np.vstack([np.array([1, 2]), np.array([3, 4])])"]),
    Builtin::function("np.split", "(ary, indices_or_sections, axis=0)", |_, a| split(a, true))
        .doc("A list of pieces of the array along `axis`: `n` equal pieces (ValueError when they cannot be equal) or cut at the listed indices.")
        .examples(&["np.split(np.arange(6), 3)", "np.split(np.arange(6), [2, 5])"]),
    Builtin::function("np.array_split", "(ary, indices_or_sections, axis=0)", |_, a| split(a, false))
        .doc("As np.split, but `n` pieces need not be equal: the first ones are one longer.")
        .examples(&["np.array_split(np.arange(7), 3)"]),
    Builtin::function("np.tile", "(A, reps)", tile)
        .doc("The array repeated `reps` times along each axis (reps may be longer than the rank).")
        .examples(&["np.tile(np.array([0, 1, 2]), 2)", "np.tile(np.array([0, 1]), (2, 2))"]),
    Builtin::function("np.repeat", "(a, repeats, axis=None)", repeat)
        .doc("Each element repeated `repeats` times (an int, or one count per element) along `axis`, or in the flattened array.")
        .examples(&["np.repeat(np.array([[1, 2], [3, 4]]), 2)", "np.repeat(np.array([[1, 2], [3, 4]]), [1, 2], axis=0)"]),
    Builtin::function("np.take", "(a, indices, axis=None)", take)
        .doc("The elements at `indices` of the flattened array, or along `axis`; negative indices count from the end.")
        .examples(&["np.take(np.array([4, 3, 5, 7, 6, 8]), [0, 1, 4])"]),
    Builtin::function("np.diff", "(a, n=1, axis=-1)", diff)
        .doc("The n-th difference along `axis`: out[i] = a[i+1] - a[i], repeated n times.")
        .examples(&["np.diff(np.array([1, 2, 4, 7, 0]))"]),
    Builtin::function("np.pad", "(array, pad_width, mode='constant', constant_values=0)", pad)
        .doc("The array padded by `pad_width` ((before, after) per axis, or one pair or int for all): with `constant_values`, or mirrored ('reflect', 'symmetric').")
        .examples(&["np.pad(np.array([1, 2, 3]), (2, 3), constant_values=(0))", "np.pad(np.array([1, 2, 3]), 2, mode='reflect')"]),
    Builtin::function("np.searchsorted", "(a, v, side='left')", searchsorted)
        .doc("Where each value of `v` would go in the sorted 1-D array `a` to keep it sorted (the first place, or the last with side='right').")
        .examples(&["np.searchsorted(np.array([1, 2, 3, 4, 5]), 3)", "np.searchsorted(np.array([1, 2, 3, 4, 5]), [-10, 10, 2, 3], side='right')"]),
    Builtin::function("np.dot", "(a, b)", dot)
        .doc("The dot product: a sum of products for vectors, a matrix product for matrices, a product with a scalar.")
        .examples(&["np.dot(np.array([1, 2]), np.array([3, 4]))", "np.dot(np.array([[1, 0], [0, 1]]), np.array([[4, 1], [2, 2]]))"]),
];

/// NumPy's error class for the engine's shape complaints.
fn value_error(e: ragtag_engine::Exception) -> Error {
    let mut e = e;
    if e.class == ExceptionClass::InvalidArgumentError {
        e.class = ExceptionClass::ValueError;
    }
    Error::from(e)
}

/// The arrays of a sequence argument, promoted to one dtype.
fn arrays(a: &Args, name: &str) -> Result<Vec<Tensor>> {
    let items = crate::eval::subscript::iterate(a.value(name)).map_err(|e| a.err_at(name, e))?;
    if items.is_empty() {
        return Err(Error::new(
            ExceptionClass::ValueError,
            "need at least one array to concatenate",
        )
        .at(a.span(name)));
    }
    let ts: Vec<Tensor> = items
        .iter()
        .map(|v| tensor_of(v).map_err(|e| a.err_at(name, e)))
        .collect::<Result<_>>()?;
    let d = ts[1..]
        .iter()
        .fold(ts[0].dtype(), |d, t| super::numpy::promote(d, t.dtype()));
    ts.iter().map(|t| cast(t, d)).collect()
}

fn join(a: &Args, rows: bool) -> Result<Value> {
    let mut ts = arrays(a, "tup")?;
    let axis = if rows {
        for t in ts.iter_mut() {
            if t.rank() < 2 {
                let shape = if t.rank() == 0 {
                    vec![1, 1]
                } else {
                    vec![1, t.size()]
                };
                *t = t.reshaped(shape)?;
            }
        }
        0
    } else {
        for t in ts.iter_mut() {
            if t.rank() == 0 {
                *t = t.reshaped(vec![1])?;
            }
        }
        if ts[0].rank() == 1 {
            0
        } else {
            1
        }
    };
    let refs: Vec<&Tensor> = ts.iter().collect();
    ragtag_engine::ops::concat::concat_dense(&refs, axis)
        .map(nd)
        .map_err(|e| value_error(e).at(a.call))
}

fn split(a: &Args, equal: bool) -> Result<Value> {
    let t = arg_tensor(a, "ary")?;
    let axis =
        norm_axis(a.opt_int("axis")?.unwrap_or(0), t.rank()).map_err(|e| a.err_at("axis", e))?;
    let n = t.shape()[axis];
    let sizes: Vec<usize> = match a.value("indices_or_sections") {
        Value::Int(k) => {
            let k = *k;
            if k <= 0 {
                return Err(Error::new(
                    ExceptionClass::ValueError,
                    "number sections must be larger than 0.",
                )
                .at(a.span("indices_or_sections")));
            }
            let k = k as usize;
            if equal && n % k != 0 {
                return Err(Error::new(
                    ExceptionClass::ValueError,
                    "array split does not result in an equal division",
                )
                .at(a.call));
            }
            (0..k).map(|i| n / k + usize::from(i < n % k)).collect()
        }
        v => {
            let cuts = convert::to_ints(v).map_err(|e| a.err_at("indices_or_sections", e))?;
            let mut sizes = Vec::new();
            let mut prev = 0usize;
            for c in cuts.into_iter().chain(std::iter::once(n as i64)) {
                let c = if c < 0 { (c + n as i64).max(0) } else { c } as usize;
                let c = c.min(n).max(prev);
                sizes.push(c - prev);
                prev = c;
            }
            sizes
        }
    };
    let pieces = layout::split(&t, axis, &sizes).map_err(|e| Error::from(e).at(a.call))?;
    Ok(Value::list(pieces.into_iter().map(nd).collect()))
}

fn tile(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let t = arg_tensor(a, "A")?;
    let reps = match a.value("reps") {
        Value::Int(k) => vec![*k],
        v => convert::to_ints(v).map_err(|e| a.err_at("reps", e))?,
    };
    if reps.iter().any(|&r| r < 0) {
        return Err(Error::new(
            ExceptionClass::ValueError,
            "negative dimensions are not allowed",
        )
        .at(a.span("reps")));
    }
    let rank = t.rank().max(reps.len());
    #[allow(clippy::disallowed_methods)] // one entry per dimension
    let mut shape = vec![1; rank - t.rank()];
    shape.extend_from_slice(t.shape());
    #[allow(clippy::disallowed_methods)] // one entry per dimension
    let mut mult = vec![1usize; rank - reps.len()];
    mult.extend(reps.iter().map(|&r| r as usize));
    let t = t.reshaped(shape)?;
    ragtag_engine::ops::tile::tile_dense(&t, &mult)
        .map(nd)
        .map_err(|e| Error::from(e).at(a.call))
}

/// `t` with `axis` moved to the front (and the permutation that moves it back).
fn to_front(t: &Tensor, axis: usize) -> Result<(Tensor, Vec<i64>)> {
    let rank = t.rank();
    let mut perm: Vec<i64> = vec![axis as i64];
    perm.extend((0..rank as i64).filter(|&k| k != axis as i64));
    #[allow(clippy::disallowed_methods)] // one entry per dimension
    let mut back = vec![0i64; rank];
    for (i, &p) in perm.iter().enumerate() {
        back[p as usize] = i as i64;
    }
    Ok((layout::transpose(t, &perm)?, back))
}

/// The rows `picks` of `t` along `axis`.
fn pick(t: &Tensor, axis: usize, picks: &[usize]) -> Result<Tensor> {
    let (front, back) = to_front(t, axis)?;
    let rows = front.gather_rows(picks);
    Ok(layout::transpose(&rows, &back)?)
}

fn flat_or_axis(a: &Args, t: Tensor, name: &str) -> Result<(Tensor, usize)> {
    match a.opt_int("axis")? {
        None => {
            let n = t.size();
            Ok((t.reshaped(vec![n])?, 0))
        }
        Some(x) => {
            let k = norm_axis(x, t.rank()).map_err(|e| a.err_at("axis", e))?;
            let _ = name;
            Ok((t, k))
        }
    }
}

fn repeat(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let t = arg_tensor(a, "a")?;
    let (t, axis) = flat_or_axis(a, t, "a")?;
    let n = t.shape().get(axis).copied().unwrap_or(1);
    let counts = match a.value("repeats") {
        Value::Int(k) => {
            budget::filled("np.repeat", *k, n).map_err(|e| Error::from(e).at(a.call))?
        }
        v => convert::to_ints(v).map_err(|e| a.err_at("repeats", e))?,
    };
    let counts = if counts.len() == 1 {
        budget::filled("np.repeat", counts[0], n).map_err(|e| Error::from(e).at(a.call))?
    } else {
        counts
    };
    if counts.len() != n {
        return Err(Error::new(
            ExceptionClass::ValueError,
            format!(
                "operands could not be broadcast together with shape ({n},) ({},)",
                counts.len()
            ),
        )
        .at(a.span("repeats")));
    }
    if counts.iter().any(|&c| c < 0) {
        return Err(Error::new(
            ExceptionClass::ValueError,
            "repeats may not contain negative values.",
        )
        .at(a.span("repeats")));
    }
    let picks: Vec<usize> = counts
        .iter()
        .enumerate()
        .flat_map(|(i, &c)| std::iter::repeat_n(i, c as usize))
        .collect();
    pick(&t, axis, &picks).map(nd).map_err(|e| e.at(a.call))
}

fn take(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let t = arg_tensor(a, "a")?;
    let (t, axis) = flat_or_axis(a, t, "a")?;
    let idx = arg_tensor(a, "indices")?;
    if !idx.dtype().is_int() {
        return Err(Error::new(
            ExceptionClass::TypeError,
            "Cannot cast array data from dtype('float64') to dtype('int64') according to the rule 'safe'",
        )
        .at(a.span("indices")));
    }
    let n = t.shape()[axis];
    let raw = cast(&idx, DType::Int64)?
        .data()
        .to_i64_vec()
        .unwrap_or_default();
    let mut picks = budget::vec("np.take", raw.len()).map_err(|e| Error::from(e).at(a.call))?;
    for i in raw {
        let p = ragtag_engine::tensor::normalize_index(i, n).ok_or_else(|| {
            Error::new(
                ExceptionClass::IndexError,
                format!("index {i} is out of bounds for axis {axis} with size {n}"),
            )
            .at(a.span("indices"))
        })?;
        picks.push(p);
    }
    let taken = pick(&t, axis, &picks).map_err(|e| e.at(a.call))?;
    // The indices' shape replaces the axis.
    let mut shape = t.shape()[..axis].to_vec();
    shape.extend_from_slice(idx.shape());
    shape.extend_from_slice(&t.shape()[axis + 1..]);
    taken
        .reshaped(shape)
        .map(nd)
        .map_err(|e| Error::from(e).at(a.call))
}

fn diff(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let mut t = arg_tensor(a, "a")?;
    let times = a.opt_int("n")?.unwrap_or(1);
    if times < 0 {
        return Err(Error::new(
            ExceptionClass::ValueError,
            format!("order must be non-negative but got {times}"),
        )
        .at(a.span("n")));
    }
    if t.rank() == 0 {
        return Err(Error::new(
            ExceptionClass::ValueError,
            "diff requires input that is at least one dimensional",
        )
        .at(a.call));
    }
    let axis =
        norm_axis(a.opt_int("axis")?.unwrap_or(-1), t.rank()).map_err(|e| a.err_at("axis", e))?;
    let op = if t.dtype() == DType::Bool {
        BinaryOp::Ne
    } else {
        BinaryOp::Sub
    };
    for _ in 0..times {
        let n = t.shape()[axis];
        if n == 0 {
            break;
        }
        let hi: Vec<usize> = (1..n).collect();
        let lo: Vec<usize> = (0..n - 1).collect();
        let (x, y) = (pick(&t, axis, &hi)?, pick(&t, axis, &lo)?);
        let out = numpy_kernel(op, &nd(x), &nd(y), false).map_err(|e| Error::from(e).at(a.call))?;
        t = tensor_of(&out)?;
    }
    Ok(nd(t))
}

/// `pad_width`: per axis (before, after), from an int, one pair, or one pair per axis.
fn pad_pairs(a: &Args, rank: usize) -> Result<Vec<(i64, i64)>> {
    let v = a.value("pad_width");
    let t = tensor_of(v).map_err(|e| a.err_at("pad_width", e))?;
    let flat = cast(&t, DType::Int64)?
        .data()
        .to_i64_vec()
        .unwrap_or_default();
    #[allow(clippy::disallowed_methods)] // one pair per dimension
    let pairs: Vec<(i64, i64)> = match (t.rank(), flat.len()) {
        (0, 1) | (1, 1) => vec![(flat[0], flat[0]); rank],
        (1, 2) => vec![(flat[0], flat[1]); rank],
        (2, n) if t.shape()[1] == 2 && n / 2 == rank => flat.chunks(2).map(|c| (c[0], c[1])).collect(),
        (2, 2) if t.shape()[0] == 1 => vec![(flat[0], flat[1]); rank],
        _ => {
            return Err(Error::new(
                ExceptionClass::ValueError,
                format!(
                    "operands could not be broadcast together with remapped shapes [original->remapped]: {:?} and requested shape ({rank},2)",
                    t.shape()
                ),
            )
            .at(a.span("pad_width")))
        }
    };
    if pairs.iter().any(|&(b, e)| b < 0 || e < 0) {
        return Err(Error::new(
            ExceptionClass::ValueError,
            "index can't contain negative values",
        )
        .at(a.span("pad_width")));
    }
    Ok(pairs)
}

fn pad(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let t = arg_tensor(a, "array")?;
    let pairs = pad_pairs(a, t.rank())?;
    let mode = match a.opt_str("mode")?.as_deref().unwrap_or("constant") {
        "constant" => layout::PadMode::Constant,
        "reflect" => layout::PadMode::Reflect,
        "symmetric" => layout::PadMode::Symmetric,
        other => {
            return Err(Error::new(
                ExceptionClass::ValueError,
                format!("mode '{other}' is not supported"),
            )
            .at(a.span("mode")))
        }
    };
    let fill = match a.get("constant_values") {
        None => Tensor::scalar(ragtag_engine::Scalar::I64(0)),
        Some(v) => tensor_of(v).map_err(|e| a.err_at("constant_values", e))?,
    };
    if fill.size() != 1 {
        return Err(Error::new(
            ExceptionClass::ValueError,
            "ragtag's np.pad takes a single constant value",
        )
        .at(a.span("constant_values")));
    }
    let value = ragtag_engine::ops::cast::cast_scalar(&fill.data().get(0), t.dtype())?;
    layout::pad(&t, &pairs, mode, &value)
        .map(nd)
        .map_err(|e| value_error(e).at(a.call))
}

fn searchsorted(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let sorted = arg_tensor(a, "a")?;
    if sorted.rank() != 1 {
        return Err(Error::new(
            ExceptionClass::ValueError,
            "object too deep for desired array",
        )
        .at(a.span("a")));
    }
    let right = match a.opt_str("side")?.as_deref().unwrap_or("left") {
        "left" => false,
        "right" => true,
        other => {
            return Err(Error::new(
                ExceptionClass::ValueError,
                format!("side must be 'left' or 'right' (got '{other}')"),
            )
            .at(a.span("side")))
        }
    };
    let v = arg_tensor(a, "v")?;
    let d = super::numpy::promote(sorted.dtype(), v.dtype());
    let (s, vals) = (cast(&sorted, d)?, cast(&v, d)?);
    let flat = vals.reshaped(vec![1, vals.size()])?;
    let s2 = s.reshaped(vec![1, s.size()])?;
    let idx = ragtag_engine::ops::order::searchsorted(&s2, &flat, right)
        .map_err(|e| Error::from(e).at(a.call))?;
    Ok(nd(Tensor::from_parts(
        v.shape().to_vec(),
        Buffer::from(idx),
    )))
}

fn dot(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let (x, y) = (arg_tensor(a, "a")?, arg_tensor(a, "b")?);
    if x.rank() == 0 || y.rank() == 0 {
        return numpy_kernel(BinaryOp::Mul, &nd(x), &nd(y), false)
            .map_err(|e| Error::from(e).at(a.call));
    }
    if x.rank() > 2 || y.rank() > 2 {
        return Err(Error::new(
            ExceptionClass::ValueError,
            "ragtag's np.dot takes vectors and matrices; use np.matmul for stacks",
        )
        .at(a.call));
    }
    crate::eval::operators::numpy_matmul(&nd(x), &nd(y)).map_err(|e| Error::from(e).at(a.call))
}
