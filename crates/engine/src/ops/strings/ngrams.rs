//! `tf.strings.ngrams`: the n-grams of the innermost rows of a string tensor, as
//! TensorFlow's StringNGrams kernel builds them (padding, several widths, short rows).

use super::str_col;
use crate::budget;
use crate::buffer::Buffer;
use crate::error::Result;
use crate::interrupt;
use crate::partition::RowPartition;
use crate::ragged::{Array, Ragged};
use crate::size::dense_shape_str;
use crate::strings::{StrWriter, StringBuf};
use crate::tensor::Tensor;
use crate::{invalid_arg, value_error};

/// How to build n-grams.
#[derive(Debug, Clone)]
pub struct NgramSpec {
    /// The n-gram widths, each at least 1; a row's n-grams of each width follow in turn.
    pub widths: Vec<i64>,
    /// What joins the tokens of one n-gram.
    pub separator: Vec<u8>,
    /// The token that pads the start of a row.
    pub left_pad: Vec<u8>,
    /// The token that pads the end of a row.
    pub right_pad: Vec<u8>,
    /// Pad tokens on each side: 0 for none, -1 for `width - 1`; never more than `width - 1`.
    pub pad_width: i64,
    /// A non-empty row too short for any n-gram yields one n-gram of all its tokens.
    pub preserve_short: bool,
}

impl NgramSpec {
    fn pad_for(&self, width: i64) -> i64 {
        let p = if self.pad_width < 0 {
            width - 1
        } else {
            self.pad_width
        };
        p.min(width - 1)
    }
    fn count(&self, len: i64, width: i64) -> i64 {
        let c = len as i128 + 2 * self.pad_for(width) as i128 - width as i128 + 1;
        c.clamp(0, i64::MAX as i128) as i64
    }
    /// The n-grams of each row: per row, (width, count) runs.
    fn plan(&self, len: i64) -> (Vec<(i64, i64)>, i64) {
        let mut runs: Vec<(i64, i64)> = self
            .widths
            .iter()
            .map(|&w| (w, self.count(len, w)))
            .collect();
        let mut total: i64 = runs.iter().fold(0i64, |t, r| t.saturating_add(r.1));
        if self.preserve_short && total == 0 && len > 0 {
            // TensorFlow pads such a row with the raw padding width on each side.
            runs = vec![(
                len.saturating_add(self.pad_width.max(0).saturating_mul(2)),
                1,
            )];
            total = 1;
        }
        (runs, total)
    }

    /// Appends the `num` n-grams of width `width` of one row.
    fn write(&self, row: &[&[u8]], width: i64, num: i64, out: &mut StringBuf) {
        let pad = self.pad_for(width);
        for k in 0..num {
            let left = (pad - k).max(0);
            let right = (pad - (num - (k + 1))).max(0);
            let tokens = width - (left + right);
            let start = if left > 0 { 0 } else { k - pad } as usize;
            out.push_with(|w: &mut StrWriter<'_>| {
                for _ in 0..left {
                    w.bytes(&self.left_pad);
                    w.bytes(&self.separator);
                }
                for n in 0..tokens.max(1) - 1 {
                    w.bytes(row[start + n as usize]);
                    w.bytes(&self.separator);
                }
                if tokens > 0 {
                    w.bytes(row[start + tokens as usize - 1]);
                    for _ in 0..right {
                        w.bytes(&self.separator);
                        w.bytes(&self.right_pad);
                    }
                } else {
                    for _ in 0..right - 1 {
                        w.bytes(&self.right_pad);
                        w.bytes(&self.separator);
                    }
                    w.bytes(&self.right_pad);
                }
            });
        }
    }
}

