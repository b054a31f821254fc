//! `tf.sequence_mask`'s rows: for each length `l`, a row of `maxlen` places whose first
//! `l` (clamped to `0..=maxlen`) are true, written straight from the lengths' own dtype,
//! rows split across the cores.

use rayon::prelude::*;

use crate::buffer::Buffer;
use crate::element::Element;
use crate::error::Result;
use crate::{budget, interrupt, invalid_arg};

/// Rows written between two looks at the interrupt flag.
const STEP: usize = 1 << 16;

/// Rows of one parallel task.
const TASK: usize = 1 << 11;

/// From this many places a step splits across the cores.
const PARALLEL: usize = 1 << 16;

/// The places of a row that are inside for `l`: `ceil(l)` clamped to `0..=m` (none for NaN
/// or `l <= 0`); with `truncate` (an int `maxlen` given), the length is cast to an int
/// first, as TensorFlow casts it to `maxlen`'s dtype.
#[inline(always)]
fn inside<T: Element>(l: T, m: usize, truncate: bool) -> usize {
    let l = l.to_f64();
    let l = if truncate { l.trunc() } else { l };
    if l > 0.0 {
        (l.ceil() as usize).min(m)
    } else {
        0
    }
}

/// The largest length as a count of places: the ceiling of the largest (at least 0; NaN is
/// ignored), or None for a buffer that is not numbers.
pub fn longest(lengths: &Buffer) -> Option<f64> {
    crate::dispatch!(numbers lengths, v => Some(
        v.iter().fold(0.0f64, |m, &x| m.max(x.to_f64())).ceil()
    ), _ => None)
}

/// The mask of `lengths` (numbers) with `m` places a row, row after row.
pub fn rows(lengths: &Buffer, m: usize, truncate: bool) -> Result<Vec<bool>> {
    let n = lengths.len();
    let total = crate::size::mul(n, m)?;
    let mut out = budget::filled("tf.sequence_mask", false, total)?;
    if total == 0 {
        return Ok(out);
    }
    crate::dispatch!(numbers lengths, v => {
        for (ls, out) in v.chunks(STEP).zip(out.chunks_mut(STEP * m)) {
            interrupt::check()?;
            let write = |(ls, out): (&[_], &mut [bool])| {
                for (&l, row) in ls.iter().zip(out.chunks_exact_mut(m)) {
                    row[..inside(l, m, truncate)].fill(true);
                }
            };
            if out.len() >= PARALLEL {
                ls.par_chunks(TASK)
                    .zip(out.par_chunks_mut(TASK * m))
                    .for_each(write);
            } else {
                write((ls, out));
            }
        }
        Ok(())
    }, _ => Err(invalid_arg!("lengths must be numbers, not {}", lengths.dtype())))?;
    Ok(out)
}

#[cfg(test)]
#[allow(clippy::disallowed_methods)] // test inputs: sizes are constants here
mod tests {
    use super::*;

    fn mask(b: Buffer, m: usize, truncate: bool) -> Vec<u8> {
        rows(&b, m, truncate)
            .unwrap()
            .into_iter()
            .map(u8::from)
            .collect()
    }

    #[test]
    fn rows_clamp_their_lengths() {
        let b = Buffer::from(vec![0i64, 1, 3, 5, -2, i64::MAX, i64::MIN]);
        assert_eq!(
            mask(b, 3, true),
            [0, 0, 0, 1, 0, 0, 1, 1, 1, 1, 1, 1, 0, 0, 0, 1, 1, 1, 0, 0, 0]
        );
        let b = Buffer::from(vec![u64::MAX, 1]);
        assert_eq!(mask(b, 2, true), [1, 1, 1, 0]);
    }

    #[test]
    fn float_lengths_round_up_or_truncate() {
        let b = Buffer::from(vec![1.5f64, f64::NAN, -0.5, 0.2, f64::INFINITY]);
        assert_eq!(mask(b.clone(), 2, false), [1, 1, 0, 0, 0, 0, 1, 0, 1, 1]);
        assert_eq!(mask(b.clone(), 2, true), [1, 0, 0, 0, 0, 0, 0, 0, 1, 1]);
        assert_eq!(longest(&b), Some(f64::INFINITY));
        assert_eq!(longest(&Buffer::from(vec![f64::NAN, 0.5])), Some(1.0));
    }

    #[test]
    fn empty_and_large_masks() {
        assert!(rows(&Buffer::from(Vec::<i32>::new()), 4, false)
            .unwrap()
            .is_empty());
        assert!(rows(&Buffer::from(vec![3i32]), 0, false)
            .unwrap()
            .is_empty());
        assert_eq!(longest(&Buffer::from(Vec::<i32>::new())), Some(0.0));
        // Enough rows for several steps and tasks on every core.
        let lens: Vec<i32> = (0..200_000).map(|i| i % 7).collect();
        let out = rows(&Buffer::from(lens.clone()), 5, false).unwrap();
        for (i, row) in out.chunks(5).enumerate() {
            let k = (lens[i] as usize).min(5);
            assert!(row[..k].iter().all(|&x| x) && row[k..].iter().all(|&x| !x));
        }
    }
}
