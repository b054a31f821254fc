//! The teaching view behind `explain(x)` and `:explain x`: how a value is *stored*. A ragged
//! tensor shows its flat values and, for every partitioned dimension, all five row-partition
//! encodings side by side; a sparse tensor its indices, values and dense shape; a LoD tensor
//! its offsets beside its lengths; string tensors their one byte buffer and its offsets.
//! Only the positions shown are computed (value_rowids of a shown position is a binary
//! search), so explaining a huge tensor is as quick as displaying it.

use super::cell::{cap, element_cell, ellipsis, row_cell};
use super::grid::{head_tail, Block, Cell, Column, Display, Grid};
use super::tf_text::py_str;
use super::view::{array_header, count_text, vector_grid};
use super::Options;
use crate::value::Value;
use ragtag_engine::size::dense_shape_str;
use ragtag_engine::{Array, Buffer, Lod, Ragged, RowPartition, Sparse, StringBuf, Tensor};

/// One named integer sequence of an encodings table, read one position at a time.
struct Encoding<'a> {
    name: &'static str,
    len: usize,
    get: Box<dyn Fn(usize) -> i64 + 'a>,
}

/// Integer sequences side by side, one per row, positions in columns. When the longest is
/// too long the middle is elided: the head keeps positions `0, 1, …` and the tail is headed
/// by negative positions (`-2, -1`), which are right for every row whatever its length.
fn encodings_grid(encs: &[Encoding], opts: &Options) -> Grid {
    let longest = encs.iter().map(|e| e.len).max().unwrap_or(0);
    let mut head = vec![
        (Cell::label("encoding"), Column::Label),
        (Cell::label("len"), Column::Label),
    ];
    if longest <= opts.max_cols {
        head.extend((0..longest).map(|i| (Cell::index(i), Column::Data)));
        let mut g = Grid::new(head);
        for e in encs {
            let mut row = vec![Cell::label(e.name), Cell::index(e.len)];
            row.extend((0..longest).map(|i| {
                if i < e.len {
                    Cell::value((e.get)(i).to_string()).numeric()
                } else {
                    Cell::blank()
                }
            }));
            g.push(row);
        }
        return g;
    }
    let h = opts.max_cols.max(2).div_ceil(2);
    let t = opts.max_cols.max(2) - h;
    head.extend((0..h).map(|i| (Cell::index(i), Column::Data)));
    head.push((Cell::ellipsis(), Column::Ellipsis));
    head.extend((0..t).map(|j| (Cell::index(-((t - j) as i64)), Column::Data)));
    let mut g = Grid::new(head);
    for e in encs {
        let mut row = vec![Cell::label(e.name), Cell::index(e.len)];
        let num = |i: usize| Cell::value((e.get)(i).to_string()).numeric();
        row.extend((0..h).map(|i| if i < e.len { num(i) } else { Cell::blank() }));
        row.push(if e.len > h + t {
            Cell::ellipsis()
        } else {
            Cell::blank()
        });
        row.extend((0..t).map(|j| {
            // Position of the j-th tail column in this row; shown once, in the head if it fits.
            match (e.len + j).checked_sub(t) {
                Some(i) if i >= h && i < e.len => num(i),
                _ => Cell::blank(),
            }
        }));
        g.push(row);
    }
    g
}

/// The explanation of any value.
pub fn explain(v: &Value, opts: &Options) -> Display {
    match v {
        Value::Array(a) => array(a, opts),
        Value::List(_) if v.is_literal_display() => match crate::value::convert::to_array(v, None) {
            Ok(a) => array(&a, opts),
            Err(e) => Display::text(format!("{}: {}", e.class.name(), e.message)),
        },
        Value::Sparse(s) => sparse(s, opts),
        Value::Lod(l) => lod(l, opts),
        Value::Int(_) => Display::text(
            "a Python int: one 64-bit integer, not a tensor (it becomes an int32 tensor when mixed with tensors)",
        ),
        Value::Float(_) => Display::text(
            "a Python float: one 64-bit float, not a tensor (it becomes a float32 tensor when mixed with tensors)",
        ),
        Value::Bool(_) => Display::text("a Python bool, not a tensor"),
        Value::Str(s) => {
            let mut d = Display::text(format!(
                "a Python str of {} characters in {} UTF-8 bytes, not a tensor",
                s.chars().count(),
                s.len()
            ));
            d.extend(strings(&StringBuf::from_strs([s.as_str()]), opts));
            d
        }
        other => Display::text(format!(
            "a {} value: {}",
            other.type_name(),
            super::tf_text::repr_of(other)
        )),
    }
}

