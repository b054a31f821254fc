//! `tf.gather` and `tf.nn.embedding_lookup` for dense and ragged params and indices,
//! following TensorFlow's decomposition: ragged indices keep their partitions over the
//! gathered values, ragged params gather whole rows, and `axis` / `batch_dims` reduce to a
//! gather along axis 0 of flattened params with shifted indices.

use super::positive_axis;
use crate::budget;
use crate::buffer::Buffer;
use crate::error::Result;
use crate::exceptions::{Exception, ExceptionClass};
use crate::partition::RowPartition;
use crate::ragged::{Array, Ragged};
use crate::tensor::Tensor;
use crate::{invalid_arg, value_error};

mod nd;
#[cfg(test)]
mod tests;

pub use nd::gather_nd;

/// `tf.gather(params, indices, axis=None, batch_dims=0)`.
pub fn gather(
    params: &Array,
    indices: &Array,
    axis: Option<i64>,
    batch_dims: i64,
) -> Result<Array> {
    super::check_int_ids(indices, "indices")?;
    let all_dense = matches!((params, indices), (Array::Dense(_), Array::Dense(_)));
    let class = if all_dense {
        ExceptionClass::InvalidArgumentError
    } else {
        ExceptionClass::ValueError
    };
    if params.rank() == 0 {
        return Err(Exception::new(
            class,
            "params must be at least 1-dimensional, but it is a scalar",
        ));
    }
    let irank = indices.rank();
    let bd = if batch_dims == irank as i64 {
        irank
    } else {
        positive_axis(batch_dims, irank, class, "batch_dims")?
    };
    if bd >= params.rank() {
        return Err(Exception::new(
            class,
            format!(
                "batch_dims ({bd}) must be less than the rank of params ({})",
                params.rank()
            ),
        ));
    }
    let axis = positive_axis(axis.unwrap_or(bd as i64), params.rank(), class, "axis")?;
    if axis < bd {
        return Err(Exception::new(
            class,
            format!("axis ({axis}) must be greater than or equal to batch_dims ({bd})"),
        ));
    }
    gather_impl(params, indices, axis, bd)
}

fn gather_impl(params: &Array, indices: &Array, axis: usize, bd: usize) -> Result<Array> {
    match (params, indices) {
        (Array::Dense(p), Array::Dense(i)) => {
            return gather_dense(p, i, axis, bd).map(Array::Dense)
        }
        _ if bd > 0 => return batch_gather(params, indices, axis, bd),
        _ if axis > 0 => return axis_gather(params, indices, axis),
        _ => {}
    }
    match (params, indices) {
        (_, Array::Ragged(ri)) => {
            let inner = gather_impl(params, &Array::Dense(ri.flat_values().clone()), 0, 0)?;
            wrap(ri.partitions(), inner)
        }
        (Array::Ragged(rp), Array::Dense(i)) => {
            let idx = checked_indices(i, rp.nrows())?;
            if i.rank() == 0 {
                return rp.row(idx[0] as i64);
            }
            // The values under the picked rows: their count at the outer level times the
            // flat values each of those holds on average.
            let outer = rp.outer();
            let picked: u128 = idx
                .iter()
                .map(|&k| outer.row_range(k))
                .map(|(a, b)| (b - a) as u128)
                .sum();
            let fv = rp.flat_values();
            let per = fv.size().div_ceil(outer.nvals().max(1)) as u128;
            check_gathered(fv.data(), picked * per, idx.len())?;
            let rows = plain(rp.gather_rows(&idx))?;
            // Dense outer dimensions of the indices become uniform partitions.
            let mut out = Array::Ragged(rows);
            let shape = i.shape();
            for d in (1..shape.len()).rev() {
                let nvals = out.nrows();
                let p = RowPartition::from_uniform_row_length(
                    shape[d] as i64,
                    nvals,
                    Some(shape[..d].iter().product::<usize>() as i64),
                )?;
                out = Array::Ragged(Ragged::from_partition(p, out)?);
            }
            Ok(out)
        }
        (Array::Dense(_), Array::Dense(_)) => unreachable!("handled above"),
    }
}

/// Checks a gather's result against the memory budget before it is built: `elements` from
/// `data` (strings at their longest, as any may be picked) and `blocks` index ranges.
fn check_gathered(data: &Buffer, elements: u128, blocks: usize) -> Result<()> {
    let item = match data {
        Buffer::Str(s) => 8 + s.iter().map(<[u8]>::len).max().unwrap_or(0),
        d => d.dtype().item_bytes(),
    };
    budget::check("tf.gather", elements, item)?;
    budget::check(
        "tf.gather",
        blocks as u128,
        2 * std::mem::size_of::<usize>(),
    )
}

