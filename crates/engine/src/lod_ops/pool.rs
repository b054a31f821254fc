//! `sequence_pool` (and so `sequence_first_step` / `sequence_last_step`) and
//! `sequence_softmax`: both read the last level of the LoD.

use super::{last_level, lengths, output, with_rows};
use crate::budget;
use crate::buffer::Buffer;
use crate::error::Result;
use crate::exceptions::{Exception, ExceptionClass};
use crate::lod::Lod;
use crate::tensor::Tensor;
use crate::{type_error, value_error};

/// How `sequence_pool` reduces each sequence (Paddle's `pooltype` attribute).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PoolType {
    /// The mean of the rows.
    Average,
    /// The sum of the rows.
    Sum,
    /// The sum divided by the square root of the length.
    Sqrt,
    /// The elementwise maximum.
    Max,
    /// The last row.
    Last,
    /// The first row.
    First,
}

impl PoolType {
    /// Paddle's names, in the order its enum check lists them.
    pub const NAMES: [&'static str; 6] = ["MAX", "FIRST", "LAST", "SQRT", "SUM", "AVERAGE"];

    /// The pool type named `name` in any case (Paddle's wrapper upper-cases it); Paddle's
    /// enum check raises NotFound, a RuntimeError, for any other name.
    pub fn parse(name: &str) -> Result<PoolType> {
        Ok(match name.to_uppercase().as_str() {
            "AVERAGE" => PoolType::Average,
            "SUM" => PoolType::Sum,
            "SQRT" => PoolType::Sqrt,
            "MAX" => PoolType::Max,
            "LAST" => PoolType::Last,
            "FIRST" => PoolType::First,
            other => {
                return Err(Exception::new(
                    ExceptionClass::RuntimeError,
                    format!(
                        "pool_type '{name}' ({other}) is not one of Paddle's pool types: average, sum, sqrt, max, last, first"
                    ),
                )
                .with_hint("'average' (not 'avg' or 'mean') pools to the mean"))
            }
        })
    }
}

/// `sequence_pool(x, pool_type, is_test, pad_value)`: one row per sequence of the last
/// level, each reduced as `pool` says; an empty sequence gives `pad_value` (which Paddle
/// stores as a float32 attribute). A 2-level input keeps its level 0 as the output's LoD;
/// a 1-level input gives a tensor without LoD.
///
/// Paddle asks for at least as many data rows as sequences, even when the extra sequences
/// are empty, and for rank 2 or more with `max`. `is_test` only decides whether Paddle
/// records the max's position for the gradient, so it changes nothing here.
pub fn sequence_pool(x: &Lod, pool: PoolType, pad_value: f64, _is_test: bool) -> Result<Lod> {
    let op = "sequence_pool";
    let level = last_level(x, op)?;
    if x.lod().len() > 2 {
        return Err(value_error!(
            "{op} takes a LoD of 1 or 2 levels, but this LoDTensor has {} (lod {})",
            x.lod().len(),
            super::levels_str(x.lod())
        ));
    }
    let nseq = level.len() - 1;
    if x.rows() < nseq {
        return Err(value_error!(
            "{op} needs at least as many data rows as sequences: the last level has {nseq} sequences, the data {} rows",
            x.rows()
        )
        .with_hint("Paddle checks this even when the extra sequences are empty"));
    }
    let data = x.data();
    if pool == PoolType::Max && data.rank() < 2 {
        return Err(value_error!(
            "{op} with 'max' needs data of rank 2 or more, but the data has shape {}",
            crate::size::dense_shape_str(data.shape())
        )
        .with_hint("reshape the data to [N, 1]"));
    }
    let width = data.row_size();
    // Paddle's attribute is a float32, then cast to the data's type.
    let pad = pad_value as f32 as f64;
    let out = crate::dispatch!(wide_floats data.data(), T: v => {
        let pad = T::from_f64(pad);
        if width == 1 {
            // One value per row, Paddle's usual layout: each sequence folds to one value,
            // the sequences split over the cores, in the same order of additions as below.
            let base = level[0];
            let out: Vec<T> = crate::interrupt::map_range(nseq, |i| {
                let rows = &v[(level[i] - base) as usize..(level[i + 1] - base) as usize];
                let Some((&first, rest)) = rows.split_first() else {
                    return pad;
                };
                match pool {
                    PoolType::First => first,
                    PoolType::Last => rows[rows.len() - 1],
                    PoolType::Max => rest.iter().fold(first, |m, &x| if x > m { x } else { m }),
                    PoolType::Sum | PoolType::Average | PoolType::Sqrt => {
                        let sum = rest.iter().fold(first, |a, &x| a + x);
                        let n = T::from_f64(rows.len() as f64);
                        match pool {
                            PoolType::Average => sum / n,
                            PoolType::Sqrt => sum / n.sqrt(),
                            _ => sum,
                        }
                    }
                }
            });
            crate::interrupt::check()?;
            Buffer::from(out)
        } else {
        let mut out: Vec<T> = budget::vec("sequence_pool's output", nseq * width)?;
        let mut start = 0usize;
        for len in lengths(level) {
            let rows = &v[start * width..(start + len) * width];
            start += len;
            if len == 0 {
                out.extend(std::iter::repeat_n(pad, width));
                continue;
            }
            match pool {
                PoolType::First => out.extend_from_slice(&rows[..width]),
                PoolType::Last => out.extend_from_slice(&rows[(len - 1) * width..]),
                PoolType::Max => {
                    let at = out.len();
                    out.extend_from_slice(&rows[..width]);
                    for r in rows.chunks(width).skip(1) {
                        for (o, &x) in out[at..].iter_mut().zip(r) {
                            if x > *o {
                                *o = x;
                            }
                        }
                    }
                }
                PoolType::Sum | PoolType::Average | PoolType::Sqrt => {
                    let at = out.len();
                    out.extend_from_slice(&rows[..width]);
                    for r in rows.chunks(width).skip(1) {
                        for (o, &x) in out[at..].iter_mut().zip(r) {
                            *o += x;
                        }
                    }
                    let n = T::from_f64(len as f64);
                    let divisor = match pool {
                        PoolType::Average => n,
                        PoolType::Sqrt => n.sqrt(),
                        _ => T::from_f64(1.0),
                    };
                    if pool != PoolType::Sum {
                        out[at..].iter_mut().for_each(|o| *o /= divisor);
                    }
                }
            }
        }
        Buffer::from(out)
        }
    }, other => return Err(type_error!(
        "{op} pools float32 or float64 data, not {}", other.dtype().name()
    )));
    let lod = if x.lod().len() == 2 {
        vec![x.lod()[0].clone()]
    } else {
        Vec::new()
    };
    output(Tensor::from_parts(with_rows(data.shape(), nseq), out), lod)
}

/// `sequence_softmax(x)`: the softmax of each sequence of the last level, over a data
/// block of one value per row (shape [N] or [N, 1]); the LoD is kept.
///
/// Paddle's kernel takes `exp` of each value as it is, without subtracting the sequence's
/// maximum first, so a value past float32's `exp` range gives NaN as in Paddle.
pub fn sequence_softmax(x: &Lod) -> Result<Lod> {
    let op = "sequence_softmax";
    let level = last_level(x, op)?;
    let data = x.data();
    if data.row_size() != 1 {
        return Err(value_error!(
            "{op} needs one value per row (shape [N] or [N, 1]), but the data has shape {}",
            crate::size::dense_shape_str(data.shape())
        )
        .with_hint("Paddle's softmax runs along each sequence, one value per time step"));
    }
    let out = crate::dispatch!(wide_floats data.data(), T: v => {
        let mut out: Vec<T> = budget::vec("sequence_softmax's output", v.len())?;
        let mut start = 0usize;
        for len in lengths(level) {
            let seq = &v[start..start + len];
            start += len;
            let total = seq.iter().fold(T::from_f64(0.0), |acc, &x| acc + x.exp());
            out.extend(seq.iter().map(|&x| x.exp() / total));
        }
        Buffer::from(out)
    }, other => return Err(type_error!(
        "{op} takes float32 or float64 data, not {}", other.dtype().name()
    )));
    output(
        Tensor::from_parts(data.shape().to_vec(), out),
        x.lod().to_vec(),
    )
}
