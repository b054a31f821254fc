//! Nested partitions over one row of cells — the layout shared by ragged tensors (rows as
//! boxes), LoD tensors (sequences as brackets) and string buffers (elements over bytes).
//! Every leaf cell and every empty item gets its own slot, so an empty row is as visible
//! as a full one; an item spans the slots of everything it contains.

use super::canvas::{clip, text_w, Anchor, Canvas};

/// Height of one level's strip of items, and of the split markers with their numbers.
const BAND: i64 = 24;
const MARKS: i64 = 22;
/// Height of a leaf cell.
const CELL_H: i64 = 24;
/// Longest leaf text drawn in a cell, in characters: a cell stays narrow enough that a
/// row of them reads as one array.
pub const CELL_CHARS: usize = 12;

/// Levels of splits, outermost first: level k's splits index level k+1's items and the
/// last level's index the leaves. True when they describe a well-formed nesting (each
/// starts at 0, never decreases and ends at the count of what it splits), which every
/// engine value is but a LoD tensor built by hand may not be.
pub fn valid(levels: &[&[i64]], leaves: usize) -> bool {
    levels.iter().enumerate().all(|(k, s)| {
        let next = match levels.get(k + 1) {
            Some(n) => n.len().saturating_sub(1),
            None => leaves,
        };
        s.first() == Some(&0)
            && s.windows(2).all(|w| w[0] <= w[1])
            && s.last().and_then(|&l| usize::try_from(l).ok()) == Some(next)
    })
}

/// How many slots a valid nesting needs: one per leaf and one per empty item.
pub fn slot_count(levels: &[&[i64]], leaves: usize) -> usize {
    let empties: usize = levels
        .iter()
        .map(|s| s.windows(2).filter(|w| w[0] == w[1]).count())
        .sum();
    leaves.saturating_add(empties)
}

/// Where each item and leaf goes, in slots.
pub struct Layout {
    /// All slots.
    pub slots: usize,
    /// For each level, each item's `[start, end)` slots.
    pub items: Vec<Vec<(usize, usize)>>,
    /// Each leaf's slot.
    pub leaf_slot: Vec<usize>,
}

/// Lays out a valid nesting (see [`valid`]); its size is [`slot_count`], which callers
/// bound before calling.
pub fn layout(levels: &[&[i64]], leaves: usize) -> Layout {
    let mut lay = Layout {
        slots: 0,
        items: levels
            .iter()
            .map(|s| (1..s.len()).map(|_| (0, 0)).collect())
            .collect(),
        leaf_slot: (0..leaves).map(|_| 0).collect(),
    };
    let top = levels.first().map_or(leaves, |s| s.len().saturating_sub(1));
    place(levels, &mut lay, 0, 0, top);
    lay
}

fn place(levels: &[&[i64]], lay: &mut Layout, level: usize, lo: usize, hi: usize) {
    for i in lo..hi {
        let start = lay.slots;
        let Some(s) = levels.get(level) else {
            lay.leaf_slot[i] = start;
            lay.slots += 1;
            continue;
        };
        let (a, b) = (s[i] as usize, s[i + 1] as usize);
        if a == b {
            lay.slots += 1;
        } else {
            place(levels, lay, level + 1, a, b);
        }
        lay.items[level][i] = (start, lay.slots);
    }
}

/// One level's left-hand label and how its items are drawn.
pub struct Level {
    /// What the level is (`dimension 1`).
    pub name: String,
    /// A note under the name (`row_splits ▾`, `uniform 3`).
    pub note: String,
    /// A uniform dimension: its items drawn in the uniform colour.
    pub uniform: bool,
}

/// What to draw: the levels over the leaves.
pub struct Nest<'a> {
    /// The splits of each level, outermost first.
    pub splits: &'a [&'a [i64]],
    /// Labels of each level.
    pub levels: Vec<Level>,
    /// The leaves' label and note.
    pub leaf: Level,
    /// How many leaves.
    pub leaves: usize,
    /// The text of each leaf.
    pub leaf_text: &'a dyn Fn(usize) -> String,
    /// The label inside item `i` of level `k` (its index when `None`).
    pub item_label: Option<&'a dyn Fn(usize, usize) -> String>,
    /// The narrowest the label column may be (room for labels drawn under the leaves).
    pub label_w: i64,
    /// Sequences as brackets labelled with their lengths (LoD) rather than boxes.
    pub brackets: bool,
}

/// Where the slots of a drawn nesting are.
pub struct Placed {
    /// The layout.
    pub lay: Layout,
    /// x of slot 0.
    pub x0: i64,
    /// Width of a slot.
    pub cw: i64,
    /// y of the leaf row's top.
    pub leaf_y: i64,
}

impl Placed {
    /// x of the left edge of `slot`.
    pub fn x(&self, slot: usize) -> i64 {
        self.x0 + slot as i64 * self.cw
    }
}

