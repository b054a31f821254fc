//! Selecting by condition: `tf.boolean_mask` (flattens the mask dimensions),
//! `tf.ragged.boolean_mask` (keeps them) and `tf.where` (coordinates, or elementwise choice
//! between two tensors with ragged broadcasting).

use super::broadcast;
use crate::budget;
use crate::buffer::Buffer;
use crate::dtype::DType;
use crate::element::Element;
use crate::error::Result;
use crate::partition::RowPartition;
use crate::ragged::{Array, Ragged};
use crate::size::{dense_shape_str, shape_str};
use crate::tensor::Tensor;
use crate::{invalid_arg, type_error, value_error};

/// The elements of a mask as bools: `True`, or nonzero numbers.
fn truth(t: &Tensor) -> Result<Vec<bool>> {
    crate::dispatch!(elements t.data(), T: v => Ok(v.iter().map(|&x| x != T::default()).collect()),
        Buffer::Str(_) => Err(type_error!("a mask or condition must be bool, not string")))
}

fn incompatible(what: &[usize], mask: &[usize]) -> crate::Exception {
    value_error!(
        "the mask has shape {}, but the masked dimensions of the tensor have shape {}",
        super::dense_shape_str(mask),
        super::dense_shape_str(what)
    )
    .with_hint("the mask's shape must equal the tensor's shape in the dimensions it covers")
}

/// `tf.boolean_mask(tensor, mask, axis)`: the slices of `tensor` where `mask` is true, with
/// the mask's dimensions flattened into one.
pub fn boolean_mask_dense(t: &Tensor, mask: &Tensor, axis: usize) -> Result<Tensor> {
    let k = mask.rank();
    if k == 0 {
        return Err(value_error!("mask cannot be a scalar"));
    }
    let shape = t.shape();
    if axis + k > shape.len() || shape[axis..axis + k] != *mask.shape() {
        let end = (axis + k).min(shape.len());
        return Err(incompatible(&shape[axis.min(end)..end], mask.shape()));
    }
    let keep = truth(mask)?;
    let leading: usize = shape[..axis].iter().product();
    let m = keep.len();
    let inner: usize = shape[axis + k..].iter().product();
    let selected: Vec<usize> = (0..m).filter(|&i| keep[i]).collect();
    let mut ranges = budget::vec("a mask op", leading * selected.len())?;
    for o in 0..leading {
        for &s in &selected {
            let start = (o * m + s) * inner;
            ranges.push((start, start + inner));
        }
    }
    let mut out_shape = shape[..axis].to_vec();
    out_shape.push(selected.len());
    out_shape.extend_from_slice(&shape[axis + k..]);
    Ok(Tensor::from_parts(
        out_shape,
        t.data().gather_ranges(&ranges),
    ))
}

