//! `tf.gather_nd`: index tuples into the outer dimensions of dense or ragged params, each
//! resolved to one row a few dimensions down and gathered there with `tf.gather`.

use super::gather;
use crate::budget;
use crate::error::Result;
use crate::exceptions::{Exception, ExceptionClass};
use crate::partition::RowPartition;
use crate::ragged::{Array, Ragged};
use crate::size::dense_shape_str;
use crate::tensor::Tensor;
use crate::{invalid_arg, value_error};

/// `tf.gather_nd(params, indices)`: the innermost dimension of `indices` holds index tuples
/// into the outer dimensions of `params`; the result has indices' outer shape (ragged
/// indices keep their partitions) followed by what each tuple selects.
pub fn gather_nd(params: &Array, indices: &Array, batch_dims: i64) -> Result<Array> {
    let any_ragged = matches!(params, Array::Ragged(_)) || matches!(indices, Array::Ragged(_));
    if batch_dims != 0 {
        return Err(if any_ragged {
            value_error!("batch_dims != 0 is not supported for ragged gather_nd")
        } else {
            Exception::new(
                ExceptionClass::UnimplementedError,
                "tf.gather_nd with batch_dims is not supported yet".to_string(),
            )
        });
    }
    crate::ops::check_int_ids(indices, "indices")?;
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
        return Err(Exception::new(
            ExceptionClass::UnimplementedError,
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
        if t.is_multiple_of(crate::interrupt::CHUNK) {
            crate::interrupt::check()?;
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
                    "indices[{t}] = {} does not index params: entry {j} must be in [0, {extent})",
                    dense_shape_str(tuple)
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
        let mut shape = vec![crate::size::numel(&fshape[..=merge])?];
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
        0 => crate::ops::index::getitem(&gathered, &[crate::ops::index::Key::Index(0)]),
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
