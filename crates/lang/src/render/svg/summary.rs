//! The picture of a value too large to draw cell by cell: its head and tail rows as strips
//! of values, and a histogram of its row lengths — the shape of the raggedness, which is
//! the first thing to know about real data. One pass over the outer splits; nothing sized
//! by the value is drawn, so a million rows draw as quickly and as small as ten thousand.

use super::canvas::{clip, text_w, Anchor, Canvas};
use crate::render::view::count_text;

/// Rows shown at each end.
const END_ROWS: usize = 3;
/// Values shown per row before `…`: enough to see a row's start in 800 px.
const ROW_VALUES: usize = 10;
/// Most histogram bars: one per length while lengths span at most this many values,
/// else bins of equal width.
const BARS: usize = 40;
/// Histogram size in pixels.
const HIST_W: i64 = 480;
const HIST_H: i64 = 100;

/// A large nesting: the splits of its levels (outermost first) over leaves with texts.
pub struct Large<'a> {
    /// The levels' splits, outermost first.
    pub splits: &'a [&'a [i64]],
    /// Text of a leaf.
    pub leaf_text: &'a dyn Fn(usize) -> String,
    /// What an outer row is called (`row`, `sequence`, `string`).
    pub row: &'a str,
    /// What the leaves are (`values`, `data rows`, `bytes`).
    pub leaves: &'a str,
}

/// The leaf range of outer row `i`, through every level.
fn leaf_range(splits: &[&[i64]], i: usize) -> (usize, usize) {
    let (mut a, mut b) = (i, i + 1);
    for s in splits {
        (a, b) = (s[a] as usize, s[b] as usize);
    }
    (a, b)
}

/// Draws the summary of `large` with its top at `y`.
pub fn draw(c: &mut Canvas, y: i64, large: &Large) {
    let Some(outer) = large.splits.first() else {
        return;
    };
    let n = outer.len().saturating_sub(1);
    let total = match n {
        0 => 0,
        _ => leaf_range(large.splits, n - 1).1 - leaf_range(large.splits, 0).0,
    };
    // Row lengths in one pass: range, sum and empties.
    let (mut lo, mut hi, mut empty) = (i64::MAX, 0i64, 0usize);
    for w in outer.windows(2) {
        let len = w[1] - w[0];
        lo = lo.min(len);
        hi = hi.max(len);
        empty += usize::from(len == 0);
    }
    if n == 0 {
        lo = 0;
    }
    let sum = outer.last().copied().unwrap_or(0);
    let mean = if n == 0 { 0.0 } else { sum as f64 / n as f64 };
    c.text(
        0,
        y + 12,
        &format!(
            "{} {}s, {} {} — too many to draw one by one",
            count_text(n),
            large.row,
            count_text(total),
            large.leaves
        ),
        Anchor::Start,
        "",
    );
    c.text(
        0,
        y + 28,
        &format!(
            "{} lengths {lo}..{hi}, mean {mean:.2}; {} empty",
            large.row,
            count_text(empty)
        ),
        Anchor::Start,
        "small",
    );
    let mut y = y + 44;
    // Head and tail rows, each a strip of its first values.
    let shown: Vec<Option<usize>> = if n <= 2 * END_ROWS {
        (0..n).map(Some).collect()
    } else {
        (0..END_ROWS)
            .map(Some)
            .chain(std::iter::once(None))
            .chain((n - END_ROWS..n).map(Some))
            .collect()
    };
    let label_w = text_w(&format!("{} {} ", large.row, n), false) + 60;
    for r in shown {
        let Some(i) = r else {
            c.text(label_w, y + 14, "⋮", Anchor::Start, "small");
            y += 20;
            continue;
        };
        let (a, b) = leaf_range(large.splits, i);
        c.text(0, y + 16, &format!("{} {i}", large.row), Anchor::Start, "");
        c.text(
            label_w - 8,
            y + 16,
            &format!("len {}", outer[i + 1] - outer[i]),
            Anchor::End,
            "small",
        );
        let mut x = label_w;
        if a == b {
            c.rect(x + 1, y + 2, 28, 20, "empty");
        }
        for k in a..b.min(a + ROW_VALUES) {
            let t = clip(&(large.leaf_text)(k), 8);
            let w = (text_w(&t, false) + 10).max(24);
            c.rect(x + 1, y + 2, w - 2, 20, "cell");
            c.text(x + w / 2, y + 16, &t, Anchor::Mid, "");
            x += w;
        }
        if b - a > ROW_VALUES {
            c.text(
                x + 6,
                y + 16,
                &format!("… {} more", count_text(b - a - ROW_VALUES)),
                Anchor::Start,
                "small",
            );
        }
        y += 26;
    }
    histogram(c, y + 16, outer, lo, hi, large.row);
}

/// Bars of how many rows have each length (or each range of lengths).
fn histogram(c: &mut Canvas, y: i64, outer: &[i64], lo: i64, hi: i64, row: &str) {
    let span = (hi - lo) as usize + 1;
    let bins = span.min(BARS);
    let width = span.div_ceil(bins) as i64;
    let mut counts = [0usize; BARS];
    for w in outer.windows(2) {
        counts[((w[1] - w[0] - lo) / width) as usize] += 1;
    }
    let counts = &counts[..bins];
    let most = counts.iter().copied().max().unwrap_or(0).max(1);
    c.text(
        0,
        y + 12,
        &format!("histogram of {row} lengths"),
        Anchor::Start,
        "",
    );
    let (x0, top) = (70, y + 24);
    let base = top + HIST_H;
    c.text(x0 - 6, top + 8, &count_text(most), Anchor::End, "small");
    c.text(x0 - 6, base, "0", Anchor::End, "small");
    let bw = HIST_W / bins as i64;
    for (b, &n) in counts.iter().enumerate() {
        let h = ((n as f64 / most as f64) * HIST_H as f64).round() as i64;
        let (from, to) = (lo + b as i64 * width, lo + (b as i64 + 1) * width - 1);
        let range = if from == to {
            format!("length {from}")
        } else {
            format!("lengths {from}..{to}")
        };
        let x = x0 + b as i64 * bw;
        if n > 0 {
            c.rect_titled(
                x + 1,
                base - h.max(1),
                bw - 2,
                h.max(1),
                "bar",
                &format!("{range}: {} {row}s", count_text(n)),
            );
        }
    }
    c.line(x0, base, x0 + bw * bins as i64, base, "line");
    c.text(x0, base + 14, &lo.to_string(), Anchor::Start, "small");
    c.text(
        x0 + bw * bins as i64,
        base + 14,
        &hi.to_string(),
        Anchor::End,
        "small",
    );
    c.text(
        x0 + bw * bins as i64 / 2,
        base + 14,
        if width == 1 {
            "length".to_string()
        } else {
            format!("length (bins of {width})")
        }
        .as_str(),
        Anchor::Mid,
        "small",
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leaf_ranges_compose_every_level() {
        let outer: &[i64] = &[0, 2, 3];
        let inner: &[i64] = &[0, 1, 4, 6];
        assert_eq!(leaf_range(&[outer, inner], 0), (0, 4));
        assert_eq!(leaf_range(&[outer, inner], 1), (4, 6));
    }
}
