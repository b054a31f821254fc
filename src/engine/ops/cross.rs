//! `tf.ragged.cross`: for each row, every combination of one value from each input, joined
//! with `_X_` (the first input varies slowest), as a ragged tensor of strings.

use crate::engine::budget;
use crate::engine::buffer::Buffer;
use crate::engine::error::Result;
use crate::engine::interrupt;
use crate::engine::partition::RowPartition;
use crate::engine::ragged::Ragged;
use crate::engine::strings::StringBuf;
use crate::engine::tensor::Tensor;
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
    match b {
        Buffer::Str(s) => Ok(s.clone()),
        Buffer::I32(_) | Buffer::I64(_) => super::cast::as_string(b),
        other => Err(value_error!(
            "tf.ragged.cross needs string or integer inputs, not {}",
            other.dtype()
        )),
    }
}

/// Crosses the inputs row by row.
pub fn cross(inputs: &[CrossInput]) -> Result<Ragged> {
    let Some(first) = inputs.first() else {
        return Err(value_error!("tf.ragged.cross needs at least one input"));
    };
    let nrows = first.splits.len() - 1;
    for (k, inp) in inputs.iter().enumerate() {
        if inp.splits.len() - 1 != nrows {
            return Err(invalid_arg!(
                "inputs[{k}] has {} rows, but inputs[0] has {nrows}: every input needs the same number of rows",
                inp.splits.len() - 1
            ));
        }
    }
    // The size of the result, checked before anything is built.
    let mut lengths = budget::vec("tf.ragged.cross", nrows)?;
    let mut total: usize = 0;
    for r in 0..nrows {
        let mut n: usize = 1;
        for inp in inputs {
            let len = (inp.splits[r + 1] - inp.splits[r]) as usize;
            n = crate::engine::size::mul(n, len)?;
        }
        lengths.push(n as i64);
        total = crate::engine::size::add(total, n)?;
    }
    budget::check("tf.ragged.cross", total as u128, 16 * inputs.len())?;
    let mut out = StringBuf::try_with_capacity("tf.ragged.cross", total, 0)?;
    let mut counter = budget::filled("tf.ragged.cross", 0usize, inputs.len())?;
    let mut done = 0usize;
    for (r, &n) in lengths.iter().enumerate() {
        counter.iter_mut().for_each(|c| *c = 0);
        for _ in 0..n {
            if done.is_multiple_of(interrupt::CHUNK) {
                interrupt::check()?;
            }
            done += 1;
            out.push_with(|w| {
                for (k, inp) in inputs.iter().enumerate() {
                    if k > 0 {
                        w.bytes(b"_X_");
                    }
                    w.bytes(inp.values.get(inp.splits[r] as usize + counter[k]));
                }
            });
            // Advance the last input fastest.
            for k in (0..inputs.len()).rev() {
                let len = (inputs[k].splits[r + 1] - inputs[k].splits[r]) as usize;
                counter[k] += 1;
                if counter[k] < len {
                    break;
                }
                counter[k] = 0;
            }
        }
    }
    let part = RowPartition::from_row_lengths(&lengths, None)?;
    Ragged::new(vec![part], Tensor::vector(Buffer::Str(out)))
}
