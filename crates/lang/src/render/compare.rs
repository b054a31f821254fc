//! `compare(a, b, …)`: several values side by side in one table, one line per outer row, so
//! that ragged and sparse results (say, of concat) can be read at a glance. A ragged row is
//! as long as it is; a sparse row shows its unset elements in parentheses.

use std::collections::BTreeMap;

use super::cell::{element_text, ellipsis};
use super::grid::{head_tail, Block, Cell, Column as Kind, Display, Grid};
use super::tf_text::repr_of;
use super::{describe, Options};
use crate::value::convert::to_array;
use crate::value::Value;
use ragtag_engine::{Array, Sparse};

/// One column: how to read its rows.
enum Column<'a> {
    /// A dense or ragged tensor (LoD tensors as their ragged form).
    Array(Array),
    /// A sparse tensor, shown densely.
    Sparse(&'a Sparse),
    /// Anything else: Python items, or a single value.
    Items(Vec<String>),
}

fn column(v: &Value) -> Column<'_> {
    match v {
        Value::Sparse(s) => Column::Sparse(s),
        Value::Lod(l) => match l.to_ragged() {
            Ok(r) => Column::Array(Array::Ragged(r)),
            Err(_) => Column::Array(Array::Dense(l.data().clone())),
        },
        Value::Array(_) => match to_array(v, None) {
            Ok(a) => Column::Array((*a).clone()),
            Err(e) => Column::Items(vec![format!("{}: {}", e.class, e.message)]),
        },
        Value::List(_) if v.is_literal_display() => match to_array(v, None) {
            Ok(a) => Column::Array((*a).clone()),
            Err(e) => Column::Items(vec![format!("{}: {}", e.class, e.message)]),
        },
        Value::List(_) | Value::Tuple(_) => Column::Items(
            crate::value::subscript_items(v)
                .iter()
                .map(repr_of)
                .collect(),
        ),
        other => Column::Items(vec![repr_of(other)]),
    }
}

impl Column<'_> {
    fn rows(&self) -> usize {
        match self {
            Column::Array(a) if a.rank() == 0 => 1,
            Column::Array(a) => a.nrows(),
            Column::Sparse(s) if s.rank() == 0 => 1,
            Column::Sparse(s) => s.dense_shape()[0] as usize,
            Column::Items(v) => v.len(),
        }
    }
    fn row(&self, i: usize, opts: &Options) -> String {
        match self {
            Column::Array(a) if a.rank() == 0 => element_text(a.flat_values().data(), 0, opts),
            Column::Array(a) => a
                .row(i as i64)
                .map_or(String::new(), |r| array_text(&r, opts)),
            Column::Sparse(s) => sparse_row(s, i, opts),
            Column::Items(v) => v.get(i).cloned().unwrap_or_default(),
        }
    }
}

/// A dense or ragged tensor as a bracketed list (long lists keep their head and tail).
fn array_text(a: &Array, opts: &Options) -> String {
    if a.rank() == 0 {
        return element_text(a.flat_values().data(), 0, opts);
    }
    let items: Vec<String> = head_tail(a.nrows(), opts.max_cols)
        .into_iter()
        .map(|j| match j {
            None => ellipsis(opts).to_string(),
            Some(j) => a
                .row(j as i64)
                .map_or(String::new(), |r| array_text(&r, opts)),
        })
        .collect();
    format!("[{}]", items.join(", "))
}

