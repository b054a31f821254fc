//! One-pass kernels for the common segment sums and counts: `tf.math.segment_sum` and
//! `unsorted_segment_sum` of dense data read their ids and data in place (no int64 copies of
//! ids or data, no permutation), and `tf.math.bincount` of integers counts on every core
//! into per-thread counts that are added at the end. Sums accumulate as the general path
//! does (ints in wrapping int64, floats in float64), so every answer is the same.

use rayon::prelude::*;

use crate::buffer::Buffer;
use crate::element::Element;
use crate::error::Result;
use crate::tensor::Tensor;
use crate::{budget, interrupt};

/// What the memory budget calls a segment op's allocations.
const WHAT: &str = "a segment reduction";

/// Adds row `r` of `v` (rows of `inner`) into row `ids[r]` of `acc`, skipping negative ids
/// (the caller checked every other id is below the number of output rows).
fn accumulate<T: Element, I: Element, A: Copy>(
    v: &[T],
    ids: &[I],
    inner: usize,
    acc: &mut [A],
    widen: impl Fn(T) -> A,
    add: impl Fn(A, A) -> A,
) -> Result<()> {
    for (c, chunk) in ids.chunks(interrupt::CHUNK).enumerate() {
        interrupt::check()?;
        let r0 = c * interrupt::CHUNK;
        if inner == 1 {
            for (&id, &x) in chunk.iter().zip(&v[r0..]) {
                let id = id.to_i64();
                if id >= 0 {
                    let slot = &mut acc[id as usize];
                    *slot = add(*slot, widen(x));
                }
            }
            continue;
        }
        for (j, &id) in chunk.iter().enumerate() {
            let id = id.to_i64();
            if id < 0 {
                continue;
            }
            let r = r0 + j;
            let src = &v[r * inner..(r + 1) * inner];
            let dst = &mut acc[id as usize * inner..(id as usize + 1) * inner];
            for (d, &x) in dst.iter_mut().zip(src) {
                *d = add(*d, widen(x));
            }
        }
    }
    Ok(())
}

/// The rows of `data` (`[ids.len(), inner…]`) summed into `nseg` rows by `ids` (each below
/// `nseg`; negative ids drop their rows), or None for data that is not numeric.
pub(super) fn sum_rows<I: Element>(
    data: &Tensor,
    ids: &[I],
    nseg: usize,
) -> Result<Option<Tensor>> {
    let inner = data.row_size();
    let m = nseg
        .checked_mul(inner)
        .ok_or_else(|| crate::invalid_arg!("the segment sum's result is too large"))?;
    budget::check(WHAT, m as u128, 8)?;
    let dtype = data.dtype();
    let mut shape = data.shape().to_vec();
    shape[0] = nseg;
    let buf = crate::dispatch!(ints data.data(), v => {
        let mut acc = budget::filled(WHAT, 0i64, m)?;
        accumulate(v, ids, inner, &mut acc, |x| x.to_i64(), i64::wrapping_add)?;
        Buffer::from_i64s(acc, dtype)
    }, _ => crate::dispatch!(floats data.data(), v => {
        let mut acc = budget::filled(WHAT, 0f64, m)?;
        accumulate(v, ids, inner, &mut acc, |x| x.to_f64(), |a, b| a + b)?;
        Buffer::from_f64s(acc, dtype)
    }, _ => return Ok(None)));
    Ok(Some(Tensor::from_parts(shape, buf)))
}

/// `tf.math.segment_sum(data, ids)` when the int32 or int64 ids are sorted and non-negative
/// and match data's rows; None otherwise (the general path then reports the problem).
pub(super) fn sorted_sum(data: &Tensor, ids: &Tensor) -> Result<Option<Tensor>> {
    if ids.rank() != 1 || data.rank() == 0 || data.shape()[0] != ids.size() {
        return Ok(None);
    }
    fn last_if_sorted<I: Element>(ids: &[I]) -> Option<i64> {
        let mut prev = 0i64;
        for &x in ids {
            let x = x.to_i64();
            if x < prev {
                return None;
            }
            prev = x;
        }
        Some(prev)
    }
    match ids.data() {
        Buffer::I64(v) => match last_if_sorted(v) {
            Some(last) => sum_rows(data, v, nseg(v.len(), last)?),
            None => Ok(None),
        },
        Buffer::I32(v) => match last_if_sorted(v) {
            Some(last) => sum_rows(data, v, nseg(v.len(), last)?),
            None => Ok(None),
        },
        _ => Ok(None),
    }
}

/// The number of segments of sorted ids ending at `last` (none without ids).
fn nseg(n: usize, last: i64) -> Result<usize> {
    if n == 0 {
        return Ok(0);
    }
    budget::check("a reduction", last as u128 + 1, 8)?;
    Ok(last as usize + 1)
}

/// The smallest and largest of integer `values` (None for other dtypes or no values).
pub fn int_range(values: &Buffer) -> Option<(i64, i64)> {
    crate::dispatch!(ints values, v => {
        let v: &[_] = v;
        v.par_iter()
            .with_min_len(interrupt::CHUNK)
            .map(|&x| (x.to_i64(), x.to_i64()))
            .reduce_with(|a, b| (a.0.min(b.0), a.1.max(b.1)))
    }, _ => None)
}

