//! The work loops of `tf.searchsorted` and `tf.unique`.
//!
//! `searchsorted` runs the standard library's `partition_point` search (halve a window,
//! move its base without a branch) on a group of values at once, one step of every search
//! after another, so the group's reads of a sequence larger than the caches overlap instead
//! of waiting one after another; groups split across the cores. The answers are
//! `partition_point`'s, element for element, even for a sequence that is not sorted.
//!
//! `unique` looks each element's key up in an open-addressing table with a multiplicative
//! hash (keys are the elements' bits, so no keyed hash is needed), grown within the memory
//! budget.

use rayon::prelude::*;

use crate::element::Element;
use crate::error::Result;
use crate::{budget, interrupt};

/// Searches run step by step together: enough reads in flight to cover memory's latency.
const GROUP: usize = 32;

/// Values searched between two looks at the interrupt flag.
const STEP: usize = 1 << 18;

/// From this many values a step splits across the cores.
const PARALLEL: usize = 1 << 12;

/// Values of one parallel task.
const TASK: usize = 1 << 11;

/// Where each of `xs` goes in `lane` (the first place for `right == false`, after the
/// last equal for `true`), written to `out`: `partition_point(|y| y < x)` or `y <= x`.
pub(super) fn search_lane<T: Element>(
    lane: &[T],
    xs: &[T],
    right: bool,
    out: &mut [i64],
) -> Result<()> {
    let n = lane.len();
    if n == 0 {
        out.fill(0);
        return Ok(());
    }
    for (xs, out) in xs.chunks(STEP).zip(out.chunks_mut(STEP)) {
        interrupt::check()?;
        if xs.len() >= PARALLEL {
            xs.par_chunks(TASK)
                .zip(out.par_chunks_mut(TASK))
                .for_each(|(xs, out)| search_groups(lane, xs, right, out));
        } else {
            search_groups(lane, xs, right, out);
        }
    }
    Ok(())
}

/// [`search_lane`]'s loop over groups of [`GROUP`] values (`lane` is not empty).
fn search_groups<T: Element>(lane: &[T], xs: &[T], right: bool, out: &mut [i64]) {
    for (xs, out) in xs.chunks(GROUP).zip(out.chunks_mut(GROUP)) {
        if right {
            search_group(lane, xs, out, |y, x| y <= x);
        } else {
            search_group(lane, xs, out, |y, x| y < x);
        }
    }
}

/// One group's searches, step by step together, as `partition_point` does each: while the
/// window holds more than one element, look at the element half a window past the base and
/// move the base there when `before(element, x)`; then one more look at the base.
#[inline(always)]
fn search_group<T: Element>(lane: &[T], xs: &[T], out: &mut [i64], before: impl Fn(T, T) -> bool) {
    let mut base = [0usize; GROUP];
    let base = &mut base[..xs.len()];
    let mut size = lane.len();
    while size > 1 {
        let half = size / 2;
        for (b, &x) in base.iter_mut().zip(xs) {
            let mid = *b + half;
            // mid < base + size <= lane.len(): the window stays inside the lane.
            let take = before(lane[mid], x);
            *b = if take { mid } else { *b };
        }
        size -= half;
    }
    for ((o, &b), &x) in out.iter_mut().zip(base.iter()).zip(xs) {
        *o = (b + usize::from(before(lane[b], x))) as i64;
    }
}

/// An empty slot of [`Table`].
const EMPTY: u32 = u32::MAX;

/// Keys (an element's bits) to their index among the distinct elements: open addressing
/// with linear probing, at most half full.
pub(super) struct Table {
    keys: Vec<u64>,
    slots: Vec<u32>,
    len: usize,
    shift: u32,
}

impl Table {
    /// An empty table.
    pub(super) fn new() -> Result<Self> {
        Self::with_bits(10)
    }

    fn with_bits(bits: u32) -> Result<Self> {
        let n = 1usize << bits;
        Ok(Table {
            keys: budget::filled("tf.unique's table", 0u64, n)?,
            slots: budget::filled("tf.unique's table", EMPTY, n)?,
            len: 0,
            shift: 64 - bits,
        })
    }

    #[inline(always)]
    fn home(&self, key: u64) -> usize {
        (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> self.shift) as usize
    }

