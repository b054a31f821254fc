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
    match ids.data() {
        Buffer::I64(v) => sorted_sum_of(data, v),
        Buffer::I32(v) => sorted_sum_of(data, v),
        _ => Ok(None),
    }
}

/// [`sorted_sum`] with the ids' elements: one pass that sums each run of equal ids and
/// checks the order as it goes, in parts cut at segment boundaries on every core for
/// large data. The number of segments is the last id + 1 (the largest, if the pass finds
/// the ids sorted).
fn sorted_sum_of<I: Element>(data: &Tensor, ids: &[I]) -> Result<Option<Tensor>> {
    let Some(last) = ids.last() else {
        return sum_rows(data, ids, 0);
    };
    let last = last.to_i64();
    if last < 0 {
        return Ok(None);
    }
    let inner = data.row_size();
    let sized = budget::check("a reduction", last as u128 + 1, 8)
        .and_then(|_| {
            (last as u128 + 1)
                .checked_mul(inner as u128)
                .filter(|&m| m <= usize::MAX as u128)
                .ok_or_else(|| crate::invalid_arg!("the segment sum's result is too large"))
        })
        .and_then(|m| budget::check(WHAT, m, 8).map(|_| m as usize));
    let m = match sized {
        Ok(m) => m,
        // Too many segments for the memory: that is the answer for sorted ids only (any
        // other problem with the ids is reported first, by the general path).
        Err(e) if ids.windows(2).all(|w| w[0].to_i64() <= w[1].to_i64()) => return Err(e),
        Err(_) => return Ok(None),
    };
    let dtype = data.dtype();
    let mut shape = data.shape().to_vec();
    shape[0] = last as usize + 1;
    let buf = crate::dispatch!(ints data.data(), v => {
        let mut acc = budget::filled(WHAT, 0i64, m)?;
        if !run_sums(v, ids, inner, &mut acc, &|x| x.to_i64(), &i64::wrapping_add)? {
            return Ok(None);
        }
        Buffer::from_i64s(acc, dtype)
    }, _ => crate::dispatch!(floats data.data(), v => {
        let mut acc = budget::filled(WHAT, 0f64, m)?;
        if !run_sums(v, ids, inner, &mut acc, &|x| x.to_f64(), &|a, b| a + b)? {
            return Ok(None);
        }
        Buffer::from_f64s(acc, dtype)
    }, _ => return Ok(None)));
    Ok(Some(Tensor::from_parts(shape, buf)))
}

/// One part of a sorted segment sum: the rows of `v` (of `inner` values) whose ids are
/// `ids`, summed into `out`, which holds the segments from id `base` on.
struct Part<'a, T, I, A> {
    v: &'a [T],
    ids: &'a [I],
    base: i64,
    out: &'a mut [A],
}

/// Sums the runs of equal sorted `ids` of `v` into `acc` (zeros, a row of `inner` for
/// each segment), on every core from [`interrupt::PARALLEL_MIN`] values, cut where the id
/// changes so that each core writes segments of its own. False, with `acc` partly
/// written, when an id is negative, out of order or past the end of `acc`.
fn run_sums<T: Element, I: Element, A: Copy + Default + Send>(
    v: &[T],
    ids: &[I],
    inner: usize,
    acc: &mut [A],
    widen: &(impl Fn(T) -> A + Sync),
    add: &(impl Fn(A, A) -> A + Sync),
) -> Result<bool> {
    let n = ids.len();
    let cores = if v.len() >= interrupt::PARALLEL_MIN {
        rayon::current_num_threads().max(1)
    } else {
        1
    };
    // The first row of each part: near an even share, moved on to where the id changes.
    let mut cuts = vec![0usize];
    for q in 1..cores {
        let mut at = (q * n / cores).max(*cuts.last().unwrap_or(&0));
        while at < n && at > 0 && ids[at].to_i64() == ids[at - 1].to_i64() {
            at += 1;
        }
        if at > *cuts.last().unwrap_or(&0) && at < n {
            cuts.push(at);
        }
    }
    let mut parts = Vec::new();
    let mut rest: &mut [A] = acc;
    let mut base = 0i64;
    for (j, &c0) in cuts.iter().enumerate() {
        let c1 = cuts.get(j + 1).copied().unwrap_or(n);
        // Segments base..next belong to this part; a cut's id must exceed the one before.
        let next = match cuts.get(j + 1) {
            Some(&c) => ids[c].to_i64(),
            None => i64::MAX,
        };
        let first = ids[c0].to_i64();
        if first < base || next <= first {
            return Ok(false);
        }
        let rows = if next == i64::MAX {
            rest.len()
        } else {
            let k = ((next - base) as u64).saturating_mul(inner as u64);
            if k > rest.len() as u64 {
                return Ok(false);
            }
            k as usize
        };
        let (mine, tail) = std::mem::take(&mut rest).split_at_mut(rows);
        rest = tail;
        parts.push(Part {
            v: &v[c0 * inner..c1 * inner],
            ids: &ids[c0..c1],
            base,
            out: mine,
        });
        base = next;
    }
    let flag = interrupt::current();
    let run = |p: Part<'_, T, I, A>| sum_part(p, inner, widen, add, &flag);
    let ok: Vec<Result<bool>> = if parts.len() > 1 {
        parts.into_par_iter().map(run).collect()
    } else {
        parts.into_iter().map(run).collect()
    };
    let mut all = true;
    for r in ok {
        all &= r?;
    }
    Ok(all)
}

