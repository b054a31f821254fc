//! The five encodings of a row partition (`draw(x, encodings=True)`), each number aligned
//! under what it describes: row_splits and row_starts / row_limits at the boundaries they
//! mark, row_lengths under their rows, value_rowids under each value — the guide's figure
//! of one partition in every encoding, drawn for the value at hand.

use super::canvas::{Anchor, Canvas};
use super::levels::Placed;
use ragtag_engine::Ragged;

/// Room for the longest encoding name (`uniform_row_length`, 18 characters) in the label
/// column.
pub const LABEL_W: i64 = 132;
/// Height of one encoding's line.
const LINE: i64 = 16;

/// Draws the encodings of every partition of `r` below the leaf row of `placed`.
pub fn draw(c: &mut Canvas, placed: &Placed, splits: &[&[i64]], r: &Ragged) {
    // Below the leaf row and its indices.
    let mut y = placed.leaf_y + 24 + 26;
    for (k, s) in splits.iter().enumerate() {
        let rows = &placed.lay.items[k];
        let children: Vec<(usize, usize)> = match placed.lay.items.get(k + 1) {
            Some(items) => items.clone(),
            None => placed.lay.leaf_slot.iter().map(|&s| (s, s + 1)).collect(),
        };
        let what = if k + 1 == splits.len() {
            "values"
        } else {
            "rows of the next dimension"
        };
        c.text(
            0,
            y + 12,
            &format!(
                "dimension {}: one partition of {} {what}, in five encodings",
                k + 1,
                children.len()
            ),
            Anchor::Start,
            "small",
        );
        y += 18;
        let bound = |j: usize| match rows.get(j) {
            Some(&(a, _)) => placed.x(a),
            None => rows.last().map_or(placed.x0, |&(_, b)| placed.x(b)),
        };
        let mid = |(a, b): (usize, usize)| (placed.x(a) + placed.x(b)) / 2;
        let mut line = |c: &mut Canvas, name: &str, items: Vec<(i64, i64)>| {
            c.text(0, y + 12, name, Anchor::Start, "");
            for (x, v) in items {
                c.text(x, y + 12, &v.to_string(), Anchor::Mid, "");
            }
            y += LINE;
        };
        line(
            c,
            "row_splits",
            s.iter().enumerate().map(|(j, &v)| (bound(j), v)).collect(),
        );
        line(
            c,
            "row_lengths",
            rows.iter()
                .enumerate()
                .map(|(i, &span)| (mid(span), s[i + 1] - s[i]))
                .collect(),
        );
        let mut ids = Vec::new();
        for i in 0..rows.len() {
            for &child in &children[s[i] as usize..s[i + 1] as usize] {
                ids.push((mid(child), i as i64));
            }
        }
        line(c, "value_rowids", ids);
        line(
            c,
            "row_starts",
            (0..rows.len()).map(|i| (bound(i), s[i])).collect(),
        );
        line(
            c,
            "row_limits",
            (0..rows.len())
                .map(|i| (placed.x(rows[i].1), s[i + 1]))
                .collect(),
        );
        if let Some(u) = r.partitions()[k].uniform_row_length() {
            line(c, "uniform_row_length", vec![(placed.x0 + 8, u)]);
        }
        y += 8;
    }
}