    /// The index of `key`, or, when it is new, `next` (recorded as its index) and `None`.
    #[inline(always)]
    pub(super) fn get_or_insert(&mut self, key: u64, next: usize) -> Result<Option<usize>> {
        let mask = self.keys.len() - 1;
        let mut i = self.home(key);
        loop {
            let s = self.slots[i];
            if s == EMPTY {
                break;
            }
            if self.keys[i] == key {
                return Ok(Some(s as usize));
            }
            i = (i + 1) & mask;
        }
        let slot = u32::try_from(next)
            .ok()
            .filter(|&s| s != EMPTY)
            .ok_or_else(|| {
                crate::invalid_arg!("tf.unique: more than 2^32 - 2 distinct elements")
            })?;
        self.keys[i] = key;
        self.slots[i] = slot;
        self.len += 1;
        if self.len * 2 > self.keys.len() {
            self.grow()?;
        }
        Ok(None)
    }

    /// Doubles the table and puts every key back.
    fn grow(&mut self) -> Result<()> {
        let bits = 64 - self.shift + 1;
        let mut bigger = Self::with_bits(bits)?;
        let mask = bigger.keys.len() - 1;
        for (&k, &s) in self.keys.iter().zip(&self.slots) {
            if s == EMPTY {
                continue;
            }
            let mut i = bigger.home(k);
            while bigger.slots[i] != EMPTY {
                i = (i + 1) & mask;
            }
            bigger.keys[i] = k;
            bigger.slots[i] = s;
        }
        bigger.len = self.len;
        *self = bigger;
        Ok(())
    }
}

#[cfg(test)]
#[allow(clippy::disallowed_methods)] // test inputs: sizes are constants here
mod tests {
    use super::*;

    fn both(lane: &[f64], xs: &[f64]) {
        for right in [false, true] {
            let mut out = vec![-1i64; xs.len()];
            search_lane(lane, xs, right, &mut out).unwrap();
            let want: Vec<i64> = xs
                .iter()
                .map(|x| {
                    (if right {
                        lane.partition_point(|y| y <= x)
                    } else {
                        lane.partition_point(|y| y < x)
                    }) as i64
                })
                .collect();
            assert_eq!(out, want, "right={right} lane={lane:?}");
        }
    }

    #[test]
    fn searches_are_partition_points() {
        // Empty lane, one element, ties, NaN in values and in the lane, an unsorted lane.
        both(&[], &[1.0, 2.0]);
        both(&[1.0], &[0.0, 1.0, 2.0, f64::NAN]);
        both(&[1.0, 1.0, 1.0, 2.0, 2.0], &[0.0, 1.0, 1.5, 2.0, 3.0]);
        both(&[1.0, 2.0, f64::NAN], &[f64::NAN, 2.0, 5.0]);
        both(&[5.0, 1.0, 4.0, 2.0, 3.0], &[0.0, 2.5, 4.0, 6.0]);
        both(&[0.0, 1.0], &[]);
        let lane: Vec<f64> = (0..1000).map(|i| (i / 3) as f64).collect();
        let xs: Vec<f64> = (0..20_000)
            .map(|i| (i % 400) as f64 - 30.5 * (i % 2) as f64)
            .collect();
        both(&lane, &xs);
    }

    #[test]
    fn integer_extremes_search_exactly() {
        let lane = [i64::MIN, -1, 0, i64::MAX];
        let xs = [i64::MIN, i64::MAX, 0, -5];
        let mut out = [0i64; 4];
        search_lane(&lane, &xs, false, &mut out).unwrap();
        assert_eq!(out, [0, 3, 2, 1]);
        search_lane(&lane, &xs, true, &mut out).unwrap();
        assert_eq!(out, [1, 4, 3, 1]);
    }

    #[test]
    fn the_table_numbers_keys_in_order_of_arrival_and_grows() {
        let mut t = Table::new().unwrap();
        let mut next = 0;
        for round in 0..2 {
            for k in 0..5000u64 {
                let key = k.wrapping_mul(1 << 40) ^ (u64::MAX * (k & 1));
                match t.get_or_insert(key, next).unwrap() {
                    Some(s) => assert_eq!((round, s), (1, k as usize)),
                    None => {
                        assert_eq!((round, next), (0, k as usize));
                        next += 1;
                    }
                }
            }
        }
    }
}
