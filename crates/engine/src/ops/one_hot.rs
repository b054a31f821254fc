//! `tf.one_hot`: each index becomes a vector of `depth` values, `on` at the index and `off`
//! elsewhere, on a new axis; ragged indices keep their rows and add the axis inside.

use crate::buffer::{Buffer, Scalar};
use crate::error::Result;
use crate::interrupt;
use crate::ragged::Array;
use crate::tensor::Tensor;
use crate::{budget, size};
use crate::{invalid_arg, value_error};

/// `tf.one_hot(indices, depth, on, off, axis)`: `axis` -1 (or None) appends the new axis.
/// Indices outside `[0, depth)` give a vector of `off` values. `on` and `off` share a dtype.
pub fn one_hot(indices: &Array, depth: i64, on: &Scalar, off: &Scalar, axis: i64) -> Result<Array> {
    if !indices.dtype().is_int() {
        return Err(invalid_arg!(
            "one_hot needs integer indices, not {}",
            indices.dtype()
        ));
    }
    if depth < 0 {
        return Err(invalid_arg!(
            "depth must be non-negative, but it is {depth}"
        ));
    }
    match indices {
        Array::Dense(t) => one_hot_dense(t, depth as usize, on, off, axis).map(Array::Dense),
        Array::Ragged(r) => {
            let rr = r.ragged_rank() as i64;
            let rank = r.rank() as i64;
            // The new axis must fall inside the flat values: after every ragged dimension.
            let inner_axis = if axis == -1 {
                -1
            } else if axis < -1 {
                return Err(invalid_arg!(
                    "axis {axis} is out of range for one_hot: it must be -1 or non-negative"
                ));
            } else if axis > rr && axis <= rank {
                axis - rr
            } else {
                return Err(value_error!(
                    "axis {axis} is out of bounds for one_hot of a ragged tensor with ragged_rank {rr}: it must be -1 or from {} to {rank}",
                    rr + 1
                ));
            };
            let fv = one_hot_dense(r.flat_values(), depth as usize, on, off, inner_axis)?;
            r.with_flat_values(fv).map(Array::Ragged)
        }
    }
}

fn one_hot_dense(t: &Tensor, depth: usize, on: &Scalar, off: &Scalar, axis: i64) -> Result<Tensor> {
    let rank = t.rank();
    let k = if axis == -1 {
        rank
    } else if axis >= 0 && axis as usize <= rank {
        axis as usize
    } else {
        return Err(invalid_arg!(
            "axis {axis} is out of range for one_hot of a rank-{rank} tensor (valid: -1 to {rank})"
        ));
    };
    let idx = t.to_i64_vec().expect("integer indices");
    let outer: usize = t.shape()[..k].iter().product();
    let inner: usize = t.shape()[k..].iter().product();
    let total = size::mul(size::mul(outer, depth)?, inner)?;
    budget::check("one_hot", total as u128, 8 + on.dtype().item_bytes())?;
    let mut sel: Vec<usize> = budget::vec("one_hot", total)?;
    for o in 0..outer {
        for d in 0..depth {
            interrupt::check()?;
            let base = o * inner;
            sel.extend((0..inner).map(|i| usize::from(idx[base + i] == d as i64)));
        }
    }
    let mut pair = Buffer::empty(on.dtype());
    pair.push(off);
    pair.push(on);
    let mut shape = t.shape().to_vec();
    shape.insert(k, depth);
    Tensor::new(shape, pair.gather(&sel))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn axes_and_out_of_range() {
        let t = Array::Dense(Tensor::from_i64(vec![0, 2, -1]));
        let Array::Dense(out) = one_hot(&t, 3, &Scalar::I32(1), &Scalar::I32(0), -1).unwrap()
        else {
            panic!()
        };
        assert_eq!(out.shape(), &[3, 3]);
        assert_eq!(
            out.data(),
            &Buffer::from(vec![1i32, 0, 0, 0, 0, 1, 0, 0, 0])
        );
        let Array::Dense(out) = one_hot(&t, 3, &Scalar::I32(1), &Scalar::I32(0), 0).unwrap() else {
            panic!()
        };
        assert_eq!(
            out.data(),
            &Buffer::from(vec![1i32, 0, 0, 0, 0, 0, 0, 1, 0])
        );
        assert!(one_hot(&t, -1, &Scalar::I32(1), &Scalar::I32(0), -1).is_err());
        assert!(one_hot(&t, 3, &Scalar::I32(1), &Scalar::I32(0), 2).is_err());
    }
}
