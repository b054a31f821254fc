//! Ordering along an axis: `tf.sort`, `tf.argsort`, `tf.math.top_k`, `tf.math.argmax` /
//! `argmin`, `tf.unique` and `tf.searchsorted`, for the number dtypes TensorFlow's kernels
//! take. Equal elements keep their order (TensorFlow sorts through its stable top_k).

use std::cmp::Ordering;
use std::collections::HashMap;

use crate::buffer::Buffer;
use crate::element::Element;
use crate::error::Result;
use crate::tensor::Tensor;
use crate::{budget, interrupt, invalid_arg};

/// `shape` split at `axis`: the number of lanes before it, its length, and the stride
/// between a lane's elements.
pub(super) fn lanes(shape: &[usize], axis: usize) -> (usize, usize, usize) {
    let outer = shape[..axis].iter().product();
    let inner = shape[axis + 1..].iter().product();
    (outer, shape[axis], inner)
}

/// A total order with NaN above every number (NaNs equal to each other).
pub(super) fn total<T: Element>(a: &T, b: &T) -> Ordering {
    match a.partial_cmp(b) {
        Some(o) => o,
        #[allow(clippy::eq_op)] // x != x is the generic NaN test
        None => (a != a).cmp(&(b != b)),
    }
}

/// The error for a dtype an ordering kernel does not take.
pub(super) fn unsupported(op: &str, d: crate::DType) -> crate::Exception {
    invalid_arg!(
        "Value for attr 'T' of {d} is not in the list of allowed values for {op}: the number types"
    )
}

pub use super::order_fast::{sort_positions, sort_values};

/// `tf.math.top_k(t, k)` along the last axis: the `k` largest of each lane, largest first
/// (earlier positions first among equals), and their indices.
pub fn top_k(t: &Tensor, k: i64) -> Result<(Tensor, Vec<i64>)> {
    if t.rank() == 0 {
        return Err(invalid_arg!("input must be >= 1-D, got shape []"));
    }
    if k < 0 {
        return Err(invalid_arg!("Need k >= 0, got {k}"));
    }
    let axis = t.rank() - 1;
    let n = t.shape()[axis];
    if k as u64 > n as u64 {
        return Err(invalid_arg!(
            "input must have at least k columns. Had {n}, needed {k}"
        ));
    }
    let k = k as usize;
    let (vals, idx) = super::order_fast::top_k_last(t, k)?;
    let mut shape = t.shape().to_vec();
    shape[axis] = k;
    Ok((Tensor::from_parts(shape, vals), idx))
}

/// `tf.math.argmax` / `argmin` of `t` along `axis`: the first position of the largest
/// (smallest) element of each lane, passing over NaNs (as TensorFlow's kernel does).
pub fn arg_extreme(t: &Tensor, axis: usize, max: bool) -> Result<Vec<i64>> {
    let (outer, n, inner) = lanes(t.shape(), axis);
    if n == 0 {
        return Err(invalid_arg!(
            "Reduction axis {axis} is empty in shape {}",
            crate::size::dense_shape_str(t.shape())
        ));
    }
    let mut out = budget::vec("tf.math.argmax", outer * inner)?;
    let op = if max { "ArgMax" } else { "ArgMin" };
    let d = t.dtype();
    crate::dispatch!(elements t.data(), v => {
        for o in 0..outer {
            interrupt::check()?;
            for i in 0..inner {
                let base = o * n * inner + i;
                // NaNs are passed over; a lane of NaNs gives 0.
                let mut best: Option<usize> = None;
                for j in 0..n {
                    let x = &v[base + j * inner];
                    #[allow(clippy::eq_op)] // x != x is the generic NaN test
                    if x != x {
                        continue;
                    }
                    let better = match best {
                        None => true,
                        Some(b) => {
                            let b = &v[base + b * inner];
                            (max && x > b) || (!max && x < b)
                        }
                    };
                    if better {
                        best = Some(j);
                    }
                }
                out.push(best.unwrap_or(0) as i64);
            }
        }
        Ok(())
    }, _ => Err(unsupported(op, d)))?;
    Ok(out)
}

