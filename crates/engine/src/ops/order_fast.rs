//! The ordering kernels' work loops: `tf.sort` of the values themselves (no permutation),
//! `tf.argsort` as a sort of (value, position) pairs, and `tf.math.top_k` as a selection of
//! each lane's `k` largest. Every result is the one a stable sort gives: among equal values
//! the earlier position comes first, NaN is above every number. Large lanes sort on every
//! core; many lanes split across the cores, a group at a time between interrupt checks.

use std::cmp::Ordering;

use rayon::prelude::*;

use super::order::{lanes, total, unsupported};
use crate::buffer::Buffer;
use crate::element::Element;
use crate::error::Result;
use crate::tensor::Tensor;
use crate::{budget, interrupt};

/// From this many elements one lane sorts on every core (rayon's parallel sorts), and a
/// group of lanes splits across the cores: below it a split and a join cost more than they
/// save.
const PARALLEL: usize = 1 << 16;

/// Elements of the lanes handled between two looks at the interrupt flag.
const GROUP: usize = 1 << 20;

/// Lanes per group of `n` elements each.
fn group_lanes(n: usize) -> usize {
    (GROUP / n.max(1)).max(1)
}

/// Sorts one lane of values: ints unstably (equal ints cannot be told apart, so the result
/// is the stable one), floats stably (−0.0 and 0.0 compare equal but differ).
fn sort_lane<T: Element>(lane: &mut [T], int: bool, descending: bool, parallel: bool) {
    if int {
        let cmp = |a: &T, b: &T| a.partial_cmp(b).unwrap_or(Ordering::Equal);
        if parallel {
            lane.par_sort_unstable_by(cmp);
        } else {
            lane.sort_unstable_by(cmp);
        }
        if descending {
            lane.reverse();
        }
    } else {
        let cmp = |a: &T, b: &T| {
            if descending {
                total(b, a)
            } else {
                total(a, b)
            }
        };
        if parallel {
            lane.par_sort_by(cmp);
        } else {
            lane.sort_by(cmp);
        }
    }
}

/// `tf.sort(t, axis, direction)`: the values of every lane along `axis` in order (equal
/// values keep their order), without building the permutation.
pub fn sort_values(op: &str, t: &Tensor, axis: usize, descending: bool) -> Result<Tensor> {
    let (outer, n, inner) = lanes(t.shape(), axis);
    let d = t.dtype();
    let int = d.is_int();
    let data = crate::dispatch!(numbers t.data(), T: v => {
        let v: &[T] = v;
        if int && outer == 1 && inner == 1 && n >= PARALLEL {
            if let Some(out) = super::sort_count::sort_small_span(op, v, descending)? {
                return Ok(Tensor::from_parts(t.shape().to_vec(), Buffer::from(out)));
            }
        }
        let mut out: Vec<T> = budget::vec(op, v.len())?;
        interrupt::extend_copy(&mut out, v);
        if n > 1 && inner == 1 {
            if n >= PARALLEL || outer == 1 {
                for lane in out.chunks_mut(n) {
                    interrupt::check()?;
                    sort_lane(lane, int, descending, n >= PARALLEL);
                }
            } else {
                for group in out.chunks_mut(n * group_lanes(n)) {
                    interrupt::check()?;
                    group
                        .par_chunks_mut(n)
                        .for_each(|lane| sort_lane(lane, int, descending, false));
                }
            }
        } else if n > 1 {
            // Lanes across the inner dimensions: each gathered, sorted and put back.
            let mut lane: Vec<T> = budget::vec(op, n)?;
            for o in 0..outer {
                for i in 0..inner {
                    interrupt::check()?;
                    let base = o * n * inner + i;
                    lane.clear();
                    lane.extend((0..n).map(|j| out[base + j * inner]));
                    sort_lane(&mut lane, int, descending, n >= PARALLEL);
                    for (j, &x) in lane.iter().enumerate() {
                        out[base + j * inner] = x;
                    }
                }
            }
        }
        Ok(Buffer::from(out))
    }, _ => Err(unsupported(op, d)))?;
    Ok(Tensor::from_parts(t.shape().to_vec(), data))
}

/// The order of two (value, position) pairs of a stable sort: by value (reversed when
/// `descending`), then by position.
fn pair_order<T: Element>(a: &(T, usize), b: &(T, usize), descending: bool) -> Ordering {
    let by_value = if descending {
        total(&b.0, &a.0)
    } else {
        total(&a.0, &b.0)
    };
    by_value.then(a.1.cmp(&b.1))
}

