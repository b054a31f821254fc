//! Dense tensors: a scalar on one line, a vector as one row (or one column when a row would
//! not fit), a matrix as a grid, and higher ranks as labelled matrix slices (`[0, :, :]`).
//! The grid builders take a cell function, so sparse tensors' dense views share them.

use super::super::cell::{element_cell, ellipsis};
use super::super::grid::{data_heads, head_tail, Block, Cell, Column, Display, Grid, Header};
use super::super::table::cell_width;
use super::super::Options;
use super::count_text;
use ragtag_engine::{Buffer, Tensor};

/// Most matrix slices of a rank > 2 tensor shown (head … tail): six show how a stack of
/// matrices starts and ends without scrolling the first one away.
pub const SLICE_LIMIT: usize = 6;

/// Fewest rows each shown slice keeps, however small the row limit divided among them.
const MIN_SLICE_ROWS: usize = 4;

/// `Tensor  dtype=int32  shape=[3, 4]  values=12`.
pub fn header(t: &Tensor) -> Header {
    let shape = format!(
        "[{}]",
        t.shape()
            .iter()
            .map(|d| d.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    );
    let h = Header::new("Tensor")
        .field("dtype", t.dtype())
        .field("shape", shape);
    if t.rank() == 0 {
        let text = match t.data() {
            Buffer::Str(s) => super::str_value_text(&s.get_str(0)),
            d => element_cell(d, 0, &Options::default()).text,
        };
        h.field("value", text)
    } else {
        h.field("values", count_text(t.size()))
    }
}

/// The view of a dense tensor.
pub fn view(t: &Tensor, opts: &Options) -> Display {
    let mut d = Display::new();
    d.push(Block::Header(header(t)));
    let data = t.data();
    match t.rank() {
        0 => {}
        1 => {
            d.push(Block::Grid(vector_grid(t.shape()[0], opts, &|i| {
                element_cell(data, i, opts)
            })));
        }
        _ => {
            let shape = t.shape();
            let inner = shape[shape.len() - 1];
            let rows = shape[shape.len() - 2];
            d.extend(slices(
                &shape[..shape.len() - 2],
                rows,
                inner,
                opts,
                &|s, r, c| element_cell(data, (s * rows + r) * inner + c, opts),
            ));
        }
    }
    if t.size() == 0 {
        d.push(Block::Note("no values".into()));
    }
    d
}

/// A vector of `n` cells as one row headed by positions; when that row would be wider than
/// the terminal, as one column of `position, value` rows instead, so values stay readable.
pub fn vector_grid(n: usize, opts: &Options, cell: &dyn Fn(usize) -> Cell) -> Grid {
    let cols = head_tail(n, opts.max_cols);
    let mut g = Grid::new(data_heads(&cols).collect());
    g.push(
        cols.iter()
            .map(|c| c.map_or_else(Cell::ellipsis, cell))
            .collect(),
    );
    if !g.too_wide(opts.width, &|c| cell_width(c, opts)) {
        return g;
    }
    let mut v = Grid::new(vec![
        (Cell::label(""), Column::Label),
        (Cell::label("value"), Column::Data),
    ]);
    for i in head_tail(n, opts.max_rows) {
        match i {
            Some(i) => v.push(vec![Cell::index(i), cell(i)]),
            None => v.push_ellipsis_row(),
        }
    }
    v
}

/// A `rows x cols` matrix headed by column positions, each row labelled by its position.
pub fn matrix_grid(
    rows: usize,
    cols: usize,
    max_rows: usize,
    opts: &Options,
    cell: &dyn Fn(usize, usize) -> Cell,
) -> Grid {
    let shown_cols = head_tail(cols, opts.max_cols);
    let mut head = vec![(Cell::label(""), Column::Label)];
    head.extend(data_heads(&shown_cols));
    let mut g = Grid::new(head);
    for r in head_tail(rows, max_rows) {
        let Some(r) = r else {
            g.push_ellipsis_row();
            continue;
        };
        let mut row = vec![Cell::index(r)];
        row.extend(
            shown_cols
                .iter()
                .map(|c| c.map_or_else(Cell::ellipsis, |c| cell(r, c))),
        );
        g.push(row);
    }
    g
}

/// Matrices over `lead` leading dimensions: one matrix for rank 2, otherwise each slice
/// titled by its index (`[1, 0, :, :]`), the middle slices elided beyond [`SLICE_LIMIT`].
/// `cell(slice, row, col)` gives the cell of a slice (slices numbered row-major).
pub fn slices(
    lead: &[usize],
    rows: usize,
    cols: usize,
    opts: &Options,
    cell: &dyn Fn(usize, usize, usize) -> Cell,
) -> Display {
    let mut d = Display::new();
    if lead.is_empty() {
        d.push(Block::Grid(matrix_grid(
            rows,
            cols,
            opts.max_rows,
            opts,
            &|r, c| cell(0, r, c),
        )));
        return d;
    }
    let n: usize = lead.iter().product();
    let shown = head_tail(n, SLICE_LIMIT);
    let per_slice = (opts.max_rows / shown.len().max(1)).max(MIN_SLICE_ROWS);
    for s in shown {
        let Some(s) = s else {
            d.push(Block::Note(format!(
                "{} {} more slices",
                ellipsis(opts),
                count_text(n - SLICE_LIMIT)
            )));
            continue;
        };
        // Unravel the slice number into its leading indices.
        let mut idx = vec![0; lead.len()];
        let mut rest = s;
        for (k, &dim) in lead.iter().enumerate().rev() {
            idx[k] = rest % dim;
            rest /= dim;
        }
        let title = idx
            .iter()
            .map(|i| i.to_string())
            .chain([":".to_string(), ":".to_string()])
            .collect::<Vec<_>>()
            .join(", ");
        d.push(Block::Title(format!("[{title}]")));
        d.push(Block::Grid(matrix_grid(
            rows,
            cols,
            per_slice,
            opts,
            &|r, c| cell(s, r, c),
        )));
    }
    d
}
