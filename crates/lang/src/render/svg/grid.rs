//! Grids: a sparse tensor's dense shape with its stored cells filled and the implicit ones
//! hollow, its indices listed beside it (or, when the grid is too large, an occupancy map
//! of where the stored values are); a dense tensor's cells, every one stored.

use super::canvas::{clip, text_w, Anchor, Canvas};
use crate::render::cell::element_text;
use crate::render::grid::head_tail;
use crate::render::view::{count_text, sparse_default};
use crate::render::Options;
use ragtag_engine::sparse::index_text;
use ragtag_engine::{Sparse, Tensor};

/// Most rows and columns drawn cell by cell: a 16 × 16 grid of 40 px cells is about as
/// wide as a notebook.
const MAX_SIDE: usize = 16;
/// Squares per side of an occupancy map.
const MAP_SIDE: usize = 32;
/// Entries of the indices list shown (head and tail).
const LIST_ROWS: usize = 16;
/// Characters of a value shown in a cell.
const CELL_CHARS: usize = 10;
/// Cell height, and the space for column numbers above a grid.
const CELL_H: i64 = 24;
const HEAD: i64 = 16;

/// Rows and columns of a grid drawing of `shape`: the last dimension across, all leading
/// ones flattened down (saturating, so that an absurd shape stays a large one).
fn rows_cols(shape: &[usize]) -> (usize, usize) {
    match shape.split_last() {
        None => (1, 1),
        Some((&cols, lead)) => (lead.iter().fold(1usize, |a, &d| a.saturating_mul(d)), cols),
    }
}

/// The label of flattened row `r`: its index in each leading dimension.
fn row_label(lead: &[usize], r: usize) -> String {
    match lead.len() {
        0 => String::new(),
        1 => r.to_string(),
        _ => {
            let mut idx: Vec<usize> = lead.iter().map(|_| 0).collect();
            let mut rest = r;
            for (k, &d) in lead.iter().enumerate().rev() {
                idx[k] = rest % d.max(1);
                rest /= d.max(1);
            }
            format!("{idx:?}")
        }
    }
}

/// Cells of a grid: each shown row's label and texts (`None` where implicit).
struct Cells {
    labels: Vec<String>,
    cols: usize,
    texts: Vec<Option<String>>,
    /// Cut at the right or at the bottom.
    cut_cols: bool,
    cut_rows: bool,
}

/// Draws `cells` at (`x`, `y`) with `default` in implicit cells; returns the bottom y.
fn draw_cells(c: &mut Canvas, x: i64, y: i64, cells: &Cells, default: &str) -> i64 {
    let lw = cells
        .labels
        .iter()
        .map(|l| text_w(l, true))
        .max()
        .unwrap_or(0)
        + 10;
    let cw = cells
        .texts
        .iter()
        .flatten()
        .map(|t| text_w(t, false))
        .chain([
            text_w(default, false),
            text_w(&cells.cols.to_string(), true),
        ])
        .max()
        .unwrap_or(0)
        + 12;
    let cw = cw.max(30);
    for j in 0..cells.cols {
        let cx = x + lw + j as i64 * cw + cw / 2;
        c.text(cx, y + 11, &j.to_string(), Anchor::Mid, "small");
    }
    let mut yy = y + HEAD;
    for (r, label) in cells.labels.iter().enumerate() {
        c.text(x + lw - 6, yy + 16, label, Anchor::End, "small");
        for j in 0..cells.cols {
            let cx = x + lw + j as i64 * cw;
            match &cells.texts[r * cells.cols + j] {
                Some(t) => {
                    c.rect(cx + 1, yy + 1, cw - 2, CELL_H - 2, "cell");
                    c.text(cx + cw / 2, yy + 16, t, Anchor::Mid, "");
                }
                None => {
                    c.rect(cx + 2, yy + 2, cw - 4, CELL_H - 4, "implicit");
                    c.text(cx + cw / 2, yy + 16, default, Anchor::Mid, "hollow");
                }
            }
        }
        if cells.cut_cols {
            c.text(
                x + lw + cells.cols as i64 * cw + 4,
                yy + 16,
                "…",
                Anchor::Start,
                "small",
            );
        }
        yy += CELL_H;
    }
    if cells.cut_rows {
        c.text(x + lw, yy + 12, "⋮", Anchor::Start, "small");
        yy += 16;
    }
    yy
}