/// The same tensor with every partition marked ragged, as TensorFlow's row-split
/// constructors leave it.
fn plain(r: Ragged) -> Result<Ragged> {
    let parts = r
        .partitions()
        .iter()
        .map(|p| RowPartition::from_row_splits(p.row_splits().to_vec(), None))
        .collect::<Result<Vec<_>>>()?;
    Ragged::new(parts, r.flat_values().clone())
}

/// Puts `parts` (outermost first) on top of `inner`.
fn wrap(parts: &[RowPartition], inner: Array) -> Result<Array> {
    let mut out = inner;
    for p in parts.iter().rev() {
        out = Array::Ragged(Ragged::from_partition(p.clone(), out)?);
    }
    Ok(out)
}

/// The indices as positions, each checked against `n`.
fn checked_indices(i: &Tensor, n: usize) -> Result<Vec<usize>> {
    let v = i.to_i64_vec().expect("integer indices");
    v.iter()
        .enumerate()
        .map(|(k, &x)| {
            if x < 0 || x as usize >= n {
                Err(out_of_range(i.shape(), k, x, n))
            } else {
                Ok(x as usize)
            }
        })
        .collect()
}

fn out_of_range(shape: &[usize], flat: usize, value: i64, n: usize) -> Exception {
    #[allow(clippy::disallowed_methods)] // rank-sized
    let mut coords = vec![0usize; shape.len()];
    let mut rest = flat;
    for d in (0..shape.len()).rev() {
        if shape[d] > 0 {
            coords[d] = rest % shape[d];
            rest /= shape[d];
        }
    }
    crate::EngineError::GatherIndex {
        at: coords,
        value,
        size: n,
    }
    .into()
}

/// NumPy-style gather of a dense tensor: `params` is `[B…, O…, N, I…]`, `indices` is
/// `[B…, J…]` and the result `[B…, O…, J…, I…]`.
pub fn gather_dense(p: &Tensor, i: &Tensor, axis: usize, bd: usize) -> Result<Tensor> {
    let ps = p.shape();
    let is = i.shape();
    for d in 0..bd {
        if ps[d] != is[d] {
            return Err(invalid_arg!(
                "params.shape[{d}] = {} does not match indices.shape[{d}] = {}: batch dimensions must agree",
                ps[d],
                is[d]
            ));
        }
    }
    let nb: usize = ps[..bd].iter().product();
    let no: usize = ps[bd..axis].iter().product();
    let n = ps[axis];
    let ni: usize = ps[axis + 1..].iter().product();
    let nj: usize = is[bd..].iter().product();
    let idx = i.to_i64_vec().expect("integer indices");
    // The result: nb * no * nj blocks of ni elements, plus one range per block.
    let blocks = crate::size::mul(crate::size::mul(nb, no)?, nj)?;
    check_gathered(p.data(), blocks as u128 * ni as u128, blocks)?;
    let mut ranges = budget::vec("tf.gather", blocks)?;
    for b in 0..nb {
        for o in 0..no {
            for j in 0..nj {
                let k = b * nj + j;
                let v = idx[k];
                if v < 0 || v as usize >= n {
                    return Err(out_of_range(is, k, v, n));
                }
                let start = ((b * no + o) * n + v as usize) * ni;
                ranges.push((start, start + ni));
            }
        }
    }
    let data = if ni == 1 {
        let picks: Vec<usize> = ranges.iter().map(|r| r.0).collect();
        p.data().gather(&picks)
    } else {
        p.data().gather_ranges(&ranges)
    };
    let mut shape = ps[..axis].to_vec();
    shape.extend_from_slice(&is[bd..]);
    shape.extend_from_slice(&ps[axis + 1..]);
    Ok(Tensor::from_parts(shape, data))
}

/// Row `b` of the outer dimension of each element of `a`'s flat values.
fn outer_row_of_elements(a: &Array) -> Vec<usize> {
    match a {
        Array::Dense(t) => {
            let per = t.row_size();
            (0..t.size()).map(|e| e / per.max(1)).collect()
        }
        Array::Ragged(r) => {
            let mut ids: Vec<usize> = r
                .outer()
                .value_rowids()
                .iter()
                .map(|&x| x as usize)
                .collect();
            for p in &r.partitions()[1..] {
                ids = p.value_rowids().iter().map(|&x| ids[x as usize]).collect();
            }
            let per = r.flat_values().row_size();
            // One id per existing element.
            let mut out = Vec::new();
            for id in ids {
                out.extend(std::iter::repeat_n(id, per));
            }
            out
        }
    }
}

/// The outer two dimensions of `a` merged, the start of each outer row in that merged
/// dimension, and each outer row's length.
fn flatten_outer(a: &Array) -> Result<(Array, Vec<i64>, Vec<i64>)> {
    match a {
        Array::Ragged(r) => Ok((
            r.values(),
            r.outer().row_starts().to_vec(),
            r.row_lengths().to_vec(),
        )),
        Array::Dense(t) => {
            let s = t.shape();
            let mut shape = vec![s[0] * s[1]];
            shape.extend_from_slice(&s[2..]);
            let starts = (0..s[0]).map(|i| (i * s[1]) as i64).collect();
            Ok((
                Array::Dense(t.reshaped(shape)?),
                starts,
                budget::filled("tf.gather", s[1] as i64, s[0])?,
            ))
        }
    }
}

