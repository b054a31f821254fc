//! Elementwise operations between dense and ragged tensors, with TensorFlow's broadcasting:
//! shapes are aligned on the right, and a dimension of size 1 stretches to match the other
//! operand — per row, for ragged dimensions.

use super::kernels::{self, BinaryOp};
use crate::error::Result;
use crate::partition::RowPartition;
use crate::ragged::{Array, Ragged};
use crate::tensor::Tensor;
use crate::{budget, size};
use crate::{Buffer, Element};

/// One dimension of an operand, as seen by the broadcaster.
#[derive(Clone, Copy)]
enum DimSpec<'a> {
    Uniform(usize),
    Ragged(&'a RowPartition),
}

fn dims_of(a: &Array) -> Vec<DimSpec<'_>> {
    match a {
        Array::Dense(t) => t.shape().iter().map(|&d| DimSpec::Uniform(d)).collect(),
        Array::Ragged(r) => {
            let mut dims = vec![DimSpec::Uniform(r.nrows())];
            for p in r.partitions() {
                dims.push(match p.uniform_row_length() {
                    Some(u) => DimSpec::Uniform(u as usize),
                    None => DimSpec::Ragged(p),
                });
            }
            dims.extend(
                r.flat_values().shape()[1..]
                    .iter()
                    .map(|&d| DimSpec::Uniform(d)),
            );
            dims
        }
    }
}

fn same_structure(a: &Array, b: &Array) -> bool {
    match (a, b) {
        (Array::Dense(x), Array::Dense(y)) => x.shape() == y.shape(),
        (Array::Ragged(x), Array::Ragged(y)) => {
            x.partitions() == y.partitions() && x.flat_values().shape() == y.flat_values().shape()
        }
        _ => false,
    }
}

/// True when `a` has one element and rank at most `rank` (it broadcasts without reshaping
/// anything).
fn is_unit(a: &Array, rank: usize) -> bool {
    matches!(a, Array::Dense(t) if t.size() == 1 && t.rank() <= rank)
}

fn rebuild_like(template: &Array, data: crate::Buffer) -> Array {
    match template {
        Array::Dense(t) => Array::Dense(Tensor::from_parts(t.shape().to_vec(), data)),
        Array::Ragged(r) => {
            let fv = Tensor::from_parts(r.flat_values().shape().to_vec(), data);
            Array::Ragged(r.with_flat_values(fv).expect("same flat shape"))
        }
    }
}

/// `op(a, b)` elementwise with broadcasting. Both operands must have one dtype.
pub fn binary(op: BinaryOp, a: &Array, b: &Array) -> Result<Array> {
    let (fa, fb) = (a.flat_values(), b.flat_values());
    // Fast paths: identical structure, or a single element on one side.
    if same_structure(a, b) {
        let data = kernels::binary(op, fa.data(), fb.data(), fa.size())?;
        return Ok(rebuild_like(a, data));
    }
    if is_unit(b, a.rank()) {
        let data = kernels::binary(op, fa.data(), fb.data(), fa.size())?;
        return Ok(rebuild_like(a, data));
    }
    if is_unit(a, b.rank()) {
        let data = kernels::binary(op, fa.data(), fb.data(), fb.size())?;
        return Ok(rebuild_like(b, data));
    }
    if let Some(result) = row_column(op, a, b)? {
        return Ok(result);
    }
    if fa.dtype() != fb.dtype() {
        // Let the kernel report the dtype mismatch.
        kernels::binary(op, fa.data(), fb.data(), 0)?;
    }
    let plan = plan(a, b)?;
    let ga = gather_if_needed(fa, &plan.pos_a);
    let gb = gather_if_needed(fb, &plan.pos_b);
    let n = plan.pos_a.len();
    let data = kernels::binary(
        op,
        ga.as_ref().unwrap_or(fa.data()),
        gb.as_ref().unwrap_or(fb.data()),
        n,
    )?;
    plan.build(data)
}

/// A 2-D ragged tensor with a column of one value per row (`rt + col`, col `[nrows, 1]`, on
/// either side): each row's values meet their row's value. Done by repeating the column
/// along the rows instead of planning a general broadcast.
fn row_column(op: BinaryOp, a: &Array, b: &Array) -> Result<Option<Array>> {
    let (rt, col, swapped) = match (a, b) {
        (Array::Ragged(r), Array::Dense(t)) => (r, t, false),
        (Array::Dense(t), Array::Ragged(r)) => (r, t, true),
        _ => return Ok(None),
    };
    let fv = rt.flat_values();
    if rt.ragged_rank() != 1 || fv.rank() != 1 || col.shape() != [rt.nrows(), 1] {
        return Ok(None);
    }
    let expanded = repeat_rows(col.data(), rt.outer().row_splits(), fv.size())?;
    let data = if swapped {
        kernels::binary(op, &expanded, fv.data(), fv.size())?
    } else {
        kernels::binary(op, fv.data(), &expanded, fv.size())?
    };
    Ok(Some(rebuild_like(&Array::Ragged(rt.clone()), data)))
}

/// Element `r` of `col` repeated as many times as row `r` has values (`n` in all), written in
/// one pass over the row splits.
fn repeat_rows(col: &Buffer, splits: &[i64], n: usize) -> Result<Buffer> {
    /// Each element of `v` repeated for its row.
    #[inline(always)]
    fn repeat<T: Element>(v: &[T], splits: &[i64], n: usize) -> Result<Buffer> {
        let mut out = budget::vec("broadcasting", n)?;
        for (w, &x) in splits.windows(2).zip(v) {
            out.extend(std::iter::repeat_n(x, (w[1] - w[0]) as usize));
        }
        Ok(Buffer::from(out))
    }
    crate::dispatch!(elements col, v => repeat(v, splits, n), Buffer::Str(s) => {
        let mut idx = budget::vec("broadcasting", n)?;
        for (r, w) in splits.windows(2).enumerate() {
            idx.extend(std::iter::repeat_n(r, (w[1] - w[0]) as usize));
        }
        Ok(Buffer::Str(s.gather(&idx)))
    })
}

