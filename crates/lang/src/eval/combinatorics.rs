//! The combinatoric iterators of `itertools` (`product`, `permutations`, `combinations`
//! and `combinations_with_replacement`), stepped by CPython's algorithms, and `zip`'s
//! strict-length message.

use crate::diagnostic::{Error, Result};
use crate::value::iter::Combinatoric;
use crate::value::Value;
use ragtag_engine::ExceptionClass;

/// CPython's message for `zip(strict=True)` over unequal lengths.
pub(super) fn zip_strict(k: usize, how: &str) -> Error {
    let msg = if k == 1 {
        format!("zip() argument 2 is {how} than argument 1")
    } else {
        format!("zip() argument {} is {how} than arguments 1-{k}", k + 1)
    };
    Error::new(ExceptionClass::ValueError, msg)
}

/// The next tuple of `product`, `permutations` or `combinations` (with replacement), by
/// CPython's algorithms over positions into `pool` (for `product`, `cycles` holds each
/// pool's size and the pools are laid end to end).
pub(super) fn combinatoric(
    pool: &[Value],
    how: Combinatoric,
    idx: &mut [usize],
    cycles: &mut [usize],
    first: &mut bool,
) -> Result<Option<Value>> {
    let n = pool.len();
    let emit = |idx: &[usize]| Value::tuple(idx.iter().map(|&i| pool[i].clone()).collect());
    if std::mem::take(first) {
        let empty = match how {
            Combinatoric::Product => cycles.contains(&0),
            Combinatoric::Permutations(r) | Combinatoric::Combinations(r) => r > n,
            Combinatoric::WithReplacement(r) => n == 0 && r > 0,
        };
        if empty {
            idx.iter_mut().for_each(|i| *i = usize::MAX);
            return Ok(None);
        }
        return Ok(Some(match how {
            Combinatoric::Product => {
                let starts = product_starts(cycles);
                idx.copy_from_slice(&starts);
                emit(idx)
            }
            Combinatoric::Permutations(r) => emit(&idx[..r]),
            _ => emit(idx),
        }));
    }
    if idx.first() == Some(&usize::MAX) {
        return Ok(None);
    }
    match how {
        Combinatoric::Product => {
            let starts = product_starts(cycles);
            for i in (0..idx.len()).rev() {
                idx[i] += 1;
                if idx[i] < starts[i] + cycles[i] {
                    return Ok(Some(emit(idx)));
                }
                idx[i] = starts[i];
            }
            Ok(None)
        }
        Combinatoric::Combinations(r) => {
            let Some(i) = (0..r).rev().find(|&i| idx[i] != i + n - r) else {
                return Ok(None);
            };
            idx[i] += 1;
            for j in i + 1..r {
                idx[j] = idx[j - 1] + 1;
            }
            Ok(Some(emit(idx)))
        }
        Combinatoric::WithReplacement(r) => {
            let Some(i) = (0..r).rev().find(|&i| idx[i] != n - 1) else {
                return Ok(None);
            };
            let v = idx[i] + 1;
            for slot in &mut idx[i..r] {
                *slot = v;
            }
            Ok(Some(emit(idx)))
        }
        Combinatoric::Permutations(r) => {
            for i in (0..r).rev() {
                cycles[i] -= 1;
                if cycles[i] == 0 {
                    let moved = idx[i];
                    idx.copy_within(i + 1.., i);
                    idx[n - 1] = moved;
                    cycles[i] = n - i;
                } else {
                    let j = cycles[i];
                    idx.swap(i, n - j);
                    return Ok(Some(emit(&idx[..r])));
                }
            }
            Ok(None)
        }
    }
}

/// Where each pool of a product starts in the flattened pool: the running sum of the pools'
/// sizes before it.
fn product_starts(sizes: &[usize]) -> Vec<usize> {
    let mut at = 0;
    sizes
        .iter()
        .map(|s| {
            at += s;
            at - s
        })
        .collect()
}
