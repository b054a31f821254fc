//! Row partitions: how a flat run of values is split into rows, in all five of the guide's
//! encodings. `row_splits` is canonical; the others are derived once and cached.

use crate::budget;
use std::sync::{Arc, OnceLock};

use super::buffer::Buffer;
use super::dtype::DType;
use super::error::{EngineError, Result};
use super::tensor::Tensor;
use crate::exceptions::Exception;
use crate::{invalid_arg, value_error};

/// A vector of row indices as an int32 or int64 tensor (values known to fit: they count
/// elements that exist, or were checked by the caller).
pub fn index_tensor(v: Vec<i64>, dtype: DType) -> Tensor {
    Tensor::vector(Buffer::from_i64s(v, dtype))
}

/// An index scalar as an int32 or int64 tensor.
pub fn index_scalar(v: i64, dtype: DType) -> Tensor {
    Tensor::from_parts(vec![], Buffer::from_i64s(vec![v], dtype))
}

/// One ragged (or uniform) dimension: `nrows` rows over `nvals` values.
/// Cheap to clone: the splits and the cached encodings are shared.
#[derive(Debug, Clone)]
pub struct RowPartition {
    inner: Arc<Inner>,
}

#[derive(Debug, Clone)]
struct Inner {
    splits: Vec<i64>,
    uniform_row_length: Option<i64>,
    /// The dtype the row-partitioning tensors show (`row_splits_dtype`): int64 unless
    /// int32 was asked for or given. The splits themselves are always held as i64.
    int32: bool,
    lengths: OnceLock<Vec<i64>>,
    rowids: OnceLock<Vec<i64>>,
}

impl PartialEq for RowPartition {
    fn eq(&self, other: &Self) -> bool {
        // One shared partition (`rt + rt`, or results built from the same tensor) is equal
        // without comparing its splits, a pass over a million rows' worth of memory.
        Arc::ptr_eq(&self.inner, &other.inner)
            || (self.inner.splits == other.inner.splits
                && self.inner.uniform_row_length == other.inner.uniform_row_length)
    }
}

impl RowPartition {
    fn build(splits: Vec<i64>, uniform_row_length: Option<i64>) -> Self {
        RowPartition {
            inner: Arc::new(Inner {
                splits,
                uniform_row_length,
                int32: false,
                lengths: OnceLock::new(),
                rowids: OnceLock::new(),
            }),
        }
    }

    /// From row splits; validated (starts at 0, never decreases).
    /// `nvals`, when given, must equal the last split.
    ///
    /// ```
    /// use ragtag_engine::RowPartition;
    ///
    /// let p = RowPartition::from_row_splits(vec![0, 2, 2, 5], None).unwrap();
    /// assert_eq!((p.nrows(), p.nvals()), (3, 5));
    /// assert_eq!(p.row_lengths(), &[2, 0, 3]);
    /// ```
    pub fn from_row_splits(splits: Vec<i64>, nvals: Option<usize>) -> Result<Self> {
        if splits.is_empty() {
            return Err(EngineError::SplitsEmpty.into());
        }
        if splits[0] != 0 {
            return Err(EngineError::SplitsStart { first: splits[0] }.into());
        }
        if let Some(i) = splits.windows(2).position(|w| w[1] < w[0]) {
            return Err(EngineError::SplitsDecrease {
                at: i + 1,
                value: splits[i + 1],
                previous: splits[i],
            }
            .into());
        }
        if let Some(n) = nvals {
            let last = *splits.last().unwrap_or(&0);
            if last != n as i64 {
                return Err(EngineError::SplitsEnd { nvals: n, last }.into());
            }
        }
        Ok(Self::build(splits, None))
    }

