//! NumPy's shape and order functions and the array methods that go with them:
//! `reshape`, `transpose` / `.T`, `ravel` / `flatten`, `squeeze`, `expand_dims`, `flip`,
//! `sort`, `argsort`, `unique`, `nonzero`, `.item()`, `.copy()`, `.itemsize`, `.nbytes`
//! — NumPy's results and errors, on the engine's layout and ordering kernels.

use super::numpy_args::{arg_tensor, nd, norm_axis, self_tensor};
use super::{Builtin, Kind};
use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::convert;
use crate::eval::Interp;
use crate::value::Value;
use ragtag_engine::ops::order::sort_positions;
use ragtag_engine::{Array, Buffer, ExceptionClass, Tensor};

/// The shape and order functions and methods.
pub static BUILTINS: &[Builtin] = &[
    Builtin::function("np.reshape", "(a, shape)", reshape)
        .doc("The same elements in a new shape; one dimension may be -1 (inferred).")
        .examples(&["np.reshape(np.arange(6), (2, 3))"]),
    Builtin::method("np.ndarray.reshape", "(self, *shape)", reshape)
        .doc("The same elements in a new shape, given as a tuple or as separate ints; one may be -1.")
        .examples(&["np.arange(6).reshape(3, -1)", "np.arange(6).reshape((2, 3))"]),
    Builtin::function("np.transpose", "(a, axes=None)", transpose)
        .doc("The array with its axes reversed, or permuted as `axes` lists.")
        .examples(&["np.transpose(np.arange(6).reshape(2, 3))"]),
    Builtin::method("np.ndarray.transpose", "(self, *axes)", transpose)
        .doc("The array with its axes reversed, or permuted as listed.")
        .examples(&["np.arange(6).reshape(2, 3).transpose()"]),
    Builtin::property("np.ndarray.T", transpose)
        .doc("The array with its axes reversed.")
        .examples(&["np.arange(6).reshape(2, 3).T"]),
    Builtin::function("np.ravel", "(a)", ravel)
        .doc("The elements as a 1-D array, in row-major order.")
        .examples(&["np.ravel(np.array([[1, 2], [3, 4]]))"]),
    Builtin::method("np.ndarray.ravel", "(self)", ravel)
        .doc("The elements as a 1-D array, in row-major order.")
        .examples(&["np.array([[1, 2], [3, 4]]).ravel()"]),
    Builtin::method("np.ndarray.flatten", "(self)", ravel)
        .doc("A copy of the elements as a 1-D array, in row-major order.")
        .examples(&["np.array([[1, 2], [3, 4]]).flatten()"]),
    Builtin::function("np.squeeze", "(a, axis=None)", squeeze)
        .doc("The array without its dimensions of size 1 (or only those in `axis`, each of which must have size 1).")
        .examples(&["np.squeeze(np.zeros([1, 3, 1])).shape"]),
    Builtin::method("np.ndarray.squeeze", "(self, axis=None)", squeeze)
        .doc("The array without its dimensions of size 1 (or only those in `axis`).")
        .examples(&["np.zeros([1, 3, 1]).squeeze(axis=0).shape"]),
    Builtin::function("np.expand_dims", "(a, axis)", expand_dims)
        .doc("The array with a new dimension of size 1 at `axis` (an int or a tuple).")
        .examples(&["np.expand_dims(np.array([1, 2]), 0)"]),
    Builtin::function("np.flip", "(m, axis=None)", flip)
        .doc("The elements in reverse order along `axis` (every axis by default).")
        .examples(&["np.flip(np.array([[1, 2], [3, 4]]), axis=1)"]),
    Builtin::function("np.sort", "(a, axis=-1)", sort)
        .doc("A sorted copy along `axis` (the last by default; None sorts the flattened array); NaNs go last.")
        .examples(&["np.sort(np.array([[3, 1], [2, 5]]), axis=0)"]),
    Builtin::function("np.argsort", "(a, axis=-1)", argsort)
        .doc("The indices that sort the array along `axis` (int64).")
        .examples(&["np.argsort(np.array([3, 1, 2]))"]),
    Builtin::method("np.ndarray.argsort", "(self, axis=-1)", argsort)
        .doc("The indices that sort the array along `axis` (int64).")
        .examples(&["np.array([3, 1, 2]).argsort()"]),
    Builtin::function("np.unique", "(ar, return_index=False, return_inverse=False, return_counts=False)", unique)
        .doc("The sorted distinct elements of the flattened array; with `return_index`, `return_inverse`, `return_counts` also where each first occurs, each element's place among them, and how often each occurs.")
        .examples(&["np.unique(np.array([3, 1, 3, 2, 1]))", "np.unique([1, 1, 2], return_counts=True)"]),
    Builtin::function("np.nonzero", "(a)", nonzero)
        .doc("The indices of the nonzero elements: a tuple of int64 arrays, one per dimension.")
        .examples(&["np.nonzero(np.array([[1, 0], [0, 2]]))"]),
    Builtin::method("np.ndarray.nonzero", "(self)", nonzero)
        .doc("The indices of the nonzero elements: a tuple of int64 arrays, one per dimension.")
        .examples(&["np.array([0, 3, 0, 4]).nonzero()"]),
    Builtin::method("np.ndarray.item", "(self, *args)", item)
        .doc("The single element (or the element at a flat index) as a Python scalar.")
        .examples(&["np.array([[7]]).item()", "np.array([4, 5, 6]).item(1)"]),
    Builtin::method("np.ndarray.copy", "(self)", copy)
        .doc("A copy of the array.")
        .examples(&["np.array([1, 2]).copy()"]),
    Builtin::property("np.ndarray.itemsize", itemsize)
        .doc("The bytes of one element.")
        .examples(&["np.zeros(3, dtype=np.int16).itemsize"]),
    Builtin::property("np.ndarray.nbytes", nbytes)
        .doc("The bytes of all the elements.")
        .examples(&["np.zeros([2, 3]).nbytes"]),
];