/// Sums one [`Part`]: a running sum of the current run of ids, stored at its segment after
/// every row (the last store of a run is its sum), so the loop does not branch on where a
/// run ends; an id below the one before it marks the ids unsorted (false).
fn sum_part<T: Element, I: Element, A: Copy + Default>(
    p: Part<'_, T, I, A>,
    inner: usize,
    widen: &impl Fn(T) -> A,
    add: &impl Fn(A, A) -> A,
    flag: &Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
) -> Result<bool> {
    let Part { v, ids, base, out } = p;
    let mut cur = base;
    let mut unsorted = false;
    if inner == 1 {
        let mut sum = A::default();
        for (chunk, vals) in ids.chunks(interrupt::CHUNK).zip(v.chunks(interrupt::CHUNK)) {
            if interrupt::is_set(flag) {
                return Err(interrupt::interrupted());
            }
            for (&id, &x) in chunk.iter().zip(vals) {
                let id = id.to_i64();
                unsorted |= id < cur;
                if id != cur {
                    sum = A::default();
                }
                sum = add(sum, widen(x));
                cur = id;
                match out.get_mut(id.wrapping_sub(base) as u64 as usize) {
                    Some(slot) => *slot = sum,
                    None => return Ok(false),
                }
            }
        }
        return Ok(!unsorted);
    }
    for (r, &id) in ids.iter().enumerate() {
        if r % interrupt::CHUNK == 0 && interrupt::is_set(flag) {
            return Err(interrupt::interrupted());
        }
        let id = id.to_i64();
        unsorted |= id < cur;
        cur = id;
        let at = (id.wrapping_sub(base) as u64 as usize).saturating_mul(inner);
        let Some(dst) = out.get_mut(at..at.saturating_add(inner)) else {
            return Ok(false);
        };
        for (d, &x) in dst.iter_mut().zip(&v[r * inner..(r + 1) * inner]) {
            *d = add(*d, widen(x));
        }
    }
    Ok(!unsorted)
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

/// Values below this are counted in the same pass that finds the largest: each task's
/// table grows to the largest value it has seen, at most 512 KiB of counts, so a pass
/// that only finds the range (a full read of the values) is not needed first.
pub const COUNT_ONCE_MAX: usize = 1 << 16;

/// How often each value `0..=largest` occurs in integer `values`, in one pass on every
/// core, when every value lies in `0..COUNT_ONCE_MAX`; None for other dtypes or when a
/// value lies outside (the caller then finds the range first and counts again, or raises).
pub fn bincount_small(values: &Buffer) -> Result<Option<Vec<i64>>> {
    /// Counts `c` into `table` (grown as larger values come), or false at the first value
    /// outside `0..COUNT_ONCE_MAX`.
    fn tally<T: Element>(c: &[T], mut table: Vec<i64>) -> Option<Vec<i64>> {
        for &x in c {
            let u = x.to_i64() as u64;
            if u >= COUNT_ONCE_MAX as u64 {
                return None;
            }
            let u = u as usize;
            if u >= table.len() {
                // At most COUNT_ONCE_MAX counts: a constant bound, not the input's size.
                #[allow(clippy::disallowed_methods)]
                table.resize(u + 1, 0);
            }
            table[u] += 1;
        }
        Some(table)
    }
    fn merge(a: Vec<i64>, b: Vec<i64>) -> Vec<i64> {
        let (mut long, short) = if a.len() >= b.len() { (a, b) } else { (b, a) };
        for (x, y) in long.iter_mut().zip(short) {
            *x += y;
        }
        long
    }
    let out = crate::dispatch!(ints values, v => {
        let v: &[_] = v;
        let mut total = Vec::new();
        // A group at a time between interrupt checks, its chunks on every core.
        for group in v.chunks(interrupt::CHUNK * 32) {
            interrupt::check()?;
            let part = if group.len() >= interrupt::PARALLEL_MIN {
                group
                    .par_chunks(interrupt::CHUNK)
                    .try_fold(Vec::new, |t, c| tally(c, t))
                    .try_reduce(Vec::new, |a, b| Some(merge(a, b)))
            } else {
                tally(group, Vec::new())
            };
            let Some(part) = part else {
                return Ok(None);
            };
            total = merge(total, part);
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

    /// Sorted ids over enough values for the parallel pass: runs of 0 to 20 rows (so some
    /// segments are empty), `inner` values a row.
    fn runs(n_ids: usize, inner: usize) -> (Vec<i64>, Vec<i64>) {
        let mut ids = Vec::new();
        let mut id = 0i64;
        while ids.len() < n_ids {
            let len = ((id * 7919) % 21) as usize;
            ids.extend(std::iter::repeat_n(id, len.min(n_ids - ids.len())));
            id += 1;
        }
        let v = (0..(n_ids * inner) as i64)
            .map(|i| (i * 104_729) % 2001 - 1000)
            .collect();
        (ids, v)
    }

    /// The sums one row at a time, in int64.
    fn naive(ids: &[i64], v: &[i64], inner: usize) -> Vec<i64> {
        let nseg = ids.last().map_or(0, |&l| l as usize + 1);
        let mut out: Vec<i64> = std::iter::repeat_n(0, nseg * inner).collect();
        for (r, &id) in ids.iter().enumerate() {
            for j in 0..inner {
                out[id as usize * inner + j] += v[r * inner + j];
            }
        }
        out
    }

    #[test]
    fn parallel_sorted_sums_match_one_row_at_a_time() {
        for (n_ids, inner) in [(interrupt::PARALLEL_MIN * 3 + 17, 1), (70_001, 3), (1, 1)] {
            let (ids, v) = runs(n_ids, inner);
            let want = naive(&ids, &v, inner);
            let shape = if inner == 1 {
                vec![n_ids]
            } else {
                vec![n_ids, inner]
            };
            let data = Tensor::new(shape.clone(), Buffer::from(v.clone())).unwrap();
            let out = sorted_sum(&data, &Tensor::from_i64(ids.clone()))
                .unwrap()
                .unwrap();
            assert_eq!(out.shape()[0] * inner, want.len());
            assert_eq!(out.data(), &Buffer::from(want.clone()), "{n_ids} × {inner}");
            // int32 ids and float data give the same sums.
            let ids32: Vec<i32> = ids.iter().map(|&x| x as i32).collect();
            let f: Vec<f32> = v.iter().map(|&x| x as f32).collect();
            let fdata = Tensor::new(shape, Buffer::from(f)).unwrap();
            let ids32 = Tensor::vector(Buffer::from(ids32));
            let out = sorted_sum(&fdata, &ids32).unwrap().unwrap();
            let wf: Vec<f32> = want.iter().map(|&x| x as f32).collect();
            assert_eq!(out.data(), &Buffer::from(wf));
        }
    }

    #[test]
    fn parallel_sums_find_unsorted_and_negative_ids_anywhere() {
        let n = interrupt::PARALLEL_MIN * 2 + 5;
        let (ids, v) = runs(n, 1);
        let data = Tensor::vector(Buffer::from(v));
        // Out of order at the middle (where the parts are cut), near the end, at the
        // start; a negative id; an id larger than the last one.
        for (at, value) in [
            (n / 2, 0),
            (n / 2 + 1, ids[n / 2] - 1),
            (n - 2, ids[n - 1] + 1),
            (0, 3),
            (0, -1),
            (n / 3, -5),
            (n / 2, ids[n - 1] + 7),
        ] {
            let mut bad = ids.clone();
            bad[at] = value;
            let r = sorted_sum(&data, &Tensor::from_i64(bad)).unwrap();
            assert!(r.is_none(), "ids[{at}] = {value}");
        }
        // One segment holding every row cannot be cut: one part sums it.
        let same: Vec<i64> = std::iter::repeat_n(4, n).collect();
        let out = sorted_sum(&data, &Tensor::from_i64(same)).unwrap().unwrap();
        let total = data.data().to_f64_vec().unwrap().iter().sum::<f64>() as i64;
        assert_eq!(out.data(), &Buffer::from(vec![0i64, 0, 0, 0, total]));
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

    /// The one-pass counts against the two-pass ones: large and small inputs, a largest
    /// value only one chunk holds, values past the table's bound and negative values
    /// (no answer: the caller's general path decides), other dtypes and no values.
    #[test]
    fn one_pass_counts_match_the_range_then_count() {
        let n = interrupt::PARALLEL_MIN * 3 + 11;
        let mut v: Vec<i64> = (0..n as i64).map(|i| (i * 7919) % 2001).collect();
        v[n / 2] = 40_000;
        for v in [v.clone(), v[..1000].to_vec(), vec![0], vec![]] {
            let b = Buffer::from(v.clone());
            let size = v.iter().max().map_or(0, |&m| m as usize + 1);
            let want = bincount_ints(&b, size).unwrap();
            assert_eq!(bincount_small(&b).unwrap(), want, "{} values", v.len());
        }
        let i32s = Buffer::from(vec![3i32, 1, 3]);
        assert_eq!(bincount_small(&i32s).unwrap(), Some(vec![0, 1, 0, 2]));
        v[7] = COUNT_ONCE_MAX as i64;
        assert_eq!(bincount_small(&Buffer::from(v.clone())).unwrap(), None);
        v[7] = -1;
        assert_eq!(bincount_small(&Buffer::from(v)).unwrap(), None);
        assert_eq!(bincount_small(&Buffer::from(vec![1.0f32])).unwrap(), None);
    }
}
