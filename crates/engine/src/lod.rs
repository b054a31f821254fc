//! Paddle's LoDTensor: a dense data block whose rows are grouped into sequences by one or
//! more levels of offsets (the "level of detail").
//!
//! Level `k`'s offsets are exactly the `row_splits` of ragged dimension `k`: a LoD tensor
//! is a ragged tensor whose flat values are the data block, which is how the two convert.

use super::error::Result;
use super::partition::RowPartition;
use super::ragged::Ragged;
use super::tensor::Tensor;
use crate::budget;
use crate::size::dense_shape_str;
use crate::value_error;

/// A LoD tensor: `lod[k]` are offsets (like row_splits) into the next level, the last
/// level's offsets index rows of `data`.
#[derive(Debug, Clone, PartialEq)]
pub struct Lod {
    data: Tensor,
    lod: Vec<Vec<i64>>,
}

impl Lod {
    /// A LoD tensor from data and offset levels; a ValueError says which level does not fit.
    pub fn new(data: Tensor, lod: Vec<Vec<i64>>) -> Result<Lod> {
        if data.rank() == 0 {
            return Err(value_error!(
                "a LoDTensor's data must have rank 1 or more: its rows are what the sequences group"
            ));
        }
        let t = Lod { data, lod };
        t.check()?;
        Ok(t)
    }

    /// A LoD tensor from the lengths form (`recursive_seq_lens`): level `k` lists the length
    /// of each sequence, counted in sequences of level `k + 1` (rows of data at the last).
    pub fn from_lengths(data: Tensor, lens: &[Vec<i64>]) -> Result<Lod> {
        let mut lod = budget::vec("a LoD tensor", lens.len())?;
        for (k, level) in lens.iter().enumerate() {
            if let Some(i) = level.iter().position(|&l| l < 0) {
                return Err(value_error!(
                    "recursive_seq_lens[{k}][{i}] is {}: sequence lengths cannot be negative",
                    level[i]
                ));
            }
            let mut offsets = budget::vec("a LoD tensor", level.len() + 1)?;
            offsets.push(0);
            let mut acc = 0i64;
            for &l in level {
                acc += l;
                offsets.push(acc);
            }
            lod.push(offsets);
        }
        Lod::new(data, lod)
    }

    /// Checks every level, naming the first that does not fit (offsets start at 0, never
    /// decrease, and end where the next level — or the data — ends).
    pub fn check(&self) -> Result<()> {
        let rows = self.rows() as i64;
        for (k, level) in self.lod.iter().enumerate() {
            if level.len() < 2 {
                let level = dense_shape_str(level);
                return Err(value_error!(
                    "lod level {k} is {level}: a level needs at least one sequence, so two offsets (Paddle has no empty levels)"
                ));
            }
            if level[0] != 0 {
                let level = dense_shape_str(level);
                return Err(value_error!(
                    "lod level {k} is {level}: offsets must start at 0"
                ));
            }
            if let Some(i) = level.windows(2).position(|w| w[1] < w[0]) {
                return Err(value_error!(
                    "lod level {k} is {}: offsets never decrease, but {} follows {}",
                    dense_shape_str(level),
                    level[i + 1],
                    level[i]
                ));
            }
            let end = level[level.len() - 1];
            let (next, what) = match self.lod.get(k + 1) {
                Some(n) => (
                    n.len() as i64 - 1,
                    format!("level {} has {} sequences", k + 1, n.len() - 1),
                ),
                None => (
                    rows,
                    format!(
                        "the data has {rows} rows (shape {})",
                        dense_shape_str(self.data.shape())
                    ),
                ),
            };
            if end != next {
                let lens: Vec<i64> = level.windows(2).map(|w| w[1] - w[0]).collect();
                let (level, lens) = (dense_shape_str(level), dense_shape_str(&lens));
                return Err(value_error!(
                    "the lod does not match the data: level {k} (offsets {level}, lengths {lens}) ends at {end}, but {what}"
                )
                .with_hint("the last level's lengths must add up to the number of data rows, and each level's to the number of sequences in the next"));
            }
        }
        Ok(())
    }
    /// True when every level fits (always, for a tensor built through [`Lod::new`]).
    pub fn is_valid(&self) -> bool {
        self.check().is_ok()
    }
    /// The data block.
    pub fn data(&self) -> &Tensor {
        &self.data
    }
    /// Number of data rows.
    pub fn rows(&self) -> usize {
        self.data.shape().first().copied().unwrap_or(0)
    }
    /// The offset levels, outermost first.
    pub fn lod(&self) -> &[Vec<i64>] {
        &self.lod
    }
    /// The lengths form of each level (`recursive_sequence_lengths`).
    pub fn recursive_sequence_lengths(&self) -> Vec<Vec<i64>> {
        self.lod
            .iter()
            .map(|l| l.windows(2).map(|w| w[1] - w[0]).collect())
            .collect()
    }
    /// The same data with new offset levels (`set_lod`).
    pub fn with_lod(&self, lod: Vec<Vec<i64>>) -> Result<Lod> {
        Lod::new(self.data.clone(), lod)
    }
    /// The same data with new lengths (`set_recursive_sequence_lengths`).
    pub fn with_lengths(&self, lens: &[Vec<i64>]) -> Result<Lod> {
        Lod::from_lengths(self.data.clone(), lens)
    }