fn subject(a: &Args, function_name: &'static str) -> Result<Tensor> {
    if a.builtin().kind == Kind::Function {
        arg_tensor(a, function_name)
    } else {
        self_tensor(a)
    }
}

/// A method's `*shape` / `*axes`: one tuple or list argument, or the ints themselves.
fn spread_ints(a: &Args) -> Result<Option<Vec<i64>>> {
    let rest = a.rest();
    match rest {
        [] => Ok(None),
        [(Value::None, _)] => Ok(None),
        [(v, s)] if !matches!(v, Value::Int(_)) => convert::to_ints(v)
            .map(Some)
            .map_err(|e| Error::from(e).at(*s)),
        _ => rest
            .iter()
            .map(|(v, s)| convert::to_int(v).map_err(|e| Error::from(e).at(*s)))
            .collect::<Result<Vec<_>>>()
            .map(Some),
    }
}

/// NumPy's shape text: `(4,)`, `(2,3)`.
fn shape_text(dims: &[i64]) -> String {
    let parts: Vec<String> = dims.iter().map(|d| d.to_string()).collect();
    if parts.len() == 1 {
        format!("({},)", parts[0])
    } else {
        format!("({})", parts.join(","))
    }
}

fn reshape(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let t = subject(a, "a")?;
    let dims = if a.builtin().kind == Kind::Function {
        match a.value("shape") {
            Value::Int(n) => vec![*n],
            v => convert::to_ints(v).map_err(|e| a.err_at("shape", e))?,
        }
    } else {
        spread_ints(a)?.unwrap_or_default()
    };
    let size = t.size();
    let bad = || {
        Error::new(
            ExceptionClass::ValueError,
            format!(
                "cannot reshape array of size {size} into shape {}",
                shape_text(&dims)
            ),
        )
        .at(a.call)
    };
    let unknown: Vec<usize> = (0..dims.len()).filter(|&i| dims[i] == -1).collect();
    if unknown.len() > 1 {
        return Err(Error::new(
            ExceptionClass::ValueError,
            "can only specify one unknown dimension",
        )
        .at(a.call));
    }
    if dims.iter().any(|&d| d < -1) {
        return Err(Error::new(
            ExceptionClass::ValueError,
            "negative dimensions not allowed",
        )
        .at(a.call));
    }
    let known: usize = dims
        .iter()
        .filter(|&&d| d != -1)
        .map(|&d| d as usize)
        .product();
    let mut shape: Vec<usize> = dims.iter().map(|&d| d.max(0) as usize).collect();
    if let Some(&u) = unknown.first() {
        if known == 0 || size % known != 0 {
            return Err(bad());
        }
        shape[u] = size / known;
    } else if known != size {
        return Err(bad());
    }
    t.reshaped(shape)
        .map(nd)
        .map_err(|e| Error::from(e).at(a.call))
}

