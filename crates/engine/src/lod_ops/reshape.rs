//! Ops that keep each sequence in place but rearrange its rows: `sequence_reverse`,
//! `sequence_reshape` and `sequence_enumerate`.

use super::{lengths, one_level, output};
use crate::buffer::Buffer;
use crate::error::Result;
use crate::exceptions::ExceptionClass;
use crate::lod::Lod;
use crate::size::dense_shape_str;
use crate::tensor::Tensor;
use crate::{budget, value_error};

/// `sequence_reverse(x)`: the rows of each sequence in reverse order; the LoD is kept.
/// Paddle takes exactly one level and data of rank 2 or more.
pub fn sequence_reverse(x: &Lod) -> Result<Lod> {
    let op = "sequence_reverse";
    if x.data().rank() < 2 {
        return Err(value_error!(
            "{op} needs data of rank 2 or more, but the data has shape {}",
            dense_shape_str(x.data().shape())
        )
        .with_hint("reshape the data to [N, 1]"));
    }
    let level = one_level(x, op, ExceptionClass::RuntimeError)?;
    let mut rows = budget::vec("sequence_reverse's output", x.rows())?;
    for w in level.windows(2) {
        rows.extend((w[0] as usize..w[1] as usize).rev());
    }
    output(x.data().gather_rows(&rows), x.lod().to_vec())
}

/// `sequence_reshape(x, new_dim)`: the data (rank 2, one level) read with rows of
/// `new_dim` values; each sequence keeps its values, so its length becomes
/// `length * width / new_dim`, which must be whole for every sequence.
pub fn sequence_reshape(x: &Lod, new_dim: i64) -> Result<Lod> {
    let op = "sequence_reshape";
    let data = x.data();
    if data.rank() != 2 {
        return Err(value_error!(
            "{op} takes data of rank 2, but the data has shape {}",
            dense_shape_str(data.shape())
        ));
    }
    if new_dim <= 0 {
        return Err(value_error!(
            "new_dim is {new_dim}: rows need at least one value"
        ));
    }
    let level = one_level(x, op, ExceptionClass::RuntimeError)?;
    let (width, new_dim) = (data.shape()[1] as i64, new_dim);
    let mut offsets = budget::vec("sequence_reshape's LoD", level.len())?;
    for (i, &o) in level.iter().enumerate() {
        if (o * width) % new_dim != 0 {
            let len = if i == 0 { 0 } else { o - level[i - 1] };
            return Err(value_error!(
                "sequence {} has {len} rows of {width} values, which do not make whole rows of {new_dim}",
                i.saturating_sub(1)
            )
            .with_hint("every sequence's length * width must be divisible by new_dim"));
        }
        offsets.push(o * width / new_dim);
    }
    let rows = data.size() / new_dim as usize;
    output(data.reshaped(vec![rows, new_dim as usize])?, vec![offsets])
}

/// `sequence_enumerate(x, win_size, pad_value)`: for each row of a 1-level sequence of ids
/// (shape [N, 1]), the `win_size` ids starting there, padded with `pad_value` past the
/// sequence's end; shape [N, win_size], same LoD.
pub fn sequence_enumerate(x: &Lod, win_size: i64, pad_value: i64) -> Result<Lod> {
    let op = "sequence_enumerate";
    let data = x.data();
    if data.rank() != 2 {
        return Err(value_error!(
            "{op} takes ids of shape [N, 1], but the data has shape {}",
            dense_shape_str(data.shape())
        ));
    }
    if data.shape()[1] != 1 {
        return Err(value_error!(
            "{op} takes one id per row (shape [N, 1]), but the data has shape {}",
            dense_shape_str(data.shape())
        ));
    }
    if win_size < 2 {
        return Err(value_error!(
            "win_size is {win_size}: {op} needs windows of 2 or more ids"
        ));
    }
    let level = match x.lod() {
        [] => return Err(super::no_lod(op, ExceptionClass::ValueError)),
        [level] => level,
        levels => {
            return Err(value_error!(
                "{op} reads one level of sequences, but this LoDTensor has {} (lod {})",
                levels.len(),
                super::levels_str(levels)
            ))
        }
    };
    let ids = super::ints(data, "sequence_enumerate's input")?;
    let win = win_size as usize;
    let n = budget::check_shape("sequence_enumerate's output", &[ids.len(), win], 8)?;
    let mut out = budget::vec("sequence_enumerate's output", n)?;
    let mut start = 0usize;
    for len in lengths(level) {
        let end = start + len;
        for i in start..end {
            out.extend((i..i + win).map(|j| if j < end { ids[j] } else { pad_value }));
        }
        start = end;
    }
    let out = crate::ops::cast::cast_buffer(&Buffer::from(out), data.dtype())?;
    output(
        Tensor::from_parts(vec![ids.len(), win], out),
        x.lod().to_vec(),
    )
}
