//! `sequence_scatter`: add each sequence of updates into one row of a dense tensor.

use crate::buffer::Buffer;
use crate::error::Result;
use crate::lod::Lod;
use crate::size::dense_shape_str;
use crate::tensor::Tensor;
use crate::{index_error, type_error, value_error};

/// `sequence_scatter(x, index, updates)`: a copy of `x` where, for each sequence i of
/// `index` (level 0), `updates[j]` is added at position `index[j]` of row i (positions
/// count the elements of a row, flattened); repeated positions add up. `updates` has one
/// value per id; its own LoD is not read (Paddle ignores it too).
///
/// Paddle reads the ids as int64 and checks neither them nor the number of sequences:
/// an id past the end of a row writes into the next row, or past the data. ragtag raises
/// an IndexError instead.
pub fn sequence_scatter(x: &Tensor, index: &Lod, updates: &Lod) -> Result<Tensor> {
    let op = "sequence_scatter";
    let Some(level) = index.lod().first() else {
        return Err(value_error!(
            "{op} reads the sequences of index, but index has no LoD (lod [])"
        )
        .with_hint("sequence i of index lists the positions updated in row i of x"));
    };
    if x.rank() == 0 {
        return Err(value_error!("{op} updates rows of x, but x is a scalar"));
    }
    let ids = super::ints(index.data(), "index")?;
    let n_ids = index.rows();
    if index.data().size() != n_ids {
        return Err(value_error!(
            "index must hold one id per row (shape [N, 1]), but it has shape {}",
            dense_shape_str(index.data().shape())
        ));
    }
    if updates.data().size() != n_ids {
        return Err(value_error!(
            "updates must hold one value per id: index has shape {}, updates shape {}",
            dense_shape_str(index.data().shape()),
            dense_shape_str(updates.data().shape())
        ));
    }
    if updates.data().dtype() != x.dtype() {
        return Err(value_error!(
            "updates are {} but x is {}: Paddle reads them as x's dtype",
            updates.data().dtype().name(),
            x.dtype().name()
        ));
    }
    let nseq = level.len() - 1;
    let row = x.row_size();
    if nseq > x.shape()[0] {
        return Err(index_error!(
            "index has {nseq} sequences but x has {} rows: sequence i updates row i",
            x.shape()[0]
        ));
    }
    let mut targets = crate::budget::vec("sequence_scatter's positions", n_ids)?;
    for (i, w) in level.windows(2).enumerate() {
        let (start, end) = (w[0] as usize, w[1] as usize);
        for (j, &id) in ids.iter().enumerate().take(end).skip(start) {
            if id < 0 || id >= row as i64 {
                return Err(index_error!(
                    "index[{j}] is {id}, but the rows of x have {row} positions (0 to {})",
                    row as i64 - 1
                )
                .with_hint(
                    "Paddle does not check this: it writes into the next row or past the data",
                ));
            }
            targets.push((j, i * row + id as usize));
        }
    }
    let out = crate::dispatch!(numbers pair (x.data(), updates.data().data()), (xv, uv) => {
        let mut out = xv.to_vec();
        for &(j, at) in &targets {
            out[at] = out[at].plus(uv[j]);
        }
        Buffer::from(out)
    }, (other, _) => return Err(type_error!(
        "{op} adds numbers, not {}", other.dtype().name()
    )));
    Ok(Tensor::from_parts(x.shape().to_vec(), out))
}
