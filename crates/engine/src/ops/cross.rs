//! `tf.ragged.cross` and `tf.ragged.cross_hashed`: for each row, every combination of one
//! value from each input (the first input varies slowest), joined with `_X_` as a string or
//! fingerprinted.

use crate::budget;
use crate::buffer::Buffer;
use crate::error::Result;
use crate::interrupt;
use crate::partition::RowPartition;
use crate::ragged::Ragged;
use crate::strings::StringBuf;
use crate::tensor::Tensor;
use crate::{invalid_arg, value_error};

/// One input of a cross: its values as strings and the row each run of them belongs to.
pub struct CrossInput {
    /// The values, row after row.
    pub values: StringBuf,
    /// Row `i` is `values[splits[i]..splits[i + 1]]`.
    pub splits: Vec<i64>,
}

/// The string form of the values of a cross input (strings as they are, integers in
/// decimal); other dtypes are refused, as TensorFlow's RaggedCross does.
pub fn cross_strings(b: &Buffer) -> Result<StringBuf> {
    crate::dispatch!(ints b, _v => super::cast::as_string(b),
    Buffer::Str(s) => Ok(s.clone()),
    other => Err(value_error!(
        "tf.ragged.cross needs string or integer inputs, not {}",
        other.dtype()
    )))
}

/// The number of combinations in each row (checked against the memory budget, `item`
/// bytes each), and their total.
fn row_counts(splits: &[&[i64]], item: usize) -> Result<(Vec<i64>, usize)> {
    let Some(first) = splits.first() else {
        return Err(value_error!("tf.ragged.cross needs at least one input"));
    };
    let nrows = first.len() - 1;
    for (k, s) in splits.iter().enumerate() {
        if s.len() - 1 != nrows {
            return Err(invalid_arg!(
                "inputs[{k}] has {} rows, but inputs[0] has {nrows}: every input needs the same number of rows",
                s.len() - 1
            ));
        }
    }
    let mut lengths = budget::vec("tf.ragged.cross", nrows)?;
    let mut total: usize = 0;
    for r in 0..nrows {
        let mut n: usize = 1;
        for s in splits {
            n = crate::size::mul(n, (s[r + 1] - s[r]) as usize)?;
        }
        lengths.push(n as i64);
        total = crate::size::add(total, n)?;
    }
    budget::check("tf.ragged.cross", total as u128, item)?;
    Ok((lengths, total))
}

/// Calls `f` with the row and the position (in each input) of every combination, row by
/// row, the last input varying fastest.
fn each_combination(
    splits: &[&[i64]],
    lengths: &[i64],
    mut f: impl FnMut(usize, &[usize]),
) -> Result<()> {
    let mut counter = budget::filled("tf.ragged.cross", 0usize, splits.len())?;
    let mut pos = budget::filled("tf.ragged.cross", 0usize, splits.len())?;
    let mut done = 0usize;
    for (r, &n) in lengths.iter().enumerate() {
        counter.iter_mut().for_each(|c| *c = 0);
        for _ in 0..n {
            if done.is_multiple_of(interrupt::CHUNK) {
                interrupt::check()?;
            }
            done += 1;
            for (k, s) in splits.iter().enumerate() {
                pos[k] = s[r] as usize + counter[k];
            }
            f(r, &pos);
            for k in (0..splits.len()).rev() {
                let len = (splits[k][r + 1] - splits[k][r]) as usize;
                counter[k] += 1;
                if counter[k] < len {
                    break;
                }
                counter[k] = 0;
            }
        }
    }
    Ok(())
}

/// The feature hashes of one input of `cross_hashed`: strings are fingerprinted, integers
/// are their own hash.
pub fn feature_hashes(b: &Buffer) -> Result<Vec<u64>> {
    crate::dispatch!(ints b, v => Ok(v.iter().map(|&x| x.to_i64() as u64).collect()),
    Buffer::Str(s) => Ok(s.iter().map(farmhash2::fingerprint64).collect()),
    other => Err(value_error!(
        "tf.ragged.cross_hashed needs string or integer inputs, not {}",
        other.dtype()
    )))
}

/// `tf.ragged.cross_hashed`: the fingerprint of each combination (its features' hashes
/// folded into `hash_key`), modulo `num_buckets` (the largest int64 when 0).
pub fn cross_hashed(
    inputs: &[(Vec<u64>, Vec<i64>)],
    num_buckets: u64,
    hash_key: u64,
) -> Result<Ragged> {
    let splits: Vec<&[i64]> = inputs.iter().map(|(_, s)| s.as_slice()).collect();
    let (lengths, total) = row_counts(&splits, 8)?;
    let buckets = if num_buckets == 0 {
        i64::MAX as u64
    } else {
        num_buckets
    };
    let mut out = budget::vec("tf.ragged.cross_hashed", total)?;
    each_combination(&splits, &lengths, |_, pos| {
        let h = inputs
            .iter()
            .zip(pos)
            .fold(hash_key, |h, ((hashes, _), &p)| {
                super::fingerprint::fingerprint_cat64(h, hashes[p])
            });
        out.push((h % buckets) as i64);
    })?;
    let part = RowPartition::from_row_lengths(&lengths, None)?;
    Ragged::new(vec![part], Tensor::from_i64(out))
}

/// Crosses the inputs row by row.
pub fn cross(inputs: &[CrossInput]) -> Result<Ragged> {
    let splits: Vec<&[i64]> = inputs.iter().map(|i| i.splits.as_slice()).collect();
    let (lengths, total) = row_counts(&splits, 16 * inputs.len())?;
    let mut out = StringBuf::try_with_capacity("tf.ragged.cross", total, 0)?;
    each_combination(&splits, &lengths, |_, pos| {
        out.push_with(|w| {
            for (k, (inp, &p)) in inputs.iter().zip(pos).enumerate() {
                if k > 0 {
                    w.bytes(b"_X_");
                }
                w.bytes(inp.values.get(p));
            }
        });
    })?;
    let part = RowPartition::from_row_lengths(&lengths, None)?;
    Ragged::new(vec![part], Tensor::vector(Buffer::Str(out)))
}