fn array(a: &Array, opts: &Options) -> Display {
    let mut d = Display::new();
    d.push(Block::Header(array_header(a)));
    match a {
        Array::Dense(t) => dense(t, opts, &mut d),
        Array::Ragged(r) => ragged(r, opts, &mut d),
    }
    d
}

/// Cells of a tensor's rows (elements for a vector).
fn flat_grid(t: &Tensor, opts: &Options) -> Grid {
    let n = t.shape().first().copied().unwrap_or(1);
    if t.rank() == 0 {
        return vector_grid(1, opts, &|_| element_cell(t.data(), 0, opts));
    }
    vector_grid(n, opts, &|i| row_cell(t, i, opts))
}

fn dense(t: &Tensor, opts: &Options, d: &mut Display) {
    let mut strides = vec![1usize; t.rank()];
    for k in (0..t.rank().saturating_sub(1)).rev() {
        strides[k] = strides[k + 1] * t.shape()[k + 1];
    }
    d.push(Block::Title(format!(
        "one buffer of {} {} values in row-major order",
        count_text(t.size()),
        t.dtype()
    )));
    // The buffer itself, read in place (a copy would cost as much as the tensor).
    let data = t.data();
    d.push(Block::Grid(vector_grid(t.size(), opts, &|i| {
        element_cell(data, i, opts)
    })));
    d.push(Block::Note(format!(
        "shape {} with strides {}: element [i, j, …] is at position i*{} + j*{} + …",
        dense_shape_str(t.shape()),
        dense_shape_str(&strides),
        strides.first().copied().unwrap_or(1),
        strides.get(1).copied().unwrap_or(1)
    )));
    if let Buffer::Str(s) = t.data() {
        d.extend(strings(s, opts));
    }
}

fn ragged(r: &Ragged, opts: &Options, d: &mut Display) {
    let fv = r.flat_values();
    d.push(Block::Title(format!(
        "flat_values: {} {} stored contiguously, shape {}",
        count_text(fv.size()),
        if fv.size() == 1 { "value" } else { "values" },
        dense_shape_str(fv.shape())
    )));
    d.push(Block::Grid(flat_grid(fv, opts)));
    let depth = r.ragged_rank();
    for (k, p) in r.partitions().iter().enumerate() {
        let what = match p.uniform_row_length() {
            Some(u) => format!("uniform, every row has {u}"),
            None => "ragged".to_string(),
        };
        let over = if k + 1 == depth {
            "flat values".to_string()
        } else {
            format!("rows of dimension {}", k + 2)
        };
        d.push(Block::Title(format!(
            "dimension {} ({what}): partition {} of {depth} splits {} rows over {} {over}",
            k + 1,
            k + 1,
            count_text(p.nrows()),
            count_text(p.nvals())
        )));
        d.push(Block::Grid(encodings_grid(&partition_encodings(p), opts)));
    }
    for note in [
        "row_splits    row i is values[row_splits[i]:row_splits[i+1]] (what ragtag stores)",
        "row_lengths   how many values each row has",
        "value_rowids  the row each value belongs to",
        "row_starts    where each row starts: row_splits without its last entry",
        "row_limits    where each row ends: row_splits without its first entry",
    ] {
        d.push(Block::Note(note.into()));
    }
    if let Buffer::Str(s) = fv.data() {
        d.extend(strings(s, opts));
    }
}

/// The five encodings of one partition, each computed only where it is read.
fn partition_encodings(p: &RowPartition) -> Vec<Encoding<'_>> {
    let splits = p.row_splits();
    let n = p.nrows();
    let mut encs = vec![
        Encoding {
            name: "row_splits",
            len: n + 1,
            get: Box::new(move |i| splits[i]),
        },
        Encoding {
            name: "row_lengths",
            len: n,
            get: Box::new(move |i| splits[i + 1] - splits[i]),
        },
        Encoding {
            name: "value_rowids",
            len: p.nvals(),
            // The row holding value v is the last split at or before v.
            get: Box::new(move |v| splits.partition_point(|&s| s <= v as i64) as i64 - 1),
        },
        Encoding {
            name: "row_starts",
            len: n,
            get: Box::new(move |i| splits[i]),
        },
        Encoding {
            name: "row_limits",
            len: n,
            get: Box::new(move |i| splits[i + 1]),
        },
    ];
    if let Some(u) = p.uniform_row_length() {
        encs.push(Encoding {
            name: "uniform_row_length",
            len: 1,
            get: Box::new(move |_| u),
        });
    }
    encs
}

