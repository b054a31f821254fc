//! Ragged tensors: one table row per innermost list, labelled by its position in every
//! outer dimension (`row` for 2-D; `i`, `j`, `k` … deeper, each label shown once per group),
//! with the list's length and its values in columns. Positions past a list's end are
//! *absent* cells, so the raggedness is what the eye sees first.
//!
//! Rows of vectors (flat values of rank 2, a uniform inner dimension such as word
//! embeddings, shape `[3, None, 4]`) get one table row per vector instead: labelled by its
//! position in every ragged dimension and along its row, the vector's components in aligned
//! columns, so the numbers line up and read as a matrix.

use super::super::cell::{element_cell, row_cell};
use super::super::grid::{data_heads, head_tail, Block, Cell, Column, Display, Grid, Header};
use super::super::Options;
use super::{axis_name, count_text, Nest, Node};
use ragtag_engine::{Ragged, RowPartition};

/// Shortest and longest row of a partition, in one pass over its splits.
fn length_range(p: &RowPartition) -> (usize, usize) {
    if let Some(u) = p.uniform_row_length() {
        return (u as usize, u as usize);
    }
    let mut lo = usize::MAX;
    let mut hi = 0;
    for w in p.row_splits().windows(2) {
        let n = (w[1] - w[0]) as usize;
        lo = lo.min(n);
        hi = hi.max(n);
    }
    if lo == usize::MAX {
        (0, 0)
    } else {
        (lo, hi)
    }
}

/// `[5, None(0..4)]`: ragged dimensions are `None` followed by their row-length range.
pub fn shape_with_ranges(r: &Ragged) -> String {
    let mut dims = vec![r.nrows().to_string()];
    for p in r.partitions() {
        dims.push(match p.uniform_row_length() {
            Some(u) => u.to_string(),
            None if p.nrows() == 0 => "None".to_string(),
            None => {
                let (lo, hi) = length_range(p);
                format!("None({lo}..{hi})")
            }
        });
    }
    dims.extend(r.flat_values().shape()[1..].iter().map(|d| d.to_string()));
    format!("[{}]", dims.join(", "))
}

/// `RaggedTensor  dtype=int32  shape=[5, None(0..4)]  ragged_rank=1  values=10`.
pub fn header(r: &Ragged) -> Header {
    Header::new("RaggedTensor")
        .field("dtype", r.dtype())
        .field("shape", shape_with_ranges(r))
        .field("ragged_rank", r.ragged_rank())
        .field("values", count_text(r.flat_values().size()))
}

/// The view of a ragged tensor.
pub fn view(r: &Ragged, opts: &Options) -> Display {
    let mut d = Display::new();
    d.push(Block::Header(header(r)));
    d.push(Block::Grid(grid(r, opts)));
    if r.nrows() == 0 {
        d.push(Block::Note("no rows".into()));
    }
    d
}

fn grid(r: &Ragged, opts: &Options) -> Grid {
    if r.flat_values().rank() == 2 {
        return vector_grid(r, opts);
    }
    let parts = r.partitions();
    let depth = parts.len();
    let last = &parts[depth - 1];
    let nest = Nest {
        roots: r.nrows(),
        levels: parts[..depth - 1].iter().map(|p| p.row_splits()).collect(),
    };
    let fv = r.flat_values();
    let (_, longest) = length_range(last);
    let cols = head_tail(longest, opts.max_cols);
    let head_cols = cols.iter().take_while(|c| c.is_some()).count();

    let mut head: Vec<(Cell, Column)> = if depth == 1 {
        vec![(Cell::label("row"), Column::Label)]
    } else {
        (0..depth)
            .map(|k| (Cell::label(axis_name(k)), Column::Label))
            .collect()
    };
    head.push((Cell::label("len"), Column::Label));
    head.extend(data_heads(&cols));
    let mut g = Grid::new(head);

    let mut prev: Option<Node> = None;
    for node in nest.shown(opts.max_rows) {
        let Some(node) = node else {
            g.push_ellipsis_row();
            prev = None;
            continue;
        };
        let mut row = Vec::with_capacity(g.width());
        // Outer labels repeat down a group; show each only where it changes.
        row.extend(node.labels(prev.as_ref(), depth, true));
        let range = node.leaf.map(|leaf| last.row_range(leaf));
        let len = range.map_or(0, |(a, b)| b - a);
        row.push(Cell::index(len));
        for c in &cols {
            row.push(match (c, range) {
                // Elided columns of a row that ends before them hide nothing.
                (None, _) if len <= head_cols => Cell::absent(),
                (None, _) => Cell::ellipsis(),
                (Some(c), Some((a, _))) if *c < len => {
                    if fv.rank() == 1 {
                        element_cell(fv.data(), a + c, opts)
                    } else {
                        row_cell(fv, a + c, opts)
                    }
                }
                _ => Cell::absent(),
            });
        }
        g.push(row);
        prev = Some(node);
    }
    g
}

/// One table row per vector of a ragged tensor whose flat values have rank 2: outline labels
/// for each ragged dimension and the position along the innermost row, then the vector's
/// components. An empty row shows as a row of its own, absent below its level.
fn vector_grid(r: &Ragged, opts: &Options) -> Grid {
    let parts = r.partitions();
    // The innermost partition's rows are vectors: one more level of outline labels.
    let depth = parts.len() + 1;
    let nest = Nest {
        roots: r.nrows(),
        levels: parts.iter().map(|p| p.row_splits()).collect(),
    };
    let fv = r.flat_values();
    let size = fv.row_size();
    let cols = head_tail(size, opts.max_cols);
    let mut head: Vec<(Cell, Column)> = (0..depth)
        .map(|k| (Cell::label(axis_name(k)), Column::Label))
        .collect();
    head.extend(data_heads(&cols));
    let mut g = Grid::new(head);
    let mut prev: Option<Node> = None;
    for node in nest.shown(opts.max_rows) {
        let Some(node) = node else {
            g.push_ellipsis_row();
            prev = None;
            continue;
        };
        let mut row = Vec::with_capacity(g.width());
        row.extend(node.labels(prev.as_ref(), depth, true));
        for c in &cols {
            row.push(match (c, node.leaf) {
                (None, Some(_)) => Cell::ellipsis(),
                (Some(c), Some(leaf)) => element_cell(fv.data(), leaf * size + c, opts),
                _ => Cell::absent(),
            });
        }
        g.push(row);
        prev = Some(node);
    }
    g
}