/// `tf.ragged.boolean_mask(data, mask)`: like `tf.boolean_mask`, but the mask's dimensions
/// stay: each innermost mask row keeps only its true positions, so rows become ragged.
pub fn ragged_boolean_mask(data: &Array, mask: &Array) -> Result<Array> {
    if mask.rank() == 0 {
        return Err(value_error!("mask cannot be a scalar"));
    }
    if mask.rank() > data.rank() {
        return Err(value_error!(
            "the mask has rank {}, but the data has rank {}: the mask's shape must be a prefix of the data's",
            mask.rank(),
            data.rank()
        ));
    }
    match (data, mask) {
        (_, Array::Ragged(m)) => {
            let d = match data {
                Array::Ragged(r) => r.clone(),
                Array::Dense(t) => Ragged::from_tensor_uniform(t, m.ragged_rank())?,
            };
            if d.ragged_rank() < m.ragged_rank() {
                return Err(value_error!(
                    "the mask has ragged rank {}, but the data only {}",
                    m.ragged_rank(),
                    d.ragged_rank()
                ));
            }
            for (k, (pm, pd)) in m.partitions().iter().zip(d.partitions()).enumerate() {
                if pm.row_splits() != pd.row_splits() {
                    return Err(invalid_arg!(
                        "the mask and the data have different row lengths in dimension {}",
                        k + 1
                    )
                    .with_hint(
                        "the mask must have exactly the data's shape in the dimensions it covers",
                    ));
                }
            }
            // Strip the mask's ragged dimensions, mask the values, and put them back; the
            // innermost stripped dimension's rows shrink to their count of true values.
            let mut splits = budget::vec("a mask op", m.ragged_rank())?;
            let mut mask_cur = Array::Ragged(m.clone());
            let mut data_cur = Array::Ragged(d);
            while let Array::Ragged(mr) = &mask_cur {
                if mr.rank() > 2 {
                    splits.push(mr.outer().row_splits().to_vec());
                } else {
                    let keep = truth(mr.flat_values())?;
                    let mut s = budget::vec("a mask op", mr.nrows() + 1)?;
                    s.push(0i64);
                    for r in 0..mr.nrows() {
                        let (a, b) = mr.outer().row_range(r);
                        let n = keep[a..b].iter().filter(|&&x| x).count() as i64;
                        s.push(s[s.len() - 1] + n);
                    }
                    splits.push(s);
                }
                let next_mask = mr.values();
                let Array::Ragged(dr) = &data_cur else {
                    unreachable!("data is at least as ragged")
                };
                let next_data = dr.values();
                mask_cur = next_mask;
                data_cur = next_data;
            }
            let mut out = ragged_boolean_mask(&data_cur, &mask_cur)?;
            for s in splits.into_iter().rev() {
                let p = RowPartition::from_row_splits(s, None)?;
                out = Array::Ragged(Ragged::from_partition(p, out)?);
            }
            Ok(out)
        }
        (Array::Ragged(d), Array::Dense(m)) if m.rank() == 1 => {
            if m.size() != d.nrows() {
                return Err(incompatible(&[d.nrows()], m.shape()));
            }
            let keep = truth(m)?;
            let lengths: Vec<i64> = d
                .row_lengths()
                .iter()
                .zip(&keep)
                .filter(|(_, &k)| k)
                .map(|(&l, _)| l)
                .collect();
            let value_keep: Vec<bool> = d
                .outer()
                .value_rowids()
                .iter()
                .map(|&r| keep[r as usize])
                .collect();
            let vmask = Array::Dense(Tensor::vector(Buffer::from(value_keep)));
            let values = ragged_boolean_mask(&d.values(), &vmask)?;
            let p = RowPartition::from_row_lengths(&lengths, None)?;
            Ragged::from_partition(p, values).map(Array::Ragged)
        }
        (Array::Ragged(d), Array::Dense(m)) => {
            let rr = d.ragged_rank().min(m.rank() - 1);
            let rm = Ragged::from_tensor_uniform(m, rr)?;
            ragged_boolean_mask(data, &Array::Ragged(rm))
        }
        (Array::Dense(t), Array::Dense(m)) => {
            let values = boolean_mask_dense(t, m, 0)?;
            if m.rank() < 2 {
                return Ok(Array::Dense(values));
            }
            // Innermost mask rows keep their count of true values; outer mask dimensions
            // become (ragged-marked) partitions of fixed length.
            let keep = truth(m)?;
            let ms = m.shape();
            let last = ms[ms.len() - 1];
            let lengths: Vec<i64> = keep
                .chunks(last.max(1))
                .take(keep.len() / last.max(1))
                .map(|c| c.iter().filter(|&&x| x).count() as i64)
                .collect();
            let lengths = if last == 0 {
                budget::filled("a mask op", 0, ms[..ms.len() - 1].iter().product())?
            } else {
                lengths
            };
            let p = RowPartition::from_row_lengths(&lengths, None)?;
            let mut out = Ragged::from_partition(p, Array::Dense(values))?;
            for d in (0..ms.len() - 2).rev() {
                let rows: usize = ms[..=d].iter().product();
                let len = ms[d + 1];
                let splits = (0..=rows).map(|i| (i * len) as i64).collect();
                let p = RowPartition::from_row_splits(splits, None)?;
                out = Ragged::from_partition(p, Array::Ragged(out))?;
            }
            Ok(Array::Ragged(out))
        }
    }
}