/// How string elements are stored: one byte buffer, and offsets where each element starts.
fn strings(s: &StringBuf, opts: &Options) -> Display {
    let mut d = Display::new();
    let offsets = s.offsets();
    let plural = |n: usize| if n == 1 { "" } else { "s" };
    d.push(Block::Title(format!(
        "string storage: {} string{} in one buffer of {} byte{}, plus {} offsets",
        count_text(s.len()),
        plural(s.len()),
        count_text(s.bytes().len()),
        plural(s.bytes().len()),
        count_text(offsets.len())
    )));
    let mut g = Grid::new(vec![
        (Cell::label(""), Column::Label),
        (Cell::label("offset"), Column::Label),
        (Cell::label("bytes"), Column::Label),
        (Cell::label("text"), Column::Data),
    ]);
    for i in head_tail(s.len(), opts.max_rows) {
        match i {
            Some(i) => g.push(vec![
                Cell::index(i),
                Cell::index(offsets[i]),
                Cell::index(offsets[i + 1] - offsets[i]),
                Cell::value(cap(py_str(&s.get_str(i)), opts)),
            ]),
            None => g.push_ellipsis_row(),
        }
    }
    d.push(Block::Grid(g));
    // The buffer itself, cut to the width: the elements run together with no separators.
    let limit = opts.width.saturating_sub(12).max(8);
    let bytes = s.bytes();
    let shown = String::from_utf8_lossy(&bytes[..bytes.len().min(limit * 4)]);
    let mut text: String = shown.chars().take(limit).collect();
    if text.len() < bytes.len() {
        text.push_str(ellipsis(opts));
    }
    d.push(Block::Note(format!("buffer: {text}")));
    d
}

fn sparse(s: &Sparse, opts: &Options) -> Display {
    let mut d = Display::new();
    d.push(Block::Header(super::view::sparse_header(s)));
    d.push(Block::Title(format!(
        "indices: an int64 [{}, {}] matrix of coordinates, beside values: {} {}",
        s.nnz(),
        s.rank(),
        count_text(s.nnz()),
        s.dtype()
    )));
    let mut head = vec![(Cell::label(""), Column::Label)];
    head.extend((0..s.rank()).map(|k| (Cell::label(format!("indices[:, {k}]")), Column::Label)));
    head.push((Cell::label("values"), Column::Data));
    let mut g = Grid::new(head);
    for i in head_tail(s.nnz(), opts.max_rows) {
        match i {
            Some(i) => {
                let mut row = vec![Cell::index(i)];
                row.extend(
                    s.index(i)
                        .iter()
                        .map(|&x| Cell::value(x.to_string()).numeric()),
                );
                row.push(element_cell(s.values().data(), i, opts));
                g.push(row);
            }
            None => g.push_ellipsis_row(),
        }
    }
    d.push(Block::Grid(g));
    d.push(Block::Note(format!(
        "dense_shape: {}; every position not listed holds the default {}",
        dense_shape_str(s.dense_shape()),
        super::view::sparse_default(s)
    )));
    if let Buffer::Str(b) = s.values().data() {
        d.extend(strings(b, opts));
    }
    d
}

fn lod(l: &Lod, opts: &Options) -> Display {
    let mut d = Display::new();
    d.push(Block::Header(super::view::lod_header(l)));
    for (k, offsets) in l.lod().iter().enumerate() {
        let next = if k + 1 == l.lod().len() {
            "data rows".to_string()
        } else {
            format!("sequences of level {}", k + 1)
        };
        d.push(Block::Title(format!(
            "level {k}: {} sequences over {} {next}",
            count_text(offsets.len().saturating_sub(1)),
            count_text(offsets.last().copied().unwrap_or(0) as usize)
        )));
        let encs = vec![
            Encoding {
                name: "offsets (lod)",
                len: offsets.len(),
                get: Box::new(move |i| offsets[i]),
            },
            Encoding {
                name: "lengths (recursive_sequence_lengths)",
                len: offsets.len().saturating_sub(1),
                get: Box::new(move |i| offsets[i + 1] - offsets[i]),
            },
        ];
        d.push(Block::Grid(encodings_grid(&encs, opts)));
    }
    d.push(Block::Note(
        "offsets are a ragged tensor's row_splits, lengths its row_lengths: the same level either way"
            .into(),
    ));
    let data = l.data();
    d.push(Block::Title(format!(
        "data: one {} block of shape {}",
        data.dtype(),
        dense_shape_str(data.shape())
    )));
    d.push(Block::Grid(flat_grid(data, opts)));
    d
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn value_rowids_by_binary_search_match_the_partition() {
        let p = RowPartition::from_row_splits(vec![0, 4, 4, 7, 8, 8], None).unwrap();
        let encs = partition_encodings(&p);
        let ids: Vec<i64> = (0..encs[2].len).map(|v| (encs[2].get)(v)).collect();
        assert_eq!(ids, p.value_rowids());
    }
}