/// `indices` with each element `v` of outer row `b` (per `rows`) replaced by
/// `starts[b] + v`, after checking `0 <= v < lengths[b]`.
fn shift_indices(
    indices: &Array,
    rows: &[usize],
    starts: &[i64],
    lengths: &[i64],
) -> Result<Array> {
    let fv = indices.flat_values();
    let v = fv.to_i64_vec().expect("integer indices");
    let mut out = budget::vec::<i64>("tf.gather", v.len())?;
    for (k, (&x, &b)) in v.iter().zip(rows).enumerate() {
        if x < 0 || x >= lengths[b] {
            return Err(invalid_arg!(
                "index {x} (element {k} of the indices) is not in [0, {}) for row {b} of params",
                lengths[b]
            ));
        }
        out.push(starts[b] + x);
    }
    let t = Tensor::from_parts(fv.shape().to_vec(), Buffer::from(out));
    Ok(match indices {
        Array::Dense(_) => Array::Dense(t),
        Array::Ragged(r) => Array::Ragged(r.with_flat_values(t)?),
    })
}

fn to_ragged(a: &Array) -> Result<Ragged> {
    match a {
        Array::Ragged(r) => Ok(r.clone()),
        Array::Dense(t) => Ragged::from_tensor_uniform(t, 1),
    }
}

fn batch_gather(params: &Array, indices: &Array, axis: usize, bd: usize) -> Result<Array> {
    if params.nrows() != indices.nrows() {
        return Err(value_error!(
            "params has {} rows but indices has {}: with batch_dims the leading dimensions must match",
            params.nrows(),
            indices.nrows()
        ));
    }
    if bd > 1 {
        let p = to_ragged(params)?;
        let i = to_ragged(indices)?;
        if p.row_lengths() != i.row_lengths() {
            return Err(invalid_arg!(
                "params and indices have different row lengths in batch dimension 1"
            ));
        }
        let inner = gather_impl(&p.values(), &i.values(), axis - 1, bd - 1)?;
        return p.with_values(inner).map(Array::Ragged);
    }
    if axis > 1 {
        // Repeat each batch's indices once per row of params in dimension 1, turning that
        // dimension into a batch dimension too.
        let p = to_ragged(params)?;
        let ids: Vec<usize> = p
            .outer()
            .value_rowids()
            .iter()
            .map(|&x| x as usize)
            .collect();
        let repeated = indices.gather_rows(&ids);
        let adjusted = Ragged::from_partition(p.outer().clone(), repeated)?;
        return batch_gather(&Array::Ragged(p), &Array::Ragged(adjusted), axis, bd + 1);
    }
    let (flat, starts, lengths) = flatten_outer(params)?;
    let rows = outer_row_of_elements(indices);
    let shifted = shift_indices(indices, &rows, &starts, &lengths)?;
    // The batch dimension of the indices stays; its rows now point into the merged values.
    gather_impl(&flat, &shifted, 0, 0)
}

fn axis_gather(params: &Array, indices: &Array, axis: usize) -> Result<Array> {
    if axis > 1 {
        let p = to_ragged(params)?;
        let inner = gather_impl(&p.values(), indices, axis - 1, 0)?;
        return p.with_values(inner).map(Array::Ragged);
    }
    // output[p, i…] = params[p, indices[i…]]: give the indices a leading dimension with one
    // copy per row of params, then shift each copy into that row.
    let (flat, starts, lengths) = flatten_outer(params)?;
    let np = params.nrows();
    let expanded = match indices {
        Array::Dense(t) => {
            let mut shape = vec![np];
            shape.extend_from_slice(t.shape());
            let reps: Vec<(usize, usize)> = (0..np).map(|_| (0, t.size())).collect();
            Array::Dense(Tensor::from_parts(shape, t.data().gather_ranges(&reps)))
        }
        Array::Ragged(r) => {
            let rows: Vec<usize> = (0..np).flat_map(|_| 0..r.nrows()).collect();
            let tiled = plain(r.gather_rows(&rows))?;
            let p = RowPartition::from_uniform_row_length(
                r.nrows() as i64,
                np * r.nrows(),
                Some(np as i64),
            )?;
            Array::Ragged(Ragged::from_partition(p, Array::Ragged(tiled))?)
        }
    };
    let rows = outer_row_of_elements(&expanded);
    let shifted = shift_indices(&expanded, &rows, &starts, &lengths)?;
    gather_impl(&flat, &shifted, 0, 0)
}