/// `tf.where(condition)`: the coordinates of the true (nonzero) elements, as an int64
/// matrix with one row per element and one column per dimension.
pub fn where_coords(c: &Array) -> Result<Tensor> {
    let fv = c.flat_values();
    let keep = truth(fv)?;
    let rank = c.rank();
    let inner = &fv.shape()[1.min(fv.rank())..];
    let per: usize = inner.iter().product();
    let mut out: Vec<i64> = Vec::new();
    let mut coord = budget::filled("a mask op", 0i64, rank)?;
    for (e, _) in keep.iter().enumerate().filter(|(_, &k)| k) {
        // Dense dimensions of the flat values, innermost first.
        let mut rest = e;
        let fr = fv.rank();
        for d in (0..fr).rev() {
            let size = fv.shape()[d];
            coord[rank - fr + d] = (rest % size.max(1)) as i64;
            rest /= size.max(1);
        }
        if let Array::Ragged(r) = c {
            // Walk the partitions upward: a value's row and its position in that row.
            let mut v = e / per.max(1);
            for (k, p) in r.partitions().iter().enumerate().rev() {
                let row = p.value_rowids()[v] as usize;
                coord[k + 1] = (v - p.row_splits()[row] as usize) as i64;
                v = row;
            }
            coord[0] = v as i64;
        }
        out.extend_from_slice(&coord);
    }
    let n = out.len() / rank.max(1);
    Ok(Tensor::from_parts(
        vec![
            if rank == 0 {
                keep.iter().filter(|&&k| k).count()
            } else {
                n
            },
            rank,
        ],
        Buffer::from(out),
    ))
}

/// `tf.where(condition, x, y)`: `x` where the condition holds and `y` elsewhere, after
/// broadcasting all three together (ragged dimensions row by row).
pub fn where_select(c: &Array, x: &Array, y: &Array) -> Result<Array> {
    if c.dtype() != DType::Bool {
        return Err(
            type_error!("the condition of tf.where must be bool, not {}", c.dtype())
                .with_hint("compare first, e.g. tf.where(x > 0, x, y)"),
        );
    }
    if x.dtype() != y.dtype() {
        return Err(invalid_arg!(
            "x has dtype {} but y has dtype {}: tf.where needs one dtype",
            x.dtype(),
            y.dtype()
        ));
    }
    // Broadcast x with y, then the result with the condition; each plan maps a result
    // element back to an element of its operands.
    let p1 = broadcast::plan(x, y)?;
    let (pos_x, pos_y) = (p1.pos_a.clone(), p1.pos_b.clone());
    let ids: Vec<i64> = (0..pos_x.len() as i64).collect();
    let ids = Buffer::from(ids);
    let xy = p1.build(ids)?;
    let p2 = broadcast::plan(&xy, c)?;
    let xy_ids = xy.flat_values().to_i64_vec().expect("ids");
    let cond = bool::of(c.flat_values().data()).expect("checked bool");
    let nx = x.flat_values().size();
    let both = Buffer::concat(x.dtype(), &[x.flat_values().data(), y.flat_values().data()])?;
    let picks: Vec<usize> = p2
        .pos_a
        .iter()
        .zip(&p2.pos_b)
        .map(|(&a, &b)| {
            let id = xy_ids[a] as usize;
            if cond[b] {
                pos_x[id]
            } else {
                nx + pos_y[id]
            }
        })
        .collect();
    let data = both.gather(&picks);
    let out = p2.build(data)?;
    // Scalars in, a scalar out.
    match out {
        Array::Dense(t) if c.rank() == 0 && x.rank() == 0 && y.rank() == 0 => {
            Ok(Array::Dense(t.reshaped(Vec::new())?))
        }
        out => Ok(out),
    }
}

