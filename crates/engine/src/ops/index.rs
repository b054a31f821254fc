//! Python-style indexing (`x[i]`, `x[a:b:c]`, `x[..., tf.newaxis]`) of dense and ragged
//! tensors, with TensorFlow's rules: rows can be indexed and every dimension sliced, but an
//! integer index into an inner ragged dimension is refused.

use crate::budget;
use crate::error::Result;
use crate::partition::RowPartition;
use crate::ragged::{Array, Ragged};
use crate::tensor::{normalize_index, slice_positions, Tensor};
use crate::{index_error, invalid_arg, value_error};

/// One comma-separated part of a subscript.
#[derive(Debug, Clone, PartialEq)]
pub enum Key {
    /// An integer: selects one position and removes the dimension.
    Index(i64),
    /// `start:stop:step`.
    Slice(Option<i64>, Option<i64>, Option<i64>),
    /// `tf.newaxis` / `None`: inserts a dimension of size 1.
    NewAxis,
    /// `...`: as many full slices as needed.
    Ellipsis,
}

const FULL: Key = Key::Slice(None, None, None);

fn is_full(k: &Key) -> bool {
    matches!(
        k,
        Key::Slice(None, None, None) | Key::Slice(None, None, Some(1))
    )
}

/// Replaces `...` with full slices so that the keys cover `rank` dimensions.
fn expand_ellipsis(keys: &[Key], rank: usize, ragged: bool) -> Result<Vec<Key>> {
    let n_ell = keys.iter().filter(|k| **k == Key::Ellipsis).count();
    if n_ell > 1 {
        return Err(index_error!(
            "an index can only have a single ellipsis ('...')"
        ));
    }
    let consuming = keys
        .iter()
        .filter(|k| matches!(k, Key::Index(_) | Key::Slice(..)))
        .count();
    if consuming > rank {
        let message =
            format!("too many indices: the tensor has rank {rank}, but {consuming} were given");
        // TensorFlow's ragged indexing refuses too many indices around an ellipsis itself
        // (IndexError); everything else reaches its strided slice (InvalidArgumentError).
        return Err(if n_ell > 0 && ragged {
            index_error!("{message}")
        } else {
            invalid_arg!("{message}")
        });
    }
    let mut out = budget::vec("indexing", keys.len() + rank)?;
    for k in keys {
        if *k == Key::Ellipsis {
            out.extend(std::iter::repeat_n(FULL, rank - consuming));
        } else {
            out.push(k.clone());
        }
    }
    Ok(out)
}

/// `a[keys]`.
pub fn getitem(a: &Array, keys: &[Key]) -> Result<Array> {
    let keys = expand_ellipsis(keys, a.rank(), matches!(a, Array::Ragged(_)))?;
    match a {
        Array::Dense(t) => dense_getitem(t, &keys).map(Array::Dense),
        Array::Ragged(r) => ragged_getitem(r, &keys),
    }
}

/// NumPy basic indexing of a dense tensor: a strided view of its elements (an index
/// moves the offset, a slice scales the stride, a new axis adds a dimension of size 1), so
/// `x[::2]`, `x[:, ::-1]` or `x[3]` copy nothing.
pub fn dense_getitem(t: &Tensor, keys: &[Key]) -> Result<Tensor> {
    let keys = expand_ellipsis(keys, t.rank(), false)?;
    let shape = t.shape();
    let (base, mut offset, strides) = t.layout();
    let mut out_shape = budget::vec("indexing", keys.len() + shape.len())?;
    let mut out_strides = budget::vec("indexing", keys.len() + shape.len())?;
    let mut empty = false;
    let mut dim = 0;
    for k in &keys {
        match k {
            Key::NewAxis => {
                out_shape.push(1);
                out_strides.push(0);
            }
            Key::Index(i) => {
                let n = shape[dim];
                let p = normalize_index(*i, n).ok_or_else(|| {
                    crate::Exception::from(crate::EngineError::IndexOutOfBounds {
                        index: *i,
                        dim,
                        size: n,
                    })
                })?;
                offset = (offset as isize + p as isize * strides[dim]) as usize;
                dim += 1;
            }
            Key::Slice(a, b, c) => {
                let r = crate::size::slice(*a, *b, *c, shape[dim])?;
                empty |= r.len == 0;
                if r.len > 0 {
                    offset = (offset as isize + r.start as isize * strides[dim]) as usize;
                }
                out_shape.push(r.len);
                // One position needs no step (and a huge step must not overflow).
                out_strides.push(if r.len > 1 {
                    strides[dim] * r.step as isize
                } else {
                    0
                });
                dim += 1;
            }
            Key::Ellipsis => unreachable!("expanded"),
        }
    }
    out_shape.extend_from_slice(&shape[dim..]);
    out_strides.extend_from_slice(&strides[dim..]);
    if empty {
        return Tensor::new(out_shape, base.slice(0, 0));
    }
    Ok(Tensor::strided(out_shape, base, offset, out_strides))
}

