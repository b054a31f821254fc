//! String ops (`tf.strings.*`) on dense and ragged string tensors. Every kernel reads one
//! [`StringBuf`] and writes its result into one new buffer; ragged inputs are handled by
//! running the kernel on the flat values and keeping the row partitions.

mod codec;
mod format;
mod hash;
mod join;
mod kernels;
mod ngrams;
mod regexp;
mod split;
mod unicode;

#[cfg(test)]
mod tests;

pub use codec::{decode_base64, decode_raw, encode_base64, fingerprint};
pub use format::{as_string, to_number, write_fixed, AsStringSpec};
pub use hash::{to_hash_bucket, to_hash_bucket_strong, unicode_script};
pub use join::{join, reduce_join};
pub use kernels::{length, lower, strip, substr, to_hash_bucket_fast, upper, CharUnit};
pub use ngrams::{ngrams, NgramSpec};
pub use regexp::{regex_full_match, regex_replace};
pub use split::{bytes_split, split, split_on_bytes};
pub use unicode::{
    decode as unicode_decode, encode as unicode_encode, split_chars as unicode_split,
    transcode as unicode_transcode, DecodeSpec, Encoding, OnError,
};

use std::borrow::Cow;

use super::broadcast;
use crate::budget;
use crate::buffer::Buffer;
use crate::error::Result;
use crate::partition::RowPartition;
use crate::ragged::{Array, Ragged};
use crate::strings::StringBuf;
use crate::tensor::Tensor;
use crate::{invalid_arg, type_error};

/// The string column of `t`, or an error naming the op that needed strings.
pub(crate) fn str_col<'a>(t: &'a Tensor, op: &str) -> Result<&'a StringBuf> {
    match t.data() {
        Buffer::Str(s) => Ok(s),
        other => Err(invalid_arg!(
            "{op} needs a string tensor, but got a {} tensor",
            other.dtype()
        )
        .with_hint("convert numbers to text first with tf.strings.as_string(x)")),
    }
}

/// Applies a kernel to the values of a dense tensor, or to the flat values of a ragged one
/// (which keeps its row partitions).
pub(crate) fn map_values(a: &Array, f: impl FnOnce(&Tensor) -> Result<Tensor>) -> Result<Array> {
    match a {
        Array::Dense(t) => f(t).map(Array::Dense),
        Array::Ragged(r) => r.with_flat_values(f(r.flat_values())?).map(Array::Ragged),
    }
}

/// A tensor with `t`'s shape and new data.
pub(crate) fn same_shape(t: &Tensor, data: Buffer) -> Tensor {
    Tensor::from_parts(t.shape().to_vec(), data)
}

/// Where each element of a broadcast result reads one operand.
#[derive(Debug, Clone)]
pub(crate) enum Pos {
    /// The operand has the result's structure: element `i` reads element `i`.
    Same,
    /// The operand is a scalar: every element reads element 0.
    Zero,
    /// Element `i` reads element `map[i]`.
    Map(Vec<usize>),
}

impl Pos {
    /// The operand element read by result element `i`.
    #[inline]
    pub(crate) fn at(&self, i: usize) -> usize {
        match self {
            Pos::Same => i,
            Pos::Zero => 0,
            Pos::Map(m) => m[i],
        }
    }
}

/// The structure of an n-ary elementwise result and how each operand maps onto it.
pub(crate) struct Broadcast<'a> {
    /// An operand (or a stand-in) with the result's structure; `None` when every operand
    /// is a scalar.
    template: Option<Cow<'a, Array>>,
    /// One entry per operand.
    pub(crate) pos: Vec<Pos>,
}

fn is_scalar(a: &Array) -> bool {
    matches!(a, Array::Dense(t) if t.rank() == 0)
}

/// Same partitions (by row splits) and flat shape, or the same dense shape.
fn same_structure(a: &Array, b: &Array) -> bool {
    match (a, b) {
        (Array::Dense(x), Array::Dense(y)) => x.shape() == y.shape(),
        (Array::Ragged(x), Array::Ragged(y)) => {
            x.flat_values().shape() == y.flat_values().shape()
                && x.partitions().len() == y.partitions().len()
                && x.partitions()
                    .iter()
                    .zip(y.partitions())
                    .all(|(p, q)| p.row_splits() == q.row_splits())
        }
        _ => false,
    }
}