/// `tf.compat.v1.where(condition, x, y)`: no broadcasting. With a condition of x's shape
/// the choice is per element (ragged inputs must share their row partitions); with a
/// vector condition on x and y of higher rank, whole rows are chosen.
pub fn where_v1(c: &Array, x: &Array, y: &Array) -> Result<Array> {
    if c.dtype() != DType::Bool {
        return Err(type_error!(
            "the condition of tf.where must be bool, not {}",
            c.dtype()
        ));
    }
    let any_ragged = [c, x, y].iter().any(|a| matches!(a, Array::Ragged(_)));
    let same = |a: &Array, b: &Array| match (a, b) {
        (Array::Dense(s), Array::Dense(t)) => s.shape() == t.shape(),
        (Array::Ragged(r), Array::Ragged(q)) => {
            r.ragged_rank() == q.ragged_rank()
                && r.partitions()
                    .iter()
                    .zip(q.partitions())
                    .all(|(p, o)| p.row_splits() == o.row_splits())
                && r.flat_values().shape() == q.flat_values().shape()
        }
        _ => false,
    };
    let c_ragged = matches!(c, Array::Ragged(_));
    if (!any_ragged || c_ragged) && same(c, x) && same(x, y) {
        return where_select(c, x, y);
    }
    if c_ragged {
        if matches!(x, Array::Ragged(_)) && matches!(y, Array::Ragged(_)) {
            return Err(invalid_arg!(
                "condition, x and y must have the same row partitions and shape"
            ));
        }
        return Err(value_error!("Input shapes do not match."));
    }
    // A vector condition picks whole rows of x or y.
    let Array::Dense(ct) = c else {
        unreachable!("checked above")
    };
    if ct.rank() != 1 {
        return Err(if any_ragged {
            value_error!(
                "the condition must be a vector (rank 1) to pick rows of ragged x and y, not rank {}",
                ct.rank()
            )
        } else {
            invalid_arg!(
                "condition must be a vector or have the shape of x, but has shape {} and x {}",
                dense_shape_str(ct.shape()),
                shape_str(&x.shape())
            )
        });
    }
    let n = ct.shape()[0];
    if x.rank() == 0 || x.nrows() != n || y.rank() == 0 || y.nrows() != n {
        return Err(invalid_arg!(
            "condition has {n} elements, but x has {} rows and y {}: they must match",
            x.nrows(),
            y.nrows()
        ));
    }
    if x.dtype() != y.dtype() {
        return Err(invalid_arg!(
            "x has dtype {} but y has dtype {}: tf.where needs one dtype",
            x.dtype(),
            y.dtype()
        ));
    }
    let cond = bool::of(ct.data()).expect("checked bool");
    let mut picks = budget::vec("tf.where", n)?;
    picks.extend(
        cond.iter()
            .enumerate()
            .map(|(i, &t)| if t { i as i64 } else { (n + i) as i64 }),
    );
    let both = super::concat::concat(&[x.clone(), y.clone()], 0)?;
    super::gather::gather(&both, &Array::Dense(Tensor::from_i64(picks)), None, 0)
}

#[cfg(test)]
#[allow(clippy::disallowed_methods)] // small fixed sizes
mod tests {
    use super::*;

    fn ragged_i32(lengths: &[i64], values: Vec<i32>) -> Array {
        let p = RowPartition::from_row_lengths(lengths, None).unwrap();
        Array::Ragged(Ragged::new(vec![p], Tensor::vector(Buffer::I32(values.into()))).unwrap())
    }
    fn ragged_bool(lengths: &[i64], values: Vec<bool>) -> Array {
        let p = RowPartition::from_row_lengths(lengths, None).unwrap();
        Array::Ragged(Ragged::new(vec![p], Tensor::vector(Buffer::Bool(values.into()))).unwrap())
    }
    fn dense_bool(shape: &[usize], v: Vec<bool>) -> Tensor {
        Tensor::new(shape.to_vec(), Buffer::Bool(v.into())).unwrap()
    }

    #[test]
    fn dense_mask_flattens() {
        let t = Tensor::new(vec![2, 3], Buffer::from(vec![1i32, 2, 3, 4, 5, 6])).unwrap();
        let m = dense_bool(&[2, 3], vec![true, false, true, false, false, true]);
        let out = boolean_mask_dense(&t, &m, 0).unwrap();
        assert_eq!(out.shape(), &[3]);
        assert_eq!(out.data(), &Buffer::from(vec![1i32, 3, 6]));
        let rows = boolean_mask_dense(&t, &dense_bool(&[2], vec![false, true]), 0).unwrap();
        assert_eq!(rows.shape(), &[1, 3]);
        let cols = boolean_mask_dense(&t, &dense_bool(&[3], vec![false, true, true]), 1).unwrap();
        assert_eq!(cols.data(), &Buffer::from(vec![2i32, 3, 5, 6]));
        let e = boolean_mask_dense(&t, &dense_bool(&[3], vec![true; 3]), 0).unwrap_err();
        assert_eq!(e.class, crate::ExceptionClass::ValueError);
        assert!(boolean_mask_dense(&t, &dense_bool(&[], vec![true]), 0).is_err());
        let none = boolean_mask_dense(&t, &dense_bool(&[2], vec![false, false]), 0).unwrap();
        assert_eq!(none.shape(), &[0, 3]);
    }