fn transpose(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let t = subject(a, "a")?;
    let axes = match a.builtin().kind {
        Kind::Function => match a.get("axes") {
            None => None,
            Some(v) => Some(convert::to_ints(v).map_err(|e| a.err_at("axes", e))?),
        },
        Kind::Method => spread_ints(a)?,
        Kind::Property => None,
    };
    let n = t.rank();
    let perm: Vec<i64> = match axes {
        None => (0..n as i64).rev().collect(),
        Some(p) => {
            if p.len() != n {
                return Err(
                    Error::new(ExceptionClass::ValueError, "axes don't match array").at(a.call),
                );
            }
            #[allow(clippy::disallowed_methods)] // one flag per dimension
            let mut seen = vec![false; n];
            let mut out = Vec::new();
            for x in p {
                let k = norm_axis(x, n).map_err(|e| Error::from(e).at(a.call))?;
                if seen[k] {
                    return Err(Error::new(
                        ExceptionClass::ValueError,
                        "repeated axis in transpose",
                    )
                    .at(a.call));
                }
                seen[k] = true;
                out.push(k as i64);
            }
            out
        }
    };
    ragtag_engine::ops::layout::transpose(&t, &perm)
        .map(nd)
        .map_err(|e| Error::from(e).at(a.call))
}

fn ravel(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let t = subject(a, "a")?;
    t.reshaped(vec![t.size()])
        .map(nd)
        .map_err(|e| Error::from(e).at(a.call))
}

fn squeeze(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let t = subject(a, "a")?;
    let n = t.rank();
    let drop: Vec<usize> = match a.get("axis") {
        None => (0..n).filter(|&k| t.shape()[k] == 1).collect(),
        Some(v) => {
            let raw = match v {
                Value::Int(i) => vec![*i],
                v => convert::to_ints(v).map_err(|e| a.err_at("axis", e))?,
            };
            let mut out = Vec::new();
            for x in raw {
                let k = norm_axis(x, n).map_err(|e| a.err_at("axis", e))?;
                if t.shape()[k] != 1 {
                    return Err(Error::new(
                        ExceptionClass::ValueError,
                        "cannot select an axis to squeeze out which has size not equal to one",
                    )
                    .at(a.span("axis")));
                }
                out.push(k);
            }
            out
        }
    };
    let shape: Vec<usize> = (0..n)
        .filter(|k| !drop.contains(k))
        .map(|k| t.shape()[k])
        .collect();
    t.reshaped(shape)
        .map(nd)
        .map_err(|e| Error::from(e).at(a.call))
}

fn expand_dims(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let t = arg_tensor(a, "a")?;
    let raw = match a.value("axis") {
        Value::Int(i) => vec![*i],
        v => convert::to_ints(v).map_err(|e| a.err_at("axis", e))?,
    };
    let out_rank = t.rank() + raw.len();
    let mut new = Vec::new();
    for x in raw {
        let k = norm_axis(x, out_rank).map_err(|e| a.err_at("axis", e))?;
        if new.contains(&k) {
            return Err(Error::new(ExceptionClass::ValueError, "repeated axis").at(a.span("axis")));
        }
        new.push(k);
    }
    let mut rest = t.shape().iter();
    let shape: Vec<usize> = (0..out_rank)
        .map(|k| {
            if new.contains(&k) {
                1
            } else {
                *rest.next().unwrap_or(&1)
            }
        })
        .collect();
    t.reshaped(shape)
        .map(nd)
        .map_err(|e| Error::from(e).at(a.call))
}

fn flip(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let t = arg_tensor(a, "m")?;
    let n = t.rank();
    let axes: Vec<i64> = match a.get("axis") {
        None => (0..n as i64).collect(),
        Some(v) => {
            let raw = match v {
                Value::Int(i) => vec![*i],
                v => convert::to_ints(v).map_err(|e| a.err_at("axis", e))?,
            };
            raw.into_iter()
                .map(|x| {
                    norm_axis(x, n)
                        .map(|k| k as i64)
                        .map_err(|e| a.err_at("axis", e))
                })
                .collect::<Result<_>>()?
        }
    };
    match ragtag_engine::ops::reshape::reverse(&Array::Dense(t), &axes) {
        Ok(Array::Dense(t)) => Ok(nd(t)),
        Ok(Array::Ragged(_)) => unreachable!("dense in, dense out"),
        Err(e) => Err(Error::from(e).at(a.call)),
    }
}

/// The tensor to sort and the axis: the flattened array for `axis=None`.
fn sort_input(a: &Args, t: Tensor) -> Result<(Tensor, usize)> {
    if t.rank() == 0 {
        return Err(Error::new(
            ExceptionClass::AxisError,
            "axis -1 is out of bounds for array of dimension 0",
        )
        .at(a.call));
    }
    if has_none_axis(a) {
        let n = t.size();
        return Ok((t.reshaped(vec![n])?, 0));
    }
    let axis = a.opt_int("axis")?.unwrap_or(-1);
    let k = norm_axis(axis, t.rank()).map_err(|e| a.err_at("axis", e))?;
    Ok((t, k))
}

/// Whether `axis=None` was passed (rather than left at its default of -1).
fn has_none_axis(a: &Args) -> bool {
    a.get("axis").is_none() && a.span("axis") != a.call
}

