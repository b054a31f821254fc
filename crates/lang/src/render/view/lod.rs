//! Paddle LoD tensors: each level's offsets beside its lengths (the two ways Paddle writes
//! the same level of detail), then the data rows grouped by sequence, each sequence label
//! shown once at the top of its group.

use super::super::cell::{block_text, element_cell, ellipsis};
use super::super::grid::{data_heads, head_tail, Block, Cell, Column, Display, Grid, Header};
use super::super::Options;
use super::{count_text, Nest, Node};
use ragtag_engine::size::dense_shape_str;
use ragtag_engine::Lod;

/// `[0, 2, 5]`, eliding the middle of long lists.
pub fn list_text(items: &[i64], max: usize, opts: &Options) -> String {
    let parts: Vec<String> = head_tail(items.len(), max)
        .into_iter()
        .map(|i| i.map_or(ellipsis(opts).to_string(), |i| items[i].to_string()))
        .collect();
    format!("[{}]", parts.join(", "))
}

/// `LoDTensor  dtype=int64  shape=[5, 2]  lod_levels=1  sequences=2`.
pub fn header(l: &Lod) -> Header {
    let h = Header::new("LoDTensor")
        .field("dtype", l.data().dtype())
        .field("shape", dense_shape_str(l.data().shape()))
        .field("lod_levels", l.lod().len());
    match l.lod().first() {
        Some(top) => h.field("sequences", count_text(top.len().saturating_sub(1))),
        None => h,
    }
}

/// The table of levels: offsets (`lod()`) beside lengths (`recursive_sequence_lengths()`).
pub fn levels_grid(l: &Lod, opts: &Options) -> Grid {
    let mut g = Grid::new(vec![
        (Cell::label("level"), Column::Label),
        (Cell::label("offsets (lod)"), Column::Data),
        (
            Cell::label("lengths (recursive_sequence_lengths)"),
            Column::Data,
        ),
    ]);
    for (k, offsets) in l.lod().iter().enumerate() {
        let lengths: Vec<i64> = offsets.windows(2).map(|w| w[1] - w[0]).collect();
        g.push(vec![
            Cell::index(k),
            Cell::value(list_text(offsets, opts.max_cols, opts)),
            Cell::value(list_text(&lengths, opts.max_cols, opts)),
        ]);
    }
    g
}

/// The view of a LoD tensor.
pub fn view(l: &Lod, opts: &Options) -> Display {
    let mut d = Display::new();
    d.push(Block::Header(header(l)));
    if !l.lod().is_empty() {
        d.push(Block::Title("levels".into()));
        d.push(Block::Grid(levels_grid(l, opts)));
        d.push(Block::Title("data by sequence".into()));
    }
    d.push(Block::Grid(data_grid(l, opts)));
    d
}

fn data_grid(l: &Lod, opts: &Options) -> Grid {
    let data = l.data();
    let levels = l.lod();
    let depth = levels.len();
    let nrows = data.shape().first().copied().unwrap_or(0);
    let nest = Nest {
        roots: levels
            .first()
            .map_or(nrows, |top| top.len().saturating_sub(1)),
        levels: levels.iter().map(|v| v.as_slice()).collect(),
    };
    let mut head: Vec<(Cell, Column)> = (0..depth)
        .map(|k| {
            let name = if depth == 1 {
                "seq".to_string()
            } else {
                format!("seq{k}")
            };
            (Cell::label(name), Column::Label)
        })
        .collect();
    head.push((Cell::label("row"), Column::Label));
    // A matrix shows its columns; a vector one value per row; deeper data nested cells.
    let cols = match data.rank() {
        0 | 1 => vec![],
        _ => head_tail(data.shape()[1], opts.max_cols),
    };
    if data.rank() <= 1 {
        head.push((Cell::label("value"), Column::Data));
    }
    head.extend(data_heads(&cols));
    let mut g = Grid::new(head);
    let inner: usize = data.shape().iter().skip(2).product();
    let row_size = data.row_size();

    let mut prev: Option<Node> = None;
    for node in nest.shown(opts.max_rows) {
        let Some(node) = node else {
            g.push_ellipsis_row();
            prev = None;
            continue;
        };
        let mut row = Vec::with_capacity(g.width());
        // Outer labels repeat down a group; show each only where it changes.
        row.extend(node.labels(prev.as_ref(), depth, false));
        match node.leaf {
            None => {
                // An empty sequence: nothing stored below it.
                while row.len() < g.width() {
                    row.push(Cell::absent());
                }
            }
            Some(r) if data.rank() <= 1 => {
                row.push(Cell::index(r));
                row.push(element_cell(
                    data.data(),
                    if data.rank() == 1 { r } else { 0 },
                    opts,
                ));
            }
            Some(r) => {
                row.push(Cell::index(r));
                for c in &cols {
                    row.push(match c {
                        None => Cell::ellipsis(),
                        Some(c) if data.rank() == 2 => {
                            element_cell(data.data(), r * row_size + c, opts)
                        }
                        Some(c) => Cell::value(block_text(
                            data.data(),
                            &data.shape()[2..],
                            r * row_size + c * inner,
                            opts,
                        )),
                    });
                }
            }
        }
        g.push(row);
        prev = Some(node);
    }
    g
}