/// Broadcasts any number of dense or ragged operands together, as TensorFlow's ragged
/// elementwise dispatch does: scalars stretch everywhere, equal structures line up
/// element by element, anything else goes through the general broadcaster.
pub(crate) fn broadcast_all<'a>(operands: &[&'a Array]) -> Result<Broadcast<'a>> {
    let mut template: Option<Cow<'a, Array>> = None;
    let mut pos: Vec<Pos> = Vec::new();
    for &a in operands {
        if is_scalar(a) {
            pos.push(Pos::Zero);
            continue;
        }
        let Some(t) = &template else {
            template = Some(Cow::Borrowed(a));
            pos.push(Pos::Same);
            continue;
        };
        if same_structure(t, a) {
            pos.push(Pos::Same);
            continue;
        }
        let mut plan = broadcast::plan(t, a)?;
        let (to_old, to_new) = (
            std::mem::take(&mut plan.pos_a),
            std::mem::take(&mut plan.pos_b),
        );
        for p in pos.iter_mut() {
            *p = match p {
                Pos::Zero => Pos::Zero,
                Pos::Same => Pos::Map(to_old.clone()),
                Pos::Map(m) => Pos::Map(to_old.iter().map(|&i| m[i]).collect()),
            };
        }
        let n = to_old.len();
        pos.push(Pos::Map(to_new));
        // The new structure, with placeholder values: only its shape is used.
        template = Some(Cow::Owned(plan.build(Buffer::from(budget::filled(
            "broadcasting",
            false,
            n,
        )?))?));
    }
    Ok(Broadcast { template, pos })
}

impl Broadcast<'_> {
    /// Number of result elements.
    pub(crate) fn len(&self) -> usize {
        self.template.as_ref().map_or(1, |t| t.flat_values().size())
    }
    /// The result: `data` (one element per result element) in the broadcast structure.
    pub(crate) fn build(&self, data: Buffer) -> Result<Array> {
        let Some(t) = &self.template else {
            return Tensor::new(vec![], data).map(Array::Dense);
        };
        match &**t {
            Array::Dense(d) => Tensor::new(d.shape().to_vec(), data).map(Array::Dense),
            Array::Ragged(r) => {
                let fv = Tensor::new(r.flat_values().shape().to_vec(), data)?;
                r.with_flat_values(fv).map(Array::Ragged)
            }
        }
    }
}

/// The values of an integer tensor (positions, lengths) as i64.
pub(crate) fn int_values(t: &Tensor, what: &str) -> Result<Vec<i64>> {
    t.data()
        .to_i64_vec()
        .filter(|_| t.dtype().is_int())
        .ok_or_else(|| type_error!("{what} must be an int32 or int64 tensor, not {}", t.dtype()))
}

/// A ragged tensor whose rows are `row_lengths` runs of `values`, nested under the uniform
/// dimensions of `outer` (the input's partitions, or its dense dimensions but the last).
pub(crate) fn nest_rows(outer: &Array, row_lengths: &[i64], values: Tensor) -> Result<Array> {
    let split = RowPartition::from_row_lengths(row_lengths, Some(values.shape()[0]))?;
    let mut parts = outer_partitions(outer)?;
    parts.push(split);
    Ragged::new(parts, values).map(Array::Ragged)
}

/// The row partitions that turn a flat run of `outer`'s elements back into its shape:
/// the ragged partitions plus one uniform partition per inner dense dimension.
fn outer_partitions(outer: &Array) -> Result<Vec<RowPartition>> {
    let (mut parts, dense) = match outer {
        Array::Dense(t) => (Vec::new(), t.shape()),
        Array::Ragged(r) => (r.partitions().to_vec(), r.flat_values().shape()),
    };
    // Dense dims after the first become uniform partitions; a ragged tensor's flat values
    // already are its rows, so only their inner dims are added.
    let mut nrows = dense.first().copied().unwrap_or(1);
    for &d in dense.iter().skip(1) {
        parts.push(RowPartition::from_uniform_row_length(
            d as i64,
            nrows * d,
            Some(nrows as i64),
        )?);
        nrows *= d;
    }
    Ok(parts)
}
