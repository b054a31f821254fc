//! Ragged and LoD tensors: nested partitions over a flat array — rows as boxes with their
//! row_splits as markers (ragged), sequences as brackets labelled with their lengths and
//! offsets (LoD) — or their summary when they are too large to draw cell by cell.

use super::canvas::{Anchor, Canvas};
use super::levels::{self, Level, Nest, Placed};
use super::summary::{self, Large};
use super::MAX_SLOTS;
use crate::render::cell::{block_text, element_text};
use crate::render::Options;
use ragtag_engine::size::dense_shape_str;
use ragtag_engine::{Lod, Ragged, Tensor};

/// The text of row `i` of `t` (an element for a vector).
fn row_text(t: &Tensor, i: usize) -> String {
    let opts = Options::default();
    if t.rank() <= 1 {
        element_text(t.data(), i, &opts)
    } else {
        block_text(t.data(), &t.shape()[1..], i * t.row_size(), &opts)
    }
}

/// What a nesting over `t`'s rows is drawn as: cell by cell, a summary, or a note that
/// its splits are malformed.
fn nest_or_summary(c: &mut Canvas, y: i64, nest: Nest, large: Large) -> Option<Placed> {
    if !levels::valid(nest.splits, nest.leaves) {
        c.text(
            0,
            y + 14,
            "the offsets do not describe a valid nesting (see check() / is_valid())",
            Anchor::Start,
            "warn",
        );
    } else if levels::slot_count(nest.splits, nest.leaves) > MAX_SLOTS {
        summary::draw(c, y, &large);
    } else {
        return Some(levels::draw(c, y, &nest));
    }
    None
}

/// A ragged tensor below its title at `y`; with `encodings`, the five encodings of each
/// partition under it.
pub fn ragged(c: &mut Canvas, y: i64, r: &Ragged, encodings: bool) {
    let splits: Vec<&[i64]> = r.partitions().iter().map(|p| p.row_splits()).collect();
    let fv = r.flat_values();
    let leaf_text = |i: usize| row_text(fv, i);
    let levels = r
        .partitions()
        .iter()
        .enumerate()
        .map(|(k, p)| match p.uniform_row_length() {
            Some(u) => Level {
                name: format!("dimension {}", k + 1),
                note: format!("uniform {u} · row_splits"),
                uniform: true,
            },
            None => Level {
                name: format!("dimension {}", k + 1),
                note: "ragged · row_splits".into(),
                uniform: false,
            },
        })
        .collect();
    let inner = &fv.shape()[1.min(fv.rank())..];
    let note = if inner.is_empty() {
        format!(
            "{} {}",
            fv.shape().first().copied().unwrap_or(1),
            fv.dtype()
        )
    } else {
        format!("uniform rows of shape {}", dense_shape_str(inner))
    };
    let leaves = fv.shape().first().copied().unwrap_or(1);
    let nest = Nest {
        splits: &splits,
        levels,
        leaf: Level {
            name: "flat_values".into(),
            note,
            uniform: false,
        },
        leaves,
        leaf_text: &leaf_text,
        item_label: None,
        label_w: if encodings {
            super::encodings::LABEL_W
        } else {
            0
        },
        brackets: false,
    };
    let large = Large {
        splits: &splits,
        leaf_text: &leaf_text,
        row: "row",
        leaves: "values",
    };
    if let Some(placed) = nest_or_summary(c, y, nest, large) {
        if encodings {
            super::encodings::draw(c, &placed, &splits, r);
        }
    }
}

/// A LoD tensor below its title at `y`.
pub fn lod(c: &mut Canvas, y: i64, l: &Lod) {
    let splits: Vec<&[i64]> = l.lod().iter().map(|s| s.as_slice()).collect();
    let data = l.data();
    let leaf_text = |i: usize| row_text(data, i);
    let levels = (0..splits.len())
        .map(|k| Level {
            name: format!("lod level {k}"),
            note: "lengths ⌒ · offsets ▾".into(),
            uniform: false,
        })
        .collect();
    let nest = Nest {
        splits: &splits,
        levels,
        leaf: Level {
            name: "data rows".into(),
            note: format!("shape {}", dense_shape_str(data.shape())),
            uniform: false,
        },
        leaves: data.shape().first().copied().unwrap_or(1),
        leaf_text: &leaf_text,
        item_label: None,
        label_w: 0,
        brackets: true,
    };
    if splits.is_empty() {
        // No levels: the data rows alone (a plain tensor with an empty LoD).
        return super::grid::dense(c, y, data);
    }
    let large = Large {
        splits: &splits,
        leaf_text: &leaf_text,
        row: "sequence",
        leaves: "data rows",
    };
    nest_or_summary(c, y, nest, large);
}
