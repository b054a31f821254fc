//! `sequence_slice`: a sub-sequence of every sequence.

use super::{one_level, output, with_rows};
use crate::error::Result;
use crate::exceptions::ExceptionClass;
use crate::lod::Lod;
use crate::size::dense_shape_str;
use crate::tensor::Tensor;
use crate::{budget, index_error, value_error};

/// One `[N, 1]` column of ints per sequence (`offset`, `length`).
fn per_sequence(t: &Tensor, what: &str, nseq: usize) -> Result<Vec<i64>> {
    if t.rank() != 2 {
        return Err(value_error!(
            "{what} must have shape [{nseq}, 1], one value per sequence, but it has shape {}",
            dense_shape_str(t.shape())
        ));
    }
    if t.shape()[0] != nseq {
        return Err(value_error!(
            "{what} has {} rows but the input has {nseq} sequences: one {what} per sequence (shape [{nseq}, 1])",
            t.shape()[0]
        ));
    }
    super::ints(t, what)
}

/// `sequence_slice(x, offset, length)`: rows `offset[i] .. offset[i] + length[i]` of
/// sequence i, for every sequence of the one level of `x`; `offset` and `length` have shape
/// `[sequences, 1]`. The output's LoD lists the lengths.
pub fn sequence_slice(x: &Lod, offset: &Tensor, length: &Tensor) -> Result<Lod> {
    let op = "sequence_slice";
    let level = one_level(x, op, ExceptionClass::ValueError)?;
    let nseq = level.len() - 1;
    let lens = per_sequence(length, "length", nseq)?;
    let offs = per_sequence(offset, "offset", nseq)?;
    for (t, what) in [(offset, "offset"), (length, "length")] {
        if t.dtype() != crate::DType::Int64 {
            return Err(value_error!(
                "{what} is {}, but Paddle's sequence_slice kernel reads int64 (its Python wrapper lets int32 through)",
                t.dtype().name()
            )
            .with_hint("make offsets and lengths int64, NumPy's default for Python ints"));
        }
    }
    let mut rows = Vec::new();
    let mut out_lens = budget::vec("sequence_slice's LoD", nseq)?;
    for i in 0..nseq {
        let (o, l) = (offs[i], lens[i]);
        if o < 0 {
            return Err(value_error!("offset[{i}] is {o}: offsets start at 0"));
        }
        if l < 0 {
            return Err(value_error!(
                "length[{i}] is {l}: lengths cannot be negative"
            ));
        }
        let seq_len = level[i + 1] - level[i];
        if o + l > seq_len {
            return Err(index_error!(
                "sequence {i} has {seq_len} rows, so offset {o} and length {l} (ending at {}) run past its end",
                o + l
            ));
        }
        rows.push((level[i] + o) as usize..(level[i] + o + l) as usize);
        out_lens.push(l as usize);
    }
    let total: usize = out_lens.iter().sum();
    let mut picked = budget::vec("sequence_slice's output", total)?;
    for r in rows {
        picked.extend(r);
    }
    let data = x.data().gather_rows(&picked);
    debug_assert_eq!(data.shape(), &with_rows(x.data().shape(), total)[..]);
    output(data, vec![super::offsets_of(&out_lens)?])
}