/// A sparse tensor: its title, the grid (or occupancy map), and the indices beside it.
pub fn sparse(c: &mut Canvas, s: &Sparse) {
    let opts = Options::default();
    let shape = s.shape_usize();
    let (rows, cols) = rows_cols(&shape);
    let lead = &shape[..shape.len().saturating_sub(1)];
    let default = sparse_default(s);
    // The flattened cell of entry i, when it lies inside the dense shape.
    let cell_of = |i: usize| -> Option<(usize, usize)> {
        let idx = s.index(i);
        if idx.len() != shape.len()
            || idx
                .iter()
                .zip(&shape)
                .any(|(&x, &d)| x < 0 || x as usize >= d)
        {
            return None;
        }
        let Some((&col, lead_idx)) = idx.split_last() else {
            return Some((0, 0));
        };
        let row = lead_idx.iter().zip(lead).fold(0usize, |a, (&x, &d)| {
            a.saturating_mul(d).saturating_add(x as usize)
        });
        Some((row, col as usize))
    };
    let bottom = if rows <= MAX_SIDE && cols <= MAX_SIDE {
        let mut texts: Vec<Option<String>> = (0..rows * cols).map(|_| None).collect();
        for i in 0..s.nnz() {
            if let Some((r, j)) = cell_of(i) {
                texts[r * cols + j] =
                    Some(clip(&element_text(s.values().data(), i, &opts), CELL_CHARS));
            }
        }
        let cells = Cells {
            labels: (0..rows).map(|r| row_label(lead, r)).collect(),
            cols,
            texts,
            cut_cols: false,
            cut_rows: false,
        };
        c.text(
            0,
            36,
            "stored cells filled, implicit ones hollow (the default)",
            Anchor::Start,
            "small",
        );
        draw_cells(c, 0, 44, &cells, &clip(&default, CELL_CHARS))
    } else {
        occupancy(c, rows, cols, s.nnz(), &cell_of)
    };
    // The indices, listed beside the grid.
    let x = c.w + 24;
    c.text(x, 36, "indices → values", Anchor::Start, "small");
    let mut y = 44 + HEAD;
    for i in head_tail(s.nnz(), LIST_ROWS) {
        let line = match i {
            Some(i) => format!(
                "{} → {}",
                index_text(s.index(i)),
                clip(&element_text(s.values().data(), i, &opts), 16)
            ),
            None => "⋮".into(),
        };
        c.text(x, y + 16, &line, Anchor::Start, "");
        y += 18;
    }
    super::title(
        c,
        &super::header_text(&crate::render::view::sparse_header(s)),
    );
    c.text(
        0,
        bottom.max(y) + 18,
        &format!(
            "{} stored; every other position holds {default}",
            count_text(s.nnz())
        ),
        Anchor::Start,
        "small",
    );
}

/// Where a large sparse tensor's values are: a map of squares, each covering a block of
/// the dense grid, filled when any position in it is stored. Returns the bottom y.
fn occupancy(
    c: &mut Canvas,
    rows: usize,
    cols: usize,
    nnz: usize,
    cell_of: &dyn Fn(usize) -> Option<(usize, usize)>,
) -> i64 {
    let (mr, mc) = (rows.clamp(1, MAP_SIDE), cols.clamp(1, MAP_SIDE));
    let mut hit = [[0usize; MAP_SIDE]; MAP_SIDE];
    for i in 0..nnz {
        if let Some((r, j)) = cell_of(i) {
            let br = (r as u128 * mr as u128 / rows.max(1) as u128) as usize;
            let bc = (j as u128 * mc as u128 / cols.max(1) as u128) as usize;
            hit[br.min(mr - 1)][bc.min(mc - 1)] += 1;
        }
    }
    c.text(
        0,
        36,
        &format!(
            "{} × {} grid, too large to draw: each square covers about {} × {} positions, filled where one is stored",
            count_text(rows),
            count_text(cols),
            count_text(rows.div_ceil(mr)),
            count_text(cols.div_ceil(mc))
        ),
        Anchor::Start,
        "small",
    );
    let (x0, y0, side) = (0, 48, 12);
    // The whole grid, hollow: implicit everywhere but the filled squares.
    c.rect(x0, y0, mc as i64 * side, mr as i64 * side, "implicit");
    for (br, line) in hit.iter().take(mr).enumerate() {
        for (bc, &n) in line.iter().take(mc).enumerate() {
            let (x, y) = (x0 + bc as i64 * side, y0 + br as i64 * side);
            if n > 0 {
                c.rect_titled(
                    x + 1,
                    y + 1,
                    side - 2,
                    side - 2,
                    "cell",
                    &format!("{} stored", count_text(n)),
                );
            }
        }
    }
    y0 + mr as i64 * side
}

/// A dense tensor below its title at `y`: every cell stored (head rows and columns of a
/// large one).
pub fn dense(c: &mut Canvas, y: i64, t: &Tensor) {
    let opts = Options::default();
    let (rows, cols) = rows_cols(t.shape());
    let lead = &t.shape()[..t.rank().saturating_sub(1)];
    let (shown_r, shown_c) = (rows.min(MAX_SIDE), cols.min(MAX_SIDE));
    let mut texts = Vec::new();
    for r in 0..shown_r {
        for j in 0..shown_c {
            texts.push(Some(clip(
                &element_text(t.data(), r * cols + j, &opts),
                CELL_CHARS,
            )));
        }
    }
    let cells = Cells {
        labels: (0..shown_r).map(|r| row_label(lead, r)).collect(),
        cols: shown_c,
        texts,
        cut_cols: cols > shown_c,
        cut_rows: rows > shown_r,
    };
    c.text(
        0,
        y + 12,
        "dense: every position stored, in row-major order",
        Anchor::Start,
        "small",
    );
    draw_cells(c, 0, y + 20, &cells, "");
}