/// The n-grams of the rows `splits` cuts `col` into, and the new row splits.
fn kernel(col: &StringBuf, splits: &[i64], spec: &NgramSpec) -> Result<(StringBuf, Vec<i64>)> {
    let nrows = splits.len().saturating_sub(1);
    let mut out_splits = budget::vec("tf.strings.ngrams", nrows + 1)?;
    out_splits.push(0i64);
    // An upper bound of the output's bytes, checked before anything is built.
    let longest = |a: usize, b: usize| -> usize {
        (a..b)
            .map(|i| col.get(i).len())
            .max()
            .unwrap_or(0)
            .max(spec.left_pad.len())
            .max(spec.right_pad.len())
    };
    let mut bytes: u128 = 0;
    let mut count: u128 = 0;
    // Like TensorFlow's kernel, no tokens at all means no n-grams, padding or not.
    let nothing = col.is_empty();
    for r in 0..nrows {
        let (a, b) = (splits[r] as usize, splits[r + 1] as usize);
        let (runs, total) = if nothing {
            (Vec::new(), 0)
        } else {
            spec.plan((b - a) as i64)
        };
        // At least one byte per token and separator: the work grows with the width even
        // when the strings are empty.
        let tok = longest(a, b).max(1) as u128;
        let sep = spec.separator.len().max(1) as u128;
        for (w, n) in runs {
            let w = w as u128;
            let each = w.saturating_mul(tok).saturating_add(w.saturating_mul(sep));
            bytes = bytes.saturating_add((n as u128).saturating_mul(each));
        }
        count = count.saturating_add(total as u128);
        budget::check_bytes(
            "tf.strings.ngrams",
            bytes.saturating_add(count.saturating_mul(std::mem::size_of::<usize>() as u128)),
        )?;
        out_splits.push(out_splits[r].saturating_add(total));
    }
    let mut out =
        StringBuf::try_with_capacity("tf.strings.ngrams", count as usize, bytes as usize)?;
    let mut row: Vec<&[u8]> = Vec::new();
    for r in 0..nrows {
        if r % 1024 == 0 {
            interrupt::check()?;
        }
        let (a, b) = (splits[r] as usize, splits[r + 1] as usize);
        row.clear();
        row.extend((a..b).map(|i| col.get(i)));
        let (runs, _) = if nothing {
            (Vec::new(), 0)
        } else {
            spec.plan((b - a) as i64)
        };
        for (w, n) in runs {
            spec.write(&row, w, n, &mut out);
        }
    }
    Ok((out, out_splits))
}

/// `tf.strings.ngrams(data, ...)` on the innermost dimension of `data`: a dense tensor of
/// rank 1 or more stays dense (its last dimension becomes the number of n-grams per row),
/// a ragged tensor gets new innermost rows.
pub fn ngrams(a: &Array, spec: &NgramSpec) -> Result<Array> {
    if spec.widths.iter().any(|&w| w < 1) {
        return Err(value_error!(
            "every ngram_width must be at least 1, but got {}",
            dense_shape_str(&spec.widths)
        ));
    }
    let t = a.flat_values();
    let col = str_col(t, "tf.strings.ngrams")?;
    match a {
        Array::Dense(t) => {
            let Some((&len, outer)) = t.shape().split_last() else {
                return Err(value_error!(
                    "tf.strings.ngrams needs data of rank 1 or more, but got a scalar"
                )
                .with_hint("wrap the tokens in a list: tf.strings.ngrams(['a', 'b', 'c'], 2)"));
            };
            let nrows: usize = outer.iter().product();
            let mut splits = budget::vec("tf.strings.ngrams", nrows + 1)?;
            splits.extend((0..=nrows).map(|r| (r * len) as i64));
            let (out, _) = kernel(col, &splits, spec)?;
            // Every row has the same length, so the same number of n-grams.
            let per_row = if col.is_empty() {
                0
            } else {
                spec.plan(len as i64).1 as usize
            };
            let mut shape = outer.to_vec();
            shape.push(per_row);
            Tensor::new(shape, Buffer::Str(out)).map(Array::Dense)
        }
        Array::Ragged(r) => {
            if t.rank() != 1 {
                return Err(invalid_arg!(
                    "tf.strings.ngrams needs the tokens in the innermost ragged dimension, but this ragged tensor has uniform inner dimensions {}",
                    dense_shape_str(&t.shape()[1..])
                ));
            }
            let parts = r.partitions();
            let last = parts.len() - 1;
            let (out, splits) = kernel(col, parts[last].row_splits(), spec)?;
            let n = out.len();
            let mut new_parts = parts[..last].to_vec();
            new_parts.push(RowPartition::from_row_splits(splits, Some(n))?);
            Ragged::new(new_parts, Tensor::vector(Buffer::Str(out))).map(Array::Ragged)
        }
    }
}