    #[test]
    fn ragged_masks_keep_dimensions() {
        let t = Array::Dense(Tensor::new(vec![3, 3], Buffer::I32((1..=9).collect())).unwrap());
        let m = Array::Dense(dense_bool(
            &[3, 3],
            vec![true, false, true, false, false, false, true, false, false],
        ));
        let Array::Ragged(out) = ragged_boolean_mask(&t, &m).unwrap() else {
            panic!()
        };
        assert_eq!(out.row_lengths(), &[2, 0, 1]);
        assert_eq!(out.flat_values().to_i64_vec().unwrap(), vec![1, 3, 7]);

        let data = ragged_i32(&[3, 1, 2], vec![1, 2, 3, 4, 5, 6]);
        let mask = ragged_bool(&[3, 1, 2], vec![false, false, true, false, true, true]);
        let Array::Ragged(out) = ragged_boolean_mask(&data, &mask).unwrap() else {
            panic!()
        };
        assert_eq!(out.row_lengths(), &[1, 0, 2]);
        assert_eq!(out.flat_values().to_i64_vec().unwrap(), vec![3, 5, 6]);

        let rows = Array::Dense(dense_bool(&[3], vec![true, false, true]));
        let Array::Ragged(out) = ragged_boolean_mask(&data, &rows).unwrap() else {
            panic!()
        };
        assert_eq!(out.row_lengths(), &[3, 2]);
        assert_eq!(out.flat_values().to_i64_vec().unwrap(), vec![1, 2, 3, 5, 6]);

        let bad = ragged_bool(&[2, 2, 2], vec![true; 6]);
        let e = ragged_boolean_mask(&data, &bad).unwrap_err();
        assert_eq!(e.class, crate::ExceptionClass::InvalidArgumentError);
        let empty = ragged_i32(&[0, 0], vec![]);
        let em = ragged_bool(&[0, 0], vec![]);
        let Array::Ragged(out) = ragged_boolean_mask(&empty, &em).unwrap() else {
            panic!()
        };
        assert_eq!(out.row_lengths(), &[0, 0]);
    }

    #[test]
    fn coordinates() {
        let c = ragged_bool(&[3, 2], vec![true, false, true, false, true]);
        let out = where_coords(&c).unwrap();
        assert_eq!(out.shape(), &[3, 2]);
        assert_eq!(out.data(), &Buffer::from(vec![0i64, 0, 0, 2, 1, 1]));
        let d = Array::Dense(dense_bool(&[2, 2], vec![false, true, true, false]));
        assert_eq!(
            where_coords(&d).unwrap().data(),
            &Buffer::from(vec![0i64, 1, 1, 0])
        );
        let none = Array::Dense(dense_bool(&[2], vec![false, false]));
        assert_eq!(where_coords(&none).unwrap().shape(), &[0, 1]);
    }

    #[test]
    fn select() {
        let c = ragged_bool(&[2, 3], vec![true, false, true, false, true]);
        let x = ragged_i32(&[2, 3], vec![1, 2, 3, 4, 5]);
        let y = ragged_i32(&[2, 3], vec![10, 20, 30, 40, 50]);
        let Array::Ragged(out) = where_select(&c, &x, &y).unwrap() else {
            panic!()
        };
        assert_eq!(
            out.flat_values().to_i64_vec().unwrap(),
            vec![1, 20, 3, 40, 5]
        );
        let zero = Array::Dense(Tensor::scalar(crate::Scalar::I32(0)));
        let Array::Ragged(out) = where_select(&c, &x, &zero).unwrap() else {
            panic!()
        };
        assert_eq!(out.flat_values().to_i64_vec().unwrap(), vec![1, 0, 3, 0, 5]);
        assert_eq!(
            where_select(&x, &x, &y).unwrap_err().class,
            crate::ExceptionClass::TypeError
        );
        let bad = ragged_bool(&[3, 2], vec![true; 5]);
        assert!(where_select(&bad, &x, &y).is_err());
    }
}