fn gather_if_needed(t: &Tensor, pos: &[usize]) -> Option<crate::Buffer> {
    let identity = pos.len() == t.size() && pos.iter().enumerate().all(|(i, &p)| i == p);
    (!identity).then(|| t.data().gather(pos))
}

/// The broadcast result's structure and, for each result element, the element of each operand.
pub struct Plan {
    /// Result dims after the first: row lengths per parent, and whether the dim is ragged.
    levels: Vec<(Vec<i64>, Option<usize>)>,
    nrows: usize,
    /// Flat element index into `a`'s flat values for each result element.
    pub pos_a: Vec<usize>,
    /// Flat element index into `b`'s flat values for each result element.
    pub pos_b: Vec<usize>,
}

/// Works out how `a` and `b` broadcast together.
pub fn plan(a: &Array, b: &Array) -> Result<Plan> {
    let mut da = dims_of(a);
    let mut db = dims_of(b);
    let rank = da.len().max(db.len());
    while da.len() < rank {
        da.insert(0, DimSpec::Uniform(1));
    }
    while db.len() < rank {
        db.insert(0, DimSpec::Uniform(1));
    }
    let mut pos_a = vec![0usize];
    let mut pos_b = vec![0usize];
    let mut levels = Vec::new();
    let mut nrows = 1;
    for d in 0..rank {
        let (xa, xb) = (da[d], db[d]);
        let ragged = matches!(xa, DimSpec::Ragged(_)) || matches!(xb, DimSpec::Ragged(_));
        let mut lengths = budget::vec("broadcasting", pos_a.len())?;
        let mut total = 0usize;
        for p in 0..pos_a.len() {
            let (_, la) = extent(xa, pos_a[p]);
            let (_, lb) = extent(xb, pos_b[p]);
            // Only a uniform size 1 broadcasts: a ragged row that happens to hold one
            // element does not (TensorFlow's rule).
            let lr = if la == lb || (lb == 1 && matches!(xb, DimSpec::Uniform(_))) {
                la
            } else if la == 1 && matches!(xa, DimSpec::Uniform(_)) {
                lb
            } else {
                return Err(mismatch(d, p, la, lb, ragged, pos_a.len()));
            };
            lengths.push(lr as i64);
            total = size::add(total, lr)?;
        }
        // The positions into both operands, and the result itself (up to 8 bytes an
        // element), for every element of the next level.
        budget::check(
            "broadcasting",
            total as u128,
            3 * std::mem::size_of::<usize>(),
        )?;
        let mut na = budget::vec("broadcasting", total)?;
        let mut nb = budget::vec("broadcasting", total)?;
        for (p, &lr) in lengths.iter().enumerate() {
            let lr = lr as usize;
            let (sa, la) = extent(xa, pos_a[p]);
            let (sb, lb) = extent(xb, pos_b[p]);
            for j in 0..lr {
                na.push(sa + if la == 1 { 0 } else { j });
                nb.push(sb + if lb == 1 { 0 } else { j });
            }
        }
        if d == 0 {
            nrows = lengths[0] as usize;
        } else {
            let uniform = if ragged {
                None
            } else {
                Some(lengths.first().copied().unwrap_or(0) as usize)
            };
            levels.push((lengths, uniform));
        }
        pos_a = na;
        pos_b = nb;
    }
    Ok(Plan {
        levels,
        nrows,
        pos_a,
        pos_b,
    })
}

/// Where the children of element `i` start, and how many there are, in dimension `dim`.
fn extent(dim: DimSpec<'_>, i: usize) -> (usize, usize) {
    match dim {
        DimSpec::Uniform(s) => (i * s, s),
        DimSpec::Ragged(p) => {
            let (a, b) = p.row_range(i);
            (a, b - a)
        }
    }
}

fn mismatch(
    d: usize,
    p: usize,
    la: usize,
    lb: usize,
    ragged: bool,
    parents: usize,
) -> crate::Exception {
    crate::EngineError::Broadcast {
        dim: d,
        left: la,
        right: lb,
        row: (ragged && parents > 1).then_some(p),
    }
    .into()
}

impl Plan {
    /// Assembles the result from elementwise output `data` (one element per result element).
    pub fn build(self, data: crate::Buffer) -> Result<Array> {
        // The innermost ragged level decides the ragged rank.
        let last_ragged = self.levels.iter().rposition(|(_, u)| u.is_none());
        let Some(rr) = last_ragged else {
            let mut shape = vec![self.nrows];
            shape.extend(self.levels.iter().map(|(_, u)| u.unwrap_or(0)));
            return Ok(Array::Dense(Tensor::from_parts(shape, data)));
        };
        let mut partitions = Vec::new();
        for (lengths, uniform) in &self.levels[..=rr] {
            let p = RowPartition::from_row_lengths(lengths, None)?;
            partitions.push(p.with_uniform(uniform.map(|u| u as i64)));
        }
        let nvals = partitions.last().map_or(0, |p| p.nvals());
        let mut flat_shape = vec![nvals];
        flat_shape.extend(self.levels[rr + 1..].iter().map(|(_, u)| u.unwrap_or(0)));
        let fv = Tensor::new(flat_shape, data)?;
        Ragged::new(partitions, fv).map(Array::Ragged)
    }
}