    /// From row lengths (non-negative); they must add up to `nvals` when it is given.
    ///
    /// ```
    /// use ragtag_engine::RowPartition;
    ///
    /// let p = RowPartition::from_row_lengths(&[3, 0, 2], Some(5)).unwrap();
    /// assert_eq!(p.row_splits(), &[0, 3, 3, 5]);
    /// assert_eq!(p.value_rowids(), &[0, 0, 0, 2, 2]);
    /// assert!(RowPartition::from_row_lengths(&[3, -1], None).is_err());
    /// ```
    pub fn from_row_lengths(lengths: &[i64], nvals: Option<usize>) -> Result<Self> {
        let mut splits = budget::vec("a row partition", lengths.len() + 1)?;
        splits.push(0);
        // The common case without a branch per row: the running sum, with the sign bits of
        // every length and every partial sum gathered on the side. Lengths below 2^63 cannot
        // carry a sum from below 2^63 past 2^64 in one step, so a sum past i64::MAX shows
        // as a set sign bit in some partial sum; any set bit sends the lengths to the
        // checking pass below, which names the offending row.
        let (mut acc, mut signs) = (0i64, 0i64);
        splits.extend(lengths.iter().map(|&l| {
            acc = acc.wrapping_add(l);
            signs |= l | acc;
            acc
        }));
        if signs >= 0 {
            if let Some(n) = nvals {
                if acc != n as i64 {
                    return Err(EngineError::LengthsSum { sum: acc, nvals: n }.into());
                }
            }
            return Ok(Self::build(splits, None));
        }
        splits.truncate(1);
        let mut acc = 0i64;
        // One pass: the running sum, checked for a negative length and for overflow (both
        // lengths are non-negative then, so a sum past i64::MAX wraps below zero).
        for (i, &l) in lengths.iter().enumerate() {
            if l < 0 {
                return Err(EngineError::NegativeLength { at: i, length: l }.into());
            }
            acc = acc.wrapping_add(l);
            if acc < 0 {
                // A negative length further on is reported first, as a separate check would.
                if let Some(j) = lengths[i..].iter().position(|&l| l < 0) {
                    return Err(EngineError::NegativeLength {
                        at: i + j,
                        length: lengths[i + j],
                    }
                    .into());
                }
                return Err(value_error!(
                    "row_lengths add up to more than the largest int64"
                ));
            }
            splits.push(acc);
        }
        if let Some(n) = nvals {
            if acc != n as i64 {
                return Err(EngineError::LengthsSum { sum: acc, nvals: n }.into());
            }
        }
        // The lengths are derived from the splits when asked for, not copied here.
        Ok(Self::build(splits, None))
    }

    /// From splits known to be valid (built by the engine from existing rows: they start at
    /// 0 and never decrease), without checking them again.
    pub fn from_valid_splits(splits: Vec<i64>) -> Self {
        debug_assert!(splits.first() == Some(&0) && splits.windows(2).all(|w| w[0] <= w[1]));
        Self::build(splits, None)
    }

    /// From the row id of each value (sorted ascending) and the number of rows.
    pub fn from_value_rowids(rowids: &[i64], nrows: Option<i64>) -> Result<Self> {
        if let Some(i) = rowids.windows(2).position(|w| w[1] < w[0]) {
            return Err(EngineError::RowidsUnsorted {
                at: i + 1,
                value: rowids[i + 1],
                previous: rowids[i],
            }
            .into());
        }
        if let Some(&first) = rowids.first() {
            if first < 0 {
                return Err(invalid_arg!(
                    "value_rowids must be non-negative, found {first}"
                ));
            }
        }
        if let Some(n) = nrows.filter(|&n| n < 0) {
            return Err(value_error!("nrows must be non-negative, not {n}"));
        }
        let needed = rowids.last().map_or(0, |&r| r.saturating_add(1));
        let nrows = nrows.unwrap_or(needed);
        if nrows < needed {
            return Err(value_error!(
                "nrows is {nrows}, but value_rowids refers to row {}",
                needed - 1
            ));
        }
        // The lengths, the splits built from them and the cached copy of the lengths.
        budget::check(
            "a row partition",
            nrows as u128,
            3 * std::mem::size_of::<i64>(),
        )?;
        let mut lengths = budget::filled("a row partition", 0i64, nrows as usize)?;
        for &r in rowids {
            lengths[r as usize] += 1;
        }
        let p = Self::from_row_lengths(&lengths, Some(rowids.len()))?;
        let _ = p.inner.rowids.set(rowids.to_vec());
        Ok(p)
    }

    /// From the start of each row; rows end where the next begins, the last at `nvals`.
    pub fn from_row_starts(starts: &[i64], nvals: usize) -> Result<Self> {
        let mut splits = starts.to_vec();
        splits.push(nvals as i64);
        if starts.first().is_some_and(|&s| s != 0) {
            return Err(invalid_arg!(
                "row_starts must start with 0, but starts with {}",
                starts[0]
            ));
        }
        Self::from_row_splits(splits, Some(nvals))
            .map_err(|e| Exception::new(e.class, format!("invalid row_starts: {}", e.message)))
    }

    /// From the end of each row; rows start where the previous ended, the first at 0.
    pub fn from_row_limits(limits: &[i64], nvals: usize) -> Result<Self> {
        let mut splits = budget::vec("a row partition", limits.len() + 1)?;
        splits.push(0);
        splits.extend_from_slice(limits);
        Self::from_row_splits(splits, Some(nvals))
            .map_err(|e| Exception::new(e.class, format!("invalid row_limits: {}", e.message)))
    }

