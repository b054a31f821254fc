//! `sequence_expand` and `sequence_expand_as`: repeat the sequences (or rows) of `x` as
//! many times as a level of `y` says.

use super::{lengths, offsets_of, output, with_rows};
use crate::error::Result;
use crate::lod::Lod;
use crate::size::dense_shape_str;
use crate::value_error;

/// `sequence_expand(x, y, ref_level)`: sequence i of `x` (row i, when `x` has no LoD) is
/// repeated as many times as sequence i of level `ref_level` of `y` is long (-1: the last
/// level). `x` has at most one level; with one, the output's LoD lists each copy as a
/// sequence, without one the output has no LoD.
pub fn sequence_expand(x: &Lod, y: &Lod, ref_level: i64) -> Result<Lod> {
    let op = "sequence_expand";
    if x.data().rank() < 2 {
        return Err(value_error!(
            "{op} needs x of rank 2 or more, but x has shape {}",
            dense_shape_str(x.data().shape())
        )
        .with_hint("reshape x to [N, 1]"));
    }
    if x.lod().len() > 1 {
        return Err(value_error!(
            "{op} takes x with at most one level of sequences, but x has {} (lod {})",
            x.lod().len(),
            super::levels_str(x.lod())
        ));
    }
    let levels = y.lod().len();
    if levels == 0 {
        return Err(value_error!(
            "{op} repeats x by the sequence lengths of y, but y has no LoD (lod [])"
        )
        .with_hint("y must be a LoDTensor with sequences: its lengths are the repeat counts"));
    }
    if ref_level != -1 && !(0..levels as i64).contains(&ref_level) {
        return Err(value_error!(
            "ref_level is {ref_level}, but y has {levels} level{}: it must be -1 (the last) or in [0, {levels})",
            if levels == 1 { "" } else { "s" }
        ));
    }
    let level = if ref_level == -1 {
        levels - 1
    } else {
        ref_level as usize
    };
    let refs = &y.lod()[level];
    let repeats: Vec<usize> = lengths(refs).collect();
    // The sequences of x: its level, or one row each.
    let x_offsets: Vec<i64> = match x.lod().first() {
        Some(l) => {
            if l.len() != refs.len() {
                return Err(value_error!(
                    "x has {} sequences but level {level} of y has {}: {op} repeats sequence i of x by the length of sequence i of y",
                    l.len() - 1,
                    refs.len() - 1
                ));
            }
            l.clone()
        }
        None => {
            if x.rows() != repeats.len() {
                return Err(value_error!(
                    "x has no LoD, so each of its {} rows is repeated, but level {level} of y has {} sequences: one per row is needed",
                    x.rows(),
                    repeats.len()
                )
                .with_hint("give x one row per sequence of y's level, or a LoD with as many sequences"));
            }
            (0..=x.rows() as i64).collect()
        }
    };
    let seq = |i: usize| (x_offsets[i] as usize, x_offsets[i + 1] as usize);
    let total: u128 = (0..repeats.len())
        .map(|i| repeats[i] as u128 * (seq(i).1 - seq(i).0) as u128)
        .sum();
    crate::budget::check(
        "sequence_expand's output",
        total,
        x.data().row_size().max(1) * 8,
    )?;
    let mut rows = crate::budget::vec("sequence_expand's output", total as usize)?;
    let mut out_lens = crate::budget::vec("sequence_expand's LoD", repeats.iter().sum())?;
    for (i, &n) in repeats.iter().enumerate() {
        let (s, e) = seq(i);
        for _ in 0..n {
            rows.extend(s..e);
            out_lens.push(e - s);
        }
    }
    let lod = if x.lod().is_empty() {
        Vec::new()
    } else {
        vec![offsets_of(&out_lens)?]
    };
    output(x.data().gather_rows(&rows), lod)
}

/// `sequence_expand_as(x, y)`: row i of `x` repeated as many times as sequence i of `y`
/// (which has exactly one level) is long; the output takes `y`'s LoD. The LoD of `x`, if
/// any, plays no part.
pub fn sequence_expand_as(x: &Lod, y: &Lod) -> Result<Lod> {
    let op = "sequence_expand_as";
    if x.data().rank() < 2 {
        return Err(value_error!(
            "{op} needs x of rank 2 or more, but x has shape {}",
            dense_shape_str(x.data().shape())
        )
        .with_hint("reshape x to [N, 1]"));
    }
    let [level] = y.lod() else {
        return Err(value_error!(
            "{op} takes y with exactly one level of sequences, but y has {} (lod {})",
            y.lod().len(),
            super::levels_str(y.lod())
        )
        .with_hint("y's sequence lengths are the repeat counts of x's rows"));
    };
    let nseq = level.len() - 1;
    if x.rows() != nseq {
        return Err(value_error!(
            "x has {} rows but y has {nseq} sequences: {op} repeats row i of x by the length of sequence i of y",
            x.rows()
        ));
    }
    let mut rows = crate::budget::vec("sequence_expand_as's output", y.rows())?;
    for (i, n) in lengths(level).enumerate() {
        rows.extend(std::iter::repeat_n(i, n));
    }
    let data = x.data().gather_rows(&rows);
    debug_assert_eq!(data.shape(), &with_rows(x.data().shape(), rows.len())[..]);
    output(data, vec![level.clone()])
}
