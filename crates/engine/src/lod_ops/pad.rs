//! `sequence_pad` (sequences → a padded batch and their lengths) and `sequence_unpad`
//! (back).

use super::{no_lod, offsets_of, output};
use crate::buffer::Buffer;
use crate::error::Result;
use crate::exceptions::ExceptionClass;
use crate::lod::Lod;
use crate::partition::RowPartition;
use crate::ragged::Ragged;
use crate::size::dense_shape_str;
use crate::tensor::Tensor;
use crate::{budget, value_error};

/// Absolute row offsets of level 0 (through the deeper levels, as Paddle's `ToAbsOffset`).
fn row_offsets(x: &Lod) -> Vec<i64> {
    let mut offsets = x.lod()[0].clone();
    for deeper in &x.lod()[1..] {
        offsets = offsets.iter().map(|&o| deeper[o as usize]).collect();
    }
    offsets
}

/// `sequence_pad(x, pad_value, maxlen)`: the sequences of level 0 as a batch of shape
/// `[sequences, maxlen, ...row shape]`, each followed by copies of `pad_value` (one value,
/// or one whole row), and their lengths (int64). `maxlen` None (Paddle's -1) pads to the
/// longest sequence; a given `maxlen` must be at least that long (Paddle's docstring says
/// "greater than", its kernel accepts equal). Neither output has a LoD.
///
/// Level 0 must end at the number of data rows, as Paddle checks, so a 2-level LoD works
/// only when its last level has one row per sequence. When every sequence is empty Paddle
/// divides by zero and dies; ragtag returns a batch of length 0.
pub fn sequence_pad(x: &Lod, pad_value: &Tensor, maxlen: Option<i64>) -> Result<(Lod, Lod)> {
    let op = "sequence_pad";
    if x.lod().is_empty() {
        return Err(no_lod(op, ExceptionClass::ValueError));
    }
    let data = x.data();
    if data.rank() < 2 {
        return Err(value_error!(
            "{op} needs data of rank 2 or more, but the data has shape {}",
            dense_shape_str(data.shape())
        )
        .with_hint("reshape the data to [N, 1]"));
    }
    let level0_end = *x.lod()[0].last().unwrap_or(&0);
    if level0_end != x.rows() as i64 {
        return Err(value_error!(
            "{op} reads level 0 as row offsets, but level 0 ends at {level0_end} and the data has {} rows (lod {})",
            x.rows(),
            super::levels_str(x.lod())
        )
        .with_hint("pad a 1-level LoDTensor; lod_reset(x, target_lod=offsets) makes one"));
    }
    let row_shape = &data.shape()[1..];
    let width = data.row_size();
    if pad_value.size() != 1 && pad_value.shape() != row_shape {
        return Err(value_error!(
            "pad_value must be one value or one row of shape {}, but it has shape {}",
            dense_shape_str(row_shape),
            dense_shape_str(pad_value.shape())
        ));
    }
    if pad_value.dtype() != data.dtype() {
        return Err(value_error!(
            "pad_value is {} but the data is {}: Paddle reads the pad value as the data's dtype",
            pad_value.dtype().name(),
            data.dtype().name()
        )
        .with_hint("make the pad value with the data's dtype, e.g. fluid.layers.assign(np.array([0], dtype=...))"));
    }
    let offsets = row_offsets(x);
    let lens: Vec<usize> = super::lengths(&offsets).collect();
    let longest = lens.iter().copied().max().unwrap_or(0);
    let padded = match maxlen {
        None | Some(-1) => longest,
        Some(m) if m >= longest as i64 => m as usize,
        Some(m) => {
            return Err(value_error!(
                "maxlen is {m}, shorter than the longest sequence ({longest}): {op} pads sequences, it never cuts one"
            )
            .with_hint("leave maxlen out to pad to the longest sequence"))
        }
    };
    let nseq = lens.len();
    let total = budget::check_shape("sequence_pad's output", &[nseq, padded, width], 8)?;
    let mut shape = vec![nseq, padded];
    shape.extend_from_slice(row_shape);
    let length = Tensor::vector(Buffer::from(
        lens.iter().map(|&l| l as i64).collect::<Vec<i64>>(),
    ));
    if pad_value.size() == 1 {
        // One pad value: the sequences are the rows of a ragged tensor padded to a dense
        // one, the kernel TensorFlow's `to_tensor` uses (parallel, interruptible).
        let partition = RowPartition::from_row_splits(offsets, Some(x.rows()))?;
        let rows = Ragged::new(vec![partition], data.clone())?;
        let target: Vec<Option<usize>> = shape.iter().map(|&d| Some(d)).collect();
        let out = rows.to_tensor(&pad_value.data().get(0), Some(&target))?;
        debug_assert_eq!(out.size(), total);
        return Ok((output(out, Vec::new())?, output(length, Vec::new())?));
    }
    // A pad row: the rows of the padded batch are data rows or the pad row (index `rows`
    // of `source`).
    let source = Buffer::concat(data.dtype(), &[data.data(), pad_value.data()])?;
    let mut ranges = budget::vec("sequence_pad's output", nseq * padded)?;
    for (i, &len) in lens.iter().enumerate() {
        let start = offsets[i] as usize;
        ranges.push(((start * width), (start + len) * width));
        for _ in len..padded {
            ranges.push((x.rows() * width, (x.rows() + 1) * width));
        }
    }
    let out = source.gather_ranges(&ranges);
    debug_assert_eq!(out.len(), total);
    Ok((
        output(Tensor::from_parts(shape, out), Vec::new())?,
        output(length, Vec::new())?,
    ))
}

/// `sequence_unpad(x, length)`: the first `length[i]` steps of row i of the padded batch
/// `x` (shape `[batch, maxlen, ...]`), one sequence each; the output's LoD has the lengths.
/// A batch of rank 2 gives rows of one value, shape `[total, 1]`, as Paddle does.
pub fn sequence_unpad(x: &Tensor, length: &Tensor) -> Result<Lod> {
    let op = "sequence_unpad";
    if x.rank() < 2 {
        return Err(value_error!(
            "{op} takes a padded batch of rank 2 or more ([batch, maxlen, ...]), but x has shape {}",
            dense_shape_str(x.shape())
        ));
    }
    let lens = super::ints(length, "length")?;
    let (batch, maxlen) = (x.shape()[0], x.shape()[1]);
    if lens.len() != batch || length.rank() != 1 {
        return Err(value_error!(
            "{op} needs one length per row of x: x has {batch} rows, length has shape {}",
            dense_shape_str(length.shape())
        ));
    }
    if let Some((i, &l)) = lens
        .iter()
        .enumerate()
        .find(|(_, &l)| l < 0 || l > maxlen as i64)
    {
        return Err(value_error!(
            "length[{i}] is {l}, but the rows of x hold sequences of 0 to {maxlen} steps"
        ));
    }
    let step = crate::tensor::numel(&x.shape()[2..]);
    let mut ranges = budget::vec("sequence_unpad's output", batch)?;
    for (i, &l) in lens.iter().enumerate() {
        let start = i * maxlen * step;
        ranges.push((start, start + l as usize * step));
    }
    let total: usize = lens.iter().map(|&l| l as usize).sum();
    let mut shape = vec![total];
    if x.rank() == 2 {
        shape.push(1);
    } else {
        shape.extend_from_slice(&x.shape()[2..]);
    }
    let lens: Vec<usize> = lens.iter().map(|&l| l as usize).collect();
    output(
        Tensor::from_parts(shape, x.data().gather_ranges(&ranges)),
        vec![offsets_of(&lens)?],
    )
}