/// Row `i` of a sparse tensor's dense form, unset elements in parentheses.
fn sparse_row(s: &Sparse, i: usize, opts: &Options) -> String {
    let shape = s.shape_usize();
    let implicit = implicit_text(s);
    if shape.is_empty() {
        return (0..s.nnz())
            .last()
            .map_or(implicit, |k| element_text(s.values().data(), k, opts));
    }
    // The entries of this row, by their remaining coordinates (later entries win).
    let mut entries: BTreeMap<&[i64], usize> = BTreeMap::new();
    for k in 0..s.nnz() {
        let idx = s.index(k);
        let inside = idx
            .iter()
            .zip(&shape)
            .all(|(&x, &n)| x >= 0 && (x as usize) < n);
        if inside && idx[0] as usize == i {
            entries.insert(&idx[1..], k);
        }
    }
    fn rec(
        s: &Sparse,
        shape: &[usize],
        prefix: &mut Vec<i64>,
        entries: &BTreeMap<&[i64], usize>,
        implicit: &str,
        opts: &Options,
    ) -> String {
        if prefix.len() == shape.len() {
            return entries
                .get(prefix.as_slice())
                .map_or(implicit.to_string(), |&k| {
                    element_text(s.values().data(), k, opts)
                });
        }
        let n = shape[prefix.len()];
        let items: Vec<String> = head_tail(n, opts.max_cols)
            .into_iter()
            .map(|j| match j {
                None => ellipsis(opts).to_string(),
                Some(j) => {
                    prefix.push(j as i64);
                    let t = rec(s, shape, prefix, entries, implicit, opts);
                    prefix.pop();
                    t
                }
            })
            .collect();
        format!("[{}]", items.join(", "))
    }
    rec(s, &shape[1..], &mut Vec::new(), &entries, &implicit, opts)
}

/// How a sparse tensor's unset elements read in a row: its default in parentheses.
fn implicit_text(s: &Sparse) -> String {
    let zero = ragtag_engine::Buffer::filled(&ragtag_engine::Scalar::default_of(s.dtype()), 1);
    format!("({})", element_text(&zero, 0, &Options::plain(80)))
}

/// The side-by-side table of `items` (name, value).
pub fn compare(items: &[(String, &Value)], opts: &Options) -> String {
    let columns: Vec<Column> = items.iter().map(|(_, v)| column(v)).collect();
    let mut head = vec![(Cell::label("row"), Kind::Label)];
    head.extend(
        items
            .iter()
            .map(|(name, v)| (Cell::label(format!("{name}: {}", describe(v))), Kind::Data)),
    );
    let mut grid = Grid::new(head);
    let nrows = columns.iter().map(Column::rows).max().unwrap_or(0);
    for i in head_tail(nrows, opts.max_rows) {
        let Some(i) = i else {
            grid.push_ellipsis_row();
            continue;
        };
        let mut line = vec![Cell::index(i)];
        for c in &columns {
            line.push(if i < c.rows() {
                Cell::value(c.row(i, opts))
            } else {
                Cell::absent()
            });
        }
        grid.push(line);
    }
    let mut d = Display::new();
    d.push(Block::Grid(grid));
    super::table::to_text(&d, opts)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ragtag_engine::literal::{ragged_constant, Leaf, Nested};
    use ragtag_engine::{Buffer, Tensor};
    use std::sync::Arc;

    fn ints(rows: &[&[i64]]) -> Nested {
        Nested::List(
            rows.iter()
                .map(|r| Nested::List(r.iter().map(|&x| Nested::Leaf(Leaf::Int(x))).collect()))
                .collect(),
        )
    }

    #[test]
    fn ragged_and_sparse_side_by_side() {
        let rt = Value::from_array(
            ragged_constant(&ints(&[&[1, 2, 3], &[4]]), None, None, None).unwrap(),
        );
        let st = Value::Sparse(Arc::new(
            Sparse::new(
                vec![0, 0, 0, 3, 1, 1],
                Tensor::vector(Buffer::I32(vec![1, 2, 4].into())),
                vec![2, 4],
            )
            .unwrap(),
        ));
        let opts = Options {
            unicode: false,
            ..Options::default()
        };
        let text = compare(&[("ragged".into(), &rt), ("sparse".into(), &st)], &opts);
        assert!(text.contains("ragged"), "{text}");
        assert!(text.contains("sparse int32 [2, 4]"), "{text}");
        assert!(text.contains("[1, 2, 3]"), "{text}");
        assert!(text.contains("[1, (0), (0), 2]"), "{text}");
        assert!(text.contains("[(0), 4, (0), (0)]"), "{text}");
    }
}
