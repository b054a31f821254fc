//! Shape manipulation of ragged and dense tensors: merging dimensions.

use crate::error::Result;
use crate::partition::RowPartition;
use crate::ragged::{Array, Ragged};

/// Merges dimensions `outer..=inner` into one (`RaggedTensor.merge_dims`).
pub fn merge_dims(a: &Array, outer: usize, inner: usize) -> Result<Array> {
    let mut cur = a.clone();
    for _ in outer..inner {
        cur = merge_pair(&cur, outer)?;
    }
    Ok(cur)
}

/// Merges dimension `k` with dimension `k + 1`.
fn merge_pair(a: &Array, k: usize) -> Result<Array> {
    match a {
        Array::Dense(t) => {
            let mut shape = t.shape().to_vec();
            let merged = shape[k] * shape[k + 1];
            shape.splice(k..=k + 1, [merged]);
            t.reshaped(shape).map(Array::Dense)
        }
        Array::Ragged(r) => {
            let rr = r.ragged_rank();
            let parts = r.partitions();
            if k == 0 {
                // The outer rows disappear: their values become the rows.
                return Ok(r.values());
            }
            if k < rr {
                // Compose partition k-1 (dim k over dim k-1) with partition k.
                let upper = parts[k - 1].row_splits();
                let lower = parts[k].row_splits();
                let splits: Vec<i64> = upper.iter().map(|&s| lower[s as usize]).collect();
                let mut new_parts = parts.to_vec();
                new_parts[k - 1] = RowPartition::from_row_splits(splits, None)?;
                new_parts.remove(k);
                return Ragged::new(new_parts, r.flat_values().clone()).map(Array::Ragged);
            }
            let fv = r.flat_values();
            let fk = k - rr;
            let shape = fv.shape();
            let mut new_shape = shape.to_vec();
            new_shape.splice(fk..=fk + 1, [shape[fk] * shape[fk + 1]]);
            let new_fv = fv.reshaped(new_shape)?;
            let mut new_parts = parts.to_vec();
            if fk == 0 {
                // Rows of the last partition now hold `d` times as many values.
                let d = shape[1] as i64;
                let last = &parts[rr - 1];
                let splits = last.row_splits().iter().map(|s| s * d).collect();
                new_parts[rr - 1] = RowPartition::from_row_splits(splits, None)?
                    .with_uniform(last.uniform_row_length().map(|u| u * d));
            }
            Ragged::new(new_parts, new_fv).map(Array::Ragged)
        }
    }
}
