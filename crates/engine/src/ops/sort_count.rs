//! `tf.sort` of one long lane of integers whose values span a small range, without
//! comparisons: a counting sort. Each core counts how often every value occurs in its part
//! of the lane (the table stays in cache), and the output is written once, on every core, as
//! runs of equal values. Equal ints cannot be told apart, so the result is a stable sort's.

use rayon::prelude::*;

use crate::element::Element;
use crate::error::Result;
use crate::{budget, interrupt, DType};

/// The most distinct values (the span from the least to the greatest) a counting sort
/// takes: a table of counts up to 2 MiB, within a core's cache; a wider span sorts by
/// comparisons.
const MAX_SPAN: u64 = 1 << 18;

/// Elements read between two looks at the interrupt flag (a few milliseconds of counting).
const GROUP: usize = 1 << 22;

/// `v` sorted (descending reverses the order), or None when its values span more than
/// [`MAX_SPAN`] or more than its length (then a sort by comparisons is as fast), or for
/// uint64 (whose values do not all fit an int64).
pub(super) fn sort_small_span<T: Element>(
    op: &str,
    v: &[T],
    descending: bool,
) -> Result<Option<Vec<T>>> {
    if T::DTYPE == DType::UInt64 || v.is_empty() {
        return Ok(None);
    }
    let parts = rayon::current_num_threads().max(1);
    let (mut lo, mut hi) = (i64::MAX, i64::MIN);
    for group in v.chunks(GROUP) {
        interrupt::check()?;
        let piece = group.len().div_ceil(parts);
        let (l, h) = group
            .par_chunks(piece)
            .map(|c| {
                c.iter().fold((i64::MAX, i64::MIN), |(lo, hi), x| {
                    let x = x.to_i64();
                    (lo.min(x), hi.max(x))
                })
            })
            .reduce(|| (i64::MAX, i64::MIN), |a, b| (a.0.min(b.0), a.1.max(b.1)));
        (lo, hi) = (lo.min(l), hi.max(h));
    }
    let span = hi as i128 - lo as i128 + 1;
    if span > MAX_SPAN as i128 || span > v.len() as i128 {
        return Ok(None);
    }
    let span = span as usize;
    // A table of counts per core, so that the cores never share one; each counts its part
    // of every group.
    let mut counts: Vec<Vec<usize>> = Vec::new();
    for _ in 0..parts {
        let mut count = budget::vec(op, span)?;
        count.extend(std::iter::repeat_n(0usize, span));
        counts.push(count);
    }
    for group in v.chunks(GROUP) {
        interrupt::check()?;
        let piece = group.len().div_ceil(parts);
        counts
            .par_iter_mut()
            .zip(group.par_chunks(piece))
            .for_each(|(count, part)| {
                for x in part {
                    count[(x.to_i64() - lo) as usize] += 1;
                }
            });
    }
    // ends[j]: how many output elements hold the first j + 1 values of the output's order.
    let mut ends: Vec<usize> = budget::vec(op, span)?;
    let mut total = 0;
    for j in 0..span {
        let value = if descending { span - 1 - j } else { j };
        total += counts.iter().map(|c| c[value]).sum::<usize>();
        ends.push(total);
    }
    let value_at = |j: usize| -> T {
        let offset = if descending { span - 1 - j } else { j };
        T::from_i64(lo + offset as i64)
    };
    budget::check(op, v.len() as u128, std::mem::size_of::<T>())?;
    let out = interrupt::fill_blocks(v.len(), &|start, dst: &mut [T]| {
        let mut j = ends.partition_point(|&e| e <= start);
        let (mut pos, mut k) = (start, 0);
        while k < dst.len() {
            let run = (ends[j] - pos).min(dst.len() - k);
            dst[k..k + run].fill(value_at(j));
            k += run;
            pos += run;
            j += 1;
        }
    });
    interrupt::check()?;
    Ok(Some(out))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check_against_std<T: Element + Ord>(v: Vec<T>) {
        for descending in [false, true] {
            let got = sort_small_span("sort", &v, descending).unwrap();
            let mut want = v.clone();
            want.sort();
            if descending {
                want.reverse();
            }
            assert_eq!(got.as_deref(), Some(&want[..]), "descending {descending}");
        }
    }

    #[test]
    fn counting_sorts_match_a_comparison_sort() {
        // Odd lengths on both sides of the parallel size, negative values, the extremes.
        let n = interrupt::PARALLEL_MIN * 2 + 13;
        check_against_std((0..n as i64).map(|i| (i * 7919) % 2001 - 1000).collect());
        check_against_std(
            (0..n as i64)
                .map(|i| i64::MIN + (i * 104_729) % 3000)
                .collect(),
        );
        check_against_std((0..n as i64).map(|i| i64::MAX - (i * 31) % 77).collect());
        check_against_std((0..1001i32).map(|i| (i * 37) % 101 - 50).collect());
        check_against_std((0..5000u32).map(|i| (i % 256) as u8).collect::<Vec<u8>>());
        check_against_std(std::iter::repeat_n(i16::MIN, 70_000).collect());
        check_against_std(vec![42u32]);
        check_against_std(
            (0..n as i64)
                .map(|i| if i % 2 == 0 { i32::MIN } else { i32::MIN + 1 })
                .collect::<Vec<i32>>(),
        );
    }

    #[test]
    fn wide_spans_and_uint64_are_left_to_the_comparison_sort() {
        let wide: Vec<i64> = (0..100_000i64).map(|i| i * 1_000_003).collect();
        assert!(sort_small_span("sort", &wide, false).unwrap().is_none());
        let extremes = vec![i64::MIN, i64::MAX, 0];
        assert!(sort_small_span("sort", &extremes, false).unwrap().is_none());
        let unsigned: Vec<u64> = (0..100_000u64).map(|i| i % 10).collect();
        assert!(sort_small_span("sort", &unsigned, false).unwrap().is_none());
        assert!(sort_small_span::<i64>("sort", &[], false)
            .unwrap()
            .is_none());
    }
}
