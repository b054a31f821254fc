//! `lod_reset` and `lod_append`: the same data with a new LoD (Paddle's `lod_reset` op;
//! `lod_append` is that op with `append=True`).

use crate::dtype::DType;
use crate::error::Result;
use crate::lod::Lod;
use crate::size::dense_shape_str;
use crate::value_error;

/// Where the new level comes from.
#[derive(Debug, Clone, Copy)]
pub enum LodSource<'a> {
    /// Offsets given as a list (Paddle's `target_lod` attribute).
    Offsets(&'a [i64]),
    /// A tensor `y`: its LoD when it has one (all its levels), else its data, which Paddle
    /// reads as int32 offsets.
    Tensor(&'a Lod),
}

/// `lod_reset(x, y=None, target_lod=None)`: `x`'s data with the LoD of `y`, or with one
/// level of offsets (from `target_lod`, or from `y`'s int32 data when `y` has no LoD).
pub fn lod_reset(x: &Lod, source: LodSource<'_>) -> Result<Lod> {
    new_lod(x, source, false)
}

/// `lod_append(x, level)`: `x`'s LoD with one more level of offsets at the end, which must
/// end at the number of rows. Paddle does not check that the levels still fit each other
/// (the level above must now count the new level's sequences); ragtag does, so a level
/// that does not fit is a ValueError.
pub fn lod_append(x: &Lod, source: LodSource<'_>) -> Result<Lod> {
    new_lod(x, source, true)
}

fn new_lod(x: &Lod, source: LodSource<'_>, append: bool) -> Result<Lod> {
    let rows = x.rows() as i64;
    let level: Vec<i64> = match source {
        LodSource::Tensor(y) if !y.lod().is_empty() => {
            let end = *y.lod().last().and_then(|l| l.last()).unwrap_or(&0);
            if end != rows {
                return Err(value_error!(
                    "y's last level ends at {end}, but x has {rows} rows: the LoD of y must fit the data of x"
                ));
            }
            // Paddle takes all of y's levels, even for lod_append.
            return x.with_lod(y.lod().to_vec());
        }
        LodSource::Tensor(y) => {
            if y.data().dtype() != DType::Int32 {
                return Err(value_error!(
                    "y has no LoD, so its data are the new offsets, which Paddle reads as int32; they are {}",
                    y.data().dtype().name()
                )
                .with_hint("make them with fluid.layers.assign(np.array([0, 2, 5], dtype='int32'))"));
            }
            y.data().to_i64_vec().unwrap_or_default()
        }
        LodSource::Offsets(o) => o.to_vec(),
    };
    let shown = dense_shape_str(&level);
    if level.len() < 2 {
        return Err(value_error!(
            "the new level {shown} needs at least two offsets (one sequence)"
        ));
    }
    if level[0] != 0 {
        return Err(value_error!(
            "the new level {shown} must start at 0: it lists offsets, not lengths"
        )
        .with_hint(format!(
            "as lengths, {shown} is offsets {}",
            dense_shape_str(&lengths_to_offsets(&level))
        )));
    }
    if level[level.len() - 1] != rows {
        return Err(value_error!(
            "the new level {shown} ends at {}, but x has {rows} rows: the last offset is the number of rows",
            level[level.len() - 1]
        ));
    }
    if level.windows(2).any(|w| w[1] < w[0]) {
        return Err(value_error!(
            "the new level {shown} must never decrease: offsets mark where sequences start"
        ));
    }
    let lod = if append {
        let mut lod = x.lod().to_vec();
        lod.push(level);
        lod
    } else {
        vec![level]
    };
    x.with_lod(lod).map_err(|e| {
        if !append {
            return e;
        }
        value_error!(
            "lod_append: {} (Paddle appends it anyway, leaving a LoD whose levels do not fit each other)",
            e.message
        )
        .with_hint("the level above counts the sequences of the new level, so the new level needs as many sequences as the data has rows")
    })
}

fn lengths_to_offsets(lens: &[i64]) -> Vec<i64> {
    std::iter::once(0)
        .chain(lens.iter().scan(0, |acc, &l| {
            *acc += l;
            Some(*acc)
        }))
        .collect()
}