/// How often each value `0..size` occurs in integer `values` (others are not counted), on
/// every core with counts of their own added at the end; None for other dtypes.
pub fn bincount_ints(values: &Buffer, size: usize) -> Result<Option<Vec<i64>>> {
    const OP: &str = "tf.math.bincount";
    budget::check(OP, size as u128 * 2, 8)?;
    fn count<T: Element>(v: &[T], size: usize) -> Vec<i64> {
        let mut c: Vec<i64> = std::iter::repeat_n(0, size).collect();
        for &x in v {
            let x = x.to_i64();
            if x >= 0 && (x as u64) < size as u64 {
                c[x as usize] += 1;
            }
        }
        c
    }
    let add = |mut a: Vec<i64>, b: Vec<i64>| {
        for (x, y) in a.iter_mut().zip(b) {
            *x += y;
        }
        a
    };
    let out = crate::dispatch!(ints values, v => {
        let v: &[_] = v;
        let mut total = budget::filled(OP, 0i64, size)?;
        // A group at a time between interrupt checks; chunks of a group on every core when
        // the counts are small beside the values.
        for group in v.chunks(interrupt::CHUNK * 32) {
            interrupt::check()?;
            let part = if group.len() >= interrupt::PARALLEL_MIN && size <= group.len() / 16 {
                group
                    .par_chunks(interrupt::CHUNK)
                    .map(|c| count(c, size))
                    .reduce_with(add)
                    .unwrap_or_default()
            } else {
                count(group, size)
            };
            total = add(total, part);
        }
        Some(total)
    }, _ => None);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sums_skip_negative_ids_and_keep_dtypes() {
        let data = Tensor::new(vec![3, 2], Buffer::from(vec![1i32, 2, 3, 4, 5, 6])).unwrap();
        let out = sum_rows(&data, &[0i64, -1, 0], 2).unwrap().unwrap();
        assert_eq!(out.shape(), &[2, 2]);
        assert_eq!(out.data(), &Buffer::from(vec![6i32, 8, 0, 0]));
        // int32 sums wrap; float32 sums add in float64.
        let big = Tensor::vector(Buffer::from(vec![i32::MAX, 1]));
        let out = sum_rows(&big, &[0i32, 0], 1).unwrap().unwrap();
        assert_eq!(out.data(), &Buffer::from(vec![i32::MIN]));
        let f = Tensor::vector(Buffer::from(vec![1e8f32, 1.0, -1e8]));
        let out = sum_rows(&f, &[0i64, 0, 0], 1).unwrap().unwrap();
        assert_eq!(out.data(), &Buffer::from(vec![1.0f32]));
        // Strings are not summed here.
        let s = Tensor::vector(Buffer::Str(crate::StringBuf::from_strs(["a"])));
        assert!(sum_rows(&s, &[0i64], 1).unwrap().is_none());
    }

    #[test]
    fn sorted_sums_leave_bad_ids_to_the_general_path() {
        let data = Tensor::vector(Buffer::from(vec![1i64, 2, 3]));
        let ok = sorted_sum(&data, &Tensor::from_i64(vec![0, 0, 2]))
            .unwrap()
            .unwrap();
        assert_eq!(ok.data(), &Buffer::from(vec![3i64, 0, 3]));
        for bad in [vec![1, 0, 0], vec![-1, 0, 0], vec![0, 0]] {
            assert!(sorted_sum(&data, &Tensor::from_i64(bad)).unwrap().is_none());
        }
        let huge = sorted_sum(&data, &Tensor::from_i64(vec![0, 0, i64::MAX]));
        assert!(huge.is_err());
        let empty = Tensor::vector(Buffer::from(Vec::<f32>::new()));
        let out = sorted_sum(&empty, &Tensor::from_i64(vec![]))
            .unwrap()
            .unwrap();
        assert_eq!(out.shape(), &[0]);
    }

    #[test]
    fn counts_in_parallel_match_one_pass() {
        let v: Vec<i64> = (0..(interrupt::PARALLEL_MIN as i64 * 3))
            .map(|i| (i * 7919) % 2001 - 1)
            .collect();
        let counts = bincount_ints(&Buffer::from(v.clone()), 1500)
            .unwrap()
            .unwrap();
        let mut want: Vec<i64> = std::iter::repeat_n(0, 1500).collect();
        for &x in &v {
            if (0..1500).contains(&x) {
                want[x as usize] += 1;
            }
        }
        assert_eq!(counts, want);
        assert_eq!(int_range(&Buffer::from(v)), Some((-1, 1999)));
        assert_eq!(int_range(&Buffer::from(Vec::<i32>::new())), None);
        assert!(bincount_ints(&Buffer::from(vec![1.0f32]), 2)
            .unwrap()
            .is_none());
        assert_eq!(
            bincount_ints(&Buffer::from(vec![3u8]), 0).unwrap(),
            Some(vec![])
        );
    }
}