/// Draws `nest` with its top at `y`; returns where its slots went (the leaf row ends at
/// `leaf_y + 24`, its indices below it).
pub fn draw(c: &mut Canvas, y: i64, nest: &Nest) -> Placed {
    let leaves = nest.leaves;
    let lay = layout(nest.splits, leaves);
    let texts: Vec<String> = (0..leaves)
        .map(|i| clip(&(nest.leaf_text)(i), CELL_CHARS))
        .collect();
    // Slots wide enough for the widest leaf and for the split numbers under them.
    let widest = texts.iter().map(|t| text_w(t, false)).max().unwrap_or(0);
    let cw = (widest + 12).max(30);
    let x0 = nest
        .levels
        .iter()
        .chain(std::iter::once(&nest.leaf))
        .map(|l| text_w(&l.name, false).max(text_w(&l.note, true)))
        .max()
        .unwrap_or(0)
        .max(nest.label_w)
        + 16;
    let mut p = Placed {
        lay,
        x0,
        cw,
        leaf_y: 0,
    };
    let mut y = y;
    for (k, s) in nest.splits.iter().enumerate() {
        let lv = &nest.levels[k];
        c.text(0, y + 12, &lv.name, Anchor::Start, "");
        c.text(0, y + 25, &lv.note, Anchor::Start, "small");
        let items = &p.lay.items[k];
        for (i, &(a, b)) in items.iter().enumerate() {
            let (xa, xb) = (p.x(a), p.x(b));
            let empty = s[i] == s[i + 1];
            let mid = (xa + xb) / 2;
            if nest.brackets {
                let len = (s[i + 1] - s[i]).to_string();
                if empty {
                    c.rect(xa + 3, y + 4, xb - xa - 6, BAND - 8, "empty");
                    c.text(mid, y + 16, &len, Anchor::Mid, "small warn");
                } else {
                    c.text(mid, y + 9, &len, Anchor::Mid, "small");
                    let (l, r) = (xa + 3, xb - 3);
                    c.path(
                        &format!("M{l} {}V{}H{r}V{}", y + 22, y + 13, y + 22),
                        "bracket",
                        r,
                        y + 22,
                    );
                }
            } else {
                let class = if empty {
                    "empty"
                } else if lv.uniform {
                    "uniform"
                } else {
                    "row"
                };
                c.rect(xa + 2, y + 2, xb - xa - 4, BAND - 4, class);
                let text = match nest.item_label {
                    Some(f) => f(k, i),
                    None if empty => format!("∅{i}"),
                    None => i.to_string(),
                };
                // Small text is 6 px a character: what fits inside the box.
                let room = ((xb - xa - 8) / 6).max(0) as usize;
                if room > 0 {
                    c.text(mid, y + 16, &clip(&text, room), Anchor::Mid, "small");
                }
            }
        }
        // The splits: one marker at each item boundary, numbered below.
        let my = y + BAND + 6;
        let bound = |j: usize| match items.get(j) {
            Some(&(a, _)) => p.x(a),
            None => items.last().map_or(p.x0, |&(_, b)| p.x(b)),
        };
        for (j, v) in s.iter().enumerate() {
            let x = bound(j);
            c.marker_down(x, my);
            c.text(x, my + 12, &v.to_string(), Anchor::Mid, "small");
        }
        y += BAND + MARKS;
    }
    c.text(0, y + 16, &nest.leaf.name, Anchor::Start, "");
    c.text(0, y + 29, &nest.leaf.note, Anchor::Start, "small");
    for (i, t) in texts.iter().enumerate() {
        let x = p.x(p.lay.leaf_slot[i]);
        c.rect(x + 1, y + 2, cw - 2, CELL_H - 2, "cell");
        c.text(x + cw / 2, y + 17, t, Anchor::Mid, "");
        c.text(
            x + cw / 2,
            y + CELL_H + 12,
            &i.to_string(),
            Anchor::Mid,
            "small",
        );
    }
    p.leaf_y = y;
    p
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_items_get_a_slot_of_their_own() {
        let outer: &[i64] = &[0, 2, 2, 3];
        let lay = layout(&[outer], 3);
        assert_eq!(lay.slots, 4);
        assert_eq!(lay.items[0], vec![(0, 2), (2, 3), (3, 4)]);
        assert_eq!(lay.leaf_slot, vec![0, 1, 3]);
        assert_eq!(slot_count(&[outer], 3), 4);
    }

    #[test]
    fn nested_levels_span_their_children() {
        let outer: &[i64] = &[0, 2, 3];
        let inner: &[i64] = &[0, 1, 1, 3];
        let lay = layout(&[outer, inner], 3);
        assert_eq!(lay.items[0], vec![(0, 2), (2, 4)]);
        assert_eq!(lay.items[1], vec![(0, 1), (1, 2), (2, 4)]);
    }

    #[test]
    fn malformed_splits_are_refused() {
        assert!(valid(&[&[0, 2, 3]], 3));
        assert!(!valid(&[&[0, 3, 2]], 3));
        assert!(!valid(&[&[1, 3]], 3));
        assert!(!valid(&[&[0, 2]], 3));
        assert!(!valid(&[&[]], 0));
    }
}
