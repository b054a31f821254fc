//! `tf.gather` and `tf.nn.embedding_lookup` for dense and ragged params and indices,
//! following TensorFlow's decomposition: ragged indices keep their partitions over the
//! gathered values, ragged params gather whole rows, and `axis` / `batch_dims` reduce to a
//! gather along axis 0 of flattened params with shifted indices.

use super::positive_axis;
use crate::engine::budget;
use crate::engine::buffer::Buffer;
use crate::engine::error::{EngineError, ErrorClass, Result};
use crate::engine::partition::RowPartition;
use crate::engine::ragged::{Array, Ragged};
use crate::engine::tensor::Tensor;
use crate::{invalid_arg, value_error};

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
        ErrorClass::InvalidArgumentError
    } else {
        ErrorClass::ValueError
    };
    if params.rank() == 0 {
        return Err(EngineError::new(
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
        return Err(EngineError::new(
            class,
            format!(
                "batch_dims ({bd}) must be less than the rank of params ({})",
                params.rank()
            ),
        ));
    }
    let axis = positive_axis(axis.unwrap_or(bd as i64), params.rank(), class, "axis")?;
    if axis < bd {
        return Err(EngineError::new(
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

/// The same tensor with every partition marked ragged, as TensorFlow's row-split
/// constructors leave it.
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

fn out_of_range(shape: &[usize], flat: usize, value: i64, n: usize) -> EngineError {
    #[allow(clippy::disallowed_methods)] // rank-sized
    let mut coords = vec![0usize; shape.len()];
    let mut rest = flat;
    for d in (0..shape.len()).rev() {
        if shape[d] > 0 {
            coords[d] = rest % shape[d];
            rest /= shape[d];
        }
    }
    let at: Vec<String> = coords.iter().map(|c| c.to_string()).collect();
    invalid_arg!("indices[{}] = {value} is not in [0, {n})", at.join(",")).with_hint(
        "gather indices must be non-negative and less than the size of the gathered axis",
    )
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
    let blocks = crate::engine::size::mul(crate::engine::size::mul(nb, no)?, nj)?;
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
    let mut out = budget::vec("tf.gather", v.len())?;
    for (k, (&x, &b)) in v.iter().zip(rows).enumerate() {
        if x < 0 || x >= lengths[b] {
            return Err(invalid_arg!(
                "index {x} (element {k} of the indices) is not in [0, {}) for row {b} of params",
                lengths[b]
            ));
        }
        out.push(starts[b] + x);
    }
    let t = Tensor::from_parts(fv.shape().to_vec(), Buffer::I64(out));
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

/// `tf.gather_nd(params, indices)`: the innermost dimension of `indices` holds index tuples
/// into the outer dimensions of `params`; the result has indices' outer shape (ragged
/// indices keep their partitions) followed by what each tuple selects.
pub fn gather_nd(params: &Array, indices: &Array, batch_dims: i64) -> Result<Array> {
    let any_ragged = matches!(params, Array::Ragged(_)) || matches!(indices, Array::Ragged(_));
    if batch_dims != 0 {
        return Err(if any_ragged {
            value_error!("batch_dims != 0 is not supported for ragged gather_nd")
        } else {
            EngineError::new(
                ErrorClass::UnimplementedError,
                "tf.gather_nd with batch_dims is not supported yet".to_string(),
            )
        });
    }
    super::check_int_ids(indices, "indices")?;
    match indices {
        Array::Dense(t) => gather_nd_dense_indices(params, t),
        Array::Ragged(r) => {
            if r.flat_values().rank() < 2 {
                return Err(value_error!(
                    "The innermost dimension of indices may not be ragged"
                ));
            }
            let mut out = gather_nd_dense_indices(params, r.flat_values())?;
            for p in r.partitions().iter().rev() {
                out = Array::Ragged(Ragged::from_partition(p.clone(), out)?);
            }
            Ok(out)
        }
    }
}

/// gather_nd with dense indices of shape `[..., k]`.
fn gather_nd_dense_indices(params: &Array, indices: &Tensor) -> Result<Array> {
    let ishape = indices.shape();
    let Some((&k, leading)) = ishape.split_last() else {
        return Err(value_error!("indices must have rank at least 1, not 0"));
    };
    if k == 0 {
        return Err(EngineError::new(
            ErrorClass::UnimplementedError,
            "tf.gather_nd with an empty index tuple (indices.shape[-1] == 0) is not supported yet"
                .to_string(),
        ));
    }
    if k > params.rank() {
        return Err(invalid_arg!(
            "index tuples have {k} entries, but params has rank {}",
            params.rank()
        ));
    }
    let ids = indices.to_i64_vec().expect("integer indices");
    let n = ids.len() / k;
    // Each tuple becomes one row of the values `k` dimensions down.
    let (partitions, flat): (&[RowPartition], &Tensor) = match params {
        Array::Ragged(r) => (r.partitions(), r.flat_values()),
        Array::Dense(t) => (&[], t),
    };
    // Each tuple becomes one row of the values `k - 1` dimensions down.
    let mut positions = budget::vec("tf.gather_nd", n)?;
    for (t, tuple) in ids.chunks(k).enumerate() {
        if t.is_multiple_of(crate::engine::interrupt::CHUNK) {
            crate::engine::interrupt::check()?;
        }
        let mut p = 0usize;
        let mut extent = params.nrows();
        for (j, &i) in tuple.iter().enumerate() {
            if j > 0 {
                // The row `p` of dimension j - 1 holds the elements of dimension j.
                if let Some(part) = partitions.get(j - 1) {
                    let (a, b) = part.row_range(p);
                    (p, extent) = (a, b - a);
                } else {
                    let d = flat.shape()[j - partitions.len()];
                    (p, extent) = (p * d, d);
                }
            }
            let Some(i) = usize::try_from(i).ok().filter(|&i| i < extent) else {
                return Err(invalid_arg!(
                    "indices[{t}] = {tuple:?} does not index params: entry {j} must be in [0, {extent})"
                ));
            };
            p += i;
        }
        positions.push(p as i64);
    }
    // The values `k - 1` dimensions down: fewer partitions, or the flat values with their
    // leading dimensions merged.
    let down = k - 1;
    let level: Array = if down <= partitions.len() {
        if down == partitions.len() {
            Array::Dense(flat.clone())
        } else {
            Array::Ragged(Ragged::new(partitions[down..].to_vec(), flat.clone())?)
        }
    } else {
        let merge = down - partitions.len();
        let fshape = flat.shape();
        let mut shape = vec![crate::engine::size::numel(&fshape[..=merge])?];
        shape.extend_from_slice(&fshape[merge + 1..]);
        Array::Dense(flat.reshaped(shape)?)
    };
    let gathered = gather(&level, &Array::Dense(Tensor::from_i64(positions)), None, 0)?;
    // Give the result indices' outer shape.
    // (TensorFlow's ragged gather_nd reads a single 1-tuple as a list of one row index,
    // so that result keeps its outer dimension.)
    let one_row = k == 1 && matches!(params, Array::Ragged(_));
    match leading.len() {
        0 if one_row => Ok(gathered),
        0 => super::index::getitem(&gathered, &[super::index::Key::Index(0)]),
        1 => Ok(gathered),
        _ => match gathered {
            Array::Dense(t) => {
                let mut shape = leading.to_vec();
                shape.extend_from_slice(&t.shape()[1..]);
                Ok(Array::Dense(t.reshaped(shape)?))
            }
            Array::Ragged(r) => {
                let mut out = Array::Ragged(r);
                for d in (1..leading.len()).rev() {
                    let nrows: usize = leading[..d].iter().product();
                    let p = RowPartition::from_uniform_row_length(
                        leading[d] as i64,
                        out.nrows(),
                        Some(nrows as i64),
                    )?;
                    out = Array::Ragged(Ragged::from_partition(p, out)?);
                }
                Ok(out)
            }
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ragged(lengths: &[i64], values: Vec<i32>) -> Array {
        let p = RowPartition::from_row_lengths(lengths, None).unwrap();
        Array::Ragged(Ragged::new(vec![p], Tensor::vector(Buffer::I32(values))).unwrap())
    }
    fn ids(shape: &[usize], v: Vec<i64>) -> Array {
        Array::Dense(Tensor::new(shape.to_vec(), Buffer::I64(v)).unwrap())
    }
    fn dense(shape: &[usize], v: Vec<i32>) -> Array {
        Array::Dense(Tensor::new(shape.to_vec(), Buffer::I32(v)).unwrap())
    }
    fn values(a: &Array) -> Vec<i64> {
        a.flat_values().to_i64_vec().unwrap()
    }

    #[test]
    fn dense_gather_axes_and_batch() {
        let p = dense(&[3, 2], vec![1, 2, 3, 4, 5, 6]);
        let out = gather(&p, &ids(&[2], vec![2, 0]), None, 0).unwrap();
        assert_eq!(out.shape(), vec![Some(2), Some(2)]);
        assert_eq!(values(&out), vec![5, 6, 1, 2]);
        let out = gather(&p, &ids(&[2, 2], vec![1, 0, 0, 1]), Some(1), 0).unwrap();
        assert_eq!(out.shape(), vec![Some(3), Some(2), Some(2)]);
        assert_eq!(&values(&out)[..4], &[2, 1, 1, 2]);
        let out = gather(&p, &ids(&[], vec![1]), Some(-1), 0).unwrap();
        assert_eq!(values(&out), vec![2, 4, 6]);
        let out = gather(&p, &ids(&[3], vec![1, 0, 1]), Some(1), 1).unwrap();
        assert_eq!(values(&out), vec![2, 3, 6]);
        let e = gather(&p, &ids(&[1], vec![3]), None, 0).unwrap_err();
        assert_eq!(e.class, ErrorClass::InvalidArgumentError);
        assert!(
            e.message.contains("indices[0] = 3 is not in [0, 3)"),
            "{}",
            e.message
        );
        assert!(gather(&p, &ids(&[1], vec![-1]), None, 0).is_err());
        assert_eq!(
            gather(&p, &ids(&[1], vec![0]), Some(2), 0)
                .unwrap_err()
                .class,
            ErrorClass::InvalidArgumentError
        );
        let f = Array::Dense(Tensor::vector(Buffer::F32(vec![0.0])));
        assert_eq!(
            gather(&p, &f, None, 0).unwrap_err().class,
            ErrorClass::InvalidArgumentError
        );
        let empty = gather(&p, &ids(&[0], vec![]), None, 0).unwrap();
        assert_eq!(empty.shape(), vec![Some(0), Some(2)]);
    }

    #[test]
    fn ragged_params_and_indices() {
        let rp = ragged(&[3, 1, 0, 1], vec![1, 2, 3, 4, 5]);
        let out = gather(&rp, &ids(&[5], vec![3, 1, 2, 1, 0]), None, 0).unwrap();
        let Array::Ragged(r) = &out else { panic!() };
        assert_eq!(r.row_lengths(), &[1, 1, 0, 1, 3]);
        assert_eq!(values(&out), vec![5, 4, 4, 1, 2, 3]);
        // Dense 2-D indices into ragged params: a uniform outer dimension.
        let out = gather(&rp, &ids(&[2, 2], vec![0, 1, 2, 3]), None, 0).unwrap();
        assert_eq!(out.shape(), vec![Some(2), Some(2), None]);
        // A scalar index picks one row.
        let out = gather(&rp, &ids(&[], vec![0]), None, 0).unwrap();
        assert_eq!(out, dense(&[3], vec![1, 2, 3]));
        // Ragged indices into dense params keep the indices' rows.
        let p = dense(&[5], vec![10, 11, 12, 13, 14]);
        let ri = Array::Ragged(
            Ragged::new(
                vec![RowPartition::from_row_lengths(&[3, 1, 0, 1], None).unwrap()],
                Tensor::vector(Buffer::I64(vec![3, 1, 2, 1, 0])),
            )
            .unwrap(),
        );
        let out = gather(&p, &ri, None, 0).unwrap();
        assert_eq!(out.shape(), vec![Some(4), None]);
        assert_eq!(values(&out), vec![13, 11, 12, 11, 10]);
        // Ragged indices into ragged params nest.
        let out = gather(&rp, &ri, None, 0).unwrap();
        assert_eq!(out.shape(), vec![Some(4), None, None]);
        assert_eq!(values(&out), vec![5, 4, 4, 1, 2, 3]);
        assert!(gather(&rp, &ids(&[1], vec![4]), None, 0).is_err());
    }

    #[test]
    fn ragged_axis_and_batch_gather() {
        let rp = ragged(&[3, 2], vec![1, 2, 3, 4, 5]);
        let out = gather(&rp, &ids(&[2], vec![1, 0]), Some(1), 0).unwrap();
        assert_eq!(out, dense(&[2, 2], vec![2, 1, 5, 4]));
        assert!(gather(&rp, &ids(&[1], vec![2]), Some(1), 0).is_err());
        // batch_dims=1: each row picks from its own row of params.
        let ri = Array::Ragged(
            Ragged::new(
                vec![RowPartition::from_row_lengths(&[1, 2], None).unwrap()],
                Tensor::vector(Buffer::I64(vec![2, 1, 1])),
            )
            .unwrap(),
        );
        let out = gather(&rp, &ri, None, 1).unwrap();
        let Array::Ragged(r) = &out else { panic!() };
        assert_eq!(r.row_lengths(), &[1, 2]);
        assert_eq!(values(&out), vec![3, 5, 5]);
        assert_eq!(
            gather(&rp, &ri, None, 5).unwrap_err().class,
            ErrorClass::ValueError
        );
    }
}