/// `tf.unique` of a vector: the distinct elements in order of first appearance, the index
/// of each element's value among them, and how often each occurs.
pub fn unique(t: &Tensor) -> Result<(Buffer, Vec<i64>, Vec<i64>)> {
    if t.rank() != 1 {
        return Err(invalid_arg!("unique expects a 1D vector."));
    }
    let n = t.size();
    let mut idx: Vec<i64> = budget::vec("tf.unique", n)?;
    let mut firsts: Vec<usize> = Vec::new();
    let mut counts: Vec<i64> = Vec::new();
    let mut note = |slot: Option<usize>, i: usize, firsts: &mut Vec<usize>| match slot {
        Some(s) => {
            counts[s] += 1;
            idx.push(s as i64);
        }
        None => {
            idx.push(firsts.len() as i64);
            firsts.push(i);
            counts.push(1);
        }
    };
    match t.data() {
        Buffer::Str(s) => {
            let mut seen: HashMap<&[u8], usize> = HashMap::new();
            for i in 0..n {
                if i % interrupt::CHUNK == 0 {
                    interrupt::check()?;
                }
                let key = s.get(i);
                let slot = seen.get(key).copied();
                if slot.is_none() {
                    seen.insert(key, firsts.len());
                }
                note(slot, i, &mut firsts);
            }
        }
        b => {
            let float = b.dtype().is_float();
            crate::dispatch!(elements b, T: v => {
                let mut seen = super::search_fast::Table::new()?;
                for (i, &x) in v.iter().enumerate() {
                    if i % interrupt::CHUNK == 0 {
                        interrupt::check()?;
                    }
                    #[allow(clippy::eq_op)] // x != x is the generic NaN test
                    let nan = x != x;
                    let key = if float {
                        // -0.0 equals 0.0; every NaN is distinct, as no NaN equals another.
                        let f = x.to_f64();
                        if f == 0.0 { 0 } else { f.to_bits() }
                    } else {
                        x.to_i64() as u64
                    };
                    let slot = if nan { None } else { seen.get_or_insert(key, firsts.len())? };
                    note(slot, i, &mut firsts);
                }
                Ok::<(), crate::Exception>(())
            }, _ => Ok(()))?;
        }
    }
    Ok((t.data().gather(&firsts), idx, counts))
}

/// `tf.searchsorted`: for each lane of `values`, where each value would go in the matching
/// lane of `sorted` (the first such place for `right == false`, the last for `true`).
pub fn searchsorted(sorted: &Tensor, values: &Tensor, right: bool) -> Result<Vec<i64>> {
    if sorted.rank() == 0 || values.rank() == 0 {
        return Err(invalid_arg!(
            "sorted_sequence and values must have rank at least 1"
        ));
    }
    let (sr, vr) = (sorted.rank(), values.rank());
    if sr != vr || sorted.shape()[..sr - 1] != values.shape()[..vr - 1] {
        return Err(invalid_arg!(
            "Leading dim_size of both tensors must match: {} and {}",
            crate::size::dense_shape_str(sorted.shape()),
            crate::size::dense_shape_str(values.shape())
        ));
    }
    if sorted.dtype() != values.dtype() {
        return Err(invalid_arg!(
            "sorted_sequence and values must have the same dtype: {} and {}",
            sorted.dtype(),
            values.dtype()
        ));
    }
    let n = sorted.shape()[sr - 1];
    let m = values.shape()[vr - 1];
    let lanes = sorted.shape()[..sr - 1].iter().product::<usize>();
    let mut out = budget::filled("tf.searchsorted", 0i64, values.size())?;
    let d = sorted.dtype();
    crate::dispatch!(numbers pair (sorted.data(), values.data()), (s, v) => {
        for l in 0..lanes {
            let lane = &s[l * n..(l + 1) * n];
            let xs = &v[l * m..(l + 1) * m];
            super::search_fast::search_lane(lane, xs, right, &mut out[l * m..(l + 1) * m])?;
        }
        Ok(())
    }, _ => Err(unsupported("SearchSorted", d)))?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorts_are_stable_and_top_k_takes_the_first_of_equals() {
        let t = Tensor::vector(Buffer::from(vec![3i32, 1, 3, 1]));
        let (_, idx) = sort_positions("sort", &t, 0, true).unwrap();
        assert_eq!(idx, vec![0, 2, 1, 3]);
        let (_, idx) = sort_positions("sort", &t, 0, false).unwrap();
        assert_eq!(idx, vec![1, 3, 0, 2]);
        let (_, idx) = top_k(&t, 3).unwrap();
        assert_eq!(idx, vec![0, 2, 1]);
        assert_eq!(arg_extreme(&t, 0, false).unwrap(), vec![1]);
        let (_, idx, counts) = unique(&t).unwrap();
        assert_eq!((idx, counts), (vec![0, 1, 0, 1], vec![2, 2]));
    }
}
