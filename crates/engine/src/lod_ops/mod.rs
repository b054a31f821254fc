//! Paddle's sequence ops on LoD tensors (`fluid.layers.sequence_*`, `paddle.static.nn.*`),
//! with Paddle 2.6's kernels as the specification: which level each op reads, the LoD it
//! writes, what an empty sequence gives, and which checks fail with which class.
//!
//! Paddle's kernels read one level of offsets each: pooling, first/last step and softmax
//! read the last level (and a 2-level input keeps level 0 as the output's LoD); concat, pad,
//! slice, reverse, reshape and enumerate need exactly one level (concat and pad read level
//! 0); expand reads the level of `y` that `ref_level` names. A Paddle check that fails at
//! run time raises Paddle's class: `ValueError` for InvalidArgument, `RuntimeError` for
//! NotFound, `IndexError` for OutOfRange; the messages here say what was wrong in terms of
//! sequences. Where Paddle does not check at all (an index past a row, a level that does
//! not fit the data) ragtag raises rather than read or write past the data.
//!
//! ```
//! use ragtag_engine::lod_ops::{sequence_pool, PoolType};
//! use ragtag_engine::{Buffer, Lod, Tensor};
//!
//! let data = Tensor::new(vec![5, 1], Buffer::from(vec![1.0f32, 2.0, 3.0, 4.0, 5.0])).unwrap();
//! let x = Lod::from_lengths(data, &[vec![2, 0, 3]]).unwrap();
//! let sums = sequence_pool(&x, PoolType::Sum, 0.0, false).unwrap();
//! assert_eq!(sums.data().data().to_f64_vec().unwrap(), vec![3.0, 0.0, 12.0]);
//! assert!(sums.lod().is_empty());
//! ```

mod concat;
mod expand;
mod mask;
mod pad;
mod pool;
mod reset;
mod reshape;
mod scatter;
mod slice;

#[cfg(test)]
mod tests;

pub use concat::sequence_concat;
pub use expand::{sequence_expand, sequence_expand_as};
pub use mask::sequence_mask;
pub use pad::{sequence_pad, sequence_unpad};
pub use pool::{sequence_pool, sequence_softmax, PoolType};
pub use reset::{lod_append, lod_reset, LodSource};
pub use reshape::{sequence_enumerate, sequence_reshape, sequence_reverse};
pub use scatter::sequence_scatter;
pub use slice::sequence_slice;

use crate::error::Result;
use crate::exceptions::{Exception, ExceptionClass};
use crate::lod::Lod;
use crate::size::dense_shape_str;
use crate::tensor::Tensor;
use crate::value_error;

/// The lengths of the sequences a level of offsets marks.
pub(crate) fn lengths(offsets: &[i64]) -> impl Iterator<Item = usize> + '_ {
    offsets.windows(2).map(|w| (w[1] - w[0]) as usize)
}

/// The last level of `x`, which pooling, first/last step and softmax read; Paddle's
/// InvalidArgument (a ValueError) when `x` has no LoD.
pub(crate) fn last_level<'a>(x: &'a Lod, op: &str) -> Result<&'a [i64]> {
    x.lod()
        .last()
        .map(Vec::as_slice)
        .ok_or_else(|| no_lod(op, ExceptionClass::ValueError))
}

/// The one level `x` must have (`sequence_slice`, `sequence_reverse`, ...): `missing` is the
/// class Paddle raises when there is none, a ValueError names the level count otherwise.
pub(crate) fn one_level<'a>(x: &'a Lod, op: &str, missing: ExceptionClass) -> Result<&'a [i64]> {
    match x.lod() {
        [] => Err(no_lod(op, missing)),
        [level] => Ok(level),
        levels => Err(value_error!(
            "{op} reads exactly one level of sequences, but this LoDTensor has {} (lod {})",
            levels.len(),
            levels_str(levels)
        )
        .with_hint("lod_reset(x, target_lod=offsets) makes a 1-level LoD from offsets")),
    }
}

/// The error for an input without LoD.
pub(crate) fn no_lod(op: &str, class: ExceptionClass) -> Exception {
    Exception::new(
        class,
        format!("{op} needs a LoDTensor with sequences, but this one has no LoD (lod [])"),
    )
    .with_hint(
        "fluid.create_lod_tensor(data, [[lengths…]], fluid.CPUPlace()) groups rows into sequences",
    )
}

/// `[[0, 2, 5], [0, 1, 3, …]]`.
pub(crate) fn levels_str(levels: &[Vec<i64>]) -> String {
    let inner: Vec<String> = levels.iter().map(|l| dense_shape_str(l)).collect();
    format!("[{}]", inner.join(", "))
}

/// A LoD tensor of `data` and `lod`, which the op built to fit.
pub(crate) fn output(data: Tensor, lod: Vec<Vec<i64>>) -> Result<Lod> {
    Lod::new(data, lod)
}

/// Offsets from lengths.
pub(crate) fn offsets_of(lens: &[usize]) -> Result<Vec<i64>> {
    let mut out = crate::budget::vec("a LoD level", lens.len() + 1)?;
    out.push(0i64);
    let mut acc = 0i64;
    for &l in lens {
        acc += l as i64;
        out.push(acc);
    }
    Ok(out)
}

/// The shape of `x` with its first dimension replaced by `rows`.
pub(crate) fn with_rows(shape: &[usize], rows: usize) -> Vec<usize> {
    let mut s = shape.to_vec();
    s[0] = rows;
    s
}

/// The elements of an integer tensor (offsets, lengths, indices); a TypeError otherwise.
pub(crate) fn ints(t: &Tensor, what: &str) -> Result<Vec<i64>> {
    if !t.dtype().is_int() {
        return Err(crate::type_error!(
            "{what} must hold integers, not {}",
            t.dtype().name()
        ));
    }
    t.to_i64_vec()
        .ok_or_else(|| crate::type_error!("{what} must hold integers"))
}