    /// The ragged tensor with one ragged dimension per level over the data rows.
    pub fn to_ragged(&self) -> Result<Ragged> {
        if self.lod.is_empty() {
            return Err(value_error!(
                "this LoDTensor has no lod levels, so it has no sequences to make rows of: it is just its data"
            )
            .with_hint("np.array(t) gives the data; fluid.create_lod_tensor(data, [[lengths…]], place) adds a level"));
        }
        let parts = self
            .lod
            .iter()
            .map(|l| RowPartition::from_row_splits(l.clone(), None))
            .collect::<Result<Vec<_>>>()?;
        Ragged::new(parts, self.data.clone())
    }
    /// The LoD tensor of a ragged tensor: its row_splits become the levels, its flat values
    /// the data. Paddle has no level without sequences, so a ragged tensor with no rows fails.
    pub fn from_ragged(r: &Ragged) -> Result<Lod> {
        Lod::new(
            r.flat_values().clone(),
            r.partitions()
                .iter()
                .map(|p| p.row_splits().to_vec())
                .collect(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Buffer, ExceptionClass};

    fn column(n: usize) -> Tensor {
        Tensor::new(vec![n, 1], Buffer::F64((0..n).map(|i| i as f64).collect())).unwrap()
    }

    #[test]
    fn lengths_become_offsets() {
        let b = Lod::from_lengths(column(7), &[vec![2, 0, 3], vec![1, 2, 1, 0, 3]]).unwrap();
        assert_eq!(b.lod(), &[vec![0, 2, 2, 5], vec![0, 1, 3, 4, 4, 7]]);
        assert_eq!(
            b.recursive_sequence_lengths(),
            vec![vec![2, 0, 3], vec![1, 2, 1, 0, 3]]
        );
    }

    #[test]
    fn bad_lengths_say_why() {
        let e = Lod::from_lengths(column(3), &[vec![1, 1]]).unwrap_err();
        assert_eq!(e.class, ExceptionClass::ValueError);
        assert!(
            e.message
                .contains("lengths [1, 1]) ends at 2, but the data has 3 rows"),
            "{}",
            e.message
        );
        let e = Lod::from_lengths(column(3), &[vec![1, 1], vec![1, 1, 1]]).unwrap_err();
        assert!(
            e.message.contains("level 1 has 3 sequences"),
            "{}",
            e.message
        );
        assert!(Lod::from_lengths(column(3), &[vec![-1, 4]]).is_err());
        assert!(Lod::new(column(3), vec![vec![0]]).is_err());
    }

    #[test]
    fn ragged_round_trip() {
        let b = Lod::from_lengths(column(7), &[vec![2, 0, 3], vec![1, 2, 1, 0, 3]]).unwrap();
        let r = b.to_ragged().unwrap();
        assert_eq!(r.ragged_rank(), 2);
        assert_eq!(r.nrows(), 3);
        assert_eq!(Lod::from_ragged(&r).unwrap(), b);
        assert!(Lod::new(column(2), vec![]).unwrap().to_ragged().is_err());
    }
}