fn ragged_getitem(rt: &Ragged, keys: &[Key]) -> Result<Array> {
    let Some(first) = keys.first() else {
        return Ok(Array::Ragged(rt.clone()));
    };
    let rest = &keys[1..];
    match first {
        Key::Index(i) => {
            let n = rt.nrows();
            // TensorFlow checks `i >= nrows` eagerly (IndexError, so that iteration stops);
            // a too-negative index fails inside the row lookup (InvalidArgumentError).
            let k = normalize_index(*i, n).ok_or_else(|| {
                if *i >= 0 {
                    crate::Exception::from(crate::EngineError::RowOutOfBounds {
                        index: *i,
                        nrows: n,
                    })
                } else {
                    invalid_arg!("Row key {i} out of bounds: this ragged tensor has {n} rows")
                }
            })?;
            let (a, b) = rt.outer().row_range(k);
            // Name the row when the next index falls past the end of a dense row (rows
            // differ in length, so "dimension 0 of the row" would not say which one).
            if let (Some(Key::Index(j)), 1) = (rest.first(), rt.ragged_rank()) {
                let len = b - a;
                if normalize_index(*j, len).is_none() {
                    let noun = if len == 1 { "element" } else { "elements" };
                    return Err(invalid_arg!(
                        "index {j} is out of bounds for row {k}, which has {len} {noun}"
                    ));
                }
            }
            let row = rt.values().slice_rows(a, b);
            getitem(&row, rest)
        }
        Key::Slice(a, b, c) => {
            let sliced = if is_full(first) {
                rt.clone()
            } else if c.unwrap_or(1) == 1 {
                let (s, e) = crate::tensor::slice_range(*a, *b, rt.nrows());
                rt.slice_rows(s, e)
            } else {
                rt.gather_rows(&slice_positions(*a, *b, *c, rt.nrows())?)
            };
            inner_getitem(&Array::Ragged(sliced), rest)
        }
        Key::NewAxis => {
            let inner = ragged_getitem(rt, rest)?;
            expand_outer(inner)
        }
        Key::Ellipsis => unreachable!("expanded"),
    }
}

/// Wraps a whole tensor in one more outer dimension of size 1.
fn expand_outer(inner: Array) -> Result<Array> {
    match inner {
        Array::Dense(t) => {
            let mut shape = vec![1];
            shape.extend_from_slice(t.shape());
            Ok(Array::Dense(t.with_shape(shape)))
        }
        Array::Ragged(r) => {
            let n = r.nrows();
            let p = RowPartition::from_uniform_row_length(n as i64, n, Some(1))?;
            Ragged::from_partition(p, Array::Ragged(r)).map(Array::Ragged)
        }
    }
}