/// For a sort of `t` along `axis`: the input position each output element reads, and its
/// index within its lane. Each lane sorts (value, position) pairs, which sort as a stable
/// sort of the values does, reading each value once rather than through the permutation.
pub fn sort_positions(
    op: &str,
    t: &Tensor,
    axis: usize,
    descending: bool,
) -> Result<(Vec<usize>, Vec<i64>)> {
    let (outer, n, inner) = lanes(t.shape(), axis);
    let total_n = t.size();
    let mut src: Vec<usize> = budget::filled(op, 0, total_n)?;
    let mut idx: Vec<i64> = budget::filled(op, 0, total_n)?;
    let d = t.dtype();
    crate::dispatch!(numbers t.data(), T: v => {
        let v: &[T] = v;
        let mut pairs: Vec<(T, usize)> = budget::vec(op, n)?;
        for o in 0..outer {
            for i in 0..inner {
                interrupt::check()?;
                let base = o * n * inner + i;
                pairs.clear();
                pairs.extend((0..n).map(|j| (v[base + j * inner], j)));
                let cmp = |a: &(T, usize), b: &(T, usize)| pair_order(a, b, descending);
                if n >= PARALLEL {
                    pairs.par_sort_unstable_by(cmp);
                } else {
                    pairs.sort_unstable_by(cmp);
                }
                for (k, &(_, p)) in pairs.iter().enumerate() {
                    src[base + k * inner] = base + p * inner;
                    idx[base + k * inner] = p as i64;
                }
            }
        }
        Ok(())
    }, _ => Err(unsupported(op, d)))?;
    Ok((src, idx))
}

/// Up to this `k`, a lane's `k` largest are kept in a sorted buffer during one pass (most
/// elements cost one comparison with the smallest kept); above it the lane's pairs are
/// partitioned around the `k`-th largest and the first `k` sorted.
const SMALL_K: usize = 64;

/// The `k` largest of one lane, largest first (earlier positions first among equals), into
/// `vals` and `idx` (`k` each, `0 < k <= lane.len()`).
fn top_lane<T: Element>(
    lane: &[T],
    vals: &mut [T],
    idx: &mut [i64],
    scratch: &mut Vec<(T, usize)>,
) {
    let k = vals.len();
    scratch.clear();
    if k <= SMALL_K {
        for (j, &x) in lane.iter().enumerate() {
            if scratch.len() == k {
                // A later position loses a tie, so x enters only above the smallest kept.
                if total(&x, &scratch[k - 1].0) != Ordering::Greater {
                    continue;
                }
                scratch.pop();
            }
            let at = scratch.partition_point(|e| total(&e.0, &x) != Ordering::Less);
            scratch.insert(at, (x, j));
        }
    } else {
        scratch.extend(lane.iter().enumerate().map(|(j, &x)| (x, j)));
        let cmp = |a: &(T, usize), b: &(T, usize)| pair_order(a, b, true);
        if k < scratch.len() {
            scratch.select_nth_unstable_by(k - 1, cmp);
            scratch.truncate(k);
        }
        scratch.sort_unstable_by(cmp);
    }
    for ((v, i), &(x, j)) in vals.iter_mut().zip(idx.iter_mut()).zip(scratch.iter()) {
        *v = x;
        *i = j as i64;
    }
}