fn sort(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let t = arg_tensor(a, "a")?;
    let (t, k) = sort_input(a, t)?;
    let (src, _) =
        sort_positions("np.sort", &t, k, false).map_err(|e| Error::from(e).at(a.call))?;
    Ok(nd(Tensor::from_parts(
        t.shape().to_vec(),
        t.data().gather(&src),
    )))
}

fn argsort(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let t = subject(a, "a")?;
    let (t, k) = sort_input(a, t)?;
    let (_, idx) =
        sort_positions("np.argsort", &t, k, false).map_err(|e| Error::from(e).at(a.call))?;
    Ok(nd(Tensor::from_parts(
        t.shape().to_vec(),
        Buffer::from(idx),
    )))
}

fn unique(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let t = arg_tensor(a, "ar")?;
    let flat = t
        .reshaped(vec![t.size()])
        .map_err(|e| Error::from(e).at(a.call))?;
    let (src, _) =
        sort_positions("np.unique", &flat, 0, false).map_err(|e| Error::from(e).at(a.call))?;
    // Runs of equal elements in sorted order: each run's first position is the element's
    // first occurrence (the sort is stable).
    let mut firsts: Vec<usize> = Vec::new();
    let mut counts: Vec<i64> = Vec::new();
    let mut inverse = ragtag_engine::budget::filled("np.unique", 0i64, src.len())
        .map_err(|e| Error::from(e).at(a.call))?;
    for (i, &p) in src.iter().enumerate() {
        let new_run = i == 0 || flat.data().get(p) != flat.data().get(src[i - 1]);
        if new_run {
            firsts.push(p);
            counts.push(0);
        }
        *counts.last_mut().expect("a run") += 1;
        inverse[p] = firsts.len() as i64 - 1;
    }
    let values = nd(Tensor::vector(flat.data().gather(&firsts)));
    let mut out = vec![values];
    if a.flag("return_index", false)? {
        out.push(nd(Tensor::from_i64(
            firsts.iter().map(|&p| p as i64).collect(),
        )));
    }
    if a.flag("return_inverse", false)? {
        out.push(nd(Tensor::from_parts(
            t.shape().to_vec(),
            Buffer::from(inverse),
        )));
    }
    if a.flag("return_counts", false)? {
        out.push(nd(Tensor::from_i64(counts)));
    }
    Ok(if out.len() == 1 {
        out.remove(0)
    } else {
        Value::tuple(out)
    })
}

/// `np.nonzero(c)`: one int64 array of indices per dimension.
pub(crate) fn nonzero_of(c: &Tensor) -> Result<Value> {
    if c.rank() == 0 {
        return Err(Error::new(
            ExceptionClass::ValueError,
            "Calling nonzero on 0d arrays is not allowed. Use np.atleast_1d(scalar).nonzero() instead.",
        ));
    }
    let coords = ragtag_engine::ops::mask::where_coords(&Array::Dense(c.clone()))?;
    let per = ragtag_engine::ops::layout::transpose(&coords, &[1, 0])?;
    let (rank, n) = (c.rank(), coords.shape()[0]);
    Ok(Value::tuple(
        (0..rank)
            .map(|k| {
                nd(Tensor::from_parts(
                    vec![n],
                    per.data().slice(k * n, (k + 1) * n),
                ))
            })
            .collect(),
    ))
}

fn nonzero(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let t = subject(a, "a")?;
    nonzero_of(&t).map_err(|e| e.at(a.call))
}

fn item(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let t = self_tensor(a)?;
    let at = match a.rest() {
        [] => {
            if t.size() != 1 {
                return Err(Error::new(
                    ExceptionClass::ValueError,
                    "can only convert an array of size 1 to a Python scalar",
                )
                .at(a.call));
            }
            0
        }
        [(v, s)] => {
            let i = convert::to_int(v).map_err(|e| Error::from(e).at(*s))?;
            ragtag_engine::tensor::normalize_index(i, t.size()).ok_or_else(|| {
                Error::new(
                    ExceptionClass::IndexError,
                    format!("index {i} is out of bounds for size {}", t.size()),
                )
                .at(*s)
            })?
        }
        _ => {
            return Err(Error::new(
                ExceptionClass::ValueError,
                "incorrect number of indices for array",
            )
            .at(a.call))
        }
    };
    Ok(crate::value::scalar_to_value(t.data().get(at)))
}

fn copy(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    self_tensor(a).map(nd)
}

fn itemsize(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    Ok(Value::Int(self_tensor(a)?.dtype().item_bytes() as i64))
}

fn nbytes(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let t = self_tensor(a)?;
    Ok(Value::Int((t.dtype().item_bytes() * t.size()) as i64))
}