/// Indexes the dimensions after the first (which the caller has already handled).
fn inner_getitem(a: &Array, keys: &[Key]) -> Result<Array> {
    if keys.is_empty() {
        return Ok(a.clone());
    }
    let rt = match a {
        Array::Dense(t) => {
            let mut all = vec![FULL];
            all.extend_from_slice(keys);
            return dense_getitem(t, &all).map(Array::Dense);
        }
        Array::Ragged(r) => r,
    };
    let key = &keys[0];
    let rest = &keys[1..];
    match key {
        Key::NewAxis => {
            let inner = inner_getitem(a, rest)?;
            // Each row becomes a single row holding it: a uniform dimension of size 1.
            let n = inner.nrows();
            let p = RowPartition::from_uniform_row_length(1, n, Some(n as i64))?;
            Ragged::from_partition(p, inner).map(Array::Ragged)
        }
        k if is_full(k) => {
            let values = inner_getitem(&rt.values(), rest)?;
            rt.with_values(values).map(Array::Ragged)
        }
        Key::Index(i) => {
            let Some(u) = rt.outer().uniform_row_length() else {
                return Err(value_error!("Cannot index into an inner ragged dimension.")
                    .with_hint(
                        "rows have different lengths, so there is no common column to pick; \
                     slice instead (rt[:, i:i+1]) or pad first with rt.to_tensor()",
                    ));
            };
            let u = u as usize;
            let k = normalize_index(*i, u).ok_or_else(|| {
                invalid_arg!("index {i} is out of bounds for a uniform dimension of size {u}")
            })?;
            let rows: Vec<usize> = (0..rt.nrows()).map(|r| r * u + k).collect();
            let picked = rt.values().gather_rows(&rows);
            inner_getitem(&picked, rest)
        }
        Key::Slice(s, e, st) if st.unwrap_or(1) == 1 => {
            // Contiguous in every row: one pass over the row splits gives the new splits and
            // one range per row, copied without per-row allocation.
            // The ranges are independent of each other (computed on every core for many
            // rows); the splits are their running total.
            let outer = rt.outer();
            let rs = outer.row_splits();
            budget::check("indexing", outer.nrows() as u128, 16)?;
            let ranges = crate::interrupt::map_range(outer.nrows(), |r| {
                let (a0, b0) = (rs[r] as usize, rs[r + 1] as usize);
                let (lo, hi) = crate::tensor::slice_range(*s, *e, b0 - a0);
                (a0 + lo, a0 + hi)
            });
            crate::interrupt::check()?;
            let mut splits = budget::vec("indexing", outer.nrows() + 1)?;
            splits.push(0i64);
            let mut total = 0i64;
            splits.extend(ranges.iter().map(|&(a, b)| {
                total += (b - a) as i64;
                total
            }));
            let values = rt.values().gather_ranges(&ranges);
            let values = inner_getitem_values(values, rest)?;
            let part = RowPartition::from_valid_splits(splits)
                .with_uniform(sliced_uniform(rt, *s, *e, None)?);
            Ragged::from_partition(part, values).map(Array::Ragged)
        }
        Key::Slice(s, e, st) => {
            let outer = rt.outer();
            let mut lengths = budget::vec("indexing", outer.nrows())?;
            let mut picks = Vec::new();
            for r in 0..outer.nrows() {
                let (a0, b0) = outer.row_range(r);
                let pos = slice_positions(*s, *e, *st, b0 - a0)?;
                lengths.push(pos.len() as i64);
                picks.extend(pos.into_iter().map(|p| a0 + p));
            }
            let values = rt.values().gather_rows(&picks);
            let values = inner_getitem_values(values, rest)?;
            let part = RowPartition::from_row_lengths(&lengths, None)?
                .with_uniform(sliced_uniform(rt, *s, *e, *st)?);
            Ragged::from_partition(part, values).map(Array::Ragged)
        }
        Key::Ellipsis => unreachable!("expanded"),
    }
}

/// The row length after slicing a uniform dimension (every row keeps the same number of
/// elements), or None when the dimension is ragged.
fn sliced_uniform(
    rt: &Ragged,
    start: Option<i64>,
    stop: Option<i64>,
    step: Option<i64>,
) -> Result<Option<i64>> {
    let Some(u) = rt.outer().uniform_row_length() else {
        return Ok(None);
    };
    Ok(Some(
        crate::size::slice(start, stop, step, u as usize)?.len as i64,
    ))
}

/// Applies the remaining keys to the values (each value row is one element of the
/// dimension just sliced, so the next key applies to the values' second dimension).
fn inner_getitem_values(values: Array, rest: &[Key]) -> Result<Array> {
    if rest.is_empty() {
        return Ok(values);
    }
    inner_getitem(&values, rest)
}
