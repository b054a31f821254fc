//! Sparse tensors: the stored `indices → values` table, then a dense view in which every
//! unset position shows the implicit default as an *implicit* cell — it has a value, unlike
//! a ragged tensor's absent cells, and the two look different at a glance.

use ragtag_engine::size::dense_shape_str;
use std::collections::HashMap;

use super::super::cell::element_cell;
use super::super::grid::{head_tail, Block, Cell, Column, Display, Grid, Header, Role};
use super::super::Options;
use super::count_text;
use super::dense::{slices, vector_grid, SLICE_LIMIT};
use ragtag_engine::{Buffer, Scalar, Sparse};

/// The implicit default of a dtype as a cell shows it (`0`, `0.0`, `False`, `''`).
pub fn default_text(s: &Sparse) -> String {
    let d = Buffer::filled(&Scalar::default_of(s.dtype()), 1);
    element_cell(&d, 0, &Options::default()).text
}

/// `SparseTensor  dtype=int32  dense_shape=[3, 4]  stored=3 of 12  default=0`.
pub fn header(s: &Sparse) -> Header {
    let total = s
        .dense_shape()
        .iter()
        .try_fold(1u128, |acc, &d| acc.checked_mul(d.max(0) as u128));
    let stored = match total {
        Some(t) => format!("{} of {}", count_text(s.nnz()), count_text(t as usize)),
        None => count_text(s.nnz()),
    };
    Header::new("SparseTensor")
        .field("dtype", s.dtype())
        .field("dense_shape", dense_shape_str(s.dense_shape()))
        .field("stored", stored)
        .field("default", default_text(s))
}

/// The view of a sparse tensor.
pub fn view(s: &Sparse, opts: &Options) -> Display {
    let mut d = Display::new();
    d.push(Block::Header(header(s)));
    let arrow = if opts.unicode { "→" } else { "->" };
    d.push(Block::Title(format!(
        "stored values (indices {arrow} values)"
    )));
    d.push(Block::Grid(stored_grid(s, opts)));
    d.push(Block::Title("dense view".into()));
    d.extend(dense_view(s, opts));
    d
}

/// One row per stored value: its position in `indices`, its coordinates and its value.
pub fn stored_grid(s: &Sparse, opts: &Options) -> Grid {
    let mut g = Grid::new(vec![
        (Cell::label(""), Column::Label),
        (Cell::label("indices"), Column::Label),
        (Cell::label("value"), Column::Data),
    ]);
    for i in head_tail(s.nnz(), opts.max_rows) {
        match i {
            Some(i) => g.push(vec![
                Cell::index(i),
                Cell::label(dense_shape_str(s.index(i))),
                element_cell(s.values().data(), i, opts),
            ]),
            None => g.push_ellipsis_row(),
        }
    }
    g
}

/// The dense layout of a sparse tensor, computed only at the positions shown: stored values
/// are found by one pass over the indices, keeping those near either end of every dimension.
pub fn dense_view(s: &Sparse, opts: &Options) -> Display {
    let shape: Vec<usize> = s.dense_shape().iter().map(|&d| d.max(0) as usize).collect();
    // Every position a view shows is within this distance of the start or end of its
    // dimension (head … tail rows, columns and slices).
    let reach = opts.max_rows.max(opts.max_cols).max(SLICE_LIMIT) + 1;
    let near_ends = |idx: &[i64]| {
        idx.iter().zip(&shape).all(|(&i, &n)| {
            i >= 0 && (i as usize) < n && ((i as usize) < reach || i as usize + reach >= n)
        })
    };
    let mut stored: HashMap<&[i64], usize> = HashMap::new();
    for i in 0..s.nnz() {
        let idx = s.index(i);
        if near_ends(idx) {
            stored.insert(idx, i);
        }
    }
    let implicit = Cell {
        role: Role::Implicit,
        ..element_cell(&Buffer::filled(&Scalar::default_of(s.dtype()), 1), 0, opts)
    };
    let values = s.values().data();
    let at = |idx: &[i64]| match stored.get(idx) {
        Some(&i) => element_cell(values, i, opts),
        None => implicit.clone(),
    };
    let mut d = Display::new();
    match shape.len() {
        0 => d.push(Block::Text(at(&[]).text)),
        1 => d.push(Block::Grid(vector_grid(shape[0], opts, &|i| {
            at(&[i as i64])
        }))),
        r => {
            let (rows, cols) = (shape[r - 2], shape[r - 1]);
            let lead = &shape[..r - 2];
            d.extend(slices(lead, rows, cols, opts, &|sl, row, col| {
                let mut idx = vec![0i64; r];
                let mut rest = sl;
                for k in (0..r - 2).rev() {
                    idx[k] = (rest % lead[k]) as i64;
                    rest /= lead[k];
                }
                idx[r - 2] = row as i64;
                idx[r - 1] = col as i64;
                at(&idx)
            }))
        }
    };
    d
}