/// `tf.math.top_k` of lanes of `n` elements along the last axis of `t`: the `k` largest of
/// each (`k <= n`), largest first, and their indices.
pub(crate) fn top_k_last(t: &Tensor, k: usize) -> Result<(Buffer, Vec<i64>)> {
    const OP: &str = "tf.math.top_k";
    let n = t.shape().last().copied().unwrap_or(1);
    let lanes = t.size().checked_div(n).unwrap_or(0);
    let d = t.dtype();
    let mut idx: Vec<i64> = budget::filled(OP, 0, lanes * k)?;
    let vals = crate::dispatch!(numbers t.data(), T: v => {
        let v: &[T] = v;
        let mut vals: Vec<T> = budget::filled(OP, T::default(), lanes * k)?;
        if k > 0 {
            let g = group_lanes(n);
            let groups = vals
                .chunks_mut(g * k)
                .zip(idx.chunks_mut(g * k))
                .zip(v.chunks(g * n));
            for ((gv, gi), gl) in groups {
                interrupt::check()?;
                let work = gv.par_chunks_mut(k).zip(gi.par_chunks_mut(k)).zip(gl.par_chunks(n));
                if gl.len() >= PARALLEL {
                    work.for_each_init(Vec::new, |s, ((vv, ii), lane)| top_lane(lane, vv, ii, s));
                } else {
                    let mut s = Vec::new();
                    for ((vv, ii), lane) in gv.chunks_mut(k).zip(gi.chunks_mut(k)).zip(gl.chunks(n)) {
                        top_lane(lane, vv, ii, &mut s);
                    }
                }
            }
        }
        Ok(Buffer::from(vals))
    }, _ => Err(unsupported(OP, d)))?;
    Ok((vals, idx))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f32s(v: &[f32]) -> Tensor {
        Tensor::vector(Buffer::from(v.to_vec()))
    }

    #[test]
    fn top_k_edges() {
        // k = 0, k = n, ties (the earlier first), NaN above numbers, one row.
        let t = Tensor::vector(Buffer::from(vec![3i64, 1, 3, 1, 7]));
        let (v, i) = top_k_last(&t, 0).unwrap();
        assert_eq!((v.len(), i.len()), (0, 0));
        let (v, i) = top_k_last(&t, 5).unwrap();
        assert_eq!(v, Buffer::from(vec![7i64, 3, 3, 1, 1]));
        assert_eq!(i, vec![4, 0, 2, 1, 3]);
        let (_, i) = top_k_last(&t, 2).unwrap();
        assert_eq!(i, vec![4, 0]);
        let (_, i) = top_k_last(&f32s(&[1.0, f32::NAN, 2.0, f32::NAN]), 3).unwrap();
        assert_eq!(i, vec![1, 3, 2]);
        // An empty tensor of lanes, and lanes of nothing.
        let e = Tensor::new(vec![0, 4], Buffer::from(Vec::<i32>::new())).unwrap();
        assert_eq!(top_k_last(&e, 2).unwrap().1, Vec::<i64>::new());
        let e = Tensor::new(vec![3, 0], Buffer::from(Vec::<i32>::new())).unwrap();
        assert_eq!(top_k_last(&e, 0).unwrap().1, Vec::<i64>::new());
    }

    #[test]
    fn top_k_small_and_large_k_agree_with_a_stable_sort() {
        // Many ties across two rows; k on both sides of SMALL_K.
        let n = 300;
        let v: Vec<i32> = (0..2 * n).map(|i| ((i * 7919) % 13) as i32).collect();
        let t = Tensor::new(vec![2, n], Buffer::from(v.clone())).unwrap();
        for k in [1, 5, SMALL_K, SMALL_K + 1, 200, n] {
            let (vals, idx) = top_k_last(&t, k).unwrap();
            let (_, sorted) = sort_positions("sort", &t, 1, true).unwrap();
            let want: Vec<i64> = (0..2)
                .flat_map(|r| sorted[r * n..r * n + k].to_vec())
                .collect();
            assert_eq!(idx, want, "k = {k}");
            let want_v: Vec<i32> = (0..2)
                .flat_map(|r| {
                    let v = &v;
                    want[r * k..(r + 1) * k]
                        .iter()
                        .map(move |&j| v[r * n + j as usize])
                })
                .collect();
            assert_eq!(vals, Buffer::from(want_v));
        }
    }

    #[test]
    fn sorts_keep_nan_order_and_signed_zeros() {
        let t = f32s(&[0.0, f32::NAN, -0.0, -1.0]);
        let s = sort_values("sort", &t, 0, false).unwrap();
        let Buffer::F32(v) = s.data() else { panic!() };
        assert_eq!(v[0], -1.0);
        assert!(v[1] == 0.0 && v[1].is_sign_positive());
        assert!(v[2] == 0.0 && v[2].is_sign_negative());
        assert!(v[3].is_nan());
        let s = sort_values("sort", &t, 0, true).unwrap();
        let Buffer::F32(v) = s.data() else { panic!() };
        assert!(v[0].is_nan() && v[1].is_sign_positive() && v[3] == -1.0);
        let (_, idx) = sort_positions("sort", &t, 0, true).unwrap();
        assert_eq!(idx, vec![1, 0, 2, 3]);
        // Ints across an inner axis, descending; and an empty tensor.
        let m = Tensor::new(vec![3, 2], Buffer::from(vec![1i64, 9, 5, 2, 3, 7])).unwrap();
        let s = sort_values("sort", &m, 0, true).unwrap();
        assert_eq!(s.data(), &Buffer::from(vec![5i64, 9, 3, 7, 1, 2]));
        let e = Tensor::vector(Buffer::from(Vec::<i64>::new()));
        assert_eq!(sort_values("sort", &e, 0, false).unwrap().size(), 0);
        // A large lane sorts on every core, with the same answer.
        let big: Vec<i64> = (0..(PARALLEL as i64 + 5))
            .map(|i| (i * 7919) % 1001 - 500)
            .collect();
        let s = sort_values("sort", &Tensor::vector(Buffer::from(big.clone())), 0, false).unwrap();
        let mut want = big.clone();
        want.sort();
        assert_eq!(s.data(), &Buffer::from(want));
        let (_, idx) =
            sort_positions("sort", &Tensor::vector(Buffer::from(big.clone())), 0, false).unwrap();
        let mut want: Vec<usize> = (0..big.len()).collect();
        want.sort_by_key(|&j| big[j]);
        assert_eq!(idx, want.iter().map(|&j| j as i64).collect::<Vec<_>>());
    }
}