    /// Rows of one fixed length over `nvals` values (`nrows` needed only when the length is 0).
    pub fn from_uniform_row_length(length: i64, nvals: usize, nrows: Option<i64>) -> Result<Self> {
        if length < 0 {
            return Err(value_error!(
                "uniform_row_length must be non-negative, not {length}"
            ));
        }
        if let Some(n) = nrows.filter(|&n| n < 0) {
            return Err(value_error!("nrows must be non-negative, not {n}"));
        }
        let nrows = if length == 0 {
            nrows.unwrap_or(0)
        } else {
            if nvals as i64 % length != 0 {
                return Err(value_error!(
                    "{nvals} values cannot be split into rows of length {length}"
                ));
            }
            let n = nvals as i64 / length;
            if let Some(given) = nrows.filter(|&given| given != n) {
                return Err(value_error!(
                    "nrows is {given}, but {nvals} values in rows of length {length} make {n} rows"
                ));
            }
            n
        };
        let mut splits = budget::vec("a row partition", crate::size::add(nrows as usize, 1)?)?;
        splits.extend((0..=nrows).map(|i| i * length));
        Ok(Self::build(splits, Some(length)))
    }

    /// The canonical encoding: `nrows + 1` offsets.
    pub fn row_splits(&self) -> &[i64] {
        &self.inner.splits
    }
    /// Number of rows.
    pub fn nrows(&self) -> usize {
        self.inner.splits.len() - 1
    }
    /// Number of values partitioned.
    pub fn nvals(&self) -> usize {
        *self.inner.splits.last().unwrap_or(&0) as usize
    }
    /// Set when every row has this length (a uniform dimension).
    pub fn uniform_row_length(&self) -> Option<i64> {
        self.inner.uniform_row_length
    }
    /// The length of each row (cached).
    pub fn row_lengths(&self) -> &[i64] {
        self.inner
            .lengths
            .get_or_init(|| self.inner.splits.windows(2).map(|w| w[1] - w[0]).collect())
    }
    /// The row of each value (cached).
    pub fn value_rowids(&self) -> &[i64] {
        self.inner.rowids.get_or_init(|| {
            // One id per existing value.
            let mut ids = Vec::new();
            for (r, w) in self.inner.splits.windows(2).enumerate() {
                ids.extend(std::iter::repeat_n(r as i64, (w[1] - w[0]) as usize));
            }
            ids
        })
    }
    /// Where each row starts.
    pub fn row_starts(&self) -> &[i64] {
        &self.inner.splits[..self.nrows()]
    }
    /// Where each row ends.
    pub fn row_limits(&self) -> &[i64] {
        &self.inner.splits[1..]
    }
    /// The value range of row `i`.
    pub fn row_range(&self, i: usize) -> (usize, usize) {
        (
            self.inner.splits[i] as usize,
            self.inner.splits[i + 1] as usize,
        )
    }
    /// The longest row's length (0 when there are no rows).
    pub fn max_row_length(&self) -> usize {
        if let Some(u) = self.inner.uniform_row_length {
            return if self.nrows() == 0 { 0 } else { u as usize };
        }
        self.inner
            .splits
            .windows(2)
            .map(|w| (w[1] - w[0]) as usize)
            .max()
            .unwrap_or(0)
    }
    /// The shortest row's length.
    pub fn min_row_length(&self) -> usize {
        self.inner
            .splits
            .windows(2)
            .map(|w| (w[1] - w[0]) as usize)
            .min()
            .unwrap_or(0)
    }
    /// The dtype of the row-partitioning tensors (int64 or int32).
    pub fn splits_dtype(&self) -> DType {
        if self.inner.int32 {
            DType::Int32
        } else {
            DType::Int64
        }
    }
    /// This partition, showing its row-partitioning tensors as `dtype` (int32 or int64).
    pub fn with_splits_dtype(mut self, dtype: DType) -> Self {
        let int32 = dtype == DType::Int32;
        if self.inner.int32 != int32 {
            Arc::make_mut(&mut self.inner).int32 = int32;
        }
        self
    }
    /// A row-partitioning vector (splits, lengths, ids, ...) as a tensor of this
    /// partition's splits dtype.
    pub fn index_tensor(&self, v: Vec<i64>) -> Tensor {
        index_tensor(v, self.splits_dtype())
    }
    /// This partition, marked uniform when every row has the same length.
    pub fn with_uniform(mut self, length: Option<i64>) -> Self {
        if self.inner.uniform_row_length != length {
            Arc::make_mut(&mut self.inner).uniform_row_length = length;
        }
        self
    }
}

#[cfg(test)]
mod tests {
    use super::RowPartition;

    #[test]
    fn row_lengths_past_the_largest_int64_are_refused_however_far_they_wrap() {
        let m = i64::MAX;
        for lengths in [
            vec![m, 1],
            vec![m, m],
            vec![m, m, m, 3],
            vec![m, m, 2, m, m, 1],
        ] {
            let e = RowPartition::from_row_lengths(&lengths, None).unwrap_err();
            assert!(e.to_string().contains("largest int64"), "{lengths:?}: {e}");
        }
        let e = RowPartition::from_row_lengths(&[m, m, -1], None).unwrap_err();
        assert!(e.to_string().contains("row_lengths[2] = -1"), "{e}");
        let p = RowPartition::from_row_lengths(&[m - 1, 1, 0], Some(m as usize)).unwrap();
        assert_eq!(p.row_splits(), &[0, m - 1, m, m]);
    }
}
